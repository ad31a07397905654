"""What an event's pages need of the packages built on the tournaments, registered by them: the
tournaments import none of them.

The real games scored at an event's tables (game/realgames) stand on the tournaments (a game's end is
entered in the draw through the tournaments' own service), so the event's live and TV pages read those
games through this slot, filled once in `game.apps.GameConfig.ready`.
"""

from __future__ import annotations

from typing import Any, Protocol

from game.common import hooks
from game.common.hooks import Slot

__all__ = ["HOOKS", "TournamentHooks", "register"]


class RealGames(Protocol):
    """The games scored at their tables of these pairings, by pairing id: each a board (`game`, the
    real game's snapshot; `version`; `json`, the snapshot for the page's script)."""

    def __call__(self, *, pairing_ids: list[int]) -> dict[int, dict[str, Any]]: ...


class TournamentHooks:
    real_games = Slot[RealGames]()

    def missing(self) -> list[str]:
        """The hooks nobody registered (none once the app is ready)."""
        return hooks.missing(self)


HOOKS = TournamentHooks()


def register(*, real_games: RealGames) -> None:
    HOOKS.real_games = real_games
