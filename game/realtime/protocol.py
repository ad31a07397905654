"""The websocket message schema: client frames parsed into typed messages (what the server sends:
game.realtime.outbound).

The edge of the system (lila-ws style): a raw frame either becomes one of the frozen message classes
below or an :class:`Invalid` carrying the error code to answer with. Nothing here raises on input, does
I/O or knows about Django, so the consumer can hand any frame to :func:`parse` and a fuzzer can prove
that every hostile frame ends as an ``error`` reply. docs/protocol.md is the human reference of what is
parsed and built here; the two change together.
"""

from __future__ import annotations

import json
import math
import unicodedata
from dataclasses import dataclass
from typing import Any, TypeGuard

from game.engine.balls import BALL_IDS, CUE_BALL_IDS
from game.engine.rules import Call, StrikeInput
from game.engine.strike_limits import STRIKE_LIMITS
from game.engine.table import POCKET_IDS, kaisa_table
from game.realtime import outbound

#: Frames above this many bytes (UTF-8) are refused before they reach the JSON parser.
MAX_FRAME_BYTES = 4096
#: `ack` ids are positive integers a JavaScript number holds exactly.
MAX_ACK = 2**53 - 1
#: Versions fit the database's positive integer column.
MAX_VERSION = 2**31 - 1
MAX_CHAT_CHARS = 200
#: The chat's quick phrases, sent and stored as these codes (their words: game/chat/phrases.py).
CHAT_PHRASES = ("good_shot", "thanks", "rematch", "good_game")
#: The two chat channels of a match (docs/chat.md: who writes and who reads each).
CHAT_CHANNELS = ("players", "spectators")
#: Cue tip speed at impact, m/s (engine contract: 0 < speed <= 9).
MAX_SPEED = STRIKE_LIMITS.max_speed
#: Tip offset from the ball centre as a fraction of the radius (engine contract: |(side, height)| <= 0.6).
MAX_TIP_OFFSET = STRIKE_LIMITS.max_tip_offset
#: The cue direction in radians; anything within one turn either way is accepted as sent.
MAX_ANGLE = STRIKE_LIMITS.max_angle
MAX_CALLED_CUSHIONS = 9

_TABLE = kaisa_table()
TABLE_LENGTH = _TABLE.length
TABLE_WIDTH = _TABLE.width

#: Client message types that change a match: only a player of the match may send them.
PLAY_TYPES = frozenset({"lag", "choose_break", "place", "shoot", "resign", "claim_timeout", "abort", "rematch"})
CLIENT_TYPES = frozenset({"hello", "ping", "aim", "chat", "chat_report", *PLAY_TYPES})


# --- typed client messages ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hello:
    v: int


@dataclass(frozen=True, slots=True)
class Ping:
    pass


@dataclass(frozen=True, slots=True)
class Aim:
    strike: StrikeInput


@dataclass(frozen=True, slots=True)
class Chat:
    """Free `text` or a quick `phrase` code (exactly one is non-empty); `channel` None means the
    sender's own (players write in the players' chat, spectators in the spectators')."""

    text: str
    phrase: str
    channel: str | None


@dataclass(frozen=True, slots=True)
class ChatReport:
    message_id: int


# The inputs that change a match: parsed into the engine's own values (Call, StrikeInput), and handed as
# they are to the one service entry (game.matches.services.match_input). `ack` is the client's id of the
# input, `v` the match version it was made against; both may be left out by a server-side caller (the
# computer player, a test), and the parser always sets `v` on the four that need it.


@dataclass(frozen=True, slots=True, kw_only=True)
class Lag:
    ack: int | None = None
    v: int | None = None
    strike: StrikeInput


@dataclass(frozen=True, slots=True, kw_only=True)
class ChooseBreak:
    ack: int | None = None
    v: int | None = None
    take: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class Place:
    ack: int | None = None
    v: int | None = None
    ball: str
    x: float
    y: float


@dataclass(frozen=True, slots=True, kw_only=True)
class Shoot:
    ack: int | None = None
    v: int | None = None
    call: Call
    strike: StrikeInput


@dataclass(frozen=True, slots=True, kw_only=True)
class Resign:
    ack: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ClaimTimeout:
    ack: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Abort:
    ack: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class RematchRequest:
    ack: int | None = None


#: The inputs the one service entry applies (a rematch makes a new match: its own service).
MatchInput = Lag | ChooseBreak | Place | Shoot | Resign | ClaimTimeout | Abort
PlayMessage = MatchInput | RematchRequest
ClientMessage = Hello | Ping | Aim | Chat | ChatReport | PlayMessage


@dataclass(frozen=True, slots=True)
class Invalid:
    """The explicit "unexpected" case: what to answer instead of acting."""

    code: str
    message: str
    ack: int | None = None

    def reply(self) -> outbound.Error:
        return outbound.Error(self.code, self.message, self.ack)


class _Bad(Exception):
    """Internal: a field failed validation; turned into `Invalid` by `parse`."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


# --- parsing ---------------------------------------------------------------------------------------


def _reject_constant(name: str) -> Any:
    raise _Bad("bad_value", f"{name} is not a number this protocol accepts")


def frame_too_large(text: str) -> bool:
    """Cheap check on the raw text: a character is at most 4 UTF-8 bytes, so only long frames encode."""
    if len(text) <= MAX_FRAME_BYTES // 4:
        return False
    return len(text) > MAX_FRAME_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_FRAME_BYTES


def parse(text: str | None, binary: bytes | None = None) -> ClientMessage | Invalid:
    """One websocket frame to a typed message, or the error to answer; never raises."""
    try:
        return _parse(text, binary)
    except _Bad as bad:  # pragma: no cover - _parse converts its own; kept as a last guard
        return Invalid(bad.code, bad.message)
    except Exception:  # the contract is "never an exception": any parser surprise is a bad frame
        return Invalid("bad_json", "the frame could not be read")


def _parse(text: str | None, binary: bytes | None) -> ClientMessage | Invalid:
    if text is None:
        if binary is not None and len(binary) > MAX_FRAME_BYTES:
            return Invalid("too_large", f"frames are limited to {MAX_FRAME_BYTES} bytes")
        return Invalid("bad_json", "send JSON text frames, not binary")
    if frame_too_large(text):
        return Invalid("too_large", f"frames are limited to {MAX_FRAME_BYTES} bytes")
    try:
        raw = json.loads(text, parse_constant=_reject_constant)
    except _Bad as bad:
        return Invalid(bad.code, bad.message)
    except (ValueError, RecursionError):
        return Invalid("bad_json", "the frame is not valid JSON")
    if not isinstance(raw, dict):
        return Invalid("bad_shape", "a message is a JSON object {t, ack?, v?, d?}")
    ack = _read_ack(raw)
    try:
        return _message(raw, ack)
    except _Bad as bad:
        return Invalid(bad.code, bad.message, ack)


def _read_ack(raw: dict[str, Any]) -> int | None:
    """The ack to echo, if it is a valid one (an error about the ack itself is raised later)."""
    ack = raw.get("ack")
    if _is_int(ack) and 1 <= ack <= MAX_ACK:
        return int(ack)
    return None


def _message(raw: dict[str, Any], ack: int | None) -> ClientMessage:
    kind = raw.get("t")
    if not isinstance(kind, str):
        raise _Bad("bad_shape", "t must be a string naming the message type")
    if kind not in CLIENT_TYPES:
        raise _Bad("unknown_type", f"unknown message type {kind[:40]!r}")
    _only(raw, {"t", "ack", "v", "d"}, "the envelope")
    if "ack" in raw and raw["ack"] is not None and ack is None:
        raise _Bad("bad_value", f"ack must be an integer from 1 to {MAX_ACK}")
    d = raw.get("d", {})
    if d is None:
        d = {}
    if not isinstance(d, dict):
        raise _Bad("bad_shape", "d must be an object")

    if kind == "hello":
        _only(d, {"v"}, "hello")
        return Hello(v=_int(d, "v", 0, MAX_VERSION))
    if kind == "ping":
        _only(d, set(), "ping")
        return Ping()
    if kind == "aim":
        return Aim(strike=_strike(d, "aim", min_speed=0.0))
    if kind == "chat":
        _only(d, {"text", "phrase", "channel"}, "chat")
        channel = _choice(d, "channel", CHAT_CHANNELS) if "channel" in d else None
        if "phrase" in d:
            if "text" in d:
                raise _Bad("bad_shape", "chat carries text or a phrase, not both")
            return Chat(text="", phrase=_choice(d, "phrase", CHAT_PHRASES), channel=channel)
        return Chat(text=_chat_text(d.get("text")), phrase="", channel=channel)
    if kind == "chat_report":
        _only(d, {"id"}, "chat_report")
        return ChatReport(message_id=_int(d, "id", 1, MAX_VERSION))
    if kind == "resign":
        _only(d, set(), "resign")
        return Resign(ack=ack)
    if kind == "claim_timeout":
        _only(d, set(), "claim_timeout")
        return ClaimTimeout(ack=ack)
    if kind == "abort":
        _only(d, set(), "abort")
        return Abort(ack=ack)
    if kind == "rematch":
        _only(d, set(), "rematch")
        return RematchRequest(ack=ack)

    # The inputs a stale client could repeat: they name the version they were made against.
    if "v" not in raw:
        raise _Bad("bad_shape", f"{kind} needs v, the match version it was made against")
    version = _int(raw, "v", 0, MAX_VERSION)
    if kind == "lag":
        _only(d, {"strike"}, "lag")
        return Lag(ack=ack, v=version, strike=_strike(_obj(d, "strike"), "strike", min_speed=None))
    if kind == "choose_break":
        _only(d, {"take"}, "choose_break")
        take = d.get("take")
        if not isinstance(take, bool):
            raise _Bad("bad_shape", "take must be true or false")
        return ChooseBreak(ack=ack, v=version, take=take)
    if kind == "place":
        _only(d, {"ball", "x", "y"}, "place")
        ball = _choice(d, "ball", CUE_BALL_IDS)
        return Place(
            ack=ack,
            v=version,
            ball=ball,
            x=_number(d, "x", 0.0, TABLE_LENGTH),
            y=_number(d, "y", 0.0, TABLE_WIDTH),
        )
    # kind == "shoot"
    _only(d, {"call", "strike"}, "shoot")
    return Shoot(
        ack=ack,
        v=version,
        call=_call(_obj(d, "call")),
        strike=_strike(_obj(d, "strike"), "strike", min_speed=None),
    )


def _strike(d: dict[str, Any], where: str, *, min_speed: float | None) -> StrikeInput:
    """A strike (or an aim, whose speed may be 0 while the player drags)."""
    _only(d, {"angle", "speed", "side", "height"}, where)
    angle = _number(d, "angle", -MAX_ANGLE, MAX_ANGLE)
    speed = _number(d, "speed", 0.0, MAX_SPEED)
    if min_speed is None and speed <= 0.0:
        raise _Bad("bad_value", "speed must be above 0")
    side = _number(d, "side", -MAX_TIP_OFFSET, MAX_TIP_OFFSET) if "side" in d else 0.0
    height = _number(d, "height", -MAX_TIP_OFFSET, MAX_TIP_OFFSET) if "height" in d else 0.0
    if math.hypot(side, height) > MAX_TIP_OFFSET + 1e-9:
        raise _Bad("bad_value", f"the tip offset |(side, height)| must be at most {MAX_TIP_OFFSET}")
    return StrikeInput(angle=angle, speed=speed, side=side, height=height)


def _call(d: dict[str, Any]) -> Call:
    _only(d, {"ball", "pocket", "object_cushions", "cue_cushions", "via"}, "call")
    via = d.get("via")
    if via is not None:
        via = _choice(d, "via", BALL_IDS)
    return Call(
        ball=_choice(d, "ball", BALL_IDS),
        pocket=_choice(d, "pocket", POCKET_IDS),
        object_cushions=_int(d, "object_cushions", 0, MAX_CALLED_CUSHIONS, default=0),
        cue_cushions=_int(d, "cue_cushions", 0, MAX_CALLED_CUSHIONS, default=0),
        via=via,
    )


def _chat_text(value: Any) -> str:
    if not isinstance(value, str):
        raise _Bad("bad_shape", "text must be a string")
    # Control and format characters (bidi overrides, zero-width joiners...) are how chat gets abused.
    text = "".join(ch for ch in value if unicodedata.category(ch)[0] != "C").strip()
    if not text:
        raise _Bad("bad_value", "text is empty")
    if len(text) > MAX_CHAT_CHARS:
        raise _Bad("bad_value", f"text is limited to {MAX_CHAT_CHARS} characters")
    return text


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _only(d: dict[str, Any], allowed: set[str], where: str) -> None:
    extra = [key for key in d if key not in allowed]
    if extra:
        raise _Bad("bad_shape", f"{where} has an unexpected field {str(extra[0])[:40]!r}")


def _obj(d: dict[str, Any], key: str) -> dict[str, Any]:
    value = d.get(key)
    if not isinstance(value, dict):
        raise _Bad("bad_shape", f"{key} must be an object")
    return value


def _int(d: dict[str, Any], key: str, low: int, high: int, default: int | None = None) -> int:
    if key not in d and default is not None:
        return default
    value = d.get(key)
    if not _is_int(value):
        raise _Bad("bad_shape", f"{key} must be an integer")
    if not low <= value <= high:
        raise _Bad("bad_value", f"{key} must be from {low} to {high}")
    return int(value)


def _number(d: dict[str, Any], key: str, low: float, high: float) -> float:
    value = d.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _Bad("bad_shape", f"{key} must be a number")
    number = float(value) if not isinstance(value, int) or abs(value) < 2**63 else math.inf
    if not math.isfinite(number):
        raise _Bad("bad_value", f"{key} must be finite")
    if not low <= number <= high:
        raise _Bad("bad_value", f"{key} must be from {low:g} to {high:g}")
    return number


def _choice(d: dict[str, Any], key: str, allowed: tuple[str, ...]) -> str:
    value = d.get(key)
    if not isinstance(value, str) or value not in allowed:
        raise _Bad("bad_value", f"{key} must be one of {', '.join(allowed)}")
    return value


def parse_fields(t: str, d: object, v: int = 1) -> ClientMessage | Invalid:
    """A message given as its type and data (a page's HTTP input), parsed at the same edge as a frame."""
    return parse(json.dumps({"t": t, "v": v, "d": d}))


def follow_reply(text_data: str | None, bytes_data: bytes | None, refusal: outbound.Error) -> outbound.Message:
    """The answer of a socket that only follows (a tournament's, a real game's): a pong to a ping, the
    parse error to a bad frame, `refusal` to any other input."""
    message = parse(text_data, bytes_data)
    if isinstance(message, Ping):
        return outbound.Pong()
    if isinstance(message, Invalid):
        return message.reply()
    return refusal
