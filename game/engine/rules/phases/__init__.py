"""One module per phase, each a pure ``apply(state, input, simulate) -> (state, outcome)`` over its
dispatch table ``HANDLERS`` (input type -> function); :func:`apply` picks the module of the state's
phase. ``flow`` holds what the phases share and the inputs every phase accepts.

Adding an input: a frozen dataclass in :mod:`game.engine.rules.inputs`, a function
``(state, input, simulate) -> (state, Outcome)`` in the phase module(s) that accept it, one entry in
their ``HANDLERS`` (or in ``flow.COMMON`` for every phase), and a method on the ``Match`` facade.
"""

from __future__ import annotations

from collections.abc import Callable

from game.engine.rules.inputs import ChooseBreak, Lag, Place, Shoot
from game.engine.rules.phases import lag, online, opening, play, shootout
from game.engine.rules.phases.flow import Outcome, Result, dispatch
from game.engine.rules.simulator import Simulator
from game.engine.rules.state import MatchState, Phase

PhaseApply = Callable[[MatchState, object, Simulator], Result]

#: The phase -> module table (``finished`` accepts only the common inputs).
PHASE_APPLY: dict[Phase, PhaseApply] = {
    Phase.LAG: lag.apply,
    Phase.CHOOSE_BREAK: opening.apply,
    Phase.OPENING_PLACEMENT: opening.apply,
    Phase.PLAY: play.apply,
    Phase.EXTRA_VISITS: play.apply,
    Phase.SHOOTOUT: shootout.apply,
    Phase.FINISHED: lambda state, inp, simulate: dispatch({}, state, inp, simulate),
}


def apply(state: MatchState, inp: object, simulate: Simulator) -> Result:
    """Apply one input to ``state``: the new state and what happened (RuleError if refused). The online
    inputs (abort, shot clock, abandonment) are taken in every phase before the phase's own table; a
    player's own accepted game input starts their count of shot-clock expiries again."""
    handler = online.HANDLERS.get(type(inp))
    if handler is not None:
        return handler(state, inp, simulate)
    state, outcome = PHASE_APPLY[state.phase](state, inp, simulate)
    if isinstance(inp, Lag | ChooseBreak | Place | Shoot):
        state = online.with_timeouts_reset(state, inp.player)
    return state, outcome


__all__ = ["PHASE_APPLY", "Outcome", "apply"]
