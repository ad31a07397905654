"""The shot analysis on the pages (issue 29): "Analyse" on the end card and the replay page (a POST,
signed-in users only), the replay's progress line while it waits, and once done the players' figures
and beside every shot the engine's best shot in words with the played shot's value as a bar."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from game.engine.analysis import STROKE_NOISE, analyse_played, played_shots, summarise_match
from game.matches.selectors.analysis import call_words, strike_words
from game.matches.selectors.replays import match_player_names, match_replay_record, replay_shots
from game.matches.services import analysis_claim, analysis_finish
from game.models import MatchAnalysis
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
