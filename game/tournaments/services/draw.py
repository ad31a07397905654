"""The rows of a double-loss draw (issue 28): the games the draw gives stored as pairings, the rounds
kept in step, the final placings stored. Games are drawn one at a time, not by whole rounds: each
time something is decided the draw is rebuilt from the rows (game/tournaments/selectors/draw.py) and
asked for its next game until it has none. Online there is no table to wait for, so every game it
gives is stored at once and play.py gives it its match.

Called by play.py (the caller holds the tournament row); matches are no business of this module.
"""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext_noop

from game.models.tournaments import Tournament, TournamentEntry, TournamentPairing, TournamentRound
from game.tournaments.pairing.double_loss import DrawError, DrawState, Game, is_finished, next_game, placings
from game.tournaments.selectors.draw import draw_state
from game.tournaments.services.base import TournamentError


def draw_rebuilt(tournament: Tournament) -> DrawState:
    """The draw from the rows; a refusal (not an exception of the draw) if they are not one."""
    try:
        return draw_state(tournament=tournament)
    except DrawError as exc:
        raise TournamentError(
            "bad_draw", gettext_noop("the draw cannot go on: %(reason)s"), {"reason": exc.reason}
        ) from exc


def draw_store_next(tournament: Tournament, *, begun: bool) -> list[TournamentPairing]:
    """Store every game the draw gives now, in its order, in its round (made when first needed:
    playing once the tournament has begun, else paired, for the start-time clock to begin)."""
    state = draw_rebuilt(tournament)
    index = len(state.games)
    stored: list[TournamentPairing] = []
    while (pairing := next_game(state)) is not None:
        round_, _ = TournamentRound.objects.get_or_create(
            tournament=tournament,
            number=pairing.round,
            defaults={"status": TournamentRound.Status.PAIRED},
        )
        if begun and round_.status != TournamentRound.Status.PLAYING:
            _round_playing(round_)
        stored.append(
            TournamentPairing.objects.create(
                round=round_, tournament=tournament, index=index, first_id=pairing.first, second_id=pairing.second
            )
        )
        state = state.with_game(Game.drawn(pairing))
        index += 1
    return stored


def draw_tables_give(tournament: Tournament) -> list[TournamentPairing]:
    """An event at the club (`Tournament.tables`): each drawn game still waiting for a table gets a
    free one, in draw order, the lowest free table first; a game beyond the free tables waits. So
    when a result frees a table, the next drawn game goes to it. Returns the games given a table."""
    playing = TournamentPairing.objects.filter(tournament=tournament, status=TournamentPairing.Status.PLAYING)
    taken = set(playing.filter(table__isnull=False).values_list("table", flat=True))
    free = [table for table in range(1, (tournament.tables or 0) + 1) if table not in taken]
    given: list[TournamentPairing] = []
    now = timezone.now()
    for pairing, table in zip(playing.filter(table__isnull=True).order_by("index", "pk"), free, strict=False):
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
