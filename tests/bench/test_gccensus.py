"""The census of cyclic garbage (bench.diagnostics.gccensus): off unless asked for; when on, it says which code
made the cycles its collections found (it found a refused call's error kept with its traceback:
docs/decisions/no-cyclic-garbage.md)."""

from __future__ import annotations

import gc
import logging
import time

import pytest

from bench.diagnostics import gccensus


def make_a_cycle_with_a_frame() -> None:
    """What the engine did: an error kept in a local with its traceback, which holds this frame."""
    kept: dict[str, Exception] = {}
    try:
        raise ValueError("refused")
    except ValueError as exc:
        kept["why"] = exc


def test_off_unless_asked_and_a_bad_period_is_refused_in_words(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.delenv("KAIZA_GC_CENSUS_S", raising=False)
    assert gccensus.install() is False
    monkeypatch.setenv("KAIZA_GC_CENSUS_S", "often")
    assert gccensus.install() is False
    assert "is not a positive number of seconds" in caplog.text
    assert not gc.get_debug() & gc.DEBUG_SAVEALL


def test_the_report_names_the_code_that_made_the_cycles(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="bench.diagnostics.gccensus")
    monkeypatch.setenv("KAIZA_GC_CENSUS_S", "0.05")
    gc.collect()
    assert gccensus.install() is True
    try:
        for _ in range(3):
            make_a_cycle_with_a_frame()
        gc.collect()
        deadline = time.monotonic() + 5
        while "make_a_cycle_with_a_frame" not in caplog.text and time.monotonic() < deadline:
            time.sleep(0.02)
    finally:
        gccensus.stop()
    report = next(r.getMessage() for r in caplog.records if "make_a_cycle_with_a_frame" in r.getMessage())
    assert "objects of cyclic garbage" in report
    line = next(line for line in report.splitlines() if "make_a_cycle_with_a_frame" in line)
    assert line.split() == ["3", "frame", "tests/bench/test_gccensus.py:make_a_cycle_with_a_frame"]
    assert not gc.get_debug() & gc.DEBUG_SAVEALL and not gc.garbage
