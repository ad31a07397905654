"""A table off the record: a hand-written position played through the real engine (ARCHITECTURE section 3:
``Match.from_snapshot``, the physics' ``simulate`` through ``Match.shoot``, the rules' verdict), nothing
stored. The one home of what the tutorial (`/learn/`, :mod:`game.site.selectors.tutorial`) and the practice
table (`/practice/`, :mod:`game.practice.selectors.positions`) share, so both judge a shot exactly as a match does.

Why it looks like this:

- Inputs are validated at the edge by the websocket's own parser (:func:`game.realtime.protocol.parse`): a body's
  ``place`` and ``shoot`` are the ``d`` of a ``place`` and a ``shoot`` frame, so an input here is exactly
  as well-formed as a match input and a bad one gets the same error codes. Nothing here raises.
- The answers are shaped like the match socket's events (``shot`` and ``placed`` with the client's
  ``state``), so the pages reuse the match page's state, renderer and inputs unchanged.
- The verdict's sentence comes from ``words.say`` in the reader's language; the seats have no owners, so
  the whites are "the cue ball" and "the opponent's cue ball".
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from game.engine.rules import Match, RuleError
from game.engine.rules import words as engine_words
from game.matches.selectors.match_state import state_of
from game.realtime import outbound, protocol

#: The engine's names for the two seats. Players never read them (see the module docstring).
PLAYER = "player"
PARTNER = "partner"
#: A body is one place and one shoot frame's data (and a position) at most: the socket's frame limit.
MAX_BODY_BYTES = protocol.MAX_FRAME_BYTES

Balls = Mapping[str, tuple[float, float] | None]


@dataclass(frozen=True)
class TableAnswer:
    """The answer to one input. ``error`` (a code and a message) when it was refused: then nothing was
    played. Otherwise ``event`` is a match-socket event (``t`` and ``d``) to draw; ``extra`` carries what
    the page adds (the tutorial's outcome, the practice's position code)."""

    error: dict[str, str] | None = None
    event: dict[str, Any] | None = None
    words: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        if self.error is not None:
            return {"ok": False, "error": self.error}
        return {"ok": True, "event": self.event, "words": self.words, **self.extra}


def refused(code: str, message: str) -> TableAnswer:
    return TableAnswer(error={"code": code, "message": message})


def refused_by_rules(error: RuleError, language: str | None) -> TableAnswer:
    """An engine refusal, said in ``language`` when the engine has its words (malformed input stays in
    English, as the engine answers developers)."""
    message = error.message
    if error.key is not None:
        try:
            message = engine_words.refusal(error.key, error.params or {}, (language or "en").split("-")[0])
        except (KeyError, TypeError, ValueError):
            message = error.message
    return refused(error.code, message)


def read_body(body: str | bytes, keys: frozenset[str]) -> dict[str, Any] | TableAnswer:
    """The JSON object of a request body whose keys are among ``keys``, or the refusal: ``too_large``,
    ``bad_json`` (NaN and Infinity included: JSON has no such numbers), ``bad_shape``."""
    if len(body) > MAX_BODY_BYTES:
        return refused("too_large", f"a request is limited to {MAX_BODY_BYTES} bytes")
    try:
        raw = json.loads(body, parse_constant=lambda name: None)
    except (ValueError, RecursionError, UnicodeDecodeError):
        return refused("bad_json", "the body is not valid JSON")
    if not isinstance(raw, dict) or not raw or set(raw) - keys:
        return refused("bad_shape", f"the body is a JSON object with {', '.join(sorted(keys))}")
    return raw


def frame(kind: str, data: object) -> protocol.ClientMessage | protocol.Invalid:
    """The socket's parser on a ``kind`` frame carrying ``data``: the same edge as a match input."""
    return protocol.parse_fields(kind, data)


def position_snapshot(balls: Balls, cue_ball: str = "white1") -> dict[str, Any]:
    """A hand-written position (ARCHITECTURE section 3: phase, players, turn and balls suffice): the
    ``PLAYER`` shoots with ``cue_ball``; a white that is None is in hand."""
    other = "white2" if cue_ball == "white1" else "white1"
    players = {
        cue_ball: {"name": PLAYER, "cue_ball": cue_ball, "score": 0},
        other: {"name": PARTNER, "cue_ball": other, "score": 0},
    }
    return {
        "phase": "play",
        "players": [players["white1"], players["white2"]],
        "turn": 0 if cue_ball == "white1" else 1,
        "balls": {ball: (list(at) if at is not None else None) for ball, at in balls.items()},
    }


def verdict_words(verdict: Mapping[str, Any], language: str | None) -> str:
    """The verdict's sentence in ``language`` when the engine speaks it, else in English; the whites are
    named "the cue ball" and "the opponent's cue ball" (the seats here have no owners)."""
    code = verdict.get("code")
    params = dict(verdict.get("params") or {})
    params["owners"] = {}
    base = (language or "en").split("-")[0]
    catalogue = base if base in engine_words.CATALOGUES else "en"
    try:
        return engine_words.say(str(code), params, catalogue)
    except (KeyError, TypeError, ValueError):
        return str(verdict.get("reason") or "")


def placed_event(engine: Match, ball: str) -> dict[str, Any]:
    """The ``placed`` event after ``engine`` placed ``ball`` (by hand)."""
    snapshot = engine.snapshot()
    x, y = snapshot["balls"][ball]
    return outbound.page_event("placed", {"player": PLAYER, "ball": ball, "x": x, "y": y, "state": state_of(snapshot)})


def shot_event(engine: Match, shoot: protocol.Shoot) -> tuple[dict[str, Any], dict[str, Any]]:
    """Play ``shoot`` for ``PLAYER`` on ``engine`` (RuleError if the engine refuses it): the ``shot``
    event to draw and the verdict."""
    outcome = engine.shoot(PLAYER, call=shoot.call, strike=shoot.strike)
    verdict = dict(outcome.verdict)
    data = {
        "kind": "shot",
        "player": PLAYER,
        "call": shoot.call.as_dict(),
        "strike": shoot.strike.as_dict(),
        "verdict": verdict,
        "segments": outcome.shot.segments,
        "state": state_of(engine.snapshot()),
    }
    return outbound.page_event("shot", data), verdict
