"""Pockets named as the table is drawn in the server's sentences too: a portrait
table (the home end at the bottom, transform.js) has its middle pockets left and right and its corners
where a player facing up the table sees them; only sentences that name a pocket get a portrait form."""

from __future__ import annotations

import pytest

from game.engine.rules import words


@pytest.mark.parametrize(
    ("pocket", "landscape", "portrait"),
    [
        ("home_left", "the top left pocket", "the bottom left pocket"),
        ("home_right", "the bottom left pocket", "the bottom right pocket"),
        ("middle_left", "the top middle pocket", "the left middle pocket"),
        ("middle_right", "the bottom middle pocket", "the right middle pocket"),
        ("foot_left", "the top right pocket", "the top left pocket"),
        ("foot_right", "the bottom right pocket", "the top right pocket"),
    ],
)
def test_each_pocket_as_a_portrait_table_draws_it(pocket: str, landscape: str, portrait: str) -> None:
    assert words.pocket_name(pocket) == landscape
    assert words.pocket_name(pocket, "en" + words.PORTRAIT) == portrait


def test_portrait_pockets_in_finnish_and_russian_cases() -> None:
    params = {"ball": "red1", "pocket": "middle_left", "called": "foot_left", "owners": {}}
    fi = words.in_every_language(lambda lang: words.refusal("place_corridor", params, lang), portrait=True)
    assert "yläkeskipussiin" in fi["fi"] and "vasempaan keskipussiin" in fi["fi@portrait"]
    assert "верхнюю среднюю лузу" in fi["ru"] and "левую среднюю лузу" in fi["ru@portrait"]
    assert fi["en@portrait"].endswith("the left middle pocket")


def test_only_sentences_that_name_a_pocket_get_a_portrait_form() -> None:
    said = words.in_every_language(lambda lang: words.ball_name("kaisa", language=lang), portrait=True)
    assert set(said) == {"en", "fi", "ru"}  # no pocket named: one sentence in either orientation
    plain = words.in_every_language(lambda lang: words.pocket_name("middle_left", lang))
    assert set(plain) == {"en", "fi", "ru"}, "portrait forms only where asked for"
    both = words.in_every_language(lambda lang: words.pocket_name("middle_left", lang), portrait=True)
    assert both["en@portrait"] == "the left middle pocket" and both["en"] == "the top middle pocket"
