"""A real moment in the coach: a position laid out from a real table opens on the practice table and in
"Ask the engine" as it was, through the practice table's own position code."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from game.models.realgames import RealGame
from game.practice.selectors.positions import decode_position
from game.realgames.services import apply_tap, scoring_table_add
from tests.support.community_factories import make_club, make_player

pytestmark = pytest.mark.django_db

#: A position met at a real table (centimetres from the home cushion, from the right cushion): the
#: player with the white with two dots to shoot, his white in hand after his foul.
LAID_OUT = {
    "white1_x": "200",
    "white1_y": "30.5",
    "white2_hand": "1",
    "white2_x": "",
    "white2_y": "",
    "red1_x": "150",
    "red1_y": "100",
    "red2_x": "250,2",
    "red2_y": "120",
    "kaisa_x": "142",
    "kaisa_y": "71",
    "shooter": "white2",
}


def _opened(client: Any, **extra: str) -> tuple[str, dict[str, list[str]]]:
    response = client.get("/practice/real/open/", {**LAID_OUT, **extra})
    assert response.status_code == 302
    link = urlsplit(response["Location"])
    return link.path, parse_qs(link.query)


def test_real_position_opens_in_the_coach(client: Any) -> None:
    page = client.get("/practice/real/", HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    assert "Asento oikealta pöydältä" in page and 'name="white2_hand"' in page and "real_position.js" in page

    where, query = _opened(client, open="ask")
    assert where == "/practice/" and query["ask"] == ["1"]
    position = decode_position(query["p"][0])
    assert not isinstance(position, Exception)
    assert position.cue == "white2" and position.balls["white2"] is None  # his white in hand, as it was
    assert position.balls["white1"] == (2.0, 0.305) and position.balls["red2"] == (2.502, 1.2)
    assert position.balls["kaisa"] == (1.42, 0.71)

    _, plain = _opened(client, open="practice")
    assert "ask" not in plain and plain["p"] == query["p"]

    # the practice table opens at that very position: the one to shoot has his white in hand
    practice = client.get("/practice/", {"p": query["p"][0]}).content.decode()
    start = json.loads(re.search(r'id="practice-start"[^>]*>(.*?)</script>', practice, re.S)[1])
    assert start["position"] == query["p"][0]
    state = start["state"]
    assert state["balls"]["white2"] is None and state["balls"]["red1"] == [1.5, 1.0]
    shooter = state["players"][state["turn"]]
    assert shooter["cue_ball"] == "white2"


def test_a_scored_games_moment_comes_to_the_coach_with_its_players(client: Any) -> None:
    """From the scorer's game: its players named, the one to shoot chosen, the white of a cue-ball foul in
    hand (K-7.1), and the form opens with them."""
    table = scoring_table_add(club_id=make_club("Coach club", make_player("Coach director")).pk, number=1)
    game = RealGame.objects.create(table=table, first_name="Eeva Esko", second_name="Fanny Falk")
    taps = [
        {"kind": "pot", "ball": "red", "pocket": "foot_left", "caroms": []},
        {"kind": "miss", "ball": "red"},
        {"kind": "foul", "foul": "cue_ball_pocketed", "first_hit": "red"},
    ]
    for number, tap in enumerate(taps):
        assert apply_tap(game.pk, f"coach-{number}", tap).accepted
    page = client.get("/practice/real/", {"game": game.pk}).content.decode()
    assert "Eeva Esko" in page and "Fanny Falk" in page and f'name="game" value="{game.pk}"' in page
    assert re.search(r'name="shooter" value="white1" checked', page)  # Fanny fouled: Eeva to shoot
    assert re.search(r'name="white2_hand" value="1" checked', page)  # Fanny's white is in hand
    assert not re.search(r'name="white1_hand" value="1" checked', page)
    assert client.get("/practice/real/", {"game": "999999"}).status_code == 200  # no such game: no names
    scorer = client.get(f"/tables/{table.token}/score/").content.decode()
    assert f'href="/practice/real/?game={game.pk}"' in scorer  # the scorer's way to the coach


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"red1_x": "142", "red1_y": "71"}, "The balls cannot lie there"),  # on the kaisa
        ({"kaisa_x": "400"}, "The balls cannot lie there"),  # off the table
        ({"red2_y": "nan"}, "two numbers of centimetres"),
        ({"red2_y": ""}, "two numbers of centimetres"),
        ({"shooter": "red1"}, "whose turn"),
        ({"open": "replay"}, "practice table or ask"),
    ],
)
def test_a_layout_that_is_no_position_opens_nothing(client: Any, change: dict[str, str], words: str) -> None:
    response = client.get("/practice/real/open/", {**LAID_OUT, "open": "practice", **change})
    assert response.status_code == 400
    page = response.content.decode()
    assert words in page and 'value="250,2"' in page  # what was typed stays in the form
