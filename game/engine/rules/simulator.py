"""The one door from the rules to the physics: :func:`physics_simulator`.

A :data:`Simulator` is any callable ``(table, balls, strike, ball) -> shot`` (``strike`` the player's
:class:`~game.engine.rules.strike.StrikeInput`, ``ball`` the white it is played on) whose shot has the public
surface of the physics ``Shot`` the rules read (``events``, ``final``, ``pocketed``, ``duration``,
``position_at``). The match takes one as a constructor argument, so tests hand it a scripted fake
(tests/rules/fakes.py) instead of patching anything, and the server hands it the real physics.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from game.engine import physics
from game.engine.balls import BALL_IDS, BallState
from game.engine.rules.errors import RuleError
from game.engine.rules.strike import StrikeInput
from game.engine.table import TableSpec

Vec2 = tuple[float, float]
Simulator = Callable[[TableSpec, Mapping[str, Vec2], StrikeInput, str], Any]


class PhysicsSimulator:
    """The real physics as a :data:`Simulator` (with its parameters; the default ones in play)."""

    def __init__(self, params: physics.PhysicsParams | None = None) -> None:
        self.params = physics.PhysicsParams() if params is None else params

    def __call__(self, table: TableSpec, balls: Mapping[str, Vec2], strike: StrikeInput, ball: str) -> Any:
        """Run the physics on ``balls`` (at rest) with ``strike`` on ``ball``; its refusals become
        RuleErrors (K-10.3: the event cap hit -> the shot is rejected and the position kept)."""
        states = {b: BallState(position=balls[b]) for b in BALL_IDS if b in balls}
        try:
            return physics.simulate(table, states, strike=strike.on(ball), params=self.params)
        except physics.SimulationCapError as exc:
            raise RuleError(
                "cap_hit", "the shot could not be simulated (event cap hit); the position is unchanged"
            ) from exc
        except physics.StrikeError as exc:
            raise RuleError("bad_strike", f"the physics refused the strike: {exc}") from exc


#: The simulator every match uses unless told otherwise.
physics_simulator = PhysicsSimulator()
