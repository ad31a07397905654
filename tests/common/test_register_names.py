"""A club register's names (game/common/names.py register_key): the typings a reader takes for one name
share a key, and names a reader tells apart do not."""

from __future__ import annotations

import unicodedata

import pytest

from game.common.names import name_clean, register_key

CYRILLIC_O = "\u041e"  # "О", drawn as the Latin "O"

SAME = [
    ("Olli Tuominen", "olli tuominen"),
    ("Olli Tuominen", "  OLLI   TUOMINEN "),
    ("Olli Tuominen", f"{CYRILLIC_O}lli Tuominen"),
    ("Olli Tuominen", "Olli\u200bTuominen".replace("\u200b", " \u200b")),  # a zero-width space after a space
    ("Mäkelä", unicodedata.normalize("NFD", "Mäkelä")),  # a phone's a + combining diaeresis
    ("Mäkelä", "MAKELA"),
    ("Sakari-Mäkelä", "Sakari–Mäkelä"),  # an en dash for the hyphen
    ("O'Brien", "O’Brien"),
    ("Ｏｌｌｉ", "Olli"),  # full-width letters
    ("Jørgensen", "Jorgensen"),
    ("Αλέξης", "αλέξης"),  # Greek in either case
    ("Иван Петров", "ИВАН ПЕТРОВ"),
]

APART = [
    ("Olli Tuominen", "Olli Tuomisto"),
    ("Sakari-Mäkelä", "Sakari Mäkelä"),
    ("Йван", "Иван"),  # a Cyrillic letter's mark is a letter of its own
    ("Aino", "Aino 2"),
]


@pytest.mark.parametrize(("one", "other"), SAME)
def test_typings_of_one_name_share_a_key(one: str, other: str) -> None:
    assert register_key(one) == register_key(other)


@pytest.mark.parametrize(("one", "other"), APART)
def test_different_names_have_different_keys(one: str, other: str) -> None:
    assert register_key(one) != register_key(other)


def test_a_name_is_shown_tidied_not_folded() -> None:
    assert name_clean("  olli \t tuominen\u200b ") == "olli tuominen"
    assert name_clean(unicodedata.normalize("NFD", "Mäkelä")) == "Mäkelä"  # composed, accents kept
    assert name_clean("Sakari\u0000Mäkelä") == "Sakari Mäkelä"
