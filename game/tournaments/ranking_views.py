"""The director's forms for an event's entrants at the club: the federation's ranking list pasted or
uploaded (it seeds the event and fills the clubs), the handicaps typed on the entrants list or taken
from the club's handicap list, and the club's handicap list itself (on the register's page).

Thin: the services decide (game/tournaments/services/ranking.py); a refused list is shown line by
line, in the director's language, and nothing is stored.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import URLPattern, path
from django.utils.translation import gettext, gettext_noop, ngettext
from django.views.decorators.http import require_POST

from game.models import Club
from game.models.tournaments import Tournament
from game.realtime import fanout as realtime
from game.tournaments.ranking_list import MOST_CHARACTERS
from game.tournaments.services.base import TournamentError
from game.tournaments.services.ranking import (
    club_handicap_list_set,
    tournament_handicaps_from_club,
    tournament_handicaps_set,
    tournament_ranking_list_apply,
)

#: The encodings a pasted file comes in: UTF-8 (with or without its mark), else the Windows Finnish
#: one a spreadsheet saves a CSV in (cp1252 reads every byte, so it is tried last).
ENCODINGS = ("utf-8-sig", "cp1252")
HANDICAP_FIELD = "handicap-"


def _club_event(tournament_id: int) -> Tournament:
    tournament = Tournament.objects.filter(pk=tournament_id, tables__isnull=False).first()
    if tournament is None:
        raise Http404("No such event at a club")
    return tournament


def _text_of(request: HttpRequest) -> str:
    """The pasted list, or the uploaded file's text (a file wins when both are given)."""
    upload = request.FILES.get("file")
    if upload is None:
        return request.POST.get("list", "")[: MOST_CHARACTERS + 1]
    if upload.size is not None and upload.size > MOST_CHARACTERS * 4:
        raise TournamentError("bad_file", gettext_noop("the file is longer than a ranking list"))
    raw = upload.read(MOST_CHARACTERS * 4 + 1)
    for encoding in ENCODINGS:
        try:
            return raw.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise TournamentError("bad_file", gettext_noop("the file is not text"))  # pragma: no cover: cp1252 reads all


def _done(
    request: HttpRequest, back: str, action: Callable[[], str], *, tournament_id: int | None = None
) -> HttpResponse:
    """Run `action`; its words as a success, or the refusal one line each (a list's bad lines)."""
    try:
        words = action()
    except TournamentError as error:
        for line in error.lines(gettext):
            messages.error(request, line)
    else:
        messages.success(request, words)
        if tournament_id is not None:
            realtime.tournament_publish_sync(tournament_id)
    return redirect(back)


@login_required
@require_POST
def tournament_ranking_list(request: HttpRequest, tournament_id: int) -> HttpResponse:
    _club_event(tournament_id)

    def apply() -> str:
        applied = tournament_ranking_list_apply(user=request.user, tournament_id=tournament_id, text=_text_of(request))
        added = ngettext("%(count)s player added", "%(count)s players added", applied.added) % {"count": applied.added}
        return gettext("The ranking list seeds the event: %(added)s.") % {"added": added}

    return _done(request, f"/tournaments/{tournament_id}/", apply, tournament_id=tournament_id)


def _given_handicaps(request: HttpRequest) -> dict[int, str]:
    given: dict[int, str] = {}
    for key in request.POST:
        number = key.removeprefix(HANDICAP_FIELD)
        if key.startswith(HANDICAP_FIELD) and number.isascii() and number.isdigit() and len(number) < 12:
            given[int(number)] = request.POST.get(key, "")[:12]
    return given


@login_required
@require_POST
def tournament_handicaps(request: HttpRequest, tournament_id: int) -> HttpResponse:
    _club_event(tournament_id)

    def apply() -> str:
        if request.POST.get("from_club") == "1":
            tournament_handicaps_from_club(user=request.user, tournament_id=tournament_id)
            return gettext("The handicaps are taken from the club's list.")
        tournament_handicaps_set(user=request.user, tournament_id=tournament_id, given=_given_handicaps(request))
        return gettext("The handicaps are saved.")

    return _done(request, f"/tournaments/{tournament_id}/", apply, tournament_id=tournament_id)


@login_required
@require_POST
def club_handicap_list(request: HttpRequest, slug: str) -> HttpResponse:
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        raise Http404("No such club")

    def apply() -> Any:
        count = club_handicap_list_set(user=request.user, club_id=club.pk, text=_text_of(request))
        return ngettext("%(count)s handicap saved.", "%(count)s handicaps saved.", count) % {"count": count}

    return _done(request, f"/clubs/{club.slug}/players/", apply)


urlpatterns: list[URLPattern] = [
    path("tournaments/<int:tournament_id>/ranking-list/", tournament_ranking_list, name="tournament_ranking_list"),
    path("tournaments/<int:tournament_id>/handicaps/", tournament_handicaps, name="tournament_handicaps"),
    path("clubs/<slug:slug>/handicaps/", club_handicap_list, name="club_handicap_list"),
]
