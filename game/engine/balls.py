"""Ball ids, ball specification and the state of one ball.

Every loop over balls in the engine goes through ``BALL_IDS`` (a tuple, fixed order) and never over a
set or a hash-ordered view, so a shot is byte-identical whatever ``PYTHONHASHSEED`` is.
"""

from __future__ import annotations

from dataclasses import dataclass

#: The five Kaisa balls (K-1.7) in the fixed order used for all iteration, tie-breaks and output.
BALL_IDS: tuple[str, ...] = ("white1", "white2", "red1", "red2", "kaisa")

#: Cue balls, the ones a Strike may hit (K-1.7).
CUE_BALL_IDS: tuple[str, ...] = ("white1", "white2")

#: Position of each id in ``BALL_IDS``; used to sort ids deterministically.
BALL_ORDER: dict[str, int] = {ball_id: index for index, ball_id in enumerate(BALL_IDS)}

Vec2 = tuple[float, float]
Vec3 = tuple[float, float, float]


@dataclass(frozen=True, slots=True)
class BallSpec:
    """Physical constants of one ball: SI units (m, kg).

    All Kaisa balls share one spec; the table carries it (``TableSpec.ball``) so the ``ball_diameter``
    flag of K-1.2 changes every ball at once.
    """

    radius: float = 0.034
    mass: float = 0.220

    @property
    def diameter(self) -> float:
        return 2.0 * self.radius

    @property
    def inertia(self) -> float:
        """Moment of inertia of a solid sphere, 2/5 m R^2 (kg m^2)."""
        return 0.4 * self.mass * self.radius * self.radius


@dataclass(frozen=True, slots=True)
class BallState:
    """Where one ball is and how it moves, in the coordinates of K-2.

    position (m), velocity (m/s) of the centre on the cloth, spin (rad/s) the angular velocity
    (wx, wy, wz), z up: a ball rolling along +x at speed v has wy = +v / R.
    """

    position: Vec2
    velocity: Vec2 = (0.0, 0.0)
    spin: Vec3 = (0.0, 0.0, 0.0)

    def __post_init__(self) -> None:
        # Normalise to tuples of floats so callers may pass lists or ints (JSON, snapshots).
        object.__setattr__(self, "position", (float(self.position[0]), float(self.position[1])))
        object.__setattr__(self, "velocity", (float(self.velocity[0]), float(self.velocity[1])))
        object.__setattr__(self, "spin", (float(self.spin[0]), float(self.spin[1]), float(self.spin[2])))

    @property
    def at_rest(self) -> bool:
        return self.velocity == (0.0, 0.0) and self.spin == (0.0, 0.0, 0.0)


def ordered_ids(ids: object) -> tuple[str, ...]:
    """The ids of ``ids`` (any iterable of known ball ids) in ``BALL_IDS`` order."""
    return tuple(sorted(ids, key=BALL_ORDER.__getitem__))  # type: ignore[call-overload]
