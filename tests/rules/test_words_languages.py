"""Every sentence in every language (words/en.py, fi.py, ru.py): each code of each catalogue, walked
over a set of params fixtures, gives a non-empty sentence with no `{placeholder}` left and no internal
id (white1, red2, middle_right, choose_break...). K-4.2 failures, K-3.1 lags and the K-11 notices
included: the words a Finnish or a Russian player reads are as complete as the English ones."""

from __future__ import annotations

import re
from typing import Any

import pytest

from game.engine.rules.words import (
    CATALOGUES,
    LANGUAGES,
    failure_words,
    finish_words,
    in_every_language,
    lag_words,
    refusal,
    say,
    text,
)
from game.engine.rules.words.ru import plural

IDS = re.compile(
    r"\b(white1|white2|red1|red2|kaisa_|home_(left|right)|middle_(left|right)|foot_(left|right)"
    r"|choose_break|opening_placement|extra_visits|shootout|lag_\w+|target_reached|aborted_\w+)\b"
)
PLACEHOLDER = re.compile(r"\{[a-z_]*\}")
OWNERS = {"white1": "alice", "white2": "bob"}


def _base(**extra: Any) -> dict[str, Any]:
    params: dict[str, Any] = {
        "owners": OWNERS,
        "cue": "white1",
        "player": "alice",
        "winner": "alice",
        "loser": "bob",
        "breaker": "alice",
        "placer": "bob",
        "starter": "bob",
        "reason": "left the match",
        "count": 2,
        "limit": 3,
        "penalty": 3,
        "points": 15,
        "phase": "choose_break",
        "pocket": "middle_right",
        "called": 1,
        "counted": 2,
        "max_speed": 9.0,
        "max_tip_offset": 0.6,
        "why": "aborted_by",
        "ball": "kaisa",
        "other": "red2",
        "first": "red2",
        "via": "red1",
        "struck": "white2",
        "first_hit": "red1",
    }
    params.update(extra)
    return params


#: Params fixtures: each exercises a different branch (a red called or not, cushions, kisses,
#: combinations, caroms on both reds, a win, a foul with and without a first hit, the two cue balls).
POT = {"ball": "kaisa", "pocket": "foot_left", "cue_cushions": 0, "object_cushions": 0, "via": None}
FIXTURES: list[dict[str, Any]] = [
    _base(call=POT, caroms=["red1", "red2"]),
    _base(call={**POT, "ball": "red1", "cue_cushions": 1, "object_cushions": 2, "via": "red2"}, mode="kiss"),
    _base(call={**POT, "ball": "white2", "via": "kaisa"}, mode="combination", caroms=["red1"], others=["red2"]),
    _base(
        call={**POT, "ball": "red2"},
        notes=["carom_left_table", "plain_white_passes"],
        won={"winner": "alice", "score": [60, 41]},
    ),
    _base(
        ball="red1",
        other="red2",
        first="red2",
        via="kaisa",
        struck="white2",
        first_hit="red1",
        failure="wrong_first_ball",
    ),
    _base(
        ball="kaisa",
        other="white2",
        first="white2",
        via="red1",
        struck="white2",
        first_hit=None,
        failure="kiss_missed",
        relag=True,
    ),
    _base(
        ball="white2",
        other="red1",
        first="kaisa",
        via="red2",
        struck="white2",
        first_hit="white2",
        cue="white2",
        winner=None,
        won={"winner": "bob", "score": [61, 58]},
    ),
]
VERDICT_FIXTURE_KEYS = ("call", "caroms", "mode", "others", "notes", "won")


def words_ok(sentence: str, where: str) -> None:
    assert sentence.strip(), where
    assert not PLACEHOLDER.search(sentence), (where, sentence)
    assert not IDS.search(sentence), (where, sentence)
    assert "None" not in sentence, (where, sentence)


def _verdict_params(code: str, fixture: dict[str, Any]) -> dict[str, Any] | None:
    """A fixture fit for a code: a pot needs a call; a lag a result; the rest take the fixture as is."""
    params = dict(fixture)
    if code == "pot" and "call" not in params:
        return None
    if code == "lag":
        params.update(result="lag_stopped", distance=0.123, winner=params.get("winner") or "bob")
    if code.startswith("shot_clock"):
        params["other"] = "bob"  # the player whose turn it is now (a ball id elsewhere)
    if code == "call_missed":
        params.setdefault("failure", "no_ball_hit")
    if code in ("resigned", "forfeit") and params.get("winner") is None:
        params["winner"] = "bob"
    return params


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_code_reads_as_words_in_every_language(language: str) -> None:
    cat = CATALOGUES[language]
    made = 0
    for code in cat.verdicts:
        for i, fixture in enumerate(FIXTURES):
            params = _verdict_params(code, fixture)
            if params is None:
                continue
            words_ok(say(code, params, language), f"{language} verdict {code} #{i}")
            made += 1
    for code in cat.failures:
        for i, fixture in enumerate(FIXTURES):
            words_ok(failure_words(code, fixture, language), f"{language} failure {code} #{i}")
            words_ok(say("call_missed", {**fixture, "failure": code}, language), f"{language} missed {code}")
            made += 2
    for code in cat.refusals:
        for i, fixture in enumerate(FIXTURES):
            for phase in cat.phases:
                words_ok(refusal(code, {**fixture, "phase": phase}, language), f"{language} refusal {code} #{i}")
                made += 1
    for code in cat.finishes:
        for fixture in FIXTURES:
            words_ok(finish_words(code, fixture, language), f"{language} finish {code}")
            made += 1
    for code in cat.lags:
        for distance in (None, 0.0, 0.5):
            words_ok(lag_words(code, distance, language), f"{language} lag {code}")
            made += 1
    for how in ("target", "resign", "shot_clock", "abandoned", "time_limit", "shootout"):
        for scores in ([60, 41], [0, -6], [1, 0]):
            made += 1
            params = {"how": how, "winner": "alice", "loser": "bob", "scores": scores, "target": 60}
            words_ok(text("result_won", params, language), f"{language} result {how}")
    texts: dict[str, dict[str, Any]] = {
        "choice": {"player": "alice", "take": True},
        "time_warning": {"seconds": 300},
        "time_up": {"extra_each": 2},
        "extra_visits": {"extra_each": 1, "last": "bob"},
        "shootout": {"visits": 10},
        "sudden_death": {"visits": 21},
        "result_aborted": {"reason": "aborted by bob before the break"},
    }
    assert set(texts) | {"result_won"} == set(cat.texts)
    for key, params in texts.items():
        for variant in (params, {**params, "take": False, "shootout": True, "seconds": 5, "extra_each": 1}):
            words_ok(text(key, variant, language), f"{language} text {key}")
            made += 1
    assert made > 600


def test_languages_differ_and_use_the_glossary() -> None:
    """The same verdict in three languages: three different sentences, each with its own words for
    the kaisa, the cue ball and the pocket (docs/i18n.md glossary)."""
    params = _base(call={**POT, "ball": "white2"}, caroms=["red1", "red2"])
    words = in_every_language(lambda lang: say("pot", params, lang))
    assert list(words) == ["en", "fi", "ru"]
    assert words["en"] == "Potted bob's cue ball in the top right pocket with a carom on both reds: 15 points"
    assert words["fi"] == "Pelaajan bob lyöntipallo oikeaan yläkulmapussiin, karamboli molempiin punaisiin: 15 pistettä"
    assert words["ru"] == "Забит биток игрока bob в верхнюю правую лузу, с карамболем по обоим красным: 15 очков"
    kaisa = in_every_language(lambda lang: say("pot", _base(call=POT, points=1), lang))
    assert kaisa["ru"].startswith("Забита кайза в верхнюю правую лузу") and kaisa["ru"].endswith("1 очко")
    assert kaisa["fi"].startswith("Kaisa oikeaan yläkulmapussiin") and kaisa["fi"].endswith("1 piste")
    missed = _base(ball="red1", first="red2", called="red1", failure="wrong_first_ball")
    assert "toiseen punaiseen, ei punaiseen" in say("call_missed", missed, "fi")
    assert "другого красного, а не красного шара" in say("call_missed", missed, "ru")
    # An unknown language reads English; a regional tag reads its language.
    assert say("pot", params, "de") == words["en"] and say("pot", params, "fi-FI") == words["fi"]


@pytest.mark.parametrize(
    ("count", "word"),
    [(1, "очко"), (2, "очка"), (4, "очка"), (5, "очков"), (11, "очков"), (12, "очков"), (21, "очко"), (22, "очка")],
)
def test_russian_plurals(count: int, word: str) -> None:
    assert plural(count, "очко", "очка", "очков") == word
