"""Match writes: the only code that changes a match (ARCHITECTURE.md section 1, "one authority").

Split by concern: `entry` (`match_input`, the one entry for a player's typed inputs), `lifecycle`
(create, join, cancel, start, resign, abort), `inputs` (the shared input path every move and server
clock takes), `presence` (connected seats and the
disconnect grace), on `base` (MatchError, Applied, the row lock, the stored event). The reads they use
(`state_of`, `seat_of`, `engine_names`, `clock_info`, …) are selectors: game.matches.selectors.match_state.

This package re-exports the services callers use, so `from game.matches.services import match_join`
and `match_services.match_input(...)` keep working. It is the matches' one public module of writes
(tests/architecture: no other domain imports the modules inside): what the domains built on matches
(the lobby's challenges and seeks, teams, tournaments, chat) need to write a match of their own is
named here too: the row lock, the stored event, the start of a match, the grace, the abandonment.
"""

from game.matches.services.analysis import (
    Requested,
    analysis_claim,
    analysis_fail,
    analysis_finish,
    analysis_progress,
    analysis_request,
    analysis_store_motion,
    analysis_user_limit,
    analysis_waiting,
)
from game.matches.services.base import Applied, MatchError, lock, store_event
from game.matches.services.deadlines import match_abandon
from game.matches.services.entry import match_input
from game.matches.services.exhibition import exhibitions_to_wake, match_exhibition_ensure
from game.matches.services.inputs import commit_change, how_it_ended, record_input
from game.matches.services.lifecycle import (
    SHOT_CLOCK_RANGE,
    TIME_LIMIT_RANGE,
    check_range,
    clock_settings,
    match_abort,
    match_cancel,
    match_create,
    match_join,
    match_resign,
    start,
)
from game.matches.services.presence import connected_seats, match_set_connected, refresh_grace

__all__ = [
    "SHOT_CLOCK_RANGE",
    "TIME_LIMIT_RANGE",
    "Applied",
    "MatchError",
    "Requested",
    "analysis_claim",
    "analysis_fail",
    "analysis_finish",
    "analysis_progress",
    "analysis_request",
    "analysis_store_motion",
    "analysis_user_limit",
    "analysis_waiting",
    "check_range",
    "clock_settings",
    "commit_change",
    "connected_seats",
    "exhibitions_to_wake",
    "how_it_ended",
    "lock",
    "match_abandon",
    "match_abort",
    "match_cancel",
    "match_create",
    "match_exhibition_ensure",
    "match_input",
    "match_join",
    "match_resign",
    "match_set_connected",
    "record_input",
    "refresh_grace",
    "start",
    "store_event",
]
