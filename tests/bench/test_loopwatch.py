"""The event loop's watchdog (bench.diagnostics.loopwatch): off unless asked for, and when on it names what held
the loop. It found a stalled second under load (a 295 ms gen1 collection of the cyclic GC)."""

from __future__ import annotations

import asyncio
import gc
import logging
import time

import pytest

from bench.diagnostics import loopwatch


def blocking_handler_for_the_test() -> None:
    time.sleep(0.3)  # what a synchronous call in a consumer would do to every socket of the process


async def hold_the_loop(monkeypatch: pytest.MonkeyPatch) -> loopwatch.LoopWatch | None:
    monkeypatch.setenv("KAIZA_LOOP_WATCHDOG_MS", "100")
    watch = loopwatch.install(asyncio.get_running_loop())
    await asyncio.sleep(0.05)
    blocking_handler_for_the_test()
    await asyncio.sleep(0.1)  # the loop answers; the watchdog writes its report
    return watch


def test_a_held_loop_is_reported_with_how_long_and_the_blocking_stack(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="bench.diagnostics.loopwatch")
    loop = asyncio.new_event_loop()
    try:
        watch = loop.run_until_complete(hold_the_loop(monkeypatch))
    finally:
        loop.close()
    assert watch is not None
    watch.stop()
    reports = [r.getMessage() for r in caplog.records if "event loop held" in r.getMessage()]
    assert len(reports) == 1, reports
    held = float(reports[0].split("event loop held ")[1].split(" ms")[0])
    assert 250 <= held < 1000
    assert "blocking_handler_for_the_test" in reports[0]
    assert "its thread ran" in reports[0] and "waited for a CPU" in reports[0]


def test_a_long_collection_of_the_cyclic_gc_is_reported(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="bench.diagnostics.loopwatch")
    monkeypatch.setattr(loopwatch, "GC_REPORTED", 0.0)
    monkeypatch.setenv("KAIZA_LOOP_WATCHDOG_MS", "100")
    loop = asyncio.new_event_loop()
    watch = loopwatch.install(loop)
    try:
        assert watch is not None
        gc.collect(1)
    finally:
        watch.stop()
        loop.close()
    assert any("the cyclic GC's gen1 collection took" in r.getMessage() for r in caplog.records)
    assert loopwatch._on_gc not in gc.callbacks  # stopped: the hook is gone with it


@pytest.mark.parametrize("value", ["", "0", "-5", "soon"])
def test_the_watchdog_is_off_unless_a_positive_threshold_is_set(
    value: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("KAIZA_LOOP_WATCHDOG_MS", value)
    loop = asyncio.new_event_loop()
    try:
        assert loopwatch.install(loop) is None
    finally:
        loop.close()
    assert loopwatch._on_gc not in gc.callbacks
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert bool(errors) == (value != ""), errors  # a threshold that is not one says so
