"""Games played on a club's real tables, scored at the table (game/realgames/).

A `ScoringTable` is one of a club's tables with its scorer's private link (`/tables/<token>/score/`)
and the stream and scoreboard links the club shows for it. A `RealGame` is the authority of one game
on it, as a Match row is of an online one: `state` is the pure state of the engine's real-table
scorer (game/engine/rules/real_table.py) and `version` counts every change; each tap is kept as a
`RealGameTap`, its `client_key` unique per game so a tap sent twice (a reconnecting phone) counts once.
"""

from __future__ import annotations

import secrets

from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

#: A scorer's link carries the token: long enough not to be guessed.
TABLE_TOKEN_BYTES = 18


def new_table_token() -> str:
    return secrets.token_urlsafe(TABLE_TOKEN_BYTES)


class ScoringTable(models.Model):
    club = models.ForeignKey(
        "game.Club", on_delete=models.CASCADE, related_name="scoring_tables", verbose_name=_("club")
    )
    #: The table's number at the club (1..N): an event's game on table N is scored at this table.
    number = models.PositiveSmallIntegerField(verbose_name=_("number"))
    name = models.CharField(max_length=40, blank=True, verbose_name=_("name"))
    token = models.CharField(max_length=40, unique=True, default=new_table_token, verbose_name=_("scorer's link"))
    stream_url = models.URLField(blank=True, verbose_name=_("stream link"))
    scoreboard_url = models.URLField(blank=True, verbose_name=_("scoreboard link"))

    class Meta:
        verbose_name = _("scoring table")
        verbose_name_plural = _("scoring tables")
        ordering = ("club", "number")
        constraints = (models.UniqueConstraint(fields=("club", "number"), name="one_scoring_table_per_number"),)

    def __str__(self) -> str:
        return self.name or f"{self.club} #{self.number}"


class RealGame(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", pgettext_lazy("real game", "Finished")

    table = models.ForeignKey(
        ScoringTable,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="games",
        verbose_name=_("table"),
    )
    pairing = models.OneToOneField(
        "game.TournamentPairing",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="real_game",
        verbose_name=_("pairing"),
    )
    first_name = models.CharField(max_length=80, verbose_name=_("first player"))
    second_name = models.CharField(max_length=80, verbose_name=_("second player"))
    first_player = models.ForeignKey(
        "game.ClubPlayer", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    second_player = models.ForeignKey(
        "game.ClubPlayer", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    target = models.PositiveSmallIntegerField(default=60, verbose_name=_("target"))
    first_handicap = models.IntegerField(default=0, verbose_name=_("first player's start score"))
    second_handicap = models.IntegerField(default=0, verbose_name=_("second player's start score"))
    #: The event's K-11 clock, seconds (null: none); extra visits each after the limit.
    time_limit = models.PositiveIntegerField(null=True, blank=True, verbose_name=_("time limit"))
    time_warning = models.PositiveIntegerField(null=True, blank=True, verbose_name=_("time warning"))
    extra_visits = models.PositiveSmallIntegerField(default=2, verbose_name=_("extra visits each"))
    shootout_visits = models.PositiveSmallIntegerField(default=10, verbose_name=_("shoot-out visits each"))
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.WAITING, db_index=True, verbose_name=_("status")
    )
    version = models.PositiveIntegerField(default=0, verbose_name=_("version"))
    #: The engine's RealState (game/engine/rules/real_table.py) as JSON.
    state = models.JSONField(default=dict, verbose_name=_("state"))
    #: 0 or 1 (the seat of `first_name`/`second_name`); null until the game is decided.
    winner = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("winner"))
    first_score = models.IntegerField(default=0, verbose_name=_("first player's score"))
    second_score = models.IntegerField(default=0, verbose_name=_("second player's score"))
    #: How it ended: the engine's finish key (target_reached, shootout_higher, sudden_death, ...).
    result_code = models.CharField(max_length=24, blank=True, verbose_name=_("how the game ended"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    started_at = models.DateTimeField(null=True, blank=True, verbose_name=_("started at"))
    finished_at = models.DateTimeField(null=True, blank=True, verbose_name=_("finished at"))

    class Meta:
        verbose_name = _("real game")
        verbose_name_plural = _("real games")
        ordering = ("-created_at", "-id")
        indexes = (models.Index(fields=("table", "status"), name="real_game_table_status"),)

    def __str__(self) -> str:
        return f"{self.first_name} v {self.second_name}"


class RealGameTap(models.Model):
    game = models.ForeignKey(RealGame, on_delete=models.CASCADE, related_name="taps", verbose_name=_("game"))
    #: The game's version this tap made.
    seq = models.PositiveIntegerField(verbose_name=_("version"))
    #: The scorer's own key for the tap: sent again after a reconnect, it is answered, not applied again.
    client_key = models.CharField(max_length=64, verbose_name=_("client key"))
    tap = models.JSONField(verbose_name=_("tap"))
    #: The engine's verdict: points, penalty, rule ids, the words' code and params.
    verdict = models.JSONField(default=dict, verbose_name=_("verdict"))
    undone = models.BooleanField(default=False, verbose_name=_("undone"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("real game tap")
        verbose_name_plural = _("real game taps")
        ordering = ("game", "seq")
        constraints = (models.UniqueConstraint(fields=("game", "client_key"), name="one_real_tap_per_client_key"),)

    def __str__(self) -> str:
        return f"{self.game_id}#{self.seq}"
