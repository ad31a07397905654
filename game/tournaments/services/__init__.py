"""Tournament writes: setup (create, enter, close the entries, swap a pairing) and play
(rounds, matches, results, no-shows, fixes). Re-exported here for callers."""

from game.tournaments.services.base import TournamentError
from game.tournaments.services.clocks import tournament_clocks_fire, tournament_start_now
from game.tournaments.services.club import BoardResult, tournament_result_from_table
from game.tournaments.services.fixes import tournament_result_fix
from game.tournaments.services.play import tournament_match_finished
from game.tournaments.services.setup import (
    tournament_close_entries,
    tournament_create,
    tournament_delete,
    tournament_enter,
    tournament_pairing_swap,
    tournament_withdraw,
)
from game.tournaments.services.walk_ins import (
    club_player_link,
    tournament_walk_in_enter,
    tournament_walk_in_link,
)

__all__ = [
    "BoardResult",
    "TournamentError",
    "club_player_link",
    "tournament_clocks_fire",
    "tournament_close_entries",
    "tournament_create",
    "tournament_delete",
    "tournament_enter",
    "tournament_match_finished",
    "tournament_pairing_swap",
    "tournament_result_fix",
    "tournament_result_from_table",
    "tournament_start_now",
    "tournament_walk_in_enter",
    "tournament_walk_in_link",
    "tournament_withdraw",
]
