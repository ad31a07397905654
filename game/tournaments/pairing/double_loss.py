"""The Finnish double-loss draw ("tuplakaavio", issue 28): the next game for a free table, and the
placings.

Games are drawn one at a time, as tables free up, in the order of the draw list; a player is out after
two losses (or one, from the knockout round on). Rounds 1 and 2 come from the list alone; later games
from the search of :mod:`game.tournaments.pairing.double_loss_search`, or the cup of
:mod:`game.tournaments.pairing.double_loss_cup`. While games are being played the draw only gives a
game that every way they can end would give, and only to two players who are free: the answer never
depends on results not yet in (what the reference program does by trying every outcome). With more
than :data:`MOST_IN_PROGRESS` games in progress it waits, as the program does.

    state = DrawState(Event(Format.DOUBLE_LOSS, (1, 2, 3, 4, 5)))
    pairing = next_game(state)                 # Pairing(1, 2, round=1, …)
    state = state.with_game(Game.drawn(pairing))
    state = record_result(state, 0, winner=2)  # game 0 won by 2
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace

from game.tournaments.pairing.double_loss_cup import cup_game
from game.tournaments.pairing.double_loss_search import opening, searched_game
from game.tournaments.pairing.double_loss_state import (
    DrawError,
    DrawState,
    Event,
    Format,
    Game,
    Pairing,
    Record,
    pending_games,
    records,
)

__all__ = [
    "DrawError",
    "DrawState",
    "Event",
    "Format",
    "Game",
    "Pairing",
    "Placing",
    "next_game",
    "placings",
    "record_result",
]

#: With more games than this in progress the draw waits (the program's limit: its search tries every
#: outcome of them, 2 ** 8 ways).
MOST_IN_PROGRESS = 8


def next_game(state: DrawState) -> Pairing | None:
    """The game for the next free table; None while it depends on results not in yet, or when the
    event is over (:func:`is_finished` tells the two apart)."""
    table = records(state)
    planned = _opening_game(state, table)
    if planned is not None or not _opening_done(state):
        return planned
    waiting = pending_games(state)
    if state.event.format == Format.TWO_ROUNDS_THEN_CUP:
        return _cup_game(state, table)
    if len(waiting) > MOST_IN_PROGRESS:
        return None
    unfinished = [i for i, game in enumerate(state.games) if not game.played]
    answers: set[Pairing | None] = set()
    for winners in itertools.product(*((g.first, g.second) for g in waiting)):
        answers.add(_drawn_after(_completed(state, dict(zip(unfinished, winners, strict=True)))))
        if len(answers) > 1:
            return None
    pairing = answers.pop()
    if pairing is None or table[pairing.first].pending or table[pairing.second].pending:
        return None
    return pairing


def is_finished(state: DrawState) -> bool:
    table = records(state)
    return not pending_games(state) and sum(1 for r in table.values() if not r.out) < 2


def record_result(state: DrawState, index: int, *, winner: int, points: tuple[int, int] = (0, 0)) -> DrawState:
    """The state with game `index` (0-based, in draw order) won by `winner`."""
    if not 0 <= index < len(state.games):
        raise DrawError(f"there is no game {index + 1}")
    game = state.games[index]
    if winner not in (game.first, game.second):
        raise DrawError(f"{winner} did not play in game {index + 1}")
    games = list(state.games)
    games[index] = replace(game, winner=winner, first_points=points[0], second_points=points[1])
    return DrawState(state.event, tuple(games))


def _opening_game(state: DrawState, table: dict[int, Record]) -> Pairing | None:
    drawn = {(frozenset((g.first, g.second)), g.round) for g in state.games}
    for pairing in opening(state.event.entrants):
        if (frozenset((pairing.first, pairing.second)), pairing.round) in drawn:
            continue
        first, second = table[pairing.first], table[pairing.second]
        if first.pending or second.pending or first.out or second.out:
            continue
        if (first.games + 1, second.games + 1) == (pairing.first_round, pairing.second_round):
            return pairing
    return None


def _opening_done(state: DrawState) -> bool:
    drawn = {frozenset((g.first, g.second)) for g in state.games if g.round <= 2}
    return all(frozenset((p.first, p.second)) in drawn for p in opening(state.event.entrants))


def _completed(state: DrawState, winners: dict[int, int]) -> DrawState:
    games = tuple(replace(g, winner=winners[i]) if i in winners else g for i, g in enumerate(state.games))
    return DrawState(state.event, games)


def _drawn_after(state: DrawState) -> Pairing | None:
    """The next game once every result is in."""
    return searched_game(records(state), state.event.single_loss_from)


def _cup_game(state: DrawState, table: dict[int, Record]) -> Pairing | None:
    """The cup needs no trial of outcomes: a seat still played for is skipped, the rest is known."""
    opening_games = tuple(g for g in state.games if g.round <= 2)
    if not all(g.played for g in opening_games):
        return None  # the seeding waits for every opening result
    return cup_game(table, records(DrawState(state.event, opening_games)), state.games)


@dataclass(frozen=True)
class Placing:
    """`place` is shared by players level on every count; `out_after` is the number of games a
    player had played when he went out (0: still in); `final` is False while the event goes on."""

    entrant: int
    place: int
    wins: int
    points: int
    out_after: int
    final: bool


def placings(state: DrawState) -> list[Placing]:
    """The standings as the program ranks them. Double loss: the players still in first, then the
    rest by wins, then Kaisa points (a win more is a round further, as each loss but the last is
    one). Cup: by the round a player went out (the cup's rounds), a player with no win last."""
    table = records(state)
    cup = state.event.format == Format.TWO_ROUNDS_THEN_CUP

    def key(record: Record) -> tuple[int, ...]:
        if cup:
            return (-int(not record.out), -(record.games if record.wins else 0))
        return -int(not record.out), -record.wins, -record.points

    ordered = sorted(table.values(), key=lambda r: (*key(r), r.position))
    finished = is_finished(state)
    result: list[Placing] = []
    for number, record in enumerate(ordered, start=1):
        place = number
        if result and record.out and key(record) == key(table[result[-1].entrant]):
            place = result[-1].place
        result.append(Placing(record.entrant, place, record.wins, record.points, record.out_after, finished))
    return result
