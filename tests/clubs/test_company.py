"""Company around matches over real sockets and pages: a rematch asked for after the
opponent left, challenges from a profile, club matches from the lobby."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from game.matches.selectors.matches import match_open_list
from game.models import Match, MatchConnection
from game.models.tournaments import DEFAULT_TIME_LIMIT
from tests.matches.test_match_lifecycle import row, two_players
from tests.support.community_factories import make_club, make_player
from tests.support.play_support import (
    connect_communicator,
    fast_password_hasher,
    fresh_channel_layer_and_connections,
    next_ack,
)

__all__ = ["fast_password_hasher", "fresh_channel_layer_and_connections"]  # autouse fixtures


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
async def test_a_rematch_after_the_opponent_left_is_a_clear_error() -> None:
    alice_user, bob_user, match_id = await two_players()
    alice = await connect_communicator("alice", match_id, alice_user)
    bob = await connect_communicator("bob", match_id, bob_user)
    await bob.send("resign", ack=next_ack())
    await alice.until(lambda m: m["t"] == "finished")
    await bob.close()  # bob leaves the page: his connection row goes with the socket
    matches = await database_sync_to_async(Match.objects.count)()

    await alice.send("rematch", ack=next_ack())
    refused = await alice.error()
    assert refused["d"]["code"] == "opponent_left"
    assert "left" in refused["d"]["message"]
    assert await database_sync_to_async(Match.objects.count)() == matches  # nothing made
    assert (await row(match_id)).rematch_id is None

    # Once he is back on the page, the same request makes the rematch.
    bob = await connect_communicator("bob", match_id, bob_user)
    for _ in range(100):  # his connection row is written in the background (game.realtime.presence)
        if await database_sync_to_async(MatchConnection.objects.filter(match_id=match_id, user=bob_user).exists)():
            break
        await asyncio.sleep(0.05)
    await alice.send("rematch", ack=next_ack())
    offer = (await bob.until(lambda m: m["t"] == "rematch"))["d"]
    new = await row(offer["match_id"])
    assert (new.player1_id, new.player2_id) == (bob_user.pk, alice_user.pk)
    await alice.close()
    await bob.close()


# --- a club match from the lobby --------------------------------------------------------------------


@pytest.mark.django_db
def test_a_club_member_creates_a_club_match_from_the_lobby(client: Client) -> None:
    owner, outsider = make_player("Omistaja"), make_player("Ulkopuolinen")
    club = make_club("Kaisa Kerho", owner)
    client.force_login(owner)
    page = client.get("/lobby/").content.decode()
    assert 'name="club"' in page and "Kaisa Kerho" in page  # the select lists the member's clubs

    response = client.post("/lobby/create/", {"opponent": "human", "club": club.slug})
    assert response.status_code == 302
    match = Match.objects.get(pk=response["Location"].strip("/").split("/")[-1])
    assert match.club == club and match.player1 == owner

    other = Client()
    other.force_login(outsider)
    assert 'name="club"' not in other.get("/lobby/").content.decode()  # no clubs, no select
    before = Match.objects.count()
    refused = other.post("/lobby/create/", {"opponent": "human", "club": club.slug}, follow=True)
    assert "only members can start a club match" in refused.content.decode()
    unknown = other.post("/lobby/create/", {"opponent": "human", "club": "no-such-club"}, follow=True)
    assert "There is no such club." in unknown.content.decode()
    bot = client.post("/lobby/create/", {"opponent": "1", "club": club.slug}, follow=True)
    assert "A club match is one person against another." in bot.content.decode()
    assert Match.objects.count() == before


# --- challenges from a profile ----------------------------------------------------------------------


def challenge(client: Client, name: str, **fields: str) -> Any:
    return client.post(f"/players/{name}/challenge/", fields, follow=True)


@pytest.mark.django_db
def test_a_challenge_from_a_profile_is_accepted_by_the_challenged_player_only() -> None:
    ansa, bertta, cecilia = make_player("Ansa"), make_player("Bertta"), make_player("Cecilia")
    sender, receiver, third = Client(), Client(), Client()
    sender.force_login(ansa)
    receiver.force_login(bertta)
    third.force_login(cecilia)
    profile = sender.get("/players/Bertta/").content.decode()
    assert 'id="challenge-form"' in profile and "65 minutes (the Kaisa rules)" in profile
    assert 'id="challenge-form"' not in sender.get("/players/Ansa/").content.decode()  # not oneself

    challenge(sender, "Bertta", time_limit=str(DEFAULT_TIME_LIMIT), rated="on")
    match = Match.objects.get(challenged=bertta)
    assert (match.player1, match.status, match.rated, match.time_limit) == (
        ansa,
        Match.Status.OPEN,
        True,
        DEFAULT_TIME_LIMIT,
    )
    assert match.pk not in [m["id"] for m in match_open_list()]  # not in the lobby's open list

    home = receiver.get("/").content.decode()
    assert "data-challenge-badge" in home and "Ansa challenges you" in home  # header badge and list
    assert "data-challenge-badge" not in third.get("/").content.decode()
    assert "Waiting for Bertta to accept" in sender.get("/").content.decode()  # the challenger's games

    refused = third.post(f"/challenges/{match.pk}/accept/", follow=True).content.decode()
    assert "this match is a challenge to another player" in refused
    assert (
        "only the challenged player can decline"
        in third.post(f"/challenges/{match.pk}/decline/", follow=True).content.decode()
    )
    match.refresh_from_db()
    assert match.status == Match.Status.OPEN and match.player2 is None

    response = receiver.post(f"/challenges/{match.pk}/accept/")
    assert response.status_code == 302 and response["Location"] == f"/m/{match.pk}/"
    match.refresh_from_db()
    assert match.player2 == bertta and match.status == Match.Status.ACTIVE
    assert "data-challenge-badge" not in receiver.get("/").content.decode()


@pytest.mark.django_db
def test_a_declined_challenge_ends_and_bad_challenges_make_nothing() -> None:
    ansa, bertta = make_player("Ansa"), make_player("Bertta")
    make_player("Vieras", is_guest=True)
    sender, receiver = Client(), Client()
    sender.force_login(ansa)
    receiver.force_login(bertta)
    challenge(sender, "Bertta", time_limit="")
    match = Match.objects.get(challenged=bertta)
    assert match.time_limit is None and not match.rated
    receiver.post(f"/challenges/{match.pk}/decline/")
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED and match.player2 is None
    late = receiver.post(f"/challenges/{match.pk}/accept/", follow=True).content.decode()
    assert "this match has no open seat" in late
    again = receiver.post(f"/challenges/{match.pk}/decline/", follow=True).content.decode()
    assert "this challenge is no longer open" in again

    before = Match.objects.count()
    for name, fields, words in (
        ("Ansa", {"time_limit": ""}, "you cannot challenge yourself"),
        ("Bertta", {"time_limit": "60"}, "choose no time limit or the K-11 limit of 65 minutes"),
        ("Bertta", {"time_limit": "abc"}, "choose no time limit or the K-11 limit of 65 minutes"),
        ("Vieras", {"time_limit": "", "rated": "on"}, "rated matches need a registered account"),
    ):
        assert words in challenge(sender, name, **fields).content.decode(), (name, fields)
    assert Match.objects.count() == before
    anonymous = Client().post("/players/Bertta/challenge/", {"time_limit": ""})
    assert anonymous.status_code == 302 and "/login/" in anonymous["Location"]
    assert Match.objects.count() == before


@pytest.mark.django_db
def test_your_games_say_team_and_tournament_matches(client: Client) -> None:
    """The home page's and the lobby's "your games" name a team match as one."""
    client.force_login(make_player("Ansa"))
    response = client.post("/lobby/create/", {"opponent": "human", "team_size": "2"})
    assert response.status_code == 302
    for page in ("/", "/lobby/"):
        games = client.get(page).content.decode()
        assert 'id="in-progress"' in games and "team match · casual" in games, page


@pytest.mark.django_db
def test_the_new_words_read_in_finnish() -> None:
    """The words of playing in company, in the reader's language: the quick pairing card, the club
    select, the challenge form and list, and "your games" are said in Finnish to a Finnish reader."""
    ansa, bertta = make_player("Ansa"), make_player("Bertta")
    make_club("Kerho", ansa)
    sender, receiver = Client(HTTP_ACCEPT_LANGUAGE="fi"), Client(HTTP_ACCEPT_LANGUAGE="fi")
    sender.force_login(ansa)
    receiver.force_login(bertta)
    sender.post("/players/Bertta/challenge/", {"time_limit": str(DEFAULT_TIME_LIMIT)})
    pages = "".join(
        client.get(path).content.decode()
        for client, path in ((sender, "/lobby/"), (sender, "/players/Bertta/"), (sender, "/"), (receiver, "/"))
    )
    for english in (
        "Quick pairing",
        "Find an opponent",
        "No time limit",
        "65 minutes (the Kaisa rules)",
        "No club",
        "Challenges to you",
        "challenges you",
        "Waiting for Bertta",
        "the match counts for the club",
        "Plays the first player",
    ):
        assert english not in pages, english
    assert "Pikapari" in pages and "Haasteet sinulle" in pages and "Odotetaan, että Bertta hyväksyy" in pages
