"""The practice table (`/practice/`). A position travels as a compact code the server checks
(game/practice/selectors/positions.py); each request is judged by the real engine through the free table the
tutorial shares (game/practice/selectors/free_table.py); bad input (overlapping balls, balls off the table, NaN and
infinities, unknown balls, malformed links, oversized bodies) gets an error code and changes nothing;
nothing is stored; a replay's shots link to their positions."""

from __future__ import annotations

import base64
import json
import math
import random
from typing import Any

import pytest
from django.test import Client

from game.engine.balls import BALL_IDS
from game.engine.table import kaisa_table
from game.models import Match as MatchRow
from game.practice.selectors.positions import (
    MAX_CODE_LENGTH,
    Position,
    decode_position,
    position_code,
    practice_play,
    read_position,
    start_position,
)
from tests.support.community_factories import make_player, play_engine_match

TABLE = kaisa_table()
R = TABLE.ball_radius
#: A red straight ahead of the white, 12 cm short of the bottom right pocket's line (as the tutorial's).
AIM = {
    "white1": (0.9, 0.71),
    "white2": (1.42, 1.2),
    "red1": (1.6, 0.71),
    "red2": (2.13, 0.4),
    "kaisa": (2.13, 1.0),
}
POT = {
    "white1": (2.4261, 0.3415),
    "white2": (1.0, 1.1),
    "red1": (2.72, 0.12),
    "red2": (0.71, 0.71),
    "kaisa": (1.42, 0.71),
}
SHOT_POT = {"call": {"ball": "red1", "pocket": "foot_right"}, "strike": {"angle": -0.611, "speed": 1.5}}
SHOT_MISS = {"call": {"ball": "red1", "pocket": "foot_right"}, "strike": {"angle": 0.0, "speed": 1.5}}


def code(balls: dict[str, Any], cue: str = "white1") -> str:
    return position_code({b: balls.get(b) for b in BALL_IDS}, cue)


def play(body: dict[str, Any] | str) -> dict[str, Any]:
    return practice_play(body=body if isinstance(body, str) else json.dumps(body)).as_dict()


def test_a_position_code_is_compact_and_round_trips() -> None:
    for cue in ("white1", "white2"):
        c = code(POT, cue)
        assert len(c) <= MAX_CODE_LENGTH and c.isascii() and "=" not in c, c
        position = read_position(c)
        assert isinstance(position, Position) and position.cue == cue
        assert position.balls == POT and position.code == c
    start = read_position(start_position().code)
    assert isinstance(start, Position) and start.balls["white2"] is None


def test_a_ball_in_a_pockets_jaws_keeps_its_place_and_old_links_still_read() -> None:
    """A ball can rest hanging in a pocket's jaws, its centre a few millimetres outside the cushions'
    rectangle (a replayed shot began so in a seeded match: y = -0.00596); version 1's codes could not
    say it and moved it onto the cushion line. A version-1 link (no margin) still reads as it did."""
    balls = {**start_position().balls, "red1": (1.420199, -0.00596)}
    c = position_code(balls)
    position = read_position(c)
    assert isinstance(position, Position) and position.balls["red1"] == (1.420199, -0.00596), c
    assert position.balls == balls
    flags = sum(1 << (index + 1) for index, ball in enumerate(BALL_IDS) if balls[ball] is not None)
    body = b"".join(
        max(round(value * 1_000_000), 0).to_bytes(3, "big") for ball in BALL_IDS if balls[ball] for value in balls[ball]
    )
    old = base64.urlsafe_b64encode(bytes([1, flags]) + body).decode().rstrip("=")
    read = read_position(old)
    assert isinstance(read, Position) and read.balls == {**balls, "red1": (1.420199, 0.0)}


def test_a_called_pot_is_judged_as_a_match_judges_it() -> None:
    """K-4.2, K-5.3: the red into the called pocket scores 3; the next position has it respotted (K-5.6 is
    for carom balls; a potted called red is spotted again, K-7.3) and the practising player to shoot."""
    answer = play({"position": code(POT), "shoot": SHOT_POT})
    assert answer["ok"] is True, answer
    verdict = answer["event"]["d"]["verdict"]
    assert verdict["fulfilled"] and verdict["scored"] and verdict["points"] == 3, verdict
    assert answer["event"]["t"] == "shot" and answer["event"]["d"]["segments"]["white1"]
    assert answer["words"] and "white1" not in answer["words"]
    after = read_position(answer["position"])
    assert isinstance(after, Position) and after.balls["red1"] != POT["red1"]
    assert answer["state"]["pending"] == [["player", "shoot"]]


def test_a_missed_call_keeps_the_table_to_the_player_and_says_why() -> None:
    answer = play({"position": code(AIM), "shoot": SHOT_MISS})
    assert answer["ok"] is True
    verdict = answer["event"]["d"]["verdict"]
    assert not verdict["scored"] and verdict["code"] == "call_missed" and "K-4.2" in verdict["rules"]
    # In a match the turn would pass (K-6.1); the practice table keeps it.
    assert answer["event"]["d"]["state"]["pending"] != [["player", "shoot"]]
    assert answer["state"]["pending"] == [["player", "shoot"]]
    assert "Call not made" in answer["words"]


def test_moving_a_ball_answers_the_new_position() -> None:
    answer = play({"position": code(AIM), "move": {"ball": "kaisa", "x": 2.5, "y": 0.3}})
    assert answer["ok"] is True and answer["event"]["t"] == "snapshot"
    moved = read_position(answer["position"])
    assert isinstance(moved, Position) and moved.balls["kaisa"] == (2.5, 0.3)
    assert answer["state"]["balls"]["kaisa"] == [2.5, 0.3]
    # Touching is a position balls can rest in (frozen balls, K-6.7); overlapping is not.
    touching = play({"position": code(AIM), "move": {"ball": "kaisa", "x": 1.6 + 2 * R, "y": 0.71}})
    assert touching["ok"] is True, touching


def test_the_white_in_hand_is_placed_in_the_home_and_the_shot_judged_from_hand() -> None:
    """K-7.1, K-7.2: the practising player's white off the table is in hand."""
    balls = {**AIM, "white1": None}
    c = code(balls)
    placed = play({"position": c, "place": {"ball": "white1", "x": 0.4, "y": 0.71}})
    assert placed["ok"] and placed["event"]["t"] == "placed"
    shot = play({"position": c, "place": {"ball": "white1", "x": 0.4, "y": 0.71}, "shoot": SHOT_MISS})
    assert shot["ok"] and shot["event"]["t"] == "shot"
    refused = play({"position": c, "shoot": SHOT_MISS})
    assert refused["error"]["code"] == "cue_ball_in_hand"
    outside = play({"position": c, "place": {"ball": "white1", "x": 1.5, "y": 0.71}})
    assert outside["error"]["code"] == "illegal_placement"


def test_a_ball_off_the_table_is_put_back_on_its_spot_and_the_other_white_can_shoot() -> None:
    c = code({**AIM, "kaisa": None})
    back = play({"position": c, "restore": "kaisa"})
    assert back["ok"] and read_position(back["position"]).balls["kaisa"] == TABLE.spots["center"]  # type: ignore[union-attr]
    other = play({"position": c, "cue": "white2"})
    assert other["ok"] and read_position(other["position"]).cue == "white2"  # type: ignore[union-attr]
    assert "shoot" in other["state"]["constraints"]["player"]["actions"]
    assert next(p for p in other["state"]["players"] if p["name"] == "player")["cue_ball"] == "white2"


BAD_LINKS = [
    ("", "bad_position"),
    ("!!!!", "bad_position"),
    ("AAAA", "bad_position"),
    ("x" * 200, "bad_position"),
    ("é", "bad_position"),
    (code(AIM)[:-3], "bad_position"),
    ("Ag" + code(AIM)[2:], "bad_position"),  # another version
    (code({**AIM, "kaisa": (1.6 + R, 0.71)}), "overlapping"),
    (code({**AIM, "kaisa": (3.5, 0.71)}), "off_table"),
    (code({**AIM, "kaisa": (0.0, 0.0)}), "off_table"),
]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "error"),
    [
        ({"position": code(AIM), "move": {"ball": "kaisa", "x": 1.6 + R, "y": 0.71}}, "overlapping"),
        ({"position": code(AIM), "move": {"ball": "kaisa", "x": 2.9, "y": 0.71}}, "off_table"),
        ({"position": code(AIM), "move": {"ball": "kaisa", "x": -1, "y": 0.71}}, "off_table"),
        ({"position": code(AIM), "move": {"ball": "moon", "x": 1.0, "y": 0.71}}, "unknown_ball"),
        ({"position": code(AIM), "move": {"ball": "kaisa", "x": True, "y": 0.71}}, "bad_value"),
        ({"position": code(AIM), "move": {"ball": "kaisa", "x": "1", "y": 0.71}}, "bad_value"),
        ({"position": code(AIM), "move": {"ball": "kaisa", "x": 1.0}}, "bad_shape"),
        ({"position": code(AIM), "restore": "kaisa"}, "on_the_table"),
        ({"position": code(AIM), "restore": "moon"}, "unknown_ball"),
        ({"position": code(AIM), "cue": "red1"}, "unknown_ball"),
        (
            {"position": code(AIM), "shoot": {**SHOT_MISS, "call": {"ball": "moon", "pocket": "foot_right"}}},
            "bad_value",
        ),
        (
            {"position": code(AIM), "shoot": {**SHOT_MISS, "call": {"ball": "white1", "pocket": "foot_right"}}},
            "own_cue_ball",
        ),
        ({"position": code(AIM), "shoot": {**SHOT_MISS, "strike": {"angle": 0.0, "speed": 0.0}}}, "bad_value"),
        ({"position": code(AIM), "shoot": SHOT_MISS, "move": {"ball": "kaisa", "x": 1, "y": 1}}, "bad_shape"),
        ({"position": code(AIM), "place": {"ball": "white1", "x": 0.4, "y": 0.4}}, "not_in_hand"),
        ({"shoot": SHOT_MISS}, "bad_position"),
        ({"position": 12, "shoot": SHOT_MISS}, "bad_position"),
        ({"position": code(AIM), "jump": 1}, "bad_shape"),
        *[({"position": link, "shoot": SHOT_MISS}, error) for link, error in BAD_LINKS],
    ],
)
def test_bad_input_is_refused_with_a_code_and_changes_nothing(body: dict[str, Any], error: str) -> None:
    answer = play(body)
    assert answer["ok"] is False and answer["error"]["code"] == error, answer
    assert answer["error"]["message"] and set(answer) == {"ok", "error"}
    assert MatchRow.objects.count() == 0


#: A move and a shot whose numbers JSON cannot hold (Python's json reads NaN, Infinity and 1e400 as floats).
MOVE_RAW = '{"position": "@POS@", "move": {"ball": "kaisa", "x": @X@, "y": 0.7}}'
SHOT_RAW = (
    '{"position": "@POS@", "shoot": {"call": {"ball": "red1", "pocket": "foot_right"},'
    ' "strike": {"angle": @X@, "speed": 1}}}'
)


@pytest.mark.parametrize(
    ("raw", "error"),
    [
        (MOVE_RAW.replace("@POS@", code(AIM)).replace("@X@", "NaN"), "bad_value"),
        (MOVE_RAW.replace("@POS@", code(AIM)).replace("@X@", "Infinity"), "bad_value"),
        (MOVE_RAW.replace("@POS@", code(AIM)).replace("@X@", "1e400"), "bad_value"),
        (SHOT_RAW.replace("@POS@", code(AIM)).replace("@X@", "NaN"), "bad_shape"),
        (SHOT_RAW.replace("@POS@", code(AIM)).replace("@X@", "-Infinity"), "bad_shape"),
        ("not json", "bad_json"),
        ("[]", "bad_shape"),
        ("{}", "bad_shape"),
        ("{" + " " * 5000 + "}", "too_large"),
    ],
)
def test_nan_infinity_junk_and_oversized_bodies_are_refused(raw: str, error: str) -> None:
    answer = play(raw)
    assert answer["ok"] is False and answer["error"]["code"] == error, answer


def test_no_code_decodes_into_an_exception() -> None:
    rng = random.Random(17)
    good = code(AIM)
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=+/ %"
    for _ in range(2000):
        if rng.random() < 0.5:
            chars = list(good)
            for _ in range(rng.randint(1, 4)):
                chars[rng.randrange(len(chars))] = rng.choice(alphabet)
            candidate = "".join(chars)
        else:
            candidate = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 50)))
        position = read_position(candidate)
        if isinstance(position, Position):
            # Whatever decodes is a layout balls could rest in.
            on = [at for at in position.balls.values() if at is not None]
            assert all(TABLE.ball_position_valid(at) for at in on)
            assert all(math.dist(a, b) >= 2 * R - 1e-5 for i, a in enumerate(on) for b in on[i + 1 :])
        else:
            assert position.code in {"bad_position", "off_table", "overlapping"}
    assert isinstance(decode_position(None), Exception)


# --- the views ----------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_page_opens_the_links_position_in_the_readers_language(client: Client) -> None:
    page = client.get(f"/practice/?p={code(POT)}")
    assert page.status_code == 200
    start = page.context["start"]
    assert start["position"] == code(POT) and start["state"]["balls"]["red1"] == list(POT["red1"])
    html = page.content.decode()
    assert "Practice table" in html and "Move balls" in html and "Copy link" in html
    assert "game/js/pages/practice.js" in html
    fi = client.get("/practice/", HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    assert "Harjoituspöytä" in fi and "Move balls" not in fi
    ru = client.get("/practice/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Тренировочный стол" in ru and "Move balls" not in ru


@pytest.mark.django_db
@pytest.mark.parametrize(("link", "error"), BAD_LINKS[1:])
def test_a_malformed_link_opens_the_start_position_and_says_why(client: Client, link: str, error: str) -> None:
    page = client.get("/practice/", {"p": link})
    assert page.status_code == 200
    assert page.context["start"]["position"] == start_position().code
    assert page.context["link_error"]["code"] == error
    assert "That link does not hold a position we can set up" in page.content.decode()


@pytest.mark.django_db
def test_a_request_needs_the_csrf_token_and_answers_json() -> None:
    client = Client(enforce_csrf_checks=True)
    token = client.get("/practice/").cookies["csrftoken"].value
    body = json.dumps({"position": code(POT), "shoot": SHOT_POT})
    assert client.post("/practice/play/", body, content_type="application/json").status_code == 403
    ok = client.post("/practice/play/", body, content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert ok.status_code == 200 and ok.json()["event"]["d"]["verdict"]["scored"] is True
    bad = json.dumps({"position": code(AIM), "move": {"ball": "kaisa", "x": 1.6, "y": 0.71}})
    refused = client.post("/practice/play/", bad, content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "overlapping"
    fi = client.post(
        "/practice/play/", bad, content_type="application/json", HTTP_X_CSRFTOKEN=token, HTTP_ACCEPT_LANGUAGE="fi"
    )
    assert "päällekkäin" in fi.json()["error"]["message"]
    assert client.get("/practice/play/").status_code == 405
    assert MatchRow.objects.count() == 0


@pytest.mark.django_db
def test_requests_are_limited_per_address(client: Client, settings: Any) -> None:
    settings.KAIZA_RATE_LIMITS = {**settings.KAIZA_RATE_LIMITS, "practice_try": {"ip": (2, 60)}}
    body = json.dumps({"position": code(AIM)})
    codes = [client.post("/practice/play/", body, content_type="application/json").status_code for _ in range(3)]
    assert codes == [200, 200, 429]


@pytest.mark.django_db
def test_each_replayed_shot_links_to_its_position_on_the_practice_table(client: Client) -> None:
    match = play_engine_match(make_player("Alice"), make_player("Bob"), inputs=10)
    response = client.get(f"/m/{match.pk}/replay/")
    steps = response.context["replay"]["steps"]
    shots = [s for s in steps if s["kind"] == "shoot"]
    assert shots and all(s["practice"] for s in shots)
    assert all(s["practice"] is None for s in steps if s["kind"] != "shoot")
    html = response.content.decode()
    for step in shots:
        assert f"/practice/?p={step['practice']}" in html
        position = read_position(step["practice"])
        assert isinstance(position, Position)
        assert position.cue == step["verdict"]["params"]["cue"]
        for ball, track in step["segments"].items():
            assert position.balls[ball] == (round(track[0][1], 6), round(track[0][2], 6))
    assert "Practise this shot" in html
    # The link opens that position.
    first = shots[0]["practice"]
    assert client.get(f"/practice/?p={first}").context["start"]["position"] == first


def test_a_shot_without_a_call_is_played_by_the_physics_and_not_judged() -> None:
    """K-4.1: in a match every shot is called; on the practice table a shot with ``"call": null`` is
    played by the real simulate and left unjudged (code ``uncalled``); a dropped ball is off the table."""
    answer = play({"position": code(POT), "shoot": {"call": None, "strike": SHOT_POT["strike"]}})
    assert answer["ok"] is True, answer
    verdict = answer["event"]["d"]["verdict"]
    assert verdict["code"] == "uncalled" and verdict["rules"] == ["K-4.1"] and not verdict["scored"]
    assert verdict["pocketed"] == [["red1", "foot_right"]]
    after = read_position(answer["position"])
    assert isinstance(after, Position) and after.balls["red1"] is None and after.balls["white1"] is not None
    assert answer["state"]["pending"] == [["player", "shoot"]]
    # The same strike with the call: judged, and the red respotted by the rules.
    called = play({"position": code(POT), "shoot": SHOT_POT})
    assert read_position(called["position"]).balls["red1"] is not None  # type: ignore[union-attr]
    bad = play({"position": code(POT), "shoot": {"call": None, "strike": {"angle": 0.0, "speed": 99}}})
    assert bad["error"]["code"] == "bad_value"
    in_hand = code({**POT, "white1": None})
    assert play({"position": in_hand, "shoot": {"call": None, "strike": SHOT_MISS["strike"]}})["error"]["code"] == (
        "cue_ball_in_hand"
    )
    placed = play(
        {
            "position": in_hand,
            "place": {"ball": "white1", "x": 0.4, "y": 0.71},
            "shoot": {"call": None, "strike": SHOT_MISS["strike"]},
        }
    )
    assert placed["ok"] and placed["event"]["d"]["segments"]["white1"][0][1:3] == [0.4, 0.71]
