"""The computer player: it searches shots on the engine itself and plays every phase by the rules.

Why it works this way:

- **The physics decides, the geometry only orders the search.** For every object ball and pocket the
  ghost-ball picture gives an aim (:mod:`game.engine.bot_geometry`); the best-looking pairs are then
  played on a copy of the match (``Match.from_snapshot`` + ``shoot``), so throw, squirt, jaws, caroms,
  fouls and the scoring are exactly the server's. A first simulation at the ghost-ball angle measures
  how far the object ball leaves off its line; the aim is corrected once by that error (the cheap way
  to absorb throw and squirt), and the corrected shot is judged again.
- **Score = expected points minus risk.** A candidate's value is the verdict's points minus its penalty
  (a scratch costs what K-8.1 says), plus a share of the next shot's ease when the visit goes on, minus
  a share of the opponent's best shot when the turn passes (leaving an easy shot is a risk). The best
  few are replayed with the aim nudged either way, and the average ranks them: a shot that only drops
  at its exact angle is worth less than one that forgives.
- **Calls are never guessed.** Every call the bot sends has been accepted by the rules on a copy of the
  position (a refused call raises ``RuleError`` there, not on the server), so the bot cannot send an
  illegal call.
- **Levels** 1 to 5 search fewer pairs, speeds and spins at the low end and add more aim and power
  noise to the stroke finally played; each level has a time budget (at most 1.7 s) that the search
  respects, so a shot is chosen within 2 seconds on a small machine.

:func:`choose_move` is the whole interface: a snapshot and a level in, a plain dict out. It is pure
Python with no I/O so that a process pool can run it away from the server's event loop.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from game.engine import bot_geometry as geo
from game.engine.balls import BallState
from game.engine.physics import Strike, simulate
from game.engine.physics.errors import SimulationCapError, StrikeError
from game.engine.rules import Match, RuleError
from game.engine.rules.lag import LAG_BALLS, judge_lag, lag_start
from game.engine.rules.placement import home_placement_error, opening_placement_error
from game.engine.rules.ruleset import Ruleset
from game.engine.rules.trace import coordinate_extent
from game.engine.strike_limits import STRIKE_LIMITS
from game.engine.table import POCKET_IDS, TableSpec, kaisa_table

Vec2 = tuple[float, float]
Move = dict[str, Any]

LEVELS: tuple[int, ...] = (1, 2, 3, 4, 5)
COLOURS: tuple[str, ...] = ("red1", "red2", "kaisa")
FOOT_POCKETS: tuple[str, ...] = ("foot_right", "foot_left")
MIDDLE_POCKETS: tuple[str, ...] = ("middle_right", "middle_left")

#: Share of the next own shot's estimated value added when the visit goes on.
CONTINUATION_WEIGHT = 0.6
#: Share of the opponent's best estimated shot subtracted when the turn passes.
LEAVE_WEIGHT = 0.5
#: Estimated value of having the cue ball in hand (placed anywhere in the home).
IN_HAND_VALUE = 1.2
#: Bonus for a shot that wins the match on the spot.
WIN_BONUS = 100.0
#: Grid step (m) of the placements the bot considers.
PLACEMENT_STEP = 0.05
#: quick_move's placement grid (m): coarse, since it only needs one legal point, found without scoring.
QUICK_PLACEMENT_STEP = 0.1


@dataclass(frozen=True)
class LevelSpec:
    """How hard one level tries and how well it strokes.

    ``pairs``: (ball, pocket) pairs simulated; ``speeds``: factors on the estimated speed, the first one
    tried on every pair before the others; ``spins``: (side, height) tip offsets; ``correct``: how many
    times the aim is corrected by the object ball's measured direction;
    ``robust``: how many of the best candidates are replayed with the aim nudged; ``angle_noise`` (rad)
    and ``speed_noise`` (fraction): the stroke's standard deviations; ``budget``: search time (s);
    ``placement_choice``: how many of the best placements it picks from at random.
    """

    pairs: int
    speeds: tuple[float, ...]
    spins: tuple[tuple[float, float], ...]
    correct: int
    robust: int
    angle_noise: float
    speed_noise: float
    budget: float
    placement_choice: int
    lag_noise: float


_SPINS_1 = ((0.0, 0.0),)
_SPINS_3 = ((0.0, 0.0), (0.0, 0.3), (0.0, -0.3))
_SPINS_5 = ((0.0, 0.0), (0.0, 0.3), (0.0, -0.3), (0.25, 0.0), (-0.25, 0.0))

LEVEL_SPECS: dict[int, LevelSpec] = {
    1: LevelSpec(2, (1.2,), _SPINS_1, 0, 0, 0.0040, 0.12, 0.3, 12, 0.25),
    2: LevelSpec(3, (1.2, 1.6), _SPINS_1, 1, 0, 0.0020, 0.08, 0.6, 6, 0.15),
    3: LevelSpec(5, (1.2, 0.9, 1.7), _SPINS_3[:2], 1, 2, 0.0010, 0.05, 0.9, 3, 0.08),
    4: LevelSpec(8, (1.2, 0.85, 1.6, 2.2), _SPINS_3, 2, 4, 0.0005, 0.03, 1.2, 2, 0.04),
    5: LevelSpec(12, (1.2, 0.85, 1.6, 2.2, 2.9), _SPINS_5, 2, 6, 0.00025, 0.02, 1.5, 1, 0.02),
}


class NoMoveError(RuntimeError):
    """The bot is asked to move in a position where its player has nothing to do."""


@dataclass
class Candidate:
    """One playable shot and what the copy of the match made of it."""

    call: dict[str, Any]
    strike: dict[str, float]
    value: float
    fulfilled: bool


def table_for(ruleset: Ruleset) -> TableSpec:
    return _table(ruleset.ball_diameter)


@lru_cache(maxsize=4)
def _table(ball_diameter: float) -> TableSpec:
    return kaisa_table(ball_diameter=ball_diameter)


def _ruleset(snapshot: Mapping[str, Any]) -> Ruleset:
    return Ruleset.from_dict(snapshot.get("ruleset"))


def _positions(snapshot: Mapping[str, Any]) -> dict[str, Vec2 | None]:
    balls: dict[str, Vec2 | None] = {}
    for ball, pos in (snapshot.get("balls") or {}).items():
        balls[ball] = None if pos is None else (float(pos[0]), float(pos[1]))
    return balls


def _seat(snapshot: Mapping[str, Any], player: str) -> int:
    for index, entry in enumerate(snapshot["players"]):
        if entry["name"] == player:
            return index
    raise NoMoveError(f"{player!r} does not play in this match")


def _strike_dict(angle: float, speed: float, side: float = 0.0, height: float = 0.0) -> dict[str, float]:
    return {"angle": round(geo.wrap(angle), 7), "speed": round(min(STRIKE_LIMITS.max_speed, max(0.05, speed)), 4),
            "side": side, "height": height}


def _noisy(strike: dict[str, float], spec: LevelSpec, rng: random.Random) -> dict[str, float]:
    """The stroke actually played: the chosen one with the level's aim and power error."""
    angle = strike["angle"] + rng.gauss(0.0, spec.angle_noise)
    speed = strike["speed"] * (1.0 + rng.gauss(0.0, spec.speed_noise))
    return _strike_dict(angle, speed, strike["side"], strike["height"])


def pending_for(snapshot: Mapping[str, Any], player: str | None = None) -> tuple[str, str] | None:
    """The (player, action) the bot should play now, or None. ``player`` restricts it to one seat."""
    match = Match.from_snapshot(dict(snapshot))
    for name, action in match.pending():
        if player is None or name == player:
            return name, action
    return None


def choose_move(snapshot: Mapping[str, Any], level: int, *, player: str | None = None,
                seed: int | None = None, budget: float | None = None) -> Move:
    """The bot's next move in ``snapshot`` at ``level`` (1 weakest to 5 strongest), as a plain dict.

    ``{"action": "lag", "player", "strike"}``, ``{"action": "choose_break", "player", "take"}``,
    ``{"action": "place", "player", "ball", "x", "y"}`` or ``{"action": "shoot", "player", "call",
    "strike", "expected"}``. ``budget`` overrides the level's search time (tests use a small one).
    """
    if level not in LEVEL_SPECS:
        raise ValueError(f"bot level must be one of {LEVELS}")
    spec = LEVEL_SPECS[level]
    if budget is not None:
        spec = LevelSpec(**{**spec.__dict__, "budget": budget})
    rng = random.Random(seed)
    due = pending_for(snapshot, player)
    if due is None:
        raise NoMoveError("nothing for this player to do")
    name, action = due
    if action == "lag":
        return {"action": "lag", "player": name, "strike": _lag_strike(snapshot, name, spec, rng)}
    if action == "choose_break":
        return {"action": "choose_break", "player": name, "take": True}
    if action == "place":
        ball, point = _placement(snapshot, name, spec, rng)
        return {"action": "place", "player": name, "ball": ball, "x": point[0], "y": point[1]}
    if action == "shoot":
        call, strike, expected = _search_shot(snapshot, name, spec, rng)
        return {"action": "shoot", "player": name, "call": call, "strike": _noisy(strike, spec, rng),
                "expected": round(expected, 3)}
    raise NoMoveError(f"the bot cannot play the action {action!r}")


def apply_move(match: Match, move: Mapping[str, Any]) -> Any:
    """Play a move from :func:`choose_move` on a ``Match`` (what the services do on the server)."""
    action = move["action"]
    player = move["player"]
    if action == "lag":
        return match.lag(player, move["strike"])
    if action == "choose_break":
        return match.choose_break(player, move["take"])
    if action == "place":
        return match.place(player, move["ball"], (move["x"], move["y"]))
    if action == "shoot":
        return match.shoot(player, call=move["call"], strike=move["strike"])
    raise ValueError(f"unknown move {action!r}")


# --- the lag (K-3.1) -------------------------------------------------------------------------------


Colours = tuple[tuple[str, float, float], ...]


def _lag_layout(table: TableSpec, side: int, colours: Colours) -> tuple[str, dict[str, BallState]]:
    """The lag simulation's balls, as the rules build them: the colours where they lie, one white."""
    ball = LAG_BALLS[side]
    balls = {name: BallState((x, y)) for name, x, y in colours}
    balls[ball] = BallState(lag_start(table, side))
    return ball, balls


def _lag_distance(table: TableSpec, side: int, colours: Colours, speed: float) -> float:
    """How far from the home cushion a straight lag at ``speed`` stops (inf if it loses)."""
    ball, balls = _lag_layout(table, side, colours)
    try:
        shot = simulate(table, balls, Strike(ball=ball, speed=speed, angle=0.0, side=0.0, height=0.0))
    except (StrikeError, SimulationCapError):
        return math.inf
    final = shot.final.get(ball)
    result = judge_lag(ball=ball, side=side, events=shot.events, pocketed=ball in shot.pocketed,
                       final=None if final is None else final.position,
                       y_extent=coordinate_extent(shot, ball, 1), table=table)
    return math.inf if result.lost or result.distance is None else result.distance


@lru_cache(maxsize=16)
def best_lag_speed(ball_diameter: float, side: int, colours: Colours) -> float:
    """The straight lag speed that stops nearest the home cushion: searched once, then remembered."""
    table = _table(ball_diameter)
    speeds = [1.0 + 0.15 * i for i in range(24)]
    scored = [(_lag_distance(table, side, colours, s), s) for s in speeds]
    best_distance, best_speed = min(scored)
    if not math.isfinite(best_distance):
        return 2.5
    fine = [best_speed + 0.015 * i for i in range(-6, 7)]
    return min((_lag_distance(table, side, colours, s), s) for s in fine)[1]


def _lag_strike(snapshot: Mapping[str, Any], player: str, spec: LevelSpec,
                rng: random.Random) -> dict[str, float]:
    ruleset = _ruleset(snapshot)
    side = _seat(snapshot, player)
    colours = tuple((b, pos[0], pos[1]) for b, pos in _positions(snapshot).items()
                    if pos is not None and b not in ("white1", "white2"))
    speed = best_lag_speed(ruleset.ball_diameter, side, colours)
    speed *= 1.0 + rng.gauss(0.0, spec.lag_noise / 3)
    return _strike_dict(rng.gauss(0.0, spec.lag_noise / 100), speed)


# --- placement: the opening (K-3.3) and ball in hand (K-7.1) ------------------------------------------


def _cue_ball(snapshot: Mapping[str, Any], player: str) -> str:
    cue = snapshot["players"][_seat(snapshot, player)].get("cue_ball")
    if not cue:
        raise NoMoveError(f"{player} has no cue ball yet")
    return str(cue)


def _opponent_cue(snapshot: Mapping[str, Any], player: str) -> str:
    return "white2" if _cue_ball(snapshot, player) == "white1" else "white1"


def _is_opening_placement(snapshot: Mapping[str, Any], player: str) -> bool:
    return snapshot.get("phase") == "opening_placement" and _cue_ball(snapshot, player) == "white2"


def _grid(x0: float, x1: float, y0: float, y1: float, step: float) -> list[Vec2]:
    nx = max(1, int((x1 - x0) / step))
    ny = max(1, int((y1 - y0) / step))
    return [(round(x0 + (x1 - x0) * i / nx, 4), round(y0 + (y1 - y0) * j / ny, 4))
            for i in range(nx + 1) for j in range(ny + 1)]


def _placement_region(snapshot: Mapping[str, Any], player: str,
                      step: float) -> tuple[str, list[Vec2], Callable[[Vec2], bool]]:
    """The ball to place, the grid of candidate points (``step`` m apart) where the rules let it go,
    and the legality test for a point: the opening white2 beyond the middle (K-3.3), else the home
    (K-7.1)."""
    ruleset = _ruleset(snapshot)
    table = table_for(ruleset)
    balls = _positions(snapshot)
    ball = _cue_ball(snapshot, player)
    margin = table.ball_radius + 0.002
    if _is_opening_placement(snapshot, player):
        points = _grid(table.length / 2 + margin, table.length - margin, margin, table.width - margin, step)
        return ball, points, lambda p: opening_placement_error(p, balls, table, ruleset.corridor_width, ball) is None
    points = _grid(margin, table.home_line_x - 0.001, margin, table.width - margin, step)
    return ball, points, lambda p: home_placement_error(p, balls, table, ball) is None


def _placement(snapshot: Mapping[str, Any], player: str, spec: LevelSpec,
               rng: random.Random) -> tuple[str, Vec2]:
    table = table_for(_ruleset(snapshot))
    balls = _positions(snapshot)
    ball, points, legal = _placement_region(snapshot, player, PLACEMENT_STEP)
    scored: list[tuple[float, Vec2]] = []
    if _is_opening_placement(snapshot, player):
        # Defence: the breaker's white1 will come from the home; stay out of its likely carom paths by
        # hugging a long cushion far from the foot pockets, where the white is also hard to pot.
        for point in filter(legal, points):
            cushion = table.distance_to_nearest_cushion(point)
            foot = min(math.dist(point, table.pockets[p].center) for p in FOOT_POCKETS)
            middle = min(math.dist(point, table.pockets[p].center) for p in MIDDLE_POCKETS)
            colours = min((math.dist(point, balls[c]) for c in COLOURS if balls.get(c)), default=1.0)
            score = -2.0 * cushion + 0.6 * min(foot, 0.8) + 0.4 * min(middle, 0.5) + 0.3 * min(colours, 0.4)
            scored.append((score, point))
    else:
        targets = _targets(snapshot, player, balls, from_hand=True, table=table)
        pockets = _pockets(snapshot, from_hand=True)
        for point in filter(legal, points):
            trial = dict(balls)
            trial[ball] = point
            scored.append((geo.best_value(table, trial, ball, point, targets, pockets), point))
    if not scored:
        raise NoMoveError("no legal place for the ball in hand")
    scored.sort(key=lambda item: (-item[0], item[1]))
    return ball, scored[rng.randrange(min(spec.placement_choice, len(scored)))][1]


def _quick_placement(snapshot: Mapping[str, Any], player: str, rng: random.Random) -> tuple[str, Vec2]:
    """A legal place without scoring: the first legal point of a shuffled coarse grid (for quick_move).

    Level 1's placement scores every point of a fine grid by its best shot, 9-12 ms a call: in the
    load client, 100 matches placing at once stopped its event loop for tens of ms, and that showed up
    as server latency in every figure it measured."""
    ball, points, legal = _placement_region(snapshot, player, QUICK_PLACEMENT_STEP)
    rng.shuffle(points)
    for point in points:
        if legal(point):
            return ball, point
    return _placement(snapshot, player, LEVEL_SPECS[1], rng)


# --- the shot search ---------------------------------------------------------------------------------


def _visit(snapshot: Mapping[str, Any]) -> Mapping[str, Any]:
    return snapshot.get("visit") or {}


def _from_hand(snapshot: Mapping[str, Any]) -> bool:
    """K-7.2 applies: the cue ball was placed by hand this visit (every shoot-out shot is from hand)."""
    return bool(_visit(snapshot).get("from_hand")) or snapshot.get("phase") == "shootout"


def _targets(snapshot: Mapping[str, Any], player: str, balls: Mapping[str, Vec2 | None], *,
             from_hand: bool, table: TableSpec) -> list[str]:
    """Balls worth a direct call here; the rules (``Match.check_call``) still have the last word."""
    own = _cue_ball(snapshot, player)
    if snapshot.get("phase") == "shootout":
        candidates = ["kaisa"]
    elif _visit(snapshot).get("opening"):
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


def _pockets(snapshot: Mapping[str, Any], *, from_hand: bool) -> tuple[str, ...]:
    if _visit(snapshot).get("opening"):
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
        self.ruleset = _ruleset(snapshot)
        self.table = table_for(self.ruleset)
        self.balls = _positions(snapshot)
        self.cue_ball = _cue_ball(snapshot, player)
        self.opponent = next(p["name"] for p in snapshot["players"] if p["name"] != player)
        self.deadline = time.perf_counter() + spec.budget
        self.base = Match.from_snapshot(self.snapshot)
        self.calls: dict[tuple[Any, ...], bool] = {}
        self.simulations = 0

    def out_of_time(self) -> bool:
        return time.perf_counter() > self.deadline

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
            return points - 0.3
        if not verdict.get("turn_passes", True):
            return points + CONTINUATION_WEIGHT * self.ease(after, self.player)
        return points - LEAVE_WEIGHT * self.ease(after, self.opponent)

    def ease(self, snapshot: Mapping[str, Any], player: str) -> float:
        """How good the position is for ``player`` to shoot next, from the geometry alone."""
        try:
            cue_ball = _cue_ball(snapshot, player)
        except NoMoveError:
            return IN_HAND_VALUE
        balls = _positions(snapshot)
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


def _search_shot(snapshot: Mapping[str, Any], player: str, spec: LevelSpec,
                 rng: random.Random) -> tuple[dict[str, Any], dict[str, float], float]:
    search = _Search(snapshot, player, spec, rng)
    table, balls, cue_ball = search.table, search.balls, search.cue_ball
    cue = balls.get(cue_ball)
    if cue is None:
        raise NoMoveError("the cue ball is not on the table: it must be placed first")
    from_hand = _from_hand(snapshot)
    targets = _targets(snapshot, player, balls, from_hand=from_hand, table=table)
    pockets = _pockets(snapshot, from_hand=from_hand)
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
    if candidates:
        candidates.sort(key=lambda c: -c.value)
        best = _robust_best(search, candidates)
        return best.call, best.strike, best.value
    return _fallback(search)


def _try_line(search: _Search, line: geo.AimLine, call: dict[str, Any], speed: float, side: float,
              height: float, candidates: list[Candidate]) -> None:
    """Play one aim, then correct it by how far the object ball actually left off its line."""
    target = search.balls[line.ball]
    cue = search.balls[search.cue_ball]
    assert target is not None and cue is not None
    aim = geo.pocket_aim_point(search.table, line.pocket)
    wanted = math.atan2(aim[1] - target[1], aim[0] - target[0])
    angle = line.angle
    for attempt in range(search.spec.correct + 1):
        strike = _strike_dict(angle, speed, side, height)
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
                options.append(({"ball": ball, "pocket": pocket, "object_cushions": object_cushions,
                                 "cue_cushions": 0, "via": None}, direct))
                options.append(({"ball": ball, "pocket": pocket, "object_cushions": object_cushions,
                                 "cue_cushions": 1, "via": None}, mirrored))
    options.sort(key=lambda item: item[0]["cue_cushions"])
    best: tuple[float, dict[str, Any], dict[str, float]] | None = None
    for call, angle in options:
        if best is not None and search.out_of_time():
            break
        if not search.allowed(call):
            continue
        strike = _strike_dict(angle, 2.0)
        played = search.play(call, strike)
        if played is not None and (best is None or played[0] > best[0]):
            best = (played[0], call, strike)
    if best is None:
        raise NoMoveError("the rules refuse every call the bot can think of")
    return best[1], best[2], best[0]


def quick_move(snapshot: Mapping[str, Any], *, player: str | None = None, seed: int | None = None) -> Move:
    """A legal move in about a millisecond, without simulating: for load-test clients, not opponents.

    Lag, break choice and placements are the level-1 ones; a shot is the geometrically easiest aim
    line whose call the rules accept, at the estimated speed, with level-1 noise. It lets hundreds of
    simulated players run in one client process without the client becoming the bottleneck.
    """
    spec = LEVEL_SPECS[1]
    due = pending_for(snapshot, player)
    if due is None:
        raise NoMoveError("nothing for this player to do")
    name, action = due
    rng = random.Random(seed)
    if action == "place":
        ball, point = _quick_placement(snapshot, name, rng)
        return {"action": "place", "player": name, "ball": ball, "x": point[0], "y": point[1]}
    if action != "shoot":
        return choose_move(snapshot, 1, player=name, seed=seed)
    match = Match.from_snapshot(dict(snapshot))
    ruleset = _ruleset(snapshot)
    table = table_for(ruleset)
    balls = _positions(snapshot)
    cue_ball = _cue_ball(snapshot, name)
    cue = balls[cue_ball]
    assert cue is not None
    from_hand = _from_hand(snapshot)
    targets = _targets(snapshot, name, balls, from_hand=from_hand, table=table)
    for line in geo.aim_lines(table, balls, cue_ball, cue, targets, _pockets(snapshot, from_hand=from_hand)):
        call = {"ball": line.ball, "pocket": line.pocket, "object_cushions": 0, "cue_cushions": 0, "via": None}
        try:
            match.check_call(name, call)
        except RuleError:
            continue
        strike = _strike_dict(line.angle, geo.estimate_speed(table, line) * 1.2)
        return {"action": "shoot", "player": name, "call": call, "strike": _noisy(strike, spec, rng),
                "expected": round(line.value, 3)}
    return choose_move(snapshot, 1, player=name, seed=seed, budget=0.05)
