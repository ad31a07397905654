"""What one domain tells the others, without knowing who listens (issue 27): the matches, so far.

A domain that builds on matches (tournaments, team events) reacts to these; the matches code never
imports it. Receivers are connected in one place, `game.apps.GameConfig.ready`. Both signals are sent
inside the transaction that holds the match row, so what a receiver writes commits or rolls back with
the match (the meaning the direct calls had).
"""

from __future__ import annotations

from django.dispatch import Signal

__all__ = ["match_finished", "seat_arrived"]

#: A match finished or was aborted: `match` (closed, saved, its result recorded).
match_finished = Signal()

#: A seated player's socket came to an active match: `match` (locked) and `now` (game clock). Sent
#: for team matches only so far (the tournaments' no-show clock listens).
seat_arrived = Signal()
