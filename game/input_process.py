"""Players' inputs in a worker process of their own (opt-in: `KAIZA_INPUT_PROCESS=1`, PostgreSQL only).

Why (docs/performance-load.md, round 6): an input costs its thread about 6 ms of Python (the rules, the
physics, the rows), and in the daphne process that thread shares the GIL with the event loop. Every
frame the loop sends releases the GIL for the `send` system call; while the database thread is busy
the loop gets it back only when the switch interval forces it, once per frame, so a burst of inputs
(every match's lag at once) holds up every aim relay by hundreds of ms though neither thread uses a
whole core. In a process of its own an input takes nothing from the loop's GIL.

The call is the same service call the thread pool would run (`game.consumers.PLAY_ROUTES`): a
module-level function with picklable arguments, returning `Applied` or raising `MatchError` (which
pickles: game.services.matches.base). The worker is one process, started with `spawn` (never fork a
process with a running reactor), set up as a Django process of the same settings, with its own
database connection. The match row lock orders inputs across processes as it does across threads.

Off by default and never with SQLite: a test's database (pytest-django renames it, or keeps it in
memory) is not what a fresh process would open.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

from django.conf import settings

T = TypeVar("T")

_executor: ProcessPoolExecutor | None = None
_lock = threading.Lock()


def enabled() -> bool:
    """Whether inputs run in the worker process (the environment's `KAIZA_INPUT_PROCESS`, PostgreSQL)."""
    if os.environ.get("KAIZA_INPUT_PROCESS", "0") != "1":
        return False
    return settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"


def _start_worker() -> None:
    """The worker's set-up: Django, with the settings module of the parent (inherited environment)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kaiza_site.settings")
    import django

    django.setup()


def _run(call: Callable[[], T]) -> T:
    """One call in the worker, with Django's connection care around it (as Channels does in threads)."""
    from django.db import close_old_connections

    close_old_connections()
    try:
        return call()
    finally:
        close_old_connections()


def executor() -> ProcessPoolExecutor:
    global _executor
    with _lock:
        if _executor is None:
            _executor = ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn"), initializer=_start_worker
            )
        return _executor


async def run_input(call: Callable[[], T]) -> T:
    """Run a player's input (a no-argument, picklable callable) in the worker process."""
    return await asyncio.get_running_loop().run_in_executor(executor(), _run, call)


def shutdown() -> None:
    global _executor
    with _lock:
        closing, _executor = _executor, None
    if closing is not None:
        closing.shutdown(wait=True, cancel_futures=True)
