"""Phases ``choose_break`` (K-3.2) and ``opening_placement`` (K-3.3): the lag winner chooses who breaks,
the other places white2 beyond the centre line, then the breaker plays from the home (K-3.4, judged in
:mod:`~game.engine.rules.phases.play` with ``visit.opening``). The shoot-out's choice of who starts
(K-11.2) is the same input and lives here too."""

from __future__ import annotations

import dataclasses

from game.engine.rules.errors import RuleError, refuse
from game.engine.rules.inputs import ChooseBreak, Place
from game.engine.rules.phases.flow import Handlers, Outcome, Result, begin, done, note, place_target
from game.engine.rules.placement import opening_placement_error
from game.engine.rules.simulator import Simulator
from game.engine.rules.state import LagState, MatchState, Phase, ShootoutStage, Visit, table_of


def choose_break(state: MatchState, inp: ChooseBreak, simulate: Simulator) -> Result:
    """K-3.2 (and K-11.2 in the shoot-out): the lag winner breaks (``take``) or passes the break."""
    state = begin(state, inp.now, (Phase.CHOOSE_BREAK, Phase.SHOOTOUT))
    shootout = state.phase == Phase.SHOOTOUT
    if shootout and state.stage != ShootoutStage.CHOOSE:
        raise refuse("wrong_phase", "nothing_to_choose")
    index = state.index_of(inp.player)
    if index != state.turn:
        raise refuse("not_your_turn", "only_lag_winner_chooses")
    if not isinstance(inp.take, bool):
        raise RuleError("bad_input", "take must be true or false")
    breaker = index if inp.take else 1 - index
    state = state.with_player(breaker, cue_ball="white1").with_player(1 - breaker, cue_ball="white2")
    name = state.players[breaker].name
    state = state.evolve(breaker=name, lag=LagState(round=state.lag.round))
    if shootout:
        assert state.shootout is not None
        balls = dict(state.balls, white1=None, white2=None)
        state = state.evolve(
            shootout=dataclasses.replace(state.shootout, stage=ShootoutStage.SHOOT),
            turn=breaker,
            balls=balls,
            in_hand=("white1", "white2"),
            visit=Visit(),
        )
        verdict = note("shootout_started", {"starter": name}, ("K-11.2",))
    else:
        state = state.evolve(phase=Phase.OPENING_PLACEMENT, turn=1 - breaker, in_hand=("white1", "white2"))
        params = {"breaker": name, "placer": state.players[1 - breaker].name}
        verdict = note("break_chosen", params, ("K-3.2", "K-3.3"))
    return done(state, verdict), Outcome(verdict)


def place_white2(state: MatchState, inp: Place, simulate: Simulator) -> Result:
    """K-3.3: the non-breaker places white2 beyond the centre line, off the corridors; then the break."""
    state, index, ball, point = place_target(state, inp, (Phase.OPENING_PLACEMENT,))
    others = {b: p for b, p in state.balls.items() if b != ball}
    error = opening_placement_error(point, others, table_of(state), state.ruleset.corridor_width, ball)
    if error is not None:
        raise RuleError("illegal_placement", f"{error} (K-3.3)")
    state = state.evolve(
        balls=dict(state.balls, **{ball: point}),
        in_hand=tuple(b for b in state.in_hand if b != ball),
        phase=Phase.PLAY,
        turn=1 - index,
        visit=Visit(opening=True),
    )
    params = {"player": inp.player, "breaker": state.players[1 - index].name}
    verdict = note("opening_placed", params, ("K-3.3", "K-3.4"))
    return done(state, verdict), Outcome(verdict)


HANDLERS: Handlers = {ChooseBreak: choose_break, Place: place_white2}
