"""The pages of an event's announcement: the director's page (who sees the event, online
registration, the venue and fee, the tables' stream and scoreboard links, the registrations with a
button to remove each, and the forum posts to copy), and the registration page players open.

Thin: forms are read here, every value is checked by the services (game/tournaments/services/
announce.py), a refusal comes back as its words and nothing is stored.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import URLPattern, path
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from game.common.ratelimit import rate_limited
from game.models.announce import EventTable, TournamentAnnouncement, TournamentRegistration
from game.models.tournaments import Tournament
from game.realtime import fanout as realtime
from game.tournaments.selectors.forum import event_links, forum_posts, registrations
from game.tournaments.selectors.tournaments import tournament_summary
from game.tournaments.services import TournamentError
from game.tournaments.services.announce import (
    announcement_for,
    announcement_save,
    table_links_save,
    tournament_register,
    tournament_registration_remove,
)
from game.tournaments.services.base import is_manager
from game.tournaments.views import refusal_words
from game.tournaments.visibility import KEY_PARAMETER, announcement_of, require_visible

T = "game/tournaments/"
LANGUAGES = tuple(code for code, _name in settings.LANGUAGES)


def _event_or_404(request: HttpRequest, tournament_id: int) -> Tournament:
    tournament = Tournament.objects.select_related("club", "winner").filter(pk=tournament_id).first()
    if tournament is None:
        raise Http404("No such tournament")
    require_visible(request, tournament)
    return tournament


def _forbidden(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    message = _("Only the club's owner or an admin can announce an event.")
    context = {"message": message, "back": f"/tournaments/{tournament.pk}/"}
    return render(request, "game/community/forbidden.html", context, status=403)


def _links_typed(request: HttpRequest, tables: int) -> dict[int, tuple[str, str]]:
    return {
        n: (request.POST.get(f"stream_{n}", "")[:400], request.POST.get(f"scoreboard_{n}", "")[:400])
        for n in range(1, tables + 1)
    }


def _save(request: HttpRequest, tournament: Tournament) -> None:
    """The director's form: the settings, or the tables' links. Raises the service's refusal."""
    if request.POST.get("part") == "tables":
        table_links_save(
            user=request.user, tournament_id=tournament.pk, links=_links_typed(request, tournament.tables or 0)
        )
        return
    announcement_save(
        user=request.user,
        tournament_id=tournament.pk,
        visibility=request.POST.get("visibility", "")[:16],
        registration=request.POST.get("registration", "")[:16],
        friends=request.POST.get("friends") == "1",
        venue=request.POST.get("venue", "")[:400],
        entry_fee=request.POST.get("entry_fee", "")[:400],
    )


def tournament_announce(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The director's page of the event's announcement and forum posts (`?lang=` picks the posts'
    language; the club's by default)."""
    tournament = _event_or_404(request, tournament_id)
    if not is_manager(club_id=tournament.club_id, user=request.user):
        return _forbidden(request, tournament)
    status = 200
    if request.method == "POST":
        try:
            _save(request, tournament)
        except TournamentError as error:
            messages.error(request, refusal_words(error))
            status = 400
        else:
            messages.success(request, _("Saved."))
            realtime.tournament_publish_sync(tournament.pk)
            return redirect("tournament_announce", tournament_id=tournament.pk)
    return render(request, T + "announce.html", _announce_context(request, tournament), status=status)


def _announce_context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    language = request.GET.get("lang", "")
    language = language if language in LANGUAGES else tournament.club.language
    links = event_links(tournament=tournament, absolute=request.build_absolute_uri)
    kept = {t.number: t for t in EventTable.objects.filter(tournament=tournament)}
    typed = _links_typed(request, tournament.tables or 0) if request.method == "POST" else {}
    table_rows = [
        {
            "number": n,
            "stream": typed[n][0] if n in typed else getattr(kept.get(n), "stream_url", ""),
            "scoreboard": typed[n][1] if n in typed else getattr(kept.get(n), "scoreboard_url", ""),
        }
        for n in range(1, (tournament.tables or 0) + 1)
    ]
    return {
        "tournament": tournament,
        "summary": tournament_summary(tournament=tournament),
        "announcement": announcement_for(tournament=tournament),
        "visibilities": TournamentAnnouncement.Visibility.choices,
        "registration_modes": TournamentAnnouncement.Registration.choices,
        "table_rows": table_rows,
        "registrations": registrations(tournament=tournament),
        "posts": forum_posts(tournament=tournament, links=links, language=language),
        "post_language": language,
        "languages": settings.LANGUAGES,
        "links": links,
    }


@rate_limited("event_register")
def tournament_register_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Online registration: a signed-in player registers themselves or a friend by name; a guest
    registers by name. The link-only registration's secret comes in the address (`?k=`)."""
    tournament = _event_or_404(request, tournament_id)
    announcement = announcement_of(tournament)
    status = 200
    if request.method == "POST":
        try:
            made = tournament_register(
                user=request.user,
                tournament_id=tournament.pk,
                name=request.POST.get("name", "")[:200],
                club=request.POST.get("club", "")[:200],
                session=request.session,
                key=request.POST.get(KEY_PARAMETER) or request.GET.get(KEY_PARAMETER),
            )
        except TournamentError as error:
            messages.error(request, refusal_words(error))
            status = 403 if error.forbidden else 400
        else:
            messages.success(request, _("%(name)s is registered.") % {"name": made.name})
            realtime.tournament_publish_sync(tournament.pk)
            return redirect("tournament", tournament_id=tournament.pk)
    context = {
        "tournament": tournament,
        "summary": tournament_summary(tournament=tournament),
        "announcement": announcement,
        "open": announcement is not None
        and announcement.registration != TournamentAnnouncement.Registration.CLOSED
        and tournament.status == Tournament.Status.REGISTRATION,
        "key": request.GET.get(KEY_PARAMETER, "")[:64],
        "typed": request.POST.get("name", "")[:80],
    }
    return render(request, T + "register.html", context, status=status)


@require_POST
def tournament_registration_delete(request: HttpRequest, tournament_id: int, registration_id: int) -> HttpResponse:
    tournament = _event_or_404(request, tournament_id)
    if not TournamentRegistration.objects.filter(pk=registration_id, tournament=tournament).exists():
        raise Http404("No such registration")
    try:
        name = tournament_registration_remove(user=request.user, registration_id=registration_id)
    except TournamentError as error:
        if error.forbidden:
            return _forbidden(request, tournament)
        messages.error(request, refusal_words(error))
    else:
        messages.success(request, _("The registration of %(name)s is removed.") % {"name": name})
        realtime.tournament_publish_sync(tournament.pk)
    return redirect("tournament_announce", tournament_id=tournament.pk)


urlpatterns: list[URLPattern] = [
    path("tournaments/<int:tournament_id>/announce/", tournament_announce, name="tournament_announce"),
    path("tournaments/<int:tournament_id>/register/", tournament_register_page, name="tournament_register"),
    path(
        "tournaments/<int:tournament_id>/registrations/<int:registration_id>/remove/",
        tournament_registration_delete,
        name="tournament_registration_remove",
    ),
]
