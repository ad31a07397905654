"""Kaiza's stored data: players, clubs, matches, their shots, and rating history.

The Match row is the authority of a match: its `snapshot` is the engine state (ARCHITECTURE.md
section 4) and `version` counts every change. Every change is written by a service inside a
transaction that locks the row, and each change is also kept as a MatchEvent so that a client that
reconnects can catch up from any version without a full resync.
"""

from __future__ import annotations

import secrets
import string
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

MATCH_ID_ALPHABET = string.ascii_lowercase + string.digits
MATCH_ID_LENGTH = 8


def club_time_zone_default() -> str:
    """A new club's time zone: the site's setting (KAIZA_CLUB_TIME_ZONE, Finland's by default)."""
    return str(settings.KAIZA_CLUB_TIME_ZONE)


def club_language_default() -> str:
    """A new club's language: the site's setting (KAIZA_CLUB_LANGUAGE, Finnish by default)."""
    return str(settings.KAIZA_CLUB_LANGUAGE)


def zone_or_default(name: str) -> ZoneInfo:
    """The zone named `name`, or the site's default for a name this host's zone database lacks."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo(club_time_zone_default())


def new_match_id() -> str:
    """A short, unguessable, URL-safe id: invite links carry it, so it must not be enumerable."""
    return "".join(secrets.choice(MATCH_ID_ALPHABET) for _ in range(MATCH_ID_LENGTH))


class Club(models.Model):
    """A club runs its own scene: members, matches marked for the club, its own leaderboard."""

    class JoinPolicy(models.TextChoices):
        OPEN = "open", _("Anyone may join")
        REQUEST = "request", _("Join by request")
        INVITE = "invite", _("By invitation only")

    name = models.CharField(_("name"), max_length=64, unique=True)
    slug = models.SlugField(_("slug"), max_length=64, unique=True)
    description = models.TextField(_("description"), blank=True, max_length=2000)
    join_policy = models.CharField(
        _("join policy"), max_length=10, choices=JoinPolicy.choices, default=JoinPolicy.REQUEST
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="clubs_created",
        verbose_name=_("created by"),
    )
    #: The IANA zone the club's pages, forms, KaisaKaavio files and logs speak (the site's clock and
    #: database stay in UTC): a time typed at the club is the club's wall clock.
    time_zone = models.CharField(_("time zone"), max_length=64, default=club_time_zone_default)
    #: The language of the club's screens that nobody signs in to (its events' TV page and wall chart):
    #: the club's, whatever the language of the browser that shows them.
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES, default=club_language_default)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name

    @property
    def zone(self) -> ZoneInfo:
        """The club's zone; the site's default if the stored name is not a zone this host knows (a
        stored row never breaks a page)."""
        return zone_or_default(self.time_zone)


class Membership(models.Model):
    class Role(models.TextChoices):
        OWNER = "owner", _("Owner")
        ADMIN = "admin", _("Admin")
        MEMBER = "member", _("Member")

    class Status(models.TextChoices):
        ACTIVE = "active", _("Active")
        REQUESTED = "requested", _("Requested")
        INVITED = "invited", _("Invited")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("club"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("user")
    )
    role = models.CharField(_("role"), max_length=10, choices=Role.choices, default=Role.MEMBER)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.ACTIVE)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [models.UniqueConstraint(fields=["club", "user"], name="one_membership_per_club")]

    def __str__(self) -> str:
        return f"{self.user} in {self.club} ({self.role}, {self.status})"


class Match(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for an opponent")
        ACTIVE = "active", _("Playing")
        FINISHED = "finished", _("Finished")
        ABORTED = "aborted", _("Aborted")

    id = models.CharField(primary_key=True, max_length=16, default=new_match_id, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="matches_created",
        verbose_name=_("created by"),
    )
    # Seat 0 is the first-joined player (the lag side y < W/2, K-3.1); seat 1 the other.
    player1 = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("player 1"),
    )
    player2 = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("player 2"),
    )
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True)
    rated = models.BooleanField(_("rated"), default=False)
    club = models.ForeignKey(
        Club, null=True, blank=True, on_delete=models.SET_NULL, related_name="matches", verbose_name=_("club")
    )
    time_limit = models.PositiveIntegerField(
        _("time limit"), null=True, blank=True, help_text=_("K-11 match limit, seconds")
    )
    shot_clock = models.PositiveIntegerField(_("shot clock"), null=True, blank=True, help_text=_("seconds per shot"))
    ruleset = models.JSONField(_("ruleset"), default=dict, blank=True)
    snapshot = models.JSONField(_("snapshot"), default=dict, blank=True)
    version = models.PositiveIntegerField(_("version"), default=0)
    winner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("winner"),
    )
    result_reason = models.CharField(_("result reason"), max_length=200, blank=True)
    # How it ended, a code (the `how` of the result clients get): target, resign, shot_clock,
    # abandoned, time_limit, shootout, aborted; blank while live.
    result_code = models.CharField(_("result code"), max_length=16, blank=True)
    # Deadlines the online layer enforces (epoch seconds): the shot clock and the disconnect grace.
    shot_deadline = models.FloatField(_("shot deadline"), null=True, blank=True)
    grace_deadline = models.FloatField(_("grace deadline"), null=True, blank=True)
    # Which seat (0 or 1) the running disconnect grace belongs to; null when nobody is away.
    grace_seat = models.PositiveSmallIntegerField(_("grace seat"), null=True, blank=True)
    # The earliest of the match's server-side deadlines (shot clock, disconnect grace, K-11 warning and
    # limit), epoch seconds; null when nothing is due. Every server process polls it (indexed) and
    # fires what is due once (game/matches/services/deadlines.py).
    next_deadline = models.FloatField(_("next deadline"), null=True, blank=True)
    # A team match: members per team, 2 to 4; null for a one-to-one match. The members and
    # their order are the TeamSeat rows; player1/player2 are then each team's first member.
    team_size = models.PositiveSmallIntegerField(
        _("team size"), null=True, blank=True, help_text=_("members per team; null: 1 vs 1")
    )
    # The new match made by `rematch` (seats swapped), so a second request gives the same one.
    #: A challenge from a profile: the only user who may take the open seat (accept), or
    #: decline. Empty for every other match.
    challenged = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="challenges_received",
        verbose_name=_("challenged player"),
    )
    rematch = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("rematch")
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        indexes = [
            models.Index(fields=["status", "-updated_at"]),
            models.Index(
                fields=["next_deadline"], name="match_next_deadline", condition=models.Q(next_deadline__isnull=False)
            ),
        ]

    def __str__(self) -> str:
        return f"Match {self.id} ({self.status})"


class Shot(models.Model):
    """One player input that changed the match: what was sent, what the engine made of it."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="shots")
    seq = models.PositiveIntegerField(help_text="order of inputs within the match, from 1")
    version = models.PositiveIntegerField(help_text="match version this input produced")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    player_name = models.CharField(max_length=32)
    kind = models.CharField(max_length=16, help_text="lag, choose_break, place, shoot, resign, forfeit")
    ack = models.BigIntegerField(null=True, blank=True)
    input = models.JSONField(default=dict, help_text="the full input, enough to replay the match")
    call = models.JSONField(null=True, blank=True)
    verdict = models.JSONField(null=True, blank=True)
    segments = models.JSONField(null=True, blank=True)
    points = models.IntegerField(default=0)
    snapshot_hash = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("shot")
        verbose_name_plural = _("shots")
        ordering = ["match", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seq"], name="one_input_per_seq"),
            models.UniqueConstraint(fields=["match", "version"], name="one_input_per_version"),
            # A repeated ack is answered from this row, never applied twice (two tabs, a resend).
            models.UniqueConstraint(
                fields=["match", "player", "ack"],
                condition=models.Q(ack__isnull=False),
                name="one_input_per_player_ack",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match_id}#{self.seq} {self.kind} by {self.player_name}"


class MatchEvent(models.Model):
    """The versioned event broadcast for each change, kept for catch-up after a reconnect."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="events")
    version = models.PositiveIntegerField()
    type = models.CharField(max_length=16)
    data = models.JSONField()
    # The event's line in the shot list (also inside `data`), kept apart so the snapshot's history
    # reads a few hundred bytes per event instead of the events' motion segments.
    entry = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("match event")
        verbose_name_plural = _("match events")
        ordering = ["match", "version"]
        constraints = [models.UniqueConstraint(fields=["match", "version"], name="one_event_per_version")]


class TeamSeat(models.Model):
    """One member's place in a team match: his team (0 or 1, as the seats of a one-to-one match) and
    his order in the team's fixed rotation of visits (0 = the first player, who lags, K-3.1)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="team_seats")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="team_seats")
    team = models.PositiveSmallIntegerField(help_text="0 or 1")
    order = models.PositiveSmallIntegerField(help_text="place in the team's rotation, from 0")
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["team", "order"]
        constraints = [
            models.UniqueConstraint(fields=["match", "user"], name="team_seat_one_per_user"),
            models.UniqueConstraint(fields=["match", "team", "order"], name="team_seat_one_per_place"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in team {self.team} #{self.order} of {self.match_id}"


class MatchConnection(models.Model):
    """One open websocket on a match, whichever daphne process holds it.

    Presence (who is here, how many watch) and the disconnect grace must agree across processes, so
    each socket is a row: added on connect, removed by the one cleanup every closing socket runs, and
    touched by its process's heartbeat. A process that dies leaves its rows behind: they stop counting
    once `seen_at` is older than the staleness window, the heartbeat of any process purges them, and
    the next process started under the same `process` name (host and port) removes them at once (its
    `boot` differs).

    Presence counts people, not sockets: one user's three tabs are three rows with one `viewer`, and
    the counts take distinct viewers (game.realtime.presence.viewer_of says who a socket's viewer is).
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="connections")
    channel_name = models.CharField(max_length=200, unique=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    seat = models.PositiveSmallIntegerField(null=True, blank=True, help_text="0 or 1 for a player, null to watch")
    seen_at = models.FloatField(help_text="epoch seconds of the last heartbeat")
    process = models.CharField(max_length=200, default="", help_text="the server process: host and port")
    boot = models.CharField(max_length=32, default="", help_text="which start of that process")
    viewer = models.CharField(
        max_length=200,
        null=True,
        blank=True,
        help_text="who holds the socket, to count people: user:<pk>, ip:<address>, null: unknown (counts alone)",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("match connection")
        verbose_name_plural = _("match connections")
        indexes = [models.Index(fields=["match", "seen_at"]), models.Index(fields=["process", "boot"])]

    def __str__(self) -> str:
        return f"{self.channel_name} on {self.match_id}"


class RatingChange(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes", verbose_name=_("user")
    )
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rating_changes", verbose_name=_("match"))
    rating_before = models.FloatField(_("rating before"))
    rating_after = models.FloatField(_("rating after"))
    deviation_before = models.FloatField(_("deviation before"))
    deviation_after = models.FloatField(_("deviation after"))
    volatility_before = models.FloatField(_("volatility before"))
    volatility_after = models.FloatField(_("volatility after"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["user", "created_at"]
        constraints = [models.UniqueConstraint(fields=["user", "match"], name="one_rating_change_per_match")]

    @property
    def delta(self) -> float:
        return self.rating_after - self.rating_before


class MatchResult(models.Model):
    """Marks that a match's result has been counted into the players' profiles and ratings.

    `results_record` creates this row in the transaction that finishes the match; its existence is
    what makes recording idempotent (a second call sees it and changes nothing). It also keeps each
    player's best break of the match so a profile can say where its best break was made.
    """

    match = models.OneToOneField(
        Match, on_delete=models.CASCADE, primary_key=True, related_name="result", verbose_name=_("match")
    )
    rated = models.BooleanField(_("rated"), default=False)
    #: Why a result did not move ratings: a code of game.ratings.selectors.REASON_CODES
    #: ("casual", "aborted", "guest", "unverified", "new_account", "too_few_shots", "pair_daily_limit"); "" when rated.
    unrated_reason = models.CharField(_("unrated reason"), max_length=32, blank=True, default="")
    player1_best_break = models.IntegerField(_("player 1 best break"), default=0)
    player2_best_break = models.IntegerField(_("player 2 best break"), default=0)
    recorded_at = models.DateTimeField(_("recorded at"), auto_now_add=True)

    class Meta:
        verbose_name = _("match result")
        verbose_name_plural = _("match results")

    def __str__(self) -> str:
        return f"Result of {self.match_id}"


class Seek(models.Model):
    """One player waiting for quick pairing (game/lobby/services/seeks.py): a row per waiting lobby
    socket, so every server process sees the same queue and the matching runs under row locks. The row
    goes when the seek is paired, cancelled, or its socket closes."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seek", verbose_name=_("user")
    )
    channel_name = models.CharField(_("channel name"), max_length=200, unique=True)
    rated = models.BooleanField(_("rated"), default=False)
    time_limit = models.PositiveIntegerField(
        _("time limit"), null=True, blank=True, help_text=_("seconds; empty: none")
    )
    rating = models.FloatField(_("rating"), help_text=_("the player's rating when the seek began"))
    since = models.FloatField(_("since"), help_text=_("epoch seconds when the seek began"))
    #: The rating window last announced to the seeker (the clock tick announces a wider one).
    window = models.PositiveIntegerField(_("window"), default=0)

    class Meta:
        verbose_name = _("seek")
        verbose_name_plural = _("seeks")
        indexes = [models.Index(fields=["since"])]

    def __str__(self) -> str:
        return f"Seek by {self.user_id}"


# A player's profile lives in its own module; imported here so Django registers it with the app.
from game.models.accounts import Profile  # noqa: E402

# The match chat and a finished match's shot analysis live in their own modules, imported
# here so Django registers them with the app.
from game.models.analysis import MatchAnalysis  # noqa: E402

# How an event is announced (who sees it, online registration, table links): beside the tournament.
from game.models.announce import EventTable, TournamentAnnouncement, TournamentRegistration  # noqa: E402
from game.models.chat import ChatMessage, ChatReport  # noqa: E402

# Shot puzzles live in their own module; imported here so Django registers them with the app.
from game.models.puzzles import Puzzle, PuzzleRating, PuzzleServing  # noqa: E402

# Games on a club's real tables, scored at the table.
from game.models.realgames import RealGame, RealGameTap, ScoringTable  # noqa: E402

# What real play leaves behind: a line per player of each finished real game.
from game.models.realstats import RealGameLine  # noqa: E402

# A club's player register: the people who play its events at its tables, walk-ins included.
from game.models.register import ClubPlayer  # noqa: E402

# A club's ranking series: scored from its finished tournaments' placings.
from game.models.series import RankingSeries, RankingSeriesEvent, SeriesPlacing  # noqa: E402

# Club tournaments live in their own module; imported here so Django registers them with the app.
from game.models.tournaments import (  # noqa: E402
    Tournament,
    TournamentBout,
    TournamentEntry,
    TournamentEntryMember,
    TournamentPairing,
    TournamentResultFix,
    TournamentResultKey,
    TournamentRound,
    TournamentTeamPlayer,
    TournamentVenue,
)

__all__ = [
    "ChatMessage",
    "ChatReport",
    "Club",
    "ClubPlayer",
    "EventTable",
    "Match",
    "MatchAnalysis",
    "MatchConnection",
    "MatchEvent",
    "MatchResult",
    "Membership",
    "Profile",
    "Puzzle",
    "PuzzleRating",
    "PuzzleServing",
    "RankingSeries",
    "RankingSeriesEvent",
    "RatingChange",
    "RealGame",
    "RealGameLine",
    "RealGameTap",
    "ScoringTable",
    "Seek",
    "SeriesPlacing",
    "Shot",
    "Tournament",
    "TournamentAnnouncement",
    "TournamentBout",
    "TournamentEntry",
    "TournamentEntryMember",
    "TournamentPairing",
    "TournamentRegistration",
    "TournamentResultFix",
    "TournamentResultKey",
    "TournamentRound",
    "TournamentTeamPlayer",
    "TournamentVenue",
]
