"""The log of a tournament's fixed and corrected results, for its club's admins: each line names
the game (its two players and round), the result before and after (a correction at the club keeps
both scores; an online fix keeps the winner), who made it, when, and why. The page words the line
and shows the time on the club's clock."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from game.matches.selectors.match_result import score_line
from game.models.tournaments import Tournament, TournamentEntry, TournamentResultFix


def _line(record: dict[str, Any], first: int, names: dict[int, str]) -> str:
    """A kept result as the pages write one: `60 – 41`, `45v – 52` for the shoot-out, and the
    winner named when the scores alone do not say it (an online fix sets the winner only)."""
    scores = record.get("scores") or [0, 0]
    winner = record.get("winner")
    seat = None if winner is None else (0 if winner == first else 1)
    line = score_line(scores=scores, winner_seat=seat, how=str(record.get("how") or ""))
    ahead = None if scores[0] == scores[1] else (0 if scores[0] > scores[1] else 1)
    if seat is not None and seat != ahead:
        line = gettext("%(score)s, won by %(name)s") % {"score": line, "name": names.get(int(winner or 0), "?")}
    return line


def _of_game(record: dict[str, Any], line: str) -> str:
    """A team game's game (its number kept in the record) named before its result."""
    if "game" not in record:
        return line
    return gettext("game %(number)s: %(score)s") % {"number": record["game"], "score": line}


def fix_log(*, tournament: Tournament) -> list[dict[str, Any]]:
    """The tournament's fixes, oldest first (see the module's docstring)."""
    names = dict(TournamentEntry.objects.filter(tournament=tournament).values_list("pk", "name"))
    fixes = (
        TournamentResultFix.objects.filter(pairing__tournament=tournament)
        .select_related("fixed_by__profile", "pairing__round")
        .order_by("created_at", "pk")
    )
    return [
        {
            "at": fix.created_at,
            "by": getattr(getattr(fix.fixed_by, "profile", None), "display_name", None),
            "first": names.get(fix.pairing.first_id, "?"),
            "second": names.get(fix.pairing.second_id or 0, "?"),
            "round": fix.pairing.round.number,
            "before": _of_game(fix.before, _line(fix.before, fix.pairing.first_id, names)),
            "after": _of_game(fix.after, _line(fix.after, fix.pairing.first_id, names)),
            "reason": fix.reason,
        }
        for fix in fixes
    ]
