"""The analysis board. "Ask the engine" on a practice position answers the engine's
three best shots (three different calls) with their expected points and success probability under the
stated stroke noise, what each does in words, and a strike that replays exactly that on the practice
table; the answer is the same for everyone who asks about the same position (shareable by its link);
bad questions are refused with the reason and change nothing."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.core.asgi import get_asgi_application
from django.test import AsyncClient, Client

from bench.management.commands.bench_engine_pool import asgi_post
from game.common.engine_pool import (
    Urgency,
    engine_pool_close,
    engine_scheduler,
    questions_in_flight,
    run_in_engine_pool,
)
from game.engine.analysis import STROKE_NOISE
from game.models import Match as MatchRow
from game.practice.selectors.positions import Position, read_position
from game.site.selectors import engine_board
from game.site.views import practice as practice_views
from tests.common.pool_jobs import hold_until
from tests.common.test_engine_pool import STUCK, until
from tests.practice.test_practice import AIM, POT, code
from tests.support.community_factories import make_player

pytestmark = pytest.mark.django_db


def ask(client: Client, body: Any, **headers: str) -> Any:
    return client.post(
        "/practice/ask/",
        body if isinstance(body, str) else json.dumps(body),
        content_type="application/json",
        **headers,
    )


def test_analysis_board_top_three(client: Client) -> None:
    """K-5.3: a red on the lip of the bottom right pocket is worth its 3 points to the engine; the three
    answers are three calls, best first; each replays on the practice table exactly as the board says."""
    engine_board.forget_answers()
    answer = ask(client, {"position": code(POT)})
    assert answer.status_code == 200, answer.content
    reply = answer.json()
    shots = reply["shots"]
    assert len(shots) == 3
    calls = [json.dumps(s["call"], sort_keys=True) for s in shots]
    assert len(set(calls)) == 3, calls
    values = [s["expected_points"] for s in shots]
    assert values == sorted(values, reverse=True), values
    assert values[0] >= 1.5, shots[0]  # the red cannot be missed by much: 3 points most of the time
    for shot in shots:
        assert 0.0 <= shot["success"] <= 1.0 and shot["samples"] >= 1
        # Players read words, never ids.
        assert shot["words"] and not any(i in shot["words"] for i in ("white1", "red1", "red2", "foot_", "_")), shot
    assert reply["noise"] == STROKE_NOISE.as_dict() and reply["position"] == code(POT)
    # Each shot replays on the practice table, played exactly, as the board said it comes off.
    for shot in shots:
        played = client.post(
            "/practice/play/",
            json.dumps({"position": code(POT), "shoot": {"call": shot["call"], "strike": shot["strike"]}}),
            content_type="application/json",
        ).json()
        verdict = played["event"]["d"]["verdict"]
        assert verdict["points"] - verdict["penalty"] == shot["points"]
        assert played["words"] == shot["words"]
    # The same position, the same answer (kept, and the same from a fresh search in the pool).
    assert ask(client, {"position": code(POT)}).json() == reply
    engine_board.forget_answers()
    assert ask(client, {"position": code(POT)}).json() == reply
    finnish = ask(client, {"position": code(POT)}, HTTP_ACCEPT_LANGUAGE="fi").json()
    assert [s["expected_points"] for s in finnish["shots"]] == values
    assert finnish["shots"][0]["words"] != shots[0]["words"]


@pytest.mark.parametrize(
    ("body", "status", "error"),
    [
        ("not json", 400, "bad_json"),
        ({"position": "AAAA"}, 400, "bad_position"),
        ({"position": code(AIM), "shoot": {}}, 400, "bad_shape"),
        ({"position": code({**AIM, "white1": None})}, 400, "cue_ball_in_hand"),
    ],
)
def test_analysis_board_refuses_bad_questions(client: Client, body: Any, status: int, error: str) -> None:
    engine_board.forget_answers()
    answer = ask(client, body)
    assert answer.status_code == status and answer.json()["error"]["code"] == error, answer.content
    assert answer.json()["error"]["message"]
    assert engine_board.answers_kept() == 0 and MatchRow.objects.count() == 0


def test_analysis_board_needs_a_post_and_is_limited_per_address(client: Client, settings: Any) -> None:
    assert client.get("/practice/ask/").status_code == 405
    settings.KAIZA_RATE_LIMITS = {**settings.KAIZA_RATE_LIMITS, "practice_ask": {"ip": (1, 60)}}
    codes = [ask(client, {"position": "AAAA"}).status_code for _ in range(2)]
    assert codes == [400, 429]


async def ask_from(address: str, position: str, language: str = "en", cookie: str = "") -> tuple[int, Any]:
    """A question through the server's HTTP path from ``address`` (as daphne sets it behind the proxy)."""
    headers = [("accept-language", language)] + ([("cookie", cookie)] if cookie else [])
    return await asgi_post(
        get_asgi_application(), "/practice/ask/", {"position": position}, address=address, headers=headers
    )


@pytest.mark.django_db(transaction=True)
async def test_ask_queue_answers_busy_at_once(settings: Any, tmp_path: Path) -> None:
    """One worker, held; room for one question beyond those being answered. The first question waits
    for the worker; a second, from elsewhere, is refused at once with how many are ahead of it, in the
    reader's language (it comes back while the worker is still held, so it waited for nothing); the
    same person from another address, or the same address, is refused while their question is in
    flight. Once the worker is free the waiting question is answered."""
    settings.KAIZA_BOT_WORKERS = 1
    settings.KAIZA_ASK_QUEUE = 0
    engine_pool_close()
    engine_board.forget_answers()
    release = tmp_path / "release"
    try:
        scheduler = engine_scheduler()
        holder = asyncio.ensure_future(
            run_in_engine_pool(hold_until, str(release), timeout=STUCK, urgency=Urgency.QUESTION)
        )
        await until(lambda: scheduler.running == 1)
        client = AsyncClient()
        await client.aforce_login(await sync_to_async(make_player)("Asker"))
        person = f"sessionid={client.cookies['sessionid'].value}"
        first = asyncio.ensure_future(ask_from("10.0.0.1", code(POT), cookie=person))
        await until(lambda: questions_in_flight() == (1, 0))

        status, busy = await asyncio.wait_for(ask_from("10.0.0.2", code(AIM)), STUCK)
        assert status == 503 and busy["error"]["code"] == "engine_busy" and busy["error"]["ahead"] == 1, busy
        assert busy["error"]["message"] == "The engine is busy: 1 question is ahead of yours. Ask again in a moment."
        for language, words in (("fi", "Moottori"), ("ru", "Движок")):
            _, said = await ask_from("10.0.0.3", code(AIM), language)
            assert said["error"]["code"] == "engine_busy" and words in said["error"]["message"], said
            assert "1" in said["error"]["message"], said
        # One question in flight per person (the same account from another address) and per address.
        for address, cookie, words in (
            ("10.0.0.4", person, "Your last question is still being answered"),
            ("10.0.0.1", "", "Someone on the same internet connection is asking the engine"),
        ):
            status, refused = await ask_from(address, code(AIM), cookie=cookie)
            assert status == 409 and refused["error"]["code"] == "question_pending", refused
            assert refused["error"]["message"].startswith(words), refused
        assert not holder.done() and not first.done()  # all of it answered while the worker was held
        assert engine_board.answers_kept() == 0

        release.touch()
        status, answered = await asyncio.wait_for(first, STUCK)
        assert status == 200 and len(answered["shots"]) == 3, answered
        assert questions_in_flight() == (0, 0)
        status, _ = await ask_from("10.0.0.1", code(AIM))  # the address may ask again
        assert status == 200
    finally:
        release.touch()
        engine_pool_close()


@pytest.fixture
def app() -> Any:
    """The ASGI application, made before the test runs: making it sets up Django's logging again, which
    takes the log capture's handler off the root logger."""
    return get_asgi_application()


@pytest.mark.django_db(transaction=True)
async def test_ask_refusals_keep_the_server_log_clean(
    app: Any, settings: Any, tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under a flood of questions the refusals are the admission at work, not news: a question refused
    as busy (503), one while the same address waits (409) and one past the address's limit (429) log no
    warning and no error, one debug line each. A question the engine could not answer in time is a
    failure and keeps its lines (the view's warning, Django's error for the 503)."""
    settings.KAIZA_BOT_WORKERS = 1
    settings.KAIZA_ASK_QUEUE = 0
    settings.KAIZA_RATE_LIMITS = {**settings.KAIZA_RATE_LIMITS, "practice_ask": {"ip": (2, 60)}}
    caplog.set_level(logging.DEBUG, logger="django.request")

    def ask_at(address: str, position: str) -> Any:
        return asgi_post(app, "/practice/ask/", {"position": position}, address=address)

    engine_pool_close()
    engine_board.forget_answers()
    release = tmp_path / "release"
    try:
        scheduler = engine_scheduler()
        holder = asyncio.ensure_future(
            run_in_engine_pool(hold_until, str(release), timeout=STUCK, urgency=Urgency.QUESTION)
        )
        await until(lambda: scheduler.running == 1)
        first = asyncio.ensure_future(ask_at("10.0.1.1", code(POT)))
        await until(lambda: questions_in_flight() == (1, 0))
        caplog.clear()
        flood = [ask_at(f"10.0.2.{n}", code(AIM)) for n in range(8)]
        flood += [ask_at("10.0.1.1", code(AIM))] + [ask_at("10.0.3.1", code(AIM)) for _ in range(3)]
        statuses = sorted(status for status, _ in await asyncio.wait_for(asyncio.gather(*flood), STUCK))
        assert statuses == [409, 429] + [503] * 10, statuses
        loud = [r for r in caplog.records if r.levelno >= logging.WARNING]
        assert not loud, [r.getMessage() for r in loud]
        quiet = [r for r in caplog.records if r.name == "django.request" and r.levelno == logging.DEBUG]
        assert sorted(r.status_code for r in quiet) == statuses  # type: ignore[attr-defined]
        release.touch()
        assert (await asyncio.wait_for(first, STUCK))[0] == 200
        await asyncio.wait_for(holder, STUCK)

        # A failure: the worker held past the question's time.
        release.unlink()
        monkeypatch.setattr(practice_views, "ASK_TIMEOUT", 0.2)
        holder = asyncio.ensure_future(
            run_in_engine_pool(hold_until, str(release), timeout=STUCK, urgency=Urgency.QUESTION)
        )
        await until(lambda: scheduler.running == 1)
        caplog.clear()
        status, _ = await asyncio.wait_for(ask_at("10.0.4.1", code(AIM)), STUCK)
        assert status == 503
        said = [(r.name, r.levelno) for r in caplog.records if r.levelno >= logging.WARNING]
        assert said == [("game.site.views.practice", logging.WARNING), ("django.request", logging.ERROR)], said
    finally:
        release.touch()
        engine_pool_close()


def test_practice_ask_after_placing_the_white(client: Client) -> None:
    """After a scratch the white is in hand (K-7.1): "Ask the engine" waits for it. Once it is placed in
    the home the position's code holds it (so the link, an undo and a reload keep it), the engine answers
    about that position, and its shots replay from hand as a match judges them (K-7.2)."""
    engine_board.forget_answers()
    in_hand = code({**AIM, "white1": None})
    assert ask(client, {"position": in_hand}).json()["error"]["code"] == "cue_ball_in_hand"
    placed = client.post(
        "/practice/play/",
        json.dumps({"position": in_hand, "place": {"ball": "white1", "x": 0.4, "y": 0.71}}),
        content_type="application/json",
    ).json()
    assert placed["ok"] and placed["event"]["t"] == "placed"
    position = read_position(placed["position"])
    assert isinstance(position, Position) and placed["position"] != in_hand
    assert position.balls["white1"] == (0.4, 0.71) and position.from_hand
    assert placed["state"]["balls"]["white1"] == [0.4, 0.71]

    answer = ask(client, {"position": placed["position"]})
    assert answer.status_code == 200, answer.content
    shots = answer.json()["shots"]
    assert shots and answer.json()["position"] == placed["position"]
    for shot in shots:
        from_code = client.post(
            "/practice/play/",
            json.dumps({"position": placed["position"], "shoot": {"call": shot["call"], "strike": shot["strike"]}}),
            content_type="application/json",
        ).json()
        # The same shot as placing and shooting at once from the white in hand: judged from hand.
        at_once = client.post(
            "/practice/play/",
            json.dumps(
                {
                    "position": in_hand,
                    "place": {"ball": "white1", "x": 0.4, "y": 0.71},
                    "shoot": {"call": shot["call"], "strike": shot["strike"]},
                }
            ),
            content_type="application/json",
        ).json()
        assert from_code["event"]["d"]["verdict"] == at_once["event"]["d"]["verdict"]
        assert from_code["words"] == shot["words"]

    # A reload of the link shows the white where it was placed.
    page = client.get(f"/practice/?p={placed['position']}")
    assert page.context["start"]["state"]["balls"]["white1"] == [0.4, 0.71]
    # A link that claims a white placed by hand outside the home is no position.
    outside = Position(balls={**position.balls, "white1": (1.2, 0.3)}, from_hand=True)
    refused = read_position(outside.code)
    assert not isinstance(refused, Position) and refused.code == "bad_position"
