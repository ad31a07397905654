"""What real play leaves behind: one line per player of each finished real game (game/realgames/), so a
player's profile, the club's register page and the club's records read a few small rows instead of every
game's taps. Written from the game's stored state whenever the game is saved (game/realgames/stats_records.py):
a finished game has its two lines, a game taken back from its end (an undo) has none."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class RealGameLine(models.Model):
    game = models.ForeignKey(
        "game.RealGame", on_delete=models.CASCADE, related_name="lines", verbose_name=_("real game")
    )
    #: 0 for the game's first player (the white with one dot), 1 for the second.
    seat = models.PositiveSmallIntegerField(verbose_name=_("seat"))
    #: The club whose table (or event) the game was played at; null for a game of no club's.
    club = models.ForeignKey(
        "game.Club", null=True, blank=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("club")
    )
    #: The register player (and through it the account, once joined); null for a name only.
    player = models.ForeignKey(
        "game.ClubPlayer",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="real_lines",
        verbose_name=_("club player"),
    )
    name = models.CharField(max_length=80, verbose_name=_("name"))
    finished_at = models.DateTimeField(verbose_name=_("finished at"))
    #: The game's length, seconds from its first tap to its end.
    seconds = models.PositiveIntegerField(default=0, verbose_name=_("length"))
    score = models.IntegerField(default=0, verbose_name=_("score"))
    #: Points scored in the game (the score less the start score).
    points = models.IntegerField(default=0, verbose_name=_("points"))
    visits = models.PositiveIntegerField(default=0, verbose_name=_("visits"))
    fouls = models.PositiveIntegerField(default=0, verbose_name=_("fouls"))
    highest_run = models.PositiveIntegerField(default=0, verbose_name=_("highest run"))
    second_run = models.PositiveIntegerField(null=True, blank=True, verbose_name=_("second longest run"))
    won = models.BooleanField(default=False, verbose_name=_("won"))

    class Meta:
        verbose_name = _("real game line")
        verbose_name_plural = _("real game lines")
        ordering = ("-finished_at", "game", "seat")
        constraints = (models.UniqueConstraint(fields=("game", "seat"), name="one_real_line_per_seat"),)
        indexes = (
            models.Index(fields=("club", "finished_at"), name="real_line_club_finished"),
            models.Index(fields=("player", "finished_at"), name="real_line_player_finished"),
        )

    def __str__(self) -> str:
        return f"{self.name} in real game {self.game_id}"
