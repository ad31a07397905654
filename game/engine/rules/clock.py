"""The tournament clock (K-11.1). The engine never reads a clock: callers pass ``now`` (seconds).

The clock starts at the first input that carries ``now``. The warning is noted once elapsed time
reaches ``warning``; expiry is noted at ``limit`` and acted on by the match at the end of a round (see
:func:`game.engine.rules.phases.flow.end_visit`).
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any

from game.engine.rules.errors import RuleError


@dataclass(frozen=True)
class Clock:
    """``limit`` None: no time limit. Times are seconds of the caller's clock."""

    limit: float | None = None
    warning: float | None = None
    started: float | None = None
    last: float | None = None
    warned: bool = False
    expired: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {
            "limit": self.limit,
            "warning": self.warning,
            "started": self.started,
            "last": self.last,
            "warned": self.warned,
            "expired": self.expired,
        }


def new_clock(limit: float | None, warning: float | None) -> Clock:
    return Clock(limit=limit, warning=warning)


def check_now(now: object) -> float | None:
    if now is None:
        return None
    if isinstance(now, bool) or not isinstance(now, int | float) or not math.isfinite(now):
        raise RuleError("bad_time", "now must be a finite number of seconds")
    return float(now)


def tick(clock: Clock, now: float | None) -> Clock:
    """``clock`` advanced to ``now``; time never runs backwards."""
    if now is None or clock.limit is None:
        return clock
    started = now if clock.started is None else clock.started
    if clock.last is not None and now < clock.last:
        now = clock.last
    elapsed = now - started
    return dataclasses.replace(
        clock,
        started=started,
        last=now,
        warned=clock.warned or (clock.warning is not None and elapsed >= clock.warning),
        expired=clock.expired or elapsed >= clock.limit,
    )


def status(clock: Clock, now: float | None) -> dict[str, Any]:
    """Elapsed and remaining seconds at ``now`` without changing anything (for the online layer)."""
    limit = clock.limit
    if limit is None or clock.started is None or now is None:
        return {"elapsed": None, "remaining": limit, "warning": clock.warned, "expired": clock.expired}
    elapsed = max(0.0, now - clock.started)
    warning = clock.warning
    return {
        "elapsed": elapsed,
        "remaining": max(0.0, limit - elapsed),
        "warning": clock.warned or (warning is not None and elapsed >= warning),
        "expired": clock.expired or elapsed >= limit,
    }
