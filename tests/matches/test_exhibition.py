"""A fresh install's Watch page has a match to watch: with nothing live, it starts a computer exhibition
(levels 2 and 3, casual, a 10-minute K-11 limit), one at a time and never beside a real match, which
the computer players play through the same services as any match; the server's poll wakes them."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from game.engine.bot import choose_move
from game.matches import bot_runner
from game.matches.clock_runner import EACH_POLL
from game.matches.services import exhibitions_to_wake, match_create
from game.matches.services.exhibition import EXHIBITION_TIME_LIMIT, EXHIBITIONS_KEPT, exhibitions
from game.models import Match
from tests.support.community_factories import make_player

pytestmark = pytest.mark.django_db


def test_the_watch_page_shows_a_computer_match_when_nobody_plays(client: Client, settings: Any) -> None:
    page = client.get("/watch/")
    assert page.context["live"] == []  # the site does not show one (settings.KAIZA_SHOWCASE off)
    settings.KAIZA_SHOWCASE = True
    page = client.get("/watch/")
    (row,) = page.context["live"]
    assert [p["name"] for p in row["players"]] == ["Bot-L2", "Bot-L3"]
    assert page.context["featured"]["id"] == row["id"]
    assert "Nobody is playing right now" not in page.content.decode()
    match = Match.objects.get(pk=row["id"])
    assert match.status == Match.Status.ACTIVE and not match.rated and match.time_limit == EXHIBITION_TIME_LIMIT
    # One at a time: the page's poll and another visitor see the same one.
    assert [m["id"] for m in client.get("/watch.json").json()["matches"]] == [row["id"]]
    assert exhibitions().count() == 1

    # The server's poll wakes its players: the computer plays it as any match, the lag first.
    assert bot_runner.exhibitions_tend in EACH_POLL
    assert exhibitions_to_wake() == [match.pk]
    due = bot_runner.bot_due(match.pk)
    assert due is not None and due.exhibition and due.action == "lag"
    move = choose_move(due.snapshot, due.level, player=due.name, seed=1, simulations=10)
    bot_runner.play_move(match.pk, due, move)
    assert Match.objects.get(pk=match.pk).version == 2
    assert exhibitions_to_wake() == []  # being played: nobody wakes it twice


def test_no_exhibition_beside_a_real_match_and_only_a_few_kept(client: Client, settings: Any) -> None:
    settings.KAIZA_SHOWCASE = True
    human, _ = match_create(
        user=make_player("Ann"), rated=False, time_limit=None, shot_clock=None, opponent_bot_level=1
    )
    live = client.get("/watch/").context["live"]
    assert [m["id"] for m in live] == [human.pk] and not exhibitions().exists()
    Match.objects.filter(pk=human.pk).update(status=Match.Status.ABORTED)
    for _ in range(EXHIBITIONS_KEPT + 2):
        (row,) = client.get("/watch.json").json()["matches"]
        Match.objects.filter(pk=row["id"]).update(status=Match.Status.FINISHED)
    # Each ended exhibition made room for the next; only the last few are kept (their replays).
    assert exhibitions().count() <= EXHIBITIONS_KEPT + 1
