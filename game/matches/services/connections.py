"""Connection rows (MatchConnection) that cannot outlive their socket: the heartbeat, the purge of
stale rows, and a restarted process removing its dead predecessor's rows.

A socket's own row is written and removed by `matches.match_set_connected` (its connect and the one
cleanup every closing socket runs). What is here covers the sockets whose cleanup never ran: the
process was killed. Their rows stop counting once stale (`CONNECTION_STALE_AFTER`), are deleted by
whichever process's heartbeat sees them first (`match_connections_purge_stale`), and a process that
starts under the same name (host and port) deletes them at once (`match_connections_release_process`).
Removing a player's row starts the disconnect grace (K-9.3) exactly as a disconnect does, so a player
whose process died can be claimed against.
"""

from __future__ import annotations

import time
from typing import Any

from django.db import transaction
from django.db.models import QuerySet

from game.matches.selectors.match_state import clock_info, connection_stale_after, deadline_next
from game.matches.services.presence import refresh_grace
from game.models import Match, MatchConnection
from game.realtime.hooks import Changed


def _drop(rows: QuerySet[MatchConnection], now: float) -> Changed:
    """Delete `rows`; refresh the disconnect grace of the active matches that lost a player's row."""
    touched = sorted(set(rows.values_list("match_id", "seat")), key=lambda pair: (pair[0], pair[1] is None))
    if not touched:
        return []
    rows.delete()
    changed: dict[str, dict[str, Any] | None] = {match_id: None for match_id, _ in touched}
    for match_id in sorted({match_id for match_id, seat in touched if seat is not None}):
        with transaction.atomic():
            match = Match.objects.select_for_update().filter(pk=match_id, status=Match.Status.ACTIVE).first()
            if match is not None and refresh_grace(match, now):
                match.next_deadline = deadline_next(match)  # the server's clocks fire the grace
                match.save(update_fields=["grace_seat", "grace_deadline", "next_deadline"])
                changed[match_id] = clock_info(match, now=now)
    return sorted(changed.items())


def match_connections_purge_stale(*, now: float | None = None) -> Changed:
    """Delete the rows no heartbeat has touched for `CONNECTION_STALE_AFTER` seconds (their process
    died without its sockets' cleanup). Any process may run it; running it twice is harmless."""
    now = time.time() if now is None else now
    return _drop(MatchConnection.objects.filter(seen_at__lt=now - connection_stale_after()), now)


def match_connections_release_process(*, process: str, boot: str) -> Changed:
    """A process named `process` has just started as `boot`: the rows of earlier starts under that
    name belong to sockets that died with them."""
    now = time.time()
    return _drop(MatchConnection.objects.filter(process=process).exclude(boot=boot), now)


def match_connections_release_boot(*, process: str, boot: str) -> Changed:
    """The process `process` started as `boot` is exiting: its rows go with it (the server's shutdown
    cancels the sockets and may not wait for each one's cleanup)."""
    return _drop(MatchConnection.objects.filter(process=process, boot=boot), time.time())


def match_heartbeat(*, match_ids: list[str], touch: list[str], purge: bool) -> tuple[dict[str, int], Changed]:
    """One call per process heartbeat: the latest stored version of each of the process's matches (one
    query), the rows of the sockets in `touch` marked alive (one UPDATE), and, when `purge`, the
    stale rows of any process removed."""
    now = time.time()
    versions = dict(Match.objects.filter(pk__in=match_ids).values_list("id", "version")) if match_ids else {}
    if touch:
        MatchConnection.objects.filter(channel_name__in=touch).update(seen_at=now)
    changed = match_connections_purge_stale(now=now) if purge else []
    return versions, changed


def match_connections_write(
    *, add: list[tuple[str, str, int | None, str | None]], remove: list[str], process: str, boot: str
) -> None:
    """Spectators' rows in bulk, one transaction for a batch: `add` (match id, channel name, user id,
    viewer: game.realtime.presence.viewer_of) first, then `remove` (channel names): a socket that came and went
    within the batch leaves nothing. Spectators do not touch the disconnect grace, so their comings and
    goings need no match lock; under churn (hundreds of sockets a second) one call per socket queued
    for seconds."""
    now = time.time()
    with transaction.atomic():
        if add:
            MatchConnection.objects.bulk_create(
                [
                    MatchConnection(
                        match_id=match_id,
                        channel_name=channel_name,
                        user_id=user_id,
                        seat=None,
                        seen_at=now,
                        process=process,
                        boot=boot,
                        viewer=viewer,
                    )
                    for match_id, channel_name, user_id, viewer in add
                ],
                ignore_conflicts=True,
            )
        if remove:
            MatchConnection.objects.filter(channel_name__in=remove).delete()
