"""Hostile input: the parser alone, then thousands of frames through a live MatchConsumer.

Every frame that is not a legal move for its sender must be answered with exactly one `error` and
leave the stored match byte-for-byte as it was; no exception may escape the consumer.
"""

from __future__ import annotations

import json
import math
import re
import time
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from game.accounts.services import user_signup
from game.common import ratelimit
from game.engine.rules import Match as EngineMatch
from game.matches.consumer import MatchConsumer
from game.matches.selectors.match_state import snapshot_hash
from game.matches.services import match_create, match_join
from game.models import Match, MatchEvent, Shot
from game.realtime import outbound, protocol
from tests.support.play_support import (
    communicator_player,
    fast_password_hasher,
    fresh_channel_layer_and_connections,
    near_end_snapshot,
)

__all__ = ["fast_password_hasher", "fresh_channel_layer_and_connections"]  # autouse fixtures, imported to apply

PROTOCOL_MD = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
CURRENT_VERSION = 1

# --- strategies ------------------------------------------------------------------------------------

hostile_numbers = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([0, -0.0, 1e308, -1e308, 2**53, 2**63, 9.0000001, 0.6000001, -7, 3.2, 1.42, 2.84]),
)
scalars = st.one_of(st.none(), st.booleans(), hostile_numbers, st.text(max_size=30))
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12,
)
field_names = st.sampled_from(
    [
        "angle",
        "speed",
        "side",
        "height",
        "ball",
        "pocket",
        "via",
        "object_cushions",
        "cue_cushions",
        "x",
        "y",
        "take",
        "text",
        "v",
        "strike",
        "call",
        "junk",
    ]
)
ball_ids = st.sampled_from(["white1", "white2", "red1", "red2", "kaisa", "red3", "", "KAISA"])
pockets = st.sampled_from(["foot_left", "foot_right", "middle_left", "home_right", "corner", ""])


def near(value: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """A plausible value most of the time, a hostile one otherwise."""
    return st.one_of(value, value, json_values)


strikes = st.fixed_dictionaries(
    {"angle": near(st.floats(-7, 7)), "speed": near(st.floats(-1, 10))},
    optional={"side": near(st.floats(-1, 1)), "height": near(st.floats(-1, 1)), "spin": json_values},
)
calls = st.fixed_dictionaries(
    {"ball": near(ball_ids), "pocket": near(pockets)},
    optional={
        "object_cushions": near(st.integers(-2, 12)),
        "cue_cushions": near(st.integers(-2, 12)),
        "via": near(st.one_of(st.none(), ball_ids)),
    },
)
datas = st.one_of(
    st.fixed_dictionaries({"strike": near(strikes)}),
    st.fixed_dictionaries({"call": near(calls), "strike": near(strikes)}),
    st.fixed_dictionaries({"ball": near(ball_ids), "x": near(st.floats(-1, 4)), "y": near(st.floats(-1, 2))}),
    st.fixed_dictionaries({"take": near(st.booleans())}),
    st.fixed_dictionaries({"text": near(st.text(max_size=250))}),
    st.dictionaries(field_names, json_values, max_size=5),
    json_values,
)
envelopes = st.fixed_dictionaries(
    {"t": near(st.sampled_from([*sorted(protocol.CLIENT_TYPES), "snapshot", "error", "Shoot", "", "__proto__"]))},
    optional={
        "ack": near(st.integers(-5, 2**54)),
        "v": near(st.integers(-2, 4)),
        "d": datas,
        "extra": json_values,
    },
)


def dumps_hostile(value: Any) -> str:
    return json.dumps(value, allow_nan=True)  # NaN / Infinity tokens on purpose


frames = st.one_of(
    envelopes.map(dumps_hostile),
    envelopes.map(dumps_hostile),
    envelopes.map(dumps_hostile),
    json_values.map(dumps_hostile),
    st.text(max_size=60),
    st.builds(
        lambda n, pad: json.dumps({"t": "chat", "d": {"text": pad * n}}),
        st.integers(1000, 1400),
        st.sampled_from(["a", "é", "水", "🎱"]),
    ),
    st.just("[" * 3000 + "]" * 3000),
    st.just(
        '{"t": "shoot", "v": 1, "d": {"call": {"ball": "kaisa", "pocket": "foot_left"}, '
        '"strike": {"angle": NaN, "speed": 2}}}'
    ),
    st.just('{"t": "place", "v": 1, "d": {"ball": "white2", "x": 1e999, "y": 0.3}}'),
)


def expected_error(message: protocol.ClientMessage | protocol.Invalid, sender: str) -> bool:
    """Whether `sender` ("bob": seated, not to move; "spectator") must get an error for this message.

    A few messages are legal for them and answered otherwise (hello, ping, bob's chat) or would be
    applied (bob may resign at any time): the fuzzer leaves those out.
    """
    if isinstance(message, protocol.Invalid):
        return True
    if isinstance(message, protocol.Hello | protocol.Ping):
        return False
    if sender == "bob" and isinstance(message, protocol.Resign | protocol.Chat):
        return False
    return True


# --- the parser alone ------------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(frame=frames)
def test_parse_never_raises(frame: str) -> None:
    result = protocol.parse(frame)
    if isinstance(result, protocol.Invalid):
        reply = result.reply().to_wire()
        assert reply["t"] == "error" and set(reply["d"]) == {"code", "message", "ack"}
        outbound.dumps(reply)  # an error is always sendable JSON


def test_every_client_example_in_protocol_md_parses() -> None:
    """docs/protocol.md and protocol.py stay in step: each documented client message is valid."""
    text = PROTOCOL_MD.read_text()
    section = text.split("## Client → server (match socket)")[1].split("## Server → client")[0]
    examples = re.findall(r"^(\{\"t\": .*\})$", section, flags=re.MULTILINE)
    assert len(examples) >= 10
    kinds = set()
    for line in examples:
        parsed = protocol.parse(line)
        assert not isinstance(parsed, protocol.Invalid), (line, parsed)
        kinds.add(json.loads(line)["t"])
    assert kinds == set(protocol.CLIENT_TYPES)


def test_server_examples_in_protocol_md_are_json_with_the_envelope() -> None:
    text = PROTOCOL_MD.read_text()
    section = text.split("## Server → client (match socket)")[1].split("### Error codes")[0]
    examples = [json.loads(line) for line in re.findall(r"^(\{\"t\": .*\})$", section, flags=re.MULTILINE)]
    documented = {
        "snapshot",
        "started",
        "shot",
        "placed",
        "choice",
        "timeout",
        "notice",
        "finished",
        "rematch",
        "aim",
        "presence",
        "clock",
        "chat",
        "chat_reported",
        "error",
        "pong",
        "beat",
    }
    assert {e["t"] for e in examples} == documented
    for example in examples:
        assert set(example) <= {"t", "v", "d"} and isinstance(example["d"], dict)


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ("x" * 4097, "too_large"),
        ('{"t": "ping", "d": {"pad": "' + "é" * 2100 + '"}}', "too_large"),
        ("not json", "bad_json"),
        ("[1, 2]", "bad_shape"),
        ('{"t": "teleport"}', "unknown_type"),
        ('{"t": "shoot", "d": {}}', "bad_shape"),
        ('{"t": "aim", "d": {"angle": NaN, "speed": 1}}', "bad_value"),
        ('{"t": "aim", "d": {"angle": 1e999, "speed": 1}}', "bad_value"),
        ('{"t": "aim", "d": {"angle": 0, "speed": 9.5}}', "bad_value"),
        ('{"t": "aim", "d": {"angle": 0, "speed": true}}', "bad_shape"),
        ('{"t": "aim", "d": {"angle": 0, "speed": 1, "side": 0.5, "height": 0.5}}', "bad_value"),
        ('{"t": "place", "v": 1, "d": {"ball": "kaisa", "x": 1, "y": 1}}', "bad_value"),
        ('{"t": "place", "v": 1, "d": {"ball": "white2", "x": 3.0, "y": 1}}', "bad_value"),
        ('{"t": "resign", "ack": 0}', "bad_value"),
        ('{"t": "resign", "ack": 1.5}', "bad_value"),
        ('{"t": "chat", "d": {"text": "\\u202e\\u0000 "}}', "bad_value"),
        ('{"t": "abort", "d": {"now": 1}}', "bad_shape"),
        ('{"t": "rematch", "ack": -3}', "bad_value"),
        ('{"t": "rematch", "d": {"to": "bot"}}', "bad_shape"),
    ],
)
def test_parse_refuses(frame: str, code: str) -> None:
    result = protocol.parse(frame)
    assert isinstance(result, protocol.Invalid) and result.code == code, result


def test_parse_accepts_and_types() -> None:
    shoot = protocol.parse(
        '{"t": "shoot", "ack": 5, "v": 3, "d": {"call": {"ball": "kaisa", "pocket": "foot_left"},'
        ' "strike": {"angle": 0.1, "speed": 2.5}}}'
    )
    assert shoot == protocol.Shoot(
        ack=5,
        v=3,
        call=protocol.Call("kaisa", "foot_left", 0, 0, None),
        strike=protocol.StrikeInput(angle=0.1, speed=2.5, side=0.0, height=0.0),
    )
    assert protocol.parse(None, b"\x00") == protocol.Invalid("bad_json", "send JSON text frames, not binary")
    assert protocol.parse('{"t": "resign", "ack": 9}') == protocol.Resign(ack=9)
    assert protocol.parse('{"t": "abort", "ack": 4}') == protocol.Abort(ack=4)
    assert protocol.parse('{"t": "rematch"}') == protocol.RematchRequest(ack=None)
    assert math.isclose(protocol.parse('{"t": "place", "v": 0, "d": {"ball": "white1", "x": 0.5, "y": 0.7}}').x, 0.5)


# --- through the consumer --------------------------------------------------------------------------


@database_sync_to_async
def seated_match() -> tuple[Any, Any, str]:
    alice = user_signup(username="fuzzalice", password="pw-alice-12345")
    bob = user_signup(username="fuzzbob", password="pw-bob-12345")
    match, _ = match_create(user=alice, rated=False, time_limit=None, shot_clock=None)
    match_join(match_id=match.id, user=bob)
    row = Match.objects.get(pk=match.id)
    row.snapshot = EngineMatch.from_snapshot(near_end_snapshot(["fuzzalice", "fuzzbob"], shooter_score=20)).snapshot()
    # alice never connects: her disconnect grace is put far away, so no `claim_timeout` of the fuzzer is
    # ever owed (a claim not owed is refused with `not_owed` and changes nothing).
    row.grace_deadline = row.next_deadline = time.time() + 3600
    row.save(update_fields=["snapshot", "grace_deadline", "next_deadline"])
    assert row.version == CURRENT_VERSION
    return alice, bob, match.id


def fingerprint(match_id: str) -> tuple[Any, ...]:
    match = Match.objects.get(pk=match_id)
    return (
        match.version,
        match.status,
        snapshot_hash(match.snapshot),
        match.shot_deadline,
        Shot.objects.filter(match=match).count(),
        MatchEvent.objects.filter(match=match).count(),
    )


@pytest.fixture
def unlimited_rates(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fuzzer's frames should reach the parser and the services, not stop at the rate limit."""
    for name in ("player_limit", "spectator_limit", "aim_limit", "flood_limit"):
        monkeypatch.setattr(MatchConsumer, name, (1e9, 1e9))
    for key in list(ratelimit.MESSAGE_BUDGETS):  # and the per-user budget shared by a user's sockets
        monkeypatch.setitem(ratelimit.MESSAGE_BUDGETS, key, (1e9, 1e9))
    ratelimit.reset_message_budgets()


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
@settings(
    max_examples=30,
    deadline=None,
    phases=[Phase.explicit, Phase.generate],  # shrinking thousands of frames would take minutes
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(batch=st.lists(st.tuples(st.sampled_from(["bob", "spectator"]), frames), min_size=60, max_size=100))
@pytest.mark.slow(22)
def test_protocol_fuzz_changes_nothing(batch: list[tuple[str, str]], unlimited_rates: None) -> None:
    """Thousands of frames in all (30 batches of 60-100) from the seated player who is not to move and
    from a spectator: each is answered with one error, and the stored match never changes."""
    if not hasattr(test_protocol_fuzz_changes_nothing, "_match"):
        test_protocol_fuzz_changes_nothing._match = async_to_sync(seated_match)()  # type: ignore[attr-defined]
    _alice, bob_user, match_id = test_protocol_fuzz_changes_nothing._match  # type: ignore[attr-defined]
    before = fingerprint(match_id)

    async def run() -> None:
        from channels.layers import channel_layers

        channel_layers.backends = {}  # a fresh layer for this example's event loop
        sockets = {}
        for sender, user in (("bob", bob_user), ("spectator", None)):
            communicator, player = communicator_player(sender, match_id, user)
            connected, _ = await communicator.connect(timeout=10)
            assert connected
            await player.until(lambda m: m["t"] == "snapshot")
            sockets[sender] = (communicator, player)
        for sender, frame in batch:
            message = protocol.parse(frame)
            if not frame or not expected_error(message, sender):  # the test client cannot send ""
                continue
            communicator, player = sockets[sender]
            await communicator.send_to(text_data=frame)
            reply = await player.until(lambda m: m["t"] not in ("presence", "clock", "beat"), timeout=10)
            assert reply["t"] == "error", (frame, reply)
            assert reply["d"]["code"] != "internal_error", (frame, reply)
            if isinstance(message, protocol.Invalid):
                assert reply["d"]["code"] == message.code
        for communicator, _player in sockets.values():
            assert await communicator.receive_nothing(timeout=0.05, interval=0.01) or True
            await communicator.disconnect()

    async_to_sync(run)()
    assert fingerprint(match_id) == before
