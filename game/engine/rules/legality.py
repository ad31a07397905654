"""What may be called before the shot (K-4.3): the one home of the pre-shot rules, read by the shot
input (a refused call changes nothing) and by :mod:`~game.engine.rules.constraints` (what the client
shows as allowed), so the two can never disagree."""

from __future__ import annotations

from game.engine.rules.calls import Call
from game.engine.rules.errors import refuse
from game.engine.rules.names import CORNER_POCKETS, FOOT_POCKETS, MIDDLE_POCKETS, RED_IDS
from game.engine.rules.state import SHOOTING_PHASES, MatchState, Phase, ShootoutStage, r6, table_of


def require_shooter(state: MatchState, player: str) -> int:
    """The shooter's seat, if ``player`` may shoot now (phase, turn, cue ball on the table)."""
    if state.phase == Phase.FINISHED:
        raise refuse("game_over")
    if state.phase not in SHOOTING_PHASES or (state.phase == Phase.SHOOTOUT and state.stage != ShootoutStage.SHOOT):
        raise refuse("wrong_phase", "no_shots_now", phase=state.phase)
    index = state.index_of(player)
    if index != state.turn:
        raise refuse("not_your_turn", player=state.shooter.name)
    cue = state.players[index].cue_ball
    if cue is None or state.balls.get(cue) is None:
        raise refuse("cue_ball_in_hand")
    return index


def rear_spot_reds(state: MatchState) -> list[str]:
    """K-3.4: the red(s) on the rear spot (the one the opening shot may call)."""
    rear = table_of(state).spots["rear"]
    spot = (r6(rear[0]), r6(rear[1]))
    return [r for r in RED_IDS if state.balls.get(r) == spot]


def validate_call(state: MatchState, call: Call) -> Call:
    """K-4.3: refuse calls that could never be legal here, with the reason. (The owners' names, which only
    a refusal's words need, are looked up when one is made: the constraints try a few dozen calls per
    state and most of them pass.)"""
    _refuse_own_or_missing_ball(state, call)
    _refuse_against_the_phase(state, call)
    if state.visit.from_hand:
        _refuse_from_hand(state, call)
    if state.visit.middle_kaisa and call.ball == "kaisa" and call.pocket in MIDDLE_POCKETS and call.direct:
        raise refuse("middle_kaisa_twice")
    return call


def _refuse_own_or_missing_ball(state: MatchState, call: Call) -> None:
    """The shooter's own cue ball named, or a named ball not on the table."""
    cue = state.shooter.cue_ball
    if call.ball == cue:
        raise refuse("own_cue_ball")
    if call.via == cue:
        raise refuse("own_cue_ball", "own_cue_ball_via")
    if state.balls.get(call.ball) is None:
        raise refuse("ball_not_on_table", ball=call.ball, owners=state.owners())
    if call.via is not None and state.balls.get(call.via) is None:
        raise refuse("ball_not_on_table", ball=call.via, owners=state.owners())


def _refuse_against_the_phase(state: MatchState, call: Call) -> None:
    """The shoot-out plays the kaisa into a corner; the opening shot a rear-spot red or the kaisa into
    a foot pocket."""
    if state.phase == Phase.SHOOTOUT:
        if call.ball != "kaisa" or call.pocket not in CORNER_POCKETS:
            raise refuse("shootout_call")
    if state.visit.opening:
        if call.ball not in ("kaisa", *rear_spot_reds(state)) or call.pocket not in FOOT_POCKETS:
            raise refuse("opening_call")


def _refuse_from_hand(state: MatchState, call: Call) -> None:
    """From hand: no middle pocket without an object-ball cushion, and no ball in the home without a
    cue-ball cushion."""
    if call.pocket in MIDDLE_POCKETS and call.object_cushions == 0:
        raise refuse("hand_restriction", "hand_middle_bank")
    # K-7.2 (the seed: the object ball must lie outside the home): a ball in the home only off a
    # cue-ball cushion, whether or not a kiss or combination ball is named.
    if call.cue_cushions == 0 and table_of(state).in_home(state.balls.get(call.ball) or (0.0, 0.0)):
        raise refuse("hand_restriction", "hand_home_ball", ball=call.ball, owners=state.owners())
