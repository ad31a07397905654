"""The shot analysis of a finished match, as stored (game.models.MatchAnalysis): asked for,
taken, advanced shot by shot, finished or failed. Each write is one short transaction; the CPU work
(game.engine.analysis) runs in the computer player's pool (game.matches.analysis_runner), never here.

One analysis per match however many ask: the row's one-to-one key on the match, taken with
``get_or_create`` under a lock of the match row, so two requests at once make one row and both get it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_noop

from game.matches.services.base import MatchError
from game.models import Match, MatchAnalysis
from game.signals import analysis_finished

#: A running analysis whose progress has not moved for this long is taken as lost (its process died)
#: and may be taken again.
STALE_AFTER = timedelta(minutes=5)


def analysis_user_limit() -> int:
    """Analyses one user may have waiting (queued or running) at once: each costs a worker of the
    computer player's pool for up to a minute, so one account cannot fill the queue."""
    return settings.KAIZA_ANALYSIS_USER_LIMIT


@dataclass(frozen=True)
class Requested:
    """What a request did: the analysis (new, re-asked after a failure, or the one already there) and
    whether it now waits for a worker (the caller may then start it at once)."""

    analysis: MatchAnalysis
    queued: bool


def analysis_request(*, match_id: str, user: Any) -> Requested:
    """Ask for the analysis of a finished match. Asking again returns the one there is; a failed one is
    queued again. Refused (MatchError, nothing stored): a visitor without an account, a match that is
    not finished, a user who already has :func:`analysis_user_limit` analyses waiting."""
    if user is None or not user.is_authenticated:
        raise MatchError("login_required", gettext_noop("Log in to ask for an analysis."))
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None:
            raise MatchError("not_found", gettext_noop("There is no such match."))
        if match.status != Match.Status.FINISHED:
            raise MatchError("not_finished", gettext_noop("Only a finished match can be analysed."))
        existing = MatchAnalysis.objects.filter(match=match).first()
        if existing is not None and existing.status != MatchAnalysis.Status.FAILED:
            return Requested(existing, False)
        limit = analysis_user_limit()
        waiting = MatchAnalysis.objects.filter(requested_by=user, status__in=MatchAnalysis.WAITING).count()
        if waiting >= limit:
            raise MatchError(
                "analysis_limit",
                gettext_noop("You already have %(limit)s analyses waiting: wait until one is done."),
                {"limit": limit},
            )
        if existing is not None:
            existing.status = MatchAnalysis.Status.QUEUED
            existing.requested_by = user
            existing.failure = ""
            existing.done_shots = existing.total_shots = 0
            existing.report = None
            existing.started_at = existing.finished_at = None
            existing.save()
            return Requested(existing, True)
        try:
            with transaction.atomic():
                analysis = MatchAnalysis.objects.create(match=match, requested_by=user)
        except IntegrityError:  # pragma: no cover - the match row lock makes this the other request's row
            return Requested(MatchAnalysis.objects.get(match=match), False)
        return Requested(analysis, True)


def _takeable() -> Q:
    """Queued, or running in a process that stopped reporting (:data:`STALE_AFTER`)."""
    stale = timezone.now() - STALE_AFTER
    return Q(status=MatchAnalysis.Status.QUEUED) | Q(status=MatchAnalysis.Status.RUNNING, updated_at__lt=stale)


def analysis_waiting() -> bool:
    """Is there an analysis to take? (a read, each clock poll of every process asks it)"""
    return MatchAnalysis.objects.filter(_takeable()).exists()


def analysis_claim(*, analysis_id: int | None = None) -> MatchAnalysis | None:
    """Take one analysis to run (``analysis_id``'s, or the oldest waiting): a queued one, or a running
    one whose process stopped reporting (:data:`STALE_AFTER`). ``FOR UPDATE SKIP LOCKED``: two
    processes never take the same one. None when there is nothing to take."""
    with transaction.atomic():
        rows = MatchAnalysis.objects.filter(_takeable())
        if analysis_id is not None:
            rows = rows.filter(pk=analysis_id)
        analysis = rows.select_for_update(skip_locked=True).order_by("created_at").first()
        if analysis is None:
            return None
        analysis.status = MatchAnalysis.Status.RUNNING
        analysis.started_at = timezone.now()
        analysis.done_shots = 0
        analysis.save(update_fields=["status", "started_at", "done_shots", "updated_at"])
        return analysis


def analysis_progress(*, analysis_id: int, done: int, total: int) -> None:
    """Shot ``done`` of ``total`` analysed (the page shows it; the time shows the run is alive)."""
    MatchAnalysis.objects.filter(pk=analysis_id, status=MatchAnalysis.Status.RUNNING).update(
        done_shots=done, total_shots=total, updated_at=timezone.now()
    )


@transaction.atomic
def analysis_finish(
    *, analysis_id: int, report: dict[str, Any], positions: Sequence[Mapping[str, Any]] | None = None
) -> None:
    """The report stored, the analysis done; ``analysis_finished`` told in the same transaction (the
    puzzles of a rated match are made from it), with the analysed ``positions`` (``snapshot`` and
    ``player`` of each shot, in the report's order) so no listener replays the match again."""
    total = len(report.get("shots") or [])
    done = MatchAnalysis.objects.filter(pk=analysis_id).update(
        status=MatchAnalysis.Status.DONE,
        report=report,
        done_shots=total,
        total_shots=total,
        failure="",
        finished_at=timezone.now(),
        updated_at=timezone.now(),
    )
    if done:
        match = Match.objects.get(analysis__pk=analysis_id)
        analysis_finished.send(sender=MatchAnalysis, match=match, report=report, positions=positions)


def analysis_fail(*, analysis_id: int, reason: str) -> None:
    """The analysis failed with ``reason`` (kept for the admin; the page says it failed and may be asked
    again)."""
    MatchAnalysis.objects.filter(pk=analysis_id).update(
        status=MatchAnalysis.Status.FAILED, failure=reason[:200], finished_at=timezone.now(), updated_at=timezone.now()
    )


@transaction.atomic
def analysis_store_motion(*, analysis_id: int, index: int, motion: Mapping[str, Any] | None) -> bool:
    """Keep the best shot's exact motion beside shot ``index`` (from 0) of a done analysis stored
    before the motions were kept (game.matches.selectors.analysis.engine_shot_wanted), so the next page
    that asks is sent it without the engine; None when the rules refused it (said, never asked again).
    Under a lock of the row: two pages asking at once store it once. False (nothing stored) when the
    analysis is not done, has no such shot, or the shot has its motion already."""
    analysis = MatchAnalysis.objects.select_for_update().filter(pk=analysis_id).first()
    if analysis is None or analysis.status != MatchAnalysis.Status.DONE or not isinstance(analysis.report, dict):
        return False
    shots = analysis.report.get("shots") or []
    if not 0 <= index < len(shots) or "best_motion" in shots[index]:
        return False
    shots[index]["best_motion"] = dict(motion) if motion is not None else None
    analysis.save(update_fields=["report"])
    return True
