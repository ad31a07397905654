"""Leaderboards (global eligibility, order, pagination; the club board) and the live list behind the
Watch page and the featured match."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from game.accounts.selectors import LEADERBOARD_ACTIVE_DAYS, LEADERBOARD_MIN_RATED_GAMES, leaderboard_global
from game.matches.selectors import live as live_selectors
from game.models import Match, MatchConnection
from tests.support.community_factories import establish, make_club, make_match, make_player


def ranked(name: str, rating: float, *, games: int = LEADERBOARD_MIN_RATED_GAMES, days_ago: int = 1, **extra):
    return make_player(
        name,
        rating=rating,
        rating_deviation=80,
        rated_games=games,
        games_played=games,
        last_played_at=timezone.now() - timedelta(days=days_ago),
        **extra,
    )


@pytest.mark.django_db
@pytest.mark.services
def test_global_leaderboard_eligibility_and_order(client) -> None:
    ranked("Mid", 1600)
    ranked("Top", 1800)
    ranked("Low", 1400)
    ranked("TieMoreGames", 1600, games=9)
    ranked("FewGames", 2000, games=LEADERBOARD_MIN_RATED_GAMES - 1)
    ranked("Inactive", 2100, days_ago=LEADERBOARD_ACTIVE_DAYS + 1)
    ranked("Guest", 2200, is_guest=True)
    ranked("Robot", 2300, is_bot=True)
    make_player("NeverPlayed", rating=2400)

    response = client.get("/leaderboard/")

    assert response.status_code == 200
    rows = list(response.context["page"].object_list)
    assert [p.display_name for p in rows] == ["Top", "Mid", "TieMoreGames", "Low"]
    assert [p.rank for p in rows] == [1, 2, 3, 4]
    html = response.content.decode()
    assert 'href="/players/Top/"' in html and "1800" in html
    for hidden in ("FewGames", "Inactive", "Guest", "Robot", "NeverPlayed"):
        assert hidden not in html


@pytest.mark.django_db
def test_global_leaderboard_pages_keep_ranks(client) -> None:
    for i in range(7):
        ranked(f"P{i}", 1500 + 10 * i)
    page1 = leaderboard_global(page=1, per_page=3)
    page3 = leaderboard_global(page=3, per_page=3)
    assert [p.display_name for p in page1.object_list] == ["P6", "P5", "P4"]
    assert [(p.display_name, p.rank) for p in page3.object_list] == [("P0", 7)]
    assert leaderboard_global(page="junk", per_page=3).number == 1
    assert client.get("/leaderboard/?page=999").status_code == 200


@pytest.mark.django_db
def test_provisional_ratings_show_a_question_mark(client) -> None:
    make_player("Newbie", rating=1620, rating_deviation=200, rated_games=3, last_played_at=timezone.now())
    assert "1620?" in client.get("/leaderboard/").content.decode()


@pytest.mark.django_db
@pytest.mark.services
def test_club_leaderboard_ranks_members_with_club_games(client) -> None:
    owner, alice, bob, carol = (
        make_player("Owner", rating=1500),
        make_player("Alice", rating=1700),
        make_player("Bob", rating=1600),
        make_player("Carol", rating=1900),
    )
    outsider = make_player("Outsider", rating=2500)
    club = make_club("Board Club", owner, members=(alice, bob, carol))
    make_match(alice, bob, winner=alice, club=club)
    make_match(alice, owner, winner=owner, club=club, rated=False)
    make_match(carol, outsider, winner=carol)  # not a club match: Carol stays unranked

    response = client.get("/clubs/board-club/")

    rows = list(response.context["board"].object_list)
    assert [(p.display_name, p.rank, p.club_games, p.club_wins) for p in rows] == [
        ("Alice", 1, 2, 1),
        ("Bob", 2, 1, 0),
        ("Owner", 3, 1, 1),
        ("Carol", None, 0, 0),
    ]
    assert "Outsider" not in response.content.decode()


@pytest.mark.django_db
@pytest.mark.services
def test_watch_lists_live_matches_with_scores_ratings_and_spectators(client) -> None:
    alice, bob = make_player("Alice", rating=1700), make_player("Bob", rating=1650)
    carol, dave = make_player("Carol", rating=1500), make_player("Dave", rating=1450)
    top = make_match(alice, bob, status=Match.Status.ACTIVE, scores=(23, 17))
    other = make_match(carol, dave, status=Match.Status.ACTIVE, scores=(4, 0))
    make_match(alice, dave)  # finished: not live
    now = timezone.now().timestamp()
    MatchConnection.objects.create(match=top, channel_name="a", seat=None, seen_at=now)
    MatchConnection.objects.create(match=top, channel_name="b", seat=None, seen_at=now)
    MatchConnection.objects.create(match=top, channel_name="c", seat=0, user=alice, seen_at=now)
    MatchConnection.objects.create(match=top, channel_name="stale", seat=None, seen_at=now - 3600)

    data = client.get("/watch.json").json()["matches"]

    assert [m["id"] for m in data] == [top.pk, other.pk]
    first = data[0]
    assert [(p["name"], p["score"], p["rating"]) for p in first["players"]] == [("Alice", 23, 1700), ("Bob", 17, 1650)]
    assert first["spectators"] == 2 and data[1]["spectators"] == 0
    assert first["url"] == f"/m/{top.pk}/"
    page = client.get("/watch/").content.decode()
    assert f'href="/m/{top.pk}/"' in page and "23" in page and "game/js/pages/watch.js" in page


@pytest.mark.django_db
def test_featured_match_is_the_highest_rated_live_one() -> None:
    assert live_selectors.featured_match() is None
    low = make_match(make_player("A", rating=1400), make_player("B", rating=1400), status=Match.Status.ACTIVE)
    high_casual = make_match(
        make_player("C", rating=2000), make_player("D", rating=2000), status=Match.Status.ACTIVE, rated=False
    )
    high = make_match(make_player("E", rating=1800), make_player("F", rating=1700), status=Match.Status.ACTIVE)
    assert live_selectors.featured_match()["id"] == high.pk
    Match.objects.filter(pk=high.pk).update(status=Match.Status.FINISHED)
    assert live_selectors.featured_match()["id"] == low.pk
    Match.objects.filter(pk=low.pk).update(status=Match.Status.ABORTED)
    assert live_selectors.featured_match()["id"] == high_casual.pk


@pytest.mark.django_db
def test_featured_partial_renders() -> None:
    from django.template.loader import render_to_string

    make_match(make_player("Eve", rating=1800), make_player("Finn"), status=Match.Status.ACTIVE, scores=(41, 12))
    html = render_to_string("game/community/_featured.html", {"featured": live_selectors.featured_match()})
    assert "Featured match" in html and "Eve" in html and "41" in html and "Watch live" in html
    assert render_to_string("game/community/_featured.html", {"featured": None}).strip() == ""


@pytest.mark.django_db
@pytest.mark.services
def test_leaderboard_won_and_lost_count_rated_games_only(client) -> None:
    """Won/Lost used to count casual games while "Rated games" did not; now all three count
    the same rated results (RatingChange rows), and the header says so."""
    from game.matches.services.results import results_record

    top = ranked("Top", 1700, games=0)
    mid = ranked("Mid", 1600, games=0)
    establish(top, mid)  # accounts whose rated results count (game/ratings/rules.py)
    # Three rated results (the pair's daily limit, rating_eligibility, would refuse more).
    results_record(match=make_match(top, mid, rated=True, winner=top))
    results_record(match=make_match(top, mid, rated=True, winner=mid))
    results_record(match=make_match(top, mid, rated=True, winner=top))
    for _ in range(2):  # casual games: counted on the profile, not on the leaderboard
        results_record(match=make_match(top, mid, rated=False, winner=mid))

    response = client.get("/leaderboard/")

    rows = {p.display_name: p for p in response.context["page"].object_list}
    assert set(rows) == {"Top", "Mid"}
    assert (rows["Top"].rated_games, rows["Top"].rated_won, rows["Top"].rated_lost) == (3, 2, 1)
    assert (rows["Mid"].rated_games, rows["Mid"].rated_won, rows["Mid"].rated_lost) == (3, 1, 2)
    assert rows["Mid"].games_won == 3  # the profile's all-games record still includes the casual wins
    html = response.content.decode()
    assert "Rated won" in html and "Rated lost" in html
