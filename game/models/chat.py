"""A match's chat: the messages, stored with the match, and the reports players make of them.

Kept apart from game/models.py (which imports this module at its end, so Django registers these with
the app) because chat is a concept of its own (docs/chat.md). A message is either free text or a quick
phrase's code (game/chat/phrases.py), which every reader sees in their own language; it belongs to one
channel, the players' or the spectators'. A report is a row an admin reads in the Django admin.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ChatMessage(models.Model):
    class Channel(models.TextChoices):
        PLAYERS = "players", _("Players")
        SPECTATORS = "spectators", _("Spectators")

    match = models.ForeignKey(
        "game.Match", on_delete=models.CASCADE, related_name="chat_messages", verbose_name=_("match")
    )
    channel = models.CharField(_("channel"), max_length=10, choices=Channel.choices)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("author"),
    )
    #: The name shown (kept: a renamed or deleted account does not rewrite a match's chat).
    author_name = models.CharField(_("author name"), max_length=32)
    text = models.CharField(_("text"), max_length=200, blank=True)
    #: A quick phrase's code (game.chat.phrases.PHRASES), or "" for free text.
    phrase = models.CharField(_("phrase"), max_length=16, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        ordering = ("match", "id")
        indexes = (models.Index(fields=["match", "channel", "id"], name="chat_by_match_channel"),)

    def __str__(self) -> str:
        return f"{self.match_id} {self.channel} {self.author_name}: {self.text or self.phrase}"


class ChatReport(models.Model):
    """A reader's report of one chat message; one per reader and message."""

    message = models.ForeignKey(
        ChatMessage, on_delete=models.CASCADE, related_name="reports", verbose_name=_("chat message")
    )
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("reporter")
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    #: Set by an admin once the report has been looked at.
    resolved = models.BooleanField(_("resolved"), default=False)

    class Meta:
        verbose_name = _("chat report")
        verbose_name_plural = _("chat reports")
        ordering = ("-created_at",)
        constraints = (models.UniqueConstraint(fields=["message", "reporter"], name="one_report_per_reader"),)

    def __str__(self) -> str:
        return f"report of {self.message_id} by {self.reporter_id}"
