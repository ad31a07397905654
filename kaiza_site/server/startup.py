"""The server process's start-up: one explicit call, `start()`, made by `python -m kaiza_site.serve`
once daphne has loaded the application and before its reactor runs (kaiza_site.server.daphne_server).

Importing the application (kaiza_site.asgi) does none of this: a test, a management command or another
ASGI server gets the application alone. Plain `daphne kaiza_site.asgi:application` is not the supported
way to serve Kaiza: it runs without the tuning, and the application starts the server clocks (K-11) on
its first connection with a warning that says so (`start_clocks_if_needed`).
"""

from __future__ import annotations

import logging
import sys

from django.conf import settings

from game.common.gctune import tune_garbage_collector

logger = logging.getLogger(__name__)

#: What has run in this process: "tuned" (the whole start-up) and "clocks" (the server clocks).
_done: set[str] = set()


def start() -> None:
    """Tune the process and start the server clocks, once. Call it after the application is imported
    (the GC freeze keeps what exists then out of every collection) and before the reactor runs."""
    if "tuned" in _done:
        return
    _done.add("tuned")
    tune_garbage_collector(settings.KAIZA_GC_THRESHOLD)
    if settings.KAIZA_WRITE_THROUGH:
        from kaiza_site.server import write_through

        write_through.install()
    # The GIL's switch interval (settings.KAIZA_SWITCH_INTERVAL, 1 ms): Python's 5 ms let the event loop
    # and the database thread hand the GIL back and forth in 5 ms steps under load.
    sys.setswitchinterval(settings.KAIZA_SWITCH_INTERVAL)
    start_clocks()


def start_clocks() -> None:
    """The server clocks (shot clock, disconnect grace, K-11) poll in every server process from the
    moment its reactor runs."""
    if "clocks" in _done:
        return
    _done.add("clocks")
    from game.matches.clock_runner import start_with_reactor

    start_with_reactor()


def started() -> bool:
    return "tuned" in _done


def start_clocks_if_needed() -> None:
    """Under a running Twisted reactor that `start()` never prepared (plain `daphne
    kaiza_site.asgi:application`): say so once and start the clocks, which the game needs; the tuning
    stays off. Anywhere else (a test's communicator, another server) nothing happens."""
    if _done:
        return
    reactor = sys.modules.get("twisted.internet.reactor")
    if reactor is None or not getattr(reactor, "running", False):
        return
    logger.warning(
        "Kaiza is served without its start-up: run `python -m kaiza_site.serve` (as `make run` does). "
        "The server clocks start now; the GC, write-through and switch-interval tuning stay off."
    )
    start_clocks()
