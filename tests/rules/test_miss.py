"""After a miss the verdict says by how much (K-4.2, game/engine/rules/miss.py), in every language.

Real shots from the practice position where the red on the rear spot is cut into the top right pocket
(`foot_left`): at 19.00° it hits the long cushion left of the pocket, at 19.10° the left jaw, at 19.20°
the end cushion right of it, and 19.13° pots it. Left and right are as the ball ran.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from game.engine.rules import Match, words
from game.engine.rules.calls import Call
from game.engine.rules.events import HandEvent
from game.engine.rules.miss import miss_of
from game.engine.table import kaisa_table

TABLE = kaisa_table()
PRACTICE: dict[str, Any] = {
    "phase": "play",
    "players": [{"name": "alice", "cue_ball": "white1", "score": 0}, {"name": "bob", "cue_ball": "white2", "score": 0}],
    "turn": 0,
    "balls": {
        "white1": [0.80715, 0.219076],
        "white2": None,
        "red1": [0.71, 0.71],
        "red2": [2.13, 0.71],
        "kaisa": [1.42, 0.71],
    },
}


def _verdict(degrees: float, call: dict[str, Any] | None = None) -> dict[str, Any]:
    m = Match.from_snapshot(PRACTICE)
    strike = {"angle": math.radians(degrees), "speed": 2.5, "side": 0.0, "height": 0.0}
    verdict: dict[str, Any] = m.shoot("alice", call or {"ball": "red2", "pocket": "foot_left"}, strike).verdict
    return verdict


@pytest.mark.parametrize(
    ("degrees", "miss", "said"),
    [
        (
            19.00,
            {"at": "cushion", "side": "left", "mm": 47, "cushion": "left_foot"},
            {
                "en": "Call not made: the red hit the cushion 47 mm left of the jaw; the visit ends",
                "fi": "Maalaus ei toteutunut: punainen osui valliin 47 mm pussin reunasta vasemmalle; vuoro päättyy",
                "ru": "Заказ не выполнен: красный шар ударился в борт в 47 мм левее губки лузы; подход окончен",
            },
        ),
        (
            19.10,
            {"at": "jaw", "side": "left"},
            {
                "en": "Call not made: the red hit the left jaw and stayed out; the visit ends",
                "fi": "Maalaus ei toteutunut: punainen osui pussin vasempaan reunaan eikä pudonnut; vuoro päättyy",
                "ru": "Заказ не выполнен: красный шар ударился в левую губку лузы и не упал; подход окончен",
            },
        ),
        (
            19.20,
            {"at": "cushion", "side": "right", "mm": 14, "cushion": "foot"},
            {
                "en": "Call not made: the red hit the cushion 14 mm right of the jaw; the visit ends",
                "fi": "Maalaus ei toteutunut: punainen osui valliin 14 mm pussin reunasta oikealle; vuoro päättyy",
                "ru": "Заказ не выполнен: красный шар ударился в борт в 14 мм правее губки лузы; подход окончен",
            },
        ),
    ],
)
def test_miss_says_by_how_much(degrees: float, miss: dict[str, Any], said: dict[str, str]) -> None:
    verdict = _verdict(degrees)
    assert verdict["code"] == "call_missed" and verdict["rules"] == ["K-4.2", "K-6.1"]
    assert verdict["params"]["failure"] == "not_dropped"
    assert verdict["params"]["miss"] == {**miss, "pocket": "foot_left"}
    assert verdict["reason"] == said["en"]
    for language in ("en", "fi", "ru"):
        assert words.say(verdict["code"], verdict["params"], language) == said[language]
    # The same words on a portrait table: left and right are the ball's, not the page's.
    for language, text in words.in_every_language(
        lambda lang: words.say(verdict["code"], verdict["params"], lang), portrait=True
    ).items():
        assert text == said[language.split("@")[0]]


def test_a_pot_or_another_failure_says_no_distance() -> None:
    assert _verdict(19.13)["scored"] is True
    # The kaisa called into the same pocket: the cue ball hits the red first, no distance for the kaisa.
    wrong = _verdict(19.20, {"ball": "kaisa", "pocket": "foot_left"})
    assert wrong["params"]["failure"] == "wrong_first_ball" and "miss" not in wrong["params"]


def test_only_a_direct_miss_near_the_called_pocket_is_measured() -> None:
    call = Call("red2", "foot_left")
    before = {"white1": (0.8, 0.2), "red2": (2.13, 0.71)}
    hit = HandEvent(0.5, "ball_ball", ("white1", "red2"), None, (2.1, 0.69))
    far = HandEvent(1.0, "ball_cushion", ("red2",), "right_foot", (2.5, 0.0))
    near = HandEvent(1.0, "ball_cushion", ("red2",), "foot", (TABLE.length, 1.30))
    kissed = HandEvent(0.8, "ball_ball", ("red2", "kaisa"), None, (2.3, 0.9))
    assert miss_of(call, "white1", before, [hit, far], TABLE) is None, "a cushion by another pocket"
    assert miss_of(call, "white1", before, [hit, kissed, near], TABLE) is None, "another ball first"
    assert miss_of(Call("red2", "foot_left", object_cushions=1), "white1", before, [hit, near], TABLE) is None
    measured = miss_of(call, "white1", before, [hit, near], TABLE)
    foot = TABLE.cushions[1]
    assert foot.id == "foot"
    nose_end = foot.b[1]  # where the foot cushion's nose ends at the top right pocket's jaw
    assert measured == {
        "at": "cushion",
        "side": "right",
        "pocket": "foot_left",
        "mm": round((nose_end - 1.30) * 1000),
        "cushion": "foot",
    }
