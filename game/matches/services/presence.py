"""Presence: which seats have a live socket (in any process), the disconnect grace that starts when a
player is away and stops when they are back (K-9.3), and the recording of sockets opening and closing.
"""

from __future__ import annotations

import time
from typing import Any

from django.db import transaction

from game.common.clock import game_now
from game.matches.hooks import HOOKS
from game.matches.selectors.match_state import (
    AnyUser,
    bot_seats,
    clock_info,
    deadline_next,
    disconnect_grace,
    fresh_since,
    seat_of,
    seats_present,
)
from game.matches.services.base import lock
from game.models import Match, MatchConnection
from game.signals import seat_arrived


def connected_seats(match: Match, now: float) -> set[int]:
    """Seats that are there (`seats_present`: a live socket in any process, or a bot)."""
    rows = MatchConnection.objects.filter(match=match, seat__isnull=False, seen_at__gte=fresh_since())
    # The filter excludes null seats; the `is not None` tells the type checker.
    live = {seat for seat in rows.values_list("seat", flat=True) if seat is not None}
    # The common case, both seats held, costs this one query; a bot is looked for only in an empty seat.
    return seats_present(live, bot_seats(match, (seat for seat in (0, 1) if seat not in live)))


def refresh_grace(match: Match, now: float, connected: set[int] | None = None) -> bool:
    """Start the disconnect grace for an absent player, or stop it when they are back; True if changed.
    None while a tournament team match waits for its teams: the tournament's no-show clock decides
    then (`HOOKS.teams_awaited`, game.tournaments' `awaiting_teams`), the grace only once both have come.
    `connected`: the seats that are there, when the caller read them already (the input path does,
    in the statement that locks the row: game.matches.services.rows)."""
    before = (match.grace_seat, match.grace_deadline)
    if match.status != Match.Status.ACTIVE or HOOKS.teams_awaited(match=match):
        match.grace_seat, match.grace_deadline = None, None
    else:
        if connected is None:
            connected = connected_seats(match, now)
        if match.grace_seat is not None and match.grace_seat in connected:
            match.grace_seat, match.grace_deadline = None, None
        if match.grace_seat is None:
            for seat in (0, 1):
                if seat not in connected:
                    match.grace_seat, match.grace_deadline = seat, now + disconnect_grace()
                    break
    return before != (match.grace_seat, match.grace_deadline)


def match_set_connected(
    *,
    match_id: str,
    channel_name: str,
    user: AnyUser,
    connected: bool,
    process: str = "",
    boot: str = "",
    viewer: str | None = None,
) -> dict[str, Any] | None:
    """Record a socket opening or closing (`process` and `boot` name the server process holding it:
    game.matches.services.connections; `viewer` who holds it, game.realtime.presence.viewer_of). Each socket has its
    row: one of a player's tabs closing leaves his other tabs' rows, and his seat stays there.
    Returns the new `clock` data when a player's coming or going changed the disconnect grace (to
    publish), else None."""
    now = game_now()
    with transaction.atomic():
        # The row without its engine state (tens of kB of JSON to decode) to learn the seat; a player of
        # a running match then locks and reads it whole, as the grace needs it.
        match = Match.objects.defer("snapshot").filter(pk=match_id).first()
        if match is None:
            return None
        seat = seat_of(match, user)
        if seat is not None and match.status == Match.Status.ACTIVE:
            match = lock(match_id)
        if connected:
            # One INSERT ... ON CONFLICT (PostgreSQL and SQLite alike) where update_or_create took six
            # statements with its savepoints: a restart's players all register at once.
            row = MatchConnection(
                match=match,
                channel_name=channel_name,
                user=user if user is not None and user.is_authenticated else None,
                seat=seat,
                seen_at=time.time(),  # liveness: the wall clock (game.common.clock)
                process=process,
                boot=boot,
                viewer=viewer,
            )
            MatchConnection.objects.bulk_create(
                [row],
                update_conflicts=True,
                unique_fields=["channel_name"],
                update_fields=["match", "user", "seat", "seen_at", "process", "boot", "viewer"],
            )
        else:
            MatchConnection.objects.filter(channel_name=channel_name).delete()
        if seat is None or match.status != Match.Status.ACTIVE:
            return None
        if connected and match.team_size:
            seat_arrived.send(sender=Match, match=match, now=now)
        if refresh_grace(match, now):
            match.next_deadline = deadline_next(match)
            match.save(update_fields=["grace_seat", "grace_deadline", "next_deadline"])
            return clock_info(match, now=now)
    return None
