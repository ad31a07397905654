"""What the clubs hear from the other domains: a tournament finished, so the club's ranking
series keep its placings. Connected in game.apps; the tournaments never import the clubs."""

from __future__ import annotations

from typing import Any

from game.clubs.services import series_placings_record
from game.models import Tournament


def on_tournament_finished(sender: Any, *, tournament: Tournament, **kwargs: Any) -> None:
    """Inside the transaction that finished the tournament: its placings commit or roll back with it."""
    series_placings_record(tournament=tournament)
