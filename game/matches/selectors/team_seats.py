"""Team matches' seating, the reads: who sits in which team and in what order, the names the engine
knows them by, and the `teams` frame clients draw the HUD, the lobby and the end card from.

A team match is a Match with `team_size` (2 to 4) and one TeamSeat row per member: team 0 or 1 (the
sides of a one-to-one match: team 0 lags on the side y < W/2, K-3.1) and the member's order in his
team's rotation. `player1`/`player2` are each team's first member, so the code that speaks of two
seats (presence, the disconnect grace, the winner) works per team. Once started, the names are the
snapshot's (`teams`, `players`): like a one-to-one match, a member who renames himself keeps his
name in this match.

These are a match's own reads (the match code needs them to start a team match and name its seats);
game.teams builds its services on them and re-exports them as its selectors.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser, User

from game.engine.rules.snapshot import TEAM_SIZES
from game.models import Match, Profile, TeamSeat

__all__ = ["TEAM_SIZES", "team_info", "team_lineup", "team_name", "team_place", "team_seats", "team_winner"]

AnyUser = User | AnonymousUser


def team_name(first_member: str, size: int) -> str:
    """A team's name, the engine's side name: its first member and how many more ("ann +1"). The
    name goes into the engine's words, which are made in every reader's language, so it holds no word
    of any one language (it was "Team ann", English in a Finnish or Russian verdict)."""
    return f"{first_member} +{size - 1}"


def team_seats(match: Match) -> list[TeamSeat]:
    """The match's TeamSeat rows, by team then order, with their users' profiles."""
    return list(TeamSeat.objects.filter(match=match).select_related("user__profile").order_by("team", "order"))


def team_place(match: Match, user: AnyUser | None) -> tuple[int, int] | None:
    """(team, order) of ``user`` in this team match, or None (not a member, or not a team match)."""
    if not match.team_size or user is None or not user.is_authenticated:
        return None
    row = TeamSeat.objects.filter(match=match, user_id=user.pk).values_list("team", "order").first()
    return None if row is None else (int(row[0]), int(row[1]))


def _display_name(user: Any) -> str:
    profile = Profile.objects.filter(user=user).first()
    return profile.display_name if profile is not None else str(user.get_username())


def team_lineup(match: Match) -> list[list[str]]:
    """Each team's members' names in rotation order: the snapshot's once started, else the current
    display names of the seated members (gaps are not listed)."""
    teams = (match.snapshot or {}).get("teams")
    if teams and len(teams) == 2:
        return [list(teams[0]), list(teams[1])]
    lineup: list[list[str]] = [[], []]
    for seat in team_seats(match):
        lineup[seat.team].append(_display_name(seat.user))
    return lineup


def team_info(*, match: Match) -> dict[str, Any] | None:
    """The `teams` of the match frame: per team its name, its members in order (name, rating, guest,
    bot, and which of them plays the team's visit now or next) and its open places; None for 1 vs 1."""
    if not match.team_size:
        return None
    snapshot = match.snapshot or {}
    at_table = snapshot.get("at_table") or [0, 0]
    out = []
    seats = team_seats(match)
    lineup = team_lineup(match)
    for team in (0, 1):
        rows = [s for s in seats if s.team == team]
        members: list[dict[str, Any]] = []
        for i, seat in enumerate(rows):
            profile = getattr(seat.user, "profile", None)
            members.append(
                {
                    "name": lineup[team][i] if i < len(lineup[team]) else _display_name(seat.user),
                    "order": seat.order,
                    "rating": round(profile.rating) if profile is not None else None,
                    "is_guest": bool(profile and profile.is_guest),
                    "is_bot": bool(profile and profile.is_bot),
                    "at_table": bool(snapshot) and i == at_table[team],
                }
            )
        players = snapshot.get("players")
        name = (
            players[team]["name"]
            if players
            else (team_name(str(members[0]["name"]), match.team_size) if members else None)
        )
        out.append({"name": name, "members": members, "open": match.team_size - len(members)})
    return {"size": match.team_size, "teams": out}


def team_winner(*, match: Match) -> int | None:
    """The winning team (0 or 1) of a finished team match, None for none yet, a draw or an abort.
    `Match.winner` is the winning team's first member (`player1`/`player2`), so this is the one read
    a tournament needs to score a team result."""
    if not match.team_size or match.winner_id is None:
        return None
    return 0 if match.winner_id == match.player1_id else 1
