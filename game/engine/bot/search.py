"""The computer player's shot search (see :mod:`game.engine.bot` for why it works this way): candidate
calls from the aim lines, each played on a copy of the match, valued by expected points minus risk, the
best replayed with the aim nudged."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping
from typing import Any

from game.engine.bot import geometry as geo
from game.engine.bot.levels import (
    CONTINUATION_WEIGHT,
    FOOT_POCKETS,
    IN_HAND_VALUE,
    LEAVE_WEIGHT,
    MIDDLE_POCKETS,
    REPLAY_COST,
    WIN_BONUS,
    Candidate,
    LevelSpec,
    NoMoveError,
    Vec2,
    cue_ball_of,
    in_hand,
    positions_of,
    ruleset_of,
    strike_dict,
    table_for,
    visit_of,
)
from game.engine.rules import Match, RuleError
from game.engine.table import POCKET_IDS, TableSpec


def targets_for(
    snapshot: Mapping[str, Any], player: str, balls: Mapping[str, Vec2 | None], *, from_hand: bool, table: TableSpec
) -> list[str]:
    """Balls worth a direct call here; the rules (``Match.check_call``) still have the last word."""
    own = cue_ball_of(snapshot, player)
    if snapshot.get("phase") == "shootout":
        candidates = ["kaisa"]
    elif visit_of(snapshot).get("opening"):
        candidates = ["kaisa", "red1", "red2"]
    else:
        candidates = [b for b in ("white1", "white2", "red1", "red2", "kaisa") if b != own]
    result = []
    for ball in candidates:
        pos = balls.get(ball)
        if pos is None or (from_hand and pos[0] <= table.home_line_x):
            continue
        result.append(ball)
    return result


def pockets_for(snapshot: Mapping[str, Any], *, from_hand: bool) -> tuple[str, ...]:
    if visit_of(snapshot).get("opening"):
        return FOOT_POCKETS
    if from_hand:
        return tuple(p for p in POCKET_IDS if p not in MIDDLE_POCKETS)
    return POCKET_IDS


class _Search:
    """One decision: the position, the player, the clock, and a memo of the calls the rules refused."""

    def __init__(self, snapshot: Mapping[str, Any], player: str, spec: LevelSpec, rng: random.Random) -> None:
        self.snapshot = dict(snapshot)
        self.player = player
        self.spec = spec
        self.rng = rng
        self.ruleset = ruleset_of(snapshot)
        self.table = table_for(self.ruleset)
        self.balls = positions_of(snapshot)
        self.cue_ball = cue_ball_of(snapshot, player)
        self.opponent = next(p["name"] for p in snapshot["players"] if p["name"] != player)
        self.deadline = time.perf_counter() + spec.budget
        self.base = Match.from_snapshot(self.snapshot)
        self.calls: dict[tuple[Any, ...], bool] = {}
        self.simulations = 0

    def out_of_time(self) -> bool:
        """Past the level's time budget, or past its cap on simulations when it has one."""
        cap = self.spec.max_simulations
        return (cap is not None and self.simulations >= cap) or time.perf_counter() > self.deadline

    def allowed(self, call: dict[str, Any]) -> bool:
        """Whether the rules accept this call here (K-4.3), asked without shooting and remembered."""
        key = tuple(sorted(call.items()))
        if key not in self.calls:
            try:
                self.base.check_call(self.player, call)
                self.calls[key] = True
            except RuleError:
                self.calls[key] = False
        return self.calls[key]

    def play(self, call: dict[str, Any], strike: dict[str, float]) -> tuple[float, Any] | None:
        """Value of playing ``strike`` with ``call`` on a copy of the match, with the physics Shot."""
        if not self.allowed(call):
            return None
        match = Match.from_snapshot(self.snapshot)
        self.simulations += 1
        try:
            outcome = match.shoot(self.player, call=call, strike=strike)
        except RuleError:
            return None
        return self.value(match, outcome.verdict), outcome.shot

    def value(self, match: Match, verdict: Mapping[str, Any]) -> float:
        points = float(verdict.get("points", 0)) - float(verdict.get("penalty", 0))
        after = match.snapshot()
        if after.get("phase") == "finished":
            return points + (WIN_BONUS if after.get("winner") == self.player else -WIN_BONUS)
        if verdict.get("replay"):
            return points - REPLAY_COST
        if not verdict.get("turn_passes", True):
            return points + CONTINUATION_WEIGHT * self.ease(after, self.player)
        return points - LEAVE_WEIGHT * self.ease(after, self.opponent)

    def ease(self, snapshot: Mapping[str, Any], player: str) -> float:
        """How good the position is for ``player`` to shoot next, from the geometry alone."""
        try:
            cue_ball = cue_ball_of(snapshot, player)
        except NoMoveError:
            return IN_HAND_VALUE
        balls = positions_of(snapshot)
        cue = balls.get(cue_ball)
        if cue is None:
            return IN_HAND_VALUE
        targets = [b for b in ("white1", "white2", "red1", "red2", "kaisa") if b != cue_ball and balls.get(b)]
        return geo.best_value(self.table, balls, cue_ball, cue, targets, POCKET_IDS)


def _object_direction(shot: Any, cue_ball: str, ball: str) -> float | None:
    """Direction the object ball left in after the cue ball first touched it (from the segments)."""
    for event in shot.events:
        if event.kind == "ball_ball" and cue_ball in event.balls:
            if ball not in event.balls:
                return None
            t0 = float(event.time)
            later = [float(e.time) for e in shot.events if e.time > t0 and ball in e.balls]
            t1 = min([t0 + 0.05, *later])
            if t1 <= t0:
                return None
            x0, y0 = shot.position_at(ball, t0)
            x1, y1 = shot.position_at(ball, t1)
            if math.hypot(x1 - x0, y1 - y0) < 1e-6:
                return None
            return math.atan2(y1 - y0, x1 - x0)
    return None


def search_shot(
    snapshot: Mapping[str, Any], player: str, spec: LevelSpec, rng: random.Random
) -> tuple[dict[str, Any], dict[str, float], float]:
    """The call, the strike and the value of the shot ``spec`` finds best for ``player`` here."""
    search = _Search(snapshot, player, spec, rng)
    candidates = _candidates(search)
    if candidates:
        chosen = _robust_best(search, candidates)
        return chosen.call, chosen.strike, chosen.value
    return _fallback(search)


def search_candidates(snapshot: Mapping[str, Any], player: str, spec: LevelSpec, rng: random.Random) -> list[Candidate]:
    """Every shot the search of ``spec`` played, best value first (what :func:`search_shot` chooses
    among, before its robustness replays); the fallback's one shot when no aim line was playable.

    For tools that want more than the one shot the bot plays (the analysis ranks several). With a
    ``spec.budget`` of ``math.inf`` the search is bounded by the spec's counts alone, so the same
    position gives the same candidates on any machine.
    """
    search = _Search(snapshot, player, spec, rng)
    candidates = _candidates(search)
    if not candidates:
        call, strike, value = _fallback(search)
        candidates = [Candidate(call, strike, value, value > 0)]
    return candidates


def _candidates(search: _Search) -> list[Candidate]:
    """The shots played for the aim lines, best value first."""
    snapshot, player, spec = search.snapshot, search.player, search.spec
    table, balls, cue_ball = search.table, search.balls, search.cue_ball
    cue = balls.get(cue_ball)
    if cue is None:
        raise NoMoveError("the cue ball is not on the table: it must be placed first")
    from_hand = in_hand(snapshot)
    targets = targets_for(snapshot, player, balls, from_hand=from_hand, table=table)
    pockets = pockets_for(snapshot, from_hand=from_hand)
    candidates: list[Candidate] = []
    # Breadth first: every promising pair once at the first speed without spin, then the other speeds
    # and spins on the pairs that did best, until the level's budget runs out.
    pairs: list[tuple[geo.AimLine, dict[str, Any], float]] = []
    for line in geo.aim_lines(table, balls, cue_ball, cue, targets, pockets):
        if len(pairs) >= spec.pairs or (search.out_of_time() and candidates):
            break
        call = {"ball": line.ball, "pocket": line.pocket, "object_cushions": 0, "cue_cushions": 0, "via": None}
        if not search.allowed(call):
            continue
        base_speed = geo.estimate_speed(table, line)
        before = len(candidates)
        _try_line(search, line, call, base_speed * spec.speeds[0], 0.0, 0.0, candidates)
        best = max((c.value for c in candidates[before:]), default=-math.inf)
        pairs.append((line, call, best))
    pairs.sort(key=lambda item: -item[2])
    variations = [(f, sd, ht) for f in spec.speeds for sd, ht in spec.spins][1:]
    for line, call, _ in pairs:
        base_speed = geo.estimate_speed(table, line)
        for factor, side, height in variations:
            if search.out_of_time():
                break
            _try_line(search, line, call, base_speed * factor, side, height, candidates)
    candidates.sort(key=lambda c: -c.value)
    return candidates


def _try_line(
    search: _Search,
    line: geo.AimLine,
    call: dict[str, Any],
    speed: float,
    side: float,
    height: float,
    candidates: list[Candidate],
) -> None:
    """Play one aim, then correct it by how far the object ball actually left off its line."""
    target = search.balls[line.ball]
    cue = search.balls[search.cue_ball]
    assert target is not None and cue is not None
    aim = geo.pocket_aim_point(search.table, line.pocket)
    wanted = math.atan2(aim[1] - target[1], aim[0] - target[0])
    angle = line.angle
    for attempt in range(search.spec.correct + 1):
        strike = strike_dict(angle, speed, side, height)
        played = search.play(call, strike)
        if played is None:
            return
        value, shot = played
        candidates.append(Candidate(call, strike, value, value > 0))
        if attempt == search.spec.correct or search.out_of_time():
            return
        actual = _object_direction(shot, search.cue_ball, line.ball)
        slope = geo.aim_slope(cue, angle, target, search.table.ball_radius)
        if actual is None or slope is None:
            return
        error = geo.wrap(actual - wanted)
        if abs(error) < 2e-4:
            return
        angle += max(-0.03, min(0.03, -error / slope))


def _robust_best(search: _Search, candidates: list[Candidate]) -> Candidate:
    """Replay the best few with the aim nudged both ways; rank by the average (expected points)."""
    spec = search.spec
    if spec.robust <= 0:
        return candidates[0]
    nudge = max(spec.angle_noise, 0.0003)
    best: tuple[float, Candidate] | None = None
    for candidate in candidates[: spec.robust]:
        values = [candidate.value]
        for sign in (1.0, -1.0):
            if search.out_of_time():
                break
            strike = dict(candidate.strike)
            strike["angle"] = geo.wrap(strike["angle"] + sign * nudge)
            played = search.play(candidate.call, strike)
            values.append(played[0] if played is not None else candidate.value)
        mean = 0.5 * values[0] + 0.5 * sum(values[1:]) / len(values[1:]) if len(values) > 1 else values[0]
        if best is None or mean > best[0]:
            best = (mean, Candidate(candidate.call, candidate.strike, mean, candidate.fulfilled))
    assert best is not None
    return best[1]


def _fallback(search: _Search) -> tuple[dict[str, Any], dict[str, float], float]:
    """No aim line at all (everything blocked or refused): find any call the rules accept.

    Direct calls first, then calls that go off a cushion first (a ball in the home from hand, K-7.2),
    each played full on the ball at a medium pace; the first one the rules accept is sent.
    """
    table = search.table
    cue = search.balls[search.cue_ball]
    assert cue is not None
    pockets = POCKET_IDS
    options: list[tuple[dict[str, Any], float]] = []
    for ball in ("kaisa", "red1", "red2", "white1", "white2"):
        pos = search.balls.get(ball)
        if pos is None or ball == search.cue_ball:
            continue
        direct = math.atan2(pos[1] - cue[1], pos[0] - cue[0])
        # Off the foot cushion: aim at the ball's mirror image behind it.
        mirrored = math.atan2(pos[1] - cue[1], 2 * table.length - pos[0] - cue[0])
        for pocket in pockets:
            for object_cushions in (0, 1):
                options.append(
                    (
                        {
                            "ball": ball,
                            "pocket": pocket,
                            "object_cushions": object_cushions,
                            "cue_cushions": 0,
                            "via": None,
                        },
                        direct,
                    )
                )
                options.append(
                    (
                        {
                            "ball": ball,
                            "pocket": pocket,
                            "object_cushions": object_cushions,
                            "cue_cushions": 1,
                            "via": None,
                        },
                        mirrored,
                    )
                )
    options.sort(key=lambda item: item[0]["cue_cushions"])
    best: tuple[float, dict[str, Any], dict[str, float]] | None = None
    for call, angle in options:
        if best is not None and search.out_of_time():
            break
        if not search.allowed(call):
            continue
        strike = strike_dict(angle, 2.0)
        played = search.play(call, strike)
        if played is not None and (best is None or played[0] > best[0]):
            best = (played[0], call, strike)
    if best is None:
        raise NoMoveError("the rules refuse every call the bot can think of")
    return best[1], best[2], best[0]
