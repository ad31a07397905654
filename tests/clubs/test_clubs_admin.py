"""The Django admin lets an organiser fix clubs, players and matches without a shell."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from game.models import Match, MatchResult, Membership
from tests.support.community_factories import make_club, make_match, make_player


@pytest.mark.django_db
def test_admin_pages_for_clubs_players_and_matches(client) -> None:
    organiser = get_user_model().objects.create_superuser("organiser", "o@example.com", None)
    alice, bob = make_player("Alice"), make_player("Bob")
    club = make_club("Admin Club", alice, members=(bob,))
    finished = make_match(alice, bob, winner=alice, club=club)
    stuck = make_match(alice, bob, status=Match.Status.ACTIVE)
    client.force_login(organiser)

    for url in [
        "/admin/game/club/",
        f"/admin/game/club/{club.pk}/change/",
        "/admin/game/membership/",
        "/admin/game/profile/",
        f"/admin/game/profile/{alice.profile.pk}/change/",
        "/admin/game/match/",
        f"/admin/game/match/{finished.pk}/change/",
        "/admin/game/ratingchange/",
        "/admin/game/matchresult/",
    ]:
        assert client.get(url).status_code == 200, url
    assert b"Admin Club" in client.get("/admin/game/club/?q=admin").content

    membership = Membership.objects.get(club=club, user=bob)
    response = client.post(
        "/admin/game/membership/",
        {
            "form-TOTAL_FORMS": "2",
            "form-INITIAL_FORMS": "2",
            "form-0-id": str(Membership.objects.get(club=club, user=alice).pk),
            "form-0-role": "owner",
            "form-0-status": "active",
            "form-1-id": str(membership.pk),
            "form-1-role": "admin",
            "form-1-status": "active",
            "_save": "Save",
        },
    )
    assert response.status_code == 302
    membership.refresh_from_db()
    assert membership.role == "admin"

    response = client.post(
        "/admin/game/match/",
        {"action": "abort_matches", "_selected_action": [stuck.pk, finished.pk]},
    )
    assert response.status_code == 302
    assert Match.objects.get(pk=stuck.pk).status == "aborted"
    assert Match.objects.get(pk=finished.pk).status == "finished"
    assert MatchResult.objects.filter(match=stuck).exists()


@pytest.mark.django_db
def test_admin_is_closed_to_players(client) -> None:
    client.force_login(make_player("Alice"))
    assert client.get("/admin/game/club/").status_code == 302
