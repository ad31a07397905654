"""JSON text of the server's hot paths: every message a socket is sent, and the JSON columns an input
writes and reads, through orjson rather than the standard library's `json`.

Why: an input's event is 5-8 KB of JSON (its state, verdict, entry and ball paths, floats for the most
part); `json.dumps` took about 190 µs for one, orjson about 20 µs, with the same values on either side
(checked: every float reads back bit for bit, `tests/common/test_json_text.py`;
docs/decisions/event-encoded-once.md). The input path encodes the event,
the snapshot and the Shot row's fields, and decodes the locked row's snapshot, on the database thread
that shares the GIL with the event loop relaying every aim.

What differs from `json.dumps(..., separators=(",", ":"), ensure_ascii=False)`: nothing a reader sees
but two spellings. A float's shortest form may be written another way (`1e-7` for `1e-07`), the same
number; and a NaN or an infinity is written `null` where `json` would have raised (`allow_nan=False`).
The engine's numbers are finite by contract (ARCHITECTURE.md 3), and what comes in is refused at the
edge (game.realtime.protocol.parse keeps the standard library's parser and its refusal of NaN).
Keys that are not strings are written as strings, as `json` does.
"""

from __future__ import annotations

from typing import Any

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS


def encode(value: Any) -> str:
    """Compact JSON text, letters as UTF-8 (a websocket text frame is UTF-8)."""
    return orjson.dumps(value, option=_OPTIONS).decode()


def decode(text: str | bytes) -> Any:
    """The value of a JSON text (orjson: exact floats, as `json.loads`)."""
    return orjson.loads(text)
