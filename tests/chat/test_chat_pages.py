"""The chat on pages: the match page words the quick phrases in the reader's language and says which
chat one writes in; a report is readable (and resolvable) in the Django admin with the message and the
reporter."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth import get_user_model

from game.models import Match
from game.models.chat import ChatMessage, ChatReport
from tests.support.community_factories import make_match, make_player


def phrases_of(html: str) -> dict[str, str]:
    found = re.search(r'<script id="kaiza-chat-phrases" type="application/json">(.*?)</script>', html, re.S)
    assert found, "the match page carries the phrase words"
    return dict(json.loads(found.group(1)))


@pytest.mark.django_db
def test_the_match_page_words_the_quick_phrases_in_the_reader_s_language(client) -> None:
    alice, bob = make_player("Alice"), make_player("Bob")
    match = make_match(alice, bob, status=Match.Status.ACTIVE)
    english = client.get(f"/m/{match.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert phrases_of(english) == {
        "good_shot": "Good shot",
        "thanks": "Thanks",
        "rematch": "Rematch?",
        "good_game": "Good game",
    }
    assert "Sign in or play as a guest to chat." in english  # a visitor reads, does not write
    finnish = client.get(f"/m/{match.pk}/", HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    assert phrases_of(finnish)["good_shot"] == "Hyvä lyönti"
    client.force_login(alice)
    russian = client.get(f"/m/{match.pk}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert phrases_of(russian)["thanks"] == "Спасибо"
    assert "Сообщение игрокам" in russian and 'data-phrase="good_game"' in russian
    assert 'maxlength="200"' in russian


@pytest.mark.django_db
def test_a_chat_report_is_in_the_admin_with_the_message_and_the_reporter(client) -> None:
    organiser = get_user_model().objects.create_superuser("organiser", "o@example.com", None)
    alice, bob = make_player("Alice"), make_player("Bob")
    match = make_match(alice, bob, status=Match.Status.ACTIVE)
    message = ChatMessage.objects.create(
        match=match, channel="players", author=bob, author_name="Bob", text="rude words here"
    )
    report = ChatReport.objects.create(message=message, reporter=alice)
    client.force_login(organiser)
    listing = client.get("/admin/game/chatreport/").content.decode()
    assert "rude words here" in listing and "Bob" in listing and "alice" in listing and match.pk in listing
    page = client.get(f"/admin/game/chatreport/{report.pk}/change/")
    assert page.status_code == 200 and "rude words here" in page.content.decode()
    assert client.get("/admin/game/chatmessage/").status_code == 200
    assert client.get("/admin/game/chatreport/add/").status_code == 403  # reports come from readers only
    response = client.post(
        "/admin/game/chatreport/",
        {
            "form-TOTAL_FORMS": "1",
            "form-INITIAL_FORMS": "1",
            "form-0-id": str(report.pk),
            "form-0-resolved": "on",
            "_save": "Save",
        },
    )
    assert response.status_code == 302
    report.refresh_from_db()
    assert report.resolved
