"""Real play's statistics read: a player's (an account's, or a club's register player's) and a club's
records of the season, from the lines each finished real game leaves (game/models/realstats.py), and the
moment a scored game is at, for the coach.

A season is the club's year of play from 1 July to 30 June on the club's own calendar (its time zone):
Kaisa is played from the autumn to the spring, so a season is never cut in two at New Year.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo

from django.db.models import F, FloatField, QuerySet
from django.db.models.functions import Cast

from game.models import Club, ClubPlayer
from game.models.realgames import RealGame
from game.models.realstats import RealGameLine
from game.realgames.coach import RealMoment
from game.realgames.summary import CUES, turn_of, whites_in_hand

#: The month a season starts in (the 1st, on the club's calendar).
SEASON_START_MONTH = 7
#: How many lines each of a club's records lists, and a player's page its recent games.
RECORDS_SHOWN = 10
RECENT_SHOWN = 10


@dataclass(frozen=True)
class Season:
    """The season that starts on 1 July of ``first_year`` in ``zone``."""

    first_year: int
    zone: ZoneInfo

    @property
    def starts(self) -> datetime.datetime:
        return datetime.datetime(self.first_year, SEASON_START_MONTH, 1, tzinfo=self.zone)

    @property
    def ends(self) -> datetime.datetime:
        return datetime.datetime(self.first_year + 1, SEASON_START_MONTH, 1, tzinfo=self.zone)

    @property
    def label(self) -> str:
        return f"{self.first_year}–{(self.first_year + 1) % 100:02d}"


def season_of(moment: datetime.datetime, zone: ZoneInfo) -> Season:
    """The season ``moment`` falls in, on ``zone``'s calendar."""
    local = moment.astimezone(zone)
    return Season(local.year if local.month >= SEASON_START_MONTH else local.year - 1, zone)


def season_named(text: str | None, *, now: datetime.datetime, zone: ZoneInfo) -> Season:
    """The season a page's ``?season=2025`` names (its first year), or the current one for anything else."""
    current = season_of(now, zone)
    if text and text.isdigit() and len(text) == 4 and 1970 <= int(text) <= current.first_year:
        return Season(int(text), zone)
    return current


@dataclass(frozen=True)
class LineView:
    """One player's game for a page: the line and its day on the club's calendar."""

    line: RealGameLine
    day: datetime.date
    opponent: str

    @property
    def points_per_visit(self) -> float | None:
        return round(self.line.points / self.line.visits, 2) if self.line.visits else None


@dataclass(frozen=True)
class RealStats:
    """A player's real play: games and wins, the highest run, points per visit over all visits, fouls
    per game, the average length in minutes, and the latest games."""

    games: int
    won: int
    highest_run: int
    points_per_visit: float | None
    fouls_per_game: float | None
    minutes_per_game: int | None
    recent: tuple[LineView, ...]


def _views(lines: Iterable[RealGameLine]) -> list[LineView]:
    """Each line with its day on its club's calendar (UTC for a game of no club's) and the opponent."""
    rows = list(lines)
    names = {
        (game_id, seat): name
        for game_id, seat, name in RealGameLine.objects.filter(game_id__in={r.game_id for r in rows}).values_list(
            "game_id", "seat", "name"
        )
    }
    views = []
    for line in rows:
        zone = line.club.zone if line.club is not None else datetime.UTC
        views.append(
            LineView(line, line.finished_at.astimezone(zone).date(), names.get((line.game_id, 1 - line.seat), ""))
        )
    return views


def real_stats(lines: QuerySet[RealGameLine]) -> RealStats:
    """The figures of a player's lines (any query of them)."""
    rows = list(lines.values_list("won", "highest_run", "points", "visits", "fouls", "seconds"))
    games = len(rows)
    visits = sum(r[3] for r in rows)
    recent = lines.select_related("club").order_by("-finished_at", "-game_id")[:RECENT_SHOWN]
    return RealStats(
        games=games,
        won=sum(1 for r in rows if r[0]),
        highest_run=max((r[1] for r in rows), default=0),
        points_per_visit=round(sum(r[2] for r in rows) / visits, 2) if visits else None,
        fouls_per_game=round(sum(r[4] for r in rows) / games, 2) if games else None,
        minutes_per_game=round(sum(r[5] for r in rows) / games / 60) if games else None,
        recent=tuple(_views(recent)),
    )


def club_player_real_stats(*, player: ClubPlayer) -> RealStats:
    return real_stats(RealGameLine.objects.filter(player=player))


def account_real_stats(*, user: Any) -> RealStats:
    """An account's real play: the lines of every register player joined to it, at any club."""
    return real_stats(RealGameLine.objects.filter(player__user=user))


@dataclass(frozen=True)
class SeasonRow:
    """One player's season at the club: games, wins, highest run and points per visit."""

    name: str
    player_id: int | None
    games: int
    won: int
    highest_run: int
    points: int
    visits: int

    @property
    def points_per_visit(self) -> float | None:
        return round(self.points / self.visits, 2) if self.visits else None


@dataclass(frozen=True)
class ClubRecords:
    season: Season
    #: The season's highest runs, highest first (the earliest first among equals).
    highest_runs: tuple[LineView, ...]
    #: The season's best games by points per visit.
    best_averages: tuple[LineView, ...]
    #: Every player of the season, the best points per visit first.
    players: tuple[SeasonRow, ...]

    @property
    def highest_run(self) -> LineView | None:
        return self.highest_runs[0] if self.highest_runs else None

    @property
    def best_average(self) -> LineView | None:
        return self.best_averages[0] if self.best_averages else None


def club_records(*, club: Club, season: Season) -> ClubRecords:
    """The club's records of ``season``: its real games finished within it, on the club's calendar."""
    lines = list(
        RealGameLine.objects.filter(club=club, finished_at__gte=season.starts, finished_at__lt=season.ends)
        .select_related("club")
        .order_by("finished_at", "game_id", "seat")
    )
    runs = sorted((line for line in lines if line.highest_run > 0), key=lambda line: -line.highest_run)
    averages = sorted(
        (line for line in lines if line.visits > 0 and line.points > 0), key=lambda line: -line.points / line.visits
    )
    return ClubRecords(
        season=season,
        highest_runs=tuple(_views(runs[:RECORDS_SHOWN])),
        best_averages=tuple(_views(averages[:RECORDS_SHOWN])),
        players=_season_rows(lines),
    )


@dataclass(frozen=True)
class SeasonBest:
    """The club page's box: the season's highest run and best game by points per visit (None: none yet)."""

    season: Season
    highest_run: LineView | None
    best_average: LineView | None


def club_season_best(*, club: Club, season: Season) -> SeasonBest:
    """The season's two records by two indexed queries of one row each: the club's page shows them on
    every visit (reading every line of a busy season, 2000 of them, takes 140 ms; these take a few)."""
    lines = RealGameLine.objects.filter(
        club=club, finished_at__gte=season.starts, finished_at__lt=season.ends
    ).select_related("club")
    run = lines.filter(highest_run__gt=0).order_by("-highest_run", "finished_at", "game_id").first()
    average = (
        lines.filter(visits__gt=0, points__gt=0)
        .annotate(average=Cast(F("points"), FloatField()) / F("visits"))
        .order_by("-average", "finished_at", "game_id")
        .first()
    )
    found = _views([line for line in (run, average) if line is not None])
    views = {view.line.pk: view for view in found}
    return SeasonBest(
        season=season,
        highest_run=views.get(run.pk) if run is not None else None,
        best_average=views.get(average.pk) if average is not None else None,
    )


def _season_rows(lines: list[RealGameLine]) -> tuple[SeasonRow, ...]:
    grouped: dict[object, list[RealGameLine]] = {}
    for line in lines:
        grouped.setdefault(line.player_id or line.name.casefold(), []).append(line)
    rows = [
        SeasonRow(
            name=group[-1].name,
            player_id=group[-1].player_id,
            games=len(group),
            won=sum(1 for line in group if line.won),
            highest_run=max(line.highest_run for line in group),
            points=sum(line.points for line in group),
            visits=sum(line.visits for line in group),
        )
        for group in grouped.values()
    ]
    rows.sort(key=lambda row: (-(row.points_per_visit or 0.0), -row.highest_run, row.name))
    return tuple(rows)


def real_moment_of(*, game_id: int) -> RealMoment | None:
    """Where a scored game stands, for the coach: its players (the first plays the white with one dot),
    the player to shoot, and the whites in hand; None for no such game."""
    game = RealGame.objects.filter(pk=game_id).only("first_name", "second_name", "state").first()
    if game is None:
        return None
    state = game.state if isinstance(game.state, dict) else {}
    return RealMoment(
        names=(game.first_name, game.second_name),
        shooter=CUES[turn_of(state)],
        in_hand=whites_in_hand(state),
    )
