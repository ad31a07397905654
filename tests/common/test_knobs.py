"""The one reader of the numeric knobs set in the settings or the environment (game.common.knobs): the
settings first, then the environment, the default for a missing or unreadable value, the minimum kept;
the engine pool's worker count and the computer player's pace read through it."""

from __future__ import annotations

from typing import Any

import pytest

from game.common.engine_pool import engine_workers
from game.common.knobs import setting_int, setting_number
from game.matches.analysis_runner import analysis_samples
from game.matches.bot_runner import bot_pace

NAME = "KAIZA_TEST_KNOB"


def test_the_settings_win_over_the_environment(settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(NAME, "7")
    assert setting_number(NAME, 1.0) == 7.0
    setattr(settings, NAME, 3)
    assert setting_number(NAME, 1.0) == 3.0
    assert setting_int(NAME, 1) == 3


@pytest.mark.parametrize(("raw", "expected"), [(None, 4), ("2.0", 2), ("2.5", 2), ("lots", 4), ("nan", 4), ("", 4)])
def test_the_environment_is_read_and_a_bad_value_gives_the_default(
    monkeypatch: pytest.MonkeyPatch, raw: str | None, expected: int
) -> None:
    if raw is None:
        monkeypatch.delenv(NAME, raising=False)
    else:
        monkeypatch.setenv(NAME, raw)
    assert setting_int(NAME, 4) == expected


def test_the_minimum_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(NAME, "-3")
    assert setting_int(NAME, 4, minimum=1) == 1
    assert setting_number(NAME, 4.0, minimum=0.0) == 0.0
    assert setting_number(NAME, 4.0) == -3.0


def test_the_pool_the_bot_and_the_analysis_read_through_it(settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """One reader: the same "2.0" in the environment is 2 workers, a pace of 2 and 2 samples."""
    for name in ("KAIZA_BOT_WORKERS", "KAIZA_BOT_PACE", "KAIZA_ANALYSIS_SAMPLES"):
        if hasattr(settings, name):
            delattr(settings, name)
        monkeypatch.setenv(name, "2.0")
    assert (engine_workers(), bot_pace(), analysis_samples()) == (2, 2.0, 2)
    monkeypatch.setenv("KAIZA_BOT_WORKERS", "0")
    monkeypatch.setenv("KAIZA_BOT_PACE", "-1")
    assert (engine_workers(), bot_pace()) == (1, 0.0)
