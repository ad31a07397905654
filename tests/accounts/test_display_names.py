"""Display names in any alphabet, unique whatever the case or the form of their letters
(game/accounts/services.py display_name_check, game/common/names.py), signed up through the sign-up
page as a person does it, in Finnish."""

from __future__ import annotations

import itertools
import unicodedata
from typing import Any

import pytest
from django.test import Client

from game.accounts.services import AccountError, display_name_check
from game.common.names import name_key
from game.models import Profile
from tests.accounts.test_account_security import PASSWORD
from tests.support.play_support import fast_password_hasher

__all__ = ["fast_password_hasher"]  # autouse fixture, imported to apply

pytestmark = [pytest.mark.django_db, pytest.mark.services]


SIGN_UPS = itertools.count(1)


def sign_up(username: str, display_name: str) -> tuple[int, str]:
    """A sign-up from an address of its own (allauth limits sign-ups per address)."""
    data = {"username": username, "password1": PASSWORD, "password2": PASSWORD, "display_name": display_name}
    client = Client(REMOTE_ADDR=f"10.52.0.{next(SIGN_UPS)}")
    response = client.post("/accounts/signup/", data, HTTP_ACCEPT_LANGUAGE="fi")
    return response.status_code, response.content.decode()


def test_unicode_display_names(client: Any) -> None:
    # Letters of any alphabet, with a hyphen or a space inside: kept, and each player's page opens.
    for username, name in (("sakari", "Sakari-Mäkelä"), ("anna", "Анна Петрова"), ("eleni", "Ελένη")):
        status, _ = sign_up(username, name)
        assert status == 302, name
        assert Profile.objects.get(user__username=username).display_name == name
        assert client.get(f"/players/{name}/").status_code == 200

    # The same name in another case or another form of its letters is taken (the word in Finnish):
    # capitals, fullwidth letters, a decomposed ä (a + combining diaeresis), the sharp s against ss.
    decomposed = unicodedata.normalize("NFD", "Sakari-Mäkelä")
    assert decomposed != "Sakari-Mäkelä"
    for name in ("SAKARI-MÄKELÄ", "Ｓａｋａｒｉ-Ｍäｋｅｌä", decomposed, "анна петрова", "ΕΛΈΝΗ"):
        status, page = sign_up("copy", name)
        assert status == 200 and "näyttönimi on jo käytössä" in page, name
    assert not Profile.objects.filter(user__username="copy").exists()
    status, _ = sign_up("strasse", "Straße")
    assert status == 302
    assert sign_up("strasse2", "STRASSE")[0] == 200

    # A Cyrillic А in a Latin name cannot pass for another's name; nor punctuation, invisible
    # characters, a separator at an end or two in a row, or a guest's prefix.
    refused = {
        "Аlice": "yhtä aakkostoa",  # Cyrillic А, then Latin letters
        "Sakari.Mäkelä": "vain kirjaimia",
        "Sak\u200dari": "vain kirjaimia",  # a zero-width joiner
        "Sakari-": "kahden kirjaimen",
        "Sakari--Mäkelä": "kahden kirjaimen",
        "Guest-Mäkelä": "vieraille",
        "x": "2–32 merkkiä",
    }
    for name, words in refused.items():
        status, page = sign_up("refused", name)
        assert status == 200 and words in page, (name, page[page.find("errorlist") : page.find("errorlist") + 300])
    assert not Profile.objects.filter(user__username="refused").exists()

    # White space is kept as one space; the key is what the database keeps unique.
    assert display_name_check(name="  Anna   Liisa ") == "Anna Liisa"
    assert Profile.objects.get(display_name="Sakari-Mäkelä").name_key == name_key("SAKARI-MÄKELÄ")
    with pytest.raises(AccountError):
        display_name_check(name="Ana\u0301\u0301-\u0301")  # a mark after a hyphen
