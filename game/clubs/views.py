"""The clubs' pages: the list, a club's page and its leaderboard, creating and editing a club, and the
members' actions (join, leave, invite, requests, roles, marking a match as the club's).

Thin views: read through `game.clubs.selectors`, write through `game.clubs.services`. Every write is a
POST with CSRF; a form re-renders with its errors, an action that is refused redirects back with a
message (or answers 403 when the user may not do it at all), and in both cases nothing has changed.
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import URLPattern, path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from game.clubs import selectors as club_selectors
from game.clubs import services as club_services
from game.common.converters import MATCH_ID_PATTERN
from game.common.forms import form_errors_add
from game.common.ratelimit import rate_limited
from game.matches.selectors import live as live_selectors
from game.models import (
    Club,
    Match,
    Membership,
    Profile,
    club_language_default,
    club_time_zone_default,
)

T = "game/community/"


class ClubForm(forms.Form):
    """Shape checks only; the service decides what is allowed (unique names, reserved slugs)."""

    name = forms.CharField(max_length=64, min_length=3, label=gettext_lazy("Name"))
    slug = forms.SlugField(
        required=False,
        max_length=64,
        min_length=3,
        label=gettext_lazy("Address"),
        help_text=gettext_lazy(
            "made from the name as you type it; lowercase letters, digits and hyphens: /clubs/<address>/"
        ),
    )
    description = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 4}), required=False, max_length=2000, label=gettext_lazy("Description")
    )
    join_policy = forms.ChoiceField(choices=Club.JoinPolicy.choices, label=gettext_lazy("Who can join"))
    time_zone = forms.ChoiceField(
        choices=lambda: [(name, name) for name in club_services.time_zone_names()],
        required=False,
        label=gettext_lazy("Time zone"),
        help_text=gettext_lazy("The club's clock: its events' times are shown, typed and exported in it"),
    )
    language = forms.ChoiceField(
        choices=settings.LANGUAGES,
        required=False,
        label=gettext_lazy("Language of the club's screens"),
        help_text=gettext_lazy("The TV page and the wall chart of its events speak it"),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if "slug" in self.fields and not data.get("slug") and data.get("name"):
            data["slug"] = club_services.club_slug_from_name(data["name"])  # as the page fills it in
        return data


class ClubEditForm(ClubForm):
    slug = None  # type: ignore[assignment]  # the address is permanent: links to it are shared


class InviteForm(forms.Form):
    player = forms.CharField(max_length=32, label=gettext_lazy("Player name"))


class RoleForm(forms.Form):
    role = forms.ChoiceField(choices=Membership.Role.choices, label=gettext_lazy("Role"))


#: A match named by its link, its path or its id: "https://kaiza.fi/m/ab12cd/", "/m/ab12cd/", "ab12cd".
MATCH_REFERENCE = re.compile(rf"^(?:(?:https?://[^/\s]+)?/m/)?({MATCH_ID_PATTERN})/?(?:replay/)?(?:[?#]\S*)?$")


class MarkForm(forms.Form):
    """The match to count for the club: one picked from the member's own (`pick`), or a pasted link."""

    pick = forms.CharField(required=False, max_length=16)
    match = forms.CharField(required=False, max_length=300, label=gettext_lazy("The match's link"))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        given = (data.get("match") or "").strip() or (data.get("pick") or "").strip()  # a pasted link wins
        found = MATCH_REFERENCE.match(given)
        if not given:
            raise ValidationError(_("Choose one of your matches, or paste the match's link."))
        if found is None:
            raise ValidationError(_("That is not a match's link: copy it from the match page's address."))
        data["match_id"] = found.group(1)
        return data


def _error_text(error: ValidationError) -> str:
    if hasattr(error, "error_dict"):
        return " ".join(msg for msgs in error.message_dict.values() for msg in msgs)
    return " ".join(error.messages)


def _forbidden(request: HttpRequest, message: str, back: str) -> HttpResponse:
    return render(request, T + "forbidden.html", {"message": message, "back": back}, status=403)


# --- Clubs ----------------------------------------------------------------------------------------


def clubs(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        T + "clubs.html",
        {"clubs": club_selectors.club_list(), "mine": club_selectors.clubs_for_user(user=request.user)},
    )


@login_required
@rate_limited("club_create")
def club_new(request: HttpRequest) -> HttpResponse:
    form = ClubForm(
        request.POST or None,
        initial={
            "join_policy": Club.JoinPolicy.REQUEST,
            "time_zone": club_time_zone_default(),
            "language": club_language_default(),
        },
    )
    if request.method == "POST" and form.is_valid():
        try:
            club = club_services.club_create(user=request.user, **form.cleaned_data)
        except ValidationError as error:
            form_errors_add(form, error)
        else:
            messages.success(request, _("Welcome to %(club)s: you are its owner.") % {"club": club.name})
            return redirect("club", slug=club.slug)
    return render(request, T + "club_form.html", {"form": form, "creating": True}, status=400 if form.errors else 200)


def _club_or_404(slug: str) -> Club:
    club = club_selectors.club_get(slug=slug)
    if club is None:
        raise Http404(_("No such club"))
    return club


def _series_periods_asked(request: HttpRequest) -> dict[int, str]:
    """The period each rolling series is shown for (`?series<id>=2026-Q1`); a key that names no
    period of the series shows its current one (game/clubs/series_periods.py checks the keys)."""
    asked: dict[int, str] = {}
    for name in request.GET:
        value = request.GET.get(name, "")
        if name.startswith("series") and name[6:].isdigit() and len(value) <= 8:
            asked[int(name[6:])] = value
    return asked


def club(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club_or_404(slug)
    membership = club_selectors.club_membership(club=club, user=request.user)
    can_manage = club_selectors.club_can_manage(membership=membership)
    context: dict[str, Any] = {
        "club": club,
        "membership": membership,
        "can_manage": can_manage,
        "is_owner": membership is not None
        and membership.status == Membership.Status.ACTIVE
        and membership.role == Membership.Role.OWNER,
        "members": club_selectors.club_members(club=club),
        "requests": club_selectors.club_members(club=club, status=Membership.Status.REQUESTED) if can_manage else [],
        "invited": club_selectors.club_members(club=club, status=Membership.Status.INVITED) if can_manage else [],
        "recent": club_selectors.club_recent_matches(club=club, viewer=request.user),
        "live": live_selectors.live_matches(viewer=request.user, club=club),
        "board": club_selectors.leaderboard_for_club(club=club, page=request.GET.get("page")),
        "series_tables": club_selectors.club_series_tables(
            club=club, periods=_series_periods_asked(request), manager=can_manage
        ),
        "roles": Membership.Role.choices,
        "invite_form": InviteForm(),
        "mark_form": MarkForm(),
        "markable": club_selectors.club_markable_matches(club=club, user=request.user),
    }
    return render(request, T + "club.html", context)


@login_required
def club_edit(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club_or_404(slug)
    membership = club_selectors.club_membership(club=club, user=request.user)
    if not club_selectors.club_can_manage(membership=membership):
        return _forbidden(request, _("Only the club's owner or an admin can edit the club."), club_url(club))
    initial = {
        "name": club.name,
        "description": club.description,
        "join_policy": club.join_policy,
        "time_zone": club.time_zone,
        "language": club.language,
    }
    form = ClubEditForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            club_services.club_update(club=club, user=request.user, **form.cleaned_data)
        except club_services.ClubPermissionError as error:
            return _forbidden(request, str(error.args[0] if error.args else error), club_url(club))
        except ValidationError as error:
            form_errors_add(form, error)
        else:
            messages.success(request, _("Club updated."))
            return redirect("club", slug=club.slug)
    return render(
        request,
        T + "club_form.html",
        {"form": form, "club": club, "creating": False},
        status=400 if form.errors else 200,
    )


def club_url(club: Club) -> str:
    return reverse("club", kwargs={"slug": club.slug})


def _user_named(name: str) -> Any:
    profile = Profile.objects.select_related("user").filter(display_name=name).first()
    return profile.user if profile else None


def _club_action(request: HttpRequest, club: Club, action: Any, success: str) -> HttpResponse:
    """Runs one club service call and answers the club page way: a message and back to the club, or 403."""
    try:
        action()
    except club_services.ClubPermissionError as error:
        return _forbidden(request, str(error.args[0] if error.args else error), club_url(club))
    except ValidationError as error:
        messages.error(request, _error_text(error))
    else:
        messages.success(request, success)
    return redirect(club_url(club))


@login_required
@require_POST
def club_join(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club_or_404(slug)
    try:
        membership = club_services.club_join(club=club, user=request.user)
    except club_services.ClubPermissionError as error:
        return _forbidden(request, str(error.args[0] if error.args else error), club_url(club))
    except ValidationError as error:
        messages.error(request, _error_text(error))
        return redirect(club_url(club))
    if membership.status == Membership.Status.ACTIVE:
        messages.success(request, _("You are now a member of %(club)s.") % {"club": club.name})
    else:
        messages.success(request, _("Request sent: an admin of the club will answer it."))
    return redirect(club_url(club))


@login_required
@require_POST
def club_leave(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club_or_404(slug)
    try:
        status = club_services.club_leave(club=club, user=request.user)
    except ValidationError as error:
        messages.error(request, _error_text(error))
        return redirect(club_url(club))
    done: dict[str, str] = {
        Membership.Status.ACTIVE: _("You left %(club)s.") % {"club": club.name},
        Membership.Status.REQUESTED: _("Request withdrawn."),
        Membership.Status.INVITED: _("Invitation declined."),
    }
    messages.success(request, done.get(status, _("Done.")))
    return redirect(club_url(club))


@login_required
@require_POST
def club_request(request: HttpRequest, slug: str, display_name: str, decision: str) -> HttpResponse:
    club = _club_or_404(slug)
    if decision not in ("approve", "decline"):
        raise Http404(_("Unknown decision"))
    member = _user_named(display_name)
    return _club_action(
        request,
        club,
        lambda: club_services.club_request_decide(
            club=club, user=request.user, member=member, approve=decision == "approve"
        ),
        _("%(name)s is now a member.") % {"name": display_name}
        if decision == "approve"
        else _("Declined %(name)s's request.") % {"name": display_name},
    )


@login_required
@require_POST
def club_invite(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club_or_404(slug)
    form = InviteForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give the name of the player to invite."))
        return redirect(club_url(club))
    name = form.cleaned_data["player"].strip()
    return _club_action(
        request,
        club,
        lambda: club_services.club_invite(club=club, user=request.user, invitee=_user_named(name)),
        _("Invited %(name)s.") % {"name": name},
    )


@login_required
@require_POST
def club_member_role(request: HttpRequest, slug: str, display_name: str) -> HttpResponse:
    club = _club_or_404(slug)
    form = RoleForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose owner, admin or member."))
        return redirect(club_url(club))
    role = form.cleaned_data["role"]
    return _club_action(
        request,
        club,
        lambda: club_services.club_member_set_role(
            club=club, user=request.user, member=_user_named(display_name), role=role
        ),
        _("%(name)s is now: %(role)s.") % {"name": display_name, "role": Membership.Role(role).label},
    )


@login_required
@require_POST
def club_member_remove(request: HttpRequest, slug: str, display_name: str) -> HttpResponse:
    club = _club_or_404(slug)
    return _club_action(
        request,
        club,
        lambda: club_services.club_member_remove(club=club, user=request.user, member=_user_named(display_name)),
        _("Removed %(name)s from the club.") % {"name": display_name},
    )


@login_required
@require_POST
def club_mark_match(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club_or_404(slug)
    form = MarkForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(str(e) for errors in form.errors.values() for e in errors))
        return redirect(club_url(club))
    match = Match.objects.filter(pk=form.cleaned_data["match_id"]).first()
    if match is None:
        messages.error(request, _("There is no match at that link."))
        return redirect(club_url(club))
    return _club_action(
        request,
        club,
        lambda: club_services.match_mark_for_club(match=match, club=club, user=request.user),
        _("Match %(match)s now counts for %(club)s.") % {"match": match.pk, "club": club.name},
    )


urlpatterns: list[URLPattern] = [
    path("clubs/", clubs, name="clubs"),
    path("clubs/new/", club_new, name="club_new"),
    path("clubs/<slug:slug>/", club, name="club"),
    path("clubs/<slug:slug>/edit/", club_edit, name="club_edit"),
    path("clubs/<slug:slug>/join/", club_join, name="club_join"),
    path("clubs/<slug:slug>/leave/", club_leave, name="club_leave"),
    path("clubs/<slug:slug>/invite/", club_invite, name="club_invite"),
    path("clubs/<slug:slug>/mark/", club_mark_match, name="club_mark_match"),
    path("clubs/<slug:slug>/requests/<name:display_name>/<str:decision>/", club_request, name="club_request"),
    path("clubs/<slug:slug>/members/<name:display_name>/role/", club_member_role, name="club_member_role"),
    path("clubs/<slug:slug>/members/<name:display_name>/remove/", club_member_remove, name="club_member_remove"),
]
