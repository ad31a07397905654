"""Reads about players: profiles, rating history (and its chart), recent matches, the global leaderboard."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User  # the project's user model (AUTH_USER_MODEL is Django's)
from django.core.paginator import Page, Paginator
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext

from game.common import glicko2
from game.common.glicko2 import rating_label
from game.common.names import name_key, profile_name
from game.matches.selectors.live import matches_unlisted
from game.matches.selectors.match_state import match_scores
from game.models import Match, Profile, RatingChange, TeamSeat
from game.ratings.selectors import reason_text

LEADERBOARD_MIN_RATED_GAMES = 3
"""A player needs this many rated matches to be ranked: fewer and the rating is mostly the starting guess."""

LEADERBOARD_ACTIVE_DAYS = 90
"""...and a match within this many days: a Kaisa season is about three months, and a rank held by someone
who stopped playing blocks the people who are playing."""

LEADERBOARD_PAGE_SIZE = 25
RECENT_MATCHES = 15


def player_get(*, display_name: str) -> Profile | None:
    return Profile.objects.select_related("user").filter(display_name=display_name).first()


def account_named(*, named: str) -> Any:
    """The registered or guest account a club's director names by its display name (as display names
    are compared: game.common.names.name_key) or its user name in any case (None: no such account)."""
    named = named.strip()[:150]
    if not named:
        return None
    profile = Profile.objects.filter(name_key=name_key(named)).select_related("user").first()
    if profile is not None:
        return profile.user
    return User.objects.filter(username__iexact=named).first()


def leaderboard_global_queryset(*, now: Any = None) -> QuerySet[Profile]:
    """Eligible players, best first: real people (no guests or bots) with LEADERBOARD_MIN_RATED_GAMES
    rated matches who played within LEADERBOARD_ACTIVE_DAYS. Ties break on fewer games, then name, so
    the order is stable across pages."""
    now = now or timezone.now()
    return Profile.objects.filter(
        is_guest=False,
        is_bot=False,
        rated_games__gte=LEADERBOARD_MIN_RATED_GAMES,
        last_played_at__gte=now - timedelta(days=LEADERBOARD_ACTIVE_DAYS),
    ).order_by("-rating", "rated_games", "display_name")


def leaderboard_global(*, page: int | str | None = 1, per_page: int = LEADERBOARD_PAGE_SIZE) -> Page:
    """One page of the global leaderboard; every row carries its rank (1-based, across pages)."""
    paginated = Paginator(leaderboard_global_queryset(), per_page).get_page(page)
    records = rated_records(user_ids=[p.user_id for p in paginated.object_list])
    for offset, profile in enumerate(paginated.object_list, start=paginated.start_index()):
        profile.rank = offset
        profile.rating_label = rating_label(rating=profile.rating, deviation=profile.rating_deviation)
        profile.rated_won, profile.rated_lost = records.get(profile.user_id, (0, 0))
    return paginated


def rated_records(*, user_ids: list[int]) -> dict[int, tuple[int, int]]:
    """Rated wins and losses per user, counted from the RatingChange rows (one per rated match that
    moved the user's rating, the same rows `rated_games` counts), so the leaderboard's Won and Lost
    columns count the same games as its "Rated games" column. Profile.games_won/lost count
    casual games too; they stay on the profile page. A team match is won by the winner's team."""
    records: dict[int, list[int]] = {uid: [0, 0] for uid in user_ids}
    changes = list(
        RatingChange.objects.filter(user_id__in=user_ids)
        .select_related("match")
        .only("user_id", "match__winner_id", "match__player1_id", "match__team_size")
        .order_by("pk")
    )
    team_matches = sorted({c.match_id for c in changes if c.match.team_size})
    teams = {
        (s.match_id, s.user_id): s.team
        for s in TeamSeat.objects.filter(match_id__in=team_matches, user_id__in=user_ids).order_by("pk")
    }
    for change in changes:
        match = change.match
        if match.winner_id is None:  # a draw: neither won nor lost
            continue
        if match.team_size:
            winner_team = 0 if match.winner_id == match.player1_id else 1
            won = teams.get((match.pk, change.user_id)) == winner_team
        else:
            won = match.winner_id == change.user_id
        records[change.user_id][0 if won else 1] += 1
    return {uid: (won, lost) for uid, (won, lost) in records.items()}


def player_rating_history(*, user: Any) -> list[RatingChange]:
    return list(RatingChange.objects.filter(user=user).order_by("created_at", "pk"))


@dataclass(frozen=True)
class RatingChart:
    """What the profile's SVG needs, in SVG units: the line, the uncertainty band, the axis ticks."""

    width: int
    height: int
    line: str
    band: str
    points: list[dict[str, Any]]
    y_ticks: list[dict[str, Any]]
    empty: bool


def rating_chart(*, history: list[RatingChange], width: int = 900, height: int = 260) -> RatingChart:
    """Plots rating after each rated match (match number on x, so a busy weekend is not squashed), with
    a ±deviation band so a provisional start reads as the guess it is."""
    left, right, top, bottom = 44, 10, 12, 24
    if not history:
        return RatingChart(width, height, "", "", [], [], True)
    ratings = [history[0].rating_before] + [c.rating_after for c in history]
    deviations = [history[0].deviation_before] + [c.deviation_after for c in history]
    lows = [r - d for r, d in zip(ratings, deviations, strict=True)]
    highs = [r + d for r, d in zip(ratings, deviations, strict=True)]
    # Scale to the ratings plus a margin, not to the band: the ±350 of a newcomer would flatten the line.
    # The band is clipped to the plot instead.
    low, high = min(ratings) - 60, max(ratings) + 60
    step = 50 if high - low <= 400 else 100 if high - low <= 1000 else 250
    low, high = math.floor(low / step) * step, math.ceil(high / step) * step
    span_x = max(len(ratings) - 1, 1)

    def x(i: int) -> float:
        return round(left + (width - left - right) * i / span_x, 1)

    def y(value: float) -> float:
        clamped = min(max(value, low), high)
        return round(top + (height - top - bottom) * (high - clamped) / (high - low), 1)

    line = " ".join(f"{'M' if i == 0 else 'L'}{x(i)},{y(r)}" for i, r in enumerate(ratings))
    upper = [f"{x(i)},{y(h)}" for i, h in enumerate(highs)]
    lower = [f"{x(i)},{y(lo)}" for i, lo in reversed(list(enumerate(lows)))]
    band = "M" + " L".join(upper + lower) + " Z"

    def point_label(i: int) -> str:
        return gettext("start") if i == 0 else gettext("match %(number)s") % {"number": i}

    points = [{"x": x(i), "y": y(r), "rating": round(r), "label": point_label(i)} for i, r in enumerate(ratings)]
    ticks = [{"y": y(v), "label": v} for v in range(int(low), int(high) + 1, step)]
    return RatingChart(width, height, line, band, points, ticks, False)


def player_recent_matches(*, user: Any, viewer: Any, limit: int = RECENT_MATCHES) -> list[dict[str, Any]]:
    """Finished and aborted matches of the player, newest first, described from the player's side.
    Another `viewer` is not shown the games of events that no listing shows him (not public, and not
    run by his club: `matches_unlisted`), as the Watch and club pages do not."""
    played = Match.objects.filter(Q(player1=user) | Q(player2=user) | Q(team_seats__user=user))
    if getattr(viewer, "pk", None) != user.pk:
        played = played.exclude(matches_unlisted(viewer=viewer))
    matches = (
        played.filter(status__in=[Match.Status.FINISHED, Match.Status.ABORTED])
        .select_related("player1__profile", "player2__profile", "club", "result")
        .distinct()
        .order_by("-finished_at", "-created_at")[:limit]
    )
    teams = dict(TeamSeat.objects.filter(user=user, match__in=[m.pk for m in matches]).values_list("match_id", "team"))
    changes = {c.match_id: c for c in RatingChange.objects.filter(user=user, match__in=[m.pk for m in matches])}
    rows = []
    for match in matches:
        seat = teams.get(match.pk, 0 if match.player1_id == user.pk else 1)  # a team match: my team
        scores = match_scores(match=match)
        if match.status == Match.Status.ABORTED:
            outcome = "aborted"
        elif match.winner_id is None:
            outcome = "draw"
        else:
            outcome = "won" if match.winner_id == (match.player1_id, match.player2_id)[seat] else "lost"
        change = changes.get(match.pk)
        sides = (
            [_side_name(match, 0), _side_name(match, 1)]
            if match.team_size
            else [profile_name(user=match.player1), profile_name(user=match.player2)]
        )
        rows.append(
            {
                "match": match,
                # Both sides in seat order with the scores between them, as every page prints a score.
                "players": sides,
                "scores": list(scores),
                "winner": sides[seat if outcome == "won" else 1 - seat] if outcome in ("won", "lost") else None,
                "opponent": sides[1 - seat],
                "score": scores[seat],
                "opponent_score": scores[1 - seat],
                "outcome": outcome,
                "delta": round(change.rating_after) - round(change.rating_before) if change else None,
                "unrated": _unrated_text(match),
                "when": match.finished_at or match.created_at,
            }
        )
    return rows


def _side_name(match: Match, side: int) -> str:
    """A team's name as the match knows it (the snapshot's side), for the other team of a member."""
    players = (match.snapshot or {}).get("players") or []
    return str(players[side]["name"]) if len(players) == 2 else "(team)"


def _unrated_text(match: Match) -> str | None:
    """Why a match created rated did not move ratings, in words (None when it did or was casual)."""
    result = getattr(match, "result", None) if match.rated else None
    if result is None or not result.unrated_reason:
        return None
    return reason_text(result.unrated_reason)


def player_stats(*, profile: Profile) -> dict[str, Any]:
    played = profile.games_played
    return {
        "rating": rating_label(rating=profile.rating, deviation=profile.rating_deviation),
        "provisional": glicko2.is_provisional(profile.rating_deviation),
        "deviation": round(profile.rating_deviation),
        "played": played,
        "won": profile.games_won,
        "lost": profile.games_lost,
        "win_rate": round(100 * profile.games_won / played) if played else None,
        "best_break": profile.best_break,
        "rated_games": profile.rated_games,
    }
