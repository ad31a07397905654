"""The double-loss draw (issue 28): pure, no database. Events are played to the end with results from
a seeded random source, one game at a time, or built by hand where one decision is checked."""

from __future__ import annotations

import itertools
import random

import pytest

from game.tournaments.pairing.double_loss import (
    DrawError,
    DrawState,
    Event,
    Format,
    Game,
    Pairing,
    is_finished,
    next_game,
    placings,
    record_result,
)
from game.tournaments.pairing.double_loss_cup import cup_seats
from game.tournaments.pairing.double_loss_search import CAREFUL_FIELD, opening
from game.tournaments.pairing.double_loss_state import records
from game.tournaments.pairing.draw_seeding import seed_places, seeded_draw_list


def play(event: Event, seed: int) -> DrawState:
    """The whole event on one table: each drawn game is decided at once by the seeded source."""
    rng = random.Random(seed)
    state = DrawState(event)
    while (pairing := next_game(state)) is not None:
        state = state.with_game(Game.drawn(pairing))
        winner = rng.choice((pairing.first, pairing.second))
        loser_points = rng.randint(0, 59)
        points = (60, loser_points) if winner == pairing.first else (loser_points, 60)
        state = record_result(state, len(state.games) - 1, winner=winner, points=points)
    return state


def losses_before(state: DrawState, index: int) -> dict[int, int]:
    return {e: r.losses for e, r in records(DrawState(state.event, state.games[:index])).items()}


def alive_before(state: DrawState, index: int) -> int:
    return sum(1 for r in records(DrawState(state.event, state.games[:index])).values() if not r.out)


@pytest.mark.parametrize("size", [5, 8, 11, 16, 19])
@pytest.mark.parametrize("seed", [1, 2])
def test_double_loss_draw_out_after_two_losses(size: int, seed: int) -> None:
    state = play(Event(Format.DOUBLE_LOSS, tuple(range(1, size + 1))), seed)
    assert is_finished(state)
    for index, game in enumerate(state.games):
        before = losses_before(state, index)
        assert before[game.first] < 2 and before[game.second] < 2, f"game {index + 1} drew a player out"
    final = records(state)
    champion = [r for r in final.values() if not r.out]
    assert len(champion) == 1 and champion[0].losses <= 1
    assert all(r.losses == 2 for r in final.values() if r.out)
    # one loss is not out: somebody played on after his first loss
    assert any(r.losses == 2 and r.games > 2 for r in final.values())


@pytest.mark.parametrize("size", [9, 12, 16, 22])
@pytest.mark.parametrize("seed", [3, 4, 5])
def test_double_loss_avoids_rematches(size: int, seed: int) -> None:
    """While more than the end game's field is in, no one meets the same player twice."""
    state = play(Event(Format.DOUBLE_LOSS, tuple(range(1, size + 1))), seed)
    met: set[frozenset[int]] = set()
    for index, game in enumerate(state.games):
        pair = frozenset((game.first, game.second))
        if alive_before(state, index) > CAREFUL_FIELD:
            assert pair not in met, f"game {index + 1} is a rematch of {sorted(pair)}"
        met.add(pair)


def test_the_first_free_opponent_is_skipped_when_met() -> None:
    """A decision by hand: the seeker's first opponent in the list is one he has met, so the next."""
    state = DrawState(Event(Format.DOUBLE_LOSS, tuple(range(1, 13))))
    for pairing in opening(state.event.entrants):
        state = state.with_game(Game.drawn(pairing))
        state = record_result(state, len(state.games) - 1, winner=min(pairing.first, pairing.second))
    # 1 beat 2 and 3; 2 lost to 1 and beat 4; the seeker 1 would take 2 first, but has met him
    pairing = next_game(state)
    assert pairing is not None and pairing.first == 1
    assert pairing.second not in (2, 3)


@pytest.mark.parametrize("knockout_from", [2, 3, 4, 5, 6])
def test_knockout_from_round_n(knockout_from: int) -> None:
    event = Event(Format.DOUBLE_LOSS_THEN_KNOCKOUT, tuple(range(1, 17)), knockout_from)
    state = play(event, seed=knockout_from)
    assert is_finished(state)
    out_by_one = 0
    for index, game in enumerate(state.games):
        loser = game.loser
        assert loser is not None
        later = [g for g in state.games[index + 1 :] if g.has(loser)]
        if game.round >= knockout_from:
            assert later == [], f"{loser} lost in round {game.round} and played on"
            out_by_one += losses_before(state, index)[loser] == 0
        elif losses_before(state, index)[loser] == 0:
            assert later, f"{loser}'s first loss in round {game.round} put him out"
    if knockout_from <= 3:
        assert out_by_one > 0  # unbeaten players went out on a single loss


def test_knockout_from_round_n_refuses_a_round_out_of_range() -> None:
    with pytest.raises(DrawError, match="round 2 to 6"):
        Event(Format.DOUBLE_LOSS_THEN_KNOCKOUT, tuple(range(1, 9)), 7)
    with pytest.raises(DrawError, match="no knockout"):
        Event(Format.DOUBLE_LOSS, tuple(range(1, 9)), 3)


def test_two_rounds_then_cup_seeding() -> None:
    """Eight players; after two rounds 1 and 5 have two wins, 3, 7, 4, 8 one, 2 and 6 none (out). The
    six go to a cup of eight seeded by wins then points: seeds 1 and 2 have the byes."""
    state = DrawState(Event(Format.TWO_ROUNDS_THEN_CUP, tuple(range(1, 9))))
    results = {(1, 2): (1, 60, 10), (3, 4): (3, 60, 20), (5, 6): (5, 60, 30), (7, 8): (7, 60, 40)}
    results |= {(1, 3): (1, 60, 50), (2, 4): (4, 60, 5), (5, 7): (5, 60, 15), (6, 8): (8, 60, 25)}
    while (pairing := next_game(state)) is not None and pairing.round <= 2:
        winner, won, lost = results[(pairing.first, pairing.second)]
        points = (won, lost) if winner == pairing.first else (lost, won)
        state = state.with_game(Game.drawn(pairing))
        state = record_result(state, len(state.games) - 1, winner=winner, points=points)
    assert cup_seats(8) == [(3, 6), (2, 7), (4, 5), (1, 8)]
    # seeds: 1 (2 wins, 120), 5 (2 wins, 120: later in the list), 3 (1 win, 110), 8 (100), 4 (80), 7 (75)
    assert pairing == Pairing(3, 7, 3, 3, 3)  # seed 3 v seed 6; 5 (seed 2) and 1 (seed 1) have byes
    state = state.with_game(Game.drawn(pairing))
    second = next_game(state)
    assert second == Pairing(8, 4, 3, 3, 3)  # seed 4 v seed 5
    state = record_result(state.with_game(Game.drawn(second)), 9, winner=4)
    # round 4: the winner of seeds 4 v 5 meets seed 1 (1) while seeds 3 v 6 still play for their seat
    third = next_game(state)
    assert third == Pairing(4, 1, 4, 4, 3)
    state = state.with_game(Game.drawn(third))
    assert next_game(state) is None
    state = record_result(state, 8, winner=3)
    assert next_game(state) == Pairing(3, 5, 4, 4, 3)  # the winner of seeds 3 v 6 meets seed 2 (5)


def test_two_rounds_then_cup_loss_is_out() -> None:
    state = play(Event(Format.TWO_ROUNDS_THEN_CUP, tuple(range(1, 14))), seed=9)
    assert is_finished(state)
    for index, game in enumerate(state.games):
        if game.round >= 3:
            assert not [g for g in state.games[index + 1 :] if g.has(game.loser or 0)]


@pytest.mark.parametrize("fmt", list(Format))
def test_the_same_list_and_results_give_the_same_draw(fmt: Format) -> None:
    knockout = 3 if fmt == Format.DOUBLE_LOSS_THEN_KNOCKOUT else None
    entrants = (14, 3, 9, 1, 12, 5, 7, 2, 10, 11, 4, 6, 8)
    first = play(Event(fmt, entrants, knockout), seed=11)
    again = play(Event(fmt, entrants, knockout), seed=11)
    assert first.games == again.games
    other_list = play(Event(fmt, tuple(sorted(entrants)), knockout), seed=11)
    assert [(g.first, g.second) for g in other_list.games] != [(g.first, g.second) for g in first.games]


def test_byes_an_odd_field_rests_the_last_and_opens_round_two_with_him() -> None:
    plan = opening((1, 2, 3, 4, 5, 6, 7))
    assert [(p.first, p.second, p.round) for p in plan] == [
        (1, 2, 1),
        (3, 4, 1),
        (5, 6, 1),
        (7, 1, 2),
        (2, 3, 2),
        (4, 5, 2),
        (6, 7, 2),
    ]
    assert (plan[3].first_round, plan[3].second_round) == (1, 2)


def test_a_field_of_4k_plus_2_twists_the_foot_of_round_two() -> None:
    plan = opening(tuple(range(1, 11)))
    round_two = [(p.first, p.second) for p in plan if p.round == 2]
    assert round_two[:2] == [(6, 9), (8, 10)]
    assert sorted(round_two[2:]) == [(1, 3), (2, 4), (5, 7)]
    assert len({frozenset(p) for p in [(p.first, p.second) for p in plan]}) == len(plan)  # no rematch


def test_the_draw_waits_for_a_result_it_depends_on() -> None:
    state = DrawState(Event(Format.DOUBLE_LOSS, tuple(range(1, 9))))
    plan = opening(state.event.entrants)
    for index, pairing in enumerate(plan[:4]):
        state = record_result(state.with_game(Game.drawn(pairing)), index, winner=pairing.first)
    for pairing in plan[4:]:
        assert next_game(state) == pairing  # round 2 is drawn from the list, results or not
        state = state.with_game(Game.drawn(pairing))
    # round 2 in progress everywhere: round 3 depends on who goes out
    state = record_result(state, 4, winner=plan[4].first)
    assert next_game(state) is None
    for index in range(5, 8):
        state = record_result(state, index, winner=plan[index].first)
    assert next_game(state) is not None


def test_placings_rank_the_champion_then_wins_then_points() -> None:
    state = play(Event(Format.DOUBLE_LOSS, tuple(range(1, 11))), seed=7)
    table = records(state)
    rows = placings(state)
    assert rows[0].place == 1 and rows[0].out_after == 0 and all(r.final for r in rows)
    assert rows[0].entrant == next(e for e, r in table.items() if not r.out)
    keys = [(r.wins, r.points) for r in rows[1:]]
    assert keys == sorted(keys, reverse=True)
    for before, after in itertools.pairwise(rows[1:]):
        assert (after.place == before.place) == ((after.wins, after.points) == (before.wins, before.points))
    midway = placings(DrawState(state.event, state.games[:12]))
    assert not any(r.final for r in midway)


@pytest.mark.parametrize(
    ("games", "reason"),
    [
        ((Game(1, 9, 1, 1, 1),), "not in the draw list"),
        ((Game(1, 1, 1, 1, 1),), "with himself"),
        ((Game(1, 2, 1, 1, 1), Game(1, 3, 2, 2, 1)), "still playing"),
        ((Game(1, 2, 1, 1, 1, winner=2), Game(1, 3, 1, 1, 1)), "own round 2"),
        ((Game(1, 2, 1, 1, 1, winner=3),), "did not play"),
        (
            (Game(1, 2, 1, 1, 1, winner=2), Game(1, 3, 2, 2, 1, winner=3), Game(1, 4, 3, 3, 1, winner=4)),
            "third loss for 1",
        ),
        ((Game(1, 2, 1, 1, 1, winner=2), Game(1, 3, 2, 2, 1, winner=3), Game(1, 4, 3, 3, 1)), "already out"),
    ],
)
def test_bad_input_to_the_draw_is_refused_with_its_reason(games: tuple[Game, ...], reason: str) -> None:
    with pytest.raises(DrawError, match=reason):
        DrawState(Event(Format.DOUBLE_LOSS, (1, 2, 3, 4, 5)), games)


def test_bad_events_and_results_are_refused() -> None:
    with pytest.raises(DrawError, match="twice"):
        Event(Format.DOUBLE_LOSS, (1, 2, 2, 3))
    with pytest.raises(DrawError, match="at least 4"):
        Event(Format.DOUBLE_LOSS, (1, 2, 3))
    state = DrawState(Event(Format.DOUBLE_LOSS, (1, 2, 3, 4)), (Game(1, 2, 1, 1, 1),))
    with pytest.raises(DrawError, match="did not play in game 1"):
        record_result(state, 0, winner=3)
    with pytest.raises(DrawError, match="no game 2"):
        record_result(state, 1, winner=1)


def test_seeds_are_spread_over_the_list() -> None:
    assert seed_places(16, 8) == [15, 8, 4, 12, 10, 2, 6, 14]
    listing = seeded_draw_list([101, 102, 103], list(range(1, 14)))
    assert len(listing) == 16 and sorted(listing) == sorted([101, 102, 103, *range(1, 14)])
    assert (listing[14], listing[7], listing[3]) == (101, 102, 103)
    assert [e for e in listing if e < 100] == list(range(1, 14))  # the unseeded keep their drawn order
    assert len(set(seed_places(5, 5))) == 5  # a small field moves a clashing seed to a free place
    with pytest.raises(DrawError):
        seed_places(16, 9)
