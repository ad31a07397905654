"""The one service entry for a player's inputs to a match: the typed message the socket parsed (or the
computer player made) goes in, the committed change comes out. A move, a resignation or an abort takes
the shared input path (game.matches.services.inputs); a claimed timeout fires the match's due server
deadlines (game.matches.services.deadlines)."""

from __future__ import annotations

from game.matches.selectors.match_state import AnyUser
from game.matches.services.base import Applied
from game.matches.services.deadlines import match_claim_timeout
from game.matches.services.inputs import apply_input
from game.realtime import protocol


def match_input(*, match_id: str, user: AnyUser, message: protocol.MatchInput) -> Applied:
    """Apply `message` from `user` to the match `match_id` (MatchError if refused)."""
    if isinstance(message, protocol.ClaimTimeout):
        return match_claim_timeout(match_id=match_id, user=user, ack=message.ack)
    return apply_input(match_id=match_id, user=user, message=message)
