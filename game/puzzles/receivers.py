"""What the puzzles hear from the matches (issue 29 item 4): a stored shot analysis makes the puzzles of
its match (rated and finished only: game.puzzles.services.puzzles_from_analysis decides). Connected in
game.apps; the matches never import the puzzles."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from game.models import Match
from game.puzzles.services import puzzles_from_analysis


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
