"""What each test costs in CPU, its servers and browser included: a pytest plugin for finding where
`make test` spends its time (docs/testing.md). The suite is CPU-bound on a 2-core machine, so a test's
CPU-seconds, not its wall time (which grows with whatever runs beside it), say what it costs the run.

    PYTEST_ADDOPTS="-p bench.pytest_cpu" KAIZA_TEST_CPU_DIR=/tmp/cpu make test

Each pytest process (every xdist worker) moves itself into a cgroup-v1 `cpuacct` group of its own, so
the daphne servers, Django shells and Chromium it starts are counted with it; after each test it
appends "node id, CPU-s of the whole group, wall-s, CPU-s of the pytest process itself" to
`<dir>/<worker>-<pid>.tsv` (tab-separated). Without a writable cpuacct hierarchy (no root, cgroup v2)
it says so once and counts nothing.
"""

from __future__ import annotations

import os
import resource
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

import pytest

CPUACCT = Path("/sys/fs/cgroup/cpuacct")


class _Counter:
    def __init__(self, group: Path, out: TextIO) -> None:
        self.group = group
        self.out = out

    def usage(self) -> float:
        return int((self.group / "cpuacct.usage").read_text()) / 1e9


_COUNTER: _Counter | None = None


def _own_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime + used.ru_stime


def pytest_configure(config: pytest.Config) -> None:
    global _COUNTER
    directory = os.environ.get("KAIZA_TEST_CPU_DIR")
    if not directory or (os.environ.get("PYTEST_XDIST_WORKER") is None and config.getoption("numprocesses", None)):
        return  # not asked, or the xdist controller (its workers count)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    group = CPUACCT / f"kaiza-test-{worker}-{os.getpid()}"
    try:
        group.mkdir(exist_ok=True)
        (group / "cgroup.procs").write_text(str(os.getpid()))
    except OSError as error:
        print(f"bench.pytest_cpu: no cpuacct group at {CPUACCT} ({error}): nothing counted")
        return
    Path(directory).mkdir(parents=True, exist_ok=True)
    out = open(Path(directory) / f"{worker}-{os.getpid()}.tsv", "a", encoding="utf-8")
    _COUNTER = _Counter(group, out)


def pytest_unconfigure(config: pytest.Config) -> None:
    """Back to the parent group; the group itself goes once its last process has (else it stays, empty
    and harmless, until the machine restarts)."""
    global _COUNTER
    counter, _COUNTER = _COUNTER, None
    if counter is None:
        return
    counter.out.close()
    try:
        (CPUACCT / "cgroup.procs").write_text(str(os.getpid()))
        counter.group.rmdir()
    except OSError:
        pass


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    counter = _COUNTER
    if counter is None:
        yield
        return
    group, wall, own = counter.usage(), time.monotonic(), _own_cpu()
    yield
    row = (item.nodeid, counter.usage() - group, time.monotonic() - wall, _own_cpu() - own)
    counter.out.write("{}\t{:.2f}\t{:.2f}\t{:.2f}\n".format(*row))
    counter.out.flush()
