"""Judging one shot: a pure function from the position before, the call and the event list to a frozen
verdict (pooltool's habit: the rules read ``Shot.events`` and never reach into the simulation).

:func:`judge_shot` decides what happened and in what words; :class:`~game.engine.rules.match.Match`
then applies it (scores, respotting, the turn). Geometry the event list does not carry (did the cue ball
cross the home line, did the object ball roll in along a cushion) arrives as plain facts computed by
:mod:`game.engine.rules.trace`, so hand-built event lists can be judged in unit tests.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from game.engine.rules import words
from game.engine.rules.calls import Call, CallJudgement, judge_call, pocketed_order
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

    The steps below run in the order of the rules' precedence; the first that finds a foul, a fault or
    a missed call gives the verdict, and a shot that passes them all is a pot. ``owners`` (cue ball ->
    player name) lets the words name a white by its owner.
    """
    shot = _Shot(
        call=call,
        cue=cue,
        before=before,
        events=events,
        table=table,
        ruleset=ruleset,
        score_before=score_before,
        from_hand=from_hand,
        shootout=shootout,
        cue_crossed_home_line=cue_crossed_home_line,
        rolled_in=rolled_in,
        drops=tuple(pocketed_order(events) if pocketed is None else [(b, p) for b, p in pocketed]),
        call_dict=call.as_dict(),
        owners=dict(owners or {}),
    )
    early = _wrong_cue_ball_or_home_line(shot)
    if early is not None:
        return early
    judgement = judge_call(call, cue, events)
    shot = replace(shot, first_hit=judgement.first_hit)
    for step in _STEPS:
        found = step(shot, judgement)
        if found is not None:
            return found
    return _shootout_pot(shot, judgement) if shootout else _pot(shot, judgement)


@dataclass(frozen=True)
class _Shot:
    """One shot's inputs as the steps of :func:`judge_shot` read them, and the frame of every verdict."""

    call: Call
    cue: str
    before: Mapping[str, Vec2 | None]
    events: Sequence[EventLike]
    table: TableSpec
    ruleset: Ruleset
    score_before: int
    from_hand: bool
    shootout: bool
    cue_crossed_home_line: bool
    rolled_in: Sequence[str]
    drops: tuple[tuple[str, str], ...]
    call_dict: dict[str, Any]
    owners: dict[str, str]
    #: Known once the call is judged: a verdict given before that names none.
    first_hit: str | None = None

    @property
    def dropped(self) -> list[str]:
        return [b for b, _ in self.drops]

    def verdict(self, code: str, params: Mapping[str, Any] | None = None, **kw: Any) -> Verdict:
        fields: dict[str, Any] = {
            "scored": False,
            "points": 0,
            "penalty": 0,
            "foul": None,
            "caroms": (),
            "turn_passes": True,
            **kw,
        }
        full = {"cue": self.cue, "call": self.call_dict, "owners": self.owners, **(params or {})}
        return Verdict(
            call=self.call_dict, pocketed=self.drops, first_hit=self.first_hit, code=code, params=full, **fields
        )


def _wrong_cue_ball_or_home_line(shot: _Shot) -> Verdict | None:
    """K-6.6: the other white struck; K-7.2: from hand, the cue ball never left the home (replayed)."""
    struck = struck_ball(shot.events)
    if struck is not None and struck != shot.cue:
        return shot.verdict("wrong_cue_ball", {"struck": struck}, foul="wrong_cue_ball", rules=("K-6.6",))
    if shot.from_hand and not shot.cue_crossed_home_line:
        return shot.verdict("replay_home_line", turn_passes=False, replay=True, rules=("K-7.2",))
    return None


def _cue_ball_lost(shot: _Shot, judgement: CallJudgement) -> Verdict | None:
    """K-8.1, K-8.3 (K-11.3 in a shoot-out): the cue ball pocketed or off the table."""
    pocketed = shot.cue in shot.dropped
    if not pocketed and not left_table(shot.events, shot.cue):
        return None
    first_hit = judgement.first_hit
    ruleset = shot.ruleset
    penalty = ruleset.shootout_penalty if shot.shootout else first_hit_value(first_hit, ruleset)
    foul = "cue_ball_pocketed" if pocketed else "cue_ball_off_table"
    cited = ("K-11.3",) if shot.shootout else ("K-8.1", "K-8.3")
    return shot.verdict(foul, {"first_hit": first_hit, "penalty": penalty}, foul=foul, penalty=penalty, rules=cited)


def _push_or_double_hit(shot: _Shot, judgement: CallJudgement) -> Verdict | None:
    """K-6.2: a push or a double hit of the cue ball."""
    if cue_fault(shot.events):
        return shot.verdict("push_or_double_hit", fault="push_or_double_hit", rules=("K-6.2",))
    return None


def _hand_attack(shot: _Shot, judgement: CallJudgement) -> Verdict | None:
    """K-7.2: from hand, a ball in the home struck first with no cushion outside the home before it."""
    first_hit = judgement.first_hit
    if not shot.from_hand or first_hit is None:
        return None
    hit_pos = shot.before.get(first_hit)
    cushion = judgement.first_cushion_point
    table = shot.table
    if hit_pos is not None and table.in_home(hit_pos) and (cushion is None or cushion[0] <= table.home_line_x):
        return shot.verdict("hand_attack", {"ball": first_hit}, foul="hand_attack", rules=("K-7.2",))
    return None


def _call_missed(shot: _Shot, judgement: CallJudgement) -> Verdict | None:
    """K-4.2: the call not fulfilled, with why (and, for a ball that did not drop, how it missed)."""
    if not judgement.fulfilled:
        params = {"failure": judgement.failure, **judgement.failure_params}
        if judgement.failure == "not_dropped":
            miss = miss_of(shot.call, shot.cue, shot.before, shot.events, shot.table)
            if miss is not None:
                params["miss"] = miss
        return shot.verdict("call_missed", params, rules=("K-4.2", "K-6.1"))
    cushion = judgement.first_cushion_point
    if shot.from_hand and shot.call.cue_cushions and cushion is not None and cushion[0] <= shot.table.home_line_x:
        # K-7.2 (the seed's rule): from hand a called cue-ball cushion must be outside the home.
        params = {"failure": "hand_cushion_in_home"}
        return shot.verdict("call_missed", params, rules=("K-7.2", "K-4.2", "K-6.1"))
    return None


def _object_ball_fault(shot: _Shot, judgement: CallJudgement) -> Verdict | None:
    """K-6.2: the called ball jumped, rolled in along a cushion, or was frozen to one for a direct pot;
    the kissed ball frozen to a cushion."""
    call, table = shot.call, shot.table
    obj = call.ball
    if jumped(shot.events, obj):
        return shot.verdict("object_jumped", {"ball": obj}, fault="object_jumped", rules=("K-6.2",))
    if obj in shot.rolled_in:
        return shot.verdict("rolled_along_cushion", {"ball": obj}, fault="rolled_along_cushion", rules=("K-6.2",))
    obj_pos = shot.before.get(obj)
    if call.direct and obj_pos is not None and frozen_cushion(obj_pos, table) is not None:
        return shot.verdict("frozen_to_cushion", {"ball": obj}, fault="frozen_to_cushion", rules=("K-6.2",))
    if judgement.mode == "kiss" and call.via is not None:
        via_pos = shot.before.get(call.via)
        if via_pos is not None and frozen_cushion(via_pos, table) is not None:
            return shot.verdict(
                "kiss_off_frozen_ball", {"via": call.via}, fault="kiss_off_frozen_ball", rules=("K-6.2",)
            )
    return None


#: The checks after the call is judged, in the order the rules give way to each other.
_STEPS: tuple[Callable[[_Shot, CallJudgement], Verdict | None], ...] = (
    _cue_ball_lost,
    _push_or_double_hit,
    _hand_attack,
    _call_missed,
    _object_ball_fault,
)


def _shootout_pot(shot: _Shot, judgement: CallJudgement) -> Verdict:
    """K-11.3: a pot in the shoot-out scores its fixed points and the shooter goes on."""
    points = shot.ruleset.shootout_pot_points
    return shot.verdict(
        "pot",
        {"mode": judgement.mode, "caroms": [], "points": points, "notes": []},
        scored=True,
        points=points,
        fulfilled=True,
        turn_passes=False,
        wins=shot.score_before + points >= shot.ruleset.target_score,
        rules=("K-4.2", "K-11.3"),
    )


def _pot(shot: _Shot, judgement: CallJudgement) -> Verdict:
    """K-5: the called pot scores the ball, the caroms after it and the kiss; K-6 and K-9 say whether
    the turn passes and whether it wins."""
    call, ruleset = shot.call, shot.ruleset
    obj = call.ball
    points = call_points(obj, judgement.caroms, ruleset, via=call.via, object_cushions=call.object_cushions)
    rules, caroms = _scoring_rules(shot, judgement.caroms)
    plain = is_plain_white(obj, caroms, call.via)
    turn_passes, notes = _turn_after_pot(shot, caroms, plain, rules)
    wins = not plain and shot.score_before + points >= ruleset.target_score
    if wins:
        rules.append("K-9.1")
    elif not turn_passes:
        rules.append("K-6.1")
    others = [b for b in shot.dropped if b not in (obj, *caroms) and b != shot.cue]
    params = {"mode": judgement.mode, "caroms": list(caroms), "points": points, "notes": notes, "others": others}
    return shot.verdict(
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


def _scoring_rules(shot: _Shot, caroms: tuple[str, ...]) -> tuple[list[str], tuple[str, ...]]:
    """The K-5 rules a pot scored by, and the caroms that count (none after a banked kaisa, K-5.5)."""
    call = shot.call
    rules: list[str] = ["K-4.2", "K-5.1"]
    if call.via is not None:
        rules.append("K-5.4")
    if kaisa_bank_rule(call.ball, call.via, call.object_cushions):
        rules.append("K-5.5")
        caroms = ()
    else:
        rules.append("K-5.3")
    if any(b in shot.dropped for b in caroms):
        rules.append("K-5.6")
    return rules, caroms


def _turn_after_pot(shot: _Shot, caroms: tuple[str, ...], plain: bool, rules: list[str]) -> tuple[bool, list[str]]:
    """Whether the turn passes after a pot (a carom ball off the table, K-6.3; a plain white at the
    ruleset's score, K-9.2) and the notes saying why; the rules cited are added to ``rules``."""
    turn_passes = False
    notes: list[str] = []
    if any(left_table(shot.events, b) for b in caroms):
        turn_passes = True
        rules.append("K-6.3")
        notes.append("carom_left_table")
    if plain:
        rules.append("K-9.2")
        ruleset = shot.ruleset
        if ruleset.plain_white_at_59_passes and shot.score_before >= ruleset.plain_white_pass_score:
            turn_passes = True
            notes = ["plain_white_passes"]
    return turn_passes, notes
