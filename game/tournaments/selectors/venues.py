"""The places of an event played at several places, as its pages show them: each place with its
tables (numbered through the places: the host's 1..n first) and its players, and where each game
is played (services/venues.py)."""

from __future__ import annotations

from typing import Any

from game.models.tournaments import Tournament, TournamentEntry, TournamentVenue


def venues_view(*, tournament: Tournament) -> dict[str, Any] | None:
    """The places in order, each with its first and last table and its players by name (once the
    entries closed), and the round the draws are joined at; None: one place."""
    if tournament.join_round is None:
        return None
    rows = list(TournamentVenue.objects.filter(tournament=tournament).order_by("number"))
    if not rows:
        return None
    players: dict[int, list[str]] = {v.pk: [] for v in rows}
    for venue_id, name in TournamentEntry.objects.filter(tournament=tournament, venue__isnull=False).values_list(
        "venue_id", "name"
    ):
        players[venue_id].append(name)
    places, first = [], 1
    for venue in rows:
        places.append(
            {
                "name": venue.name,
                "short": venue.short_name,
                "tables": venue.tables,
                "first_table": first,
                "last_table": first + venue.tables - 1,
                "players": sorted(players[venue.pk]),
            }
        )
        first += venue.tables
    return {"places": places, "join_round": tournament.join_round}


def table_place(view: dict[str, Any] | None, table: int) -> tuple[str, int] | None:
    """The place a table (numbered through the places) is at, and its number there."""
    if view is None:
        return None
    for place in view["places"]:
        if place["first_table"] <= table <= place["last_table"]:
            return place["short"], table - place["first_table"] + 1
    return None
