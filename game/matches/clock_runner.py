"""Runs the server clocks in every daphne process: about once a second, fire the due deadlines (and
every 10 s purge the connection rows of dead processes, which starts their players' grace).

Daphne does not run the ASGI lifespan protocol, so there is no start-up hook in the application.
`kaiza_site/asgi.py` calls :func:`start_with_reactor`, which asks Twisted (daphne's reactor, already
installed when daphne imports the application) to start the loop once the reactor runs: every daphne
process polls from its start, whether or not it has sockets, and nothing else does (management
commands and tests never run the reactor; tests call :func:`fire_due` or the service directly).

Several processes polling at once is the normal case: `deadline_fire` takes each due match with
`FOR UPDATE SKIP LOCKED`, so each deadline fires once (game/matches/services/deadlines.py). Tests that drive
time call :func:`fire_due` with a `now` of their choice, or the service `deadlines_fire_due`.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any

from django.conf import settings

from game.common.clock import game_now
from game.common.db import PRESENCE, db_async
from game.matches.services.connections import match_connections_purge_stale
from game.matches.services.deadlines import deadlines_due, poll_steps
from game.realtime import fanout as realtime
from game.realtime import presence

logger = logging.getLogger(__name__)

_task: asyncio.Task[Any] | None = None

#: The other domains' work done once per poll in every process, registered in game.apps (quick
#: pairing's queue: game.lobby.seek_clock.pair_and_widen), so the runner imports no domain.
EACH_POLL: list[Callable[[], Awaitable[Any]]] = []


def each_poll_register(job: Callable[[], Awaitable[Any]]) -> None:
    """Run `job` after the deadlines of every poll from now on (once, however often registered)."""
    if job not in EACH_POLL:
        EACH_POLL.append(job)


async def fire_due(now: float | None = None) -> int:
    """One poll: fire what is due, publish the events, wake a computer player whose turn it now is."""
    now = game_now() if now is None else now
    fired = 0
    lobby = False
    # The walk of deadlines_fire_due (poll_steps: each due match, then the other domains' clock
    # sources), one database call per step: the sockets' database work (one thread by default,
    # game.common.db) runs in between, so a poll with many deadlines due never holds it for long
    # (about 25 ms per match measured on PostgreSQL on a loaded machine). Each step's events go out
    # as soon as it is fired; the lobby once, after them all.
    for step in poll_steps(await db_async(deadlines_due)(now=now), now):
        events, tournaments = await db_async(step)()
        for match_id, applied in events:
            fired += 1
            await realtime.after_commit(match_id, applied.events)
            lobby = lobby or applied.lobby_changed
        for tournament_id in tournaments:
            await realtime.tournament_publish(tournament_id)
    if lobby:
        await realtime.lobby_publish()
    return fired


#: Seconds between two purges of stale connection rows (a dead process's sockets): the purge starts
#: the disconnect grace of their players, which these clocks then fire. Here, not in the socket hub,
#: so a process with no sockets purges too.
PURGE_INTERVAL = 10.0


async def purge_stale() -> None:
    changed = await db_async(match_connections_purge_stale, priority=PRESENCE)()
    if changed:
        logger.info("purged stale connection rows of %d matches", len(changed))
        await presence.publish_changes(changed)


def poll_interval() -> float:
    """Seconds between two polls (settings.KAIZA_DEADLINE_POLL; 0 turns the server clocks off in this process)."""
    return settings.KAIZA_DEADLINE_POLL


async def poll_forever(interval: float | None = None) -> None:
    interval = poll_interval() if interval is None else interval
    purged = 0.0
    while True:
        try:
            if time.monotonic() - purged >= PURGE_INTERVAL:
                purged = time.monotonic()
                await purge_stale()
            await fire_due()
            for job in EACH_POLL:
                await job()
        except Exception:
            logger.exception("server clocks: a poll failed; trying again")
        await asyncio.sleep(interval)


def start() -> None:
    """Start polling in the running event loop (once per process)."""
    global _task
    if _task is None and poll_interval() > 0:
        _task = asyncio.get_running_loop().create_task(poll_forever(), name="kaiza-server-clocks")


def start_with_reactor() -> None:
    """Under daphne: poll from the moment its reactor runs. A process that only imports the application
    (a test, a command) never runs a reactor, so the scheduled start never happens there."""
    if poll_interval() <= 0 or "twisted.internet.reactor" not in sys.modules:
        return
    from twisted.internet import reactor

    # callLater runs inside the asyncio loop daphne's reactor drives (a start-up trigger would not).
    # Twisted declares its interface methods without `self` (zope.interface style), so mypy shifts the
    # arguments by one: the stub, not the call, is wrong.
    reactor.callLater(0, start)  # type: ignore[arg-type]
