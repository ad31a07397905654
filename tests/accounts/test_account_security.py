"""Accounts on django-allauth: redirects stay on our site, login failures and sign-ups are
rate-limited, a password reset works end to end through the e-mail it sends, e-mail verification
when it is on, and a guest who signs up keeps the account."""

from __future__ import annotations

import os
import re
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

from game.accounts.services import user_signup
from game.models import Match, Profile
from tests.support.play_support import fast_password_hasher

__all__ = ["fast_password_hasher"]  # autouse fixture, imported to apply

pytestmark = [pytest.mark.django_db, pytest.mark.services]

EVIL_NEXTS = ["https://evil.example/", "//evil.example/", "javascript:alert(1)"]
PASSWORD = "kaisa-pw-2024"


def assert_lands_on_our_site(client: Client, response, what: str) -> None:
    """A redirect to a path of our own (never another host, never a script), and the page it names
    answers without a server error."""
    assert response.status_code in (301, 302), f"{what}: {response.status_code}"
    location = response["Location"]
    parts = urlsplit(location)
    assert parts.scheme in ("", "http") and parts.netloc in ("", "testserver"), f"{what}: {location}"
    assert location.startswith("/") and not location.startswith("//"), f"{what}: {location}"
    page = client.get(location)
    assert page.status_code < 500, f"{what}: {location} answered {page.status_code}"


def signup_data(username: str, **extra: str) -> dict[str, str]:
    return {"username": username, "password1": PASSWORD, "password2": PASSWORD, **extra}


@pytest.mark.parametrize("evil", EVIL_NEXTS)
def test_next_never_leaves_the_site(evil: str, admin_user) -> None:
    # Sign-up (the open redirect, and its 500 after the account was created).
    client = Client()
    response = client.post(f"/accounts/signup/?next={evil}", signup_data("runa", display_name="Runa"))
    assert_lands_on_our_site(client, response, "sign-up, next in the query")
    other = Client()
    response = other.post("/accounts/signup/", {**signup_data("sulo"), "next": evil})
    assert_lands_on_our_site(other, response, "sign-up, next in the form")

    # The guest-to-account path.
    guest = Client()
    assert guest.post("/lobby/create/", {"opponent": "human"}).status_code == 302
    response = guest.post(f"/accounts/signup/?next={evil}", signup_data("veeti"))
    assert_lands_on_our_site(guest, response, "guest sign-up")
    assert get_user_model().objects.get(username="veeti").profile.is_guest is False

    # Log in, with next in the query and in the form.
    user_signup(username="aada", password=PASSWORD)
    login = Client()
    assert login.get(f"/accounts/login/?next={evil}").status_code == 200
    response = login.post(f"/accounts/login/?next={evil}", {"login": "aada", "password": PASSWORD})
    assert_lands_on_our_site(login, response, "login, next in the query")
    login.post("/accounts/logout/")
    response = login.post("/accounts/login/", {"login": "aada", "password": PASSWORD, "next": evil})
    assert_lands_on_our_site(login, response, "login, next in the form")

    # Password change, then log out.
    response = login.post(
        f"/accounts/password/change/?next={evil}",
        {"oldpassword": PASSWORD, "password1": "kaisa-pw-2025", "password2": "kaisa-pw-2025"},
    )
    assert_lands_on_our_site(login, response, "password change")
    response = login.post("/accounts/logout/", {"next": evil})
    assert_lands_on_our_site(login, response, "logout, next in the form")
    login.force_login(get_user_model().objects.get(username="aada"))
    response = login.post(f"/accounts/logout/?next={evil}")
    assert_lands_on_our_site(login, response, "logout, next in the query")

    # The admin's login (Django's own view) and a page that needs a login.
    admin_client = Client()
    admin_user.set_password(PASSWORD)
    admin_user.save()
    response = admin_client.post(f"/admin/login/?next={evil}", {"username": admin_user.username, "password": PASSWORD})
    assert_lands_on_our_site(admin_client, response, "admin login")
    response = Client().get("/clubs/new/")
    assert_lands_on_our_site(Client(), response, "login required")


def test_login_failures_are_rate_limited() -> None:
    user_signup(username="maija", password=PASSWORD)
    client = Client()
    for _ in range(5):
        response = client.post("/accounts/login/", {"login": "maija", "password": "wrong-password"})
        assert response.status_code == 200 and "not correct" in response.content.decode()
    # The sixth try, even with the right password, is refused: guessing stops here for a while.
    response = client.post("/accounts/login/", {"login": "maija", "password": PASSWORD})
    assert response.status_code == 200
    assert "Too many failed login attempts" in response.content.decode()
    assert client.get("/lobby/").context["user"].is_anonymous
    # The limit is per address (and per name at that address): the owner's right password from another
    # address is not refused (tests/accounts/test_login_limits.py).
    elsewhere = Client(REMOTE_ADDR="10.9.8.7")
    response = elsewhere.post("/accounts/login/", {"login": "maija", "password": PASSWORD})
    assert response.status_code == 302
    # Guessing many names from one address: refused after 10 failures a minute...
    pages = [
        Client(REMOTE_ADDR="10.1.1.1").post("/accounts/login/", {"login": f"nobody{i}", "password": "x"})
        for i in range(11)
    ]
    assert ["Too many failed" in p.content.decode() for p in pages] == [False] * 10 + [True]
    # ...and more than 30 login posts a minute from one address get the site's 429 page.
    statuses = [
        Client(REMOTE_ADDR="10.1.1.1").post("/accounts/login/", {"login": "maija", "password": PASSWORD}).status_code
        for _ in range(20)
    ]
    assert statuses[-1] == 429 and set(statuses) == {200, 429}


def test_signups_are_rate_limited_per_address() -> None:
    statuses = [
        Client(REMOTE_ADDR="10.2.2.2").post("/accounts/signup/", signup_data(f"farm{i}")).status_code for i in range(7)
    ]
    assert statuses[:5] == [302] * 5
    assert statuses[5:] == [429, 429]
    response = Client(REMOTE_ADDR="10.2.2.2").post("/accounts/signup/", signup_data("farm9"))
    assert response.status_code == 429 and "Slow down" in response.content.decode()
    assert get_user_model().objects.filter(username__startswith="farm").count() == 5


def test_password_reset_by_email_sets_the_new_password(settings) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    user_signup(username="kerttu", password=PASSWORD)
    user = get_user_model().objects.get(username="kerttu")
    user.email = "kerttu@example.org"
    user.save()
    client = Client()
    response = client.post("/accounts/password/reset/", {"email": "kerttu@example.org"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["kerttu@example.org"]
    link = re.search(r"https?://testserver(/accounts/password/reset/key/\S+/)", mail.outbox[0].body)
    assert link, mail.outbox[0].body
    # The link redirects once to a URL without the key (allauth keeps it in the session), then the form.
    response = client.get(link.group(1), follow=True)
    assert response.status_code == 200 and "Choose a new password" in response.content.decode()
    form_url = response.redirect_chain[-1][0] if response.redirect_chain else link.group(1)
    response = client.post(form_url, {"password1": "new-kaisa-pw-77", "password2": "new-kaisa-pw-77"})
    assert response.status_code == 302
    assert Client().post("/accounts/login/", {"login": "kerttu", "password": "new-kaisa-pw-77"}).status_code == 302
    assert Client().post("/accounts/login/", {"login": "kerttu", "password": PASSWORD}).status_code == 200
    # The link works once.
    assert "does not work" in Client().get(link.group(1), follow=True).content.decode()


def test_email_verification_when_it_is_on(settings) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.ACCOUNT_EMAIL_VERIFICATION = "optional"
    settings.ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
    client = Client()
    response = client.post("/accounts/signup/", signup_data("iida"))
    assert response.status_code == 200 and "This field is required" in response.content.decode()
    response = client.post("/accounts/signup/", signup_data("iida", email="iida@example.org"))
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    key_url = re.search(r"https?://testserver(/accounts/confirm-email/\S+/)", mail.outbox[0].body)
    assert key_url, mail.outbox[0].body
    assert client.post(key_url.group(1)).status_code == 302
    from allauth.account.models import EmailAddress

    assert EmailAddress.objects.get(email="iida@example.org").verified


def test_a_guest_signs_up_and_keeps_the_account_and_the_seat() -> None:
    client = Client()
    client.post("/lobby/create/", {"opponent": "human"})
    match = Match.objects.get()
    guest = match.player1
    page = client.get("/accounts/signup/")
    assert "Keep your guest account" in page.content.decode()
    response = client.post("/accounts/signup/", signup_data("Guest-9", display_name="Kalle"))
    assert response.status_code == 200 and "kept for guests" in response.content.decode()
    response = client.post("/accounts/signup/", signup_data("kalle", display_name="Kalle"))
    assert response.status_code == 302
    user = get_user_model().objects.get(username="kalle")
    assert user.pk == guest.pk and user.profile.display_name == "Kalle" and not user.profile.is_guest
    assert client.get(f"/m/{match.id}/").context["role"] == "player"
    # A registered player is not offered a second account.
    assert client.get("/accounts/signup/")["Location"] == "/lobby/"
    # Display names stay unique, and a username that cannot be a display name needs one.
    response = Client().post("/accounts/signup/", signup_data("kalle2", display_name="KALLE"))
    assert "that display name is taken" in response.content.decode()
    response = Client().post("/accounts/signup/", signup_data("kalle.k"))
    assert "choose a display name" in response.content.decode()
    assert Profile.objects.filter(display_name__iexact="kalle").count() == 1


def test_account_pages_render_in_the_site_layout() -> None:
    user_signup(username="elli", password=PASSWORD)
    client = Client()
    for path in ["/accounts/login/", "/accounts/signup/", "/accounts/password/reset/", "/accounts/logout/"]:
        page = client.get(path)
        assert page.status_code in (200, 302), path
        if page.status_code == 200:
            text = page.content.decode()
            assert 'class="site-header"' in text and "game/css/accounts.css" in text, path
    client.post("/accounts/login/", {"login": "elli", "password": PASSWORD})
    for path in ["/accounts/password/change/", "/accounts/email/", "/accounts/logout/"]:
        page = client.get(path)
        assert page.status_code == 200 and 'class="site-header"' in page.content.decode(), path


def test_password_resets_are_rate_limited(settings) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    user = user_signup(username="saara", password=PASSWORD)
    user.email = "saara@example.org"
    user.save()
    statuses = [
        Client(REMOTE_ADDR=f"10.6.6.{i}").post("/accounts/password/reset/", {"email": "saara@example.org"}).status_code
        for i in range(5)
    ]
    # Three mails to one address in ten minutes, whatever address asks; then the site's 429 page.
    assert statuses[:3] == [302] * 3 and statuses[3:] == [429, 429]
    assert len(mail.outbox) == 3


@pytest.mark.parametrize(
    "first", ["game.accounts.allauth_adapter", "game.accounts.signup_form", "allauth.account.forms"]
)
def test_allauth_hooks_import_in_any_order(first: str) -> None:
    """allauth imports our sign-up form while it builds its own: whichever module a fresh process
    imports first, the adapter and the form both load (Django's checks run in no fixed order, and a
    circular import once failed `migrate` in some processes only)."""
    import subprocess
    import sys

    code = (
        "import django; django.setup()\n"
        f"import {first}\n"
        "from allauth.account.adapter import get_adapter\n"
        "from allauth.account.forms import SignupForm\n"
        "get_adapter()\n"
        "print(sorted(SignupForm().fields))\n"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "kaiza_site.settings"}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "display_name" in done.stdout
