"""Runs the shot analysis of finished matches in the computer player's process pool.

Why it is built this way:

- **The event loop stays free** (ARCHITECTURE.md section 1). An analysis is about 0.7 s of pure Python
  a shot (bench_analysis), and even the replay of the record that gives each shot its position is CPU
  work: every piece runs in the server's engine pool (:mod:`game.common.engine_pool`, shared with
  the computer player and the analysis board; its workers import the engine, never Django). The loop
  only awaits the futures, writes the progress through the database pool and publishes it.
- **Shot by shot.** One pool job per shot (its analysis and the best shot's exact motion), the
  progress stored and published (``analysis {status, done, total}`` to the match's group: the match
  page's and the replay page's sockets) after each, so a page shows "shot k of N" live; every job is
  the pool's least urgent (``Urgency.BACKGROUND``): a bot's move or a person's question waiting is
  served before the next shot.
- **Taken once.** Every daphne process's clock poll (game.matches.clock_runner.EACH_POLL, registered in
  game.apps) calls :func:`start_waiting`, which takes a queued analysis with ``FOR UPDATE SKIP LOCKED``
  (game.matches.services.analysis_claim): two processes never run the same one. A crash marks it
  failed with its reason; it can be asked for again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from django.conf import settings

from game.common.db import db_async
from game.common.engine_pool import Urgency, run_in_engine_pool
from game.engine.analysis import (
    ANALYSIS_SIMULATIONS,
    DEFAULT_SAMPLES,
    STROKE_NOISE,
    PlayedShot,
    analyse_with_motion,
    played_shots,
    summarise_match,
)
from game.engine.replay import record_shots
from game.matches import services as match_services
from game.matches.selectors.replays import match_player_names, match_replay_record
from game.models import Match, MatchAnalysis
from game.realtime import fanout as realtime
from game.realtime import outbound

logger = logging.getLogger(__name__)

#: Analyses one process runs at once: one shot at a time of background work keeps the pool's other
#: workers for questions.
RUNNING_PER_PROCESS = 1
#: Longest wait for one shot's analysis (s): the search is bounded in simulations, not time.
SHOT_TIMEOUT = 120.0

_running: set[int] = set()
_tasks: set[asyncio.Task[Any]] = set()


def analysis_samples() -> int:
    """Noisy strikes per valued shot (the engine's 24; tests set ``KAIZA_ANALYSIS_SAMPLES`` low)."""
    configured = settings.KAIZA_ANALYSIS_SAMPLES
    return DEFAULT_SAMPLES if configured is None else configured


def analysis_simulations() -> int:
    """The best-shot search's budget in simulations (the engine's; ``KAIZA_ANALYSIS_SIMULATIONS``)."""
    configured = settings.KAIZA_ANALYSIS_SIMULATIONS
    return ANALYSIS_SIMULATIONS if configured is None else configured


def _claimed_record(analysis_id: int | None) -> tuple[MatchAnalysis, dict[str, Any], list[str]] | None:
    analysis = match_services.analysis_claim(analysis_id=analysis_id)
    if analysis is None:
        return None
    match = Match.objects.get(pk=analysis.match_id)
    return analysis, match_replay_record(match=match), match_player_names(match=match)


async def _publish(match_id: str, status: outbound.AnalysisStatus, done: int, total: int) -> None:
    await realtime.relay(match_id, outbound.Analysis(status, done, total))


#: Told after shot ``done`` of ``total`` (and once with 0 before the first): the server stores and
#: publishes it, the benchmark prints it.
Progress = Callable[[int, int], Awaitable[None]]


async def analyse_record(
    record: Mapping[str, Any], players: list[str], *, samples: int, simulations: int, progress: Progress
) -> tuple[dict[str, Any], list[PlayedShot]]:
    """A stored match's analysis the product's way: the positions replayed from its input ``record``,
    then one engine-pool job a shot (its analysis and the best shot's exact motion), ``progress``
    awaited after each; the report (with ``simulations`` and each shot's ``best_motion``) and the
    shots analysed. The one path of the server (:func:`run_one`) and of ``bench_analysis``."""
    shots = played_shots(
        await run_in_engine_pool(record_shots, record, timeout=SHOT_TIMEOUT, urgency=Urgency.BACKGROUND)
    )
    total = len(shots)
    await progress(0, total)
    analyses = []
    motions = []
    for index, shot in enumerate(shots):
        analysed, motion = await run_in_engine_pool(
            analyse_with_motion,
            shot,
            STROKE_NOISE,
            samples,
            simulations,
            timeout=SHOT_TIMEOUT,
            urgency=Urgency.BACKGROUND,
        )
        analyses.append(analysed)
        motions.append(motion)
        await progress(index + 1, total)
    report = summarise_match(analyses, players, STROKE_NOISE, samples).as_dict()
    report["simulations"] = simulations
    # The engine's shot played exactly, beside each shot: the replay page's "Show the engine's shot"
    # draws and plays these segments (game.matches.selectors.analysis.engine_shot).
    for shot_report, motion in zip(report["shots"], motions, strict=True):
        shot_report["best_motion"] = motion
    return report, shots


async def run_one(analysis_id: int | None = None) -> int | None:
    """Take one waiting analysis (``analysis_id``'s, or the oldest) and run it to its end; the id run,
    or None when there was none to take."""
    claimed = await db_async(_claimed_record)(analysis_id)
    if claimed is None:
        return None
    analysis, record, players = claimed
    match_id = str(analysis.match_id)
    _running.add(analysis.pk)

    async def progress(done: int, total: int) -> None:
        await db_async(match_services.analysis_progress)(analysis_id=analysis.pk, done=done, total=total)
        await _publish(match_id, "running", done, total)

    try:
        report, shots = await analyse_record(
            record, players, samples=analysis_samples(), simulations=analysis_simulations(), progress=progress
        )
        total = len(shots)
        positions = [{"snapshot": shot.snapshot, "player": shot.player} for shot in shots]
        await db_async(match_services.analysis_finish)(analysis_id=analysis.pk, report=report, positions=positions)
        await _publish(match_id, "done", total, total)
    except Exception as exc:
        logger.exception("the analysis of match %s failed", match_id)
        await db_async(match_services.analysis_fail)(analysis_id=analysis.pk, reason=f"{type(exc).__name__}: {exc}")
        await _publish(match_id, "failed", 0, 0)
    finally:
        _running.discard(analysis.pk)
    return analysis.pk


def _finished(task: asyncio.Task[Any]) -> None:
    _tasks.discard(task)
    if not task.cancelled() and task.exception() is not None:
        logger.error("analysis task failed", exc_info=task.exception())


async def start_waiting() -> None:
    """Each clock poll: start the oldest waiting analysis if this process runs fewer than
    :data:`RUNNING_PER_PROCESS` (it runs as a task of its own: the poll does not wait for it)."""
    if len(_tasks) >= RUNNING_PER_PROCESS:
        return
    if await db_async(match_services.analysis_waiting)():
        task = asyncio.create_task(run_one(), name="analysis")
        _tasks.add(task)
        task.add_done_callback(_finished)
