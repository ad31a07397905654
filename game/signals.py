"""What one domain tells the others, without knowing who listens: the matches, and a
tournament's end (the clubs' ranking series listen; tournaments never import clubs).

A domain that builds on matches (tournaments, team events) reacts to these; the matches code never
imports it. Receivers are connected in one place, `game.apps.GameConfig.ready`. Both signals are sent
inside the transaction that holds the match row, so what a receiver writes commits or rolls back with
the match (the meaning the direct calls had).
"""

from __future__ import annotations

from django.dispatch import Signal

__all__ = ["analysis_finished", "match_finished", "seat_arrived", "tournament_finished"]

#: A match finished or was aborted: `match` (closed, saved, its result recorded).
match_finished = Signal()

#: A seated player's socket came to an active match: `match` (locked) and `now` (game clock). Sent
#: for team matches only so far (the tournaments' no-show clock listens).
seat_arrived = Signal()

#: A tournament's final placings were set, or set again (a result fixed after its end): `tournament`
#: (finished, saved). Sent inside the transaction that finished it. A receiver reads the placings
#: through game.tournaments.selectors.placings; sending it again for a finished tournament is how a
#: change of an entry's identity (a walk-in joined to an account) reaches those who keep placings.
tournament_finished = Signal()

#: A match's shot analysis was stored: `match`, `report` (MatchAnalysis.as_dict()) and
#: `positions` (each analysed shot's `snapshot` and `player`, in the report's order; None when the
#: sender has none at hand). Sent inside the transaction that stored it (the puzzles listen).
analysis_finished = Signal()
