"""What may be called before the shot (K-4.3): the one home of the pre-shot rules, read by the shot
input (a refused call changes nothing) and by :mod:`~game.engine.rules.constraints` (what the client
shows as allowed), so the two can never disagree."""

from __future__ import annotations

from game.engine.rules.calls import Call
from game.engine.rules.errors import RuleError
from game.engine.rules.names import CORNER_POCKETS, FOOT_POCKETS, MIDDLE_POCKETS, RED_IDS
from game.engine.rules.state import SHOOTING_PHASES, MatchState, Phase, ShootoutStage, r6, table_of
from game.engine.rules.words import ball_name, phase_name


def require_shooter(state: MatchState, player: str) -> int:
    """The shooter's seat, if ``player`` may shoot now (phase, turn, cue ball on the table)."""
    if state.phase == Phase.FINISHED:
        raise RuleError("game_over", "the game is over")
    if state.phase not in SHOOTING_PHASES or (state.phase == Phase.SHOOTOUT and state.stage != ShootoutStage.SHOOT):
        raise RuleError("wrong_phase", f"no shots in {phase_name(state.phase)}")
    index = state.index_of(player)
    if index != state.turn:
        raise RuleError("not_your_turn", f"it is {state.shooter.name}'s turn")
    cue = state.players[index].cue_ball
    if cue is None or state.balls.get(cue) is None:
        raise RuleError("cue_ball_in_hand", "place your cue ball in the home first")
    return index


def rear_spot_reds(state: MatchState) -> list[str]:
    """K-3.4: the red(s) on the rear spot (the one the opening shot may call)."""
    rear = table_of(state).spots["rear"]
    return [r for r in RED_IDS if state.balls.get(r) == (r6(rear[0]), r6(rear[1]))]


def validate_call(state: MatchState, call: Call) -> Call:
    """K-4.3: refuse calls that could never be legal here, with the reason."""
    owners = state.owners()
    cue = state.shooter.cue_ball
    table = table_of(state)
    if call.ball == cue:
        raise RuleError("own_cue_ball", "that is your own cue ball: call another ball")
    if call.via == cue:
        raise RuleError("own_cue_ball", "your own cue ball cannot be the kiss ball")
    if state.balls.get(call.ball) is None:
        raise RuleError("ball_not_on_table", f"{ball_name(call.ball, owners)} is not on the table")
    if call.via is not None and state.balls.get(call.via) is None:
        raise RuleError("ball_not_on_table", f"{ball_name(call.via, owners)} is not on the table")
    if state.phase == Phase.SHOOTOUT:
        if call.ball != "kaisa" or call.pocket not in CORNER_POCKETS:
            raise RuleError("shootout_call", "in the shoot-out only the kaisa into a corner pocket is called (K-11.2)")
    if state.visit.opening:
        if call.ball not in ("kaisa", *rear_spot_reds(state)) or call.pocket not in FOOT_POCKETS:
            raise RuleError(
                "opening_call",
                "the opening shot must call the kaisa or the rear-spot red into a corner pocket at the far end (K-3.4)",
            )
    if state.visit.from_hand:
        if call.pocket in MIDDLE_POCKETS and call.object_cushions == 0:
            raise RuleError("hand_restriction", "from hand a middle pocket may only be called as a bank (K-7.2)")
        targets = [call.ball] if call.via is None else [call.ball, call.via]
        if call.cue_cushions == 0 and all(table.in_home(state.balls.get(b) or (0.0, 0.0)) for b in targets):
            raise RuleError(
                "hand_restriction",
                f"from hand {ball_name(call.ball, owners)} in the home may only be "
                "attacked off a cushion beyond the home line (K-7.2)",
            )
    if state.visit.middle_kaisa and call.ball == "kaisa" and call.pocket in MIDDLE_POCKETS and call.direct:
        raise RuleError(
            "middle_kaisa_twice", "the kaisa may not be potted directly into a middle pocket twice in a row (K-6.4)"
        )
    return call
