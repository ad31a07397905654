"""Phase ``lag`` (K-3.1), and the shoot-out's own lag (K-11.2): each player lags once; when both have,
the nearer wins and chooses, or both lag again.

Online the two lags are simulated independently on the same layout, each with only the lagging
player's white besides the colours (:mod:`game.engine.rules.lag` judges one lag).
"""

from __future__ import annotations

import dataclasses

from game.engine.balls import BALL_IDS, CUE_BALL_IDS
from game.engine.rules.errors import refuse
from game.engine.rules.inputs import Lag
from game.engine.rules.lag import LAG_BALLS, decide_lag, judge_lag_shot, lag_start
from game.engine.rules.phases.flow import Handlers, Outcome, Result, begin, done, note
from game.engine.rules.simulator import Simulator
from game.engine.rules.state import LagState, MatchState, Phase, ShootoutStage, Vec2, table_of
from game.engine.rules.strike import parse_strike


def lag(state: MatchState, inp: Lag, simulate: Simulator) -> Result:
    """K-3.1: play ``inp.player``'s lag; once both have lagged the lag is decided (or re-lagged)."""
    state = begin(state, inp.now, (Phase.LAG, Phase.SHOOTOUT))
    shootout = state.phase == Phase.SHOOTOUT
    if shootout and state.stage != ShootoutStage.LAG:
        raise refuse("wrong_phase", "shootout_lag_over")
    index = state.index_of(inp.player)
    if state.lag.results[index] is not None:
        raise refuse("already_lagged", player=inp.player)
    strike = parse_strike(inp.strike)
    table = table_of(state)
    label = LAG_BALLS[index]
    layout: dict[str, Vec2] = {}
    for b in BALL_IDS:
        pos = state.balls.get(b)
        if b not in CUE_BALL_IDS and pos is not None:
            layout[b] = pos
    layout[label] = lag_start(table, index)
    shot = simulate(table, layout, strike, label)
    result = judge_lag_shot(shot, ball=label, side=index, table=table)
    results = list(state.lag.results)
    results[index] = result
    state = state.evolve(lag=LagState(round=state.lag.round, results=(results[0], results[1])))
    extra: dict[str, object] = {"lag": result.as_dict(), "lag_winner": None, "relag": False}
    params: dict[str, object] = {"player": inp.player, "result": result.code, "distance": result.distance}
    first, second = results
    if first is not None and second is not None:
        # Both distances in the deciding verdict's words: a lag is judged against the other's (K-3.1).
        params["lags"] = [[state.actor(i), r.distance] for i, r in enumerate(results) if r is not None]
        winner = decide_lag(first, second, state.ruleset.lag_tie_tolerance)
        if winner is None:
            state = state.evolve(lag=LagState(round=state.lag.round + 1))
            extra["relag"] = params["relag"] = True
        else:
            name = state.players[winner].name
            state = state.evolve(turn=winner, lag=LagState(round=state.lag.round, results=(first, second), winner=name))
            if shootout:
                assert state.shootout is not None
                state = state.evolve(shootout=dataclasses.replace(state.shootout, stage=ShootoutStage.CHOOSE))
            else:
                state = state.evolve(phase=Phase.CHOOSE_BREAK)
            extra["lag_winner"] = params["winner"] = name
    verdict = note("lag", params, ("K-11.2", "K-3.1") if shootout else ("K-3.1",), **extra)
    return done(state, verdict), Outcome(verdict, shot)


HANDLERS: Handlers = {Lag: lag}
