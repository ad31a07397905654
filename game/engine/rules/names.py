"""Ball kinds and the words the verdicts use, so every reason reads the same way."""

from __future__ import annotations

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
    "ball_list",
    "ball_name",
    "pocket_name",
    "sorted_balls",
]


def ball_kind(ball: str) -> str:
    """ "white", "red" or "kaisa": the scoring class of a ball (K-5.2)."""
    if ball in CUE_BALL_IDS:
        return "white"
    if ball in RED_IDS:
        return "red"
    return "kaisa"


#: The whites in words (the client shows the same dots).
WHITE_NAMES: dict[str, str] = {"white1": "white •", "white2": "white ••"}


def ball_name(ball: str, *, capital: bool = False) -> str:
    """Words for a ball: "red", "the kaisa", "white ••"; reds are not told apart, whites are, by their
    dots as players see them on the cloth (white1 has one dot, white2 two: K-3.2), never by their ids."""
    kind = ball_kind(ball)
    if kind == "red":
        text = "red"
    elif kind == "kaisa":
        text = "the kaisa"
    else:
        text = WHITE_NAMES.get(ball, ball)
    if capital:
        text = text[0].upper() + text[1:]
    return text


def ball_list(balls: list[str] | tuple[str, ...]) -> str:
    """ "the kaisa and red", "white ••, red and red"."""
    names = [ball_name(b) for b in balls]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def pocket_name(pocket: str) -> str:
    return pocket.replace("_", " ")


def sorted_balls(balls: object) -> list[str]:
    """Ball ids in the fixed ``BALL_IDS`` order (never iterate a set)."""
    return sorted(balls, key=BALL_ORDER.__getitem__)  # type: ignore[call-overload]
