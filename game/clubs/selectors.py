"""Reads about clubs: the directory, a club's members and requests, its matches, its leaderboard and
its ranking series' tables (the scoring is described at `series_table`).

The club leaderboard ranks the club's active members by their (global) rating, showing the matches
they played *within the club* (finished matches marked for the club, rated or casual); members who have
not played a club match yet are listed after the ranked ones, unranked.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from game.accounts.selectors import LEADERBOARD_PAGE_SIZE, match_scores, profile_name, rating_label
from game.clubs.series_periods import MONTHS as PERIOD_MONTHS
from game.clubs.series_periods import Period, period_from_key, period_of
from game.common.names import register_key
from game.models import (
    Club,
    ClubPlayer,
    Match,
    Membership,
    Profile,
    RankingSeries,
    SeriesPlacing,
    Tournament,
    TournamentEntry,
    TournamentEntryMember,
    TournamentPairing,
)
from game.tournaments.visibility import listed_filter, matches_unlisted

CLUB_RECENT_MATCHES = 10
MANAGER_ROLES = frozenset({Membership.Role.OWNER, Membership.Role.ADMIN})


def club_list() -> QuerySet[Club]:
    return Club.objects.annotate(
        member_count=Count("memberships", filter=Q(memberships__status=Membership.Status.ACTIVE))
    ).order_by("-member_count", "name")


def club_get(*, slug: str) -> Club | None:
    return Club.objects.filter(slug=slug).first()


def club_membership(*, club: Club, user: Any) -> Membership | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return Membership.objects.filter(club=club, user=user).first()


def club_is_active_member(*, club: Club, user: Any) -> bool:
    """For the online layer: may this user take a seat in a match marked for this club?"""
    membership = club_membership(club=club, user=user)
    return membership is not None and membership.status == Membership.Status.ACTIVE


def club_can_manage(*, membership: Membership | None) -> bool:
    return membership is not None and membership.status == Membership.Status.ACTIVE and membership.role in MANAGER_ROLES


def clubs_for_user(*, user: Any) -> list[Club]:
    """Clubs in which the user is an active member (for "mark this match for a club" choices)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return []
    return list(
        Club.objects.filter(memberships__user=user, memberships__status=Membership.Status.ACTIVE).order_by("name")
    )


def club_members(*, club: Club, status: str = Membership.Status.ACTIVE) -> list[dict[str, Any]]:
    """Members with the given status, owner first, then admins, then by rating."""
    order = {Membership.Role.OWNER: 0, Membership.Role.ADMIN: 1, Membership.Role.MEMBER: 2}
    memberships = Membership.objects.filter(club=club, status=status).select_related("user__profile")
    rows: list[dict[str, Any]] = []
    for membership in memberships:
        profile = getattr(membership.user, "profile", None)
        rows.append(
            {
                "membership": membership,
                "name": profile_name(user=membership.user),
                "role": membership.role,
                "rating_label": rating_label(rating=profile.rating, deviation=profile.rating_deviation)
                if profile
                else "",
                "rating": profile.rating if profile else 0,
                "since": membership.created_at,
            }
        )
    rows.sort(key=lambda row: (order.get(row["role"], 3), -row["rating"], row["name"].lower()))
    return rows


def club_recent_matches(*, club: Club, viewer: Any = None, limit: int = CLUB_RECENT_MATCHES) -> list[dict[str, Any]]:
    """The club's finished matches, newest first; an event's games listed as its events are (a hidden
    or link-only event's to the club's admins only: game/tournaments/visibility.py)."""
    matches = (
        Match.objects.filter(club=club, status=Match.Status.FINISHED)
        .exclude(matches_unlisted(user=viewer))
        .select_related("player1__profile", "player2__profile", "winner__profile")
        .order_by("-finished_at")[:limit]
    )
    rows = []
    for match in matches:
        scores = match_scores(match=match)
        rows.append(
            {
                "match": match,
                "player1": profile_name(user=match.player1),
                "player2": profile_name(user=match.player2),
                "score1": scores[0],
                "score2": scores[1],
                "players": [profile_name(user=match.player1), profile_name(user=match.player2)],
                "scores": list(scores),
                "winner": profile_name(user=match.winner) if match.winner else None,
            }
        )
    return rows


#: How many of a member's own matches the club page offers to mark for the club.
MARKABLE_SHOWN = 8


def club_markable_matches(*, club: Club, user: Any) -> list[dict[str, Any]]:
    """The visitor's own matches that may still count for `club` (match_mark_for_club): open or being
    played, not the club's yet, the other player (if any) an active member. The club page offers them
    to pick, so nobody has to find a match's id."""
    if not club_is_active_member(club=club, user=user):
        return []
    members = Membership.objects.filter(club=club, status=Membership.Status.ACTIVE).values("user_id")
    rows = (
        Match.objects.filter(Q(player1=user) | Q(player2=user), status__in=(Match.Status.OPEN, Match.Status.ACTIVE))
        .exclude(club=club)
        .filter(Q(player2__isnull=True) | Q(player1__in=members, player2__in=members))
        .filter(team_size__isnull=True)
        .select_related("player1__profile", "player2__profile")
        .order_by("-updated_at")[:MARKABLE_SHOWN]
    )
    return [
        {
            "id": match.pk,
            "players": [profile_name(user=match.player1), profile_name(user=match.player2)]
            if match.player2_id
            else None,
            "scores": list(match_scores(match=match)),
            "waiting": match.status == Match.Status.OPEN,
        }
        for match in rows
    ]


def leaderboard_for_club(*, club: Club, page: int | str | None = 1, per_page: int = LEADERBOARD_PAGE_SIZE) -> Page:
    """One page of the club leaderboard (see the module docstring); each row carries rank (None when
    unranked), club games played and won."""
    active_ids = Membership.objects.filter(club=club, status=Membership.Status.ACTIVE).values("user_id")
    profiles = Profile.objects.filter(user_id__in=active_ids)
    finished = Match.objects.filter(status=Match.Status.FINISHED, club=club).values_list(
        "player1_id", "player2_id", "winner_id"
    )
    games: dict[int, int] = {}
    wins: dict[int, int] = {}
    for p1, p2, winner in finished:
        for pid in (p1, p2):
            if pid is not None:
                games[pid] = games.get(pid, 0) + 1
        if winner is not None:
            wins[winner] = wins.get(winner, 0) + 1
    ordered = sorted(profiles, key=lambda p: (games.get(p.user_id, 0) == 0, -p.rating, p.display_name.lower()))
    paginated = Paginator(ordered, per_page).get_page(page)
    ranked_before = sum(1 for p in ordered[: paginated.start_index() - 1] if games.get(p.user_id, 0))
    rank = ranked_before
    for profile in paginated.object_list:
        profile.club_games = games.get(profile.user_id, 0)
        profile.club_wins = wins.get(profile.user_id, 0)
        if profile.club_games:
            rank += 1
            profile.rank = rank
        else:
            profile.rank = None
        profile.rating_label = rating_label(rating=profile.rating, deviation=profile.rating_deviation)
    return paginated


def series_counted_tournaments(*, series: RankingSeries, period: Period | None = None) -> QuerySet[Tournament]:
    """The club's finished tournaments the series counts: those it lists and those that start within
    its season (both days included, on the club's clock: an event at 00:30 in Helsinki is on that
    day, not on the day before in UTC); with `period`, only those that start within it. A tournament
    reopened by a fixed result stops counting until it ends again."""
    counted = Q(pk__in=series.events.values("tournament_id"))
    zone = series.club.zone
    if series.starts_on is not None and series.ends_on is not None:
        first = datetime.datetime.combine(series.starts_on, datetime.time(0), tzinfo=zone)
        after = datetime.datetime.combine(series.ends_on + datetime.timedelta(days=1), datetime.time(0), tzinfo=zone)
        counted |= Q(starts_at__gte=first, starts_at__lt=after)
    tournaments = Tournament.objects.filter(counted, club_id=series.club_id, status=Tournament.Status.FINISHED)
    if period is not None:
        tournaments = tournaments.filter(
            starts_at__gte=datetime.datetime.combine(period.first, datetime.time(0), tzinfo=zone),
            starts_at__lt=datetime.datetime.combine(period.after, datetime.time(0), tzinfo=zone),
        )
    if series.category:  # a series of one category: the club's events of another do not count in it
        tournaments = tournaments.filter(category=series.category)
    return tournaments.order_by("starts_at", "id")


def series_points_for(points: list[int], place: int) -> int:
    """The points of a placing: the table's value for it, 0 beyond the table. Entries that share a
    placing each score it in full."""
    return points[place - 1] if 1 <= place <= len(points) else 0


def series_periods(*, series: RankingSeries, today: datetime.date | None = None) -> list[Period]:
    """A rolling series' periods, newest first: the current one (on the club's clock) and every
    earlier or later one that has a counted event. None for a series that does not roll over."""
    if series.period not in PERIOD_MONTHS:
        return []
    zone = series.club.zone
    today = today or timezone.localdate(timezone=zone)
    found = {period_of(today, series.period)}
    for starts_at in series_counted_tournaments(series=series).values_list("starts_at", flat=True):
        found.add(period_of(timezone.localtime(starts_at, zone).date(), series.period))
    return sorted(found, key=lambda p: p.first, reverse=True)


def _row_strength(row: dict[str, Any], deepest: int) -> tuple[int, ...]:
    return (-row["points"], *(-row["placings"].count(p) for p in range(1, deepest + 1)))


def _ranked(rows: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows ranked by points; level on points, by the better placings: more wins, then more 2nd
    places, and so on; level on those too, the same rank (listed by name)."""
    deepest = max((p for row in rows.values() for p in row["placings"]), default=0)
    ordered = sorted(rows.values(), key=lambda row: (_row_strength(row, deepest), row["name"].lower()))
    for i, row in enumerate(ordered):
        previous = ordered[i - 1] if i else None
        if previous is not None and _row_strength(previous, deepest) == _row_strength(row, deepest):
            row["rank"] = previous["rank"]
        else:
            row["rank"] = i + 1
    return ordered


def _new_row() -> dict[str, Any]:
    return {"events": 0, "points": 0, "bonus": 0, "placings": [], "user": False, "name": ""}


def _top_three_of(rows: dict[str, dict[str, Any]], present: set[str]) -> dict[str, int]:
    """The event's players ranked 1-3 in the series before it, as the program counts them: their
    series ranks, renumbered among the players present (a shared rank stays shared)."""
    if not rows:
        return {}
    _ranked(rows)
    ranks = {key: rows[key]["rank"] for key in present if key in rows}
    steps = sorted(set(ranks.values()))
    return {key: steps.index(rank) + 1 for key, rank in ranks.items() if steps.index(rank) < 3}


def _bonus_add(series: RankingSeries, event: Tournament, keys: dict[int, str], rows: dict[str, dict[str, Any]]) -> None:
    """Points for each game of `event` won against a player ranked 1st-3rd before it (the program's
    RankingPisteetPelista); only games played count, not walk-overs or no-shows."""
    top = _top_three_of(rows, set(keys.values()))
    if not top:
        return
    games = TournamentPairing.objects.filter(
        tournament=event,
        status=TournamentPairing.Status.DONE,
        winner__isnull=False,
        second__isnull=False,
        how__in=(TournamentPairing.How.PLAYED, TournamentPairing.How.FIXED),
    ).values_list("first_id", "second_id", "winner_id")
    for first, second, winner in games:
        loser = second if winner == first else first
        place = top.get(keys.get(loser, ""))
        if place is None or winner not in keys:
            continue
        points = series.bonus[place - 1] if place <= len(series.bonus) else 0
        if points:
            row = rows.setdefault(keys[winner], _new_row())
            row["bonus"] += points
            row["points"] += points


def _period_shown(series: RankingSeries, period_key: str) -> Period:
    """The period `period_key` names, else the current one on the club's clock."""
    asked = period_from_key(period_key, series.period)
    return asked or period_of(timezone.localdate(timezone=series.club.zone), series.period)


def _series_rows(series: RankingSeries, events: list[Tournament], *, bonus: bool) -> dict[str, dict[str, Any]]:
    """One row per player over `events` in order: events, points, placings, and any bonus won in
    each event against the players ranked 1-3 in the rows before it."""
    placings = list(
        SeriesPlacing.objects.filter(tournament__in=events).order_by("tournament__starts_at", "tournament_id")
    )
    names = dict(
        Profile.objects.filter(user_id__in={p.user_id for p in placings if p.user_id}).values_list(
            "user_id", "display_name"
        )
    )
    rows: dict[str, dict[str, Any]] = {}
    for event in events:
        mine = [p for p in placings if p.tournament_id == event.pk]
        if bonus:
            _bonus_add(series, event, {p.entry_id: p.player_key for p in mine}, rows)
        for placing in mine:
            row = rows.setdefault(placing.player_key, _new_row())
            row["name"] = names.get(placing.user_id, placing.name) if placing.user_id else placing.name
            row["user"] = placing.user_id is not None
            row["events"] += 1
            row["points"] += series_points_for(series.points, placing.place)
            row["placings"].append(placing.place)
    return rows


def series_table(*, series: RankingSeries, period_key: str = "", manager: bool = False) -> dict[str, Any]:
    """The series table, from the placings kept for each counted event (SeriesPlacing), one row per
    player (the entry's identity: its account when it has one, game.tournaments.selectors.placings).
    A series that rolls over shows one period: the one `period_key` names, else the current one.

    Ranked by points (placings, and any bonus for beating the players ranked 1-3 before each event);
    level on points, by the better placings: more wins, then more 2nd places, and so on; level on
    those too, the same rank (listed by name). The name shown is the account's name today, or the
    name the entry played under in its latest event. The events counted are named as the club page
    lists them (game/tournaments/visibility.py): an event hidden from the reader, or reached only by
    its link, counts in the table but is not named (`unnamed`: how many); `manager`: the club's
    owners and admins, who see every event's name."""
    periods = series_periods(series=series)
    period = _period_shown(series, period_key) if periods else None
    events = list(series_counted_tournaments(series=series, period=period))
    bonus = any(series.bonus or ())
    ordered = _ranked(_series_rows(series, events, bonus=bonus))
    for row in ordered:
        row["placings"].sort()
        row["best"] = row["placings"][0] if row["placings"] else None
    named = set(
        Tournament.objects.filter(listed_filter(manager=manager), pk__in=[t.pk for t in events]).values_list(
            "pk", flat=True
        )
    )
    return {
        "series": series,
        "rows": ordered,
        "events": [
            {"name": t.name, "url": f"/tournaments/{t.pk}/", "starts_at": t.starts_at} for t in events if t.pk in named
        ],
        "unnamed": sum(1 for t in events if t.pk not in named),
        "points": [{"place": place, "points": value} for place, value in enumerate(series.points, start=1)],
        "bonus": list(series.bonus) if bonus else [],
        "period": period,
        "periods": periods,
    }


def club_series_tables(
    *, club: Club, periods: dict[int, str] | None = None, manager: bool = False
) -> list[dict[str, Any]]:
    """The club page's series, newest first, each with its table (a rolling series: the period
    `periods` names for it, else the current one); `manager`: the reader runs the club (every event
    is named to them)."""
    chosen = periods or {}
    return [
        series_table(series=series, period_key=chosen.get(series.pk, ""), manager=manager)
        for series in RankingSeries.objects.filter(club=club).select_related("club")
    ]


def series_of_club(*, club: Club, series_id: int) -> RankingSeries | None:
    return RankingSeries.objects.filter(club=club, pk=series_id).select_related("club").first()


# --- The player register ---------------------------------------------------------------------------

#: How many names the walk-in field suggests as the director types.
SEARCH_LIMIT = 8


def club_players_search(*, club: Club, query: str, limit: int = SEARCH_LIMIT) -> list[dict[str, Any]]:
    """The club's players whose name holds what was typed, compared as names are (case, accents and
    look-alike letters aside: "olli" finds "Olli Tuominen", "makela" "Mäkelä"); those starting with
    it first, then by name."""
    key = register_key(query)
    if not key:
        return []
    players = ClubPlayer.objects.filter(club=club, name_key__contains=key).select_related("user__profile")
    found = sorted(players, key=lambda p: (not p.name_key.startswith(key), p.name_key, p.pk))[:limit]
    return [{"name": p.name, "account": _account_name(p)} for p in found]


def _account_name(player: ClubPlayer) -> str | None:
    profile = getattr(player.user, "profile", None) if player.user_id is not None else None
    return profile.display_name if profile is not None else None


@dataclass
class PlayerFigures:
    """What one register player did at the club's events (:func:`club_register`)."""

    events: set[int] = field(default_factory=set)
    games: int = 0
    wins: int = 0
    best: int | None = None
    last: datetime.datetime | None = None


def club_register(*, club: Club) -> list[dict[str, Any]]:
    """The club's players with what they did at its events: events entered, games played and won,
    their best placing and their latest event. A player's events are the walk-in entries of the
    register player and, once joined to an account, the account's own entries in the club's events."""
    players = list(ClubPlayer.objects.filter(club=club).select_related("user__profile").order_by("name_key", "pk"))
    by_user = {p.user_id: p.pk for p in players if p.user_id is not None}
    singles = TournamentEntry.objects.filter(tournament__club=club).exclude(
        tournament__status=Tournament.Status.CANCELLED
    )
    members = dict(
        TournamentEntryMember.objects.filter(tournament__club=club, tournament__team_size=1).values_list(
            "entry_id", "user_id"
        )
    )
    owner: dict[int, int] = {}
    figures = {p.pk: PlayerFigures() for p in players}
    for entry_id, player_id, tournament_id, place, starts_at in singles.values_list(
        "pk", "player_id", "tournament_id", "place", "tournament__starts_at"
    ):
        who = player_id if player_id in figures else by_user.get(members.get(entry_id, 0))
        if who is None:
            continue
        owner[entry_id] = who
        row = figures[who]
        row.events.add(tournament_id)
        if place is not None and (row.best is None or place < row.best):
            row.best = place
        if row.last is None or starts_at > row.last:
            row.last = starts_at
    _count_games(club, owner, figures)
    return [
        {
            "id": p.pk,
            "name": p.name,
            "account": _account_name(p),
            "home_club": p.home_club,
            "handicap": p.handicap,
            "events": len(figures[p.pk].events),
            "games": figures[p.pk].games,
            "wins": figures[p.pk].wins,
            "best": figures[p.pk].best,
            "last": figures[p.pk].last,
        }
        for p in players
    ]


def _count_games(club: Club, owner: dict[int, int], figures: dict[int, PlayerFigures]) -> None:
    """Each register player's games played and won at the club's events (byes are no games)."""
    played = TournamentPairing.objects.filter(
        tournament__club=club, status=TournamentPairing.Status.DONE, second__isnull=False
    ).exclude(how=TournamentPairing.How.BYE)
    for first, second, winner in played.values_list("first_id", "second_id", "winner_id"):
        for entry in (first, second):
            if entry in owner:
                figures[owner[entry]].games += 1
                figures[owner[entry]].wins += int(winner == entry)
