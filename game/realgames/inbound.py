"""The scorer socket's frames, read at the edge: one validator, a typed message or the error to answer."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from game.realtime.protocol import MAX_FRAME_BYTES, Invalid, frame_too_large


@dataclass(frozen=True)
class Tap:
    key: str
    tap: Any


@dataclass(frozen=True)
class Undo:
    key: str


@dataclass(frozen=True)
class Next:
    pass


@dataclass(frozen=True)
class Ping:
    pass


ScorerMessage = Tap | Undo | Next | Ping


def _key(d: dict[str, Any]) -> str:
    key = d.get("key")
    if not isinstance(key, str) or not key or len(key) > 64:
        raise ValueError("key must be a short string")
    return key


def parse_scorer(text: str | None) -> ScorerMessage | Invalid:
    """One frame of a scorer's socket; never raises."""
    if text is None or frame_too_large(text):
        return Invalid("too_large", f"send JSON text frames of at most {MAX_FRAME_BYTES} bytes")
    try:
        raw = json.loads(text)
    except (ValueError, RecursionError):
        return Invalid("bad_json", "the frame is not valid JSON")
    if not isinstance(raw, dict) or not isinstance(raw.get("t"), str):
        return Invalid("bad_shape", "a message is a JSON object {t, d?}")
    kind, d = raw["t"], raw.get("d") or {}
    if not isinstance(d, dict):
        return Invalid("bad_shape", "d must be an object")
    try:
        if kind == "tap":
            return Tap(_key(d), d.get("tap"))
        if kind == "undo":
            return Undo(_key(d))
    except ValueError as bad:
        return Invalid("bad_value", str(bad))
    if kind == "next":
        return Next()
    if kind == "ping":
        return Ping()
    return Invalid("unknown_type", f"unknown message type {kind[:40]!r}")
