"""Profiles: rating with its history chart (server-rendered SVG), the record, recent matches."""

from __future__ import annotations

import re

import pytest

from game.accounts.selectors import rating_chart
from game.matches.services.results import results_record
from game.models import Match, RatingChange
from tests.support.community_factories import establish, make_match, make_player, verdict


@pytest.mark.django_db
@pytest.mark.services
def test_profile_shows_record_rating_history_and_recent_matches(client) -> None:
    # Bob's rating is settled (not provisional): Alice's wins against him are not capped by the day's
    # allowance for wins against provisional ratings (game/ratings/rules.py), so each shows its gain.
    alice, bob = make_player("Alice"), make_player("Bob", rating_deviation=60.0)
    establish(alice, bob)  # accounts whose rated results count (game/ratings/rules.py)
    for i, winner in enumerate([alice, alice, bob]):
        match = make_match(
            alice, bob, winner=winner, scores=(60, 20 + i), shots=[(alice, verdict(4)), (alice, verdict(9))]
        )
        results_record(match=match)
    casual = make_match(alice, bob, rated=False, winner=alice, scores=(60, 5))
    results_record(match=casual)

    response = client.get("/players/Alice/")

    assert response.status_code == 200
    stats = response.context["stats"]
    assert (stats["played"], stats["won"], stats["lost"], stats["best_break"], stats["rated_games"]) == (4, 3, 1, 13, 3)
    assert stats["rating"].endswith("?")  # three rated matches: still provisional
    html = response.content.decode()
    assert '<svg class="rating-chart"' in html
    assert len(re.findall(r'<circle class="dot"', html)) == 4  # the start plus three rated matches
    # The four matches above, newest first; after them the older games against the computer that
    # made the accounts established (establish).
    recent = response.context["recent"][:4]
    assert [r["outcome"] for r in recent] == ["won", "lost", "won", "won"]
    assert recent[0]["delta"] is None and recent[1]["delta"] < 0 < recent[2]["delta"]
    assert f"/m/{casual.pk}/replay/" in html and 'href="/players/Bob/"' in html


@pytest.mark.django_db
def test_profile_of_a_newcomer_and_of_nobody(client) -> None:
    make_player("Newbie")
    response = client.get("/players/Newbie/")
    assert response.status_code == 200
    assert b"No rated matches yet" in response.content and b"1500?" in response.content
    assert client.get("/players/Ghost/").status_code == 404


@pytest.mark.django_db
def test_rating_chart_follows_the_history() -> None:
    alice, bob = make_player("Alice"), make_player("Bob")
    match = make_match(alice, bob, winner=alice)
    changes = [
        RatingChange(
            user=alice,
            match=match,
            rating_before=b,
            rating_after=a,
            deviation_before=300,
            deviation_after=250,
            volatility_before=0.06,
            volatility_after=0.06,
        )
        for b, a in [(1500, 1600), (1600, 1550), (1550, 1700)]
    ]
    chart = rating_chart(history=changes, width=600, height=200)
    ys = [p["y"] for p in chart.points]
    assert [p["rating"] for p in chart.points] == [1500, 1600, 1550, 1700]
    assert ys[1] < ys[0] and ys[2] > ys[1] and ys[3] < ys[1]  # SVG y grows downwards
    assert chart.points[0]["x"] < chart.points[-1]["x"] <= 600
    assert chart.line.startswith("M") and chart.line.count("L") == 3
    assert rating_chart(history=[]).empty
    assert Match.objects.count() == 1
