"""Errors the physics raises: bad input is a ``ValueError``, a runaway shot a ``RuntimeError``."""

from __future__ import annotations


class StrikeError(ValueError):
    """The strike (or the ball layout it is played on) cannot be simulated.

    Raised for a strike beyond ``strike_limits.STRIKE_LIMITS`` (a miscue: tip offset beyond 0.6 R; a speed
    outside (0, 9] m/s; an angle beyond one turn), a non-finite number, a struck ball that is not on the
    table, or an unknown ball id. Callers answer it as refused input.
    """


class SimulationCapError(RuntimeError):
    """A shot exceeded the event cap or the simulated-time cap (K-10.3).

    It is an error and not a silent freeze: the rules reject the shot and restore the position.
    """
