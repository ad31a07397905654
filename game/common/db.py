"""Database work of the async code (consumers, bot runner, realtime) in a bounded pool of threads.

Channels' `database_sync_to_async` runs every call in the one thread-sensitive sync thread of the
process: under load all matches' shots, snapshots and presence writes queued behind each other in it
(the load benchmark's shot round trip was mostly that queue), while PostgreSQL sat mostly idle. Here
the calls run in `settings.KAIZA_DB_THREADS` threads, each with its own connection for the call
(from the process's pool with PostgreSQL, `KAIZA_DB_POOL`), so different matches' work overlaps in the
database. The match row lock
(`select_for_update` in the services) still serialises the inputs of one match.

The default is one thread (settings): each thread running Django and the engine is one more contender
for the GIL against the event loop. Two threads paid while an input cost three round trips to the
database; with one round trip and about 2 ms of Python, one thread held the load better in 5 of 5
interleaved pairs (docs/decisions/one-database-thread.md). With more threads, calls of
different sockets may finish in another order than they were queued (a socket's own calls still run one
after the other: each awaits the last); with SQLite more threads gain nothing (one writer; the tests'
in-memory database has no busy timeout).

Calls are not all equally urgent. Under connection churn (hundreds of sockets arriving and leaving)
the connection rows and presence reads queued ahead of a player's input or `hello`, which then took
seconds. So the pool takes the most urgent call waiting first: `PLAY` (inputs, catch-up),
then `CONNECT` (the snapshot of a socket that arrives), then `PRESENCE` (connection rows, presence,
the heartbeat); calls of one priority run in the order they came.

A database that fails (its connections killed, the server unreachable for a while) is an outage, not a
bug: the call raises `DATABASE_FAILURES`, whose callers answer for it (an input is answered with
`unavailable` and sent again by its client: game.matches.consumer), the pool's connections that died with
it are dropped at once (`drop_dead_connections`: otherwise each would fail one more call later), and the
log says so in a line, not a traceback (`OutageLogFilter`).
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future, wait
from typing import Any, TypeVar

from channels.db import DatabaseSyncToAsync
from django.conf import settings
from django.db import InterfaceError, OperationalError, connections

T = TypeVar("T")

#: What a database that fails raises from Django (psycopg's and the pool's errors, wrapped): the
#: connection lost or refused, the pool's wait for one over, SQLite's lock held too long.
DATABASE_FAILURES: tuple[type[Exception], ...] = (OperationalError, InterfaceError)

#: Priorities of database calls (lower runs first).
PLAY = 0
CONNECT = 1
PRESENCE = 2


class PriorityPool:
    """Worker threads that take the most urgent waiting call first (see the module docstring)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.calls: queue.PriorityQueue[tuple[int, int, Any]] = queue.PriorityQueue()
        self.order = itertools.count()
        self.threads = [
            threading.Thread(target=self._work, name=f"kaiza-db-{index}", daemon=True) for index in range(workers)
        ]
        for thread in self.threads:
            thread.start()
        self.lanes = {priority: Lane(self, priority) for priority in (PLAY, CONNECT, PRESENCE)}

    def put(self, priority: int, call: tuple[Future[Any], Callable[..., Any], tuple[Any, ...], dict[str, Any]]) -> None:
        self.calls.put((priority, next(self.order), call))

    def _work(self) -> None:
        while True:
            _priority, _order, call = self.calls.get()
            if call is None:
                return
            future, fn, args, kwargs = call
            if not future.set_running_or_notify_cancel():
                continue
            try:
                result = fn(*args, **kwargs)
            except BaseException as exc:
                if isinstance(exc, DATABASE_FAILURES):
                    drop_dead_connections()
                future.set_exception(exc)
            else:
                future.set_result(result)

    def shutdown(self) -> None:
        for _ in self.threads:
            self.calls.put((-1, next(self.order), None))
        for thread in self.threads:
            thread.join(timeout=10)


class Lane(Executor):
    """The pool seen as an executor of one priority (what `DatabaseSyncToAsync` submits to)."""

    def __init__(self, pool: PriorityPool, priority: int) -> None:
        self.pool = pool
        self.priority = priority

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        future: Future[T] = Future()
        self.pool.put(self.priority, (future, fn, args, kwargs))
        return future


_pool: PriorityPool | None = None
_lock = threading.Lock()


def threads() -> int:
    return max(1, int(getattr(settings, "KAIZA_DB_THREADS", 1)))


def pool() -> PriorityPool:
    global _pool
    with _lock:
        if _pool is None:
            _pool = PriorityPool(threads())
        return _pool


def executor(priority: int = PLAY) -> Executor:
    return pool().lanes[priority]


def db_async(func: Callable[..., T], *, priority: int = PLAY) -> Callable[..., Any]:
    """`database_sync_to_async`, in the pool at `priority`: stale connections are closed before and
    after the call in the thread that uses them, as Channels does."""
    return DatabaseSyncToAsync(func, thread_sensitive=False, executor=executor(priority))


def close_connections() -> None:
    """Close the connections of every pool thread and stop the pool (tests: so PostgreSQL can drop
    the test database; the next call starts a new pool).

    One call per thread, each held at a barrier until all have started, so every thread runs one."""
    global _pool
    with _lock:
        closing, _pool = _pool, None
    if closing is None:
        return
    barrier = threading.Barrier(closing.workers, timeout=10)

    def close() -> None:
        try:
            for alias in list(connections):
                connections[alias].close()
                del connections[alias]
        finally:
            barrier.wait()

    lane = closing.lanes[PLAY]
    wait([lane.submit(close) for _ in range(closing.workers)])
    closing.shutdown()


def close_request_connection(**kwargs: Any) -> None:
    """`request_finished`: close the connections of a request's own thread.

    Under ASGI Django runs each request's sync code in a thread of its own (asgiref's
    ThreadSensitiveContext), so that thread's connection is never used again. With the connection pool
    (settings.KAIZA_DB_POOL) closing hands it back to the pool; without it (persistent connections,
    CONN_MAX_AGE) it stayed open until the cyclic GC freed Django's connection object, and with rarer
    collections the load benchmark's set-up ran PostgreSQL out of connections. The main thread (tests,
    management commands) and the database threads keep theirs, as does a connection inside a
    transaction."""
    thread = threading.current_thread()
    if thread is threading.main_thread() or thread.name.startswith("kaiza-db"):
        return
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            connection.close()


def drop_dead_connections() -> None:
    """After a database failure: test the idle connections of the process's pool (PostgreSQL with
    ``KAIZA_DB_POOL``) and drop those that died, so the next calls get live ones. Connections killed
    together (a restart, ``pg_terminate_backend``) otherwise each failed one call, one after another, an
    input among them each time. Nothing to do without a pool; a check that fails itself changes nothing."""
    for connection in connections.all(initialized_only=True):
        pool = getattr(connection, "pool", None)
        if pool is not None:
            with contextlib.suppress(Exception):
                pool.check()


class OutageLogFilter(logging.Filter):
    """A log record whose exception is a database failure (`DATABASE_FAILURES`) says it in one line,
    without the traceback: an outage is the operator's news (the database went away), not a bug to
    read a stack for, and every caller that meets it (a clock poll, a presence write, a page) logs it.
    Any other exception keeps its traceback. Installed on the server's log handler (settings.LOGGING)."""

    def filter(self, record: logging.LogRecord) -> bool:
        failure = record.exc_info[1] if record.exc_info else None
        if isinstance(failure, DATABASE_FAILURES):
            summary = " ".join(str(failure).split())
            record.msg = f"{record.getMessage()} (the database failed: {type(failure).__name__}: {summary})"
            record.args = None
            record.exc_info = None
            record.exc_text = None
        return True
