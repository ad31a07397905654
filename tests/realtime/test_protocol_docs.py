"""docs/protocol.md stays in step with what the server sends: the `table` object (`kaisa_table().as_dict()`)
and the `constraints` of a state (`Match.constraints`) are documented with every field they have."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from game.engine.rules import Match
from game.engine.table import kaisa_table

PROTOCOL_MD = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def section(title: str) -> str:
    text = PROTOCOL_MD.read_text()
    return text.split(f"\n{title}\n")[1].split("\n## ")[0]


def json_blocks(text: str) -> list[Any]:
    return [json.loads(block) for block in re.findall(r"```json\n(.*?)\n```", text, flags=re.DOTALL)]


def test_the_table_object_is_documented_field_by_field() -> None:
    text = section("## The `table` object")
    table = kaisa_table().as_dict()
    (example,) = json_blocks(text)
    assert set(example) == set(table)
    for field in table:
        assert f"`{field}`" in text, field
    pocket = next(iter(table["pockets"].values()))
    assert set(example["pockets"]["foot_left"]) == set(pocket)
    for field in pocket:
        assert f"| `{field}` |" in text, field
    for part in ("cushions", "jaws", "facings"):
        assert set(example[part][0]) == set(table[part][0]), part
    # The example's numbers are the server's.
    assert example["pockets"]["foot_left"] == table["pockets"]["foot_left"]
    assert example["cushions"][0] == table["cushions"][0] and example["facings"][0] == table["facings"][0]


def test_the_constraints_of_a_state_are_documented_field_by_field() -> None:
    text = section("## The `state` object")
    state_example, constraints_example = json_blocks(text)
    assert set(state_example["constraints"]["bob"]) == set(constraints_example)
    match = Match.from_snapshot(
        {
            "phase": "play",
            "players": [
                {"name": "alice", "cue_ball": "white1", "score": 0},
                {"name": "bob", "cue_ball": "white2", "score": 0},
            ],
            "turn": 0,
            "balls": {
                "white1": None,
                "white2": [1.6, 1.25],
                "red1": [0.71, 0.71],
                "red2": [2.13, 0.71],
                "kaisa": [1.42, 0.71],
            },
            "visit": {"opening": True, "from_hand": True},
        }
    )
    constraints = match.constraints("alice")
    assert set(constraints_example) == set(constraints)
    for field in constraints:
        assert f"`{field}`" in text, field
    assert constraints_example["placement"] == constraints["placement"]
    assert constraints_example["strike_limits"] == constraints["strike_limits"]
    assert constraints_example["not_callable"] == constraints["not_callable"]
    assert constraints_example["why_words"] == constraints["why_words"]
    kaisa = constraints["calls"]["kaisa"]
    assert constraints_example["calls"]["kaisa"]["via"] == kaisa["via"]
    for pocket, entry in constraints_example["calls"]["kaisa"]["pockets"].items():
        assert entry == kaisa["pockets"][pocket], pocket
