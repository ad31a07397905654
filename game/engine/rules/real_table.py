"""Scoring a game played on a real table: the scorer taps what happened, the rules say what it scored.

Nothing here prices a shot. A tap (:class:`RealShot`: "the red potted in the bottom middle pocket with
a carom on the kaisa", "own cue ball pocketed after hitting the red first", "the object ball rolled in
along a cushion") is written as the event list the physics would have reported for it
(:class:`~game.engine.rules.events.HandEvent`, K-10.1) and judged by the same
:func:`~game.engine.rules.verdict.judge_shot` an online shot is: the points of K-5.3 to K-5.6, the K-8
fouls, the K-6.2 nothing-scores cases, the plain white of K-9.2 and the win at the target (K-9.1) all
come from the engine's own rules, and so do the words (the verdict's ``code`` and ``params`` said by
:mod:`game.engine.rules.words` in every language). The K-6.4 middle-pocket kaisa is refused with the
engine's own refusal, as an online call is (K-4.3).

What this module adds is the bookkeeping of a real game, which the physics does not see: the scores
(handicap start scores included), whose turn it is, the current run, visits, the highest run, fouls,
and the tournament clock's ending (K-11: extra visits, the shoot-out, the sudden death). The state keeps
every tap, so :func:`undo` is the same taps but the last replayed from the start: one path, no inverse
arithmetic to get wrong.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from game.engine.rules import words
from game.engine.rules.calls import Call
from game.engine.rules.errors import RuleError, refuse
from game.engine.rules.events import (
    BALL_AIRBORNE,
    BALL_BALL,
    BALL_CUSHION,
    BALL_OFF_TABLE,
    BALL_POCKET,
    PUSH,
    STRIKE,
    HandEvent,
    hand_events,
)
from game.engine.rules.fouls import FAULTS
from game.engine.rules.names import CORNER_POCKETS, MIDDLE_POCKETS, POCKET_IDS, RED_IDS
from game.engine.rules.ruleset import Ruleset
from game.engine.rules.verdict import Verdict, judge_shot
from game.engine.table import CUSHION_IDS, TableSpec, kaisa_table

#: What a scorer can tap, in the players' terms.
KINDS: tuple[str, ...] = ("pot", "miss", "foul", "nothing", "touch", "time_up", "shootout_starter")
#: The balls as players name them: the opponent's white, a red, the kaisa.
BALL_KINDS: tuple[str, ...] = ("white", "red", "kaisa")
#: How the called ball went in: straight, off cushions (a bank), by a kiss off a ball, driven by a ball.
WAYS: tuple[str, ...] = ("direct", "bank", "kiss", "combination")
#: The fouls a scorer taps (K-8.1, K-6.6); the touch of K-8.2 is its own kind.
REAL_FOULS: tuple[str, ...] = ("cue_ball_pocketed", "cue_ball_off_table", "wrong_cue_ball")
#: The K-6.2 nothing-scores cases a scorer taps (the engine's own fault codes).
REAL_FAULTS: tuple[str, ...] = tuple(FAULTS)
#: The most cushions a scorer may tap for a bank (the engine's call allows 9; nobody banks more).
MAX_BANK_CUSHIONS = 5
#: Seat 0 breaks and plays white1 for the whole game, seat 1 white2 (K-3.2).
CUES: tuple[str, str] = ("white1", "white2")

PLAY, EXTRA_VISITS, SHOOTOUT_LAG, SHOOTOUT, FINISHED = "play", "extra_visits", "shootout_lag", "shootout", "finished"


@dataclass(frozen=True)
class RealShot:
    """One tap of the scorer. ``ball``/``via``/``caroms``/``first_hit`` are ball kinds (``"white"`` is
    always the opponent's), ``pocket`` a pocket id (K-2.7)."""

    kind: str
    ball: str | None = None
    pocket: str | None = None
    way: str = "direct"
    cushions: int = 0
    via: str | None = None
    caroms: tuple[str, ...] = ()
    carom_off_table: bool = False
    foul: str | None = None
    first_hit: str | None = None
    fault: str | None = None
    starter: int | None = None

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        for key in ("ball", "pocket", "via", "foul", "first_hit", "fault", "starter"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        if self.way != "direct":
            out["way"] = self.way
        if self.cushions:
            out["cushions"] = self.cushions
        if self.caroms:
            out["caroms"] = list(self.caroms)
        if self.carom_off_table:
            out["carom_off_table"] = True
        return out


def _bad(message: str) -> RuleError:
    return RuleError("bad_tap", message)


def _kind_of(value: object, key: str, *, optional: bool = True) -> str | None:
    if value is None and optional:
        return None
    if value not in BALL_KINDS:
        raise _bad(f"{key} must be one of {', '.join(BALL_KINDS)}")
    return str(value)


def _caroms_of(value: object) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list | tuple) or len(value) > 4:
        raise _bad("caroms must be a list of at most four balls")
    caroms = tuple(str(_kind_of(v, "a carom ball", optional=False)) for v in value)
    if caroms.count("white") > 1 or caroms.count("kaisa") > 1 or caroms.count("red") > 2:
        raise _bad("each ball counts once per shot (K-5.1)")
    return caroms


def _way_of(data: Mapping[str, Any]) -> tuple[str, int, str | None]:
    """How the called ball went in: the way, the cushions of a bank, the kiss or combination ball."""
    way = data.get("way", "direct")
    if way not in WAYS:
        raise _bad(f"way must be one of {', '.join(WAYS)}")
    cushions = data.get("cushions", 1 if way == "bank" else 0)
    if isinstance(cushions, bool) or not isinstance(cushions, int) or not 0 <= cushions <= MAX_BANK_CUSHIONS:
        raise _bad(f"cushions must be a whole number from 0 to {MAX_BANK_CUSHIONS}")
    if way == "bank" and cushions == 0:
        raise _bad("a bank needs at least one cushion")
    via = _kind_of(data.get("via"), "via") if way in ("kiss", "combination") else None
    if way in ("kiss", "combination") and via is None:
        raise _bad("a kiss or combination names its ball")
    return str(way), int(cushions) if way != "direct" else 0, via


def _pot_of(data: Mapping[str, Any]) -> RealShot:
    ball = _kind_of(data.get("ball"), "ball", optional=False)
    pocket = data.get("pocket")
    if pocket not in POCKET_IDS:
        raise _bad("pocket must be a pocket id")
    way, cushions, via = _way_of(data)
    caroms = _caroms_of(data.get("caroms"))
    if via is not None and caroms:
        raise _bad("one carom set or one combination per shot, never both (K-5.4)")
    _fits([str(ball), *([via] if via else []), *caroms])
    return RealShot(
        "pot",
        ball=ball,
        pocket=str(pocket),
        way=way,
        cushions=cushions,
        via=via,
        caroms=caroms,
        carom_off_table=bool(data.get("carom_off_table")) and bool(caroms),
    )


def _fits(balls: Sequence[str]) -> None:
    """Two reds, one kaisa and one opponent's white are on the table: a tap naming more is nonsense."""
    if balls.count("red") > len(RED_IDS) or balls.count("kaisa") > 1 or balls.count("white") > 1:
        raise _bad("a ball is named twice")


def parse_real_shot(data: object) -> RealShot:
    """The one validator of a scorer's tap: a :class:`RealShot` or ``RuleError("bad_tap")``."""
    if not isinstance(data, Mapping):
        raise _bad("a tap is an object")
    kind = data.get("kind")
    if kind not in KINDS:
        raise _bad(f"kind must be one of {', '.join(KINDS)}")
    if kind == "pot":
        return _pot_of(data)
    if kind == "foul":
        foul = data.get("foul")
        if foul not in REAL_FOULS:
            raise _bad(f"foul must be one of {', '.join(REAL_FOULS)}")
        return RealShot("foul", foul=str(foul), first_hit=_kind_of(data.get("first_hit"), "first_hit"))
    if kind == "nothing":
        fault = data.get("fault")
        if fault not in REAL_FAULTS:
            raise _bad(f"fault must be one of {', '.join(REAL_FAULTS)}")
        return RealShot("nothing", fault=str(fault), ball=_kind_of(data.get("ball", "red"), "ball"))
    if kind == "miss":
        return RealShot("miss", ball=_kind_of(data.get("ball"), "ball", optional=False))
    if kind == "shootout_starter":
        starter = data.get("starter")
        if starter not in (0, 1) or isinstance(starter, bool):
            raise _bad("starter must be 0 or 1")
        return RealShot("shootout_starter", starter=int(starter))
    return RealShot(str(kind))


@dataclass(frozen=True)
class RealPlayer:
    name: str
    score: int = 0
    handicap: int = 0
    run: int = 0
    visits: int = 0
    highest_run: int = 0
    fouls: int = 0

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class RealState:
    """A real game: seat 0 breaks (white1). ``shots`` holds every tap applied, in order, with its verdict:
    the game is those taps replayed from :func:`new_real_state`."""

    players: tuple[RealPlayer, RealPlayer]
    turn: int = 0
    phase: str = PLAY
    middle_kaisa: bool = False
    time_up: bool = False
    extra_visits: tuple[int, ...] = ()
    shootout_visits: tuple[int, int] = (0, 0)
    sudden_death: bool = False
    answer_by: int | None = None
    potted: bool = False
    winner: int | None = None
    finish: str | None = None
    shots: tuple[Mapping[str, Any], ...] = field(default=())

    @property
    def finished(self) -> bool:
        return self.phase == FINISHED

    def as_dict(self) -> dict[str, Any]:
        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        out["players"] = [p.as_dict() for p in self.players]
        out["extra_visits"] = list(self.extra_visits)
        out["shootout_visits"] = list(self.shootout_visits)
        out["shots"] = [dict(s) for s in self.shots]
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RealState:
        players = tuple(RealPlayer(**p) for p in data["players"])
        so = data.get("shootout_visits") or (0, 0)
        values = {k: data[k] for k in (f.name for f in dataclasses.fields(cls)) if k in data}
        values.update(
            players=(players[0], players[1]),
            extra_visits=tuple(data.get("extra_visits") or ()),
            shootout_visits=(int(so[0]), int(so[1])),
            shots=tuple(data.get("shots") or ()),
        )
        return cls(**values)

    def owners(self) -> dict[str, str]:
        return {CUES[0]: self.players[0].name, CUES[1]: self.players[1].name}

    def with_player(self, index: int, **changes: Any) -> RealState:
        players = list(self.players)
        players[index] = dataclasses.replace(players[index], **changes)
        return dataclasses.replace(self, players=(players[0], players[1]))


@dataclass(frozen=True)
class RealVerdict:
    """What one tap did: ``points`` scored and ``penalty`` lost (both from the rules), the rule ids, and
    the words' ``code`` and ``params`` (:func:`verdict_words` says them in every language)."""

    player: int
    points: int
    penalty: int
    rules: tuple[str, ...]
    code: str
    params: Mapping[str, Any]
    turn_passes: bool
    wins: bool = False
    foul: str | None = None
    fault: str | None = None
    words_kind: str = "verdict"

    def as_dict(self) -> dict[str, Any]:
        out = dataclasses.asdict(self)
        out["rules"] = list(self.rules)
        out["params"] = dict(self.params)
        return out


def verdict_words(verdict: Mapping[str, Any], language: str = "en") -> str:
    """A stored verdict's sentence in ``language`` (the engine's catalogues: en, fi, ru)."""
    code, params = str(verdict["code"]), verdict.get("params") or {}
    if verdict.get("words_kind") == "text":
        return words.text(code, params, language)
    return words.say(code, params, language)


def new_real_state(names: tuple[str, str], handicaps: tuple[int, int] = (0, 0)) -> RealState:
    """A game about to start: each player at his handicap start score, seat 0 to break."""
    a = RealPlayer(names[0], score=handicaps[0], handicap=handicaps[0], visits=1)
    b = RealPlayer(names[1], score=handicaps[1], handicap=handicaps[1])
    return RealState(players=(a, b))


# ------------------------------------------------------------------------------ the shot as events
_TABLE: TableSpec = kaisa_table()


def _ids(state: RealState, shot: RealShot) -> dict[str, str]:
    """Ball kinds to ball ids, in the order the tap names them (the called ball takes the first red)."""
    cue = CUES[state.turn]
    opponent = CUES[1 - state.turn]
    reds = list(RED_IDS)
    out: dict[str, str] = {}

    def take(kind: str) -> str:
        if kind == "white":
            return opponent
        if kind == "kaisa":
            return "kaisa"
        return reds.pop(0)

    for key, kind in (("ball", shot.ball), ("via", shot.via), ("first_hit", shot.first_hit)):
        if kind is not None:
            out[key] = take(kind) if key != "first_hit" else ({"white": opponent, "kaisa": "kaisa"}.get(kind, "red1"))
    for i, kind in enumerate(shot.caroms):
        out[f"carom{i}"] = take(kind)
    out["cue"] = cue
    return out


def _pot_events(shot: RealShot, ids: Mapping[str, str]) -> list[HandEvent]:
    cue, obj = ids["cue"], ids["ball"]
    events = [HandEvent(0, STRIKE, (cue,))]
    if shot.way == "combination":
        events += [HandEvent(0, BALL_BALL, (cue, ids["via"])), HandEvent(0, BALL_BALL, (ids["via"], obj))]
    else:
        events.append(HandEvent(0, BALL_BALL, (cue, obj)))
        if shot.way == "kiss":
            events.append(HandEvent(0, BALL_BALL, (obj, ids["via"])))
    for i in range(shot.cushions):
        events.append(HandEvent(0, BALL_CUSHION, (obj,), CUSHION_IDS[i % len(CUSHION_IDS)]))
    events.append(HandEvent(0, BALL_POCKET, (obj,), shot.pocket))
    caroms = [ids[f"carom{i}"] for i in range(len(shot.caroms))]
    events += [HandEvent(0, BALL_BALL, (cue, b)) for b in caroms]
    if shot.carom_off_table and caroms:
        events.append(HandEvent(0, BALL_OFF_TABLE, (caroms[-1],)))
    return events


def _call_of(shot: RealShot, ids: Mapping[str, str]) -> Call:
    return Call(ball=ids["ball"], pocket=str(shot.pocket), object_cushions=shot.cushions, via=ids.get("via"))


def _judged(state: RealState, shot: RealShot, ruleset: Ruleset) -> Verdict:
    """The tap judged by :func:`judge_shot` on the events it stands for."""
    ids = _ids(state, shot)
    cue = ids["cue"]
    shootout = state.phase == SHOOTOUT
    before: dict[str, tuple[float, float] | None] = {}
    rolled_in: list[str] = []
    if shot.kind == "pot":
        call, events = _call_of(shot, ids), _pot_events(shot, ids)
    elif shot.kind == "miss":
        # The called ball touched and stayed up: K-4.2's "did not drop".
        call = Call(ball=ids["ball"], pocket=CORNER_POCKETS[0])
        events = [HandEvent(0, STRIKE, (cue,)), HandEvent(0, BALL_BALL, (cue, ids["ball"]))]
    elif shot.kind == "foul":
        call, events = _foul_events(shot, ids)
    else:
        call, events, before, rolled_in = _fault_events(shot, ids)
    return judge_shot(
        call=call,
        cue=cue,
        before=before,
        events=hand_events(*events),
        table=_TABLE,
        ruleset=ruleset,
        score_before=state.players[state.turn].score,
        shootout=shootout,
        rolled_in=rolled_in,
        owners=state.owners(),
    )


def _foul_events(shot: RealShot, ids: Mapping[str, str]) -> tuple[Call, list[HandEvent]]:
    cue = ids["cue"]
    first = ids.get("first_hit")
    call = Call(ball=first or "kaisa", pocket=CORNER_POCKETS[0])
    if shot.foul == "wrong_cue_ball":
        other = CUES[1 - CUES.index(cue)]
        return call, [HandEvent(0, STRIKE, (other,))]
    events = [HandEvent(0, STRIKE, (cue,))]
    if first is not None:
        events.append(HandEvent(0, BALL_BALL, (cue, first)))
    if shot.foul == "cue_ball_pocketed":
        events.append(HandEvent(0, BALL_POCKET, (cue,), CORNER_POCKETS[0]))
    else:
        events.append(HandEvent(0, BALL_OFF_TABLE, (cue,)))
    return call, events


def _fault_events(
    shot: RealShot, ids: Mapping[str, str]
) -> tuple[Call, list[HandEvent], dict[str, tuple[float, float] | None], list[str]]:
    """The K-6.2 cases: the called ball potted, but in a way that scores nothing."""
    cue, obj = ids["cue"], ids["ball"]
    pocket = CORNER_POCKETS[2]
    fault = shot.fault
    # A ball frozen to the near long cushion, a quarter of the way up the table: far from every jaw.
    frozen = (_TABLE.length * 0.375, _TABLE.ball_radius)
    before: dict[str, tuple[float, float] | None] = {}
    events = [HandEvent(0, STRIKE, (cue,)), HandEvent(0, BALL_BALL, (cue, obj))]
    via: str | None = None
    if fault == "kiss_off_frozen_ball":
        via = "red2" if obj != "red2" else "red1"
        before[via] = frozen
        events.append(HandEvent(0, BALL_BALL, (obj, via)))
    elif fault == "frozen_to_cushion":
        before[obj] = frozen
    elif fault == "object_jumped":
        events.append(HandEvent(0, BALL_AIRBORNE, (obj,)))
    elif fault == "push_or_double_hit":
        events.append(HandEvent(0, PUSH, (cue,)))
    events.append(HandEvent(0, BALL_POCKET, (obj,), pocket))
    rolled_in = [obj] if fault == "rolled_along_cushion" else []
    return Call(ball=obj, pocket=pocket, via=via), events, before, rolled_in


# ------------------------------------------------------------------------------ applying a tap
def apply_real_shot(state: RealState, shot: RealShot, ruleset: Ruleset) -> tuple[RealState, RealVerdict]:
    """One tap: the new state and what the rules made of it. Refused taps raise ``RuleError`` and change
    nothing (the game is over; K-6.4's second direct middle-pocket kaisa in a visit; a shot in the
    shoot-out before its starter is known)."""
    if state.phase == FINISHED:
        raise refuse("game_over")
    if shot.kind == "time_up":
        new, verdict = _time_up(state, ruleset)
    elif shot.kind == "shootout_starter":
        new, verdict = _shootout_starter(state, shot)
    elif state.phase == SHOOTOUT_LAG:
        raise refuse("wrong_phase", "no_shots_now", phase="shootout")
    elif shot.kind == "touch":
        new, verdict = _touch(state, ruleset)
    else:
        new, verdict = _shot(state, shot, ruleset)
    entry = {"tap": shot.as_dict(), "verdict": verdict.as_dict()}
    return dataclasses.replace(new, shots=(*state.shots, entry)), verdict


def _shot(state: RealState, shot: RealShot, ruleset: Ruleset) -> tuple[RealState, RealVerdict]:
    direct_middle_kaisa = shot.kind == "pot" and shot.ball == "kaisa" and shot.way == "direct"
    direct_middle_kaisa = direct_middle_kaisa and shot.pocket in MIDDLE_POCKETS
    if direct_middle_kaisa and state.middle_kaisa:
        raise refuse("middle_kaisa_twice")
    if state.phase == SHOOTOUT and shot.kind == "pot" and (shot.ball != "kaisa" or shot.pocket not in CORNER_POCKETS):
        raise refuse("shootout_call")
    judged = _judged(state, shot, ruleset)
    index = state.turn
    me = state.players[index]
    net = judged.points - judged.penalty
    run = me.run + net
    state = state.with_player(
        index,
        score=me.score + net,
        run=run,
        highest_run=max(me.highest_run, run),
        fouls=me.fouls + (1 if judged.foul else 0),
    )
    state = dataclasses.replace(state, middle_kaisa=bool(judged.scored and direct_middle_kaisa))
    verdict = RealVerdict(
        player=index,
        points=judged.points,
        penalty=judged.penalty,
        rules=judged.rules,
        code=judged.code,
        params=judged.params,
        turn_passes=judged.turn_passes,
        wins=judged.wins,
        foul=judged.foul,
        fault=judged.fault,
    )
    if judged.wins:
        return _finish(state, index, "target_reached"), verdict
    if state.phase == SHOOTOUT:
        return _after_shootout_shot(state, ruleset, judged), verdict
    if judged.turn_passes:
        state = _end_visit(state, ruleset)
    return state, verdict


def _touch(state: RealState, ruleset: Ruleset) -> tuple[RealState, RealVerdict]:
    """K-8.2: the visit ends, minus the ``touch_penalty`` flag; in the sudden death a penalty loses."""
    index = state.turn
    me = state.players[index]
    penalty = ruleset.touch_penalty
    state = state.with_player(index, score=me.score - penalty, run=me.run - penalty, fouls=me.fouls + 1)
    params = {"player": me.name, "penalty": penalty}
    verdict = RealVerdict(index, 0, penalty, ("K-8.2",), "touch_foul", params, True, foul="touched_ball")
    if state.phase == SHOOTOUT:
        return _after_shootout_shot(state, ruleset, None, penalty=penalty), verdict
    return _end_visit(state, ruleset), verdict


def _next_visit(state: RealState) -> RealState:
    other = 1 - state.turn
    state = state.with_player(state.turn, run=0)
    state = state.with_player(other, run=0, visits=state.players[other].visits + 1)
    return dataclasses.replace(state, turn=other, middle_kaisa=False, potted=False)


def _end_visit(state: RealState, ruleset: Ruleset) -> RealState:
    """K-6.1; K-11.1: after time is up, the round ends with white2's visit, then the extra visits, each
    player's in turn, white2's owner taking the last; then the shoot-out."""
    ending = state.turn
    state = _next_visit(state)
    if state.phase == PLAY and state.time_up and ending == 1:
        extra = (0, 1) * ruleset.extra_visits_each
        if extra:
            return dataclasses.replace(state, phase=EXTRA_VISITS, extra_visits=extra)
        return _start_shootout(state)
    if state.phase == EXTRA_VISITS:
        left = state.extra_visits[1:]
        state = dataclasses.replace(state, extra_visits=left)
        if not left:
            return _start_shootout(state)
    return state


def _start_shootout(state: RealState) -> RealState:
    """K-11.2: a new lag decides who starts (the scorer taps its winner)."""
    return dataclasses.replace(state, phase=SHOOTOUT_LAG, middle_kaisa=False)


def _time_up(state: RealState, ruleset: Ruleset) -> tuple[RealState, RealVerdict]:
    """K-11.1: the event's limit reached (the server's clock taps this). Noted once."""
    params = {"extra_each": ruleset.extra_visits_each}
    verdict = RealVerdict(state.turn, 0, 0, ("K-11.1",), "time_up", params, False, words_kind="text")
    if state.time_up or state.phase != PLAY:
        raise refuse("wrong_phase", "no_shots_now", phase=state.phase)
    return dataclasses.replace(state, time_up=True), verdict


def _shootout_starter(state: RealState, shot: RealShot) -> tuple[RealState, RealVerdict]:
    if state.phase != SHOOTOUT_LAG or shot.starter is None:
        raise refuse("wrong_phase", "no_shots_now", phase=state.phase)
    starter = shot.starter
    state = state.with_player(0, run=0).with_player(1, run=0)
    state = state.with_player(starter, visits=state.players[starter].visits + 1)
    params = {"starter": state.players[starter].name}
    verdict = RealVerdict(starter, 0, 0, ("K-11.2",), "shootout_started", params, False)
    return dataclasses.replace(state, phase=SHOOTOUT, turn=starter, shootout_visits=(0, 0)), verdict


def _after_shootout_shot(state: RealState, ruleset: Ruleset, judged: Verdict | None, *, penalty: int = 0) -> RealState:
    """K-11.3/K-11.4: a pot goes on; a penalty in the sudden death loses; else the visit ends and the
    visits are counted."""
    index = state.turn
    lost = penalty or (judged is not None and judged.penalty)
    if lost and state.sudden_death:
        return _finish(state, 1 - index, "sudden_death_penalty")
    if judged is not None and judged.scored and not judged.turn_passes:
        return dataclasses.replace(state, potted=True)
    return _shootout_end_visit(state, ruleset)


def _shootout_end_visit(state: RealState, ruleset: Ruleset) -> RealState:
    index, other = state.turn, 1 - state.turn
    visits = list(state.shootout_visits)
    visits[index] += 1
    score = [p.score for p in state.players]
    state = dataclasses.replace(state, shootout_visits=(visits[0], visits[1]))
    if not state.sudden_death:
        if min(visits) >= ruleset.shootout_visits:
            if score[0] != score[1]:
                return _finish(state, 0 if score[0] > score[1] else 1, "shootout_higher")
            state = dataclasses.replace(state, sudden_death=True)
    elif state.answer_by == index:
        if score[index] != score[other]:
            return _finish(state, index if score[index] > score[other] else other, "sudden_death")
        state = dataclasses.replace(state, answer_by=None)
    elif state.potted:
        state = dataclasses.replace(state, answer_by=other)
    return _next_visit(state)


def _finish(state: RealState, winner: int, how: str) -> RealState:
    return dataclasses.replace(state, phase=FINISHED, winner=winner, finish=how)


def finish_words(state: RealState, language: str = "en") -> str | None:
    """How the game ended, in words (the engine's finish catalogue)."""
    return None if state.finish is None else words.finish_words(state.finish, {}, language)


# ------------------------------------------------------------------------------ runs
def visit_runs(state: RealState) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Each player's runs, longest first: the points of each of his visits (what a shot scored less
    its penalty, summed until the turn passed or the game was won; the clock's notes are no shots)."""
    runs: tuple[list[int], list[int]] = ([], [])
    current: int | None = None
    total = 0
    for entry in state.shots:
        verdict = entry["verdict"]
        if verdict.get("words_kind") == "text" or verdict.get("code") == "shootout_started":
            continue
        player = int(verdict["player"])
        if current is not None and player != current:
            runs[current].append(total)
            total = 0
        current = player
        total += int(verdict["points"]) - int(verdict["penalty"])
        if verdict["turn_passes"] or verdict["wins"]:
            runs[player].append(total)
            current, total = None, 0
    if current is not None:
        runs[current].append(total)
    return tuple(sorted(runs[0], reverse=True)), tuple(sorted(runs[1], reverse=True))


# ------------------------------------------------------------------------------ undo
def replay(start: RealState, taps: Sequence[Mapping[str, Any]], ruleset: Ruleset) -> RealState:
    """``start`` with the taps (their stored dicts) applied in order."""
    state = dataclasses.replace(start, shots=())
    for tap in taps:
        state, _verdict = apply_real_shot(state, parse_real_shot(tap), ruleset)
    return state


def start_of(state: RealState) -> RealState:
    """The game as it was before its first tap (names and handicaps kept)."""
    names = (state.players[0].name, state.players[1].name)
    return new_real_state(names, (state.players[0].handicap, state.players[1].handicap))


def undo(state: RealState, ruleset: Ruleset) -> RealState:
    """The game without its last tap: the other taps replayed from the start."""
    if not state.shots:
        raise RuleError("nothing_to_undo", "there is no tap to undo")
    return replay(start_of(state), [s["tap"] for s in state.shots[:-1]], ruleset)
