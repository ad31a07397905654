"""The tournaments' server clocks: a tournament whose start time has come begins, a player who has not
come to a tournament match in time loses it by forfeit. Polled with the matches' deadlines, as a clock
source registered in game.apps (game.matches.services.deadlines `CLOCK_SOURCES`), on the game clock.
"""

from __future__ import annotations

import datetime
import logging
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_noop

from game.common.clock import game_now
from game.matches.services import Applied
from game.models.tournaments import Tournament, TournamentPairing, TournamentRound
from game.tournaments.selectors.tournaments import is_scheduled
from game.tournaments.services.base import TournamentError, lock_tournament, require_manager
from game.tournaments.services.play import no_show_fire, round_begin
from game.tournaments.services.setup import tournament_close_entries

__all__ = ["tournament_clock_source", "tournament_clocks_fire", "tournament_start_now"]

logger = logging.getLogger(__name__)


def _start_fire(tournament_id: int, now: float) -> None:
    """A tournament whose start time has come: close its entries (if an admin did not) and begin."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update(skip_locked=True).filter(pk=tournament_id).first()
        if tournament is None or tournament.starts_at.timestamp() > now:
            return
        if tournament.status == Tournament.Status.REGISTRATION:
            try:
                with transaction.atomic():
                    tournament_close_entries(user=None, tournament_id=tournament.pk, now=now)
            except TournamentError as exc:
                tournament.status = Tournament.Status.CANCELLED
                tournament.save(update_fields=["status"])
                logger.info("tournament %s cancelled at its start (%s)", tournament.pk, exc.code)
            return
        for round_ in TournamentRound.objects.filter(tournament=tournament, status=TournamentRound.Status.PAIRED):
            round_begin(tournament, round_, now)


@transaction.atomic
def tournament_start_now(*, user: Any, tournament_id: int, now: float | None = None) -> Tournament:
    """The director starts a tournament at once instead of waiting for its start time: the start
    time becomes now (the game clock), and the tournament starts as the clock would start it (the
    entries close if they are open, round 1 begins; at the club the first games go to the tables).
    Refused, with nothing changed, once it has begun, and with too few entries (the clock would
    cancel it; the director can still wait for more)."""
    tournament = lock_tournament(tournament_id)
    require_manager(club_id=tournament.club_id, user=user)
    if tournament.status not in (Tournament.Status.REGISTRATION, Tournament.Status.RUNNING) or (
        tournament.status == Tournament.Status.RUNNING and not is_scheduled(tournament)
    ):
        raise TournamentError("already_started", gettext_noop("this tournament has already started"))
    now = game_now() if now is None else now
    # Whole seconds: a start rounded up to the microsecond would be after `now`, and not yet begun.
    tournament.starts_at = datetime.datetime.fromtimestamp(int(now), tz=datetime.UTC)
    tournament.save(update_fields=["starts_at"])
    if tournament.status == Tournament.Status.REGISTRATION:
        return tournament_close_entries(user=user, tournament_id=tournament.pk, now=now)
    for round_ in TournamentRound.objects.filter(tournament=tournament, status=TournamentRound.Status.PAIRED):
        round_begin(tournament, round_, now)
    return tournament


def tournament_clocks_fire(*, now: float | None = None) -> tuple[list[tuple[str, Applied]], list[int]]:
    """The tournaments' server clocks, polled with the matches' (game/matches/services/deadlines.py): start
    the tournaments whose time has come, forfeit the no-shows. Each in its own transaction with SKIP
    LOCKED, so any number of processes fire each once. Returns (match events to publish, the ids of
    the tournaments that changed)."""
    now = game_now() if now is None else now
    changed: list[int] = []
    due_start = datetime.datetime.fromtimestamp(now, tz=datetime.UTC)
    starting = list(
        Tournament.objects.filter(starts_at__lte=due_start, status=Tournament.Status.REGISTRATION).values_list(
            "pk", flat=True
        )
    ) + list(
        TournamentRound.objects.filter(
            status=TournamentRound.Status.PAIRED,
            tournament__starts_at__lte=due_start,
            tournament__status=Tournament.Status.RUNNING,
        ).values_list("tournament_id", flat=True)
    )
    for tournament_id in sorted(dict.fromkeys(starting)):
        _start_fire(tournament_id, now)
        changed.append(tournament_id)
    fired: list[tuple[str, Applied]] = []
    due = TournamentPairing.objects.filter(status=TournamentPairing.Status.PLAYING, no_show_deadline__lte=now)
    for pairing_id, tournament_id in due.order_by("no_show_deadline", "pk").values_list("pk", "tournament_id"):
        applied = no_show_fire(pairing_id, now)
        if applied:
            fired.extend(applied)
            changed.append(tournament_id)
    return fired, sorted(dict.fromkeys(changed))


def tournament_clock_source(now: float) -> tuple[list[tuple[str, Applied]], list[int]]:
    """The tournaments' clocks as a clock source of the deadline poll (game.matches.services.deadlines)."""
    return tournament_clocks_fire(now=now)
