"""When an input made against an older version still counts: the lag (K-3.1), the one moment both
players act together.

Every input names the version it was made against, and an input against an older version is refused
as `stale`: the position it was aimed at has moved on, and that refusal is what keeps a double click or
a second tab from playing twice (docs/protocol.md, "Envelope"). The lag is different. Both players lag
at once, each on his own copy of the start layout (each lag is simulated with only its own white
besides the colours), so the other player's strike changes nothing a lag was made against: a lag sent
90 ms after the opponent's, before the page heard of it, is the strike the lag phase waits for, not a
stale one.

So a lag is not stale when every version since the one it names is another player's lag in the same
lag round (no winner, no re-lag among them: a new round is a new lag). Whether this player still owes a
strike is the engine's to say (`already_lagged`), so a second tab's lag in the same round is still
refused, and a repeated ack is still answered from the stored event before any of this (exactly once).
"""

from __future__ import annotations

from game.models import Match, MatchEvent

#: A lag round has one strike per side, so at most one other player's lag can come between a lag made
#: and its arrival; a few more are read before giving up (a team match's lag is its first member's).
MAX_LAGS_BETWEEN = 3


def lag_made_in_this_round(match: Match, expected_version: int, name: str) -> bool:
    """Whether a lag by ``name`` made against ``expected_version`` is still a lag of the current round:
    every event after that version (up to the locked row's) is another player's lag that neither
    decided the lag nor called a re-lag. The caller holds the row lock, so the events read are all."""
    gap = match.version - expected_version
    if gap <= 0 or gap > MAX_LAGS_BETWEEN:
        return False
    rows = list(
        MatchEvent.objects.filter(match=match, version__gt=expected_version, version__lte=match.version).values_list(
            "type", "data__kind", "data__player", "data__verdict__relag", "data__verdict__lag_winner"
        )
    )
    if len(rows) != gap:
        return False
    return all(
        t == "shot" and kind == "lag" and player != name and relag is not True and winner is None
        for t, kind, player, relag, winner in rows
    )
