"""The process pool every piece of engine work of the server runs in, served in order of urgency: the
computer's move in a live match first, then a person's question (the analysis board, a replay's engine
shot), then the background analysis of finished matches.

Why a pool of processes, and one: a level-5 search or a board question is a second or more of pure
Python, and a thread would hold the GIL and stall every socket of the process (ARCHITECTURE.md
section 1); one pool, because each worker is a whole interpreter and a second pool per kind of work
would double them. The pool is created on first use (a server that never meets a bot nor a question
never starts it), with ``spawn`` so that no lock of daphne's threads is inherited, and
``settings.KAIZA_BOT_WORKERS`` workers (by default the cores this process may run on). A worker runs
only ``game.engine`` functions: plain data in, plain data out, no Django.

Why a scheduler in front of it: ``ProcessPoolExecutor`` serves its jobs first come, first served, so a
flood of questions (30 addresses asking 600 positions) queued ahead of a live match's move, and the
computer player went without its move. Here a job waits in a priority queue (:class:`Urgency`, then the
order it came) and at most ``workers`` jobs are in the executor at once, so a move waits for no queued
job, only for a slot. With two or more workers, questions and analyses together take at most all but
one of them: the last is kept for moves, which then wait for nothing (with one worker, for the job in
progress at most: a question is about a second). The dispatch runs in a thread of its own, since
handing a job to the executor may start a worker process (a fork and exec held the loop 29 to 52 ms
on a 2-core host); the event loop only queues a job and awaits its future.

Questions are also admitted (:func:`ask_engine`; the pages that ask go through
game.common.engine_questions, which words the refusals): one in flight per person and per address, and a
bounded queue (``KAIZA_ASK_QUEUE``, and no wait estimated past :data:`ASK_WAIT`) that refuses at once,
saying how many are ahead, instead of a minute's wait. All of it is per process: each daphne process
has its own pool, queue and counts, so behind a load balancer a person may have one question in flight
in each process, and the order of urgency holds within a process. That is fair enough: a process's
pool serves its own sockets' bots, whose moves are what must never wait.
"""

from __future__ import annotations

import asyncio
import functools
import heapq
import itertools
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, TypeVar

from django.conf import settings

T = TypeVar("T")

#: How much lower the pool's processes run than the server (``os.nice``): on a busy host the event loop
#: of the daphne process is scheduled first and the search or analysis waits, not the sockets (a ping
#: during an analysis waited up to 75 ms with both cores taken, about 20 ms alone).
WORKER_NICENESS = 5


class Urgency(IntEnum):
    """Which engine work is served first (lower first; the same urgency in the order it came)."""

    #: The computer's move in a live match: a person at the table waits for it.
    MOVE = 0
    #: A person's question: the analysis board, a replay's engine shot.
    QUESTION = 1
    #: The analysis of a finished match, shot by shot: nobody waits at a table for it.
    BACKGROUND = 2


#: The longest a question is let in to wait for its answer (s), as estimated from the questions in flight
#: and the time questions took lately: a newcomer is answered within about this, or refused at once
#: (the bar: within 5 s). A question with none ahead of it is always let in.
ASK_WAIT = 4.0
#: The weight of the newest question's time in the moving average.
QUESTION_TIME_WEIGHT = 0.3


def machine_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system says, else all of them)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def engine_workers() -> int:
    """How many worker processes the pool has (``KAIZA_BOT_WORKERS``, at least 1; by default the
    machine's cores: a worker only starts when a job finds the others busy)."""
    configured = settings.KAIZA_BOT_WORKERS
    return machine_cores() if configured is None else configured


def ask_queue_limit() -> int:
    """Questions that may wait at once beyond those the workers are answering (``KAIZA_ASK_QUEUE``);
    one more is refused with how many are ahead. By default one for each worker questions may use: at
    1-1.5 s a question, one admitted is answered within 3 s, where two each made the last wait 5 s."""
    configured = settings.KAIZA_ASK_QUEUE
    return _work_slots(engine_workers()) if configured is None else configured


def _work_slots(workers: int) -> int:
    """Workers that questions and analyses may take together: all but the one kept for moves."""
    return max(1, workers - 1)


@dataclass(order=True)
class _Job:
    urgency: int
    order: int
    ticket: Future[Any] = field(compare=False)
    call: Callable[[], Any] = field(compare=False)
    #: When a worker took it (time.monotonic()).
    started: float = field(default=0.0, compare=False)


class EngineScheduler:
    """The pool's executor and the priority queue in front of it (see the module docstring)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.work_slots = _work_slots(workers)
        self.executor = self._new_executor()
        self.broken = False
        self.condition = threading.Condition()
        self.waiting: list[_Job] = []
        self.order = itertools.count()
        #: Jobs in the executor, all of them and those that are not moves.
        self.running = 0
        self.running_work = 0
        #: What a question has taken in a worker lately (s, a moving average; 0 before the first).
        self.question_seconds = 0.0
        self.closed = False
        self.thread = threading.Thread(target=self._dispatch, name="kaiza-engine-dispatch", daemon=True)
        self.thread.start()

    def _new_executor(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=os.nice,
            initargs=(WORKER_NICENESS,),
        )

    def submit(self, urgency: Urgency, call: Callable[[], T]) -> Future[T]:
        """Queue ``call``; its future is cancelled (by its caller) to drop it while it still waits."""
        ticket: Future[T] = Future()
        with self.condition:
            if self.closed:
                raise BrokenProcessPool("the engine pool is closed")
            heapq.heappush(self.waiting, _Job(int(urgency), next(self.order), ticket, call))
            self.condition.notify()
        return ticket

    def _next(self) -> _Job | None:
        """The most urgent waiting job if a worker may take it now (under the condition's lock)."""
        while self.waiting:
            job = self.waiting[0]
            if job.ticket.cancelled():
                heapq.heappop(self.waiting)
                continue
            if self.running >= self.workers:
                return None
            if job.urgency != Urgency.MOVE and self.running_work >= self.work_slots:
                return None
            return heapq.heappop(self.waiting)
        return None

    def _dispatch(self) -> None:
        while True:
            with self.condition:
                job = self._next()
                while job is None and not self.closed:
                    self.condition.wait()
                    job = self._next()
                if job is None:
                    return
                if not job.ticket.set_running_or_notify_cancel():
                    continue
                self._take(job, +1)
                job.started = time.monotonic()
                renew, self.broken = self.broken, False
            try:
                if renew:  # a worker died: its executor failed every job it held, and takes no more
                    self.executor.shutdown(wait=False, cancel_futures=True)
                    self.executor = self._new_executor()
                future = self.executor.submit(job.call)
            except BaseException as exc:  # a pool shut down or broken meanwhile: the caller may retry
                self._finished(job, None, exc)
                continue
            future.add_done_callback(functools.partial(self._finished, job))

    def _take(self, job: _Job, step: int) -> None:
        self.running += step
        if job.urgency != Urgency.MOVE:
            self.running_work += step

    def _finished(self, job: _Job, future: Future[Any] | None, error: BaseException | None = None) -> None:
        if future is not None:
            error = future.exception() if not future.cancelled() else BrokenProcessPool("the job was cancelled")
        with self.condition:
            self._take(job, -1)
            if isinstance(error, BrokenProcessPool):
                self.broken = True
            if job.urgency == Urgency.QUESTION and error is None:
                took = time.monotonic() - job.started
                last = self.question_seconds
                self.question_seconds = took if not last else last + QUESTION_TIME_WEIGHT * (took - last)
            self.condition.notify()
        if error is not None:
            job.ticket.set_exception(error)
        else:
            assert future is not None
            job.ticket.set_result(future.result())

    def close(self) -> None:
        """Drop the waiting jobs, stop the dispatch and the workers (running jobs end first)."""
        with self.condition:
            self.closed = True
            for job in self.waiting:
                job.ticket.cancel()
            self.waiting.clear()
            self.condition.notify()
        self.thread.join(timeout=10)
        self.executor.shutdown(wait=True, cancel_futures=True)


_scheduler: EngineScheduler | None = None
_scheduler_lock = threading.Lock()


def engine_scheduler() -> EngineScheduler:
    """The process's scheduler and pool, created on first use."""
    global _scheduler
    with _scheduler_lock:
        if _scheduler is None:
            _scheduler = EngineScheduler(engine_workers())
        return _scheduler


def engine_pool_close() -> None:
    """Stop the pool's workers (the next job starts a fresh pool, read again from
    ``KAIZA_BOT_WORKERS``): for a command that measures the pool with a number of workers of its own
    (bench_analysis: one), so it neither inherits a pool nor leaves its worker running, and for tests."""
    global _scheduler
    with _scheduler_lock:
        closing, _scheduler = _scheduler, None
    if closing is not None:
        closing.close()


async def run_in_engine_pool(
    function: Callable[..., T], *args: Any, timeout: float, urgency: Urgency = Urgency.BACKGROUND, **kwargs: Any
) -> T:
    """``function(*args, **kwargs)`` in a worker, served by ``urgency``, awaited without holding the
    loop; a job whose worker died (a broken pool, made again) is tried once more. ``TimeoutError``
    after ``timeout`` s, waiting included (a job that had not started is dropped)."""
    job = functools.partial(function, *args, **kwargs)
    for attempt in (1, 2):
        try:
            ticket = engine_scheduler().submit(urgency, job)
            return await asyncio.wait_for(asyncio.wrap_future(ticket), timeout)
        except BrokenProcessPool:
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


# --- questions: admitted one per person and per address, to a bounded queue ---------------------------


class EngineBusy(Exception):
    """A question refused at once: the queue is full; ``ahead`` questions are in flight before it."""

    def __init__(self, ahead: int) -> None:
        super().__init__(f"{ahead} questions ahead")
        self.ahead = ahead


class QuestionPending(Exception):
    """A question refused at once: ``asker`` (the person's or the address's key) has one in flight."""

    def __init__(self, asker: str) -> None:
        super().__init__(f"{asker} has a question in flight")
        self.asker = asker


#: Who has a question in flight in this process (a person's key, an address's key), and the questions
#: in flight, each with whether it has been handed to a worker.
_asking: set[str] = set()
_questions: list[Future[Any]] = []


def questions_in_flight() -> tuple[int, int]:
    """(questions waiting for a worker, questions being answered) in this process."""
    running = sum(1 for ticket in _questions if ticket.running() or ticket.done())
    return len(_questions) - running, running


async def ask_engine(function: Callable[..., T], *args: Any, askers: Iterable[str], timeout: float, **kwargs: Any) -> T:
    """A person's question, ``function(*args, **kwargs)`` at :attr:`Urgency.QUESTION`, admitted or
    refused at once: :class:`QuestionPending` when one of ``askers`` (the person, the address) has a
    question in flight; :class:`EngineBusy` when ``KAIZA_ASK_QUEUE`` questions wait already, or when
    the questions ahead and this one would take more than :data:`ASK_WAIT` at the time questions took
    lately (a slow or busy host lets fewer wait). The check and the taking happen without an await
    between them (one event loop: no two can pass together)."""
    keys = list(askers)
    for key in keys:
        if key in _asking:
            raise QuestionPending(key)
    scheduler = engine_scheduler()
    waiting, running = questions_in_flight()
    ahead = waiting + running
    rounds = ahead // scheduler.work_slots + 1  # the workers answer the questions ahead a slot at a time
    if ahead and (ahead >= scheduler.work_slots + ask_queue_limit() or rounds * scheduler.question_seconds > ASK_WAIT):
        raise EngineBusy(ahead)
    job = functools.partial(function, *args, **kwargs)
    ticket = scheduler.submit(Urgency.QUESTION, job)
    _asking.update(keys)
    _questions.append(ticket)
    try:
        return await asyncio.wait_for(asyncio.wrap_future(ticket), timeout)
    finally:
        _asking.difference_update(keys)
        _questions.remove(ticket)
