"""The lobby socket's own client messages (quick pairing): `seek` and `seek_cancel`.

Everything else a lobby socket may send (`ping`) is parsed by game.realtime.protocol, whose framing rules
(size, JSON, the `{t, ack?, v?, d?}` envelope) apply here as well. Like game.realtime.protocol, nothing here
raises on input or knows about Django; the service checks the choices themselves (which time limits
a seek offers lives in game/lobby/services/seeks.py). docs/protocol.md documents both; what the lobby
socket sends is typed in game.realtime.outbound.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from game.realtime import protocol

LOBBY_TYPES = ("seek", "seek_cancel")


@dataclass(frozen=True, slots=True)
class SeekRequest:
    rated: bool
    time_limit: int | None


@dataclass(frozen=True, slots=True)
class SeekCancel:
    pass


LobbyMessage = SeekRequest | SeekCancel | protocol.ClientMessage | protocol.Invalid


def parse_lobby(text: str | None, binary: bytes | None = None) -> LobbyMessage:
    """One lobby frame to a typed message, or the error to answer; never raises."""
    try:
        return _parse(text, binary)
    except Exception:
        return protocol.Invalid("bad_json", "the frame could not be read")


def _parse(text: str | None, binary: bytes | None) -> LobbyMessage:
    if text is None or protocol.frame_too_large(text):
        return protocol.parse(text, binary)
    try:
        raw = json.loads(text)
    except (ValueError, RecursionError):
        return protocol.parse(text, binary)
    if not isinstance(raw, dict) or raw.get("t") not in LOBBY_TYPES:
        return protocol.parse(text, binary)
    if set(raw) - {"t", "d"}:
        return protocol.Invalid("bad_shape", "a lobby message is {t, d?}")
    d: Any = raw.get("d") or {}
    if not isinstance(d, dict):
        return protocol.Invalid("bad_shape", "d must be an object")
    if raw["t"] == "seek_cancel":
        return SeekCancel() if not d else protocol.Invalid("bad_shape", "seek_cancel takes no fields")
    if set(d) - {"rated", "time_limit"}:
        return protocol.Invalid("bad_shape", "seek takes rated and time_limit only")
    rated = d.get("rated", False)
    time_limit = d.get("time_limit")
    if not isinstance(rated, bool):
        return protocol.Invalid("bad_value", "rated must be true or false")
    if time_limit is not None and (isinstance(time_limit, bool) or not isinstance(time_limit, int)):
        return protocol.Invalid("bad_value", "time_limit must be null or whole seconds")
    return SeekRequest(rated=rated, time_limit=time_limit)
