"""The puzzle pages through Django's test client, read as a player reads them (the
visible text), and the answer endpoint a page posts to."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from typing import Any

import pytest
from django.test import Client

from game.models import Puzzle, PuzzleServing
from game.puzzles.services import puzzles_from_analysis
from tests.puzzles.conftest import CALL
from tests.support.community_factories import make_match, make_player

pytestmark = [pytest.mark.services, pytest.mark.django_db]

Analysed = tuple[list[dict[str, Any]], dict[str, Any]]


class _Text(HTMLParser):
    """The text a reader sees: no scripts, styles or elements marked hidden."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.skip: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.skip or tag in ("script", "style") or any(name == "hidden" for name, _ in attrs):
            if tag not in ("input", "br", "link", "meta", "img"):
                self.skip.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if self.skip and self.skip[-1] == tag:
            self.skip.pop()

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.parts.append(data)


def visible(response: Any) -> str:
    assert response.status_code == 200
    reader = _Text()
    reader.feed(response.content.decode())
    return re.sub(r"\s+", " ", " ".join(reader.parts))


def start_of(response: Any) -> dict[str, Any]:
    found = re.search(r'<script id="puzzle-start" type="application/json">(.*?)</script>', response.content.decode())
    assert found is not None
    return json.loads(found.group(1))


@pytest.fixture
def puzzle(analysed: Analysed) -> Puzzle:
    shots, report = analysed
    (made,) = puzzles_from_analysis(make_match(make_player("Alice"), make_player("Bob")), report, shots=shots)
    return made


def post(client: Client, body: dict[str, Any]) -> Any:
    return client.post("/puzzles/answer/", data=json.dumps(body), content_type="application/json")


def test_the_home_page_offers_the_daily_puzzle(client: Client, puzzle: Puzzle) -> None:
    text = visible(client.get("/", HTTP_ACCEPT_LANGUAGE="en"))
    assert "Daily puzzle" in text and "score at least 3 points from here with one shot" in text
    assert "Solve the daily puzzle" in text and "Puzzle streak" in text


def test_no_puzzle_card_on_the_home_page_without_puzzles(client: Client) -> None:
    assert "Daily puzzle" not in visible(client.get("/", HTTP_ACCEPT_LANGUAGE="en"))
    assert "There are no puzzles yet." in visible(client.get("/puzzles/", HTTP_ACCEPT_LANGUAGE="en"))


def test_the_daily_puzzle_page_shows_the_goal_and_links_to_the_practice_table(client: Client, puzzle: Puzzle) -> None:
    response = client.get("/puzzles/", HTTP_ACCEPT_LANGUAGE="en")
    text = visible(response)
    assert "Daily puzzle" in text and "Score at least 3 points from here with one shot." in text
    assert "Sign in to get a puzzle rating" in text
    start = start_of(response)
    assert start["target"] == 3 and start["state"]["balls"]["red1"] == [2.72, 0.12] and start["token"]
    link = re.search(r'href="(/practice/\?p=[^"]+)"', response.content.decode())
    assert link is not None and "Open on the practice table" in text
    practice = client.get(link.group(1).replace("&amp;", "&"), HTTP_ACCEPT_LANGUAGE="en")
    assert "That link does not hold a position" not in visible(practice)


def test_the_puzzle_page_in_finnish_and_russian(client: Client, puzzle: Puzzle) -> None:
    assert "Tee tästä yhdellä lyönnillä vähintään 3 pistettä." in visible(
        client.get(f"/puzzles/{puzzle.pk}/", HTTP_ACCEPT_LANGUAGE="fi")
    )
    assert "Наберите отсюда одним ударом не меньше 3 очков." in visible(
        client.get(f"/puzzles/{puzzle.pk}/", HTTP_ACCEPT_LANGUAGE="ru")
    )


def test_a_signed_in_player_solves_and_sees_his_rating(client: Client, puzzle: Puzzle) -> None:
    client.force_login(make_player("Solver"))
    response = client.get(f"/puzzles/{puzzle.pk}/", HTTP_ACCEPT_LANGUAGE="en")
    assert "Your puzzle rating: 1500" in visible(response)
    token = start_of(response)["token"]
    answer = post(client, {"token": token, "shoot": {"call": puzzle.call, "strike": puzzle.strike}})
    assert answer.status_code == 200
    data = answer.json()
    assert data["solved"] is True and data["rating"]["after"] > 1500 and "Potted" in data["words"]
    again = visible(client.get("/puzzles/", HTTP_ACCEPT_LANGUAGE="en"))
    assert f"Your puzzle rating: {data['rating']['after']}" in again


def test_another_visitors_token_is_refused_in_words(client: Client, puzzle: Puzzle) -> None:
    token = start_of(client.get("/puzzles/"))["token"]
    stranger = Client()
    refused = post(stranger, {"token": token, "shoot": {"call": CALL, "strike": puzzle.strike}})
    assert refused.status_code == 400
    assert refused.json()["error"]["message"] == "That puzzle was not served to you: open it from the puzzles page."
    out = post(client, {"token": token, "shoot": {"call": CALL, "strike": {"angle": 0.1, "speed": 20}}})
    assert out.status_code == 400 and "outside the strike limits" in out.json()["error"]["message"]
    assert not PuzzleServing.objects.exclude(answered_at=None).exists()
    # The visitor's own answer is taken (a guest: no rating).
    own = post(client, {"token": token, "shoot": {"call": CALL, "strike": puzzle.strike}})
    assert own.status_code == 200 and own.json()["solved"] is True and own.json()["rating"] is None


def test_the_streak_counts_solves_and_ends_when_none_are_left(client: Client, puzzle: Puzzle) -> None:
    response = client.get("/puzzles/streak/", HTTP_ACCEPT_LANGUAGE="en")
    assert "Streak: 0" in visible(response)
    token = start_of(response)["token"]
    assert post(client, {"token": token, "shoot": {"call": puzzle.call, "strike": puzzle.strike}}).json()["streak"] == 1
    after = visible(client.get(f"/puzzles/streak/?after={token}", HTTP_ACCEPT_LANGUAGE="en"))
    assert "Your streak: 1 puzzle solved in a row." in after
    assert "You have solved every puzzle there is for now." in after
    # Someone else's token carries no streak.
    assert "Your streak" not in visible(Client().get(f"/puzzles/streak/?after={token}", HTTP_ACCEPT_LANGUAGE="en"))


def test_an_unknown_puzzle_is_not_found(client: Client) -> None:
    assert client.get("/puzzles/999/").status_code == 404


def _words(response: Any) -> dict[str, str]:
    """The hidden words a free-table page's script says (``.kz-learn-words [data-words]``), by key."""
    assert response.status_code == 200
    box = re.search(r'<div class="kz-learn-words" hidden>(.*?)</div>', response.content.decode(), re.S)
    assert box is not None
    found = re.findall(r'<span data-words="([a-z_]+)">([^<]*)</span>', box.group(1))
    assert len(found) == len({key for key, _ in found}), found  # each word once
    return dict(found)


@pytest.mark.parametrize("language", ["en", "fi", "ru"])
def test_the_puzzle_and_practice_pages_say_the_free_tables_words_alike(
    client: Client, puzzle: Puzzle, language: str
) -> None:
    """The four words both scripts say come from one include: the same on both pages, in each language."""
    shared = ("rate_limited", "refused", "call_first", "illegal_placement")
    on_puzzle = _words(client.get(f"/puzzles/{puzzle.pk}/", HTTP_ACCEPT_LANGUAGE=language))
    on_practice = _words(client.get("/practice/", HTTP_ACCEPT_LANGUAGE=language))
    for key in shared:
        assert on_puzzle[key] and on_puzzle[key] == on_practice[key], key
    assert "solved" in on_puzzle and "copied" in on_practice
    if language != "en":
        english = _words(client.get("/practice/", HTTP_ACCEPT_LANGUAGE="en"))
        assert all(on_practice[key] != english[key] for key in shared), language
