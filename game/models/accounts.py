"""A player's profile: what the game knows of a person beyond Django's auth user (the name shown, the
rating, the records). Imported by game/models/__init__.py, which re-exports it."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from game.common.names import name_key


class Profile(models.Model):
    """What the game knows of a person beyond Django's auth user: name shown, rating, records."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile", verbose_name=_("user")
    )
    display_name = models.CharField(_("display name"), max_length=32, unique=True)
    #: The name's key (game.common.names.name_key), unique: no two players whose names differ only in
    #: case or in the form of their letters. Kept by save() from the display name.
    name_key = models.CharField(_("name key"), max_length=128, unique=True, editable=False)
    is_guest = models.BooleanField(_("is guest"), default=False)
    is_bot = models.BooleanField(_("is bot"), default=False)
    bot_level = models.PositiveSmallIntegerField(_("bot level"), null=True, blank=True)
    # Glicko-2 on the public scale (rating, deviation) plus the volatility.
    rating = models.FloatField(_("rating"), default=1500.0)
    rating_deviation = models.FloatField(_("rating deviation"), default=350.0)
    rating_volatility = models.FloatField(_("rating volatility"), default=0.06)
    rated_games = models.PositiveIntegerField(_("rated games"), default=0)
    games_played = models.PositiveIntegerField(_("games played"), default=0)
    games_won = models.PositiveIntegerField(_("games won"), default=0)
    games_lost = models.PositiveIntegerField(_("games lost"), default=0)
    best_break = models.IntegerField(_("best break"), default=0)
    last_played_at = models.DateTimeField(_("last played at"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    #: The site's language this player chose with the header's switcher ("" until then; game/accounts/language.py).
    language = models.CharField(_("language"), max_length=8, blank=True, default="", choices=settings.LANGUAGES)

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")
        indexes = [models.Index(fields=["-rating"])]

    def __str__(self) -> str:
        return self.display_name

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.name_key = name_key(self.display_name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "display_name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "name_key"}
        super().save(*args, **kwargs)

    def count_match(self, *, played_at: datetime, best_break: int, finished: bool, won: bool | None) -> None:
        """Count a match this player played into his records and save them: the one place for a
        one-to-one and a team match alike. A finished match adds a game (and a win or a loss, none
        for a draw: `won` None); an aborted one only its best break and when it was played."""
        fields = ["last_played_at"]
        self.last_played_at = played_at
        if best_break > self.best_break:
            self.best_break = best_break
            fields.append("best_break")
        if finished:
            self.games_played += 1
            fields.append("games_played")
            if won is True:
                self.games_won += 1
                fields.append("games_won")
            elif won is False:
                self.games_lost += 1
                fields.append("games_lost")
        self.save(update_fields=fields)
