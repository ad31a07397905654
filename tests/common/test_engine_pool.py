"""The server's one engine pool (game.common.engine_pool): a job runs in a worker process started off the
event loop (starting a spawn process held the loop 29 to 52 ms: the late first ping of
tests/matches/test_analysis.py::test_analysis_runs_off_the_event_loop), and the pool serves by urgency:
the computer's move in a live match before any question waiting, with a worker kept for moves when there
are two or more."""

from __future__ import annotations

import asyncio
import multiprocessing.context
import os
import threading
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from game.common.engine_pool import (
    EngineBusy,
    QuestionPending,
    Urgency,
    ask_engine,
    ask_queue_limit,
    engine_pool_close,
    engine_scheduler,
    engine_workers,
    questions_in_flight,
    run_in_engine_pool,
)
from game.engine.rules import Match as EngineMatch
from game.matches import bot_runner
from tests.common.pool_jobs import hold_until

#: A failure's guard, never a measure: a job that never comes back fails the test instead of hanging it.
STUCK = 120.0


@pytest.fixture
def fresh_pool(settings: Any) -> Iterator[None]:
    """A pool made for the test (one worker) and closed after it, so its first job starts a worker."""
    settings.KAIZA_BOT_WORKERS = 1
    engine_pool_close()
    yield
    engine_pool_close()


async def until(condition: Callable[[], bool]) -> None:
    """Yield to the loop until ``condition`` holds (the pool's dispatch runs in its own thread)."""
    for _ in range(int(STUCK * 100)):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the pool never got there")


def in_pool(job: Awaitable[Any]) -> asyncio.Task[Any]:
    return asyncio.ensure_future(job)


async def test_the_pool_starts_its_worker_off_the_event_loop(fresh_pool: None, monkeypatch: pytest.MonkeyPatch) -> None:
    started_in: list[int] = []
    start = multiprocessing.context.SpawnProcess.start

    def recording_start(process: Any) -> None:
        started_in.append(threading.get_ident())
        start(process)

    monkeypatch.setattr(multiprocessing.context.SpawnProcess, "start", recording_start)
    worker = await run_in_engine_pool(os.getpid, timeout=60)
    assert worker != os.getpid()  # the job ran in another process
    assert started_in, "the first job started no worker"
    assert threading.get_ident() not in started_in, "the worker process was started on the event loop's thread"
    # A second job finds the worker idle: no process started, the same worker answers.
    assert await run_in_engine_pool(os.getpid, timeout=60) == worker
    assert len(started_in) == 1


def test_the_pool_is_as_large_as_the_machine_unless_told(settings: Any) -> None:
    settings.KAIZA_BOT_WORKERS = None
    assert engine_workers() == len(os.sched_getaffinity(0))
    settings.KAIZA_BOT_WORKERS = 3
    assert engine_workers() == 3


@pytest.mark.parametrize("workers", [1, 2])
async def test_bot_move_is_served_during_an_ask_flood(workers: int, settings: Any, tmp_path: Path) -> None:
    """A worker held by a question, 20 more questions waiting, then a live match's bot move: the move is
    answered before any of the 20 (they cannot end before the test lets them, so none has). With one
    worker it takes the worker as soon as the question in progress ends; with two it takes the worker kept
    for moves and waits for nothing."""
    settings.KAIZA_BOT_WORKERS = workers
    engine_pool_close()
    try:
        holding, asked = tmp_path / "holding", tmp_path / "asked"
        await run_in_engine_pool(os.getpid, timeout=STUCK)  # a worker started, as in a server that served before
        scheduler = engine_scheduler()
        first = in_pool(run_in_engine_pool(hold_until, str(holding), timeout=STUCK, urgency=Urgency.QUESTION))
        await until(lambda: scheduler.running == 1)
        flood = [
            in_pool(run_in_engine_pool(hold_until, str(asked), timeout=STUCK, urgency=Urgency.QUESTION))
            for _ in range(20)
        ]
        await until(lambda: len(scheduler.waiting) == 20)
        lag = EngineMatch.new(players=("alice", "bob")).snapshot()
        move = in_pool(bot_runner.think(lag, 1, "alice", bot_runner.seed_for("m", 1)))
        if workers == 1:
            holding.touch()  # the question in progress ends; the move is next, ahead of the 20
        reply = await asyncio.wait_for(move, STUCK)
        assert reply["action"] == "lag" and reply["player"] == "alice"
        assert not any(question.done() for question in flood), "a question was answered before the move"
        # One worker: a question takes it once the move is done. Two: none can take the one kept for moves.
        await until(lambda: len(scheduler.waiting) == 20 - (workers == 1) and scheduler.running == 1)
        holding.touch()
        asked.touch()
        pids = await asyncio.wait_for(asyncio.gather(first, *flood), STUCK)
        assert len(set(pids)) <= workers and os.getpid() not in pids
    finally:
        (tmp_path / "holding").touch()
        (tmp_path / "asked").touch()
        engine_pool_close()


async def test_questions_and_analyses_leave_the_last_worker_to_moves(settings: Any, tmp_path: Path) -> None:
    """Two workers: a question holds one, and an analysis waiting does not take the other (kept for
    moves); a move does, and the analysis runs once the question ends."""
    settings.KAIZA_BOT_WORKERS = 2
    engine_pool_close()
    try:
        scheduler = engine_scheduler()
        question = in_pool(run_in_engine_pool(hold_until, str(tmp_path / "q"), timeout=STUCK, urgency=Urgency.QUESTION))
        await until(lambda: scheduler.running == 1)
        analysis = in_pool(run_in_engine_pool(os.getpid, timeout=STUCK, urgency=Urgency.BACKGROUND))
        await until(lambda: len(scheduler.waiting) == 1)
        assert await asyncio.wait_for(run_in_engine_pool(os.getpid, timeout=STUCK, urgency=Urgency.MOVE), STUCK)
        assert not analysis.done() and len(scheduler.waiting) == 1
        (tmp_path / "q").touch()
        await asyncio.wait_for(asyncio.gather(question, analysis), STUCK)
    finally:
        (tmp_path / "q").touch()
        engine_pool_close()


async def test_a_question_given_up_while_waiting_never_runs(fresh_pool: None, tmp_path: Path) -> None:
    """A job whose caller stopped waiting (its timeout, a closed page) is dropped from the queue: the
    worker goes to the next one."""
    scheduler = engine_scheduler()
    holder = in_pool(run_in_engine_pool(hold_until, str(tmp_path / "h"), timeout=STUCK, urgency=Urgency.QUESTION))
    await until(lambda: scheduler.running == 1)
    dropped = in_pool(run_in_engine_pool(hold_until, str(tmp_path / "never"), timeout=STUCK, urgency=Urgency.QUESTION))
    kept = in_pool(run_in_engine_pool(os.getpid, timeout=STUCK, urgency=Urgency.QUESTION))
    await until(lambda: len(scheduler.waiting) == 2)
    dropped.cancel()
    await until(dropped.done)  # its caller stopped waiting before the worker is free
    (tmp_path / "h").touch()
    # Were the dropped job run, it would hold the only worker until "never" exists, and `kept` would wait.
    assert await asyncio.wait_for(kept, STUCK) == await holder
    assert dropped.cancelled()


async def test_a_slow_engine_lets_fewer_questions_wait(settings: Any, tmp_path: Path) -> None:
    """Room for five waiting questions, but questions have taken 1.5 s lately: with one being answered a
    second is let in (about 3 s to its answer), a third is refused at once with the two ahead of it
    (4.5 s would be past ASK_WAIT), while the queue still has room."""
    settings.KAIZA_BOT_WORKERS = 1
    settings.KAIZA_ASK_QUEUE = 5
    engine_pool_close()
    release = tmp_path / "release"
    try:
        scheduler = engine_scheduler()
        first = in_pool(ask_engine(hold_until, str(release), askers=["ip:a"], timeout=STUCK))
        await until(lambda: questions_in_flight() == (0, 1))
        scheduler.question_seconds = 1.5
        second = in_pool(ask_engine(hold_until, str(release), askers=["ip:b"], timeout=STUCK))
        await until(lambda: questions_in_flight() == (1, 1))
        with pytest.raises(EngineBusy) as busy:
            await ask_engine(os.getpid, askers=["ip:c"], timeout=STUCK)
        assert busy.value.ahead == 2 and 2 < 1 + ask_queue_limit()
        with pytest.raises(QuestionPending):
            await ask_engine(os.getpid, askers=["user:7", "ip:b"], timeout=STUCK)
        release.touch()
        await asyncio.wait_for(asyncio.gather(first, second), STUCK)
        assert questions_in_flight() == (0, 0)
        assert await ask_engine(os.getpid, askers=["ip:c"], timeout=STUCK) != os.getpid()
    finally:
        release.touch()
        engine_pool_close()
