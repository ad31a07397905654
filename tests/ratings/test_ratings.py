"""Ratings: the Glicko-2 arithmetic against Glickman's worked example, and `results_record` on
finished rated, casual and aborted matches."""

from __future__ import annotations

import pytest

from game.common import glicko2
from game.matches.services.results import results_record
from game.models import Match, MatchResult, Profile, RatingChange
from tests.support.community_factories import establish, make_match, make_player, verdict


def test_glicko2_matches_glickmans_worked_example() -> None:
    player = glicko2.Rating(1500, 200, 0.06)
    results = [
        glicko2.Result(glicko2.Rating(1400, 30), 1),
        glicko2.Result(glicko2.Rating(1550, 100), 0),
        glicko2.Result(glicko2.Rating(1700, 300), 0),
    ]
    after = glicko2.rate(player, results, clamp=False)
    # The paper prints 1464.06 / 151.52 / 0.05999 from rounded intermediates; exact arithmetic gives
    # 1464.0507 / 151.5165 / 0.059996.
    assert after.rating == pytest.approx(1464.06, abs=0.02)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_glicko2_period_without_games_only_widens_the_deviation() -> None:
    after = glicko2.rate(glicko2.Rating(1600, 100, 0.06), [], clamp=False)
    assert after.rating == 1600
    assert after.deviation == pytest.approx(173.7178 * (((100 / 173.7178) ** 2 + 0.06**2) ** 0.5))


def test_glicko2_match_is_zero_sum_between_equals_and_clamped() -> None:
    a, b = glicko2.rate_match(glicko2.Rating(), glicko2.Rating(), first_score=1.0)
    assert a.rating > 1500 > b.rating
    assert a.rating - 1500 == pytest.approx(1500 - b.rating)
    assert glicko2.MIN_DEVIATION <= a.deviation <= glicko2.MAX_DEVIATION
    assert a.provisional and not glicko2.Rating(1500, 60).provisional


def test_glicko2_draw_between_equals_changes_no_rating() -> None:
    a, b = glicko2.rate_match(glicko2.Rating(), glicko2.Rating(), first_score=0.5)
    assert a.rating == pytest.approx(1500) and b.rating == pytest.approx(1500)
    assert a.deviation < 350


@pytest.mark.django_db
@pytest.mark.services
def test_rated_finished_match_moves_ratings_once_and_counts_stats() -> None:
    alice, bob = make_player("Alice"), make_player("Bob")
    establish(alice, bob)  # accounts whose rated results count (game/ratings/rules.py)
    shots = [
        (alice, verdict(3)),
        (alice, verdict(5)),
        (alice, verdict(0, turn_passes=True)),
        (bob, verdict(4)),
        (bob, verdict(2, turn_passes=True)),
        (alice, verdict(6)),
        (alice, verdict(0, turn_passes=True)),
    ]
    match = make_match(alice, bob, rated=True, winner=alice, shots=shots)

    changes = results_record(match=match)

    assert [c["player"] for c in changes] == ["Alice", "Bob"]
    assert changes[0]["delta"] > 0 > changes[1]["delta"]
    assert changes[0]["after"] == changes[0]["before"] + changes[0]["delta"]
    a, b = Profile.objects.get(display_name="Alice"), Profile.objects.get(display_name="Bob")
    assert (a.games_played, a.games_won, a.games_lost, a.rated_games) == (1, 1, 0, 1)
    assert (b.games_played, b.games_won, b.games_lost, b.rated_games) == (1, 0, 1, 1)
    assert a.best_break == 8 and b.best_break == 6
    assert a.last_played_at is not None
    assert a.rating > 1500 > b.rating and a.rating_deviation < 350
    assert RatingChange.objects.filter(match=match).count() == 2
    history = RatingChange.objects.get(match=match, user=alice)
    assert history.rating_before == 1500 and history.rating_after == pytest.approx(a.rating)

    # A second call (a retried transaction, a double finish) changes nothing.
    again = results_record(match=match)
    assert again == changes
    a2 = Profile.objects.get(display_name="Alice")
    assert (a2.games_played, a2.rated_games, a2.rating) == (1, 1, a.rating)
    assert RatingChange.objects.filter(match=match).count() == 2


@pytest.mark.django_db
@pytest.mark.services
def test_casual_match_counts_stats_but_not_ratings() -> None:
    alice, bob = make_player("Alice"), make_player("Bob")
    match = make_match(alice, bob, rated=False, winner=bob, shots=[(bob, verdict(7, turn_passes=True))])
    assert results_record(match=match) == []
    a, b = Profile.objects.get(display_name="Alice"), Profile.objects.get(display_name="Bob")
    assert (a.games_played, a.games_lost, b.games_won, b.best_break) == (1, 1, 1, 7)
    assert a.rating == b.rating == 1500 and a.rated_games == 0
    assert not RatingChange.objects.exists()
    assert MatchResult.objects.get(match=match).rated is False


@pytest.mark.django_db
@pytest.mark.services
def test_aborted_rated_match_changes_no_rating_and_no_record() -> None:
    alice, bob = make_player("Alice"), make_player("Bob")
    match = make_match(alice, bob, rated=True, status=Match.Status.ABORTED, shots=[(alice, verdict(2))])
    assert results_record(match=match) == []
    a = Profile.objects.get(display_name="Alice")
    assert (a.games_played, a.games_won, a.games_lost, a.rating, a.best_break) == (0, 0, 0, 1500, 2)
    assert not RatingChange.objects.exists()


@pytest.mark.django_db
def test_results_record_refuses_a_match_still_in_play() -> None:
    alice, bob = make_player("Alice"), make_player("Bob")
    match = make_match(alice, bob, status=Match.Status.ACTIVE)
    with pytest.raises(ValueError):
        results_record(match=match)
    assert not MatchResult.objects.exists()
