"""Database work of the async code (consumers, bot runner, realtime) in a bounded pool of threads.

Channels' `database_sync_to_async` runs every call in the one thread-sensitive sync thread of the
process: under load all matches' shots, snapshots and presence writes queued behind each other in it
(the load benchmark's shot round trip was mostly that queue), while PostgreSQL sat mostly idle. Here
the calls run in `settings.KAIZA_DB_THREADS` threads, each with its own persistent connection
(CONN_MAX_AGE), so different matches' work overlaps in the database. The match row lock
(`select_for_update` in the services) still serialises the inputs of one match.

The default is one thread (settings): the pool keeps socket work apart from the HTTP views' thread,
but each more thread running Django and the engine is one more contender for the GIL against the
event loop. The load benchmark measured that at 100 matches on PostgreSQL: 8 threads made episodes of
loop stalls of 40+ ms (aim relay p99 up to 400 ms), 2 threads some, 1 thread none. With SQLite more
threads gain nothing either (one writer; the tests' in-memory database has no busy timeout).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, wait
from typing import Any, TypeVar

from channels.db import DatabaseSyncToAsync
from django.conf import settings
from django.db import connections

T = TypeVar("T")

_executor: ThreadPoolExecutor | None = None
_lock = threading.Lock()


def threads() -> int:
    return max(1, int(getattr(settings, "KAIZA_DB_THREADS", 1)))


def executor() -> ThreadPoolExecutor:
    global _executor
    with _lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(max_workers=threads(), thread_name_prefix="kaiza-db")
        return _executor


def db_async(func: Callable[..., T]) -> Callable[..., Any]:
    """`database_sync_to_async`, in the pool: stale connections are closed before and after the call
    in the thread that uses them, as Channels does."""
    return DatabaseSyncToAsync(func, thread_sensitive=False, executor=executor())


def close_connections() -> None:
    """Close the connections of every pool thread and stop the pool (tests: so PostgreSQL can drop
    the test database; the next call starts a new pool).

    One task per thread, each held at a barrier until all have started, so every thread runs one."""
    global _executor
    with _lock:
        pool, _executor = _executor, None
    if pool is None:
        return
    count = pool._max_workers
    barrier = threading.Barrier(count, timeout=10)

    def close() -> None:
        try:
            for alias in list(connections):
                connections[alias].close()
                del connections[alias]
        finally:
            barrier.wait()

    wait([pool.submit(close) for _ in range(count)])
    pool.shutdown(wait=True)


def close_request_connection(**kwargs: Any) -> None:
    """`request_finished`: close the connections of a request's own thread.

    Under ASGI Django runs each request's sync code in a thread of its own (asgiref's
    ThreadSensitiveContext), so that thread's persistent connection (CONN_MAX_AGE) is never used again;
    it stayed open until the cyclic GC freed Django's connection object, and with rarer collections the
    load benchmark's set-up ran PostgreSQL out of connections. The main thread (tests, management
    commands) and the pool's threads keep theirs, as does a connection inside a transaction."""
    thread = threading.current_thread()
    if thread is threading.main_thread() or thread.name.startswith("kaiza-db"):
        return
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            connection.close()
