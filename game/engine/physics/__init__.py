"""Event-based billiards physics for Kaisa (ARCHITECTURE.md 3): pure Python, standard library only.

``simulate(table, balls, strike, params) -> Shot``; see ``simulate.py`` for the set-out and the rest state,
``event_loop.py`` for the loop and its event handlers, ``events.py`` for contact times, ``motion.py`` for
the cloth, ``collisions/`` for the contact models, ``cue.py`` for the strike, ``segments.py`` for the wire.
Event kinds are ``game.engine.event_kinds.EventKind``; strike limits ``game.engine.strike_limits``.
"""

from game.engine.physics.errors import SimulationCapError, StrikeError
from game.engine.physics.events import Event
from game.engine.physics.params import PhysicsParams
from game.engine.physics.segments import Shot
from game.engine.physics.simulate import ENGINE_VERSION, simulate
from game.engine.physics.strike import Strike

__all__ = [
    "ENGINE_VERSION",
    "Event",
    "PhysicsParams",
    "Shot",
    "SimulationCapError",
    "Strike",
    "StrikeError",
    "simulate",
]
