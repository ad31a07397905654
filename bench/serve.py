"""`python -m bench.serve`: the product's server (`python -m kaiza_site.serve`, same command line) with
the benchmarks' diagnostics.

The event loop's watchdog (bench.diagnostics.loopwatch, `KAIZA_LOOP_WATCHDOG_MS`) and the census of
cyclic garbage (bench.diagnostics.gccensus, `KAIZA_GC_CENSUS_S`) start inside the running reactor; each
is off unless its variable is set, so without them this is the product's server exactly. The benchmark
scripts start their servers with this; the production server never imports it.
"""

from __future__ import annotations

import asyncio
import runpy
from typing import Any

# daphne installs Twisted's asyncio reactor when its server module is imported: done first, so the
# reactor imported below is the one the server runs.
import daphne.server  # noqa: F401
from twisted.internet import reactor as _reactor

from bench.diagnostics import gccensus, loopwatch

#: Any: Twisted declares its methods on zope interfaces, which mypy misreads.
reactor: Any = _reactor


def install_diagnostics() -> None:
    """Have the diagnostics start once the reactor runs (asyncio's loop is then the running one)."""
    reactor.callWhenRunning(lambda: loopwatch.install(asyncio.get_event_loop()))
    reactor.callWhenRunning(gccensus.install)


def main() -> None:
    install_diagnostics()
    # Exactly `python -m kaiza_site.serve` with this command line.
    runpy.run_module("kaiza_site.serve", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
