"""What the puzzles hear from the matches: a stored shot analysis makes the puzzles of
its match (rated and finished only: game.puzzles.services.puzzles_from_analysis decides). And from the
server's clocks: a server's first poll loads the shipped starter puzzles on a site that has none.
Connected in game.apps; the matches never import the puzzles."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.conf import settings

from game.common.db import db_async
from game.models import Match
from game.puzzles.services import puzzles_from_analysis, puzzles_starter_ensure

_started = False


def on_analysis_finished(
    sender: Any,
    *,
    match: Match,
    report: Mapping[str, Any],
    positions: Sequence[Mapping[str, Any]] | None = None,
    **kwargs: Any,
) -> None:
    """The analysed positions come with the signal, so the match is not replayed a second time."""
    puzzles_from_analysis(match, report, shots=positions)


async def starter_puzzles_at_start() -> None:
    """The server's first poll (each process once): a fresh install offers puzzles at once
    (settings.KAIZA_SHOWCASE), made from computer matches and shipped with the site."""
    global _started
    if _started or not settings.KAIZA_SHOWCASE:
        return
    _started = True
    await db_async(puzzles_starter_ensure)()
