"""The double-loss draw: pure, no database. Events are played to the end as a club plays them (the
opening drawn from the list, the search run once after each result, a ready game chosen by a seeded
source among the first few in the program's list), or built by hand where one decision is checked.
Whole events the reference program drew are replayed in test_kaisakaavio_draw.py."""

from __future__ import annotations

import itertools
import random
import subprocess
import sys

import pytest

from game.tournaments.pairing.double_loss import (
    DrawError,
    DrawState,
    Event,
    Format,
    Game,
    Pairing,
    games_to_add,
    is_finished,
    listing_order,
    placings,
    record_result,
)
from game.tournaments.pairing.double_loss_cup import cup_rows, cup_seats
from game.tournaments.pairing.double_loss_endgame import CAREFUL_FIELD
from game.tournaments.pairing.double_loss_search import opening
from game.tournaments.pairing.double_loss_state import records
from game.tournaments.pairing.draw_seeding import seed_places, seeded_draw_list, shuffled


def add(state: DrawState, pairings: list[Pairing]) -> DrawState:
    for pairing in pairings:
        state = state.with_game(Game.drawn(pairing))
    return state


def ready(state: DrawState) -> list[int]:
    """The games a club may call now, in the program's list order: not played, and neither player
    has an earlier game in the list still to finish."""
    busy: set[int] = set()
    found: list[int] = []
    for index in listing_order(state):
        game = state.games[index]
        if game.played:
            continue
        if not busy & set(game.players):
            found.append(index)
        busy |= set(game.players)
    return found


def play(event: Event, seed: int, tables: int = 3) -> DrawState:
    """The whole event at a club of `tables` tables: one of the first `tables` ready games ends next
    (a seeded choice), won by either player, and the draw searches once after each result."""
    rng = random.Random(seed)
    state = add(DrawState(event), games_to_add(DrawState(event)))
    while candidates := ready(state)[:tables]:
        index = rng.choice(candidates)
        game = state.games[index]
        assert game.second is not None
        winner = rng.choice((game.first, game.second))
        loser_points = rng.randint(0, 59)
        points = (60, loser_points) if winner == game.first else (loser_points, 60)
        state = record_result(state, index, winner=winner, points=points)
        state = add(state, games_to_add(state))
    return state


def losses_before(state: DrawState, index: int) -> dict[int, int]:
    return {e: r.losses for e, r in records(DrawState(state.event, state.games[:index])).items()}


def alive_before(state: DrawState, index: int) -> int:
    return sum(1 for r in records(DrawState(state.event, state.games[:index])).values() if not r.out)


@pytest.mark.parametrize(("size", "seed"), [(5, 1), (8, 2), (11, 1), (16, 2), (19, 1)])
def test_double_loss_draw_out_after_two_losses(size: int, seed: int) -> None:
    state = play(Event(Format.DOUBLE_LOSS, tuple(range(1, size + 1))), seed)
    assert is_finished(state)
    for index, game in enumerate(state.games):
        if game.round <= 2:
            continue  # the opening is drawn from the list before any result
        before = losses_before(state, index)
        assert before[game.first] < 2 and before[game.second or 0] < 2, f"game {index + 1} drew a player out"
    final = records(state)
    champion = [r for r in final.values() if not r.out]
    assert len(champion) == 1 and champion[0].losses <= 1
    assert all(r.losses == 2 for r in final.values() if r.out)
    # one loss is not out: somebody played on after his first loss
    assert any(r.losses == 2 and r.games > 2 for r in final.values())


@pytest.mark.parametrize(("size", "seed"), [(9, 3), (12, 4), (16, 5), (22, 3)])
def test_double_loss_avoids_rematches(size: int, seed: int) -> None:
    """While more than the end game's field is in, no one meets the same player twice."""
    state = play(Event(Format.DOUBLE_LOSS, tuple(range(1, size + 1))), seed)
    met: set[frozenset[int | None]] = set()
    for index, game in enumerate(state.games):
        pair = frozenset((game.first, game.second))
        if alive_before(state, index) > CAREFUL_FIELD:
            assert pair not in met, f"game {index + 1} is a rematch of {sorted(pair, key=str)}"
        met.add(pair)


def test_the_first_free_opponent_is_skipped_when_met() -> None:
    """A decision by hand: with every opening result in (the place higher in the list wins), the
    search's first game gives place 1 an opponent he has not met (not 2, not 3: his opening)."""
    event = Event(Format.DOUBLE_LOSS, tuple(range(1, 13)))
    state = add(DrawState(event), games_to_add(DrawState(event)))
    for index in range(len(state.games)):
        game = state.games[index]
        assert game.second is not None
        state = record_result(state, index, winner=min(game.first, game.second))
    given = games_to_add(state)
    first = next(p for p in given if 1 in (p.first, p.second))
    assert {first.first, first.second} & {2, 3} == set()
    assert all(p.round == 3 for p in given)


@pytest.mark.parametrize("knockout_from", [2, 3, 4, 5, 6])
def test_knockout_from_round_n(knockout_from: int) -> None:
    event = Event(Format.DOUBLE_LOSS_THEN_KNOCKOUT, tuple(range(1, 17)), knockout_from)
    state = play(event, seed=knockout_from)
    assert is_finished(state)
    out_by_one = 0
    for index, game in enumerate(state.games):
        loser = game.loser
        assert loser is not None
        later = [g for g in state.games[index + 1 :] if g.has(loser) and g.round > 2]
        if game.round >= knockout_from:
            assert later == [], f"{loser} lost in round {game.round} and played on"
            out_by_one += losses_before(state, index)[loser] == 0
        elif losses_before(state, index)[loser] == 0:
            assert [g for g in state.games[index + 1 :] if g.has(loser)], f"{loser}'s first loss put him out"
    if knockout_from <= 3:
        assert out_by_one > 0  # unbeaten players went out on a single loss


def test_knockout_from_round_n_refuses_a_round_out_of_range() -> None:
    with pytest.raises(DrawError, match="round 2 to 6"):
        Event(Format.DOUBLE_LOSS_THEN_KNOCKOUT, tuple(range(1, 9)), 7)
    with pytest.raises(DrawError, match="no knockout"):
        Event(Format.DOUBLE_LOSS, tuple(range(1, 9)), 3)


def test_two_rounds_then_cup_seeding() -> None:
    """Eight players; after two rounds 1 and 5 have two wins, 3, 8, 4, 7 one, 6 and 2 none. Six can
    still be in, so the cup has eight seats, and as the program seats by rank everyone is in it: by
    wins, then points, then the lot (here the list's order). The bracket pairs seeds 3 v 6, 2 v 7,
    4 v 5, 1 v 8, a game's seat number its place in the round; a seat is filled once its rank is
    certain, so 1 v 8 is drawn before the last opening result."""
    state = DrawState(Event(Format.TWO_ROUNDS_THEN_CUP, tuple(range(1, 9))))
    results = {(1, 2): (1, 60, 10), (3, 4): (3, 60, 20), (5, 6): (5, 60, 30), (7, 8): (7, 60, 40)}
    results |= {(1, 3): (1, 60, 50), (2, 4): (4, 60, 5), (5, 7): (5, 60, 15), (6, 8): (8, 60, 25)}
    state = add(state, games_to_add(state))
    assert [(g.first, g.second, g.round) for g in state.games[4:]] == [(1, 3, 2), (2, 4, 2), (5, 7, 2), (6, 8, 2)]
    assert cup_seats(8) == [(3, 6), (2, 7), (4, 5), (1, 8)]
    given: dict[int, list[Pairing]] = {}
    for index in range(8):
        game = state.games[index]
        winner, won, lost = results[(game.first, game.second or 0)]
        points = (won, lost) if winner == game.first else (lost, won)
        state = record_result(state, index, winner=winner, points=points)
        given[index] = games_to_add(state)
        state = add(state, given[index])
    # ranks: 1 and 5 (two wins, 120 each: 1 has the better lot), 3 (110), 8 (100), 4 (80), 7 (75),
    # 6 (55), 2 (15). With 5 v 7 and 6 v 8 to play, the cup's size is known (six can be in) and
    # ranks 1 (nobody can pass player 1: 5 at best ties him, on the worse lot) and 8 (player 2, out
    # of games, below everyone) are certain: seeds 1 v 8 are drawn at once.
    assert all(not given[i] for i in range(5))
    assert given[5] == [Pairing(1, 2, 3, 3, 3, 3)] and given[6] == []
    assert [(p.first, p.second, p.slot) for p in given[7]] == [(3, 7, 0), (5, 6, 1), (8, 4, 2)]
    # the winners of seats 0 and 1 meet in round 4, once both are known
    seat = {g.slot: i for i, g in enumerate(state.games) if g.round == 3}
    state = record_result(state, seat[0], winner=7)
    assert games_to_add(state) == []
    state = record_result(state, seat[1], winner=5)
    assert games_to_add(state) == [Pairing(7, 5, 4, 4, 4, 0)]


def test_cup_seats_beyond_the_field_are_walk_overs() -> None:
    """Thirteen players: nine can still be in after the opening, so the cup has sixteen seats; the
    three beyond the field are empty and the top three seeds go through without a game."""
    state = play(Event(Format.TWO_ROUNDS_THEN_CUP, tuple(range(1, 14))), seed=9, tables=4)
    first_round = [g for g in state.games if g.round == 3]
    walkovers = [g for g in first_round if g.second is None]
    assert len(first_round) == 8 and len(walkovers) == 3
    assert all(g.winner == g.first for g in walkovers)
    assert is_finished(state)


def test_two_rounds_then_cup_loss_is_out() -> None:
    state = play(Event(Format.TWO_ROUNDS_THEN_CUP, tuple(range(1, 14))), seed=9)
    assert is_finished(state)
    for index, game in enumerate(state.games):
        if game.round >= 3 and game.loser is not None:
            assert not [g for g in state.games[index + 1 :] if g.has(game.loser)]


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
    plan = opening(7)
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
    plan = opening(10)
    round_two = [(p.first, p.second) for p in plan if p.round == 2]
    assert round_two[:2] == [(6, 9), (8, 10)]
    assert sorted(round_two[2:]) == [(1, 3), (2, 4), (5, 7)]
    assert len({frozenset(p) for p in [(p.first, p.second) for p in plan]}) == len(plan)  # no rematch


def test_the_draw_waits_for_a_result_it_depends_on() -> None:
    """Eight players, the opening played but for one round-2 game whose player 1 lost in round 1:
    whether he is still in decides the search's first seeker, so the search gives nothing until that
    result is in; then round 3 is drawn."""
    event = Event(Format.DOUBLE_LOSS, tuple(range(1, 9)))
    state = add(DrawState(event), games_to_add(DrawState(event)))
    order = listing_order(state)
    one_first = next(i for i in order if state.games[i].round == 2 and state.games[i].has(1))
    for index in order:
        game = state.games[index]
        if index == one_first:
            continue
        winner = game.second if index == order[0] else game.first  # 1 loses his round-1 game
        assert winner is not None
        state = record_result(state, index, winner=winner)
        state = add(state, games_to_add(state))
    assert all(g.round <= 2 for g in state.games)
    game = state.games[one_first]
    state = record_result(state, one_first, winner=game.first)
    assert {p.round for p in games_to_add(state)} == {3}


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
        ((Game(1, None, 3, 1, 3),), "only a cup game"),
        ((Game(1, 2, 1, 1, 1, winner=2), Game(1, 3, 1, 1, 1)), "own round 2"),
        ((Game(1, 2, 1, 1, 1, winner=3),), "did not play"),
        (
            (
                Game(1, 2, 1, 1, 1, winner=2),
                Game(1, 3, 2, 2, 1, winner=3),
                Game(1, 4, 3, 3, 1, winner=4),
            ),
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
    with pytest.raises(DrawError, match="lots"):
        Event(Format.TWO_ROUNDS_THEN_CUP, (1, 2, 3, 4), lots=(1, 2, 3))
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


def test_the_lists_draw_is_the_same_in_any_process_and_each_order_as_likely() -> None:
    """shuffled() depends on the number and the purpose alone: another interpreter (its own hash
    seed) draws the same order; over many numbers each entrant heads the list about as often."""
    names = [f"entrant {i}" for i in range(12)]
    here = shuffled(names, 4242, "list")
    code = (
        "from game.tournaments.pairing.draw_seeding import shuffled;"
        "print(shuffled([f'entrant {i}' for i in range(12)], 4242, 'list'))"
    )
    there = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env={"PYTHONHASHSEED": "7"}
    )
    assert there.stdout.strip() == str(here)
    assert shuffled(names, 4242, "lots") != here  # another purpose, another draw
    heads = [shuffled(list(range(6)), number, "list")[0] for number in range(600)]
    assert all(60 <= heads.count(entrant) <= 140 for entrant in range(6))  # 100 expected each


def test_cup_rows_wait_for_final_ranks() -> None:
    """A seat is filled only once its rank cannot move: with one opening game still to play, the
    players it can move stay unseated."""
    event = Event(Format.TWO_ROUNDS_THEN_CUP, tuple(range(1, 9)))
    state = add(DrawState(event), games_to_add(DrawState(event)))
    for index in range(7):
        game = state.games[index]
        state = record_result(state, index, winner=game.first, points=(60, 30 + index))
    opening_games = list(state.games)
    rows = cup_rows(opening_games, [], event.cup_lots, event.target)
    assert len([r for r in rows if r.round == 3]) == 4
    seated = {p for r in rows if r.round == 3 for p in (r.first, r.second) if p is not None}
    last = state.games[7]
    assert last.second is not None and not seated & {last.first, last.second}
