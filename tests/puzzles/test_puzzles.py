"""Puzzles stored from a rated match's analysis, served, answered and rated
(game/puzzles/services.py). The puzzle is made from a hand-made position where the red pot is certain
(tests/puzzles/conftest.py), through the real analysis, the real engine and the real database."""

from __future__ import annotations

import datetime
import json
from typing import Any

import pytest

from game.models import Profile, Puzzle, PuzzleRating, PuzzleServing, RatingChange
from game.puzzles.selectors import Viewer, daily_puzzle, next_streak_puzzle, viewer_for
from game.puzzles.services import puzzle_answer, puzzle_serve, puzzles_from_analysis
from tests.puzzles.conftest import CALL
from tests.support.community_factories import make_match, make_player

pytestmark = [pytest.mark.services, pytest.mark.django_db]

Analysed = tuple[list[dict[str, Any]], dict[str, Any]]
MISS = {"angle": 0.0, "speed": 1.5, "side": 0.0, "height": 0.0}


@pytest.fixture
def puzzle(analysed: Analysed) -> Puzzle:
    shots, report = analysed
    alice, bob = make_player("Alice"), make_player("Bob")
    (made,) = puzzles_from_analysis(make_match(alice, bob, rated=True), report, shots=shots)
    return made


def rated(name: str) -> Viewer:
    return viewer_for(user=make_player(name), session_key="")


def answer(viewer: Viewer, serving: PuzzleServing | str, strike: dict[str, Any], call: dict[str, Any] = CALL) -> dict:
    token = serving if isinstance(serving, str) else serving.token
    body = json.dumps({"token": token, "shoot": {"call": call, "strike": strike}})
    return puzzle_answer(viewer=viewer, body=body).as_dict()


def test_puzzles_are_stored_once_and_only_from_rated_finished_matches(analysed: Analysed) -> None:
    shots, report = analysed
    alice, bob = make_player("Alice"), make_player("Bob")
    match = make_match(alice, bob, rated=True)
    first = puzzles_from_analysis(match, report, shots=shots)
    again = puzzles_from_analysis(match, report, shots=shots)
    assert [p.pk for p in first] == [p.pk for p in again] and len(first) == 1
    assert Puzzle.objects.count() == 1
    assert first[0].target == 3 and first[0].themes == []
    assert puzzles_from_analysis(make_match(alice, bob, rated=False), report, shots=shots) == []
    assert puzzles_from_analysis(make_match(alice, bob, status="active"), report, shots=shots) == []
    assert Puzzle.objects.count() == 1


def test_a_stored_analysis_makes_its_matchs_puzzles(analysed: Analysed) -> None:
    """The hook: the matches store an analysis and say so (game.signals.analysis_finished); the puzzles
    hear it (game/puzzles/receivers.py) and make the rated match's puzzles from its analysed positions."""
    from game.matches.services import analysis_claim, analysis_finish, analysis_request
    from game.models import MatchAnalysis

    shots, report = analysed
    alice, bob = make_player("Alice"), make_player("Bob")
    for rated_match, made in ((True, 1), (False, 0)):
        match = make_match(alice, bob, rated=rated_match)
        analysis_request(match_id=match.pk, user=alice)
        analysis = analysis_claim()
        assert analysis is not None and analysis.match_id == match.pk
        analysis_finish(analysis_id=analysis.pk, report=report, positions=shots)
        assert MatchAnalysis.objects.get(pk=analysis.pk).status == MatchAnalysis.Status.DONE
        assert Puzzle.objects.filter(match=match).count() == made
    assert Puzzle.objects.get().target == 3


def test_puzzle_solved_only_by_a_scoring_strike(puzzle: Puzzle) -> None:
    viewer = rated("Solver")
    solved = answer(viewer, puzzle_serve(puzzle=puzzle, viewer=viewer), puzzle.strike, puzzle.call)
    assert solved["ok"] and solved["solved"] is True and solved["points"] == 3 and solved["target"] == 3
    # The shot's motion comes with it, to be drawn: the red's track ends in the pocket.
    assert solved["event"]["t"] == "shot" and solved["event"]["d"]["segments"]["red1"][-1][0] == "pocket"
    missed = answer(viewer, puzzle_serve(puzzle=puzzle, viewer=viewer), MISS)
    assert missed["ok"] and missed["solved"] is False and missed["points"] == 0
    rows = PuzzleServing.objects.filter(puzzle=puzzle).order_by("id")
    assert [(s.solved, s.points) for s in rows] == [(True, 3), (False, 0)]
    puzzle.refresh_from_db()
    assert (puzzle.attempts, puzzle.solved_count) == (2, 1)


def test_puzzle_ratings_move(puzzle: Puzzle) -> None:
    solver = rated("Solver")
    profile_before = Profile.objects.values("rating", "rating_deviation").get(user=solver.user)
    answer(solver, puzzle_serve(puzzle=puzzle, viewer=solver), puzzle.strike, puzzle.call)
    mine = PuzzleRating.objects.get(user=solver.user)
    puzzle.refresh_from_db()
    assert mine.rating > 1500 and puzzle.rating < 1500 and mine.solved == 1

    misser = rated("Misser")
    before = puzzle.rating
    answer(misser, puzzle_serve(puzzle=puzzle, viewer=misser), MISS)
    theirs = PuzzleRating.objects.get(user=misser.user)
    puzzle.refresh_from_db()
    assert theirs.rating < 1500 and puzzle.rating > before and theirs.missed == 1
    # Match ratings untouched.
    assert Profile.objects.values("rating", "rating_deviation").get(user=solver.user) == profile_before
    assert Profile.objects.get(user=misser.user).rating == 1500.0
    assert RatingChange.objects.count() == 0


def test_only_the_first_answer_to_a_puzzle_is_rated(puzzle: Puzzle) -> None:
    viewer = rated("Solver")
    assert answer(viewer, puzzle_serve(puzzle=puzzle, viewer=viewer), MISS)["rating"]["delta"] < 0
    low = PuzzleRating.objects.get(user=viewer.user).rating
    again = answer(viewer, puzzle_serve(puzzle=puzzle, viewer=viewer), puzzle.strike, puzzle.call)
    assert again["solved"] is True and again["rating"] is None
    assert PuzzleRating.objects.get(user=viewer.user).rating == low


def test_a_guest_solves_without_a_rating(puzzle: Puzzle) -> None:
    guest = viewer_for(user=make_player("Guest", is_guest=True), session_key="")
    visitor = Viewer(user=None, session_key="s" * 32)
    for viewer in (guest, visitor):
        assert answer(viewer, puzzle_serve(puzzle=puzzle, viewer=viewer), puzzle.strike, puzzle.call)["rating"] is None
    assert PuzzleRating.objects.count() == 0
    puzzle.refresh_from_db()
    assert puzzle.rating == 1500 and puzzle.solved_count == 2


def test_an_answer_for_a_puzzle_not_served_to_you_is_refused(puzzle: Puzzle) -> None:
    owner, other = rated("Owner"), rated("Other")
    serving = puzzle_serve(puzzle=puzzle, viewer=owner)
    for viewer, token in ((other, serving), (owner, "no-such-token"), (Viewer(None, "x" * 32), serving)):
        refused = answer(viewer, token, puzzle.strike, puzzle.call)
        words = "That puzzle was not served to you: open it from the puzzles page."
        assert refused == {"ok": False, "error": {"code": "not_served", "message": words}}
    serving.refresh_from_db()
    puzzle.refresh_from_db()
    assert serving.answered_at is None and puzzle.attempts == 0 and PuzzleRating.objects.count() == 0


def test_a_puzzle_is_answered_once(puzzle: Puzzle) -> None:
    viewer = rated("Solver")
    serving = puzzle_serve(puzzle=puzzle, viewer=viewer)
    assert answer(viewer, serving, MISS)["ok"]
    again = answer(viewer, serving, puzzle.strike, puzzle.call)
    assert again["ok"] is False and again["error"]["code"] == "answered"
    serving.refresh_from_db()
    assert serving.solved is False and PuzzleRating.objects.get(user=viewer.user).missed == 1


@pytest.mark.parametrize(
    "strike",
    [
        {"angle": -0.6, "speed": 12.0},
        {"angle": -0.6, "speed": 0.0},
        {"angle": -0.6, "speed": 1.5, "side": 0.5, "height": 0.5},
        {"angle": 40.0, "speed": 1.5},
    ],
)
def test_a_strike_out_of_the_limits_is_refused_and_nothing_stored(puzzle: Puzzle, strike: dict[str, Any]) -> None:
    viewer = rated("Solver")
    serving = puzzle_serve(puzzle=puzzle, viewer=viewer)
    refused = answer(viewer, serving, strike)
    assert refused["ok"] is False and refused["error"]["code"] == "out_of_limits"
    assert "outside the strike limits" in refused["error"]["message"]
    serving.refresh_from_db()
    assert serving.answered_at is None and PuzzleRating.objects.count() == 0


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ("not json", "bad_json"),
        ("[]", "bad_shape"),
        ('{"token": 5}', "not_served"),
        ('{"token": "TOKEN", "extra": 1}', "bad_shape"),
        ('{"token": "TOKEN"}', "bad_shape"),
        ('{"token": "TOKEN", "shoot": {"call": {}}}', "bad_value"),
        (
            '{"token": "TOKEN", "shoot": {"call": {"ball": "red1", "pocket": "foot_right"}, "strike": {"angle": 0.1}}}',
            None,
        ),
        (
            '{"token": "TOKEN", "shoot": {"call": {"ball": "no", "pocket": "x"}, "strike": {"angle": 0, "speed": 2}}}',
            None,
        ),
    ],
)
def test_malformed_answers_are_refused(puzzle: Puzzle, body: str, code: str | None) -> None:
    viewer = rated("Solver")
    serving = puzzle_serve(puzzle=puzzle, viewer=viewer)
    refused = puzzle_answer(viewer=viewer, body=body.replace("TOKEN", serving.token)).as_dict()
    assert refused["ok"] is False and refused["error"]["message"]
    if code is not None:
        assert refused["error"]["code"] == code
    assert not PuzzleServing.objects.exclude(answered_at=None).exists()


def test_the_daily_puzzle_is_one_per_date_and_the_streak_skips_solved_ones(puzzle: Puzzle) -> None:
    day = datetime.date(2026, 12, 3)
    assert daily_puzzle(day=day) == daily_puzzle(day=day) == puzzle
    viewer = rated("Solver")
    assert next_streak_puzzle(viewer=viewer, rating=None) == puzzle
    answer(viewer, puzzle_serve(puzzle=puzzle, viewer=viewer, mode="streak"), puzzle.strike, puzzle.call)
    assert next_streak_puzzle(viewer=viewer, rating=None) is None


def test_from_hand_the_white_may_be_placed_first_and_a_placement_alone_stores_nothing(puzzle: Puzzle) -> None:
    snapshot = dict(puzzle.snapshot)
    snapshot["balls"] = {**snapshot["balls"], "white1": [0.3, 0.71]}
    snapshot["visit"] = {"shots": 0, "middle_kaisa": False, "points": 0, "from_hand": True, "opening": False}
    from_hand = Puzzle.objects.create(
        match=puzzle.match,
        shot_index=1,
        snapshot=snapshot,
        target=3,
        call=CALL,
        strike=MISS,
        themes=["from_hand"],
        best_expected=3.0,
        played_expected=0.0,
        success=1.0,
    )
    viewer = rated("Solver")
    serving = puzzle_serve(puzzle=from_hand, viewer=viewer)
    place = {"ball": "white1", "x": 0.35, "y": 0.6}
    placed = puzzle_answer(viewer=viewer, body=json.dumps({"token": serving.token, "place": place})).as_dict()
    assert placed["ok"] and placed["event"]["t"] == "placed" and placed["event"]["d"]["x"] == 0.35
    outside = {"ball": "white1", "x": 1.5, "y": 0.6}  # beyond the home line (K-7.1)
    refused = puzzle_answer(viewer=viewer, body=json.dumps({"token": serving.token, "place": outside})).as_dict()
    assert refused["ok"] is False and refused["error"]["message"]
    serving.refresh_from_db()
    assert serving.answered_at is None
    shot = {"call": CALL, "strike": MISS}
    judged = puzzle_answer(viewer=viewer, body=json.dumps({"token": serving.token, "place": place, "shoot": shot}))
    assert judged.as_dict()["ok"] and judged.as_dict()["solved"] is False
