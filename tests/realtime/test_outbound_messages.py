"""What the server sends on its sockets is typed (game.realtime.outbound), as what it reads is
(game.realtime.protocol): no sender builds a wire dict by hand, and every typed message's wire form has
the names docs/protocol.md gives it. The wire format itself is the JS client's contract."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from game.realtime import outbound, protocol

ROOT = Path(__file__).resolve().parents[2]
PROTOCOL_MD = ROOT / "docs" / "protocol.md"
#: Where wire dicts may be built: the typed messages, and the inbound edge (a page's HTTP input made into
#: a client frame, protocol.parse_fields).
WIRE_BUILDERS = {"game/realtime/outbound.py", "game/realtime/protocol.py"}

#: One instance of every typed message (a new message without one fails `test_every_message_has_a_sample`).
SAMPLES: list[outbound.Message] = [
    outbound.Error("stale", "the table changed", 7),
    outbound.Pong(),
    outbound.Aim("alice", 0.1, 2.5, 0.0, 0.2),
    outbound.Chat(3, "players", "alice", "nice", "", 1.5),
    outbound.ChatReported(3),
    outbound.Presence([{"name": "alice", "seat": 0, "connected": True}], 2),
    outbound.Clock({"shot_deadline": None}),
    outbound.Rematch("alice", "k3v9q2xa", "/m/k3v9q2xa/"),
    outbound.Analysis("running", 1, 4),
    outbound.Beat(12),
    outbound.Matches([]),
    outbound.Paired("k3v9q2xa", "/m/k3v9q2xa/"),
    outbound.Seeking(False, 3900, 15.0, 250),
    outbound.SeekEnded("cancelled"),
    outbound.Tournament("hello", reload=False),
    outbound.Tournament("shot", reload=False, match="k3v9q2xa", scores=[12, 6]),
    outbound.RealGameState(12, {"id": 3}),
    outbound.RealTapAck("k1", 12, {"points": 11}),
    outbound.RealTapRefused("k1", "middle_kaisa_twice", {"en": "no"}),
]


# --- the scan: no wire dict outside the typed module ------------------------------------------------


def raw_wire_dicts(source: str, name: str) -> list[str]:
    """`name:line` of every dict literal with a `t` key (a message envelope), and of every `send_json`
    handed a dict literal: both build the wire by hand."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Dict) and any(isinstance(key, ast.Constant) and key.value == "t" for key in node.keys):
            found.append(f"{name}:{node.lineno}")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "send_json"
            and any(isinstance(arg, ast.Dict) for arg in node.args)
        ):
            found.append(f"{name}:{node.lineno}")
    return found


def product_sources() -> dict[str, str]:
    sources = {}
    for folder in ("game", "kaiza_site"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel in WIRE_BUILDERS or "/migrations/" in rel:
                continue
            sources[rel] = path.read_text()
    return sources


# --- the names: docs/protocol.md ------------------------------------------------------------------------


def section(text: str, title: str) -> str:
    return text.split(f"\n{title}")[1].split("\n## ")[0]


def top_level_keys(span: str) -> frozenset[str]:
    """The field names of a documented `{"a", "b": …, "c"?}` at its outer level (values skipped:
    a string after `:` or `or` is one)."""
    keys: set[str] = set()
    depth, previous = 0, None
    for token in re.findall(r'"[^"]*"|[\[\]{}:,]|\bor\b', span.strip()[1:-1]):
        if token in "[{":
            depth += 1
        elif token in "]}":
            depth -= 1
        elif token.startswith('"') and depth == 0 and previous not in (":", "or"):
            keys.add(token[1:-1])
        if depth == 0 or token in "]}":
            previous = token
    return frozenset(keys)


def examples(text: str) -> dict[str, frozenset[str]]:
    """The match socket's example messages (one JSON line each): type -> the fields of its `d`."""
    part = section(text, "## Server → client (match socket)")
    lines = re.findall(r'^(\{"t": .*\})$', part, flags=re.MULTILINE)
    return {message["t"]: frozenset(message["d"]) for message in map(json.loads, lines)}


def documented(text: str) -> tuple[dict[str, set[frozenset[str] | None]], set[str], set[str]]:
    """(type -> its documented field sets (None: documented as an object described elsewhere), the match
    socket's versioned types, its unversioned types)."""
    fields: dict[str, set[frozenset[str] | None]] = {}
    versioned, unversioned = set(), set()
    for line in section(text, "## Server → client (match socket)").splitlines():
        row = re.match(r"\| `(\w+)` \| (yes|no) \| (.*)$", line)
        if row is None:
            continue
        t, is_versioned, rest = row.groups()
        (versioned if is_versioned == "yes" else unversioned).add(t)
        span = re.match(r"`(\{.*?\})`", rest)
        fields.setdefault(t, set()).add(top_level_keys(span.group(1)) if span else None)
    for title in ("## Lobby socket", "## Tournament socket", "## Real game sockets"):
        part = section(text, title)
        for start in re.finditer(r'\{"t": "', part):
            message, _ = json.JSONDecoder().raw_decode(part, start.start())
            fields.setdefault(message["t"], set()).add(frozenset(message["d"]))
    return fields, versioned, unversioned


def mismatches(text: str, samples: list[outbound.Message]) -> list[str]:
    fields, versioned, unversioned = documented(text)
    found = []
    for sample in samples:
        wire = sample.to_wire()
        if set(wire) != {"t", "d"} or wire["t"] != sample.T:
            found.append(f"{type(sample).__name__}: envelope {sorted(wire)}")
        forms = fields.get(sample.T)
        if forms is None:
            found.append(f"{sample.T}: not in docs/protocol.md")
        elif frozenset(wire["d"]) not in forms and None not in forms:
            found.append(f"{sample.T}: sends {sorted(wire['d'])}, documented {[sorted(f or ()) for f in forms]}")
        example = examples(text).get(sample.T)
        if example is not None and sample.T != "clock" and frozenset(wire["d"]) != example:
            found.append(f"{sample.T}: sends {sorted(wire['d'])}, its example has {sorted(example)}")
    typed = {sample.T for sample in samples}
    found += [f"{t}: documented, not typed" for t in sorted(unversioned - typed)]
    if versioned != outbound.EVENT_TYPES:
        found.append(f"versioned events: documented {sorted(versioned)}, typed {sorted(outbound.EVENT_TYPES)}")
    return found


# --- the tests --------------------------------------------------------------------------------------------


def test_outbound_messages_are_typed() -> None:
    offenders = [hit for name, source in product_sources().items() for hit in raw_wire_dicts(source, name)]
    assert offenders == [], "build these with game.realtime.outbound"
    assert mismatches(PROTOCOL_MD.read_text(), SAMPLES) == []


def test_every_message_has_a_sample() -> None:
    # By name: `dataclass(slots=True)` makes a new class, and the one it replaced stays a subclass.
    def subclasses(cls: type) -> set[str]:
        return {sub.__qualname__ for sub in cls.__subclasses__()}

    assert subclasses(outbound.Message) == {type(sample).__qualname__ for sample in SAMPLES}


def test_the_scan_could_fail() -> None:
    source = 'async def f(self):\n    await self.send_json({"code": 1})\n    return {"t": "aim", "d": {}}\n'
    assert sorted(raw_wire_dicts(source, "x")) == ["x:2", "x:3"]
    assert raw_wire_dicts("x = outbound.Error('stale', 'late').to_wire()\n", "x") == []


def test_the_doc_check_could_fail() -> None:
    text = PROTOCOL_MD.read_text()
    renamed = text.replace(
        '| `rematch` | no | `{"from", "match_id", "url"}`', '| `rematch` | no | `{"from", "id", "url"}`'
    )
    assert renamed != text
    assert mismatches(renamed, SAMPLES) == [
        "rematch: sends ['from', 'match_id', 'url'], documented [['from', 'id', 'url']]"
    ]
    seek = text.replace('"d": {"reason": "cancelled"}', '"d": {"why": "cancelled"}')
    assert seek != text and mismatches(seek, SAMPLES) == ["seek_ended: sends ['reason'], documented [['why']]"]
    example = text.replace('{"t": "beat", "d": {"v": 42}}', '{"t": "beat", "d": {"version": 42}}')
    assert example != text and mismatches(example, SAMPLES) == ["beat: sends ['v'], its example has ['version']"]
    untyped = text.replace("| `beat` | no |", "| `heartbeat` | no |")
    assert "heartbeat: documented, not typed" in mismatches(untyped, SAMPLES)
    assert mismatches(text, SAMPLES[1:]) == ["error: documented, not typed"]


def test_wire_forms_are_the_protocols() -> None:
    """A few exact forms the JS client reads (static/game/js), byte for byte."""
    assert (
        outbound.dumps(outbound.Error("stale", "late", None))
        == '{"t":"error","d":{"code":"stale","message":"late","ack":null}}'
    )
    assert outbound.dumps(outbound.Chat(1, "players", "al", "hi", "", 2.0)) == (
        '{"t":"chat","d":{"id":1,"channel":"players","from":"al","text":"hi","phrase":"","at":2.0}}'
    )
    assert outbound.Tournament("hello", reload=False).to_wire() == {
        "t": "tournament",
        "d": {"event": "hello", "reload": False},
    }
    assert outbound.Tournament("round", reload=True).to_wire()["d"] == {
        "match": None,
        "scores": [],
        "event": "round",
        "reload": True,
    }
    assert outbound.Pong().to_wire() == {"t": "pong", "d": {}}
    event = outbound.encoded_event("shot", {"a": 1}, 4, '{"a":1}')
    assert outbound.dumps(event) == outbound.dumps(dict(outbound.versioned("shot", {"a": 1}, 4)))


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_versioned_events_carry_the_documented_fields() -> None:
    """The events a match stores and sends (built by the services, sent as `outbound.versioned`) have the
    fields docs/protocol.md's table gives them: a match started, two lags, the choice, a placement and a
    resignation, played through the one service entry."""
    from game.accounts.services import guest_create
    from game.matches.selectors.match_state import engine_names
    from game.matches.services import match_create, match_input, match_join
    from tests.support import inputs
    from tests.support.play_support import LAG_LOSING, LAG_WINNING, WHITE2_OPENING

    first, second = guest_create(), guest_create()
    match, _ = match_create(user=first, rated=False, time_limit=None, shot_clock=None)
    joined = match_join(match_id=match.pk, user=second)
    match.refresh_from_db()
    seat = dict(zip(engine_names(match), (first, second), strict=True))
    winner, loser = list(seat)
    events = list(joined.events)
    for user, message in (
        (seat[winner], inputs.lag(LAG_WINNING)),
        (seat[loser], inputs.lag(LAG_LOSING)),
        (seat[winner], inputs.choose_break(True)),
        (seat[loser], inputs.place("white2", *WHITE2_OPENING)),
        (seat[loser], protocol.Resign(ack=5)),
    ):
        events += match_input(match_id=match.pk, user=user, message=message).events
    fields, _, _ = documented(PROTOCOL_MD.read_text())
    seen = {event["t"] for event in events}
    assert {"shot", "choice", "placed", "finished"} <= seen
    for event in events:
        (documented_fields,) = fields[event["t"]]
        assert documented_fields is not None
        extra = {"ack", "verdict"} if event["t"] == "finished" else set()  # "+ ack, verdict after resign"
        assert set(event["d"]) == documented_fields | extra, event["t"]
