"""The login-failure limit cannot be used against the owner. Wrong passwords are counted per
address, and per account name only together with the address (game/accounts/allauth_adapter.py), so a
stranger's five wrong passwords for a public player name lock out the stranger's address, never the
owner's right password from another one. Real HTTP posts through the Django test client, each address
as REMOTE_ADDR (what daphne --proxy-headers sets from the proxy's X-Forwarded-For, docs/deployment.md)."""

from __future__ import annotations

import pytest
from django.test import Client

from game.accounts.services import user_signup
from tests.support.play_support import fast_password_hasher

__all__ = ["fast_password_hasher"]  # autouse fixture, imported to apply

pytestmark = [pytest.mark.django_db, pytest.mark.services]

PASSWORD = "kaisa-pw-2024"
TOO_MANY = "Too many failed login attempts"
ATTACKER, OWNER = "203.0.113.66", "198.51.100.7"


def login(client: Client, password: str, name: str = "maija"):
    return client.post("/accounts/login/", {"login": name, "password": password})


def test_owner_logs_in_while_attacker_is_limited() -> None:
    user_signup(username="maija", password=PASSWORD, display_name="Maija")
    attacker = Client(REMOTE_ADDR=ATTACKER)
    for _ in range(5):
        page = login(attacker, "wrong-password")
        assert page.status_code == 200 and "not correct" in page.content.decode()
    # The attacker's address is refused from now on, even with the right password...
    for password in ("wrong-password", PASSWORD):
        page = login(attacker, password)
        assert page.status_code == 200 and TOO_MANY in page.content.decode()
    assert attacker.get("/lobby/").context["user"].is_anonymous
    # ...while the owner, from their own address, logs in with the right password at once.
    owner = Client(REMOTE_ADDR=OWNER)
    page = login(owner, PASSWORD)
    assert page.status_code == 302 and page["Location"] == "/lobby/"
    assert owner.get("/lobby/").context["user"].username == "maija"
    # A wrong password of the owner's own still counts, at the owner's address only.
    other = Client(REMOTE_ADDR="192.0.2.10")
    for _ in range(5):
        assert "not correct" in login(other, "typo-password").content.decode()
    assert TOO_MANY in login(other, PASSWORD).content.decode()
    assert login(Client(REMOTE_ADDR=OWNER), PASSWORD).status_code == 302


def test_one_address_guessing_many_names_is_still_limited() -> None:
    """The per-address limit is unchanged: ten failures a minute from one address, whatever names."""
    pages = [login(Client(REMOTE_ADDR=ATTACKER), "x", name=f"nobody{i}") for i in range(11)]
    assert [TOO_MANY in p.content.decode() for p in pages] == [False] * 10 + [True]
