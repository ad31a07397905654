"""Judging one shot: a pure function from the position before, the call and the event list to a frozen
verdict (pooltool's habit: the rules read ``Shot.events`` and never reach into the simulation).

:func:`judge_shot` decides what happened and in what words; :class:`~game.engine.rules.match.Match`
then applies it (scores, respotting, the turn). Geometry the event list does not carry (did the cue ball
cross the home line, did the object ball roll in along a cushion) arrives as plain facts computed by
:mod:`game.engine.rules.trace`, so hand-built event lists can be judged in unit tests.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from game.engine.rules.calls import Call, judge_call, pocketed_order
from game.engine.rules.events import EventLike
from game.engine.rules.fouls import cue_fault, jumped, left_table, struck_ball
from game.engine.rules.names import (
    ball_list,
    ball_name,
    pocket_name,
)
from game.engine.rules.placement import frozen_cushion
from game.engine.rules.ruleset import Ruleset
from game.engine.rules.scoring import call_points, first_hit_value, is_plain_white, kaisa_bank_rule
from game.engine.table import TableSpec

Vec2 = tuple[float, float]


@dataclass(frozen=True)
class Verdict:
    """The judged shot. ``as_dict`` is the wire form (ARCHITECTURE section 3) plus extra keys."""

    scored: bool
    points: int
    penalty: int
    foul: str | None
    caroms: tuple[str, ...]
    turn_passes: bool
    reason: str
    rules: tuple[str, ...]
    replay: bool = False
    fault: str | None = None
    fulfilled: bool = False
    wins: bool = False
    plain_white: bool = False
    call: Mapping[str, Any] | None = None
    pocketed: tuple[tuple[str, str], ...] = ()
    first_hit: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "scored": self.scored,
            "points": self.points,
            "penalty": self.penalty,
            "foul": self.foul,
            "caroms": list(self.caroms),
            "turn_passes": self.turn_passes,
            "reason": self.reason,
            "rules": list(self.rules),
            "replay": self.replay,
            "fault": self.fault,
            "fulfilled": self.fulfilled,
            "wins": self.wins,
            "plain_white": self.plain_white,
            "call": dict(self.call) if self.call is not None else None,
            "pocketed": [[b, p] for b, p in self.pocketed],
            "first_hit": self.first_hit,
        }
        for key in sorted(self.extra):
            data[key] = self.extra[key]
        return data


def _points_text(points: int) -> str:
    return f"{points} point" + ("" if abs(points) == 1 else "s")


def describe_pot(call: Call, caroms: Sequence[str], mode: str) -> str:
    """ "Red into foot left off 1 cushion with a carom on the kaisa"."""
    text = f"{ball_name(call.ball, capital=True)} into {pocket_name(call.pocket)}"
    if call.cue_cushions:
        text += f" after {call.cue_cushions} cue-ball cushion(s)"
    if call.object_cushions:
        text += f" off {call.object_cushions} cushion" + ("" if call.object_cushions == 1 else "s")
    if call.via is not None:
        text += (
            f" by a combination from {ball_name(call.via)}"
            if mode == "combination"
            else f" by a kiss off {ball_name(call.via)}"
        )
    if caroms:
        text += f" with a carom on {ball_list(list(caroms))}"
    return text


def judge_shot(
    *,
    call: Call,
    cue: str,
    before: Mapping[str, Vec2 | None],
    events: Sequence[EventLike],
    table: TableSpec,
    ruleset: Ruleset,
    score_before: int = 0,
    from_hand: bool = False,
    shootout: bool = False,
    cue_crossed_home_line: bool = True,
    rolled_in: Sequence[str] = (),
    pocketed: Sequence[tuple[str, str]] | None = None,
) -> Verdict:
    """Judge one shot (K-4 to K-9, K-11.3). Pure: same inputs, same verdict."""
    drops = tuple(pocketed_order(events) if pocketed is None else [(b, p) for b, p in pocketed])
    dropped = [b for b, _ in drops]
    call_dict = call.as_dict()
    base: dict[str, Any] = {"call": call_dict, "pocketed": drops}

    def verdict(**kw: Any) -> Verdict:
        kw.setdefault("scored", False)
        kw.setdefault("points", 0)
        kw.setdefault("penalty", 0)
        kw.setdefault("foul", None)
        kw.setdefault("caroms", ())
        kw.setdefault("turn_passes", True)
        return Verdict(**base, **kw)

    struck = struck_ball(events)
    if struck is not None and struck != cue:
        return verdict(
            foul="wrong_cue_ball",
            rules=("K-6.6",),
            reason=f"Played {ball_name(struck)}, not the own cue ball {ball_name(cue)}: no points, the visit ends",
        )

    if from_hand and not cue_crossed_home_line:
        return verdict(
            turn_passes=False,
            replay=True,
            rules=("K-7.2",),
            reason="The cue ball did not cross the home line: the shot is replayed",
        )

    judgement = judge_call(call, cue, events)
    first_hit = judgement.first_hit
    base["first_hit"] = first_hit

    if cue in dropped or left_table(events, cue):
        penalty = ruleset.shootout_penalty if shootout else first_hit_value(first_hit, ruleset)
        how = "pocketed" if cue in dropped else "off the table"
        rules = ("K-11.3",) if shootout else ("K-8.1", "K-8.3")
        hit = "after hitting no ball" if first_hit is None else f"after hitting {ball_name(first_hit)} first"
        return verdict(
            foul="cue_ball_pocketed" if cue in dropped else "cue_ball_off_table",
            penalty=penalty,
            rules=rules,
            reason=f"Own cue ball {ball_name(cue)} {how} {hit}: minus {_points_text(penalty)}",
        )

    if cue_fault(events):
        return verdict(
            fault="push_or_double_hit", rules=("K-6.2",), reason="A push or double hit: no points, the visit ends"
        )

    if from_hand and first_hit is not None:
        hit_pos = before.get(first_hit)
        cushion = judgement.first_cushion_point
        if hit_pos is not None and table.in_home(hit_pos) and (cushion is None or cushion[0] <= table.home_line_x):
            return verdict(
                foul="hand_attack",
                rules=("K-7.2",),
                reason=(
                    f"From hand the cue ball hit {ball_name(first_hit)} in the home without "
                    "first touching a cushion beyond the home line: no points, the visit ends"
                ),
            )

    if not judgement.fulfilled:
        return verdict(rules=("K-4.2", "K-6.1"), reason=f"Call not made: {judgement.failure}; the visit ends")

    caroms = judgement.caroms
    obj = call.ball
    if jumped(events, obj):
        return verdict(
            fault="object_jumped",
            rules=("K-6.2",),
            reason=f"{ball_name(obj, capital=True)} left the cloth: no points, the visit ends",
        )
    if obj in rolled_in:
        return verdict(
            fault="rolled_along_cushion",
            rules=("K-6.2",),
            reason=f"{ball_name(obj, capital=True)} rolled in along a cushion: no points, the visit ends",
        )
    obj_pos = before.get(obj)
    if call.direct and obj_pos is not None and frozen_cushion(obj_pos, table) is not None:
        return verdict(
            fault="frozen_to_cushion",
            rules=("K-6.2",),
            reason=f"{ball_name(obj, capital=True)} was frozen to a cushion: a simple pot of it "
            "scores nothing, the visit ends",
        )
    if judgement.mode == "kiss" and call.via is not None:
        via_pos = before.get(call.via)
        if via_pos is not None and frozen_cushion(via_pos, table) is not None:
            return verdict(
                fault="kiss_off_frozen_ball",
                rules=("K-6.2",),
                reason=f"A kiss off {ball_name(call.via)} frozen to a cushion scores nothing, the visit ends",
            )

    pot = describe_pot(call, caroms, judgement.mode)
    if shootout:
        points = ruleset.shootout_pot_points
        wins = score_before + points >= ruleset.target_score
        return verdict(
            scored=True,
            points=points,
            fulfilled=True,
            turn_passes=False,
            wins=wins,
            rules=("K-4.2", "K-11.3"),
            reason=f"{pot}: {_points_text(points)}",
        )

    points = call_points(obj, caroms, ruleset, via=call.via, object_cushions=call.object_cushions)
    rules: list[str] = ["K-4.2", "K-5.1"]
    if call.via is not None:
        rules.append("K-5.4")
    if kaisa_bank_rule(obj, call.via, call.object_cushions):
        rules.append("K-5.5")
        caroms = ()
    else:
        rules.append("K-5.3")
    if any(b in dropped for b in caroms):
        rules.append("K-5.6")
    plain = is_plain_white(obj, caroms, call.via)
    turn_passes = False
    tail = ""
    if any(left_table(events, b) for b in caroms):
        turn_passes = True
        rules.append("K-6.3")
        tail = "; a carom ball left the table, the visit ends"
    if plain:
        rules.append("K-9.2")
        if ruleset.plain_white_at_59_passes and score_before >= ruleset.plain_white_pass_score:
            turn_passes = True
            tail = "; a plain white never wins, the turn passes"
    wins = not plain and score_before + points >= ruleset.target_score
    if wins:
        rules.append("K-9.1")
    elif not turn_passes:
        rules.append("K-6.1")
    others = [b for b in dropped if b not in (obj, *caroms) and b != cue]
    if others:
        tail += f"; {ball_list(others)} dropped too and score nothing"
    return verdict(
        scored=True,
        points=points,
        fulfilled=True,
        caroms=caroms,
        turn_passes=turn_passes,
        wins=wins,
        plain_white=plain,
        rules=tuple(rules),
        reason=f"{pot}: {_points_text(points)}{tail}",
    )
