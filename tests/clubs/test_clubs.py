"""Clubs: creating, joining (open, request, invite), roles and their permissions, leaving, and marking
matches for the club. Every refused action leaves the database as it was."""

from __future__ import annotations

import json
from html import unescape as html_unescape
from pathlib import Path

import pytest

from game.clubs import services as club_services
from game.models import Club, Match, Membership
from tests.support.community_factories import make_club, make_match, make_player


def membership(club: Club, user) -> Membership | None:
    return Membership.objects.filter(club=club, user=user).first()


@pytest.mark.django_db
@pytest.mark.services
def test_create_club_makes_the_creator_its_owner(client) -> None:
    alice = make_player("Alice")
    client.force_login(alice)
    response = client.post(
        "/clubs/new/",
        {"name": "Helsinki Kaisa", "slug": "helsinki", "description": "Tuesdays.", "join_policy": "request"},
    )
    assert response.status_code == 302 and response["Location"] == "/clubs/helsinki/"
    club = Club.objects.get(slug="helsinki")
    assert (club.name, club.description, club.created_by) == ("Helsinki Kaisa", "Tuesdays.", alice)
    owner = membership(club, alice)
    assert (owner.role, owner.status) == ("owner", "active")
    page = client.get("/clubs/helsinki/")
    assert page.status_code == 200 and b"Helsinki Kaisa" in page.content and b"Edit club" in page.content


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"name": "ab", "slug": "fine-slug", "join_policy": "open"}, "name"),
        ({"name": "Good name", "slug": "Bad Slug!", "join_policy": "open"}, "slug"),
        ({"name": "Good name", "slug": "new", "join_policy": "open"}, "slug"),
        ({"name": "Good name", "slug": "fine-slug", "join_policy": "everyone"}, "join_policy"),
        ({"name": "Taken Club", "slug": "other-slug", "join_policy": "open"}, "name"),
        ({"name": "Fresh name", "slug": "taken", "join_policy": "open"}, "slug"),
    ],
)
def test_bad_club_input_shows_errors_and_creates_nothing(client, data: dict, field: str) -> None:
    alice = make_player("Alice")
    Club.objects.create(name="Taken Club", slug="taken")
    client.force_login(alice)
    response = client.post("/clubs/new/", data)
    assert response.status_code == 400
    assert response.context["form"].errors.get(field)
    assert b"errorlist" in response.content
    assert Club.objects.count() == 1 and not Membership.objects.exists()


@pytest.mark.django_db
def test_creating_a_club_needs_a_login(client) -> None:
    response = client.post("/clubs/new/", {"name": "Anon", "slug": "anon", "join_policy": "open"})
    assert response.status_code == 302 and "next=" in response["Location"]
    assert not Club.objects.exists()


@pytest.mark.django_db
@pytest.mark.services
def test_a_member_cannot_edit_the_club_but_an_admin_can(client) -> None:
    owner, member, admin = make_player("Owner"), make_player("Member"), make_player("Admin")
    club = make_club("Kaisa Club", owner, members=(member, admin))
    Membership.objects.filter(user=admin).update(role="admin")
    edit = {"name": "Hijacked", "description": "x", "join_policy": "open"}

    client.force_login(member)
    assert client.get("/clubs/kaisa-club/edit/").status_code == 403
    assert client.post("/clubs/kaisa-club/edit/", edit).status_code == 403
    club.refresh_from_db()
    assert (club.name, club.join_policy) == ("Kaisa Club", "request")
    assert b"Edit club" not in client.get("/clubs/kaisa-club/").content

    client.force_login(admin)
    response = client.post("/clubs/kaisa-club/edit/", {**edit, "name": "Kaisa Club Oulu"})
    assert response.status_code == 302
    club.refresh_from_db()
    assert (club.name, club.description, club.join_policy, club.slug) == ("Kaisa Club Oulu", "x", "open", "kaisa-club")


@pytest.mark.django_db
def test_join_open_club_at_once_and_request_club_after_approval(client) -> None:
    owner, bob, carol = make_player("Owner"), make_player("Bob"), make_player("Carol")
    open_club = make_club("Open Club", owner, join_policy="open")
    request_club = make_club("Request Club", owner, join_policy="request")

    client.force_login(bob)
    client.post("/clubs/open-club/join/")
    assert membership(open_club, bob).status == "active"
    client.post("/clubs/request-club/join/")
    assert membership(request_club, bob).status == "requested"

    # Another requester cannot approve; a plain member cannot either.
    client.force_login(carol)
    client.post("/clubs/request-club/join/")
    assert client.post("/clubs/request-club/requests/Bob/approve/").status_code == 403
    assert membership(request_club, bob).status == "requested"

    client.force_login(owner)
    page = client.get("/clubs/request-club/")
    assert b"Requests to join" in page.content and b"Bob" in page.content
    client.post("/clubs/request-club/requests/Bob/approve/")
    client.post("/clubs/request-club/requests/Carol/decline/")
    assert membership(request_club, bob).status == "active"
    assert membership(request_club, carol) is None


@pytest.mark.django_db
def test_invitation_only_club(client) -> None:
    owner, bob, eve = make_player("Owner"), make_player("Bob"), make_player("Eve")
    club = make_club("Invite Club", owner, join_policy="invite", members=(eve,))

    client.force_login(bob)
    assert client.post("/clubs/invite-club/join/").status_code == 403
    assert membership(club, bob) is None

    client.force_login(eve)  # a plain member cannot invite
    assert client.post("/clubs/invite-club/invite/", {"player": "Bob"}).status_code == 403
    assert membership(club, bob) is None

    client.force_login(owner)
    response = client.post("/clubs/invite-club/invite/", {"player": "Nobody"}, follow=True)
    assert b"No player has that name." in response.content
    client.post("/clubs/invite-club/invite/", {"player": "Bob"})
    assert membership(club, bob).status == "invited"

    client.force_login(bob)
    assert b"You are invited" in client.get("/clubs/invite-club/").content
    client.post("/clubs/invite-club/join/")
    assert membership(club, bob).status == "active"


@pytest.mark.django_db
@pytest.mark.services
def test_roles_only_the_owner_changes_them_and_the_owner_leaves_only_after_handing_over(client) -> None:
    owner, bob, carol = make_player("Owner"), make_player("Bob"), make_player("Carol")
    club = make_club("Role Club", owner, members=(bob, carol))

    client.force_login(bob)
    assert client.post("/clubs/role-club/members/Carol/role/", {"role": "admin"}).status_code == 403
    assert membership(club, carol).role == "member"

    client.force_login(owner)
    client.post("/clubs/role-club/members/Bob/role/", {"role": "admin"})
    assert membership(club, bob).role == "admin"
    response = client.post("/clubs/role-club/members/Bob/role/", {"role": "emperor"}, follow=True)
    assert membership(club, bob).role == "admin" and b"Choose owner, admin or member." in response.content

    # An admin may remove a member but not another admin or the owner.
    client.force_login(bob)
    client.post("/clubs/role-club/members/Carol/remove/")
    assert membership(club, carol) is None
    assert client.post("/clubs/role-club/members/Owner/remove/").status_code == 403

    client.force_login(owner)
    response = client.post("/clubs/role-club/leave/", follow=True)
    assert b"The owner cannot leave" in response.content and membership(club, owner).role == "owner"
    client.post("/clubs/role-club/members/Bob/role/", {"role": "owner"})
    assert membership(club, bob).role == "owner" and membership(club, owner).role == "admin"
    client.post("/clubs/role-club/leave/")
    assert membership(club, owner) is None
    assert Membership.objects.filter(club=club, role="owner").count() == 1


@pytest.mark.django_db
@pytest.mark.services
def test_marking_a_match_for_the_club() -> None:
    owner, alice, bob, outsider = make_player("Owner"), make_player("Alice"), make_player("Bob"), make_player("Out")
    club = make_club("Mark Club", owner, members=(alice, bob))
    match = make_match(alice, bob, status=Match.Status.ACTIVE)
    outsider_match = make_match(alice, outsider, status=Match.Status.ACTIVE)

    # A non-member cannot mark a match for the club: neither a stranger, nor a player who is not a member.
    with pytest.raises(club_services.ClubPermissionError):
        club_services.match_mark_for_club(match=match, club=club, user=outsider)
    with pytest.raises(club_services.ClubPermissionError):
        club_services.match_mark_for_club(match=outsider_match, club=club, user=outsider)
    # A member cannot mark a match whose opponent is not a member.
    with pytest.raises(club_services.ClubError):
        club_services.match_mark_for_club(match=outsider_match, club=club, user=alice)
    assert Match.objects.filter(club=club).count() == 0

    club_services.match_mark_for_club(match=match, club=club, user=alice)
    assert Match.objects.get(pk=match.pk).club == club

    # A club admin who is not playing may mark a match between members; nobody rewrites a finished one.
    second = make_match(alice, bob, status=Match.Status.ACTIVE)
    club_services.match_mark_for_club(match=second, club=club, user=owner)
    assert Match.objects.get(pk=second.pk).club == club
    finished = make_match(alice, bob)
    with pytest.raises(club_services.ClubError):
        club_services.match_mark_for_club(match=finished, club=club, user=alice)
    assert Match.objects.get(pk=finished.pk).club is None


@pytest.mark.django_db
def test_mark_form_on_the_club_page(client) -> None:
    """A member counts a match for the club by picking it from their own matches with a member, or by
    pasting its link (the page's address, its path, or the bare id all do); a link to nothing, or words
    that are no link, are refused in words and change nothing."""
    owner, alice, bob, carol = make_player("Owner"), make_player("Alice"), make_player("Bob"), make_player("Carol")
    make_club("Form Club", owner, members=(alice, bob))
    match = make_match(alice, bob, status=Match.Status.ACTIVE, scores=(12, 3))
    pasted = make_match(bob, alice, status=Match.Status.ACTIVE)
    make_match(alice, carol, status=Match.Status.ACTIVE)  # Carol is no member: not offered
    make_match(alice, bob)  # finished: its club can no longer change
    client.force_login(alice)
    page = client.get("/clubs/form-club/")
    assert [m["id"] for m in page.context["markable"]] == [pasted.pk, match.pk]
    html = page.content.decode()
    assert f'name="pick" value="{match.pk}"' in html and 'Alice</span> <span class="score">12 – 3</span>' in html
    assert "(/m/" not in html and "Match id" not in html
    for given, words in (
        ("https://kaiza.example/m/nosuchmatch/", "There is no match at that link."),
        ("the one from yesterday", "That is not a match's link"),
        ("", "Choose one of your matches, or paste the match's link."),
    ):
        response = client.post("/clubs/form-club/mark/", {"match": given}, follow=True)
        assert words in html_unescape(response.content.decode()), given
    assert not Match.objects.filter(club__isnull=False).exists()
    response = client.post("/clubs/form-club/mark/", {"pick": match.pk}, follow=True)
    assert Match.objects.get(pk=match.pk).club.slug == "form-club"
    assert response.context["live"][0]["id"] == match.pk
    assert [m["id"] for m in response.context["markable"]] == [pasted.pk]
    client.post("/clubs/form-club/mark/", {"pick": "", "match": f"http://testserver/m/{pasted.pk}/?x=1"})
    assert Match.objects.get(pk=pasted.pk).club.slug == "form-club"


@pytest.mark.django_db
def test_a_new_clubs_address_is_made_from_its_name(client) -> None:
    """Left empty, the address is made from the name as the page fills it in while the name is typed
    (static/game/js/pages/club_form.js, the same examples in tests/js/fixtures/slugs.json)."""
    examples = json.loads((Path(__file__).parents[1] / "js" / "fixtures" / "slugs.json").read_text())
    for name, slug in examples:
        assert club_services.club_slug_from_name(name) == slug, name
    client.force_login(make_player("Alice"))
    page = client.get("/clubs/new/").content.decode()
    assert "data-club-form" in page and "game/js/pages/club_form.js" in page
    response = client.post("/clubs/new/", {"name": "Äänekosken Kaisa", "slug": "", "join_policy": "open"})
    assert response.status_code == 302 and response["Location"] == "/clubs/aanekosken-kaisa/"
    refused = client.post("/clubs/new/", {"name": "Клуб Кайза", "slug": "", "join_policy": "open"})
    assert refused.status_code == 400 and refused.context["form"].errors.get("slug")


@pytest.mark.django_db
def test_club_pages_show_members_and_club_matches(client) -> None:
    owner, alice = make_player("Owner", rating=1700), make_player("Alice")
    club = make_club("Page Club", owner, members=(alice,))
    make_match(owner, alice, winner=owner, club=club, scores=(60, 31))
    directory = client.get("/clubs/")
    assert directory.status_code == 200 and b"Page Club" in directory.content and b"2 members" in directory.content
    page = client.get("/clubs/page-club/")
    html = page.content.decode()
    assert "Recent club matches" in html and "60" in html and "31" in html
    assert [m["name"] for m in page.context["members"]] == ["Owner", "Alice"]
    assert client.get("/clubs/nope/").status_code == 404
