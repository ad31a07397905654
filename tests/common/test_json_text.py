"""The JSON of the hot paths (game.common.json_text, orjson): every value an input stores and every
socket is sent reads back exactly as the standard library's `json` would have written and read it;
the only spellings that differ are a float's form and NaN (null, where `json` raised)."""

from __future__ import annotations

import json
import math
import random
import struct
from typing import Any

from game.common import json_text
from game.engine.bot import apply_move, quick_move
from game.engine.bot.levels import NoMoveError
from game.engine.rules import Match
from game.matches.selectors.match_state import state_of


def _bits(value: Any) -> Any:
    """Every float as its 64 bits: `==` would call 0.0 and -0.0 equal."""
    if isinstance(value, float):
        return struct.pack("<d", value)
    if isinstance(value, dict):
        return {key: _bits(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_bits(item) for item in value]
    return value


def _positions(count: int) -> list[dict[str, Any]]:
    """States of a real match (the engine's snapshots with constraints), played by the quick bot."""
    match = Match.new(players=("alice", "bob"))
    found: list[dict[str, Any]] = []
    for number in range(count):
        snapshot = match.snapshot()
        state = state_of(snapshot, match)
        assert state is not None
        found.append(state)
        try:
            move = quick_move(state, seed=number)
        except NoMoveError:
            break
        outcome = apply_move(match, move)
        if move["action"] == "shoot":
            found.append(outcome.shot.segments)
    return found


def test_engine_states_and_ball_paths_read_back_bit_for_bit_both_ways() -> None:
    values = _positions(24)
    assert len(values) > 20
    floats = [0.1, 1e-7, 2.5e-310, 1.7976931348623157e308, -0.0, 1 / 3, 6.283185307179586]
    rng = random.Random(5)
    floats += [rng.uniform(-3, 3) for _ in range(2000)] + [
        rng.uniform(0, 1) * 10 ** rng.randint(-12, 12) for _ in range(2000)
    ]
    values.append({"floats": floats})
    for value in values:
        ours = json_text.encode(value)
        theirs = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
        assert _bits(json.loads(ours)) == _bits(value)
        assert _bits(json_text.decode(theirs)) == _bits(value)
        assert _bits(json_text.decode(ours)) == _bits(json.loads(theirs))


def test_letters_stay_utf8_and_keys_become_strings_as_json_writes_them() -> None:
    value = {"ru": "Заказ не выполнен", "fi": "Maalaus ei toteutunut: kaisa ei pudonnut", 3: [True, None]}
    text = json_text.encode(value)
    assert "Заказ" in text and "\\u" not in text
    assert json.loads(text) == json.loads(json.dumps(value))
    assert " " not in json_text.encode({"a": [1, 2], "b": {"c": 1.5}})  # compact, as the wire always was


def test_nan_and_infinity_are_written_as_null_never_as_tokens_no_json_reader_takes() -> None:
    text = json_text.encode({"a": math.nan, "b": math.inf, "c": -math.inf})
    assert json.loads(text) == {"a": None, "b": None, "c": None}
    assert "NaN" not in text and "Infinity" not in text
