"""The process pool every piece of engine work of the server runs in: the computer player's search, the
engine's answers on the analysis board, a match's analysis.

Why a pool of processes, and one: a level-5 search or a board question is a second or more of pure
Python, and a thread would hold the GIL and stall every socket of the process (ARCHITECTURE.md
section 1); one pool, because each worker is a whole interpreter and a second pool per kind of work
would double them on a two-core server. The pool is created on first use (a server that never meets a
bot nor a question never starts it), with ``spawn`` so that no lock of daphne's threads is inherited, and
``KAIZA_BOT_WORKERS`` workers (settings or the environment; 1 by default). A worker runs only
``game.engine`` functions: plain data in, plain data out, no Django.
"""

from __future__ import annotations

import asyncio
import functools
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from game.common.knobs import setting_int

T = TypeVar("T")

#: How much lower the pool's processes run than the server (``os.nice``): on a busy host the event loop
#: of the daphne process is scheduled first and the search or analysis waits, not the sockets (a ping
#: during an analysis waited up to 75 ms with both cores taken, about 20 ms alone: issue 29).
WORKER_NICENESS = 5

_pool: ProcessPoolExecutor | None = None


def engine_workers() -> int:
    """How many worker processes the pool has (``KAIZA_BOT_WORKERS``, at least 1)."""
    return setting_int("KAIZA_BOT_WORKERS", 1, minimum=1)


def engine_pool() -> ProcessPoolExecutor:
    """The pool, created on first use."""
    global _pool
    if _pool is None:
        _pool = ProcessPoolExecutor(
            max_workers=engine_workers(),
            mp_context=multiprocessing.get_context("spawn"),
            initializer=os.nice,
            initargs=(WORKER_NICENESS,),
        )
    return _pool


def _reset_pool() -> None:
    global _pool
    if _pool is not None:
        _pool.shutdown(wait=False, cancel_futures=True)
    _pool = None


def engine_pool_close() -> None:
    """Stop the pool's workers (the next job starts a fresh pool, read again from
    ``KAIZA_BOT_WORKERS``): for a command that measures the pool with a number of workers of its own
    (bench_analysis: one), so it neither inherits a pool nor leaves its worker running."""
    global _pool
    if _pool is not None:
        _pool.shutdown(wait=True, cancel_futures=True)
    _pool = None


async def run_in_engine_pool(function: Callable[..., T], *args: Any, timeout: float, **kwargs: Any) -> T:
    """``function(*args, **kwargs)`` in a worker, awaited without holding the loop; a broken pool (a
    killed worker) is rebuilt and the job tried once more. ``asyncio.TimeoutError`` after ``timeout`` s.

    The job is handed to the pool from a thread, not from the loop: ``ProcessPoolExecutor.submit``
    starts a worker process when none is idle (the first job, a second worker's first, a rebuilt
    pool's), and starting a ``spawn`` process (a fork and exec, the pickled preparation data written
    to it) held the loop 29 to 52 ms on this 2-core host, the first late ping of
    test_analysis_runs_off_the_event_loop. The hop to a thread costs about a tenth of a millisecond."""
    loop = asyncio.get_running_loop()
    job = functools.partial(function, *args, **kwargs)
    for attempt in (1, 2):
        try:
            submitted = await loop.run_in_executor(None, engine_pool().submit, job)
            return await asyncio.wait_for(asyncio.wrap_future(submitted), timeout)
        except BrokenProcessPool:
            _reset_pool()
            if attempt == 2:
                raise
    raise AssertionError("unreachable")
