"""The shot analysis on the pages: "Analyse" on the end card and the replay page (a POST,
signed-in users only), the replay's progress line while it waits, and once done the players' figures
and beside every shot the engine's best shot in words with the played shot's value as a bar."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.core.asgi import get_asgi_application
from django.test import Client
from django.utils import translation

from game.common.engine_pool import (
    Urgency,
    engine_pool_close,
    engine_scheduler,
    questions_in_flight,
    run_in_engine_pool,
)
from game.engine.analysis import (
    STROKE_NOISE,
    analyse_played,
    analyse_with_motion,
    exact_motion,
    played_shots,
    summarise_match,
)
from game.matches.selectors.analysis import call_words, match_graph, shot_visits, strike_words
from game.matches.selectors.replays import match_player_names, match_replay_record, match_replay_steps, replay_shots
from game.matches.services import analysis_claim, analysis_finish, analysis_store_motion
from game.models import MatchAnalysis, Shot
from game.site.selectors import engine_board
from tests.common.pool_jobs import hold_until
from tests.common.test_engine_pool import STUCK, until
from tests.practice.test_practice import POT, code
from tests.site.test_engine_board import ask_from
from tests.support.community_factories import make_player, play_engine_match

pytestmark = pytest.mark.django_db


def _match(**options: Any) -> Any:
    return play_engine_match(make_player("Alice"), make_player("Bob"), inputs=8, **options)


def test_a_guest_sees_no_button_and_is_refused_with_words(client: Client) -> None:
    match = _match()
    page = client.get(f"/m/{match.pk}/replay/").content.decode()
    assert "data-analyse" not in page and "Log in to ask the engine" in page
    response = client.post(f"/m/{match.pk}/analysis/", follow=True)
    assert "Log in to ask for an analysis." in response.content.decode()
    assert not MatchAnalysis.objects.exists()


def test_analyse_from_the_replay_page_queues_it_once_and_shows_it_waiting(client: Client) -> None:
    match = _match()
    user = make_player("Cecilia")
    client.force_login(user)
    assert "data-analyse" in client.get(f"/m/{match.pk}/replay/").content.decode()
    response = client.post(f"/m/{match.pk}/analysis/")
    assert response.status_code == 302 and response["Location"] == f"/m/{match.pk}/replay/#analysis"
    client.post(f"/m/{match.pk}/analysis/")
    assert MatchAnalysis.objects.filter(match=match).count() == 1
    page = client.get(f"/m/{match.pk}/replay/").content.decode()
    assert 'data-status="queued"' in page and "Waiting for the engine" in page and "data-analyse" not in page
    assert client.get(f"/m/{match.pk}/analysis.json").json() == {"status": "queued", "done": 0, "total": 0}
    assert client.get(f"/m/{match.pk}/analysis/").status_code == 405  # a POST only


def test_an_unfinished_match_is_refused_on_its_page(client: Client) -> None:
    match = _match(resign=False)
    client.force_login(make_player("Dora"))
    response = client.post(f"/m/{match.pk}/analysis/", follow=True)
    assert response.redirect_chain[-1][0] == f"/m/{match.pk}/"
    assert "Only a finished match can be analysed." in response.content.decode()
    assert not MatchAnalysis.objects.exists()


def test_the_end_card_offers_analyse_to_signed_in_users(client: Client) -> None:
    match = _match()
    assert "kz-analyse" not in client.get(f"/m/{match.pk}/").content.decode()
    client.force_login(match.player1)
    assert f'action="/m/{match.pk}/analysis/"' in client.get(f"/m/{match.pk}/").content.decode()


@pytest.mark.parametrize(
    ("language", "link"),
    [
        ("en", "See the analysis on the replay"),
        ("fi", "Katso analyysi uusinnasta"),
        ("ru", "Смотреть анализ в повторе"),
    ],
)
def test_the_end_cards_analyse_answers_its_script_and_links_to_the_replay(
    client: Client, language: str, link: str
) -> None:
    """The end card's script asks for JSON: the status (queued, once however often it asks) and the
    replay's address; the card carries the link to the replay's analysis in the reader's language
    (shown by the script when the socket says it is done); a refusal is words with 400, nothing stored."""
    match = _match()
    client.force_login(match.player1)
    page = client.get(f"/m/{match.pk}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f'class="kz-end-analysis-link" href="/m/{match.pk}/replay/#analysis" hidden>{link}</a>' in page
    asked = [
        client.post(f"/m/{match.pk}/analysis/", HTTP_ACCEPT="application/json", HTTP_ACCEPT_LANGUAGE=language)
        for _ in range(2)
    ]
    for answer in asked:
        assert answer.status_code == 200
        assert answer.json() == {"status": "queued", "done": 0, "total": 0, "replay": f"/m/{match.pk}/replay/#analysis"}
    assert MatchAnalysis.objects.filter(match=match).count() == 1
    unfinished = play_engine_match(make_player("Dora"), make_player("Erik"), inputs=4, resign=False)
    refused = client.post(f"/m/{unfinished.pk}/analysis/", HTTP_ACCEPT="application/json")
    assert refused.status_code == 400 and refused.json()["code"] == "not_finished" and refused.json()["error"]
    assert not MatchAnalysis.objects.filter(match=unfinished).exists()


def test_a_done_analysis_is_shown_to_everyone_beside_its_shots(client: Client) -> None:
    match = _match()
    MatchAnalysis.objects.create(match=match, requested_by=match.player1)
    claimed = analysis_claim()
    assert claimed is not None and claimed.match_id == match.pk
    shots = played_shots(replay_shots(record=match_replay_record(match=match)))
    analyses = [analyse_played(shot, STROKE_NOISE, 2, 20) for shot in shots]
    report = summarise_match(analyses, match_player_names(match=match), STROKE_NOISE, 2).as_dict()
    analysis_finish(analysis_id=claimed.pk, report=report)
    page = client.get(f"/m/{match.pk}/replay/").content.decode()  # a guest
    assert 'data-status="done"' in page
    for player in match_player_names(match=match):
        assert f'data-analysis-player="{player}"' in page
    assert page.count("data-shot-analysis") == len(shots) >= 2
    assert page.count('class="shot-ev-bar"') == len(shots)
    if not all(a.best_is_played for a in analyses):
        assert "Best: " in page and " into " in page and " m/s at " in page
    assert "How the shots are valued" in page and "aim 1.0 mrad" in page


def test_the_best_shot_is_said_in_words_never_ids() -> None:
    with translation.override("fi"):
        said = call_words({"ball": "red1", "pocket": "foot_left", "object_cushions": 1}, "fi")
        assert "red1" not in said and "foot_left" not in said and "vallin kautta" in said
        strike = {"angle": 0.5, "speed": 2.34, "side": 0.2, "height": 0.3}
        assert strike_words(strike) == "2,3 m/s suuntaan 29°, yläkierre ja oikea sivukierre"
    assert strike_words({"angle": -0.5, "speed": 1.0, "side": 0.0, "height": -0.2}) == "1.0 m/s at 331°, draw"


def _analysed_with_motions(match: Any) -> tuple[list[Any], dict[str, Any]]:
    """The match analysed as the runner stores it: each shot's analysis and the best shot's exact motion."""
    MatchAnalysis.objects.create(match=match, requested_by=match.player1)
    claimed = analysis_claim()
    assert claimed is not None
    shots = played_shots(replay_shots(record=match_replay_record(match=match)))
    pairs = [analyse_with_motion(shot, STROKE_NOISE, 2, 20) for shot in shots]
    report = summarise_match([a for a, _ in pairs], match_player_names(match=match), STROKE_NOISE, 2).as_dict()
    for shot_report, (_, motion) in zip(report["shots"], pairs, strict=True):
        shot_report["best_motion"] = motion
    analysis_finish(analysis_id=claimed.pk, report=report)
    return shots, report


def test_the_engine_shot_is_sent_exactly_as_the_engine_plays_it(client: Client) -> None:
    match = _match()
    shots, report = _analysed_with_motions(match)
    seqs = list(Shot.objects.filter(match=match, kind="shoot").order_by("seq").values_list("seq", flat=True))
    page = client.get(f"/m/{match.pk}/replay/").content.decode()
    assert page.count("data-engine-shot=") == len(shots) >= 2
    assert "Show the engine's shot" in page and "Play the engine's shot" in page
    for seq, shot, shot_report in zip(seqs, shots, report["shots"], strict=True):
        sent = client.get(f"/m/{match.pk}/analysis/shot/{seq}.json").json()
        best = shot_report["best"]
        # The engine is deterministic: played again now, the best shot moves exactly as was stored.
        again = exact_motion(shot.snapshot, best["call"], best["strike"])
        assert sent["segments"] == json.loads(json.dumps(again["segments"]))
        assert sent["segments"], "the engine's shot moves the cue ball"
        assert sent["call"]["ball"] == best["call"]["ball"] and sent["call"]["pocket"] == best["call"]["pocket"]
        assert sent["cue_ball"] == again["cue_ball"] and sent["cue_ball"] in sent["segments"]
        assert " into " in sent["words"]
    # Not an analysed shot, a shot number that is no shot: a clear refusal in words.
    missing = client.get(f"/m/{match.pk}/analysis/shot/99999.json")
    assert missing.status_code == 404 and "not there" in missing.json()["error"]


def _analysed_without_motions(match: Any) -> tuple[Any, list[Any], dict[str, Any]]:
    """The match analysed as an older runner stored it: each shot's analysis, no best shot's motion."""
    MatchAnalysis.objects.create(match=match, requested_by=match.player1)
    claimed = analysis_claim()
    assert claimed is not None
    shots = played_shots(replay_shots(record=match_replay_record(match=match)))
    report = summarise_match(
        [analyse_played(s, STROKE_NOISE, 2, 20) for s in shots], match_player_names(match=match), STROKE_NOISE, 2
    ).as_dict()
    analysis_finish(analysis_id=claimed.pk, report=report)
    return claimed, shots, report


def test_an_analysis_stored_without_motions_offers_the_engine_shot_made_when_asked(client: Client) -> None:
    """An analysis stored before the motions were kept: the replay still offers the engine's shot beside
    every shot; the first ask makes its motion in the engine pool (exactly the engine's, played in the
    position before that shot), stores it, and the next ask is sent the stored one."""
    match = _match()
    claimed, shots, report = _analysed_without_motions(match)
    page = client.get(f"/m/{match.pk}/replay/").content.decode()
    assert page.count("data-engine-shot=") == len(shots) >= 2 and "data-analysis-graph" in page
    seqs = list(Shot.objects.filter(match=match, kind="shoot").order_by("seq").values_list("seq", flat=True))
    index = len(seqs) - 1  # the last shot: the match replayed all the way to it
    sent = client.get(f"/m/{match.pk}/analysis/shot/{seqs[index]}.json")
    assert sent.status_code == 200, sent.content
    best = report["shots"][index]["best"]
    again = exact_motion(shots[index].snapshot, best["call"], best["strike"])
    assert sent.json()["segments"] == json.loads(json.dumps(again["segments"])) and sent.json()["segments"]
    assert sent.json()["cue_ball"] == again["cue_ball"] and " into " in sent.json()["words"]
    stored = MatchAnalysis.objects.get(pk=claimed.pk).report["shots"]
    assert stored[index]["best_motion"]["segments"] == sent.json()["segments"]
    assert all("best_motion" not in shot for shot in stored[:index])  # made only for the shot asked about
    assert client.get(f"/m/{match.pk}/analysis/shot/{seqs[index]}.json").json() == sent.json()
    # Stored once: a second store of that shot, a shot that is not there, change nothing.
    assert not analysis_store_motion(analysis_id=claimed.pk, index=index, motion={"segments": {}})
    assert not analysis_store_motion(analysis_id=claimed.pk, index=len(seqs), motion={"segments": {}})
    assert MatchAnalysis.objects.get(pk=claimed.pk).report["shots"] == stored


def test_an_engine_shot_the_rules_refused_is_said_not_there(client: Client) -> None:
    """A best shot stored as refused (its motion None: the rules would not play it again) is not
    offered, and asking for it is a 404 in words, nothing made or stored."""
    match = _match()
    _shots, report = _analysed_with_motions(match)
    analysis = MatchAnalysis.objects.get(match=match)
    analysis.report["shots"][0]["best_motion"] = None
    analysis.save(update_fields=["report"])
    page = client.get(f"/m/{match.pk}/replay/").content.decode()
    assert page.count("data-engine-shot=") == len(report["shots"]) - 1
    seq = Shot.objects.filter(match=match, kind="shoot").order_by("seq").values_list("seq", flat=True).first()
    refused = client.get(f"/m/{match.pk}/analysis/shot/{seq}.json")
    assert refused.status_code == 404 and "not there" in refused.json()["error"]
    assert MatchAnalysis.objects.get(match=match).report["shots"][0]["best_motion"] is None


def test_the_graph_follows_the_score_and_the_expected_points(client: Client) -> None:
    match = _match()
    shots, report = _analysed_with_motions(match)
    page = client.get(f"/m/{match.pk}/replay/").content.decode()
    assert page.count('data-series="score"') == 2 and page.count('data-series="expected"') == 2
    assert " style=" not in page.split("data-analysis-graph", 1)[1].split("</figure>", 1)[0]
    assert "The match visit by visit" in page
    for language, words, title, over in (
        ("fi", "Näytä moottorin lyönti", "Ottelu vuoro vuorolta", "vuoron ajalta"),
        ("ru", "Показать удар движка", "Матч по подходам", "(ударов: "),
    ):
        translated = client.get(f"/m/{match.pk}/replay/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert words in translated and "Show the engine's shot" not in translated
        assert title in translated and over in translated
        assert "expected points of the shots played" not in translated and "visit by visit" not in translated
    players = match_player_names(match=match)
    steps = match_replay_steps(match=match)["steps"]
    seqs = [s["seq"] for s in steps if s["kind"] == "shoot"]
    graph = match_graph(steps, seqs, report["shots"], players)
    assert graph is not None and graph["shots"] == len(shots)
    visits = shot_visits(steps, seqs, [s["player"] for s in report["shots"]])
    assert graph["visits"] == len(visits) and sum(len(v) for v in visits) == len(shots)
    assert f'data-graph-visits="{len(visits)}"' in page and f"Over {len(visits)} visit" in page
    for seat, series in enumerate(graph["series"]):
        own = sum(s["played"]["expected_points"] for s in report["shots"] if s["player"] == players[seat])
        assert series["final_expected"] == round(own, 1)
        last_shoot = next(s for s in reversed(steps) if s["kind"] == "shoot")
        assert series["final_score"] == last_shoot["scores"][seat]
        points = [tuple(map(float, p.split(","))) for p in series["score"].split()]
        assert len(points) == len(visits) + 1  # the start and after every visit
        assert all(graph["left"] <= x <= graph["right"] and graph["top"] <= y <= graph["bottom"] for x, y in points)
        assert [x for x, _ in points] == sorted(x for x, _ in points)


def test_the_graph_scales_to_what_was_scored() -> None:
    steps = [{"seq": 1, "scores": [5, 0]}, {"seq": 2, "scores": [5, -2]}, {"seq": 3, "scores": [13, -2]}]
    shot = lambda player, ev: {"player": player, "played": {"expected_points": ev}}  # noqa: E731
    graph = match_graph(steps, [1, 2, 3], [shot("A", 3.0), shot("B", -1.5), shot("A", 4.0)], ["A", "B"])
    assert graph is not None
    a, b = graph["series"]
    assert (a["final_score"], a["final_expected"], b["final_score"], b["final_expected"]) == (13, 7.0, -2, -1.5)
    labels = [float(t["label"]) for t in graph["ticks_y"]]
    assert labels[0] <= -2 and labels[-1] >= 13  # the axis holds the lowest and the highest
    top_y = min(float(p.split(",")[1]) for p in a["score"].split())
    assert top_y >= graph["top"]
    assert match_graph([], [], [], ["A", "B"]) is None


def test_the_graph_steps_visit_by_visit() -> None:
    """K-6.1: a fulfilled call keeps the player at the table; anything else ends the visit. A's pot and
    miss are one visit (one step of the graph), B's foul one, A's two pots and a miss the third."""
    verdict = lambda passes: {"turn_passes": passes}  # noqa: E731
    steps = [
        {"seq": 1, "scores": [3, 0], "verdict": verdict(False)},
        {"seq": 2, "scores": [3, 0], "verdict": verdict(True)},
        {"seq": 3, "scores": [3, -2], "verdict": verdict(True)},
        {"seq": 4, "scores": [5, -2], "verdict": verdict(False)},
        {"seq": 5, "scores": [10, -2], "verdict": verdict(False)},
        {"seq": 6, "scores": [10, -2], "verdict": verdict(True)},
    ]
    players = ["A", "A", "B", "A", "A", "A"]
    assert shot_visits(steps, [1, 2, 3, 4, 5, 6], players) == [[0, 1], [2], [3, 4, 5]]
    shot = lambda player, ev: {"player": player, "played": {"expected_points": ev}}  # noqa: E731
    values = [2.0, 0.5, -1.0, 2.5, 3.0, 0.5]
    graph = match_graph(
        steps, [1, 2, 3, 4, 5, 6], [shot(p, v) for p, v in zip(players, values, strict=True)], ["A", "B"]
    )
    assert graph is not None and (graph["visits"], graph["shots"]) == (3, 6)
    a, b = graph["series"]
    ys = lambda line: [float(point.split(",")[1]) for point in line.split()]  # noqa: E731
    assert len(ys(a["score"])) == len(ys(b["expected"])) == 4  # the start and three visits
    assert ys(a["score"])[1] == ys(a["score"])[2] > ys(a["score"])[3]  # A's score stands still in B's visit
    assert (a["final_score"], a["final_expected"], b["final_score"], b["final_expected"]) == (10, 8.5, -2, -1.0)
    assert [t["label"] for t in graph["ticks_x"]] == ["0", "1", "2", "3"]
    # Without verdicts (a stored step that has none) a visit ends only where the player changes.
    bare = [{"seq": step["seq"], "scores": step["scores"]} for step in steps]
    assert shot_visits(bare, [1, 2, 3, 4, 5, 6], players) == [[0, 1], [2], [3, 4, 5]]
    assert shot_visits(steps[:2], [1, 2], ["A", "A"]) == [[0, 1]]
    passed = [{"seq": 1, "verdict": verdict(True)}, {"seq": 2, "verdict": verdict(True)}]
    assert shot_visits(passed, [1, 2], ["A", "A"]) == [[0], [1]]  # the turn passed, A at the table again


def _figures(page: str) -> dict[str, dict[str, str]]:
    """The players' figures as the page prints them: {player: {figure: text}} (one column a player)."""
    table = page[page.index("data-analysis-figures") : page.index("</table>", page.index("data-analysis-figures"))]
    players = re.findall(r'<th scope="col" data-analysis-player="([^"]+)">', table)
    cells: dict[str, list[str]] = {}
    for figure, text in re.findall(r'<td data-figure="(\w+)">(.*?)</td>', table):
        cells.setdefault(figure, []).append(text)
    return {name: {figure: texts[i] for figure, texts in cells.items()} for i, name in enumerate(players)}


@pytest.mark.parametrize(("inputs", "seed"), [(6, 3), (8, 1)])
def test_analysis_figures_add_up(client: Client, inputs: int, seed: int) -> None:
    """The figures mean one thing each and add up: accuracy is the calls made out of the shots played
    (a player whose every shot missed reads 0 %, a player with no shot "—", never 100 % or 0 %);
    points scored are the verdicts'; expected points plus the points lost give the best shots' expected
    points; a shot's line never reads "0.00 of 0.00 (−0.00)". The page says what each figure is."""
    match = play_engine_match(make_player("Alice"), make_player("Bob"), inputs=inputs, seed=seed)
    MatchAnalysis.objects.create(match=match, requested_by=match.player1)
    claimed = analysis_claim()
    assert claimed is not None
    shots = played_shots(replay_shots(record=match_replay_record(match=match)))
    analyses = [analyse_played(shot, STROKE_NOISE, 2, 20) for shot in shots]
    report = summarise_match(analyses, match_player_names(match=match), STROKE_NOISE, 2).as_dict()
    analysis_finish(analysis_id=claimed.pk, report=report)
    page = client.get(f"/m/{match.pk}/replay/").content.decode()
    figures = _figures(page)
    stored = Shot.objects.filter(match=match, kind="shoot").order_by("seq")
    verdicts = list(stored.values_list("player_name", "verdict"))
    assert set(figures) == set(match_player_names(match=match))
    for name, shown in figures.items():
        own = [v for player, v in verdicts if player == name]
        if not own:  # a player with no shot has no figures, not "0 %"
            assert set(shown.values()) == {"—"}, shown
            continue
        made = sum(1 for v in own if v.get("scored"))
        assert shown["accuracy"] == f"{round(100 * made / len(own))} % ({made} of {len(own)})", shown
        assert int(shown["points"]) == sum(int(v.get("points") or 0) - int(v.get("penalty") or 0) for v in own)
        played = [a for a in analyses if a.player == name]
        assert float(shown["expected"]) == pytest.approx(sum(a.played.expected_points for a in played), abs=0.051)
        assert float(shown["expected"]) + float(shown["lost"]) == pytest.approx(float(shown["best"]), abs=1e-9)
    assert any(not any(v.get("scored") for p, v in verdicts if p == name) for name in figures)  # a 0 % or "—"
    assert "Accuracy: the calls made out of the shots played." in page and "add up to the best shots'" in page
    lines = re.findall(r'<span class="shot-ev muted">(.*?)</span>', page)
    assert "(−0.00)" not in page and " of 0.00" not in page
    for line in lines:
        numbers = [float(n) for n in re.findall(r"-?\d+\.\d\d", line)]
        if "lost" in line:  # expected points P; the best shot B (L lost): P + L = B, L > 0
            assert numbers[0] + numbers[2] == pytest.approx(numbers[1], abs=0.011) and numbers[2] > 0, line


@pytest.mark.django_db(transaction=True)
async def test_the_engine_shot_is_admitted_as_a_question(settings: Any, tmp_path: Path) -> None:
    """Making an older analysis's engine shot is a person's question, admitted as "Ask the engine" is:
    one worker, held, no room to wait beyond the questions being answered. A first engine shot waits
    for the worker; the same address is refused at once while it waits, whether it asks for another
    engine shot or asks the practice table's engine (one question in flight per address across both
    pages); another address is told how many are ahead. Once the worker is free the first is answered."""
    settings.KAIZA_BOT_WORKERS = 1
    settings.KAIZA_ASK_QUEUE = 0
    engine_pool_close()
    engine_board.forget_answers()
    release = tmp_path / "release"
    match = await sync_to_async(_match)()
    await sync_to_async(_analysed_without_motions)(match)
    seqs = [
        seq
        async for seq in Shot.objects.filter(match=match, kind="shoot").order_by("seq").values_list("seq", flat=True)
    ]
    app = get_asgi_application()

    async def engine_shot(index: int, address: str) -> tuple[int, Any]:
        return await asgi_get(app, f"/m/{match.pk}/analysis/shot/{seqs[index]}.json", address=address, language="fi")

    try:
        scheduler = engine_scheduler()
        holder = asyncio.ensure_future(
            run_in_engine_pool(hold_until, str(release), timeout=STUCK, urgency=Urgency.QUESTION)
        )
        await until(lambda: scheduler.running == 1)
        first = asyncio.ensure_future(engine_shot(-1, "10.0.0.1"))
        await until(lambda: questions_in_flight() == (1, 0))

        status, again = await asyncio.wait_for(engine_shot(-2, "10.0.0.1"), STUCK)
        assert status == 409 and again["code"] == "question_pending", again
        assert again["error"].startswith("Joku samasta internetyhteydestä"), again
        status, practice = await asyncio.wait_for(ask_from("10.0.0.1", code(POT)), STUCK)
        assert status == 409 and practice["error"]["code"] == "question_pending", practice
        status, busy = await asyncio.wait_for(engine_shot(-2, "10.0.0.2"), STUCK)
        assert status == 503 and busy["code"] == "engine_busy", busy
        assert busy["error"].startswith("Moottori on kiireinen: 1 kysymys"), busy
        assert not holder.done() and not first.done()  # all of it answered while the worker was held

        release.touch()
        status, answered = await asyncio.wait_for(first, STUCK)
        assert status == 200 and answered["segments"], answered
        assert questions_in_flight() == (0, 0)
    finally:
        release.touch()
        engine_pool_close()


async def asgi_get(app: Any, path: str, *, address: str, language: str = "en") -> tuple[int, Any]:
    """One GET through the ASGI application from ``address`` (the scope's client, as daphne sets it
    behind the proxy): (status, the JSON answer)."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "client": (address, 40000),
        "server": ("testserver", 80),
        "headers": [
            (b"host", b"testserver"),
            (b"accept", b"application/json"),
            (b"accept-language", language.encode()),
        ],
    }
    given = False
    never: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()

    async def receive() -> dict[str, Any]:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": b"", "more_body": False}
        return await never

    status, chunks = 0, []

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = int(message["status"])
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    await app(scope, receive, send)
    return status, json.loads(b"".join(chunks) or b"{}")
