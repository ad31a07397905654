"""The online rules every phase takes: abort before the break, the shot clock's expiry, and the
abandonment the server's clocks find (K-9.3). Not in the rules text: the site adds them, as online
pool sites do, so a game never waits on a player who is not playing.

- **Abort**: before the first shot of the break (the lag, the break choice, the opening placement and
  the breaker's own placement count as before) either player may end the game: no winner.
- **Shot clock**: when the player the rules wait for runs out of time, the visit passes with a timeout
  foul: no points lost, every ball (the cue ball too) stays where it is. The third consecutive expiry of
  the same player loses the game. Before the break nothing has been played, so the game is aborted. In
  a shoot-out lag (K-11.2) the late lag counts as lost; a late shoot-out choice passes to the opponent.
- **Abandonment**: the absent player loses; both absent, or nothing played yet: aborted.
"""

from __future__ import annotations

import dataclasses

from game.engine.rules import clock as clock_mod
from game.engine.rules.constraints import pending
from game.engine.rules.errors import RuleError, refuse
from game.engine.rules.inputs import Abandon, Abort, ExpireShotClock
from game.engine.rules.lag import LagResult
from game.engine.rules.phases import shootout
from game.engine.rules.phases.flow import Handlers, Outcome, Result, done, end_visit, finish, note
from game.engine.rules.simulator import Simulator
from game.engine.rules.state import LagState, MatchState, Phase, ShootoutStage

#: Consecutive shot-clock expiries of one player that lose the game.
TIMEOUTS_TO_LOSE = 3


def abortable(state: MatchState) -> bool:
    """Before the first shot of the break: nothing has been played yet."""
    return state.phase in (Phase.LAG, Phase.CHOOSE_BREAK, Phase.OPENING_PLACEMENT) or (
        state.phase == Phase.PLAY and state.visit.opening
    )


def _start(state: MatchState, now: float | None) -> MatchState:
    if state.phase == Phase.FINISHED:
        raise refuse("game_over")
    return state.evolve(clock=clock_mod.tick(state.clock, clock_mod.check_now(now)))


def _aborted(state: MatchState, key: str, **params: object) -> Result:
    """The game ends with no winner; ``key`` and ``params`` say why (words.finish_words)."""
    state = finish(state, None, key, **params)
    verdict = note("aborted", {"why": key, **params}, (), aborted=True, winner=None)
    return done(state, verdict), Outcome(verdict)


def abort(state: MatchState, inp: Abort, simulate: Simulator) -> Result:
    state = _start(state, inp.now)
    state.index_of(inp.player)
    if not abortable(state):
        raise RuleError("not_abortable", "a match can only be aborted before the first shot of the break")
    return _aborted(state, "aborted_by", player=inp.player)


def with_timeouts_reset(state: MatchState, player: str) -> MatchState:
    """A player's own accepted input starts their count of consecutive expiries again."""
    index = state.index_of(player)
    if state.timeouts[index] == 0:
        return state
    counts = list(state.timeouts)
    counts[index] = 0
    return state.evolve(timeouts=(counts[0], counts[1]))


def expire_shot_clock(state: MatchState, inp: ExpireShotClock, simulate: Simulator) -> Result:
    if state.phase == Phase.FINISHED:
        raise refuse("game_over")
    index = state.index_of(inp.player)
    if inp.player not in [name for name, _ in pending(state)]:
        raise RuleError("not_pending", f"the rules do not wait for {inp.player}")
    state = _start(state, inp.now)
    if abortable(state):
        return _aborted(state, "aborted_shot_clock")
    counts = list(state.timeouts)
    counts[index] += 1
    count = counts[index]
    state = state.evolve(timeouts=(counts[0], counts[1]))
    other = state.names[1 - index]
    params = {"player": inp.player, "other": other, "count": count, "limit": TIMEOUTS_TO_LOSE}
    if count >= TIMEOUTS_TO_LOSE:
        state = finish(state, other, "shot_clock_lost", **params)
        verdict = note("shot_clock_lost", params, ("K-9.3",), foul="shot_clock", winner=other, timeouts=count)
        return done(state, verdict), Outcome(verdict)
    code = "shot_clock"
    if state.stage == ShootoutStage.LAG:
        code = "shot_clock_lag"
        results = list(state.lag.results)
        results[index] = LagResult(lost=True, distance=None, reason="the shot clock ran out", code="shot_clock")
        theirs = results[1 - index]
        if theirs is not None and theirs.lost:
            code = "shot_clock_relag"
            state = state.evolve(lag=LagState(round=state.lag.round + 1))
        elif theirs is not None:
            code = "shot_clock_lag_won"
            state = state.evolve(
                turn=1 - index,
                lag=LagState(round=state.lag.round, results=(results[0], results[1]), winner=other),
                shootout=dataclasses.replace(state.shootout, stage=ShootoutStage.CHOOSE) if state.shootout else None,
            )
        else:
            state = state.evolve(lag=dataclasses.replace(state.lag, results=(results[0], results[1])))
    elif state.stage == ShootoutStage.CHOOSE:
        code = "shot_clock_choice"
        state = state.evolve(turn=1 - index)
    elif state.phase == Phase.SHOOTOUT:
        state = shootout.end_visit(state)
    else:
        state = end_visit(state)
    verdict = note(code, params, ("K-6.1",), foul="shot_clock", turn_passes=True, timeouts=count)
    return done(state, verdict), Outcome(verdict)


def abandon(state: MatchState, inp: Abandon, simulate: Simulator) -> Result:
    state = _start(state, inp.now)
    absent = sorted({state.index_of(p) for p in inp.absent})
    if not absent:
        raise RuleError("bad_input", "name the absent players")
    if len(absent) == 2:
        return _aborted(state, "aborted_both_left")
    name = state.names[absent[0]]
    if abortable(state):
        return _aborted(state, "aborted_left", player=name)
    winner = state.names[1 - absent[0]]
    reason = "left the match"
    state = finish(state, winner, "forfeit", loser=name, reason=reason)
    params = {"winner": winner, "loser": name, "reason": reason, "scores": {p.name: p.score for p in state.players}}
    verdict = note("forfeit", params, ("K-9.3",), winner=winner)
    return done(state, verdict), Outcome(verdict)


#: The online inputs, taken in every phase before the phase's own table.
HANDLERS: Handlers = {Abort: abort, ExpireShotClock: expire_shot_clock, Abandon: abandon}
