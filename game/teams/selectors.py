"""Team matches, the reads: a team match's seating is the match's own (game.matches.selectors.team_seats,
which the match code needs); the teams' pages and services read it from here."""

from __future__ import annotations

from game.matches.selectors.team_seats import (
    TEAM_SIZES,
    team_info,
    team_lineup,
    team_name,
    team_place,
    team_seats,
    team_winner,
)

__all__ = ["TEAM_SIZES", "team_info", "team_lineup", "team_name", "team_place", "team_seats", "team_winner"]
