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

from game.engine.rules import words
from game.engine.rules.calls import Call, judge_call, pocketed_order
from game.engine.rules.events import EventLike
from game.engine.rules.fouls import cue_fault, jumped, left_table, struck_ball
from game.engine.rules.miss import miss_of
from game.engine.rules.placement import frozen_cushion
from game.engine.rules.ruleset import Ruleset
from game.engine.rules.scoring import call_points, first_hit_value, is_plain_white, kaisa_bank_rule
from game.engine.table import TableSpec

Vec2 = tuple[float, float]


@dataclass(frozen=True)
class Verdict:
    """The judged shot. ``as_dict`` is the wire form (ARCHITECTURE section 3) plus extra keys.

    ``code`` and ``params`` say what happened in structure; ``reason`` is the words made from them by
    :mod:`game.engine.rules.words` (so another language is another catalogue there).
    """

    scored: bool
    points: int
    penalty: int
    foul: str | None
    caroms: tuple[str, ...]
    turn_passes: bool
    rules: tuple[str, ...]
    code: str
    params: Mapping[str, Any]
    replay: bool = False
    fault: str | None = None
    fulfilled: bool = False
    wins: bool = False
    plain_white: bool = False
    call: Mapping[str, Any] | None = None
    pocketed: tuple[tuple[str, str], ...] = ()
    first_hit: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def reason(self) -> str:
        return words.say(self.code, self.params)

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
            "code": self.code,
            "params": dict(self.params),
        }
        for key in sorted(self.extra):
            data[key] = self.extra[key]
        return data


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
    owners: Mapping[str, str] | None = None,
) -> Verdict:
    """Judge one shot (K-4 to K-9, K-11.3). Pure: same inputs, same verdict.

    ``owners`` (cue ball -> player name) lets the words name a white by its owner.
    """
    drops = tuple(pocketed_order(events) if pocketed is None else [(b, p) for b, p in pocketed])
    dropped = [b for b, _ in drops]
    call_dict = call.as_dict()
    base: dict[str, Any] = {"call": call_dict, "pocketed": drops}
    who = dict(owners or {})

    def verdict(code: str, params: Mapping[str, Any] | None = None, **kw: Any) -> Verdict:
        kw.setdefault("scored", False)
        kw.setdefault("points", 0)
        kw.setdefault("penalty", 0)
        kw.setdefault("foul", None)
        kw.setdefault("caroms", ())
        kw.setdefault("turn_passes", True)
        full = {"cue": cue, "call": call_dict, "owners": who, **(params or {})}
        return Verdict(**base, code=code, params=full, **kw)

    struck = struck_ball(events)
    if struck is not None and struck != cue:
        return verdict("wrong_cue_ball", {"struck": struck}, foul="wrong_cue_ball", rules=("K-6.6",))

    if from_hand and not cue_crossed_home_line:
        return verdict("replay_home_line", turn_passes=False, replay=True, rules=("K-7.2",))

    judgement = judge_call(call, cue, events)
    first_hit = judgement.first_hit
    base["first_hit"] = first_hit

    if cue in dropped or left_table(events, cue):
        penalty = ruleset.shootout_penalty if shootout else first_hit_value(first_hit, ruleset)
        foul = "cue_ball_pocketed" if cue in dropped else "cue_ball_off_table"
        cited = ("K-11.3",) if shootout else ("K-8.1", "K-8.3")
        return verdict(foul, {"first_hit": first_hit, "penalty": penalty}, foul=foul, penalty=penalty, rules=cited)

    if cue_fault(events):
        return verdict("push_or_double_hit", fault="push_or_double_hit", rules=("K-6.2",))

    cushion = judgement.first_cushion_point
    if from_hand and first_hit is not None:
        hit_pos = before.get(first_hit)
        if hit_pos is not None and table.in_home(hit_pos) and (cushion is None or cushion[0] <= table.home_line_x):
            return verdict("hand_attack", {"ball": first_hit}, foul="hand_attack", rules=("K-7.2",))

    if not judgement.fulfilled:
        params = {"failure": judgement.failure, **judgement.failure_params}
        miss = miss_of(call, cue, before, events, table) if judgement.failure == "not_dropped" else None
        if miss is not None:
            params["miss"] = miss
        return verdict("call_missed", params, rules=("K-4.2", "K-6.1"))
    if from_hand and call.cue_cushions and cushion is not None and cushion[0] <= table.home_line_x:
        # K-7.2 (the seed's rule): from hand a called cue-ball cushion must be outside the home.
        params = {"failure": "hand_cushion_in_home"}
        return verdict("call_missed", params, rules=("K-7.2", "K-4.2", "K-6.1"))

    caroms = judgement.caroms
    obj = call.ball
    if jumped(events, obj):
        return verdict("object_jumped", {"ball": obj}, fault="object_jumped", rules=("K-6.2",))
    if obj in rolled_in:
        return verdict("rolled_along_cushion", {"ball": obj}, fault="rolled_along_cushion", rules=("K-6.2",))
    obj_pos = before.get(obj)
    if call.direct and obj_pos is not None and frozen_cushion(obj_pos, table) is not None:
        return verdict("frozen_to_cushion", {"ball": obj}, fault="frozen_to_cushion", rules=("K-6.2",))
    if judgement.mode == "kiss" and call.via is not None:
        via_pos = before.get(call.via)
        if via_pos is not None and frozen_cushion(via_pos, table) is not None:
            return verdict("kiss_off_frozen_ball", {"via": call.via}, fault="kiss_off_frozen_ball", rules=("K-6.2",))

    if shootout:
        points = ruleset.shootout_pot_points
        wins = score_before + points >= ruleset.target_score
        return verdict(
            "pot",
            {"mode": judgement.mode, "caroms": [], "points": points, "notes": []},
            scored=True,
            points=points,
            fulfilled=True,
            turn_passes=False,
            wins=wins,
            rules=("K-4.2", "K-11.3"),
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
    notes: list[str] = []
    if any(left_table(events, b) for b in caroms):
        turn_passes = True
        rules.append("K-6.3")
        notes.append("carom_left_table")
    if plain:
        rules.append("K-9.2")
        if ruleset.plain_white_at_59_passes and score_before >= ruleset.plain_white_pass_score:
            turn_passes = True
            notes = ["plain_white_passes"]
    wins = not plain and score_before + points >= ruleset.target_score
    if wins:
        rules.append("K-9.1")
    elif not turn_passes:
        rules.append("K-6.1")
    others = [b for b in dropped if b not in (obj, *caroms) and b != cue]
    params = {"mode": judgement.mode, "caroms": list(caroms), "points": points, "notes": notes, "others": others}
    return verdict(
        "pot",
        params,
        scored=True,
        points=points,
        fulfilled=True,
        caroms=caroms,
        turn_passes=turn_passes,
        wins=wins,
        plain_white=plain,
        rules=tuple(rules),
    )
