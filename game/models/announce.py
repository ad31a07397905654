"""How an event is announced: who may see it (public, by its secret link, the club's admins), how
players register online (open, by the link, or not), what the invitation says beyond the event's own
fields (the venue, the entry fee), each table's stream and scoreboard links for the forum posts, and
the registrations made online.

Kept beside the tournament rather than on it: an event with no announcement row is public and takes
no online registrations, which is what every event made before was.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class TournamentAnnouncement(models.Model):
    class Visibility(models.TextChoices):
        PUBLIC = "public", _("Public")
        LINK = "link", _("Only with the link")
        ADMINS = "admins", _("The club's admins only")

    class Registration(models.TextChoices):
        CLOSED = "closed", _("No online registration")
        OPEN = "open", _("Open to everyone")
        LINK = "link", _("Only with the link")

    tournament = models.OneToOneField(
        "game.Tournament", on_delete=models.CASCADE, related_name="announcement", verbose_name=_("tournament")
    )
    visibility = models.CharField(
        max_length=8, choices=Visibility.choices, default=Visibility.PUBLIC, verbose_name=_("who sees the event")
    )
    registration = models.CharField(
        max_length=8, choices=Registration.choices, default=Registration.CLOSED, verbose_name=_("online registration")
    )
    #: The secret of the event's link (`?k=`): the link-only event's pages and its registration.
    secret = models.CharField(max_length=32, verbose_name=_("link secret"))
    friends = models.BooleanField(default=True, verbose_name=_("a player may register a friend"))
    venue = models.CharField(max_length=120, blank=True, verbose_name=_("venue"))
    entry_fee = models.CharField(max_length=40, blank=True, verbose_name=_("entry fee"))

    class Meta:
        verbose_name = _("announcement")
        verbose_name_plural = _("announcements")


class EventTable(models.Model):
    """A table of an event with its links (http or https, checked by the announce services)."""

    tournament = models.ForeignKey(
        "game.Tournament", on_delete=models.CASCADE, related_name="table_links", verbose_name=_("tournament")
    )
    number = models.PositiveSmallIntegerField(verbose_name=_("table"))
    stream_url = models.CharField(max_length=300, blank=True, verbose_name=_("stream link"))
    scoreboard_url = models.CharField(max_length=300, blank=True, verbose_name=_("scoreboard link"))

    class Meta:
        verbose_name = _("table's links")
        verbose_name_plural = _("tables' links")
        ordering = ("tournament", "number")
        constraints = (models.UniqueConstraint(fields=("tournament", "number"), name="one_link_row_per_table"),)


class TournamentRegistration(models.Model):
    """An entry made online: by a signed-in player for themselves (`user`), for a friend by name
    (`registered_by` the player), or by a guest by name (neither). Removing the entry removes it."""

    tournament = models.ForeignKey(
        "game.Tournament", on_delete=models.CASCADE, related_name="registrations", verbose_name=_("tournament")
    )
    entry = models.OneToOneField(
        "game.TournamentEntry", on_delete=models.CASCADE, related_name="registration", verbose_name=_("entry")
    )
    name = models.CharField(max_length=80, verbose_name=_("name"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("player's account"),
    )
    registered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("registered by"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("registered at"))

    class Meta:
        verbose_name = _("online registration")
        verbose_name_plural = _("online registrations")
        ordering = ("tournament", "created_at", "id")
