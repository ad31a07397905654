"""A finished match's shot analysis: one row per match, however many ask for it.

The row is the queue and the result at once: asked for (``queued``), taken by one server process
(``running``, its progress ``done_shots`` of ``total_shots`` written after every shot), then ``done`` with
the report (game.engine.analysis.MatchAnalysis.as_dict) or ``failed`` with the reason. The one-to-one
key on the match makes "stored once" the database's promise, not the code's.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class MatchAnalysis(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", _("Waiting to be analysed")
        RUNNING = "running", _("Being analysed")
        DONE = "done", _("Analysed")
        FAILED = "failed", _("Analysis failed")

    #: The states that hold a place in the queue (the per-user limit counts these).
    WAITING = (Status.QUEUED, Status.RUNNING)

    match = models.OneToOneField(
        "game.Match", on_delete=models.CASCADE, related_name="analysis", verbose_name=_("match")
    )
    status = models.CharField(_("status"), max_length=8, choices=Status.choices, default=Status.QUEUED)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("requested by"),
    )
    done_shots = models.PositiveIntegerField(_("shots analysed"), default=0)
    total_shots = models.PositiveIntegerField(_("shots to analyse"), default=0)
    report = models.JSONField(_("report"), null=True, blank=True)
    failure = models.CharField(_("failure"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("match analysis")
        verbose_name_plural = _("match analyses")
        indexes = [models.Index(fields=["status", "requested_by"], name="analysis_queue")]

    def __str__(self) -> str:
        return f"Analysis of {self.match_id} ({self.status})"
