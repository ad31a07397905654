"""The first-game tutorial. Each step's try is judged by the real engine (physics and rules)
through game/site/selectors/tutorial.py: a known-good strike passes (and so do its neighbours, so a learner
can succeed by eye), a bad one fails with the reason, bad input gets an error code and changes nothing;
the views answer JSON under CSRF and the address's rate limit; the home page offers the tutorial until it
is finished or dismissed."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from django.test import Client

from game.models import Match as MatchRow
from game.site.selectors.tutorial import STEP_IDS, STEPS, tutorial_steps, tutorial_try

#: A legal place in the home for the white in hand (K-2.2, K-7.1).
PLACE_OK = {"ball": "white1", "x": 0.4, "y": 0.45}
#: (step, place, call, angle, speed) that meet each step's goal (chosen with the engine).
GOOD: dict[str, tuple[dict[str, Any] | None, dict[str, Any], float, float]] = {
    "aim": (None, {"ball": "red1", "pocket": "foot_right"}, 0.0, 1.5),
    "call": (None, {"ball": "red1", "pocket": "foot_right"}, -0.611, 1.5),
    "carom": (None, {"ball": "red1", "pocket": "middle_right"}, -0.704, 2.0),
    "hand": (PLACE_OK, {"ball": "red1", "pocket": "foot_right"}, 0.0, 1.5),
    "foul": (None, {"ball": "red1", "pocket": "foot_left"}, -math.pi / 4, 1.5),
}
#: (step, place, call, angle, speed, the miss it reports): K-4.2 not made, no carom, not across the line...
BAD: dict[str, tuple[dict[str, Any] | None, dict[str, Any], float, float, str]] = {
    "aim": (None, {"ball": "red1", "pocket": "foot_right"}, math.pi / 2, 0.5, "no_hit"),
    "call": (None, {"ball": "red1", "pocket": "foot_right"}, -0.611 + 0.05, 1.5, "call_missed"),
    "carom": (None, {"ball": "red1", "pocket": "middle_right"}, -0.75, 2.0, "call_missed"),
    "hand": (PLACE_OK, {"ball": "red1", "pocket": "foot_right"}, math.pi, 0.3, "replayed"),
    "foul": (None, {"ball": "red1", "pocket": "foot_left"}, 0.3, 1.5, "no_foul"),
}


def _body(place: dict[str, Any] | None, call: dict[str, Any], angle: float, speed: float) -> str:
    body: dict[str, Any] = {"shoot": {"call": call, "strike": {"angle": angle, "speed": speed}}}
    if place is not None:
        body["place"] = place
    return json.dumps(body)


def test_there_are_five_steps_in_the_order_of_the_lessons() -> None:
    assert STEP_IDS == ("aim", "call", "carom", "hand", "foul")
    pages = tutorial_steps()
    assert [s["id"] for s in pages] == list(STEP_IDS)
    # The client's state is the match socket's: who acts, and what the server allows (constraints).
    for step in pages:
        actions = step["state"]["constraints"]["player"]["actions"]
        assert ("place" in actions) == (step["id"] == "hand") and ("shoot" in actions) == (step["id"] != "hand")


@pytest.mark.parametrize("step_id", STEP_IDS)
def test_a_known_good_try_passes_and_so_do_its_neighbours(step_id: str) -> None:
    place, call, angle, speed = GOOD[step_id]
    for d_angle in (0.0, -0.003, 0.003):
        for d_speed in (0.0, -0.3, 0.6):
            answer = tutorial_try(step_id=step_id, body=_body(place, call, angle + d_angle, speed + d_speed))
            assert answer.error is None, answer
            assert answer.passed and answer.outcome == "passed", (step_id, d_angle, d_speed, answer.outcome)
            event = answer.event
            assert event is not None and event["t"] == "shot"
            assert event["d"]["segments"]["white1"], "the segments to draw"
            assert event["d"]["verdict"]["code"] and answer.words


def test_the_goals_are_read_off_the_engines_verdict() -> None:
    def verdict(step_id: str) -> dict[str, Any]:
        answer = tutorial_try(step_id=step_id, body=_body(*GOOD[step_id]))
        assert answer.event is not None
        return answer.event["d"]["verdict"]

    assert verdict("aim")["first_hit"] == "red1"
    made = verdict("call")  # K-4.2: the called red in the called pocket
    assert made["fulfilled"] and made["scored"] and "red1" in json.dumps(made["pocketed"]), made
    carom = verdict("carom")  # K-5.3: a red with a carom on the kaisa is 3 + 6
    assert carom["caroms"] == ["kaisa"] and carom["points"] == 9, carom
    hand = verdict("hand")  # K-7.2: across the home line, not played again
    assert not hand["replay"] and hand["first_hit"] == "red1"
    foul = verdict("foul")  # K-8.1: the own white in a pocket after hitting nothing costs 2
    assert foul["foul"] and foul["penalty"] == 2 and "K-8.1" in foul["rules"]
    words = tutorial_try(step_id="foul", body=_body(*GOOD["foul"])).words
    assert words is not None and "Foul" in words and "2" in words and "white1" not in words


@pytest.mark.parametrize("step_id", STEP_IDS)
def test_a_bad_try_fails_with_the_reason(step_id: str) -> None:
    place, call, angle, speed, miss = BAD[step_id]
    answer = tutorial_try(step_id=step_id, body=_body(place, call, angle, speed))
    assert answer.error is None and answer.event is not None
    assert not answer.passed and answer.outcome == miss, (step_id, answer.outcome, answer.words)
    assert answer.words  # the verdict's sentence: why


def test_the_carom_step_without_a_carom_says_so() -> None:
    """K-5.1: the red made with a soft draw shot, the white pulled back short of the kaisa: no carom."""
    body = json.loads(_body(*GOOD["carom"]))
    body["shoot"]["strike"] = {"angle": -0.704, "speed": 1.2, "height": -0.5}
    answer = tutorial_try(step_id="carom", body=json.dumps(body))
    assert answer.outcome == "no_carom" and answer.event is not None
    verdict = answer.event["d"]["verdict"]
    assert verdict["scored"] and verdict["caroms"] == [] and verdict["points"] == 3, verdict


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("step_id", "body", "code"),
    [
        ("nope", "{}", "unknown_step"),
        ("aim", "not json", "bad_json"),
        ("aim", b"\xff\xfe", "bad_json"),
        ("aim", "[1, 2]", "bad_shape"),
        ("aim", "{}", "bad_shape"),
        ("aim", '{"shoot": {}, "extra": 1}', "bad_shape"),
        ("aim", "x" * 5000, "too_large"),
        ("aim", _body(None, {"ball": "red1", "pocket": "foot_right"}, 0.0, 0.0), "bad_value"),
        ("aim", _body(None, {"ball": "red1", "pocket": "foot_right"}, 0.0, 1.0).replace("1.0", "NaN"), "bad_shape"),
        ("aim", _body(None, {"ball": "moon", "pocket": "foot_right"}, 0.0, 1.0), "bad_value"),
        ("aim", json.dumps({"place": PLACE_OK}), "not_in_hand"),
        ("hand", _body(None, {"ball": "red1", "pocket": "foot_right"}, 0.0, 1.0), "place_first"),
        ("hand", json.dumps({"place": {"ball": "white1", "x": 1.5, "y": 0.45}}), "illegal_placement"),
        ("hand", json.dumps({"place": {"ball": "white2", "x": 0.4, "y": 0.45}}), "not_your_ball"),
        ("hand", json.dumps({"place": {"ball": "white1", "x": 9, "y": 0.45}}), "bad_value"),
        # K-4.3: the engine refuses a call that cannot be legal (here the caller's own white) before the shot.
        ("call", _body(None, {"ball": "white1", "pocket": "foot_right"}, 0.0, 1.0), "own_cue_ball"),
    ],
)
def test_bad_input_is_refused_with_a_code_and_changes_nothing(step_id: str, body: str | bytes, code: str) -> None:
    before = [(s.id, s.snapshot()) for s in STEPS]
    answer = tutorial_try(step_id=step_id, body=body)
    assert answer.error is not None and answer.event is None and not answer.passed, answer
    assert answer.error["code"] == code, answer.error
    assert answer.error["message"]
    assert answer.as_dict() == {"ok": False, "error": answer.error}
    assert [(s.id, s.snapshot()) for s in STEPS] == before
    assert MatchRow.objects.count() == 0  # nothing stored


def test_a_placement_alone_answers_placed_with_the_shooting_state() -> None:
    answer = tutorial_try(step_id="hand", body=json.dumps({"place": PLACE_OK}))
    assert answer.error is None and answer.event is not None and answer.event["t"] == "placed"
    data = answer.event["d"]
    assert (data["ball"], data["x"], data["y"]) == ("white1", 0.4, 0.45)
    assert data["state"]["balls"]["white1"] == [0.4, 0.45]
    assert "shoot" in data["state"]["constraints"]["player"]["actions"]
    assert answer.outcome is None and not answer.passed


# --- the views ----------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_page_shows_the_five_steps_in_the_readers_language(client: Client) -> None:
    html = client.get("/learn/").content.decode()
    for words in ("Learn Kaisa in five steps", "Aim and shoot", "Call a ball and a pocket", "Caroms"):
        assert words in html
    assert 'id="learn-steps"' in html and 'id="kaiza-table"' in html and "game/js/pages/learn.js" in html
    fi = client.get("/learn/", HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    assert "Opi kaisa viidessä vaiheessa" in fi and "Tähtää ja lyö" in fi and "Aim and shoot" not in fi
    ru = client.get("/learn/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Кайза за пять шагов" in ru and "Прицел и удар" in ru and "Aim and shoot" not in ru


@pytest.mark.django_db
def test_a_try_over_http_needs_the_csrf_token_and_answers_json() -> None:
    client = Client(enforce_csrf_checks=True)
    page = client.get("/learn/")
    token = page.cookies["csrftoken"].value
    body = _body(*GOOD["aim"])
    refused = client.post("/learn/aim/try/", body, content_type="application/json")
    assert refused.status_code == 403
    ok = client.post("/learn/aim/try/", body, content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert ok.status_code == 200 and ok.json()["passed"] is True and ok.json()["event"]["t"] == "shot"
    bad = client.post("/learn/aim/try/", "{}", content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_shape"
    assert client.get("/learn/aim/try/").status_code == 405


@pytest.mark.django_db
def test_tries_are_limited_per_address(client: Client, settings: Any) -> None:
    settings.KAIZA_RATE_LIMITS = {**settings.KAIZA_RATE_LIMITS, "tutorial_try": {"ip": (2, 60)}}
    body = _body(*GOOD["aim"])
    codes = [client.post("/learn/aim/try/", body, content_type="application/json").status_code for _ in range(3)]
    assert codes == [200, 200, 429]
    again = client.post("/learn/aim/try/", body, content_type="application/json")
    assert again.json()["error"]["code"] == "rate_limited"


@pytest.mark.django_db
@pytest.mark.parametrize("how", ["finished", "dismissed"])
def test_the_home_page_offers_the_tutorial_until_it_is_finished_or_dismissed(client: Client, how: str) -> None:
    assert 'href="/learn/" data-learn' in client.get("/").content.decode()
    if how == "finished":
        answer = client.post("/learn/done/", {"how": how}, HTTP_ACCEPT="application/json")
        assert answer.status_code == 200 and answer.json() == {"ok": True}
    else:
        answer = client.post("/learn/done/", {"how": how})  # the home page's "No thanks" form
        assert answer.status_code == 302 and answer["Location"] == "/"
    assert client.session["kaiza_tutorial"] == how
    assert "data-learn" not in client.get("/").content.decode()
    assert client.get("/learn/").status_code == 200  # still there for whoever looks for it


@pytest.mark.django_db
def test_no_body_makes_a_try_raise() -> None:
    """Like the socket's parser (tests/realtime/test_protocol_fuzz.py): mangled tries are answered, never raised.
    A fixed seed: the same cases every run."""
    import random

    rng = random.Random(16)
    values: list[Any] = [None, True, 0, -1, 1e308, -1e308, 2.5, "", "x" * 300, [], {}, [1], {"a": 1}, "red1"]
    seeds = [json.loads(_body(*GOOD[step])) for step in STEP_IDS]
    for _ in range(400):
        body = json.loads(json.dumps(rng.choice(seeds)))
        for _ in range(rng.randint(1, 3)):
            part = rng.choice(list(body))
            target = body[part]
            if isinstance(target, dict) and "strike" in target and rng.random() < 0.5:
                target = target[rng.choice(["strike", "call"])]
            key = rng.choice([*target, "extra"]) if isinstance(target, dict) else None
            if key is not None:
                target[key] = json.loads(json.dumps(rng.choice(values)))
        answer = tutorial_try(step_id=rng.choice([*STEP_IDS, "x"]), body=json.dumps(body))
        assert (answer.error is None) != (answer.event is None), answer
        if answer.error is not None:
            assert answer.error["code"] and answer.error["message"]
    assert MatchRow.objects.count() == 0
