"""The rows of a double-loss draw: the games the draw gives stored as pairings, the rounds kept in
step, the final placings stored. The draw is rebuilt from the rows (game/tournaments/selectors/draw.py)
each time: when the entries close it gives the opening (rounds 1 and 2), and after each new or
changed result its search adds what the program would add then (once per result: the results it
last searched after are kept, `Tournament.draw_searched`). A game is played when neither player has
an earlier game in the program's list still to finish (:func:`draw_ready`): at the club it then
gets the lowest free table, in the list's order; online play.py gives it its match.

Called by play.py (the caller holds the tournament row); matches are no business of this module.
"""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, replace

from django.utils import timezone
from django.utils.translation import gettext_noop

from game.models.tournaments import Tournament, TournamentEntry, TournamentPairing, TournamentRound
from game.tournaments.draw_words import draw_refusal
from game.tournaments.pairing.double_loss import (
    DrawError,
    DrawState,
    Event,
    Format,
    Game,
    GameKey,
    Outcome,
    Pairing,
    game_key,
    games_to_add,
    is_finished,
    listing_key,
    opening_is_drawn,
    placings,
    redraw,
)
from game.tournaments.pairing.results import decided
from game.tournaments.selectors.draw import draw_games, draw_state, drawn_pairings, ready_pairings
from game.tournaments.services.base import TournamentError
from game.tournaments.services.venues import venue_tables
from game.tournaments.values import Said


def draw_rebuilt(tournament: Tournament) -> DrawState:
    """The draw from the rows; a refusal (not an exception of the draw) if they are not one."""
    try:
        return draw_state(tournament=tournament)
    except DrawError as exc:
        names = dict(TournamentEntry.objects.filter(tournament=tournament).values_list("pk", "name"))
        reason = draw_refusal(exc, names=names)
        raise TournamentError(
            "bad_draw", gettext_noop("the draw cannot go on: %(reason)s"), {"reason": Said(reason)}
        ) from exc


def results_digest(state: DrawState) -> str:
    """The results the draw has: every decided game (its place in the draw order) and its winner, and
    in the cup format its points too (they seed the cup; its search may run again at no cost, since
    it adds only what the bracket is missing)."""
    cup = state.event.format == Format.TWO_ROUNDS_THEN_CUP
    text = ";".join(
        f"{i}:{g.first}:{g.second}:{g.winner}" + (f":{g.first_points}:{g.second_points}" if cup else "")
        for i, g in enumerate(state.games)
        if g.played
    )
    return hashlib.sha256(text.encode()).hexdigest()


def draw_store_next(tournament: Tournament, *, begun: bool) -> list[TournamentPairing]:
    """Store the games the draw gives now, in its order, each in its round (made when first
    needed: playing once the tournament has begun, else paired, for the start-time clock to begin):
    the opening until it is drawn, then what the search adds once after each new or changed result.
    A cup walk-over is stored decided."""
    state = draw_rebuilt(tournament)
    digest = results_digest(state)
    if opening_is_drawn(state) and digest == tournament.draw_searched:
        return []
    index = len(state.games)
    stored: list[TournamentPairing] = []
    for pairing in games_to_add(state):
        stored.append(_store(tournament, pairing, index, begun=begun))
        state = state.with_game(Game.drawn(pairing))
        index += 1
    draw_searched_now(tournament, state)
    return stored


def _store(tournament: Tournament, pairing: Pairing, index: int, *, begun: bool) -> TournamentPairing:
    """A game of the draw as a pairing in its round (made when first needed); a cup walk-over decided."""
    round_, _ = TournamentRound.objects.get_or_create(
        tournament=tournament,
        number=pairing.round,
        defaults={"status": TournamentRound.Status.PAIRED},
    )
    if begun and round_.status != TournamentRound.Status.PLAYING:
        _round_playing(round_)
    row = TournamentPairing(
        round=round_,
        tournament=tournament,
        index=index,
        first_id=pairing.first,
        second_id=pairing.second,
        slot="" if pairing.slot is None else str(pairing.slot),
    )
    if pairing.walkover:
        result = decided(pairing.first, None, pairing.first)
        row.status, row.how, row.winner_id = TournamentPairing.Status.DONE, TournamentPairing.How.BYE, pairing.first
        row.first_points, row.second_points = result.first_points, result.second_points
        row.finished_at = timezone.now()
    row.save()
    return row


@dataclass(frozen=True)
class TakenOut:
    """A game a correction took out before drawing again (services/corrections.py): its round, its
    players and its result (`winner` None: not played), and when it ended."""

    pairing_id: int
    round: int
    first: int
    second: int
    winner: int | None
    scores: tuple[int, int]
    finished_at: datetime.datetime | None


@dataclass(frozen=True)
class DrawnAgain:
    """The draw of a corrected event: the new draw; for each of its games the stored pairing that is
    that game (same round, same players: its row, table and times stay, and its result if the new
    draw has it played) or None for a game to store; for a game to store, the game taken out that it
    is (by its index in the new draw); the stored pairings the new draw no longer has; and the ones
    it has whose result it cannot have yet (a player now has an earlier game to play first)."""

    state: DrawState
    stored: list[TournamentPairing | None]
    taken: dict[int, TakenOut]
    lost: list[TournamentPairing]
    unplayed: list[TournamentPairing]


def draw_again(
    event: Event, games: Sequence[Game], pairings: list[TournamentPairing], taken_out: Sequence[TakenOut] = ()
) -> DrawnAgain:
    """The draw the program makes from the start with the results of `games` (the rows' games in
    their order, a result corrected perhaps: they need not be a draw any more) and of the games
    `taken_out`, fed in the order they came in (`finished_at`, as the export's `Paattyi` gives them
    to a replay; a correction keeps a game's time), games that ended together in the order the
    program lists them (double_loss.redraw). A stored game the new draw has keeps its row; one it
    has not is lost."""
    outcomes = _outcomes_in_order(event, games, pairings, taken_out)
    new = redraw(event, outcomes)
    by_key = {game_key(game): pairings[index] for index, game in enumerate(games)}
    stored = [by_key.get(game_key(game)) for game in new.games]
    taken_by_key = {(out.round, frozenset((out.first, out.second))): out for out in taken_out}
    taken = {
        index: taken_by_key[game_key(game)]
        for index, (game, row) in enumerate(zip(new.games, stored, strict=True))
        if row is None and game_key(game) in taken_by_key
    }
    kept = {p.pk for p in stored if p is not None}
    unplayed = [
        row
        for game, row in zip(new.games, stored, strict=True)
        if row is not None and not game.played and row.status == TournamentPairing.Status.DONE
    ]
    return DrawnAgain(new, stored, taken, [p for p in pairings if p.pk not in kept], unplayed)


def _outcomes_in_order(
    event: Event, games: Sequence[Game], pairings: list[TournamentPairing], taken_out: Sequence[TakenOut]
) -> dict[GameKey, Outcome]:
    """The results of `games` and of the games `taken_out`, each ranked by when it came in (a game
    with no time last), games that ended together in the program's list order."""
    never = datetime.datetime.max.replace(tzinfo=datetime.UTC)
    fed: list[tuple[datetime.datetime, tuple[int, ...], GameKey, Outcome]] = []
    for index, game in enumerate(games):
        if game.winner is not None and game.second is not None:
            points = ((game.first, game.first_points), (game.second, game.second_points))
            came = pairings[index].finished_at or never
            fed.append((came, listing_key(event, game, index), game_key(game), Outcome(0, game.winner, points)))
    for out in taken_out:
        if out.winner is not None:
            points = ((out.first, out.scores[0]), (out.second, out.scores[1]))
            key = (out.round, frozenset((out.first, out.second)))
            fed.append(
                (
                    out.finished_at or never,
                    (out.round, len(games) + out.pairing_id),
                    key,
                    Outcome(0, out.winner, points),
                )
            )
    fed.sort(key=lambda item: (item[0], item[1]))
    return {key: replace(outcome, rank=rank) for rank, (_, _, key, outcome) in enumerate(fed)}


@dataclass(frozen=True)
class Redrawing:
    """What :func:`draw_redraw` did: the stored pairings it deleted or could not keep the result of,
    and for each game taken out that the new draw has, its new pairing and whether the new draw has
    it played (its result fed back)."""

    lost: list[TournamentPairing]
    back: dict[int, tuple[TournamentPairing, bool]]


def draw_redraw(tournament: Tournament, taken_out: Sequence[TakenOut] = ()) -> Redrawing:
    """Draw the event again from its rows' results and those of the games a correction took out:
    the rows become the new draw in its order; a game that comes back keeps its row (result, table
    and times), a game taken out that comes back is stored again (the caller gives it back its
    result, table and times), a game that does not come back is deleted."""
    pairings = drawn_pairings(tournament=tournament)
    event, games = draw_games(tournament=tournament, pairings=pairings)
    again = draw_again(event, games, pairings, taken_out)
    TournamentPairing.objects.filter(pk__in=[p.pk for p in again.lost]).delete()
    for row in again.unplayed:  # to be played again, once its players' earlier games are
        row.status, row.how, row.winner_id, row.result_code = TournamentPairing.Status.PLAYING, "", None, ""
        row.first_points = row.second_points = 0.0
        row.first_score = row.second_score = 0
        row.finished_at = None
        row.save()
    back: dict[int, tuple[TournamentPairing, bool]] = {}
    for index, (game, stored) in enumerate(zip(again.state.games, again.stored, strict=True)):
        if stored is None:
            made = _store(
                tournament,
                Pairing(game.first, game.second, game.round, game.first_round, game.second_round, game.slot),
                index,
                begun=True,
            )
            if index in again.taken:
                back[again.taken[index].pairing_id] = (made, game.played)
        elif stored.index != index or stored.slot != ("" if game.slot is None else str(game.slot)):
            stored.index, stored.slot = index, "" if game.slot is None else str(game.slot)
            stored.save(update_fields=["index", "slot"])
    TournamentRound.objects.filter(tournament=tournament, pairings__isnull=True).delete()
    ready = {p.pk for p in draw_ready(tournament, waiting_only=False)}
    for waiting in TournamentPairing.objects.filter(tournament=tournament, status="playing", table__isnull=False):
        if waiting.pk not in ready:  # a player has an earlier game to play first: the table is free
            waiting.table = None
            waiting.save(update_fields=["table"])
    draw_searched_now(tournament, again.state)
    return Redrawing([*again.lost, *again.unplayed], back)


def draw_searched_now(tournament: Tournament, state: DrawState | None = None) -> None:
    """The draw has searched after the results it has now (an import: the file's draw did)."""
    digest = results_digest(draw_rebuilt(tournament) if state is None else state)
    if tournament.draw_searched != digest:
        tournament.draw_searched = digest
        tournament.save(update_fields=["draw_searched"])


def draw_ready(tournament: Tournament, *, waiting_only: bool = True) -> list[TournamentPairing]:
    """The games to play next, in the program's list order (selectors.draw.ready_pairings)."""
    return ready_pairings(tournament=tournament, waiting_only=waiting_only)


def draw_tables_give(tournament: Tournament) -> list[TournamentPairing]:
    """An event at the club (`Tournament.tables`): each game ready to be played (:func:`draw_ready`)
    gets a free table, in the program's list order, the lowest free table first; a game beyond the
    free tables waits. So when a result frees a table, the next game in the list goes to it. At
    several places a game takes a table of its place (services/venues.py `venue_tables`).
    Returns the games given a table."""
    playing = TournamentPairing.objects.filter(tournament=tournament, status=TournamentPairing.Status.PLAYING)
    taken = set(playing.filter(table__isnull=False).values_list("table", flat=True))
    free = [table for table in range(1, (tournament.tables or 0) + 1) if table not in taken]
    tables_of = venue_tables(tournament)
    given: list[TournamentPairing] = []
    now = timezone.now()
    for pairing in draw_ready(tournament):
        choices = free if tables_of is None else [t for t in free if t in tables_of(pairing)]
        if not choices:
            continue
        table = choices[0]
        free.remove(table)
        pairing.table, pairing.table_at = table, now
        pairing.save(update_fields=["table", "table_at"])
        given.append(pairing)
    return given


def draw_rounds_begin(tournament: Tournament) -> None:
    """The start time came: every round paired before it is being played."""
    for round_ in TournamentRound.objects.filter(tournament=tournament).exclude(status=TournamentRound.Status.PLAYING):
        if TournamentPairing.objects.filter(round=round_, status=TournamentPairing.Status.PLAYING).exists():
            _round_playing(round_)


def draw_rounds_settle(tournament: Tournament) -> None:
    """A round is done while none of its games is being played (a later game may reopen it: a player
    who rested plays his own round in the round after)."""
    for round_ in TournamentRound.objects.filter(tournament=tournament, status=TournamentRound.Status.PLAYING):
        if not TournamentPairing.objects.filter(round=round_, status=TournamentPairing.Status.PLAYING).exists():
            round_.status = TournamentRound.Status.DONE
            round_.finished_at = timezone.now()
            round_.save(update_fields=["status", "finished_at"])


def _round_playing(round_: TournamentRound) -> None:
    round_.status = TournamentRound.Status.PLAYING
    round_.started_at = round_.started_at or timezone.now()
    round_.finished_at = None
    round_.save(update_fields=["status", "started_at", "finished_at"])


def draw_is_over(tournament: Tournament) -> bool:
    return is_finished(draw_rebuilt(tournament))


def draw_placings_store(tournament: Tournament) -> int | None:
    """Store each entry's final placing from the draw; returns the winner's entry id."""
    ranked = placings(draw_rebuilt(tournament))
    for placing in ranked:
        TournamentEntry.objects.filter(pk=placing.entrant, tournament=tournament).update(place=placing.place)
    return ranked[0].entrant if ranked else None


def draw_reopen(tournament: Tournament) -> None:
    """A fixed result gave a finished draw more games: it runs again, the placings wait for its end."""
    TournamentEntry.objects.filter(tournament=tournament).update(place=None)
    tournament.status = Tournament.Status.RUNNING
    tournament.winner = None
    tournament.finished_at = None
    tournament.save(update_fields=["status", "winner", "finished_at"])


def draw_later_games_of(tournament: Tournament, pairing: TournamentPairing) -> bool:
    """Whether a game drawn after `pairing` names one of its players: his own round, his losses and
    so whether he was still in were read from its result when that game was drawn."""
    players = [pairing.first_id, pairing.second_id]
    later = TournamentPairing.objects.filter(tournament=tournament, index__gt=pairing.index)
    return later.filter(first_id__in=players).exists() or later.filter(second_id__in=players).exists()
