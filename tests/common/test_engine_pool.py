"""The server's one engine pool (game.common.engine_pool): a job runs in a worker process, and the
worker is started off the event loop (starting a spawn process held the loop 29 to 52 ms: the late
first ping of tests/matches/test_analysis.py::test_analysis_runs_off_the_event_loop, issue 29)."""

from __future__ import annotations

import multiprocessing.context
import os
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from game.common.engine_pool import engine_pool_close, run_in_engine_pool


@pytest.fixture
def fresh_pool(settings: Any) -> Iterator[None]:
    """A pool made for the test (one worker) and closed after it, so its first job starts a worker."""
    settings.KAIZA_BOT_WORKERS = 1
    engine_pool_close()
    yield
    engine_pool_close()


async def test_the_pool_starts_its_worker_off_the_event_loop(fresh_pool: None, monkeypatch: pytest.MonkeyPatch) -> None:
    started_in: list[int] = []
    start = multiprocessing.context.SpawnProcess.start

    def recording_start(process: Any) -> None:
        started_in.append(threading.get_ident())
        start(process)

    monkeypatch.setattr(multiprocessing.context.SpawnProcess, "start", recording_start)
    worker = await run_in_engine_pool(os.getpid, timeout=60)
    assert worker != os.getpid()  # the job ran in another process
    assert started_in, "the first job started no worker"
    assert threading.get_ident() not in started_in, "the worker process was started on the event loop's thread"
    # A second job finds the worker idle: no process started, the same worker answers.
    assert await run_in_engine_pool(os.getpid, timeout=60) == worker
    assert len(started_in) == 1
