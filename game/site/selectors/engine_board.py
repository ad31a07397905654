"""The analysis board: "Ask the engine" on any practice position.

A practice position (its code, :mod:`game.practice.selectors.positions`) is what every way to the board
carries: the practice table itself, a replay's "Practise this shot" link, a puzzle's "Open on the
practice table". The engine's answer is :func:`game.engine.analysis.engine_board`: the three best shots
(three different calls) with their expected points and success probability under the analysis's stated
stroke noise, and what each does played exactly. It runs in the server's engine pool (the view), never
on the event loop; this module reads the question, refuses what the engine cannot answer, keeps answers
(the same position always gives the same answer, so one kept per code serves everyone who opens the
same link) and puts the answer in the reader's words.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

from game.engine.analysis import STROKE_NOISE, AnalysisError
from game.engine.analysis.expected import position_match
from game.engine.rules import RuleError
from game.practice.selectors.free_table import TableAnswer, read_body, refused, refused_by_rules, verdict_words
from game.practice.selectors.positions import Position, read_position

#: Answers kept per process, by position code (least recently asked dropped first).
MAX_KEPT = 256
_kept: OrderedDict[str, list[dict[str, Any]]] = OrderedDict()


def read_question(body: str | bytes, language: str | None) -> Position | TableAnswer:
    """The position a board request (``{"position": code}``) asks about, or the refusal in words:
    the body's shape, the code, and a position where nobody can shoot (the white in hand)."""
    raw = read_body(body, frozenset({"position"}))
    if isinstance(raw, TableAnswer):
        return raw
    position = read_position(raw.get("position"))
    if isinstance(position, RuleError):
        return refused_by_rules(position, language)
    if position.balls.get(position.cue) is None:
        return refused("cue_ball_in_hand", "place your white in the home first, then ask the engine")
    try:
        position_match(position.snapshot())
    except AnalysisError as exc:
        return refused(exc.code, exc.message)
    return position


def kept_answer(code: str) -> list[dict[str, Any]] | None:
    """The engine's answer for a position asked before in this process, or None."""
    answer = _kept.get(code)
    if answer is not None:
        _kept.move_to_end(code)
    return answer


def keep_answer(code: str, answer: list[dict[str, Any]]) -> None:
    _kept[code] = answer
    _kept.move_to_end(code)
    while len(_kept) > MAX_KEPT:
        _kept.popitem(last=False)


def forget_answers() -> None:
    """Drop every kept answer of this process. For a test that must see the engine answer afresh in the
    pool (the same position must give the same answer searched again), and for an operator after an
    engine change in a running process: a kept answer is only as good as the engine that made it."""
    _kept.clear()


def answers_kept() -> int:
    """How many answers this process keeps (a refused question must keep none)."""
    return len(_kept)


def board_reply(position: Position, answer: Sequence[Mapping[str, Any]], language: str | None) -> dict[str, Any]:
    """The page's JSON: each shot's call and strike (to replay it), its expected points and success
    probability, and in words what it does played exactly; the noise the figures were made under."""
    shots = []
    for shot in answer:
        exact = shot.get("exact")
        shots.append(
            {
                "call": shot["call"],
                "strike": shot["strike"],
                "expected_points": shot["expected_points"],
                "success": shot["success"],
                "samples": shot["samples"],
                "points": int(exact.get("points", 0)) - int(exact.get("penalty", 0)) if exact else 0,
                "words": verdict_words(exact, language) if exact else "",
            }
        )
    return {"ok": True, "position": position.code, "shots": shots, "noise": STROKE_NOISE.as_dict()}
