"""A club's ranking series: weekly events of a season scored by placing, as the clubs'
program keeps them. Kept apart from the tournaments because the series is the club's: a tournament
knows nothing of the series it counts in.

A series counts the club's finished tournaments that it lists (`RankingSeriesEvent`) or that start
within its season (`starts_on`..`ends_on`, both days included). Its points are a list by placing
(`points[0]` for the winner; placings beyond the list score nothing). The placings themselves are
kept per tournament (`SeriesPlacing`), written when a tournament finishes (game.signals
`tournament_finished`, game/clubs/receivers.py), so the table is one read and a series whose points
or season change is scored again at once.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

PERIOD_CHOICES = (
    ("", _("No roll-over")),
    ("month", _("Every month")),
    ("quarter", _("Every quarter")),
    ("half", _("Every half-year")),
)


class RankingSeries(models.Model):
    club = models.ForeignKey("game.Club", on_delete=models.CASCADE, related_name="series", verbose_name=_("club"))
    name = models.CharField(max_length=80, verbose_name=_("name"))
    starts_on = models.DateField(null=True, blank=True, verbose_name=_("season starts"))
    ends_on = models.DateField(null=True, blank=True, verbose_name=_("season ends"))
    #: The series rolls over: each event counts in the period of its start date on the club's clock
    #: (a month, a quarter, a half-year; blank: one table for the whole season, as before).
    period = models.CharField(
        max_length=8, blank=True, default="", choices=PERIOD_CHOICES, verbose_name=_("series rolls over")
    )
    #: Points for beating the player ranked 1st, 2nd, 3rd in the series before the event (the program's
    #: RankingPisteetPelista): [first, second, third], all 0 for none.
    bonus = models.JSONField(default=list, blank=True, verbose_name=_("bonus for beating the top three"))
    #: Points by placing, non-negative and non-increasing: [25, 20, 16, ...] (game/clubs/services.py checks).
    points = models.JSONField(default=list, verbose_name=_("points by placing"))
    #: Only events of this category count in the series (Tournament.Category); blank: every event.
    category = models.CharField(max_length=12, blank=True, default="", verbose_name=_("category"))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("created by")
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("ranking series")
        verbose_name_plural = _("ranking series")
        ordering = ("club", "-created_at", "-id")

    def __str__(self) -> str:
        return self.name


class RankingSeriesEvent(models.Model):
    """A tournament a club admin put in the series (besides those its season takes in)."""

    series = models.ForeignKey(RankingSeries, on_delete=models.CASCADE, related_name="events", verbose_name=_("series"))
    tournament = models.ForeignKey(
        "game.Tournament", on_delete=models.CASCADE, related_name="+", verbose_name=_("tournament")
    )

    class Meta:
        verbose_name = _("series event")
        verbose_name_plural = _("series events")
        constraints = (models.UniqueConstraint(fields=("series", "tournament"), name="one_series_event"),)


class SeriesPlacing(models.Model):
    """One entry's final placing in a finished tournament, under the key its series add up by
    (game.tournaments.selectors.placings `entry_identity`: `user:<id>`, `team:<ids>`, `entry:<id>`)."""

    tournament = models.ForeignKey(
        "game.Tournament", on_delete=models.CASCADE, related_name="+", verbose_name=_("tournament")
    )
    entry = models.ForeignKey(
        "game.TournamentEntry", on_delete=models.CASCADE, related_name="+", verbose_name=_("entry")
    )
    player_key = models.CharField(max_length=200, verbose_name=_("player key"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("user"),
    )
    name = models.CharField(max_length=80, verbose_name=_("name"))
    place = models.PositiveSmallIntegerField(verbose_name=_("placing"))

    class Meta:
        verbose_name = _("series placing")
        verbose_name_plural = _("series placings")
        ordering = ("tournament", "place", "id")
        constraints = (models.UniqueConstraint(fields=("tournament", "entry"), name="one_series_placing"),)
