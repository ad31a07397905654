"""The tournament clock (K-11.1). The engine never reads a clock: callers pass ``now`` (seconds).

The clock starts at the first input that carries ``now``. The warning is noted once elapsed time
reaches ``warning``; expiry is noted at ``limit`` and acted on by the match at the end of a round (see
:mod:`game.engine.rules.match`).
"""

from __future__ import annotations

import math
from typing import Any

from game.engine.rules.errors import RuleError


def new_clock(limit: float | None, warning: float | None) -> dict[str, Any]:
    return {"limit": limit, "warning": warning, "started": None, "last": None, "warned": False, "expired": False}


def check_now(now: object) -> float | None:
    if now is None:
        return None
    if isinstance(now, bool) or not isinstance(now, int | float) or not math.isfinite(now):
        raise RuleError("bad_time", "now must be a finite number of seconds")
    return float(now)


def tick(clock: dict[str, Any], now: float | None) -> None:
    """Advance ``clock`` (changed in place) to ``now``; time never runs backwards."""
    if now is None or clock.get("limit") is None:
        return
    if clock["started"] is None:
        clock["started"] = now
    if clock["last"] is not None and now < clock["last"]:
        now = clock["last"]
    clock["last"] = now
    elapsed = now - clock["started"]
    if clock["warning"] is not None and elapsed >= clock["warning"]:
        clock["warned"] = True
    if elapsed >= clock["limit"]:
        clock["expired"] = True


def status(clock: dict[str, Any], now: float | None) -> dict[str, Any]:
    """Elapsed and remaining seconds at ``now`` without changing anything (for the online layer)."""
    limit = clock.get("limit")
    if limit is None or clock.get("started") is None or now is None:
        return {
            "elapsed": None,
            "remaining": limit,
            "warning": bool(clock.get("warned")),
            "expired": bool(clock.get("expired")),
        }
    elapsed = max(0.0, now - clock["started"])
    warning = clock["warning"]
    return {
        "elapsed": elapsed,
        "remaining": max(0.0, limit - elapsed),
        "warning": bool(clock["warned"]) or (warning is not None and elapsed >= warning),
        "expired": bool(clock["expired"]) or elapsed >= limit,
    }
