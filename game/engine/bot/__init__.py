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

import dataclasses
import math
import random
from collections.abc import Callable, Mapping
from typing import Any

from game.engine.bot import geometry as geo
from game.engine.bot.levels import (
    COLOURS,
    FOOT_POCKETS,
    HOME_EXIT_BONUS,
    LEVEL_SPECS,
    LEVELS,
    MIDDLE_POCKETS,
    PLACEMENT_STEP,
    QUICK_PLACEMENT_STEP,
    LevelSpec,
    Move,
    NoMoveError,
    Vec2,
    cue_ball_of,
    in_hand,
    noisy,
    positions_of,
    ruleset_of,
    seat_of,
    strike_dict,
    table_for,
)
from game.engine.bot.search import pockets_for, search_shot, targets_for
from game.engine.rules import Match, RuleError
from game.engine.rules.lag_advice import best_lag_speed
from game.engine.rules.placement import home_placement_error, opening_placement_error


def pending_for(snapshot: Mapping[str, Any], player: str | None = None) -> tuple[str, str] | None:
    """The (player, action) the bot should play now, or None. ``player`` restricts it to one seat."""
    return _due(Match.from_snapshot(dict(snapshot)), player)


def _due(match: Match, player: str | None) -> tuple[str, str] | None:
    for name, action in match.pending():
        if player is None or name == player:
            return name, action
    return None


def choose_move(
    snapshot: Mapping[str, Any],
    level: int,
    *,
    player: str | None = None,
    seed: int | None = None,
    budget: float | None = None,
    simulations: int | None = None,
) -> Move:
    """The bot's next move in ``snapshot`` at ``level`` (1 weakest to 5 strongest), as a plain dict.

    ``{"action": "lag", "player", "strike"}``, ``{"action": "choose_break", "player", "take"}``,
    ``{"action": "place", "player", "ball", "x", "y"}`` or ``{"action": "shoot", "player", "call",
    "strike", "expected"}``. ``budget`` overrides the level's search time (tests use a small one);
    ``simulations`` bounds the search by the shots it plays instead of by time, so the same snapshot and
    seed give the same move on any machine (seeded data and tests that must not depend on the host's
    speed).
    """
    if level not in LEVEL_SPECS:
        raise ValueError(f"bot level must be one of {LEVELS}")
    spec = LEVEL_SPECS[level]
    if budget is not None:
        spec = dataclasses.replace(spec, budget=budget)
    if simulations is not None:
        spec = dataclasses.replace(spec, budget=math.inf, max_simulations=simulations)
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
        call, strike, expected = search_shot(snapshot, name, spec, rng)
        return {
            "action": "shoot",
            "player": name,
            "call": call,
            "strike": noisy(strike, spec, rng),
            "expected": round(expected, 3),
        }
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


def _lag_strike(snapshot: Mapping[str, Any], player: str, spec: LevelSpec, rng: random.Random) -> dict[str, float]:
    ruleset = ruleset_of(snapshot)
    side = seat_of(snapshot, player)
    colours = tuple(
        (b, pos[0], pos[1])
        for b, pos in positions_of(snapshot).items()
        if pos is not None and b not in ("white1", "white2")
    )
    speed = best_lag_speed(ruleset.ball_diameter, side, colours)
    speed *= 1.0 + rng.gauss(0.0, spec.lag_noise / 3)
    return strike_dict(rng.gauss(0.0, spec.lag_noise / 100), speed)


# --- placement: the opening (K-3.3) and ball in hand (K-7.1) ------------------------------------------


def _is_opening_placement(snapshot: Mapping[str, Any], player: str) -> bool:
    return snapshot.get("phase") == "opening_placement" and cue_ball_of(snapshot, player) == "white2"


def _grid(x0: float, x1: float, y0: float, y1: float, step: float) -> list[Vec2]:
    nx = max(1, int((x1 - x0) / step))
    ny = max(1, int((y1 - y0) / step))
    return [
        (round(x0 + (x1 - x0) * i / nx, 4), round(y0 + (y1 - y0) * j / ny, 4))
        for i in range(nx + 1)
        for j in range(ny + 1)
    ]


def _placement_region(
    snapshot: Mapping[str, Any], player: str, step: float
) -> tuple[str, list[Vec2], Callable[[Vec2], bool]]:
    """The ball to place, the grid of candidate points (``step`` m apart) where the rules let it go,
    and the legality test for a point: the opening white2 beyond the middle (K-3.3), else the home
    (K-7.1)."""
    ruleset = ruleset_of(snapshot)
    table = table_for(ruleset)
    balls = positions_of(snapshot)
    ball = cue_ball_of(snapshot, player)
    margin = table.ball_radius + 0.002
    if _is_opening_placement(snapshot, player):
        points = _grid(table.length / 2 + margin, table.length - margin, margin, table.width - margin, step)
        return ball, points, lambda p: opening_placement_error(p, balls, table, ruleset.corridor_width, ball) is None
    points = _grid(margin, table.home_line_x - 0.001, margin, table.width - margin, step)
    return ball, points, lambda p: home_placement_error(p, balls, table, ball) is None


def _placement(snapshot: Mapping[str, Any], player: str, spec: LevelSpec, rng: random.Random) -> tuple[str, Vec2]:
    table = table_for(ruleset_of(snapshot))
    balls = positions_of(snapshot)
    ball, points, legal = _placement_region(snapshot, player, PLACEMENT_STEP)
    scored: list[tuple[float, Vec2]] = []
    if _is_opening_placement(snapshot, player):
        # Defence: the breaker's white1 will come from the home; stay out of its likely carom paths by
        # hugging a long cushion far from the foot pockets, where the white is also hard to pot.
        for point in filter(legal, points):
            cushion = table.distance_to_nearest_cushion(point)
            foot = min(math.dist(point, table.pockets[p].center) for p in FOOT_POCKETS)
            middle = min(math.dist(point, table.pockets[p].center) for p in MIDDLE_POCKETS)
            colours = min((math.dist(point, pos) for c in COLOURS if (pos := balls.get(c))), default=1.0)
            score = -2.0 * cushion + 0.6 * min(foot, 0.8) + 0.4 * min(middle, 0.5) + 0.3 * min(colours, 0.4)
            scored.append((score, point))
    else:
        targets = targets_for(snapshot, player, balls, from_hand=True, table=table)
        pockets = pockets_for(snapshot, from_hand=True)
        radius = table.ball_radius
        for point in filter(legal, points):
            trial = dict(balls)
            trial[ball] = point
            # K-7.2: the cue ball must cross the home line or the shot is replayed. A point with a ball
            # just ahead of it towards the foot (every ball in the home, say) could be shot only into
            # that ball, and the same replayed shot came back for ever; a clear way out breaks the ties.
            clear = not any(
                pos is not None
                and name != ball
                and point[0] < pos[0] < table.home_line_x + radius
                and abs(pos[1] - point[1]) < 2 * radius + 0.01
                for name, pos in balls.items()
            )
            value = geo.best_value(table, trial, ball, point, targets, pockets)
            scored.append((value + (HOME_EXIT_BONUS if clear else 0.0), point))
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


# --- quick moves (the load client) -----------------------------------------------------------------


def quick_move(snapshot: Mapping[str, Any], *, player: str | None = None, seed: int | None = None) -> Move:
    """A legal move in about a millisecond, without simulating: for load-test clients, not opponents.

    Lag, break choice and placements are the level-1 ones; a shot is the geometrically easiest aim
    line whose call the rules accept, at the estimated speed, with level-1 noise. It lets hundreds of
    simulated players run in one client process without the client becoming the bottleneck.
    """
    spec = LEVEL_SPECS[1]
    # One engine for the whole move: the load client makes a move per input on the machine it measures,
    # and reading the snapshot was half a move's time when done twice.
    match = Match.from_snapshot(dict(snapshot))
    due = _due(match, player)
    if due is None:
        raise NoMoveError("nothing for this player to do")
    name, action = due
    rng = random.Random(seed)
    if action == "place":
        ball, point = _quick_placement(snapshot, name, rng)
        return {"action": "place", "player": name, "ball": ball, "x": point[0], "y": point[1]}
    if action != "shoot":
        return choose_move(snapshot, 1, player=name, seed=seed)
    ruleset = ruleset_of(snapshot)
    table = table_for(ruleset)
    balls = positions_of(snapshot)
    cue_ball = cue_ball_of(snapshot, name)
    cue = balls[cue_ball]
    assert cue is not None
    from_hand = in_hand(snapshot)
    targets = targets_for(snapshot, name, balls, from_hand=from_hand, table=table)
    for line in geo.aim_lines(table, balls, cue_ball, cue, targets, pockets_for(snapshot, from_hand=from_hand)):
        call = {"ball": line.ball, "pocket": line.pocket, "object_cushions": 0, "cue_cushions": 0, "via": None}
        try:
            match.check_call(name, call)
        except RuleError:
            continue
        strike = strike_dict(line.angle, geo.estimate_speed(table, line) * 1.2)
        return {
            "action": "shoot",
            "player": name,
            "call": call,
            "strike": noisy(strike, spec, rng),
            "expected": round(line.value, 3),
        }
    return choose_move(snapshot, 1, player=name, seed=seed, budget=0.05)
