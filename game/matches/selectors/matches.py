"""Match reads for the online layer: what a socket gets on connect, catch-up, presence, the lobby."""

from __future__ import annotations

import time
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count, Exists, F, OuterRef, Q, Subquery, Value
from django.db.models.functions import Coalesce, NullIf

from game.common.names import profile_name
from game.matches.hooks import HOOKS
from game.matches.selectors.history import match_history
from game.matches.selectors.match_result import match_stored_result
from game.matches.selectors.match_state import (
    bot_seats,
    clock_info,
    engine_names,
    fresh_since,
    pending_of,
    player_name,
    seat_of,
    seats_present,
    state_of,
)
from game.matches.selectors.snapshot_parts import Parts, SnapshotParts
from game.matches.selectors.team_seats import team_info, team_lineup, team_seats
from game.models import ChatMessage, Match, MatchConnection, MatchEvent, Profile
from game.models.tournaments import TournamentPairing
from game.realtime import outbound

#: A client further behind than this gets a full snapshot instead of the missed events.
CATCH_UP_MAX_EVENTS = 50
#: No shot runs longer than the engine's 60 s cap: an older shot has certainly stopped.
LAST_SHOT_WINDOW = 61.0
OPEN_MATCHES_SHOWN = 50

AnyUser = User | AnonymousUser


def _profile(user: Any) -> Profile | None:
    if user is None:
        return None
    return Profile.objects.filter(user=user).first()


def match_info(*, match: Match) -> dict[str, Any]:
    """The match's frame: seats, options and result (the `match` of `snapshot` and `started`)."""
    names = engine_names(match)
    players: list[dict[str, Any] | None] = []
    for seat, user in enumerate((match.player1, match.player2)):
        profile = _profile(user)
        if user is None or profile is None:
            players.append(None)
            continue
        players.append(
            {
                "seat": seat,
                "name": names[seat] or profile.display_name,
                "rating": round(profile.rating),
                "is_guest": profile.is_guest,
                "is_bot": profile.is_bot,
                "bot_level": profile.bot_level,
            }
        )
    winner_seat = None
    if match.winner_id is not None:
        winner_seat = 0 if match.winner_id == match.player1_id else 1
    return {
        "id": match.id,
        "status": match.status,
        "rated": match.rated,
        "club": match.club.slug if match.club is not None else None,
        "players": players,
        "time_limit": match.time_limit,
        "shot_clock": match.shot_clock,
        "winner": names[winner_seat] if winner_seat is not None else None,
        "reason": match.result_reason or None,
        **({"teams": team_info(match=match)} if match.team_size else {}),
    }


def match_get(*, match_id: str) -> Match | None:
    return Match.objects.select_related("player1", "player2", "club").filter(pk=match_id).first()


def match_visible(*, match_id: str, user: AnyUser, session: Any = None, key: Any = None) -> bool:
    """Whether this visitor may see the match: its players always may; a match of an event that is
    hidden from the visitor (game/tournaments/visibility.py, through the hook) is answered as one that
    does not exist, on its page, its replay and its socket. A match that does not exist is visible:
    its own reads say it is not there."""
    if HOOKS.event_visible(match_id=match_id, user=user, session=session, key=key):
        return True
    match = Match.objects.filter(pk=match_id).only("player1_id", "player2_id", "team_size").first()
    return match is not None and seat_of(match, user) is not None


def match_role(*, match: Match, user: AnyUser) -> tuple[str, int | None, str]:
    """("player" or "spectator", seat, the name the page shows for this visitor)."""
    seat = seat_of(match, user)
    if seat is not None:
        return "player", seat, player_name(match, user) or ""
    profile = _profile(user) if user is not None and user.is_authenticated else None
    return "spectator", None, profile.display_name if profile else ""


#: The version-bound parts of this process's snapshots (game.matches.selectors.snapshot_parts).
SNAPSHOT_PARTS = SnapshotParts()


def match_snapshot_message(*, match_id: str, user: AnyUser) -> dict[str, Any] | None:
    """The full `snapshot` event a socket gets on connect or when too far behind.

    One query for the row (with the newest chat message's id), and the rest from `SNAPSHOT_PARTS`
    while the version is the one they were built at: a restart's 700 reconnections built each part
    700 times (docs/decisions/snapshot-parts-per-version.md)."""
    match = (
        Match.objects.select_related("player1", "player2", "club")
        .annotate(chat_top=Subquery(ChatMessage.objects.filter(match=OuterRef("pk")).order_by("-id").values("id")[:1]))
        .filter(pk=match_id)
        .first()
    )
    if match is None:
        return None
    role, seat, name = match_role(match=match, user=user)
    # What else the row says that the parts show: a match aborted or decided keeps its version only if
    # no event was written, so its status and result are in the key as well.
    key = (match.version, match.status, match.winner_id, match.result_reason, match.result_code)
    parts = SNAPSHOT_PARTS.get(match.pk, key, lambda: _version_parts(match))
    top: int | None = getattr(match, "chat_top", None)  # the annotation above
    data = {
        "state": parts.state,
        "match": parts.info,
        "you": {"name": name, "role": role, "seat": seat},
        "clock": clock_info(match),
        "history": parts.history,
        "result": parts.result,
        # The recent chat this reader may read (unversioned, so a reload or reconnect loses none).
        "chat": SNAPSHOT_PARTS.chat(parts, role, top, lambda: HOOKS.chat_recent(match_id=match.pk, role=role)),
    }
    last = parts.last_shot
    if last is not None and last["started_at"] >= time.time() - LAST_SHOT_WINDOW:
        data["last_shot"] = last
    return outbound.versioned("snapshot", data, match.version)


def _version_parts(match: Match) -> Parts:
    return Parts(
        state=state_of(match.snapshot),
        info=match_info(match=match),
        history=match_history(match=match),
        result=match_stored_result(match=match),
        last_shot=match_last_shot(match=match),
    )


def match_last_shot(*, match: Match) -> dict[str, Any] | None:
    """The latest shot of this version, however old: the snapshot sends it while it may still be rolling
    (`LAST_SHOT_WINDOW`), so a socket that joins mid-shot animates it from the right moment instead of
    jumping to the end (the client decides from `started_at` and the segments whether any is left)."""
    row = (
        MatchEvent.objects.filter(match=match, type="shot", version__gte=match.version - 1)
        .order_by("-version")
        .only("data", "created_at")
        .first()
    )
    if row is None:
        return None
    return {
        "segments": row.data.get("segments"),
        "started_at": row.created_at.timestamp(),
        "player": row.data.get("player"),
        "verdict": row.data.get("verdict"),
    }


def match_events_since(*, match_id: str, version: int, until: int | None = None) -> list[dict[str, Any]] | None:
    """Stored events after `version` (up to `until`), or None when a snapshot is the better answer
    (too many missed, or the client claims a version the match never reached)."""
    current = Match.objects.filter(pk=match_id).values_list("version", flat=True).first()
    if current is None or version > current:
        return None
    top = current if until is None else min(until, current)
    if top - version > CATCH_UP_MAX_EVENTS:
        return None
    rows = MatchEvent.objects.filter(match_id=match_id, version__gt=version, version__lte=top).order_by("version")
    events = [outbound.stored(row.type, row.data, row.version) for row in rows]
    if len(events) != top - version:
        return None
    return events


def match_presence(*, match_id: str) -> dict[str, Any]:
    """Who is connected (any process) and how many watch: the `presence` message's data. People,
    not sockets: spectators are distinct viewers (game.realtime.presence.viewer_of; a row without one counts
    alone), and a player is connected while any of his sockets' rows is fresh.

    Read on every change of a match's sockets (coalesced: game.realtime.presence), so in few statements:
    the row without its users, the seated connections, the spectators as a count, and the players'
    profiles only for a seat nobody holds (a bot is always there)."""
    # Without the engine state (tens of kB of JSON decoded on every read): its players' names are
    # read as one key of it (a restart's storm read every match's presence each second).
    match = Match.objects.defer("snapshot").annotate(engine_players=F("snapshot__players")).filter(pk=match_id).first()
    if match is None:
        return {"players": [], "spectators": 0}
    fresh = MatchConnection.objects.filter(match_id=match_id, seen_at__gte=fresh_since())
    seated = list(fresh.filter(seat__isnull=False).values_list("seat", "user_id"))
    # The crowd as one number counted by the database: a featured match's 2,000 spectator rows were read
    # into Python and counted there, once a second per process while they came and went.
    spectators = fresh.filter(seat__isnull=True).aggregate(
        viewers=Count(Coalesce(NullIf("viewer", Value("")), "channel_name"), distinct=True)
    )["viewers"]
    live = {seat for seat, _user in seated if seat is not None}
    if match.team_size:  # every member by name, with his team as the seat
        here = {user for _seat, user in seated}
        lineup = team_lineup(match)
        members = [
            {
                "name": lineup[s.team][i] if i < len(lineup[s.team]) else "",
                "seat": s.team,
                "connected": s.user_id in here,
            }
            for s in team_seats(match)
            for i in [s.order]
        ]
        return {"players": members, "spectators": spectators}
    ids = [match.player1_id, match.player2_id]
    there = seats_present(live, bot_seats(match, (seat for seat in (0, 1) if seat not in live)))
    names = engine_names(match, getattr(match, "engine_players", None) or [])
    return {
        "players": [
            {"name": names[seat], "seat": seat, "connected": seat in there}
            for seat, user_id in enumerate(ids)
            if user_id is not None
        ],
        "spectators": spectators,
    }


def match_open_list(*, limit: int = OPEN_MATCHES_SHOWN) -> list[dict[str, Any]]:
    """Matches waiting for an opponent, newest first: the lobby's list."""
    rows = (
        Match.objects.filter(
            Q(player2__isnull=True) | Q(team_size__isnull=False),
            status=Match.Status.OPEN,
            tournament_pairing__isnull=True,
            challenged__isnull=True,  # a challenge waits for its one player (game/lobby/services/challenges.py)
        )
        .select_related("player1__profile", "club")
        .order_by("-created_at")[:limit]
    )
    result = []
    for match in rows:
        profile = getattr(match.player1, "profile", None) if match.player1 else None
        result.append(
            {
                "id": match.id,
                "url": f"/m/{match.id}/",
                "creator": profile.display_name if profile else None,
                "rating": round(profile.rating) if profile else None,
                "creator_is_guest": bool(profile and profile.is_guest),
                "rated": match.rated,
                # a team match: members per team and the places still open
                "team_size": match.team_size,
                "open_places": 2 * match.team_size - match.team_seats.count() if match.team_size else None,
                "time_limit": match.time_limit,
                "shot_clock": match.shot_clock,
                "club": match.club.slug if match.club is not None else None,
                "created_at": match.created_at.isoformat(),
            }
        )
    return result


def match_live_count() -> int:
    return Match.objects.filter(status=Match.Status.ACTIVE).aggregate(n=Count("id"))["n"]


#: "Your games in progress" shows at most this many (newest first).
IN_PROGRESS_SHOWN = 20


def matches_in_progress_for(*, user: AnyUser) -> list[dict[str, Any]]:
    """The visitor's own live matches (and the open ones waiting for an opponent), with the way back
    in: the home page and the lobby list them so a closed tab never loses a game."""
    if user is None or not user.is_authenticated:
        return []
    rows = (
        Match.objects.filter(
            Q(player1=user) | Q(player2=user) | Q(team_seats__user=user),
            status__in=(Match.Status.ACTIVE, Match.Status.OPEN),
        )
        .select_related("player1__profile", "player2__profile", "challenged__profile")
        .annotate(in_tournament=Exists(TournamentPairing.objects.filter(match=OuterRef("pk"))))
        .distinct()
        .order_by("-updated_at")[:IN_PROGRESS_SHOWN]
    )
    result = []
    for match in rows:
        seat = seat_of(match, user)
        names = engine_names(match)
        snapshot = match.snapshot or {}
        players = snapshot.get("players") or []
        scores = [int(p.get("score", 0)) for p in players] if len(players) == 2 else None
        pending = [name for name, _ in pending_of(snapshot)]
        opponent = names[1 - seat] if seat is not None else None
        result.append(
            {
                "id": match.id,
                "url": f"/m/{match.id}/",
                "opponent": opponent,
                "waiting": match.status == Match.Status.OPEN,
                # Both sides in seat order, each score between the names as every page prints a score.
                "players": names,
                "scores": scores,
                # in a team match, my own visit (the member's name), not my team's
                "your_turn": seat is not None
                and (player_name(match, user) if match.team_size else names[seat]) in pending,
                "rated": match.rated,
                # what kind of match, so a team or tournament match reads as one
                "team_size": match.team_size,
                "tournament": bool(getattr(match, "in_tournament", False)),
                "challenged": profile_name(user=match.challenged) if match.challenged_id else None,
            }
        )
    return result


def computer_level_against(*, match: Match, seat: int | None) -> int | None:
    """The computer's level when the player in `seat` plays the computer (one-to-one), else None: the
    end card's "Play again" starts a new match at that level."""
    if seat not in (0, 1) or match.team_size:
        return None
    other = match.player2_id if seat == 0 else match.player1_id
    if other is None:
        return None
    level = Profile.objects.filter(user_id=other, is_bot=True).values_list("bot_level", flat=True).first()
    return int(level) if level is not None else None
