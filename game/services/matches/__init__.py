"""Match writes: the only code that changes a match (ARCHITECTURE.md section 1, "one authority").

Split by concern: `lifecycle` (create, join, cancel, start, resign, abort), `inputs` (the shared input
path every move and server clock takes, and the moves themselves), `presence` (connected seats and the
disconnect grace), on `base` (MatchError, Applied, the row lock, the stored event). The reads they use
(`state_of`, `seat_of`, `engine_names`, `clock_info`, …) are selectors: game.selectors.match_state.

This package re-exports the services callers use, so `from game.services.matches import match_join`
and `match_services.match_shoot(...)` keep working.
"""

from game.services.matches.base import Applied, MatchError
from game.services.matches.inputs import (
    commit_change,
    how_it_ended,
    match_choose_break,
    match_lag,
    match_place,
    match_shoot,
    record_input,
)
from game.services.matches.lifecycle import (
    SHOT_CLOCK_RANGE,
    TIME_LIMIT_RANGE,
    match_abort,
    match_cancel,
    match_create,
    match_join,
    match_resign,
)
from game.services.matches.presence import match_set_connected

__all__ = [
    "SHOT_CLOCK_RANGE",
    "TIME_LIMIT_RANGE",
    "Applied",
    "MatchError",
    "commit_change",
    "how_it_ended",
    "match_abort",
    "match_cancel",
    "match_choose_break",
    "match_create",
    "match_join",
    "match_lag",
    "match_place",
    "match_resign",
    "match_set_connected",
    "match_shoot",
    "record_input",
]
