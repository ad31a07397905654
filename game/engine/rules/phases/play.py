"""Phases ``play`` and ``extra_visits`` (K-4 to K-9, K-11.1), and the shots of the shoot-out: ball in
hand (K-7.1), the called shot judged by :func:`~game.engine.rules.verdict.judge_shot` and applied
(respotting K-7.3/K-7.4, scores, the visit K-6), the touch foul (K-8.2).

The shot and the touch foul end differently in the shoot-out (K-11.3/K-11.4); :mod:`shootout` wraps
the cores here (:func:`play_shot`, :func:`touch`) with its own ending.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from game.engine.balls import BALL_IDS
from game.engine.rules import clock as clock_mod
from game.engine.rules import words
from game.engine.rules.calls import parse_call
from game.engine.rules.errors import RuleError, refuse
from game.engine.rules.inputs import Place, Shoot, TouchFoul
from game.engine.rules.legality import require_shooter, validate_call
from game.engine.rules.names import MIDDLE_POCKETS, RED_IDS
from game.engine.rules.phases.flow import (
    Handlers,
    Outcome,
    Result,
    begin,
    done,
    end_visit,
    finish,
    note,
    place_target,
    scores_of,
)
from game.engine.rules.placement import home_placement_error
from game.engine.rules.simulator import Simulator
from game.engine.rules.spotting import kaisa_return, respot
from game.engine.rules.state import SHOOTING_PHASES, MatchState, Phase, Vec2, r6, table_of
from game.engine.rules.strike import parse_strike
from game.engine.rules.trace import crossed_home_line, rolled_in_along_cushion
from game.engine.rules.verdict import Verdict, judge_shot


def place_in_hand(state: MatchState, inp: Place, simulate: Simulator) -> Result:
    """K-7.1: the shooter's cue ball in hand is placed in the home (and may be moved again before
    the shot)."""
    state, _index, ball, point = place_target(state, inp, SHOOTING_PHASES)
    if state.balls.get(ball) is not None and not state.visit.from_hand:
        raise refuse("not_in_hand")
    others = {b: p for b, p in state.balls.items() if b != ball}
    error = home_placement_error(point, others, table_of(state), ball)
    if error is not None:
        raise RuleError("illegal_placement", f"{error} (K-7.1)")
    state = state.evolve(
        balls=dict(state.balls, **{ball: point}),
        in_hand=tuple(b for b in state.in_hand if b != ball),
        visit=dataclasses.replace(state.visit, from_hand=True),
    )
    verdict = note("hand_placed", {"player": inp.player}, ("K-7.1",))
    return done(state, verdict), Outcome(verdict)


def play_shot(state: MatchState, inp: Shoot, simulate: Simulator) -> tuple[MatchState, Verdict, object]:
    """Validate, simulate, judge and apply a shot up to the end of the visit (the phase decides that)."""
    index = require_shooter(state, inp.player)
    call = validate_call(state, parse_call(inp.call))
    strike = parse_strike(inp.strike)
    state = state.evolve(clock=clock_mod.tick(state.clock, clock_mod.check_now(inp.now)))
    table = table_of(state)
    cue = state.players[index].cue_ball
    assert cue is not None
    before = {b: state.balls.get(b) for b in BALL_IDS}
    on_table = {b: p for b, p in before.items() if p is not None}
    shot = simulate(table, on_table, strike, cue)
    shootout = state.phase == Phase.SHOOTOUT
    from_hand = state.visit.from_hand or shootout
    pocketed = list(shot.pocketed.items())
    rolled: tuple[str, ...] = ()
    if (call.ball, call.pocket) in pocketed and rolled_in_along_cushion(shot, call.ball, table):
        rolled = (call.ball,)
    verdict = judge_shot(
        call=call,
        cue=cue,
        before=before,
        events=shot.events,
        table=table,
        ruleset=state.ruleset,
        score_before=state.players[index].score,
        from_hand=from_hand,
        shootout=shootout,
        cue_crossed_home_line=crossed_home_line(shot, cue, table) if from_hand else True,
        rolled_in=rolled,
        pocketed=pocketed,
        owners=state.owners(),
    )
    if not verdict.replay:
        final = {b: (r6(st.position[0]), r6(st.position[1])) for b, st in shot.final.items()}
        state = _apply(state, verdict, call.ball, call.pocket, call.direct, final, [b for b, _ in pocketed])
    return state, verdict, shot


def _apply(
    state: MatchState,
    verdict: Verdict,
    ball: str,
    pocket: str,
    direct: bool,
    final: Mapping[str, Vec2],
    dropped: list[str],
) -> MatchState:
    """Apply a judged shot: balls, respotting, score, the visit (its end is the phase's)."""
    table = table_of(state)
    me = state.shooter
    balls: dict[str, Vec2 | None] = {b: final.get(b) for b in BALL_IDS}
    shootout = state.phase == Phase.SHOOTOUT
    spotted_at = state.kaisa_spotted_at
    if shootout:
        centre = table.spots["center"]
        balls = {b: None for b in BALL_IDS}
        balls["kaisa"] = (r6(centre[0]), r6(centre[1]))
        spotted_at = None
    else:
        colours = [b for b in ("kaisa", *RED_IDS) if b in dropped or balls[b] is None]
        spotted = respot(colours, balls, table)
        if "kaisa" in spotted:
            spotted_at = None if spotted["kaisa"] == "center" else balls["kaisa"]
    net = verdict.points - verdict.penalty
    state = state.with_player(state.turn, score=me.score + net, points_this_visit=me.points_this_visit + net)
    visit = dataclasses.replace(
        state.visit,
        shots=state.visit.shots + 1,
        points=state.visit.points + net,
        middle_kaisa=bool(verdict.scored and ball == "kaisa" and pocket in MIDDLE_POCKETS and direct),
        from_hand=False,
        opening=False,
    )
    if not shootout:
        _moved, spotted_at = kaisa_return(balls, spotted_at, table)
    return state.with_balls(balls).evolve(visit=visit, kaisa_spotted_at=spotted_at)


def shot_verdict(state: MatchState, verdict: Verdict) -> dict[str, object]:
    """The verdict's wire form, with the scores after it (and the result when the shot won)."""
    out = verdict.as_dict()
    if state.phase == Phase.FINISHED and state.winner is not None:
        out["params"] = {**out["params"], "won": won(state)}
        out["reason"] = words.say(out["code"], out["params"])
    out["scores"] = [p.score for p in state.players]
    return out


def won(state: MatchState) -> dict[str, object]:
    """The winner and the score (the winner's first) of a shot that won: its sentence names the winner
    only ("alice wins the match"); pages print the score between the names in seat order."""
    scores = scores_of(state)
    winner = str(state.winner)
    loser = next(n for n in scores if n != winner)
    return {"winner": winner, "score": [scores[winner], scores[loser]]}


def shoot(state: MatchState, inp: Shoot, simulate: Simulator) -> Result:
    """A shot in ``play`` or ``extra_visits``: a win ends the game, else K-6.1 decides the visit."""
    state, verdict, shot = play_shot(state, inp, simulate)
    if not verdict.replay:
        if verdict.wins:
            state = finish(state, state.shooter.name, "target_reached")
        elif verdict.turn_passes:
            state = end_visit(state)
    out = shot_verdict(state, verdict)
    return done(state, out), Outcome(out, shot)


def touch(state: MatchState, inp: TouchFoul) -> tuple[MatchState, dict[str, object], int]:
    """K-8.2 up to the end of the visit: the penalty (flag ``touch_penalty``) and the verdict."""
    state = begin(state, inp.now, SHOOTING_PHASES)
    index = state.index_of(inp.player)
    if index != state.turn:
        raise refuse("not_your_turn", "only_shooter_touch_foul")
    penalty = state.ruleset.touch_penalty
    state = state.with_player(index, score=state.players[index].score - penalty)
    params = {"player": inp.player, "penalty": penalty}
    verdict = note("touch_foul", params, ("K-8.2",), foul="touched_ball", penalty=penalty, turn_passes=True)
    return state, verdict, penalty


def touch_foul(state: MatchState, inp: TouchFoul, simulate: Simulator) -> Result:
    """K-8.2: the shooter touched a ball (an admin or referee action): the visit ends."""
    state, verdict, _penalty = touch(state, inp)
    state = end_visit(state)
    return done(state, verdict), Outcome(verdict)


HANDLERS: Handlers = {Place: place_in_hand, Shoot: shoot, TouchFoul: touch_foul}
