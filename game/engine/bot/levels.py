"""The computer player's levels and the readings of a snapshot its modules share (game.engine.bot is
the interface; bot_search the shot search; bot_geometry the aim lines)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from game.engine.bot import geometry as geo
from game.engine.rules.ruleset import Ruleset
from game.engine.strike_limits import STRIKE_LIMITS
from game.engine.table import TableSpec, kaisa_table

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
#: Cost of a shot from hand that the rules replay (K-7.2, the cue ball short of the home line): the
#: position comes back unchanged, so a bot that valued it near zero (a miss that costs nothing) chose it
#: again, the same way, every time: the ladder's capped matches of 400 moves. Dearer than any foul
#: with the worst leave, cheaper than losing the match on the spot.
REPLAY_COST = 20.0
#: A ball-in-hand place with no ball between it and the home line towards the foot: a tie-break (a
#: tenth of a point), so a place with a real shot still wins over one that is only clear.
HOME_EXIT_BONUS = 0.1
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
    ``placement_choice``: how many of the best placements it picks from at random; ``max_simulations``:
    a cap on the shots the search plays, a budget that is the same on every machine (None: the time
    budget alone; the analysis sets the time budget to ``math.inf`` and bounds its search by this).
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
    max_simulations: int | None = None


_SPINS_1 = ((0.0, 0.0),)
_SPINS_3 = ((0.0, 0.0), (0.0, 0.3), (0.0, -0.3))
_SPINS_5 = ((0.0, 0.0), (0.0, 0.3), (0.0, -0.3), (0.25, 0.0), (-0.25, 0.0))

LEVEL_SPECS: dict[int, LevelSpec] = {
    1: LevelSpec(2, (1.2,), _SPINS_1, 1, 0, 0.0030, 0.10, 0.3, 12, 0.25),
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


def ruleset_of(snapshot: Mapping[str, Any]) -> Ruleset:
    return Ruleset.from_dict(snapshot.get("ruleset"))


def positions_of(snapshot: Mapping[str, Any]) -> dict[str, Vec2 | None]:
    balls: dict[str, Vec2 | None] = {}
    for ball, pos in (snapshot.get("balls") or {}).items():
        balls[ball] = None if pos is None else (float(pos[0]), float(pos[1]))
    return balls


def seat_of(snapshot: Mapping[str, Any], player: str) -> int:
    for index, entry in enumerate(snapshot["players"]):
        if entry["name"] == player:
            return index
    raise NoMoveError(f"{player!r} does not play in this match")


def strike_dict(angle: float, speed: float, side: float = 0.0, height: float = 0.0) -> dict[str, float]:
    return {
        "angle": round(geo.wrap(angle), 7),
        "speed": round(min(STRIKE_LIMITS.max_speed, max(0.05, speed)), 4),
        "side": side,
        "height": height,
    }


def noisy(strike: dict[str, float], spec: LevelSpec, rng: random.Random) -> dict[str, float]:
    """The stroke actually played: the chosen one with the level's aim and power error."""
    angle = strike["angle"] + rng.gauss(0.0, spec.angle_noise)
    speed = strike["speed"] * (1.0 + rng.gauss(0.0, spec.speed_noise))
    return strike_dict(angle, speed, strike["side"], strike["height"])


def cue_ball_of(snapshot: Mapping[str, Any], player: str) -> str:
    cue = snapshot["players"][seat_of(snapshot, player)].get("cue_ball")
    if not cue:
        raise NoMoveError(f"{player} has no cue ball yet")
    return str(cue)


def _opponent_cue(snapshot: Mapping[str, Any], player: str) -> str:
    return "white2" if cue_ball_of(snapshot, player) == "white1" else "white1"


def visit_of(snapshot: Mapping[str, Any]) -> Mapping[str, Any]:
    return snapshot.get("visit") or {}


def in_hand(snapshot: Mapping[str, Any]) -> bool:
    """K-7.2 applies: the cue ball was placed by hand this visit (every shoot-out shot is from hand)."""
    return bool(visit_of(snapshot).get("from_hand")) or snapshot.get("phase") == "shootout"
