"""What the real-time layer needs of the domains, registered by them: realtime imports no domain.

The sockets' fan-out and presence read and write a few things only a domain knows (the lobby's open
matches, a match's tournament, the connection rows and the disconnect grace). The domains hand those
functions over once, in `game.apps.GameConfig.ready` (`register`), each into a typed slot: mypy checks
the registered function against the slot's type, and a slot used before it is registered says so
instead of failing obscurely. `tests/architecture` checks that every hook is registered and that
nothing under game/realtime imports a domain.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from django.contrib.auth.models import AnonymousUser, User

from game.common import hooks
from game.common.hooks import Slot

__all__ = ["HOOKS", "Changed", "Hooks", "register"]

#: (match id, new `clock` data or None) for each match whose presence changed: the caller publishes
#: `presence` for each, and `clock` where it is not None.
Changed = list[tuple[str, dict[str, Any] | None]]


class TournamentOfMatch(Protocol):
    """The tournament a match is played for, if any (the live page's socket group)."""

    def __call__(self, *, match_id: str) -> int | None: ...


class MatchPresence(Protocol):
    """Who is connected to a match and how many watch: the `presence` message's data."""

    def __call__(self, *, match_id: str) -> dict[str, Any]: ...


class SeatConnected(Protocol):
    """Record a socket opening or closing; the new `clock` data when the disconnect grace changed."""

    def __call__(
        self,
        *,
        match_id: str,
        channel_name: str,
        user: User | AnonymousUser,
        connected: bool,
        process: str = "",
        boot: str = "",
        viewer: str | None = None,
    ) -> dict[str, Any] | None: ...


class ConnectionsWrite(Protocol):
    """Spectators' connection rows in bulk: `add` (match id, channel name, user id, viewer), `remove`."""

    def __call__(
        self, *, add: list[tuple[str, str, int | None, str | None]], remove: list[str], process: str, boot: str
    ) -> None: ...


class ConnectionsRelease(Protocol):
    """Drop the connection rows of a server process (an earlier start of it, or itself exiting)."""

    def __call__(self, *, process: str, boot: str) -> Changed: ...


class Heartbeat(Protocol):
    """The stored version of each match, the sockets in `touch` marked alive, stale rows purged."""

    def __call__(self, *, match_ids: list[str], touch: list[str], purge: bool) -> tuple[dict[str, int], Changed]: ...


class Hooks:
    """The registered functions, one typed slot each (the domain function that fills it: game/apps.py)."""

    lobby_matches = Slot[Callable[[], list[dict[str, Any]]]]()  # matches: the lobby's open matches
    tournament_of_match = Slot[TournamentOfMatch]()
    match_presence = Slot[MatchPresence]()
    seat_connected = Slot[SeatConnected]()
    connections_write = Slot[ConnectionsWrite]()
    connections_release_process = Slot[ConnectionsRelease]()
    connections_release_boot = Slot[ConnectionsRelease]()
    heartbeat = Slot[Heartbeat]()
    wake_bot = Slot[Callable[[str], None]]()  # matches: let the computer act if it is its turn

    def missing(self) -> list[str]:
        """The hooks nobody registered (none once the app is ready)."""
        return hooks.missing(self)


HOOKS = Hooks()


def register(
    *,
    lobby_matches: Callable[[], list[dict[str, Any]]],
    tournament_of_match: TournamentOfMatch,
    match_presence: MatchPresence,
    seat_connected: SeatConnected,
    connections_write: ConnectionsWrite,
    connections_release_process: ConnectionsRelease,
    connections_release_boot: ConnectionsRelease,
    heartbeat: Heartbeat,
    wake_bot: Callable[[str], None],
) -> None:
    """Hand realtime every domain function it calls (all at once: one forgotten fails type checking)."""
    HOOKS.lobby_matches = lobby_matches
    HOOKS.tournament_of_match = tournament_of_match
    HOOKS.match_presence = match_presence
    HOOKS.seat_connected = seat_connected
    HOOKS.connections_write = connections_write
    HOOKS.connections_release_process = connections_release_process
    HOOKS.connections_release_boot = connections_release_boot
    HOOKS.heartbeat = heartbeat
    HOOKS.wake_bot = wake_bot
