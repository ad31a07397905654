"""Phase ``shootout`` (K-11.2 to K-11.4): its own lag and choice (the same inputs as before the game),
then shots from hand at the kaisa only, visits counted, the higher score after the limit, and the
sudden death."""

from __future__ import annotations

import dataclasses

from game.engine.rules.inputs import ChooseBreak, Lag, Place, Shoot, TouchFoul
from game.engine.rules.phases import lag as lag_phase
from game.engine.rules.phases import opening, play
from game.engine.rules.phases.flow import Handlers, Outcome, Result, done, finish, next_visit
from game.engine.rules.simulator import Simulator
from game.engine.rules.state import MatchState, Shootout


def _so(state: MatchState) -> Shootout:
    assert state.shootout is not None
    return state.shootout


def end_visit(state: MatchState) -> MatchState:
    """K-11.4: count visits; after the limit the higher score wins; equal: sudden death."""
    so = _so(state)
    index = state.turn
    other = 1 - index
    visits = list(so.visits)
    visits[index] += 1
    score = [p.score for p in state.players]
    names = state.names
    potted = so.potted
    so = dataclasses.replace(so, visits=(visits[0], visits[1]), potted=False)
    if not so.sudden_death:
        limit = state.ruleset.shootout_visits
        if visits[0] >= limit and visits[1] >= limit:
            if score[0] != score[1]:
                winner = names[0] if score[0] > score[1] else names[1]
                return finish(state.evolve(shootout=so), winner, "shootout_higher")
            so = dataclasses.replace(so, sudden_death=True)
    elif so.answer_by == index:
        if score[index] != score[other]:
            ahead = index if score[index] > score[other] else other
            return finish(state.evolve(shootout=so), names[ahead], "sudden_death")
        so = dataclasses.replace(so, answer_by=None)
    elif potted:
        so = dataclasses.replace(so, answer_by=other)
    return next_visit(state.evolve(shootout=so))


def shoot(state: MatchState, inp: Shoot, simulate: Simulator) -> Result:
    """K-11.3: a legal kaisa pot scores 6 and the shooter goes on; own cue ball pocketed: minus 6,
    and in the sudden death the first penalty loses (K-11.4)."""
    index = state.turn
    state, verdict, shot = play.play_shot(state, inp, simulate)
    if not verdict.replay:
        if verdict.wins:
            state = finish(state, state.shooter.name, "target_reached")
        elif verdict.penalty and _so(state).sudden_death:
            state = finish(state, state.players[1 - index].name, "sudden_death_penalty")
        else:
            if verdict.scored:
                state = state.evolve(shootout=dataclasses.replace(_so(state), potted=True))
            if verdict.turn_passes:
                state = end_visit(state)
    out = play.shot_verdict(state, verdict)
    return done(state, out), Outcome(out, shot)


def touch_foul(state: MatchState, inp: TouchFoul, simulate: Simulator) -> Result:
    """K-8.2 in the shoot-out: the visit ends; with a penalty flag, in the sudden death it loses."""
    state, verdict, penalty = play.touch(state, inp)
    if _so(state).sudden_death and penalty:
        state = finish(state, state.players[1 - state.turn].name, "sudden_death_penalty")
    else:
        state = end_visit(state)
    return done(state, verdict), Outcome(verdict)


HANDLERS: Handlers = {
    Lag: lag_phase.lag,
    ChooseBreak: opening.choose_break,
    Place: play.place_in_hand,
    Shoot: shoot,
    TouchFoul: touch_foul,
}
