"""The pages behind a new player's "Play again" and "Chat as a guest", through Django's test client: who is
offered what, and bad input changes nothing (the browser tests are tests/e2e/test_new_player_words.py)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client, override_settings

from game.models import Match, Profile
from tests.support.community_factories import make_match, make_player

PLAY_AGAIN = 'class="kz-btn kz-btn-primary kz-play-again"'
CHAT_AS_GUEST = 'class="kz-btn kz-chat-as-guest"'


def _bot(level: int) -> object:
    bot = make_player(f"Bot-L{level}")
    Profile.objects.filter(user=bot).update(is_bot=True, bot_level=level)
    return bot


@pytest.mark.django_db
def test_play_again_is_offered_to_the_computers_opponent_only(client: Client) -> None:
    human, bot = make_player("Aino"), _bot(4)
    match = make_match(human, bot, rated=False, winner=bot)
    client.force_login(human)
    html = client.get(f"/m/{match.pk}/").content.decode()
    assert PLAY_AGAIN in html and '<input type="hidden" name="level" value="4">' in html
    assert 'action="/play/computer/"' in html
    # A spectator, a visitor and the players of a match between two people get no such button.
    client.force_login(make_player("Eero"))
    assert PLAY_AGAIN not in client.get(f"/m/{match.pk}/").content.decode()
    assert PLAY_AGAIN not in Client().get(f"/m/{match.pk}/").content.decode()
    people = make_match(human, make_player("Kalle"))
    client.force_login(human)
    assert PLAY_AGAIN not in client.get(f"/m/{people.pk}/").content.decode()


@pytest.mark.django_db
def test_a_visitor_becomes_a_guest_from_the_chat_and_is_back_watching(client: Client) -> None:
    match = make_match(make_player("Aino"), make_player("Eero"), status=Match.Status.ACTIVE)
    page = client.get(f"/m/{match.pk}/", HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    assert CHAT_AS_GUEST in page and "Kirjoita chattiin vieraana" in page and "kz-chat-input" not in page
    users = get_user_model().objects.count()
    # Bad input: a GET, an unknown match: nothing made.
    assert client.get(f"/m/{match.pk}/chat-as-guest/").status_code == 405
    assert client.post("/m/nosuchmatch/chat-as-guest/").status_code == 404
    assert get_user_model().objects.count() == users
    landed = client.post(f"/m/{match.pk}/chat-as-guest/")
    assert landed.status_code == 302 and landed["Location"] == f"/m/{match.pk}/#kz-chat-title"
    assert get_user_model().objects.count() == users + 1
    page = client.get(f"/m/{match.pk}/").content.decode()
    assert 'data-role="spectator"' in page and "kz-chat-input" in page and CHAT_AS_GUEST not in page
    assert 'data-me="Guest-' in page
    # Already a guest: sent back, no second account.
    assert client.post(f"/m/{match.pk}/chat-as-guest/").status_code == 302
    assert get_user_model().objects.count() == users + 1


@pytest.mark.django_db
@override_settings(KAIZA_RATE_LIMITS={"guest_create": {"ip": (1, 600)}})
def test_becoming_a_guest_from_the_chat_is_rate_limited() -> None:
    match = make_match(make_player("Aino"), make_player("Eero"), status=Match.Status.ACTIVE)
    assert Client().post(f"/m/{match.pk}/chat-as-guest/").status_code == 302
    users = get_user_model().objects.count()
    assert Client().post(f"/m/{match.pk}/chat-as-guest/").status_code == 429
    assert get_user_model().objects.count() == users
