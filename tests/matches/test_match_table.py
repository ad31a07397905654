"""The pages of a match draw its own table: a match played with the post-2016 67 mm balls (the K-1.2
flag ``ball_diameter``) gets a table whose balls are 67 mm on the match page (where the aim line is
computed with it), the replay and the Watch page's featured match; every other match the 68 mm one."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client

from game.engine.rules import Match as EngineMatch
from game.matches.selectors.match_state import match_table
from game.models import Match
from tests.support.community_factories import make_player

SMALL = {"ball_diameter": 0.067}


def _page_json(html: str, element_id: str) -> Any:
    found = re.search(rf'<script id="{element_id}" type="application/json">(.*?)</script>', html, re.S)
    assert found, element_id
    return json.loads(found.group(1))


def _match(ruleset: dict[str, Any] | None, status: str = Match.Status.ACTIVE) -> Match:
    alice, bob = make_player("Alice"), make_player("Bob")
    engine = EngineMatch.new(players=("Alice", "Bob"), ruleset=ruleset, time_limit=None)
    return Match.objects.create(
        player1=alice, player2=bob, status=status, rated=False, ruleset=ruleset or {}, snapshot=engine.snapshot()
    )


@pytest.mark.django_db
@pytest.mark.parametrize(("ruleset", "radius"), [(SMALL, 0.0335), (None, 0.034)])
def test_the_match_page_draws_and_aims_on_the_matchs_own_table(
    client: Client, ruleset: dict[str, Any] | None, radius: float
) -> None:
    """K-1.2: the page's table (what it draws and computes the aim line with) has the match's balls."""
    match = _match(ruleset)
    table = _page_json(client.get(f"/m/{match.pk}/").content.decode(), "kaiza-table")
    assert table["ball_radius"] == radius
    assert table["physics"]["ball_mass"] > 0  # the aim preview's coefficients ride along
    # Before the first input the stored ruleset alone says it; a snapshot's ruleset says it after.
    match.snapshot = {}
    assert match_table(match=match).ball_radius == radius


@pytest.mark.django_db
def test_the_replay_and_the_watch_page_draw_the_matchs_own_table(client: Client) -> None:
    match = _match(SMALL)
    featured = client.get("/watch/").context["featured"]
    assert featured["id"] == match.pk and featured["table"]["ball_radius"] == 0.0335
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    page = client.get(f"/m/{match.pk}/replay/").content.decode()
    assert _page_json(page, "table-data")["ball_radius"] == 0.0335


@pytest.mark.django_db
def test_a_stored_ruleset_the_engine_refuses_leaves_the_standard_table(client: Client) -> None:
    match = _match(None)
    Match.objects.filter(pk=match.pk).update(snapshot={**match.snapshot, "ruleset": {"ball_diameter": "big"}})
    match.refresh_from_db()
    assert match_table(match=match).ball_radius == 0.034
