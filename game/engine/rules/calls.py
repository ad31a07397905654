"""The call (K-4): what the player announces, its validation, and whether the shot fulfilled it.

Validation happens before the shot (K-4.3) and never changes the match; fulfilment is judged after the
shot from the event list alone (K-4.2, K-10.1), so it can be tested with hand-built events.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from game.engine.rules import words
from game.engine.rules.errors import RuleError
from game.engine.rules.events import (
    BALL_BALL,
    BALL_CUSHION,
    BALL_POCKET,
    EventLike,
    cushion_count,
    drop_index,
    other_ball,
)
from game.engine.rules.names import BALL_IDS, POCKET_IDS

#: A call asking for more cushions than this is refused as nonsense input.
MAX_CALLED_CUSHIONS = 9

CALL_KEYS: tuple[str, ...] = ("ball", "pocket", "object_cushions", "cue_cushions", "via")


@dataclass(frozen=True)
class Call:
    """One called shot (K-4.1). Caroms are never called."""

    ball: str
    pocket: str
    object_cushions: int = 0
    cue_cushions: int = 0
    via: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "ball": self.ball,
            "pocket": self.pocket,
            "object_cushions": self.object_cushions,
            "cue_cushions": self.cue_cushions,
            "via": self.via,
        }

    @property
    def direct(self) -> bool:
        """No bank and no kiss or combination (K-6.4's "direct")."""
        return self.object_cushions == 0 and self.via is None


def _count(value: object, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError("bad_call", f"{key} must be a whole number of cushions")
    if not 0 <= value <= MAX_CALLED_CUSHIONS:
        raise RuleError("bad_call", f"{key} must be between 0 and {MAX_CALLED_CUSHIONS}")
    return value


def parse_call(data: object) -> Call:
    """A :class:`Call` (kept as it is when it holds), or its wire form turned into one, refusing wrong
    types, junk keys and unknown names."""
    if isinstance(data, Call):
        return _checked(data.ball, data.pocket, data.object_cushions, data.cue_cushions, data.via, data)
    if not isinstance(data, Mapping):
        raise RuleError("bad_call", "the call must be an object with ball and pocket")
    for key in data:
        if key not in CALL_KEYS:
            raise RuleError("bad_call", f"unknown call field {key!r}")
    counts = data.get("object_cushions", 0), data.get("cue_cushions", 0)
    return _checked(data.get("ball"), data.get("pocket"), *counts, data.get("via"))


def _checked(
    ball: object, pocket: object, object_cushions: object, cue_cushions: object, via: object, call: Call | None = None
) -> Call:
    if not isinstance(ball, str):
        raise RuleError("bad_call", "the call needs the ball to pot")
    if not isinstance(pocket, str):
        raise RuleError("bad_call", "the call needs the pocket")
    if ball not in BALL_IDS:
        raise RuleError("unknown_ball", f"there is no ball {ball!r}")
    if pocket not in POCKET_IDS:
        raise RuleError("unknown_pocket", f"there is no pocket {pocket!r}")
    if via is not None:
        if not isinstance(via, str):
            raise RuleError("bad_call", "via must be a ball id or null")
        if via not in BALL_IDS:
            raise RuleError("unknown_ball", f"there is no ball {via!r}")
        if via == ball:
            raise RuleError("bad_call", "the kiss or combination ball must differ from the called ball")
    objects, cues = _count(object_cushions, "object_cushions"), _count(cue_cushions, "cue_cushions")
    if call is not None:
        return call
    return Call(ball=ball, pocket=pocket, object_cushions=objects, cue_cushions=cues, via=via)


@dataclass(frozen=True)
class CallJudgement:
    """What the events say about a call.

    ``first_hit`` the first ball the cue ball touched; ``first_cushion_point`` where the cue ball first
    touched a cushion before that; ``caroms`` the balls the cue ball touched after the object ball (K-5.1,
    each once, in ``BALL_IDS`` order); ``mode`` "direct", "kiss" or "combination". ``failure`` is the
    code of what went wrong (None when fulfilled), ``failure_params`` what the words need.
    """

    fulfilled: bool
    failure: str | None
    first_hit: str | None
    first_cushion_point: tuple[float, float] | None
    cue_cushions_before_hit: int
    caroms: tuple[str, ...]
    mode: str
    failure_params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def failure_words(self) -> str:
        return "" if self.failure is None else words.failure_words(self.failure, self.failure_params)


def _first_contacts(events: Sequence[EventLike], cue: str) -> tuple[str | None, int, int, tuple[float, float] | None]:
    """(first ball hit, its event index, cue cushions before it, first cushion point before it)."""
    cushions: list[EventLike] = []
    for i, e in enumerate(events):
        if e.kind == BALL_BALL and cue in e.balls:
            point = cushions[0].point if cushions else None
            return other_ball(e, cue), i, cushion_count(cushions), point
        if e.kind == BALL_CUSHION and e.balls and e.balls[0] == cue:
            cushions.append(e)
    point = cushions[0].point if cushions else None
    return None, len(events), cushion_count(cushions), point


def caroms_after(events: Sequence[EventLike], cue: str, object_ball: str) -> tuple[str, ...]:
    """K-5.1: balls the cue ball touched after it first touched ``object_ball``, each once."""
    seen: list[str] = []
    hit_object = False
    for e in events:
        if e.kind != BALL_BALL or cue not in e.balls:
            continue
        other = other_ball(e, cue)
        if other == object_ball:
            hit_object = True
        elif hit_object and other not in seen:
            seen.append(other)
    return tuple(b for b in BALL_IDS if b in seen)


#: What went wrong with a call: its failure code and what the words need; None when fulfilled.
_Failure = tuple[str, dict[str, Any]] | None


def judge_call(call: Call, cue: str, events: Sequence[EventLike]) -> CallJudgement:
    """K-4.2: was the call fulfilled? Judged from the event list only: the first contact, then the
    drop, then the object ball's contacts on its way, the first failure found being the one told."""
    first_hit, _first_index, cue_cushions, cushion_point = _first_contacts(events, cue)
    mode = "direct"
    if call.via is not None:
        mode = "combination" if first_hit == call.via else "kiss"
    caroms = caroms_after(events, cue, call.ball) if call.via is None else ()
    failure = _first_contact_failure(call, mode, first_hit, cue_cushions) or _drop_failure(call, cue, events, mode)
    code, params = failure if failure is not None else (None, {})
    return CallJudgement(code is None, code, first_hit, cushion_point, cue_cushions, caroms, mode, params)


def _first_contact_failure(call: Call, mode: str, first_hit: str | None, cue_cushions: int) -> _Failure:
    """The cue ball hit nothing, hit the wrong ball first, or not after the called cushions."""
    if first_hit is None:
        return "no_ball_hit", {}
    expected_first = call.via if mode == "combination" else call.ball
    if first_hit != expected_first:
        return "wrong_first_ball", {"first": first_hit, "called": expected_first}
    if cue_cushions != call.cue_cushions:
        return "cue_cushions", {"counted": cue_cushions, "called": call.cue_cushions}
    return None


def _drop_failure(call: Call, cue: str, events: Sequence[EventLike], mode: str) -> _Failure:
    """The called ball did not drop, dropped in another pocket, after other cushions, or after contacts
    the call did not name."""
    obj = call.ball
    drop = drop_index(events, obj)
    if drop is None:
        return "not_dropped", {"ball": obj}
    pocket = events[drop].where
    if pocket != call.pocket:
        return "wrong_pocket", {"ball": obj, "pocket": str(pocket), "called": call.pocket}
    before_drop = events[:drop]
    object_cushions = cushion_count(
        [e for e in before_drop if e.kind == BALL_CUSHION and e.balls and e.balls[0] == obj]
    )
    if object_cushions != call.object_cushions:
        return "object_cushions", {"ball": obj, "counted": object_cushions, "called": call.object_cushions}
    contacts = [other_ball(e, obj) for e in before_drop if e.kind == BALL_BALL and obj in e.balls]
    return _contact_failure(call, cue, mode, contacts)


def _contact_failure(call: Call, cue: str, mode: str, contacts: list[str]) -> _Failure:
    """The balls the object ball touched before dropping, against the call's mode: none but the cue ball
    for a direct pot; the called ball among them for a kiss; the called ball first for a combination."""
    obj = call.ball
    if mode == "direct":
        strangers = [b for b in contacts if b != cue]
        if strangers:
            return "unexpected_contact", {"ball": obj, "other": strangers[0]}
        return None
    if mode == "kiss":
        if call.via not in contacts:
            return "kiss_missed", {"ball": obj, "via": call.via}
        strangers = [b for b in contacts if b not in (cue, call.via)]
        if strangers:
            return "kiss_extra_contact", {"ball": obj, "other": strangers[0]}
        return None
    if not contacts or contacts[0] != call.via:
        return "combination_failed", {"ball": obj, "via": call.via}
    strangers = [b for b in contacts if b not in (cue, call.via)]
    if strangers:
        return "combination_extra_contact", {"ball": obj, "other": strangers[0]}
    return None


def pocketed_order(events: Sequence[EventLike]) -> list[tuple[str, str]]:
    """(ball, pocket) in drop order, read from the events."""
    return [(e.balls[0], str(e.where)) for e in events if e.kind == BALL_POCKET and e.balls]
