"""A watchdog of the server's event loop: who held it, when a shot or an aim waited on it.

Off unless `KAIZA_LOOP_WATCHDOG_MS` is set (a threshold in milliseconds, e.g. 100). A thread of its own
asks the loop for a callback every `TICK` seconds; while an answer is late by more than the threshold it
samples the loop thread's Python stack every `TICK` seconds, and when the loop answers it logs one
warning: how long the loop was held, how much of it the loop's thread ran on a CPU and how much it
waited for one (Linux's schedstat of that thread), and the stacks it was found in, most frequent first.

Why a thread and not py-spy: py-spy samples a whole run, and a quarter-second stall in a twenty-second
window is lost among the other samples; the watchdog keeps only the stall (the load benchmark
with staggered starts missed its bars by one second of twenty). The run time and wait time tell a loop
that computes (run ~ held) from one starved of a CPU by other processes (wait ~ held) from one blocked
in a call that sleeps or waits for the GIL (neither; the other threads' run time then names the holder).

A diagnostic, not a monitor: each probe reads every thread's schedstat (a few hundred small reads a
second) and takes the GIL, so it costs the server some CPU; leave it off when measuring capacity.
"""

from __future__ import annotations

import asyncio
import collections
import gc
import logging
import os
import sys
import threading
import time
import traceback

logger = logging.getLogger(__name__)

#: Seconds between two probes (and between two stack samples during a stall).
TICK = 0.005


def _schedstat(thread_id: int) -> tuple[float, float]:
    """Seconds the thread has run on a CPU and waited for one (Linux; zeros elsewhere)."""
    try:
        with open(f"/proc/self/task/{thread_id}/schedstat") as source:
            run_ns, wait_ns, _ = source.read().split()
        return int(run_ns) / 1e9, int(wait_ns) / 1e9
    except (OSError, ValueError):
        return 0.0, 0.0


def _threads() -> dict[int, tuple[float, float, str]]:
    """Every thread of the process: native id -> (seconds run, seconds waited for a CPU, name)."""
    names = {thread.native_id: thread.name for thread in threading.enumerate()}
    out: dict[int, tuple[float, float, str]] = {}
    try:
        for entry in os.listdir("/proc/self/task"):
            ran, waited = _schedstat(int(entry))
            out[int(entry)] = (ran, waited, names.get(int(entry), entry))
    except OSError:
        pass
    return out


#: A collection of the cyclic GC at least this long (seconds) is logged on its own.
GC_REPORTED = 0.02


def _clock(moment: float) -> str:
    """Wall-clock time with milliseconds, to line a report up with the load client's timeline."""
    return time.strftime("%H:%M:%S", time.localtime(moment)) + f".{int(moment % 1 * 1000):03d}"


#: The cyclic GC's recent collections: (start, seconds, generation).
_gc_log: collections.deque[tuple[float, float, int]] = collections.deque(maxlen=64)
_gc_started = 0.0


def _on_gc(phase: str, info: dict[str, int]) -> None:
    global _gc_started
    if phase == "start":
        _gc_started = time.perf_counter()
    else:
        seconds = time.perf_counter() - _gc_started
        _gc_log.append((_gc_started, seconds, info.get("generation", -1)))
        if seconds >= GC_REPORTED:
            logger.warning(
                "%s: the cyclic GC's gen%s collection took %.0f ms (%s collected)",
                _clock(time.time() - seconds),
                info.get("generation"),
                seconds * 1000,
                info.get("collected"),
            )


def _collections_since(moment: float) -> str:
    found = [f"gen{gen} {seconds * 1000:.0f} ms" for start, seconds, gen in list(_gc_log) if start >= moment - 0.01]
    return ", ".join(found) or "none"


def _frames(frame: object) -> str:
    lines = traceback.format_stack(frame)  # type: ignore[arg-type]
    # The innermost frames say what held the loop; the outer ones are the reactor's and asyncio's.
    return "".join(lines[-8:])


class LoopWatch:
    """One loop's watchdog (see the module docstring)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, threshold: float) -> None:
        self.loop = loop
        self.threshold = threshold
        self.thread_ident = threading.get_ident()
        self.native_id = threading.get_native_id()
        self.answered = threading.Event()
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self.watch, name="kaiza-loopwatch", daemon=True)

    def start(self) -> None:
        if _on_gc not in gc.callbacks:
            gc.callbacks.append(_on_gc)
        self.thread.start()

    def stop(self) -> None:
        """Stop watching (a test's loop; a server's watchdog runs as long as its loop)."""
        self.stopped.set()
        self.answered.set()
        self.thread.join(timeout=5)
        if _on_gc in gc.callbacks:
            gc.callbacks.remove(_on_gc)

    def watch(self) -> None:
        while not self.loop.is_closed() and not self.stopped.is_set():
            self.answered.clear()
            asked = time.perf_counter()
            try:
                self.loop.call_soon_threadsafe(self.answered.set)
            except RuntimeError:
                return  # the loop closed
            before = _threads()
            samples: collections.Counter[str] = collections.Counter()
            if not self.answered.wait(self.threshold):
                while not self.answered.wait(TICK):
                    frame = sys._current_frames().get(self.thread_ident)
                    if frame is not None:
                        samples[_frames(frame)] += 1
            held = time.perf_counter() - asked
            # Late answers count even when this thread could not sample (another thread held the GIL:
            # then neither the loop nor this thread ran until it let go).
            if held > self.threshold:
                after = _threads()
                loop_before = before.get(self.native_id, (0.0, 0.0, ""))  # no /proc: zeros
                loop_after = after.get(self.native_id, loop_before)
                run, wait = loop_after[0] - loop_before[0], loop_after[1] - loop_before[1]
                others = ", ".join(
                    f"{name} ran {(after[key][0] - ran) * 1000:.0f} ms"
                    for key, (ran, _waited, name) in before.items()
                    if key != self.native_id and key in after and after[key][0] - ran > 0.005
                )
                report = "\n".join(f"--- {count} samples:\n{stack}" for stack, count in samples.most_common(4))
                logger.warning(
                    "%s: event loop held %.0f ms (its thread ran %.0f ms, waited for a CPU %.0f ms; threads: %s; "
                    "collections: %s); stacks:\n%s",
                    _clock(time.time() - held),
                    held * 1000,
                    run * 1000,
                    wait * 1000,
                    others,
                    _collections_since(asked),
                    report,
                )
            time.sleep(TICK)


def positive_setting(name: str, unit: str, what: str) -> float | None:
    """The positive number an environment variable turns a diagnostic on with (this watchdog's, the GC
    census's), or None: unset, or not a positive number of `unit` (then `what` is said to be off, in the log)."""
    value = os.environ.get(name, "").strip()
    if not value:
        return None
    try:
        number = float(value)
    except ValueError:
        number = -1.0
    if not number > 0:
        logger.error("%s=%r is not a positive number of %s: %s is off", name, value, unit, what)
        return None
    return number


def install(loop: asyncio.AbstractEventLoop) -> LoopWatch | None:
    """Start the watchdog on `loop` (called from the loop's thread) if `KAIZA_LOOP_WATCHDOG_MS` is set."""
    milliseconds = positive_setting("KAIZA_LOOP_WATCHDOG_MS", "milliseconds", "the watchdog")
    if milliseconds is None:
        return None
    watch = LoopWatch(loop, milliseconds / 1000)
    watch.start()
    return watch
