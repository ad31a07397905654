"""The first-game tutorial (`/learn/`): five positions on a real table, each with one goal, and the
judging of a player's try by the same engine that judges a match (ARCHITECTURE section 3: the physics'
``simulate`` through ``Match.shoot``, the rules' verdict). Nothing is stored: a try starts from the step's
fixed position every time, so this is a read, and a try is as cheap to refuse as a socket frame.

Why it looks like this:

- A try is validated at the edge by the websocket's own parser (:func:`game.realtime.protocol.parse`): the body's
  ``place`` and ``shoot`` are the ``d`` of a ``place`` and a ``shoot`` frame, so a tutorial input is
  exactly as well-formed as a match input, and a bad one gets the same error codes. It never raises.
- The goal of each step is read off the engine's verdict (``first_hit``, ``fulfilled``, ``caroms``,
  ``replay``, ``foul``), never recomputed: the tutorial teaches the rules the matches are judged by.
- The answers are shaped like the match socket's events (``shot`` and ``placed`` with the client's
  ``state``), so the page reuses the match page's state, renderer and inputs unchanged.
- The positions were chosen with the engine: each goal is met by a range of aims at every power the
  page offers (``tests/site/test_tutorial.py`` keeps them so), so a newcomer can succeed by eye.

Words: the step texts and the outcome of a try are the page's (translated in the templates); the
verdict's own sentence comes from ``words.say`` in the reader's language when the engine has it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from game.engine.rules import Match, RuleError
from game.matches.selectors.match_state import state_of
from game.practice.selectors.free_table import (
    MAX_BODY_BYTES,
    PARTNER,
    PLAYER,
    Balls,
    TableAnswer,
    frame,
    placed_event,
    position_snapshot,
    read_body,
    refused,
    shot_event,
    verdict_words,
)
from game.realtime import protocol

__all__ = ["MAX_BODY_BYTES", "PARTNER", "PLAYER", "STEPS", "STEP_IDS", "TryAnswer", "tutorial_step", "tutorial_try"]

#: The learner always plays the one-dot white, as the breaker does (K-3.2).
CUE_BALL = "white1"

#: A goal reads the verdict and says None (met) or why not, as a code the page has words for.
Goal = Callable[[Mapping[str, Any]], str | None]


def _hit_the_red(verdict: Mapping[str, Any]) -> str | None:
    return None if verdict.get("first_hit") == "red1" else "no_hit"


def _call_made(verdict: Mapping[str, Any]) -> str | None:
    """K-4.2: the called ball dropped into the called pocket, and the shot scored (no foul)."""
    if verdict.get("foul"):
        return "foul"
    return None if verdict.get("fulfilled") and verdict.get("scored") else "call_missed"


def _carom_counted(verdict: Mapping[str, Any]) -> str | None:
    """K-5.1, K-5.3: a made call whose cue ball touched another ball after the called one."""
    missed = _call_made(verdict)
    if missed is not None:
        return missed
    return None if verdict.get("caroms") else "no_carom"


def _legal_from_hand(verdict: Mapping[str, Any]) -> str | None:
    """K-7.1, K-7.2: placed in the home, the cue ball crossed the home line and hit a ball."""
    if verdict.get("replay"):
        return "replayed"
    if verdict.get("foul"):
        return "foul"
    return None if verdict.get("first_hit") else "no_hit"


def _fouled(verdict: Mapping[str, Any]) -> str | None:
    """K-8.1: the own white dropped; the verdict says what it cost and why."""
    return None if verdict.get("foul") else "no_foul"


@dataclass(frozen=True)
class Step:
    """One lesson: the balls on the table (the learner's white None when it is in hand), the goal."""

    id: str
    balls: Balls
    goal: Goal
    #: The rules the step teaches, for the page's links (`/rules/#K-4.2`).
    rules: tuple[str, ...] = field(default=())
    #: A call the page makes for the learner (the first step teaches aiming before calling; every shot
    #: still carries a call, K-4.1).
    preset_call: Mapping[str, Any] | None = None

    @property
    def in_hand(self) -> bool:
        return self.balls.get(CUE_BALL) is None

    def snapshot(self) -> dict[str, Any]:
        """The step's hand-written position (game.practice.selectors.free_table.position_snapshot)."""
        return position_snapshot(self.balls, CUE_BALL)


STEPS: tuple[Step, ...] = (
    # 1. Aim and shoot: a red straight ahead; any stroke that reaches it first will do.
    Step(
        id="aim",
        balls={
            "white1": (0.9, 0.71),
            "red1": (1.6, 0.71),
            "kaisa": (2.13, 1.0),
            "red2": (2.13, 0.4),
            "white2": (1.42, 1.2),
        },
        goal=_hit_the_red,
        rules=("K-1.7",),
        preset_call={"ball": "red1", "pocket": "foot_right", "object_cushions": 0, "cue_cushions": 0, "via": None},
    ),
    # 2. Call a ball and a pocket: a red 12 cm from the bottom right pocket, the white 37 cm from it at a
    #    slight cut (8°), so it does not follow the red in: the pot holds within about ±0.3° of the aim at
    #    every power from 0.8 to 3 m/s.
    Step(
        id="call",
        balls={
            "white1": (2.4261, 0.3415),
            "red1": (2.72, 0.12),
            "kaisa": (1.42, 0.71),
            "red2": (0.71, 0.71),
            "white2": (1.0, 1.1),
        },
        goal=_call_made,
        rules=("K-4.1", "K-4.2"),
    ),
    # 3. Caroms: a cut of the red into the bottom middle pocket; the white runs on along the cushion into
    #    the kaisa, which sits on its path for every power (a carom on the kaisa: 3 + 6 = 9, K-5.3).
    Step(
        id="carom",
        balls={
            "white1": (1.0, 0.45),
            "red1": (1.36, 0.11),
            "kaisa": (1.6, 0.21),
            "red2": (2.13, 0.71),
            "white2": (2.4, 1.1),
        },
        goal=_carom_counted,
        rules=("K-5.1", "K-5.2", "K-5.3"),
    ),
    # 4. Ball in hand from the home: the white is off the table; place it in the home, then play a ball
    #    beyond the home line.
    Step(
        id="hand",
        balls={
            "white1": None,
            "red1": (1.9, 0.45),
            "kaisa": (1.42, 0.71),
            "red2": (2.13, 0.71),
            "white2": (2.4, 1.1),
        },
        goal=_legal_from_hand,
        rules=("K-2.2", "K-7.1", "K-7.2"),
    ),
    # 5. Fouls: the white 14 cm from the bottom right pocket; sending it in costs 2 (K-8.1).
    Step(
        id="foul",
        balls={
            "white1": (2.70, 0.14),
            "red1": (2.0, 0.5),
            "kaisa": (1.42, 0.71),
            "red2": (2.13, 0.71),
            "white2": (1.0, 1.1),
        },
        goal=_fouled,
        rules=("K-8.1", "K-8.3"),
    ),
)
STEP_IDS: tuple[str, ...] = tuple(step.id for step in STEPS)
_BY_ID: dict[str, Step] = {step.id: step for step in STEPS}


def tutorial_step(step_id: str) -> Step | None:
    return _BY_ID.get(step_id)


def tutorial_steps() -> list[dict[str, Any]]:
    """What the page needs per step: its id, its rule ids, the call made for the learner if any, and the
    client `state` of its position."""
    return [
        {
            "id": step.id,
            "rules": list(step.rules),
            "in_hand": step.in_hand,
            "call": dict(step.preset_call) if step.preset_call is not None else None,
            "state": state_of(step.snapshot()),
        }
        for step in STEPS
    ]


@dataclass(frozen=True)
class TryAnswer(TableAnswer):
    """The answer to one try: for a shot also ``passed`` and ``outcome`` (``passed`` or the goal's miss
    code)."""

    passed: bool = False
    outcome: str | None = None

    def as_dict(self) -> dict[str, Any]:
        data = super().as_dict()
        if self.error is None:
            data.update(passed=self.passed, outcome=self.outcome)
        return data


def _refused(code: str, message: str) -> TryAnswer:
    return TryAnswer(error=refused(code, message).error)


def tutorial_try(*, step_id: str, body: str | bytes, language: str | None = "en") -> TryAnswer:
    """Judge one try of step ``step_id``. ``body`` is JSON ``{"place"?: {ball, x, y}, "shoot"?: {call,
    strike}}``: a placement alone (a step with the white in hand) answers ``placed``; a shot (with the
    placement first, when the white is in hand) answers ``shot`` with the verdict and whether the goal was
    met. Refusals: ``unknown_step``, ``too_large``, ``bad_json``, ``bad_shape`` and the socket's codes,
    ``place_first``, ``not_in_hand`` and the engine's (an illegal placement or call). Never raises."""
    step = _BY_ID.get(step_id)
    if step is None:
        return _refused("unknown_step", "there is no such tutorial step")
    raw = read_body(body, frozenset({"place", "shoot"}))
    if isinstance(raw, TableAnswer):
        return TryAnswer(error=raw.error)
    place = shoot = None
    if "place" in raw:
        place = frame("place", raw["place"])
        if isinstance(place, protocol.Invalid):
            return _refused(place.code, place.message)
    if "shoot" in raw:
        shoot = frame("shoot", raw["shoot"])
        if isinstance(shoot, protocol.Invalid):
            return _refused(shoot.code, shoot.message)
    if place is not None and not step.in_hand:
        return _refused("not_in_hand", "your white is on the table in this step: no placement")
    if step.in_hand and place is None:
        return _refused("place_first", "place your white in the home first")
    try:
        return _play(step, place, shoot, language)
    except RuleError as refusal:
        return _refused(refusal.code, refusal.message)


def _play(step: Step, place: Any, shoot: Any, language: str | None) -> TryAnswer:
    engine = Match.from_snapshot(step.snapshot())
    if place is not None:
        assert isinstance(place, protocol.Place)
        if place.ball != CUE_BALL:
            return _refused("not_your_ball", "place your own white, the one-dot white")
        engine.place(PLAYER, place.ball, (place.x, place.y))
        if shoot is None:
            return TryAnswer(event=placed_event(engine, place.ball))
    assert isinstance(shoot, protocol.Shoot)
    event, verdict = shot_event(engine, shoot)
    missed = step.goal(verdict)
    return TryAnswer(
        event=event,
        passed=missed is None,
        outcome=missed or "passed",
        words=verdict_words(verdict, language),
    )
