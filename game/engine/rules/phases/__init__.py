"""One module per phase, each with its dispatch table ``HANDLERS`` (input type -> a pure function
``(state, input, simulate) -> (state, outcome)``); :func:`apply` picks the table of the state's phase.
``flow`` holds what the phases share and the inputs every phase accepts.

Adding an input: a frozen dataclass in :mod:`game.engine.rules.inputs`, a function
``(state, input, simulate) -> (state, Outcome)`` in the phase module(s) that accept it, one entry in
their ``HANDLERS`` (or in ``flow.COMMON`` for every phase), and a method on the ``Match`` facade.
"""

from __future__ import annotations

from game.engine.rules.errors import refuse
from game.engine.rules.inputs import ChooseBreak, ExpireShotClock, Lag, Place, Shoot, TouchFoul
from game.engine.rules.phases import lag, online, opening, play, shootout
from game.engine.rules.phases.flow import Handlers, Outcome, Result, dispatch
from game.engine.rules.simulator import Simulator
from game.engine.rules.state import MatchState, Phase

#: The phase -> its module's handler table (``finished`` accepts only the common inputs).
PHASE_HANDLERS: dict[Phase, Handlers] = {
    Phase.LAG: lag.HANDLERS,
    Phase.CHOOSE_BREAK: opening.HANDLERS,
    Phase.OPENING_PLACEMENT: opening.HANDLERS,
    Phase.PLAY: play.HANDLERS,
    Phase.EXTRA_VISITS: play.HANDLERS,
    Phase.SHOOTOUT: shootout.HANDLERS,
    Phase.FINISHED: {},
}


def apply(state: MatchState, inp: object, simulate: Simulator) -> Result:
    """Apply one input to ``state``: the new state and what happened (RuleError if refused). The online
    inputs (abort, shot clock, abandonment) are taken in every phase before the phase's own table; a
    player's own accepted game input starts their count of shot-clock expiries again."""
    check_member_at_table(state, inp)
    handler = online.HANDLERS.get(type(inp))
    if handler is not None:
        return handler(state, inp, simulate)
    state, outcome = dispatch(PHASE_HANDLERS[state.phase], state, inp, simulate)
    if isinstance(inp, Lag | ChooseBreak | Place | Shoot):
        state = online.with_timeouts_reset(state, inp.player)
    return state, outcome


#: The inputs that belong to a visit (or the lag and the choice): in a team match only the member whose
#: visit it is may send them; the others may still resign, abort and be present for the team.
VISIT_INPUTS = (Lag, ChooseBreak, Place, Shoot, TouchFoul, ExpireShotClock)


def check_member_at_table(state: MatchState, inp: object) -> None:
    """Team matches: a member of a team acts only on his own visit (the team's ``at_table`` member;
    for the lag, the first players, K-3.1); everyone else is refused with ``not_your_visit``."""
    if state.teams is None or not isinstance(inp, VISIT_INPUTS):
        return
    side = state.team_of(inp.player)
    if side is not None and state.actor(side) != inp.player:
        raise refuse("not_your_visit", player=state.actor(side))


__all__ = ["PHASE_HANDLERS", "Outcome", "apply"]
