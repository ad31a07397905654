"""What the real-time layer needs of the domains, registered by them: realtime imports no domain.

The sockets' fan-out and presence read and write a few things only a domain knows (the lobby's open
matches, a match's tournament, the connection rows and the disconnect grace). The domains hand those
functions over once, in `game.apps.GameConfig.ready` (`register`); a function used before it is
registered says so instead of failing obscurely. `tests/architecture` checks that every hook is
registered and that nothing under game/realtime imports a domain.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["HOOKS", "Hooks", "register"]


class Hooks:
    """The registered functions, by name (each documented where it is registered: game/apps.py)."""

    #: Each registered in game.apps, with the domain function it is (its signature is that function's).
    NAMES = (
        "lobby_matches",  # selectors.matches.match_open_list
        "tournament_of_match",  # selectors.tournaments.tournament_of_match
        "match_presence",  # selectors.matches.match_presence
        "seat_connected",  # services.matches.match_set_connected
        "connections_write",  # services.connections.match_connections_write
        "connections_release_process",  # services.connections.match_connections_release_process
        "connections_release_boot",  # services.connections.match_connections_release_boot
        "heartbeat",  # services.connections.match_heartbeat
        "wake_bot",  # matches.consumer.schedule_bot_turn
    )

    def __init__(self) -> None:
        self._functions: dict[str, Callable[..., Any]] = {}

    def __getattr__(self, name: str) -> Callable[..., Any]:
        if name.startswith("_") or name not in Hooks.NAMES:
            raise AttributeError(name)
        try:
            return self._functions[name]
        except KeyError:
            raise RuntimeError(f"realtime hook {name!r} is not registered (game.apps registers them)") from None

    def missing(self) -> list[str]:
        """The hooks nobody registered (none once the app is ready)."""
        return [name for name in Hooks.NAMES if name not in self._functions]


HOOKS = Hooks()


def register(**functions: Callable[..., Any]) -> None:
    """Hand realtime the domains' functions it calls (by the names of `Hooks.NAMES`)."""
    unknown = sorted(set(functions) - set(Hooks.NAMES))
    if unknown:
        raise ValueError(f"no realtime hook is called {', '.join(unknown)}")
    HOOKS._functions.update(functions)
