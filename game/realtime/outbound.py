"""The server's websocket messages, typed: what a socket sends, as game.realtime.protocol is what it reads.

Every unversioned message of a socket (match, lobby, tournament, the health probe) is one frozen class
here whose ``to_wire`` gives the exact JSON object of docs/protocol.md; a sender builds the class and
hands it to a socket or a relay, never a dict. The versioned events of a match (``snapshot``, ``shot``,
``finished``, …) are stored and replayed as their wire form, so they are built here too, by
:func:`versioned`, with their type checked against :data:`EVENT_TYPES`. Nothing here does I/O or
knows about Django. tests/realtime/test_outbound_messages.py checks the names against docs/protocol.md
and that no sender builds a wire dict elsewhere.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, Protocol, get_args

from game.common import json_text

#: The versioned events of a match (docs/protocol.md, "Server → client (match socket)", versioned "yes").
EventType = Literal["snapshot", "started", "shot", "placed", "choice", "timeout", "notice", "finished"]
EVENT_TYPES: frozenset[str] = frozenset(get_args(EventType))

Wire = dict[str, Any]


class _CueNumbers(Protocol):
    """What an aim shows of a strike (the protocol's parsed strike, the engine's Strike)."""

    @property
    def angle(self) -> float: ...
    @property
    def speed(self) -> float: ...
    @property
    def side(self) -> float: ...
    @property
    def height(self) -> float: ...


def versioned(t: EventType, d: Mapping[str, Any], v: int) -> Wire:
    """A versioned event `{t, v, d}`: the unit of broadcast, storage as MatchEvent, and catch-up."""
    return {"t": t, "v": v, "d": d}


def stored(t: str, d: Any, v: int) -> Wire:
    """A versioned event read back from its MatchEvent row (its type was checked when it was stored)."""
    if t not in EVENT_TYPES:
        raise ValueError(f"{t!r} is not a versioned event type")
    return {"t": t, "v": v, "d": d}


def page_event(t: EventType, d: Mapping[str, Any]) -> Wire:
    """An event without a version, as the practice and free-table pages draw it from an HTTP answer."""
    return {"t": t, "d": d}


class Message:
    """An unversioned message `{t, d}`: `T` its type, `data()` its `d` (built by hand: `asdict`
    deep-copies, and every relayed aim makes one)."""

    __slots__ = ()
    T: ClassVar[str]

    def data(self) -> Wire:
        raise NotImplementedError

    def to_wire(self) -> Wire:
        return {"t": self.T, "d": self.data()}


@dataclass(frozen=True, slots=True)
class Error(Message):
    T: ClassVar[str] = "error"
    code: str
    message: str
    ack: int | None = None

    def data(self) -> Wire:
        return {"code": self.code, "message": self.message, "ack": self.ack}


@dataclass(frozen=True, slots=True)
class Pong(Message):
    """The answer to `ping`; the health probe's socket echoes the `d` it was sent."""

    T: ClassVar[str] = "pong"
    echo: Any = field(default_factory=dict)

    def data(self) -> Wire:
        return self.echo


@dataclass(frozen=True, slots=True)
class Aim(Message):
    T: ClassVar[str] = "aim"
    player: str
    angle: float
    speed: float
    side: float
    height: float

    @classmethod
    def of(cls, player: str, strike: _CueNumbers) -> Aim:
        return cls(player, strike.angle, strike.speed, strike.side, strike.height)

    def data(self) -> Wire:
        return {
            "player": self.player,
            "angle": self.angle,
            "speed": self.speed,
            "side": self.side,
            "height": self.height,
        }


@dataclass(frozen=True, slots=True)
class Chat(Message):
    """One chat message (game.chat.selectors.chat_entry); `sender` is the wire's `from`."""

    T: ClassVar[str] = "chat"
    id: int
    channel: str
    sender: str
    text: str
    phrase: str
    at: float

    @classmethod
    def of(cls, entry: Mapping[str, Any]) -> Chat:
        return cls(entry["id"], entry["channel"], entry["from"], entry["text"], entry["phrase"], entry["at"])

    def data(self) -> Wire:
        return {
            "id": self.id,
            "channel": self.channel,
            "from": self.sender,
            "text": self.text,
            "phrase": self.phrase,
            "at": self.at,
        }


@dataclass(frozen=True, slots=True)
class ChatReported(Message):
    T: ClassVar[str] = "chat_reported"
    id: int

    def data(self) -> Wire:
        return {"id": self.id}


@dataclass(frozen=True, slots=True)
class Presence(Message):
    T: ClassVar[str] = "presence"
    players: Sequence[Mapping[str, Any]]
    spectators: int

    def data(self) -> Wire:
        return {"players": self.players, "spectators": self.spectators}


@dataclass(frozen=True, slots=True)
class Clock(Message):
    """The `clock` object (docs/protocol.md, "The `clock` object"), sent when a player leaves or returns."""

    T: ClassVar[str] = "clock"
    clock: Mapping[str, Any]

    def data(self) -> Wire:
        return dict(self.clock)


@dataclass(frozen=True, slots=True)
class Rematch(Message):
    T: ClassVar[str] = "rematch"
    sender: str
    match_id: str
    url: str

    def data(self) -> Wire:
        return {"from": self.sender, "match_id": self.match_id, "url": self.url}


AnalysisStatus = Literal["queued", "running", "done", "failed"]


@dataclass(frozen=True, slots=True)
class Analysis(Message):
    """The match's shot analysis moved: shot `done` of `total` analysed; the replay page and the end
    card fetch the report once it is `done`."""

    T: ClassVar[str] = "analysis"
    status: AnalysisStatus
    done: int
    total: int

    def data(self) -> Wire:
        return {"status": self.status, "done": self.done, "total": self.total}


@dataclass(frozen=True, slots=True)
class Beat(Message):
    """Every 2 s (game.realtime.hub.BEAT_INTERVAL) the match's latest stored version: everything up to it
    was sent to the socket before; a client below it lost something and sends `hello`."""

    T: ClassVar[str] = "beat"
    v: int

    def data(self) -> Wire:
        return {"v": self.v}


# --- the lobby socket -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Matches(Message):
    """The lobby's open matches (game.matches.selectors.matches.match_open_list rows)."""

    T: ClassVar[str] = "matches"
    matches: Sequence[Mapping[str, Any]]

    def data(self) -> Wire:
        return {"matches": self.matches}


@dataclass(frozen=True, slots=True)
class Paired(Message):
    """Quick pairing found an opponent: the new match, and the page to open."""

    T: ClassVar[str] = "paired"
    match_id: str
    url: str

    def data(self) -> Wire:
        return {"match_id": self.match_id, "url": self.url}


@dataclass(frozen=True, slots=True)
class Seeking(Message):
    """Still seeking: the choices, seconds waited and the current rating window."""

    T: ClassVar[str] = "seeking"
    rated: bool
    time_limit: int | None
    waited: float
    window: int

    @classmethod
    def of(cls, info: Mapping[str, Any]) -> Seeking:
        """From game.lobby.services.seeks.seek_info."""
        return cls(info["rated"], info["time_limit"], info["waited"], info["window"])

    def data(self) -> Wire:
        return {"rated": self.rated, "time_limit": self.time_limit, "waited": self.waited, "window": self.window}


SeekEnd = Literal["cancelled", "none"]


@dataclass(frozen=True, slots=True)
class SeekEnded(Message):
    """The seek is over without a match: cancelled by the player, or there was none to cancel."""

    T: ClassVar[str] = "seek_ended"
    reason: SeekEnd

    def data(self) -> Wire:
        return {"reason": self.reason}


# --- the tournament socket --------------------------------------------------------------------------

TournamentEvent = Literal["hello", "round", "started", "shot", "finished", "notice"]


@dataclass(frozen=True, slots=True)
class Tournament(Message):
    """A tournament changed: `match` and its `scores` when one of its matches moved (the page writes the
    score at once); `reload` when the standings or the rounds changed (the page fetches them again).
    The greeting (`hello`) carries neither."""

    T: ClassVar[str] = "tournament"
    event: TournamentEvent
    reload: bool
    match: str | None = None
    scores: Sequence[int] = ()

    def data(self) -> Wire:
        if self.event == "hello":
            return {"event": self.event, "reload": self.reload}
        return {"match": self.match, "scores": list(self.scores), "event": self.event, "reload": self.reload}


# --- the real game sockets (ws/tables/<token>/, ws/realgame/<id>/) -----------------------------------


@dataclass(frozen=True, slots=True)
class RealGameState(Message):
    """A real game's snapshot (game.realgames.selectors.real_game_view), sent after every change."""

    T: ClassVar[str] = "real_state"
    version: int
    game: Mapping[str, Any]

    def data(self) -> Wire:
        return {"version": self.version, "game": self.game}


@dataclass(frozen=True, slots=True)
class RealTapAck(Message):
    """A scorer's tap (or undo) taken under its `key`: the version it made and the rules' verdict
    (None for an undo). `duplicate`: the key was taken before, answered again, nothing applied."""

    T: ClassVar[str] = "real_ack"
    key: str
    version: int
    verdict: Mapping[str, Any] | None
    duplicate: bool = False

    def data(self) -> Wire:
        return {"key": self.key, "version": self.version, "verdict": self.verdict, "duplicate": self.duplicate}


@dataclass(frozen=True, slots=True)
class RealTapRefused(Message):
    """A scorer's tap refused, nothing stored: the reason's `code` and its `words` in every language."""

    T: ClassVar[str] = "real_refused"
    key: str
    code: str
    words: Mapping[str, str]

    def data(self) -> Wire:
        return {"key": self.key, "code": self.code, "words": self.words}


# --- encoding ---------------------------------------------------------------------------------------


class SharedMessage(dict[str, Any]):
    """A message handed to many sockets as it is (a snapshot shared by the spectators who asked for it at
    once: game.realtime.shared_reads): `dumps` encodes it once and keeps the text. Not to be changed
    after it is first sent."""

    text: str | None = None


def dumps(payload: Message | Mapping[str, Any]) -> str:
    """A message's compact JSON (game.common.json_text), letters in UTF-8 (a Russian verdict costs 2 bytes a
    letter, not 6); a `SharedMessage` is encoded once and keeps its text."""
    if isinstance(payload, Message):
        return json_text.encode(payload.to_wire())
    if isinstance(payload, SharedMessage):
        if payload.text is None:
            payload.text = json_text.encode(payload)
        return payload.text
    return json_text.encode(payload)


def encoded_event(t: EventType, d: Mapping[str, Any], v: int, d_text: str) -> SharedMessage:
    """A versioned event whose data its store already encoded (`d_text`): the broadcast reuses that text,
    exactly `dumps(versioned(t, d, v))` (game.matches.services.base.store_event)."""
    message = SharedMessage(versioned(t, d, v))
    message.text = f'{{"t":{json_text.encode(t)},"v":{int(v)},"d":{d_text}}}'
    return message
