"""Ball and pocket groups the rules read (the words for them are in :mod:`game.engine.rules.words`)."""

from __future__ import annotations

from collections.abc import Iterable

from game.engine.balls import BALL_IDS, BALL_ORDER, CUE_BALL_IDS
from game.engine.table import POCKET_IDS

COLOUR_IDS: tuple[str, ...] = ("red1", "red2", "kaisa")
RED_IDS: tuple[str, ...] = ("red1", "red2")
CORNER_POCKETS: tuple[str, ...] = ("home_right", "home_left", "foot_right", "foot_left")
MIDDLE_POCKETS: tuple[str, ...] = ("middle_right", "middle_left")
FOOT_POCKETS: tuple[str, ...] = ("foot_right", "foot_left")

__all__ = [
    "BALL_IDS",
    "BALL_ORDER",
    "COLOUR_IDS",
    "CORNER_POCKETS",
    "CUE_BALL_IDS",
    "FOOT_POCKETS",
    "MIDDLE_POCKETS",
    "POCKET_IDS",
    "RED_IDS",
    "ball_kind",
    "sorted_balls",
]


def ball_kind(ball: str) -> str:
    """ "white", "red" or "kaisa": the scoring class of a ball (K-5.2)."""
    if ball in CUE_BALL_IDS:
        return "white"
    if ball in RED_IDS:
        return "red"
    return "kaisa"


def sorted_balls(balls: Iterable[str]) -> list[str]:
    """Ball ids in the fixed ``BALL_IDS`` order (never iterate a set)."""
    return sorted(balls, key=BALL_ORDER.__getitem__)
