"""A club's player register: the people who play the club's events at its tables, with or without an
account. A walk-in is one of them (`TournamentEntry.player`), found by name as the director types
it, so the same person is the same player every week; joined to an account later, the player's
events are that account's (game/clubs/register.py)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ClubPlayer(models.Model):
    club = models.ForeignKey("game.Club", on_delete=models.CASCADE, related_name="players", verbose_name=_("club"))
    #: The name as shown (game.common.names.name_clean of the first typing).
    name = models.CharField(max_length=80, verbose_name=_("name"))
    #: What two typings of the name share (game.common.names.register_key): one player per key in a club.
    name_key = models.CharField(max_length=160, verbose_name=_("name key"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="club_players",
        verbose_name=_("account"),
    )
    #: The player's own club as the federation's ranking list or a KaisaKaavio file last named it.
    home_club = models.CharField(max_length=80, blank=True, default="", verbose_name=_("player's club"))
    #: The club's handicap list: the score this player's games start at when an event takes its
    #: handicaps from the list (null: not on the list).
    handicap = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("handicap"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("club player")
        verbose_name_plural = _("club players")
        ordering = ("club", "name_key", "id")
        constraints = (
            models.UniqueConstraint(fields=("club", "name_key"), name="one_club_player_per_name"),
            models.UniqueConstraint(
                fields=("club", "user"), condition=models.Q(user__isnull=False), name="one_club_player_per_account"
            ),
        )

    def __str__(self) -> str:
        return self.name
