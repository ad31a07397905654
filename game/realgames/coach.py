"""A real moment in the coach: the five balls of a position met at a real table, laid out on a drawing of
the table, opened on the practice table and in "Ask the engine" with the player to shoot and the whites in
hand as they were.

Nothing is stored: the layout becomes the practice table's own position code
(:func:`game.practice.selectors.positions.position_code`, the one encoding of a position in a link), so the
practice page, its undo, its link and "Ask the engine" (`?ask=1`) take it as they take any other.

The layout comes in as a form (a query string: the page works without its script, which only drags the
balls into the same fields), read here by one validator, :func:`real_position_from`: each ball's place in
centimetres from the home cushion (x, along the table) and from the right cushion (y), or, for a white,
"in hand" (off the table: a pocketed cue ball waits for its owner's visit, K-7); the white of the player to
shoot; and what to open. A value that is no number, or a layout whose balls could not rest there (off the
cloth, overlapping: the engine's own check, :func:`game.practice.selectors.positions.read_position`), is
refused with words and nothing opens.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import urlencode

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from game.engine.balls import BALL_IDS, CUE_BALL_IDS
from game.engine.rules import RuleError
from game.practice.selectors.free_table import refused_by_rules
from game.practice.selectors.positions import Position, position_code, read_position, start_position

#: What the form may open: the practice table, or the practice table with the engine's answer.
OPENS = ("practice", "ask")
#: Centimetres in a metre: the form speaks centimetres (what a tape measure at the table reads).
CM = 100
#: A typed coordinate longer than this is no measurement (and never reaches float()).
MOST_CHARACTERS = 12


@dataclass(frozen=True)
class RealMoment:
    """Who was at the table when the position was met: the two players' names (the first plays the white
    with one dot), the white of the player to shoot and the whites that were in hand."""

    names: tuple[str, str] = ("", "")
    shooter: str = "white1"
    in_hand: frozenset[str] = field(default_factory=frozenset)


@dataclass(frozen=True)
class PositionRefused:
    """Why a layout opens nothing, in the reader's language."""

    words: str


def real_position_from(query: Mapping[str, str]) -> tuple[Position, str] | PositionRefused:
    """The position a form gives and what it opens (``practice`` or ``ask``), or why not. Whites only may
    be in hand; the object balls are on the table (a pocketed one is spotted again, K-7.3)."""
    shooter = query.get("shooter", "white1")
    if shooter not in CUE_BALL_IDS:
        return PositionRefused(_("Say whose turn it is: the white with one dot or the white with two dots."))
    opens = query.get("open", "practice")
    if opens not in OPENS:
        return PositionRefused(_("Open it on the practice table or ask the engine."))
    balls: dict[str, tuple[float, float] | None] = {}
    for ball in BALL_IDS:
        if ball in CUE_BALL_IDS and query.get(f"{ball}_hand") == "1":
            balls[ball] = None
            continue
        at = _place(query.get(f"{ball}_x", ""), query.get(f"{ball}_y", ""))
        if at is None:
            return PositionRefused(_("Each ball's place is two numbers of centimetres, e.g. 71 and 35.5."))
        balls[ball] = at
    read = read_position(position_code(balls, shooter))
    if isinstance(read, RuleError):
        error = refused_by_rules(read, get_language()).error or {}
        return PositionRefused(_("The balls cannot lie there: %(why)s") % {"why": error.get("message", "")})
    return read, opens


def _place(x: str, y: str) -> tuple[float, float] | None:
    """Two typed centimetres as metres (a comma taken for the decimal point), or None."""
    values = []
    for text in (x, y):
        text = text.strip().replace(",", ".")
        if not text or len(text) > MOST_CHARACTERS:
            return None
        try:
            value = float(text)
        except ValueError:
            return None
        if not math.isfinite(value):
            return None
        values.append(round(value / CM, 6))
    return values[0], values[1]


def practice_link(position: Position, opens: str) -> str:
    """The practice table's address at ``position``; with the engine's answer when ``opens`` is ``ask``."""
    query = {"p": position.code, **({"ask": "1"} if opens == "ask" else {})}
    return f"/practice/?{urlencode(query)}"


def layout_fields(moment: RealMoment, position: Position | None = None) -> list[dict[str, object]]:
    """The form's balls: each one's id, place in centimetres (the spots of a fresh rack unless a
    position is given) and whether it is in hand."""
    shown = position or start_position()
    rows: list[dict[str, object]] = []
    for ball in BALL_IDS:
        at = shown.balls.get(ball)
        home = start_position().balls.get(ball) or _home_spot(ball)
        where = at if at is not None else home
        in_hand = ball in moment.in_hand if position is None else at is None
        rows.append(
            {
                "id": ball,
                "x": f"{where[0] * CM:g}",
                "y": f"{where[1] * CM:g}",
                "in_hand": in_hand,
                "white": ball in CUE_BALL_IDS,
            }
        )
    return rows


def _home_spot(ball: str) -> tuple[float, float]:
    """Where a white off the fresh rack is drawn until it is moved: in the home, beside the other."""
    first = start_position().balls["white1"] or (0.355, 0.71)
    return (first[0], round(first[1] + (0.2 if ball == "white2" else -0.2), 6))
