"""The Finnish double-loss draw ("tuplakaavio"): the games the reference program (KaisaKaavio) draws,
when it draws them, and the order it lists them in; and the placings.

The draw is fed as the program is: :func:`games_to_add` gives the opening (rounds 1 and 2, from the
draw list alone) when nothing is drawn yet, and after each result the games its search adds then;
the caller stores them and asks again after the next result, never in between (a second search on
the same results may draw more than the program would). A search runs only with
:data:`MOST_IN_PROGRESS` games or fewer in progress; it tries every way they can end and keeps the
games that every one of them gives (:mod:`game.tournaments.pairing.double_loss_search`), so a game
may be drawn for a player whose game is still being played: it is played after it.

The program lists its games sorted (:func:`listing_order`): by round, then the first player's own
round, then the two players' places in the draw list (a cup game by its seat). That list is the
order a club calls its games in and the order of the program's files.

    state = DrawState(Event(Format.DOUBLE_LOSS, (1, 2, 3, 4, 5)))
    for pairing in games_to_add(state):        # the opening: 1 v 2, 3 v 4, 5 v 1, 2 v 3, 4 v 5
        state = state.with_game(Game.drawn(pairing))
    state = record_result(state, 0, winner=2)  # game 0 won by 2
    more = games_to_add(state)                 # what the search adds after that result
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from functools import lru_cache

from game.tournaments.pairing.double_loss_cup import CupRow, cup_rows
from game.tournaments.pairing.double_loss_search import NO_LAST_ROUND, NOBODY, Drawn, added, opening, search_round
from game.tournaments.pairing.double_loss_state import (
    CUP_FIRST_ROUND,
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
    "games_to_add",
    "is_finished",
    "listing_order",
    "opening_is_drawn",
    "placings",
    "record_result",
    "redraw",
]

#: With more games than this in progress the search waits (it tries every outcome of them).
MOST_IN_PROGRESS = 8
#: The program repeats a search that asks for it at most this often after one result.
MOST_SEARCHES = 50


def games_to_add(state: DrawState) -> list[Pairing]:
    """The games the program adds now: the opening (or what of it is missing) until it is drawn;
    then, called once after each result, the games its search adds after that result."""
    if not opening_is_drawn(state):
        return _opening_missing(state)
    if state.event.format == Format.TWO_ROUNDS_THEN_CUP:
        return _cup_games(state)
    return _searched(state)


def listing_order(state: DrawState) -> list[int]:
    """The indices of `state.games` in the program's list order."""
    return sorted(range(len(state.games)), key=lambda i: listing_key(state.event, state.games[i], i))


def listing_key(event: Event, game: Game, index: int) -> tuple[int, int, int, int, int, int]:
    """Where the program lists a game: by round, then (a cup game by its seat) its place's number
    (an event at several places), the first player's own round, then the two players' places in
    the list; `index` (the order drawn) breaks a tie."""
    if event.format == Format.TWO_ROUNDS_THEN_CUP and game.round >= CUP_FIRST_ROUND:
        return game.round, game.slot or 0, 0, 0, 0, index
    place = _places(event.entrants)
    venue = event.venue_of(game)
    return game.round, venue, game.first_round, place[game.first], place.get(game.second or 0, 0), index


@lru_cache(maxsize=64)
def _places(entrants: tuple[int, ...]) -> dict[int, int]:
    return {entrant: position for position, entrant in enumerate(entrants, start=1)}


def _positions(state: DrawState) -> tuple[dict[int, int], list[Drawn]]:
    place = {entrant: position for position, entrant in enumerate(state.event.entrants, start=1)}
    games = []
    cup = state.event.format == Format.TWO_ROUNDS_THEN_CUP
    for index in listing_order(state):
        game = state.games[index]
        if game.second is None and cup:
            continue  # a cup walk-over: never searched
        second = NOBODY if game.second is None else place[game.second]
        won = 0 if game.winner is None else 1 if game.winner == game.first else 2
        games.append(Drawn(place[game.first], second, game.round, game.first_round, game.second_round, won))
    return place, games


def _pairing(event: Event, drawn: Drawn) -> Pairing:
    return Pairing(
        event.entrants[drawn.first - 1],
        None if drawn.second == NOBODY else event.entrants[drawn.second - 1],
        drawn.round,
        drawn.first_round,
        drawn.second_round,
    )


def _plan(event: Event) -> list[Drawn]:
    """The opening of `event` by places: a championship's with its seeds' walk-overs; an event at
    several places each place's own, place by place, of its players in the list's order."""
    if event.venues:
        place = _places(event.entrants)
        games: list[Drawn] = []
        for venue in event.venues:
            at = [place[entrant] for entrant in venue]
            for g in opening(len(venue)):
                games.append(replace(g, first=at[g.first - 1], second=at[g.second - 1]))
        return games
    if event.format == Format.CHAMPIONSHIP:
        place = _places(event.entrants)
        late = tuple((place[seed], event.walkovers(seed)) for seed in event.seeds)
        return opening(len(event.entrants), late=late)
    return opening(len(event.entrants), cup=event.format == Format.TWO_ROUNDS_THEN_CUP)


#: A game of a draw as results know it: its round and its players.
GameKey = tuple[int, frozenset[int]]


@dataclass(frozen=True)
class Outcome:
    """A result to feed a redraw: `rank` orders results as they are fed (a lower rank first, among
    games ready to be played), `points` each player's score."""

    rank: int
    winner: int
    points: tuple[tuple[int, int], ...] = ()


def game_key(game: Game | Pairing) -> GameKey:
    return game.round, frozenset(p for p in (game.first, game.second) if p is not None)


def redraw(event: Event, outcomes: dict[GameKey, Outcome]) -> DrawState:
    """The draw the program makes of `event` from the start with these results: the opening, then
    one result at a time (of the games drawn and ready to be played, the one with the lowest rank
    that has an outcome) and the search after each, until no drawn game has one. A game's outcome is
    found by its round and players; a game drawn that has none stays unplayed, and so does every
    game after it of its players. This is how a file is replayed (its list order as the rank) and
    how a corrected event is drawn again (docs/double-loss-draw.md)."""
    state = DrawState(event)
    state = _added(state, games_to_add(state))
    while True:
        order = listing_order(state)
        best: tuple[int, int] | None = None
        for place, index in enumerate(order):
            game = state.games[index]
            if game.played or not is_ready(state, order, place):
                continue
            outcome = outcomes.get(game_key(game))
            if outcome is not None and (best is None or outcome.rank < best[0]):
                best = (outcome.rank, index)
        if best is None:
            return state
        index = best[1]
        game = state.games[index]
        outcome = outcomes[game_key(game)]
        points = dict(outcome.points)
        state = record_result(
            state,
            index,
            winner=outcome.winner,
            points=(points.get(game.first, 0), 0 if game.second is None else points.get(game.second, 0)),
        )
        state = _added(state, games_to_add(state))


def is_ready(state: DrawState, order: list[int], place: int) -> bool:
    """Whether the game at `place` of the list (`order`: listing_order) may be played now, as the
    program lets it start: from round 3 (and in round 2 of a knockout from round 2) only once neither
    player has a game earlier in the list still to play; a game of the opening at once."""
    game = state.games[order[place]]
    event = state.event
    knockout_two = event.format == Format.DOUBLE_LOSS_THEN_KNOCKOUT and event.knockout_from == 2
    if game.round <= 2 and not (knockout_two and game.round == 2):
        return True
    return not any(
        not state.games[i].played and any(state.games[i].has(p) for p in game.players) for i in order[:place]
    )


def _added(state: DrawState, pairings: list[Pairing]) -> DrawState:
    for pairing in pairings:
        state = state.with_game(Game.drawn(pairing))
    return state


def _opening_missing(state: DrawState) -> list[Pairing]:
    """The opening's games not drawn yet, each as the program lists it once the earlier ones are."""
    event = state.event
    _, games = _positions(state)
    drawn = {(frozenset((g.first, g.second)), g.round) for g in games}
    table = records(state)
    missing: list[Pairing] = []
    for planned in _plan(event):
        if (frozenset((planned.first, planned.second)), planned.round) in drawn:
            continue
        if planned.second == NOBODY:
            games.append(planned)
            missing.append(_pairing(event, planned))
            continue
        first, second = (table[event.entrants[p - 1]] for p in (planned.first, planned.second))
        if first.out or second.out:
            continue
        game = added(games, planned.first, planned.second, cup=event.format == Format.TWO_ROUNDS_THEN_CUP)
        if game.round != planned.round:
            continue
        games.append(game)
        missing.append(_pairing(event, game))
    return missing


def opening_is_drawn(state: DrawState) -> bool:
    """Whether rounds 1 and 2 are drawn (the search draws from then on)."""
    # a game by its pair of players (its round may differ from the plan's), a walk-over by its round too
    drawn = {frozenset((g.first, g.second)) for g in state.games if g.round <= 2 and g.second is not None}
    drawn |= {frozenset((g.first, -g.round)) for g in state.games if g.round <= 2 and g.second is None}
    entrants = state.event.entrants

    def planned(game: Drawn) -> frozenset[int]:
        second = -game.round if game.second == NOBODY else entrants[game.second - 1]
        return frozenset((entrants[game.first - 1], second))

    return all(planned(game) in drawn for game in _plan(state.event))


def _searched(state: DrawState) -> list[Pairing]:
    """The program's search after a result, repeated while it asks to be and adds a game. An event
    at several places searches place by place until the draws are joined (:func:`_venue_searches`)."""
    event = state.event
    _, games = _positions(state)
    size, knockout = len(event.entrants), state.event.single_loss_from
    given: list[Pairing] = []
    for _ in range(MOST_SEARCHES):
        venues = _venue_searches(event, games) if event.venues else []
        if venues:
            common, again = [], False
            for venue in venues:
                found_here, asked = _venue_search(event, games, venue)
                common += found_here
                again = again or asked
        else:
            common, again = _search_all(size, knockout, games)
        if not common:
            break
        round_two_played = any(g.round == 2 and g.won for g in games)
        grew = False
        for game in common:
            if game.round == 3 and not round_two_played:
                continue  # no round-3 game before a round-2 game has been played
            new = added(games, game.first, game.second)
            games.append(new)
            given.append(_pairing(event, new))
            grew = True
        if not (again and grew):
            break
    return given


def _search_all(
    size: int, knockout: int, games: list[Drawn], last_round: int = NO_LAST_ROUND
) -> tuple[list[Drawn], bool]:
    """One search of `games` for every way the games in progress can end: the games every one of
    them gives, and whether one asks to be run again. With more than :data:`MOST_IN_PROGRESS` in
    progress it waits."""
    waiting = [g for g in games if not g.won]
    if len(waiting) > MOST_IN_PROGRESS:
        return [], False
    played = [g for g in games if g.won]
    found: list[list[Drawn]] = []
    again = False
    for outcome in itertools.product((1, 2), repeat=len(waiting)):
        tried = played + [replace(g, won=won) for g, won in zip(waiting, outcome, strict=True)]
        result = search_round(size, knockout, tried, bool(waiting), last_round)
        found.append(result.games)
        again = again or result.again
    return _in_every(found), again


def _venue_at(event: Event) -> dict[int, int]:
    """Each list place's place of play (0: the first)."""
    place = _places(event.entrants)
    return {place[entrant]: number for number, venue in enumerate(event.venues) for entrant in venue}


def _drawn_venue(event: Event, venue_at: dict[int, int], game: Drawn) -> int:
    return venue_at[game.first] if game.round < event.join_round else 0


def _fewest_games(members: list[int], games: list[Drawn], single_loss_from: int) -> tuple[int, int] | None:
    """The fewest games any of `members` still in has in `games`, and how many have that few (the
    program's list of who is in: two losses, or one in his own knockout round); None: nobody in."""
    counts = []
    for player in members:
        mine = [g for g in games if g.has(player)]
        lost = [g for g in mine if g.lost_by(player)]
        if len(lost) > 1 or any(g.own_round(player) >= single_loss_from for g in lost):
            continue
        counts.append(len(mine))
    if not counts:
        return None
    fewest = min(counts)
    return fewest, counts.count(fewest)


def _venue_searches(event: Event, games: list[Drawn]) -> list[int]:
    """The places searched on their own now, as the program decides (`Kilpailu.Haku`): none once
    the event's fewest games in (one more when no game up to there is still to play) reach the
    joining round; else each place whose own fewest are below it (:func:`_searched_alone`). None:
    the event is searched whole."""
    everyone = _fewest_games(list(range(1, len(event.entrants) + 1)), games, event.single_loss_from)
    if everyone is None:
        return []
    reached = everyone[0]
    if not any(g.round <= reached and not g.won for g in games):
        reached += 1
    if reached >= event.join_round:
        return []
    return [number for number in range(len(event.venues)) if _searched_alone(event, games, number)]


def _searched_alone(event: Event, games: list[Drawn], number: int) -> bool:
    """Whether place `number` is searched on its own: its fewest games in are below the joining
    round, and it is not waiting only for one player who rests, nor has played all its games up to
    the joining round."""
    join = event.join_round
    venue_at = _venue_at(event)
    members = [p for p, v in venue_at.items() if v == number]
    here = [g for g in games if _drawn_venue(event, venue_at, g) == number]
    fewest = _fewest_games(members, here, event.single_loss_from)
    if fewest is None or fewest[0] > join - 1:
        return False
    if fewest[0] == join - 2 and fewest[1] == 1:
        return False  # one player rests: he waits for the joined draw
    return not (fewest[0] == join - 1 and all(g.won for g in here))


def _venue_search(event: Event, games: list[Drawn], number: int) -> tuple[list[Drawn], bool]:
    """One place's search, as the program runs it on the place alone: its players in the list's
    order and its games, no game past the round before the joining."""
    venue_at = _venue_at(event)
    members = sorted(p for p, v in venue_at.items() if v == number)
    local = {p: i for i, p in enumerate(members, start=1)}
    here = [
        replace(g, first=local[g.first], second=local[g.second])
        for g in games
        if _drawn_venue(event, venue_at, g) == number and g.first in local and g.second in local
    ]
    found, again = _search_all(len(members), event.single_loss_from, here, event.join_round - 1)
    return [replace(g, first=members[g.first - 1], second=members[g.second - 1]) for g in found], again


def _in_every(found: list[list[Drawn]]) -> list[Drawn]:
    """The games (as pairs of players) that every outcome's search gives, in order of first sight."""
    seen: list[Drawn] = []
    pairs: set[frozenset[int]] = set()
    for games in found:
        for game in games:
            pair = frozenset((game.first, game.second))
            if pair not in pairs:
                pairs.add(pair)
                seen.append(game)
    every = [{frozenset((g.first, g.second)) for g in games} for games in found]
    return [g for g in seen if all(frozenset((g.first, g.second)) in pairs_of for pairs_of in every)]


def is_finished(state: DrawState) -> bool:
    table = records(state)
    return not pending_games(state) and sum(1 for r in table.values() if not r.out) < 2


def record_result(state: DrawState, index: int, *, winner: int, points: tuple[int, int] = (0, 0)) -> DrawState:
    """The state with game `index` (0-based, in draw order) won by `winner`."""
    if not 0 <= index < len(state.games):
        raise DrawError("no_game", game=index + 1)
    game = state.games[index]
    if winner not in (game.first, game.second):
        raise DrawError("winner_not_in_game", game=index + 1, winner=winner)
    games = list(state.games)
    games[index] = replace(game, winner=winner, first_points=points[0], second_points=points[1])
    return DrawState(state.event, tuple(games))


def _cup_games(state: DrawState) -> list[Pairing]:
    """The cup's games now known: each game of the bracket whose two players are known, and each
    walk-over once the opening is over, not drawn yet. The bracket needs no trial of outcomes: a
    seat still played for is simply not filled."""
    event = state.event
    opening_games = [g for g in state.games if g.round < CUP_FIRST_ROUND]
    cup_games = [g for g in state.games if g.round >= CUP_FIRST_ROUND]
    rows = cup_rows(opening_games, cup_games, event.cup_lots, event.target + event.score_margin)
    if not _cup_search_runs(state, rows):
        return []
    have = {(g.round, g.slot) for g in cup_games}
    count = {entrant: 0 for entrant in event.entrants}
    for game in state.games:
        for entrant in game.players:
            count[entrant] += 1
    given: list[Pairing] = []
    for row in rows:
        if (row.round, row.slot) in have or row.first is None or (row.second is None and not row.walkover):
            continue
        first_round = count[row.first] + 1
        second_round = row.round if row.second is None else count[row.second] + 1
        one, other = row.first, row.second
        if other is not None and second_round < first_round:
            one, other, first_round, second_round = other, one, second_round, first_round
        assert one is not None
        given.append(Pairing(one, other, max(first_round, second_round), first_round, second_round, row.slot))
        for seat in (one, other):
            if seat is not None:
                count[seat] += 1
    return given


def _cup_search_runs(state: DrawState, rows: list[CupRow]) -> bool:
    """Whether the program runs its cup search now. It lists every game of the bracket as soon as
    the cup's size is known, players or not, and while a cup round it has filled has more than
    :data:`MOST_IN_PROGRESS` games to play it does not move winners on."""
    have = {(g.round, g.slot) for g in state.games if g.round >= CUP_FIRST_ROUND}
    # the program's list: (round, players, played, short of a player); a game of the bracket not
    # drawn here is one the program lists without its players yet (it names them once both are known)
    listed = [(g.round, g.players, g.played, False) for g in state.games]
    listed += [(row.round, (), False, True) for row in rows if (row.round, row.slot) not in have]

    def losses_before(entrant: int, round_number: int) -> int:
        lost = [g for g in state.games if g.round < round_number and g.second is not None and g.loser == entrant]
        if len(lost) < 2 and any(
            (g.first_round if g.first == entrant else g.second_round) >= CUP_FIRST_ROUND for g in lost
        ):
            return 2
        return len(lost)

    def round_full(round_number: int) -> bool:
        playing = {e for number, players, _, _ in listed if number == round_number for e in players}
        idle = sum(1 for e in state.event.entrants if losses_before(e, round_number) < 2 and e not in playing)
        return idle < 2

    last_full = 0
    number = 1
    while any(item[0] == number for item in listed):
        still = [item for item in listed if item[0] == number and not item[2]]
        if not still and round_full(number):
            last_full = number
        if still:
            break
        number += 1
    searched = max(CUP_FIRST_ROUND, last_full + 1)
    if round_full(searched):
        return sum(1 for item in listed if item[0] <= searched and not item[2]) <= MOST_IN_PROGRESS
    return True


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
