"""Words at the edge (words.py): verdicts carry ``code`` and ``params``, and the words made from them name
balls, pockets, scores and phases as players do, never by internal ids."""

from __future__ import annotations

import re
from typing import Any

import pytest

from game.engine.rules import RuleError
from game.engine.rules.words import CATALOGUES, refusal, say
from tests.rules.corpus import DATA
from tests.rules.fakes import STRIKE, E, Script
from tests.rules.helpers import START, position, shot

#: Internal ids a player must never read.
IDS = re.compile(
    r"\b(white1|white2|red1|red2|kaisa_|home_(left|right)|middle_(left|right)|foot_(left|right)"
    r"|choose_break|opening_placement|extra_visits|shootout)\b"
)
#: "red" on its own (not "a red", "the red", "the other red", "both reds").
BARE_RED = re.compile(r"(?<!\ba )(?<!\bthe )(?<!\bother )\bred\b")


def words_ok(text: str) -> None:
    assert not IDS.search(text), text
    assert not BARE_RED.search(text), text
    assert "(s)" not in text, text


def play(balls: dict[str, Any], call: dict[str, Any], events: list[Any], **kw: Any) -> dict[str, Any]:
    script = Script()
    m = position(balls=balls, simulate=script, **kw)
    script.push(shot(events))
    return m.shoot("alice", call, STRIKE).verdict


def test_verdict_words_name_balls_as_players_do() -> None:
    # Two reds: "the red" (the called one) and "the other red", never "red" twice.
    v = play(START, {"ball": "red1", "pocket": "foot_left"}, [E("ball_ball", "white1", "red2")])
    assert v["code"] == "call_missed" and v["params"]["failure"] == "wrong_first_ball"
    assert v["params"]["first"] == "red2" and v["params"]["called"] == "red1"
    assert "the cue ball touched the other red first, not the red" in v["reason"]
    # The opponent's white by its owner; pockets as drawn (home on the left, +y up: middle_right is the
    # bottom middle pocket).
    v = play(
        START,
        {"ball": "white2", "pocket": "middle_right"},
        [E("ball_ball", "white1", "white2"), E("ball_pocket", "white2", where="middle_right")],
    )
    assert v["reason"] == "Potted bob's cue ball in the bottom middle pocket: 2 points"
    assert v["params"]["call"]["pocket"] == "middle_right"
    # Caroms: "a red" first, "both reds" together, the kaisa by name.
    v = play(
        START,
        {"ball": "kaisa", "pocket": "foot_left"},
        [
            E("ball_ball", "white1", "kaisa"),
            E("ball_ball", "white1", "red1"),
            E("ball_ball", "white1", "red2"),
            E("ball_pocket", "kaisa", where="foot_left"),
        ],
    )
    assert v["reason"] == "Potted the kaisa in the top right pocket with a carom on both reds: 15 points"
    assert v["params"]["caroms"] == ["red1", "red2"]
    # The own cue ball pocketed: its owner's, and what it hit first.
    v = play(
        START,
        {"ball": "red2", "pocket": "foot_left"},
        [E("ball_ball", "white1", "red1"), E("ball_pocket", "white1", where="home_right")],
    )
    assert v["reason"] == "Foul: alice's cue ball pocketed after hitting a red first: minus 3 points"
    # A win: "alice wins the match", no score (the scoreboard prints it between the names).
    v = play(
        START,
        {"ball": "red1", "pocket": "foot_left"},
        [E("ball_ball", "white1", "red1"), E("ball_pocket", "red1", where="foot_left")],
        scores=(57, 41),
    )
    assert v["wins"] and v["reason"].endswith(". alice wins the match")
    assert v["params"]["won"] == {"winner": "alice", "score": [60, 41]}
    # Phases in words in refusals.
    m = position(phase="opening_placement", turn=1, balls=dict(START, white1=None, white2=None))
    with pytest.raises(RuleError) as err:
        m.choose_break("bob", True)
    assert err.value.code == "wrong_phase" and "the opening placement" in err.value.message
    words_ok(err.value.message)


def test_the_banked_kaisa_words_mention_no_carom() -> None:
    """K-5.5: a kaisa off a cushion scores its flat 6 whatever it caromed; the words say so."""
    v = play(
        START,
        {"ball": "kaisa", "pocket": "foot_left", "object_cushions": 1},
        [
            E("ball_ball", "white1", "kaisa"),
            E("ball_ball", "white1", "red1"),
            E("ball_cushion", "kaisa", where="foot"),
            E("ball_pocket", "kaisa", where="foot_left"),
        ],
    )
    assert v["points"] == 6 and v["caroms"] == [] and "K-5.5" in v["rules"]
    assert v["reason"] == "Potted the kaisa in the top right pocket off 1 cushion: 6 points"


def test_every_recorded_verdict_reads_as_words() -> None:
    """Every verdict of the recorded corpus, re-judged: a code, params, and words without ids."""
    import json

    from tests.rules.test_corpus import _replay

    seen_codes = set()
    for entry in json.loads(DATA.read_text())["matches"]:
        _match, steps = _replay(entry)
        for step in steps:
            verdict = step.get("verdict")
            if not verdict:
                continue
            assert verdict["reason"] == say(verdict["code"], verdict["params"])
            words_ok(verdict["reason"])
            seen_codes.add(verdict["code"])
    assert {"pot", "call_missed", "lag", "break_chosen", "opening_placed", "hand_placed"} <= seen_codes


def test_every_code_has_words_in_every_catalogue() -> None:
    english = CATALOGUES["en"]
    for cat in CATALOGUES.values():
        assert set(cat.verdicts) == set(english.verdicts)
        assert set(cat.failures) == set(english.failures)
        assert set(cat.refusals) == set(english.refusals) and set(cat.lags) == set(english.lags)
        assert set(cat.finishes) == set(english.finishes)
        assert set(cat.pockets) == set(english.pockets) and set(cat.phases) == set(english.phases)


def test_refusals_read_as_words() -> None:
    """Every refusal the rules give a player is made in words.py and names things as players do."""
    params: dict[str, Any] = {"phase": "choose_break", "player": "bob", "ball": "red2", "pocket": "middle_right"}
    params.update(max_speed=9.0, max_tip_offset=0.6, other="kaisa")
    params["owners"] = {"white1": "alice", "white2": "bob"}
    for key in CATALOGUES["en"].refusals:
        words_ok(refusal(key, params))
    assert refusal("wrong_phase", params) == "not possible in the choice of the break"
    assert refusal("place_corridor", params).endswith("to the bottom middle pocket")
    assert refusal("ball_not_on_table", {**params, "ball": "white2"}) == "bob's cue ball is not on the table"
    assert refusal("place_overlapping", {**params, "ball": "red1"}) == "the balls would overlap: a red and the kaisa"
