"""What every phase shares: starting an input, recording its verdict, the end of a visit (K-6.1),
the time limit read at the end of each round (K-11.1), entering the shoot-out (K-11.2), the finish
(K-9), and the inputs accepted in any phase (tick, forfeit, presence)."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from game.engine.balls import BALL_IDS
from game.engine.rules import clock as clock_mod
from game.engine.rules import words
from game.engine.rules.errors import RuleError, refuse
from game.engine.rules.inputs import Forfeit, Place, SetConnected, Tick
from game.engine.rules.simulator import Simulator
from game.engine.rules.state import (
    LagState,
    MatchState,
    Phase,
    Shootout,
    ShootoutStage,
    Vec2,
    Visit,
    r6,
    table_of,
)


@dataclass(frozen=True)
class Outcome:
    """What an accepted input did: the verdict dict (wire form) and the physics Shot, if one was played."""

    verdict: Any
    shot: Any = None


Result = tuple[MatchState, Outcome]
Handler = Callable[[MatchState, Any, Simulator], Result]
#: A phase's dispatch table: input type -> the function that applies it.
Handlers = Mapping[type, Handler]


def note(code: str, params: Mapping[str, Any], rules: tuple[str, ...], **extra: Any) -> dict[str, Any]:
    """A verdict for inputs that are not shots (lag decisions, placements, choices, forfeits)."""
    data: dict[str, Any] = {
        "scored": False,
        "points": 0,
        "penalty": 0,
        "foul": None,
        "caroms": [],
        "turn_passes": False,
        "reason": words.say(code, params),
        "rules": list(rules),
    }
    data.update(extra)
    data["code"] = code
    data["params"] = dict(params)
    return data


def begin(state: MatchState, now: float | None, phases: tuple[Phase, ...]) -> MatchState:
    """The common start of an input: the game is not over, the phase accepts it, the clock ticks."""
    if state.phase == Phase.FINISHED:
        raise refuse("game_over")
    if state.phase not in phases:
        raise refuse("wrong_phase", phase=state.phase)
    return state.evolve(clock=clock_mod.tick(state.clock, clock_mod.check_now(now)))


def done(state: MatchState, verdict: dict[str, Any]) -> MatchState:
    return state.evolve(last_verdict=verdict, moves=state.moves + 1)


def finish(state: MatchState, winner: str | None, key: str, **params: Any) -> MatchState:
    """The game is over: ``winner`` wins (None: aborted, nobody wins); ``key`` and ``params`` say how
    (words.finish_words)."""
    reason = words.finish_words(key, params)
    a, b = (dataclasses.replace(p, best_break=max(p.best_break, p.points_this_visit)) for p in state.players)
    return state.evolve(phase=Phase.FINISHED, winner=winner, finish_reason=reason, players=(a, b))


def next_visit(state: MatchState) -> MatchState:
    """The visit passes to the other side (K-6.1). In a team match the team whose visit ended moves on
    to its next member: its next visit is his, while the other team's member waiting is up now."""
    me = state.shooter
    state = state.with_player(state.turn, best_break=max(me.best_break, me.points_this_visit))
    state = rotate(state, state.turn)
    turn = 1 - state.turn
    state = state.with_player(turn, points_this_visit=0)
    return state.evolve(turn=turn, visit=Visit())


def rotate(state: MatchState, side: int) -> MatchState:
    """Team matches: ``side``'s next visit goes to its next member, in the fixed order."""
    if state.teams is None:
        return state
    at = list(state.at_table)
    at[side] = (at[side] + 1) % len(state.teams[side])
    return state.evolve(at_table=(at[0], at[1]))


def end_visit(state: MatchState) -> MatchState:
    """K-6.1 end of a visit; K-11.1 the time limit is read at the end of each round (white2's visit)."""
    ending_cue = state.shooter.cue_ball
    state = next_visit(state)
    if state.phase == Phase.PLAY:
        if state.clock.expired and ending_cue == "white2":
            extra = ("white1", "white2") * state.ruleset.extra_visits_each
            # An event's clock without extra visits (game/matches/clock_presets.py, the club presets)
            # goes from the end of the round straight to the shoot-out (K-11.2).
            state = state.evolve(phase=Phase.EXTRA_VISITS, extra_visits=extra) if extra else start_shootout(state)
    elif state.phase == Phase.EXTRA_VISITS:
        extra = state.extra_visits[1:] if state.extra_visits else ()
        state = state.evolve(extra_visits=extra)
        if not extra:
            state = start_shootout(state)
    return state


def start_shootout(state: MatchState) -> MatchState:
    """K-11.2: only the kaisa (centre spot) and the whites stay; a new lag decides who starts."""
    centre = table_of(state).spots["center"]
    balls: dict[str, tuple[float, float] | None] = {b: None for b in BALL_IDS}
    balls["kaisa"] = (r6(centre[0]), r6(centre[1]))
    return state.evolve(
        phase=Phase.SHOOTOUT,
        balls=balls,
        in_hand=(),
        kaisa_spotted_at=None,
        lag=LagState(),
        turn=0,
        visit=Visit(),
        shootout=Shootout(stage=ShootoutStage.LAG),
    )


# ----------------------------------------------------------------------- inputs of every phase
def tick(state: MatchState, inp: Tick, simulate: Simulator) -> Result:
    """K-11.1: advance the tournament clock (records the warning); changes nothing else."""
    t = clock_mod.check_now(inp.now)
    if t is None:
        raise RuleError("bad_time", "now is required")
    state = state.evolve(clock=clock_mod.tick(state.clock, t))
    return state, Outcome(note("clock", {}, ("K-11.1",), clock=state.clock.as_dict()))


def set_connected(state: MatchState, inp: SetConnected, simulate: Simulator) -> Result:
    """Presence, kept by the online layer (it decides absences: K-9.3 via forfeit)."""
    if not isinstance(inp.connected, bool):
        raise RuleError("bad_input", "connected must be true or false")
    return state.with_player(state.index_of(inp.player), connected=inp.connected), Outcome(None)


def forfeit(state: MatchState, inp: Forfeit, simulate: Simulator) -> Result:
    """K-9.3: the game ends for the opponent (absence past the grace time, shot clock, resignation)."""
    if state.phase == Phase.FINISHED:
        raise refuse("game_over")
    state = state.evolve(clock=clock_mod.tick(state.clock, clock_mod.check_now(inp.now)))
    index = state.index_of(inp.loser)
    reason = inp.reason
    if not isinstance(reason, str) or not reason or len(reason) > 200:
        raise RuleError("bad_input", "the reason must be a short text")
    winner = state.players[1 - index].name
    code = "resigned" if reason == "resigned" else "forfeit"
    state = finish(state, winner, code, loser=inp.loser, reason=reason)
    params = {"winner": winner, "loser": inp.loser, "reason": reason, "scores": scores_of(state)}
    verdict = note(code, params, ("K-9.3",), winner=winner)
    return done(state, verdict), Outcome(verdict)


def scores_of(state: MatchState) -> dict[str, int]:
    return {p.name: p.score for p in state.players}


#: Inputs every phase accepts (a finished game still takes ticks and presence).
COMMON: Handlers = {Tick: tick, SetConnected: set_connected, Forfeit: forfeit}


def dispatch(handlers: Handlers, state: MatchState, inp: object, simulate: Simulator) -> Result:
    """Apply ``inp`` with the handler its type has in ``handlers`` (or in :data:`COMMON`)."""
    handler = COMMON.get(type(inp)) or handlers.get(type(inp))
    if handler is None:
        if state.phase == Phase.FINISHED:
            raise refuse("game_over")
        raise refuse("wrong_phase", phase=state.phase)
    return handler(state, inp, simulate)


def place_target(state: MatchState, inp: Place, phases: tuple[Phase, ...]) -> tuple[MatchState, int, str, Vec2]:
    """The checks every placement shares: phase, turn, the player's own cue ball, a point."""
    state = begin(state, inp.now, phases)
    if state.phase == Phase.SHOOTOUT and state.stage != ShootoutStage.SHOOT:
        raise refuse("wrong_phase", "shootout_not_started")
    index = state.index_of(inp.player)
    if index != state.turn:
        raise refuse("not_your_turn", player=state.shooter.name)
    ball = inp.ball
    if not isinstance(ball, str) or ball not in BALL_IDS:
        raise RuleError("unknown_ball", f"there is no ball {ball!r}")
    own = state.players[index].cue_ball
    if ball != own:
        raise refuse("not_in_hand", "only_own_cue_ball")
    return state, index, ball, parse_point(inp.position)


def parse_point(position: object) -> Vec2:
    if isinstance(position, Mapping):
        position = (position.get("x"), position.get("y"))
    if not isinstance(position, tuple | list) or len(position) != 2:
        raise RuleError("bad_position", "a position is a pair (x, y) in metres")
    out = []
    for v in position:
        if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
            raise RuleError("bad_position", "a position needs two finite numbers")
        out.append(r6(v))
    return (out[0], out[1])
