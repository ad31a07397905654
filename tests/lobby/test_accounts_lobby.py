"""Accounts (sign up, log in, guests who keep their account) and the lobby (create, invite, join, live)."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.test import Client

from game.models import Match, Profile
from game.routing import websocket_urlpatterns
from tests.support.play_support import fast_password_hasher, fresh_channel_layer_and_connections

__all__ = ["fast_password_hasher", "fresh_channel_layer_and_connections"]  # autouse fixtures, imported to apply

pytestmark = pytest.mark.services


def create(client: Client, **fields: str) -> Match:
    response = client.post("/lobby/create/", {"opponent": "human", **fields})
    assert response.status_code == 302, response
    match_id = response["Location"].strip("/").split("/")[-1]
    return Match.objects.get(pk=match_id)


@pytest.mark.django_db
def test_signup_login_logout(client: Client) -> None:
    response = client.post(
        "/accounts/signup/",
        {"username": "maija", "display_name": "Maija", "password1": "kaisa-pw-2024", "password2": "kaisa-pw-2024"},
    )
    assert response.status_code == 302
    assert Profile.objects.get(user__username="maija").display_name == "Maija"
    client.post("/accounts/logout/")
    assert client.get("/lobby/").context["user"].is_anonymous
    response = client.post("/accounts/login/", {"login": "maija", "password": "kaisa-pw-2024"})
    assert response.status_code == 302
    assert client.get("/lobby/").context["user"].username == "maija"
    # Display names are unique, case-insensitively.
    other = Client()
    response = other.post(
        "/accounts/signup/",
        {"username": "maija2", "display_name": "maija", "password1": "kaisa-pw-2024", "password2": "kaisa-pw-2024"},
    )
    assert response.status_code == 200 and "taken" in response.content.decode()


@pytest.mark.django_db
def test_a_guest_plays_casual_then_signs_up_keeping_the_seat(client: Client) -> None:
    match = create(client)
    guest = match.player1
    assert guest.profile.is_guest and guest.profile.display_name.startswith("Guest-")
    # Rated needs a real account.
    response = client.post("/lobby/create/", {"opponent": "human", "rated": "on"})
    assert response.status_code == 302 and not Match.objects.filter(rated=True).exists()
    friend = Client()
    assert friend.get(f"/m/{match.id}/").context["can_join"] is True
    friend.post(f"/m/{match.id}/join/")
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE and match.player2.profile.is_guest
    name_in_match = match.snapshot["players"][0]["name"]

    response = client.post(
        "/accounts/signup/",
        {"username": "ville", "display_name": "Ville", "password1": "kaisa-pw-2024", "password2": "kaisa-pw-2024"},
    )
    assert response.status_code == 302
    user = get_user_model().objects.get(username="ville")
    assert user.pk == guest.pk and not user.profile.is_guest and user.profile.display_name == "Ville"
    page = client.get(f"/m/{match.id}/")
    assert page.context["role"] == "player" and page.context["me"] == name_in_match
    assert page.context["ws_path"] == f"/ws/match/{match.id}/" and page.context["table"]["length"] == 2.84
    # Rated is possible now.
    assert create(client, rated="on").rated


@pytest.mark.django_db
def test_join_refusals(client: Client) -> None:
    match = create(client)
    assert client.get(f"/m/{match.id}/").context["can_join"] is False  # the creator
    client.post(f"/m/{match.id}/join/")
    match.refresh_from_db()
    assert match.player2 is None
    second, third = Client(), Client()
    second.post(f"/m/{match.id}/join/")
    third.post(f"/m/{match.id}/join/")
    match.refresh_from_db()
    assert match.player2 is not None and third.get(f"/m/{match.id}/").context["role"] == "spectator"
    assert client.get("/m/nosuchmatch/").status_code == 404


@pytest.mark.django_db(transaction=True)
async def test_the_lobby_socket_pushes_open_matches() -> None:
    communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), "/ws/lobby/")
    connected, _ = await communicator.connect(timeout=10)
    assert connected
    assert (await communicator.receive_json_from(timeout=5)) == {"t": "matches", "d": {"matches": []}}

    creator = Client()
    match = await database_sync_to_async(create)(creator)
    pushed = await communicator.receive_json_from(timeout=5)
    assert [m["id"] for m in pushed["d"]["matches"]] == [match.id]
    assert pushed["d"]["matches"][0]["url"] == f"/m/{match.id}/"

    await database_sync_to_async(Client().post)(f"/m/{match.id}/join/")
    assert (await communicator.receive_json_from(timeout=5))["d"]["matches"] == []
    await communicator.send_to(text_data='{"t": "ping"}')
    assert (await communicator.receive_json_from(timeout=5))["t"] == "pong"
    await communicator.send_to(text_data='{"t": "shoot"}')
    assert (await communicator.receive_json_from(timeout=5))["t"] == "error"
    await communicator.disconnect()


@pytest.mark.django_db
def test_a_match_against_the_computer_starts_at_once(client: Client) -> None:
    match = create(client, opponent="3")
    assert match.status == Match.Status.ACTIVE
    assert match.player2.profile.is_bot and match.player2.profile.bot_level == 3
    assert match.version == 1 and match.snapshot["phase"] == "lag"


@pytest.mark.django_db
def test_a_rated_match_against_the_computer_is_refused_and_nothing_is_created(client: Client) -> None:
    client.post(
        "/accounts/signup/",
        {"username": "ansa", "display_name": "Ansa", "password1": "kaisa-pw-2024", "password2": "kaisa-pw-2024"},
    )
    before = Match.objects.count()
    response = client.post("/lobby/create/", {"opponent": "3", "rated": "on"}, follow=True)
    assert Match.objects.count() == before
    assert "games against the computer are casual" in response.content.decode()


@pytest.mark.django_db
def test_home_and_lobby_list_your_games_in_progress_with_a_way_back_in(client: Client) -> None:
    """A closed tab never loses a game: both pages list the visitor's live and waiting
    matches with a link back; finished ones and other people's are not listed."""
    waiting = create(client)
    playing = create(client)
    friend = Client()
    friend.post(f"/m/{playing.id}/join/")
    someone_else = create(Client())
    for page in ("/", "/lobby/"):
        html = client.get(page).content.decode()
        assert "Your games in progress" in html
        assert f'href="/m/{playing.id}/">Back to the game' in html and f'href="/m/{waiting.id}/"' in html
        assert "Waiting for an opponent" in html and '<span class="score">0 – 0</span>' in html
        assert f"/m/{someone_else.id}/" not in html.split("Your games in progress")[1].split("</section>")[0]
    playing.refresh_from_db()
    opponent = playing.snapshot["players"][1]["name"]
    assert opponent in client.get("/").content.decode()
    # The friend sees his game too; once it is over it leaves the list.
    assert f"/m/{playing.id}/" in friend.get("/lobby/").content.decode()
    Match.objects.filter(pk=playing.id).update(status=Match.Status.FINISHED)
    assert f'href="/m/{playing.id}/">Back' not in friend.get("/lobby/").content.decode()
    assert "Your games in progress" not in Client().get("/").content.decode()
