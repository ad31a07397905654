"""Presence of one server process: who it holds, under which name, and its periodic heartbeat.

A process is named by its host and the port it serves (or `KAIZA_PROCESS_NAME`), so the process that
is started again in its place knows the connection rows of its dead predecessor by name: they carry
the same `process` and another `boot` (a random id of each start), and the new process removes them
before it writes its first row (`claim_process`). A daphne process that stops removes its own rows
at exit.

`heartbeat` is the hub's periodic call (`game.realtime.hub.BEAT_INTERVAL`): one database call reads the latest
stored version of every match the process has sockets in, and each of those sockets gets
`beat {v}` (behind it, a socket fills the gap from the database first; one that is not behind and was
sent a stream of frames since the last beat skips it: game.matches.consumer `hub_beat`). Every `TOUCH_EVERY` beats the
same call marks the process's sockets alive. Stale rows of any process are purged by the server
clocks' poll (`game.matches.clock_runner`), which runs in every process, sockets or not.

Connection rows: a player's is written at once (it may start or stop the disconnect grace); the
spectators' are written in batches, one database call for all that came and went meanwhile. Each row
names its viewer (`viewer_of`), and presence counts distinct viewers: a user's three tabs count once.

`presence_changed` coalesces the `presence` relay of a match: a burst of connects and disconnects
(700 sockets arriving, or churn) reads presence once per match and `PRESENCE_DELAY`, not once per
socket.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import logging
import os
import socket
import uuid
from typing import Any

from django.conf import settings

from game.common.db import DATABASE_FAILURES, PLAY, PRESENCE, db_async
from game.common.ratelimit import socket_address, socket_owner
from game.realtime import fanout as realtime
from game.realtime import hub, outbound
from game.realtime.hooks import HOOKS

logger = logging.getLogger(__name__)

#: Which start of this process: rows with our name but another boot belong to a dead predecessor.
BOOT = uuid.uuid4().hex[:16]
#: Beats between two touches of the process's rows (and purges of stale rows): 10 s at 2 s a beat.
TOUCH_EVERY = 5
#: Seconds a match's presence relay waits for more changes to come with it: at most one relay a second
#: per match and process. Who is watching need not show within a tenth of a second, and a burst of
#: sockets (a tournament round starting, a featured match's crowd arriving, a restart's reconnections)
#: then costs one read and one message to everyone per second, not one per batch of rows written
#: (lila-ws sends a room's crowd count at most once a second too).
PRESENCE_DELAY = 1.0

#: Seconds before a player's connection row that the database failed to write is tried again: the
#: last one from then on, as long as the socket is open.
ROW_RETRY = (1.0, 2.0, 4.0, 8.0)

_name: str | None = None
_claimed = False
_claim_lock: asyncio.Lock | None = None
_beats = 0
_presence_due: dict[tuple[int, str], asyncio.Task[None]] = {}
_background: set[asyncio.Task[Any]] = set()
#: Spectator rows to write, per event loop: ("add" | "remove", match id, channel name, user id, viewer).
_rows: dict[int, list[tuple[str, str, str, int | None, str | None]]] = {}
_row_writers: dict[int, asyncio.Task[None]] = {}


def process_name(scope: dict[str, Any] | None = None) -> str:
    """This process's name: `KAIZA_PROCESS_NAME`, else host:port of the server address the first socket
    came in on (daphne puts it in the scope), else host:pid (tests without a server)."""
    global _name
    if _name is None:
        configured = settings.KAIZA_PROCESS_NAME
        server = (scope or {}).get("server")
        if configured:
            _name = configured[:200]
        elif server and len(server) == 2 and server[1] is not None:
            _name = f"{socket.gethostname()}:{server[1]}"[:200]
        else:
            _name = f"{socket.gethostname()}:pid{os.getpid()}"[:200]
    return _name


async def claim_process(scope: dict[str, Any]) -> None:
    """Once per process, before its first row: remove the rows of earlier starts under our name."""
    global _claimed, _claim_lock
    if _claimed:
        return
    if _claim_lock is None:
        _claim_lock = asyncio.Lock()
    async with _claim_lock:
        if _claimed:
            return
        name = process_name(scope)
        if scope.get("server") or settings.KAIZA_PROCESS_NAME:
            # A real server process (not a test's in-process consumer): clean up after it at exit.
            atexit.register(_release_rows_at_exit)
        release = db_async(HOOKS.connections_release_process, priority=PRESENCE)
        changed = await release(process=name, boot=BOOT)
        _claimed = True
        if changed:
            logger.info("process %s: removed the rows of %d matches left by its predecessor", name, len(changed))
        await publish_changes(changed)


def _release_rows_at_exit() -> None:
    """At exit (daphne stopped: its event loop is gone), delete this start's rows in one call. The
    shutdown cancels the sockets and stops waiting as soon as the first one is done, so their own
    cleanups are cut short; the other processes' sockets hear of it from the next presence relay."""
    try:
        HOOKS.connections_release_boot(process=process_name(), boot=BOOT)
    except Exception as exc:
        logger.warning("removing this process's connection rows at exit failed (%s): they go stale", exc)


async def publish_changes(changed: list[tuple[str, dict[str, Any] | None]]) -> None:
    """Presence (coalesced) and the new clock of the matches whose rows were removed."""
    for match_id, clock in changed:
        presence_changed(match_id)
        if clock is not None:
            await realtime.relay(match_id, outbound.Clock(clock))


def viewer_of(scope: dict[str, Any]) -> str | None:
    """Who a socket is, for counting people: "user:<pk>" for an account (a guest too), else
    "ip:<address>": visitors without an account count once per address (they have nothing else that
    a client could not forge or drop: a session cookie is theirs to leave out, so counting sessions
    could be pumped again). Everyone anonymous behind one address (a club hall's NAT) then counts
    once; with an account, or as a guest, each counts. None when the server does not know the address
    (a test's in-process communicator, a unix socket): that socket counts alone."""
    per, name = socket_owner(scope)
    if per == "user":
        return name
    address = socket_address(scope)
    return None if address is None else f"ip:{address}"


async def socket_opened(
    *,
    scope: dict[str, Any],
    match_id: str,
    channel_name: str,
    user: Any,
    player: bool,
    closed: asyncio.Event,
) -> None:
    """Write the socket's connection row: a player's at once (it may stop the disconnect grace, whose
    new clock is relayed), a spectator's with the next batch (`_write_rows`).

    A player's row the database failed to write is tried again (`ROW_RETRY`) until it is written or
    the socket has closed (`closed` is set): without it the seat counted as empty while its player
    played on, and when the grace ran out the match was lost or aborted (K-9.3)."""
    await claim_process(scope)
    viewer = viewer_of(scope)
    if not player:
        user_id = user.pk if user is not None and user.is_authenticated else None
        _queue_row(("add", match_id, channel_name, user_id, viewer))
        return
    # At the inputs' priority, ahead of the snapshots: a player's row decides the disconnect grace, and
    # behind a burst of arrivals (a restart's reconnections, the load benchmark's 1,400 sockets) the
    # snapshots' lane held it for more than the grace itself: a match whose players were both online
    # was aborted as abandoned. One call per player's socket.
    tries = 0
    while True:
        # Tried again behind the inputs: during an outage each try holds a database thread for the
        # pool's whole wait (10 s), and the inputs' `unavailable` answers should not queue behind them.
        opened = db_async(HOOKS.seat_connected, priority=PRESENCE if tries else PLAY)
        try:
            clock = await opened(
                match_id=match_id,
                channel_name=channel_name,
                user=user,
                connected=True,
                process=process_name(scope),
                boot=BOOT,
                viewer=viewer,
            )
            break
        except DATABASE_FAILURES as exc:
            wait = ROW_RETRY[min(tries, len(ROW_RETRY) - 1)]
            tries += 1
            logger.warning(
                "match %s: the database failed under a player's connection row (%r): trying again in %.0f s (%d)",
                match_id,
                exc,
                wait,
                tries,
            )
            if await _closed_within(closed, wait):
                return
    presence_changed(match_id)
    if clock is not None:
        await realtime.relay(match_id, outbound.Clock(clock))


async def _closed_within(closed: asyncio.Event, seconds: float) -> bool:
    """Wait `seconds`, or less if the socket closes meanwhile: whether it closed."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(closed.wait(), seconds)
    return closed.is_set()


async def socket_closed(*, match_id: str, channel_name: str, user: Any, player: bool) -> None:
    """Delete the socket's row (a player's at once: the grace may start, and its clock is relayed)."""
    if not player:
        _queue_row(("remove", match_id, channel_name, None, None))
        return
    closed = db_async(HOOKS.seat_connected, priority=PRESENCE)
    clock = await closed(match_id=match_id, channel_name=channel_name, user=user, connected=False)
    presence_changed(match_id)
    if clock is not None:
        await realtime.relay(match_id, outbound.Clock(clock))


def _queue_row(op: tuple[str, str, str, int | None, str | None]) -> None:
    loop = asyncio.get_running_loop()
    _rows.setdefault(id(loop), []).append(op)
    writer = _row_writers.get(id(loop))
    if writer is None or writer.done():
        task = loop.create_task(_write_rows(id(loop)), name="kaiza-presence-rows")
        _row_writers[id(loop)] = task
        _background.add(task)
        task.add_done_callback(_background.discard)


async def _write_rows(loop_key: int) -> None:
    """Write the queued spectator rows in batches (one database call each) until none are left."""
    pending = _rows[loop_key]
    try:
        while pending:
            batch = pending[:]
            del pending[:]
            add = [
                (match_id, channel, user_id, viewer)
                for kind, match_id, channel, user_id, viewer in batch
                if kind == "add"
            ]
            remove = [channel for kind, _match_id, channel, _user_id, _viewer in batch if kind == "remove"]
            try:
                await db_async(HOOKS.connections_write, priority=PRESENCE)(
                    add=add, remove=remove, process=process_name(), boot=BOOT
                )
            except Exception:
                # Rows not written: a missing one is written again by nobody (the socket shows up in
                # the next presence once it reconnects), a leftover one goes stale and is purged.
                logger.exception("writing %d connection rows failed", len(batch))
            for match_id in sorted({op[1] for op in batch}):
                presence_changed(match_id)
    finally:
        if _row_writers.get(loop_key) is asyncio.current_task():
            del _row_writers[loop_key]


def presence_changed(match_id: str) -> None:
    """Relay the match's presence soon, once for all changes until then."""
    loop = asyncio.get_running_loop()
    key = (id(loop), match_id)
    if key in _presence_due:
        return
    task = loop.create_task(_relay_presence(key), name="kaiza-presence")
    _presence_due[key] = task
    _background.add(task)
    task.add_done_callback(_background.discard)


async def _relay_presence(key: tuple[int, str]) -> None:
    match_id = key[1]
    try:
        await asyncio.sleep(PRESENCE_DELAY)
    finally:
        # Changes from here on schedule the next relay: this one may read before they are written.
        _presence_due.pop(key, None)
    try:
        data = await db_async(HOOKS.match_presence, priority=PRESENCE)(match_id=match_id)
        await realtime.relay(match_id, outbound.Presence(data["players"], data["spectators"]))
    except Exception:
        logger.exception("match %s: presence relay failed", match_id)


def _match_sockets(process_hub: hub.MatchHub) -> dict[str, list[hub.HubMember]]:
    prefix = realtime.match_group("")
    return {
        group[len(prefix) :]: list(members)
        for group, members in sorted(process_hub.members.items())
        if group.startswith(prefix) and members
    }


async def heartbeat(process_hub: hub.MatchHub) -> None:
    """The process's periodic work (see the module docstring)."""
    global _beats
    _beats += 1
    sockets = _match_sockets(process_hub)
    periodic = _beats % TOUCH_EVERY == 0
    touch = [member.channel_name for members in sockets.values() for member in members] if periodic else []
    # At the inputs' priority, not PRESENCE: under a sustained load the inputs' lane need never empty,
    # and a touch waiting behind it for connection_stale_after() would make live players' rows stale:
    # the input path would read their seats as gone and start the disconnect grace. In the inputs'
    # lane it waits at most as long as the inputs queued before it. One call per process and beat.
    versions, changed = await db_async(HOOKS.heartbeat, priority=PLAY)(
        match_ids=list(sockets),
        touch=touch,
        purge=False,  # the server clocks' poll purges (deadline_runner)
    )
    for match_id, members in sockets.items():
        version = versions.get(match_id)
        if version is None:
            continue
        text = outbound.dumps(outbound.Beat(version))
        for member in members:
            try:
                await member.hub_beat(version, text)
            except Exception:
                logger.exception("match %s: beat to %s failed", match_id, member.channel_name)
        await asyncio.sleep(0)  # a match at a time: 700 sockets' beats in one go stalled the loop
    if changed:
        logger.info("purged stale connection rows of %d matches", len(changed))
        await publish_changes(changed)


hub.heartbeat = heartbeat
