"""A census of the server's cyclic garbage: what reference counting could not free, by type.

Off unless `KAIZA_GC_CENSUS_S` is set (seconds between two reports, e.g. 5). Every collection of the cyclic
GC then keeps what it found in `gc.garbage` (`gc.DEBUG_SAVEALL`) instead of freeing it, and a thread of its
own logs, every period, the objects the collections found since its last report, counted by type; a frame
is named by its file and function, a function or coroutine by its qualified name, so the report says which
code made the cycles.

Why: the cyclic GC's collections stop the event loop (bench.diagnostics.loopwatch logs the long ones), and what
starts them is garbage: every container reference counting cannot free counts towards the next collection.
The loop watchdog says that collections stopped the loop; this says what they were collecting (it found
a refused call's error kept with its traceback, ~190 objects an input: docs/decisions/no-cyclic-garbage.md).

A diagnostic for a benchmark's server, never for a real one: nothing found is ever freed, so the process
grows by everything its collections find for as long as it runs.
"""

from __future__ import annotations

import collections
import gc
import logging
import threading
import types
from pathlib import Path

from bench.diagnostics.loopwatch import positive_setting

logger = logging.getLogger(__name__)

#: The project's root: frames of its files are named from there, site-packages' from the package.
ROOT = str(Path(__file__).resolve().parents[2]) + "/"

#: Set to end the census (tests; a server's census runs as long as the server).
_stop = threading.Event()

#: Types whose name alone says nothing of the code that made them: counted by type name only.
_ANONYMOUS = (dict, list, tuple, set, frozenset, types.CellType)


def kind_of(obj: object) -> str:
    """The census's name for one object: its type, and for code objects where the code lives.

    `type(obj)`, never `isinstance`: garbage holds lazy proxies (a request's CSP nonce) whose class
    lookup raises once their request is over."""
    cls = type(obj)
    name = cls.__name__
    if cls is types.FrameType:
        code = obj.f_code  # type: ignore[attr-defined]
        path = code.co_filename.rsplit("site-packages/", 1)[-1].removeprefix(ROOT)
        return f"frame {path}:{code.co_name}"
    if cls in (types.FunctionType, types.CoroutineType):
        qualname = obj.__qualname__  # type: ignore[attr-defined]
        return f"{name} {getattr(obj, '__module__', None) or '?'}.{qualname}"
    if cls is types.MethodType:
        return f"method {getattr(obj.__func__, '__qualname__', '?')}"  # type: ignore[attr-defined]
    if cls in _ANONYMOUS or issubclass(cls, BaseException):
        return name
    return f"{cls.__module__}.{cls.__qualname__}"


def census(found: list[object], top: int = 40) -> str:
    """The report of one period: how many objects, then the `top` kinds, most numerous first."""
    counts = collections.Counter(kind_of(obj) for obj in found)
    lines = [f"{count:8d}  {kind}" for kind, count in counts.most_common(top)]
    return f"{len(found)} objects of cyclic garbage\n" + "\n".join(lines)


def _report(every: float) -> None:
    reported = 0
    while not _stop.wait(every):
        found = gc.garbage[reported:]
        reported += len(found)
        logger.warning("GC census, the last %g s: %s", every, census(found))


def install() -> bool:
    """Start the census if `KAIZA_GC_CENSUS_S` is set to a positive number of seconds."""
    every = positive_setting("KAIZA_GC_CENSUS_S", "seconds", "the census")
    if every is None:
        return False
    _stop.clear()
    gc.set_debug(gc.get_debug() | gc.DEBUG_SAVEALL)
    threading.Thread(target=_report, args=(every,), name="kaiza-gc-census", daemon=True).start()
    return True


def stop() -> None:
    """End the census: collections free what they find again, and what was kept is let go."""
    _stop.set()
    gc.set_debug(gc.get_debug() & ~gc.DEBUG_SAVEALL)
    gc.garbage.clear()
