"""The pages of an event at the club: the director's phone page of the tables with
a result form for each game, the correction's warning step, walk-in entries and their link to an
account, the printable score sheets, and KaisaKaavio files in and out. The public page of the tables
is the tournament's live page (its parts show the tables, and follow the tournament socket without a
reload); the club's TV and wall chart are game/tournaments/screen_views.py.

Thin, as game/tournaments/views.py: forms are read here, every decision is the services' (a refusal
comes back as its words and nothing has changed); after a write the pages are told.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from game.accounts.selectors import account_named
from game.models import Club
from game.models.tournaments import (
    Tournament,
    TournamentBout,
    TournamentEntry,
    TournamentEntryMember,
    TournamentPairing,
)
from game.realtime import fanout as realtime
from game.tournaments.selectors import tournaments as selectors
from game.tournaments.selectors.club import score_sheets, tables_view
from game.tournaments.selectors.tournaments import tournament_summary
from game.tournaments.services import (
    TournamentError,
    tournament_delete,
    tournament_walk_in_enter,
    tournament_walk_in_link,
)
from game.tournaments.services.base import is_manager
from game.tournaments.services.club import (
    AT_TARGET,
    ON_TIME,
    SHOOTOUT,
    BoardResult,
    result_key_seen,
    tournament_result_correct,
    tournament_result_enter,
)
from game.tournaments.services.kaavio import DEFAULT_TABLES, MOST_BYTES, kaavio_export, kaavio_import
from game.tournaments.services.late_entries import tournament_late_enter
from game.tournaments.services.team_games import (
    tournament_bout_correct,
    tournament_bout_enter,
    tournament_bouts_draw_again,
)
from game.tournaments.services.venues import tournament_venues_set, venues_read
from game.tournaments.values import TABLES_FIELD, Words, number_of
from game.tournaments.views import refusal_words
from game.tournaments.visibility import require_visible

T = "game/tournaments/"
ENDED_CHOICES = ((AT_TARGET, _("Finished at the target")), (ON_TIME, _("On time")), (SHOOTOUT, _("In the shoot-out")))


def _club_event_or_404(tournament_id: int, request: HttpRequest) -> Tournament:
    """The event at the club, if this visitor may see it (game/tournaments/visibility.py)."""
    tournament = Tournament.objects.select_related("club").filter(pk=tournament_id, tables__isnull=False).first()
    if tournament is None:
        raise Http404("No such event at the club")
    require_visible(request, tournament)
    return tournament


def _forbidden(request: HttpRequest, message: Any, back: str) -> HttpResponse:
    return render(
        request,
        "game/community/forbidden.html",
        {"message": message, "back": back},
        status=403,
    )


def _may_see_tables(request: HttpRequest, tournament: Tournament) -> bool:
    """The director's page: the club's managers, and the entrants when they may enter results."""
    if is_manager(club_id=tournament.club_id, user=request.user):
        return True
    return (
        tournament.players_enter_results
        and TournamentEntryMember.objects.filter(tournament=tournament, user_id=int(request.user.pk or 0)).exists()
    )


def _tables_context(request: HttpRequest, tournament: Tournament, **extra: Any) -> dict[str, Any]:
    mine = set(
        TournamentEntryMember.objects.filter(tournament=tournament, user_id=int(request.user.pk or 0)).values_list(
            "entry_id", flat=True
        )
    )
    return {
        "tournament": tournament,
        "summary": tournament_summary(tournament=tournament),
        "view": tables_view(tournament=tournament),
        "can_manage": is_manager(club_id=tournament.club_id, user=request.user),
        "my_entries": mine,
        "ended_choices": ENDED_CHOICES,
        **extra,
    }


@login_required
def tournament_tables(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _club_event_or_404(tournament_id, request)
    if not _may_see_tables(request, tournament):
        return _forbidden(
            request, _("Only the director enters the results of this event."), f"/tournaments/{tournament_id}/"
        )
    return render(request, T + "tables.html", _tables_context(request, tournament))


def _number(value: str | None) -> int | None:
    """An id or a count the page sent (None: not one)."""
    try:
        return number_of(value, field="")
    except TournamentError:
        return None


def _result_of(request: HttpRequest, pairing: TournamentPairing) -> BoardResult:
    """The typed result; a score that is not a whole number is refused naming its player and what was
    typed (game/tournaments/values.py, as a KaisaKaavio file's points are read)."""
    scores = []
    for side, entry in (("first_score", pairing.first), ("second_score", pairing.second)):
        field = Words(gettext_noop("the score of %(name)s"), {"name": entry.name if entry else "?"})
        scores.append(number_of(request.POST.get(side), field=field))
    return BoardResult(
        first_score=scores[0],
        second_score=scores[1],
        ended=request.POST.get("ended", ""),
        shootout_winner=_number(request.POST.get("shootout_winner")),
    )


#: The header the tables page's script (static/game/js/pages/result_form.js) sends a result form with: it
#: is answered in JSON (stored or not, and the words), so the phone knows whether to keep the entry.
FETCHED = "X-Kaiza-Form"


def _answer(request: HttpRequest, page: HttpResponse, *, stored: bool, words: Any, status: int) -> HttpResponse:
    """The page for a form sent by the browser; for the script, whether the result is stored and why."""
    if request.headers.get(FETCHED) != "fetch":
        return page
    return JsonResponse({"stored": stored, "words": str(words)}, status=status)


@login_required
@require_POST
def tournament_result(request: HttpRequest, tournament_id: int, pairing_id: int) -> HttpResponse:
    """Enter a game's result, or correct an entered one. A correction that draws games again first
    shows the director which (the warning step); the form sent again with `confirm` does it. Each
    form carries a key (`entry_key`): sent again, a form whose result is stored is answered as
    stored and changes nothing (a phone that kept it while the wifi was down sends it once more)."""
    tournament = _club_event_or_404(tournament_id, request)
    pairing = (
        TournamentPairing.objects.filter(pk=pairing_id, tournament=tournament).select_related("first", "second").first()
    )
    if pairing is None:
        # A game a correction took out since the form was shown: the phone that kept it is told so.
        if request.headers.get(FETCHED) == "fetch":
            return JsonResponse({"stored": False, "words": gettext("there is no such game")}, status=404)
        raise Http404("No such game")
    correcting = pairing.status == TournamentPairing.Status.DONE
    ended = request.POST.get("ended", "")
    key = request.POST.get("entry_key", "")[:100]
    done_words = _("The result is corrected.") if correcting else _("The result is in.")
    try:
        if result_key_seen(key=key, pairing_id=pairing.pk):
            done_words = _("The result is in.")  # the first sending stored it; this one changes nothing
        elif correcting:
            tournament_result_correct(
                user=request.user,
                pairing_id=pairing.pk,
                result=_result_of(request, pairing),
                confirm=request.POST.get("confirm") == "1",
                reason=request.POST.get("reason", "")[:400],
                key=key,
            )
        else:
            tournament_result_enter(
                user=request.user, pairing_id=pairing.pk, result=_result_of(request, pairing), key=key
            )
    except TournamentError as error:
        words = refusal_words(error)
        if error.forbidden:
            return _answer(
                request,
                _forbidden(request, words, f"/tournaments/{tournament_id}/"),
                stored=False,
                words=words,
                status=403,
            )
        if error.code == "confirm_redraw":
            pending = {
                "pairing": pairing_id,
                "first_score": request.POST.get("first_score", ""),
                "second_score": request.POST.get("second_score", ""),
                "ended": ended,
                "shootout_winner": request.POST.get("shootout_winner", ""),
                "reason": request.POST.get("reason", "")[:300],
                "entry_key": key,
                # The warning, then each game drawn again with its result and whether it is kept.
                "warning": error.lines(gettext)[0],
                "games": error.lines(gettext)[1:],
            }
            page = render(request, T + "tables.html", _tables_context(request, tournament, confirm=pending))
            return _answer(request, page, stored=False, words=words, status=409)
        failed = {
            "pairing": pairing_id,
            "first_score": request.POST.get("first_score", "")[:24],
            "second_score": request.POST.get("second_score", "")[:24],
            "ended": ended,
            "shootout_winner": _number(request.POST.get("shootout_winner")),
            "error": words,
        }
        # The refusal beside the form it answers, with what was typed kept (on a phone of four
        # tables a message at the top is out of sight); 400: nothing was stored.
        page = render(request, T + "tables.html", _tables_context(request, tournament, failed=failed), status=400)
        return _answer(request, page, stored=False, words=words, status=400)
    messages.success(request, done_words)
    realtime.tournament_publish_sync(tournament_id)
    return _answer(
        request, redirect("tournament_tables", tournament_id=tournament_id), stored=True, words=done_words, status=200
    )


def _bout_result_of(request: HttpRequest, bout: TournamentBout) -> BoardResult:
    """A team game's game's typed result, each score named by its player (as :func:`_result_of`)."""
    scores = []
    for side, player in (("first_score", bout.first_player), ("second_score", bout.second_player)):
        field = Words(gettext_noop("the score of %(name)s"), {"name": player.name})
        scores.append(number_of(request.POST.get(side), field=field))
    return BoardResult(
        first_score=scores[0],
        second_score=scores[1],
        ended=request.POST.get("ended", ""),
        shootout_winner=_number(request.POST.get("shootout_winner")),
    )


@login_required
@require_POST
def tournament_bout_result(request: HttpRequest, tournament_id: int, bout_id: int) -> HttpResponse:
    """Enter or correct a game of a team game, as :func:`tournament_result` a game's: a correction
    that turns the team game and draws games again shows the warning step first."""
    tournament = _club_event_or_404(tournament_id, request)
    bout = (
        TournamentBout.objects.filter(pk=bout_id, pairing__tournament=tournament)
        .select_related("first_player", "second_player")
        .first()
    )
    if bout is None:
        if request.headers.get(FETCHED) == "fetch":
            return JsonResponse({"stored": False, "words": gettext("there is no such game")}, status=404)
        raise Http404("No such game")
    correcting = bout.winner_side is not None
    key = request.POST.get("entry_key", "")[:100]
    done_words = _("The result is corrected.") if correcting else _("The result is in.")
    try:
        if result_key_seen(key=key, pairing_id=bout.pairing_id):
            done_words = _("The result is in.")
        elif correcting:
            tournament_bout_correct(
                user=request.user,
                bout_id=bout.pk,
                result=_bout_result_of(request, bout),
                confirm=request.POST.get("confirm") == "1",
                reason=request.POST.get("reason", "")[:400],
            )
        else:
            tournament_bout_enter(user=request.user, bout_id=bout.pk, result=_bout_result_of(request, bout), key=key)
    except TournamentError as error:
        return _bout_refused(request, tournament, bout, error, key)
    messages.success(request, done_words)
    realtime.tournament_publish_sync(tournament_id)
    return _answer(
        request, redirect("tournament_tables", tournament_id=tournament_id), stored=True, words=done_words, status=200
    )


def _bout_refused(
    request: HttpRequest, tournament: Tournament, bout: TournamentBout, error: TournamentError, key: str
) -> HttpResponse:
    """The refusal beside the game's form (what was typed kept), or the correction's warning step."""
    words = refusal_words(error)
    if error.forbidden:
        page = _forbidden(request, words, f"/tournaments/{tournament.pk}/")
        return _answer(request, page, stored=False, words=words, status=403)
    typed = {
        "first_score": request.POST.get("first_score", "")[:24],
        "second_score": request.POST.get("second_score", "")[:24],
        "ended": request.POST.get("ended", ""),
    }
    if error.code == "confirm_redraw":
        pending = {
            **typed,
            "pairing": bout.pairing_id,
            "action": reverse("tournament_bout_result", args=(tournament.pk, bout.pk)),
            "shootout_winner": request.POST.get("shootout_winner", ""),
            "reason": request.POST.get("reason", "")[:300],
            "entry_key": key,
            "warning": error.lines(gettext)[0],
            "games": error.lines(gettext)[1:],
        }
        page = render(request, T + "tables.html", _tables_context(request, tournament, confirm=pending))
        return _answer(request, page, stored=False, words=words, status=409)
    failed = {**typed, "bout": bout.pk, "shootout_winner": _number(request.POST.get("shootout_winner")), "error": words}
    page = render(request, T + "tables.html", _tables_context(request, tournament, failed=failed), status=400)
    return _answer(request, page, stored=False, words=words, status=400)


@login_required
@require_POST
def tournament_bouts_again(request: HttpRequest, tournament_id: int, pairing_id: int) -> HttpResponse:
    """The director draws a team game's pairings again, until one of its games is played."""
    tournament = _club_event_or_404(tournament_id, request)
    try:
        tournament_bouts_draw_again(user=request.user, pairing_id=pairing_id)
    except TournamentError as error:
        if error.forbidden:
            return _forbidden(request, refusal_words(error), f"/tournaments/{tournament_id}/")
        messages.error(request, refusal_words(error))
    else:
        messages.success(request, _("The team game's pairings are drawn again."))
        realtime.tournament_publish_sync(tournament.pk)
    return redirect("tournament_tables", tournament_id=tournament_id)


def _act(request: HttpRequest, tournament_id: int, action: Any, success: Any) -> HttpResponse:
    try:
        action()
    except TournamentError as error:
        if error.forbidden:
            return _forbidden(request, refusal_words(error), f"/tournaments/{tournament_id}/")
        messages.error(request, refusal_words(error))
    else:
        messages.success(request, success)
        realtime.tournament_publish_sync(tournament_id)
    return redirect("tournament", tournament_id=tournament_id)


@login_required
@require_POST
def tournament_walk_in(request: HttpRequest, tournament_id: int) -> HttpResponse:
    _club_event_or_404(tournament_id, request)
    return _act(
        request,
        tournament_id,
        lambda: tournament_walk_in_enter(
            user=request.user, tournament_id=tournament_id, name=request.POST.get("name", "")[:200]
        ),
        _("The player is entered."),
    )


#: The late-entry form's text read at most (64 names of 80 characters, with their line ends).
LATE_NAMES_CHARACTERS = 64 * 82


@login_required
@require_POST
def tournament_late_entry(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The director enters the players who came after the draw began, a name a line: drawn in at once
    (all of them, or none with each bad line named)."""
    _club_event_or_404(tournament_id, request)
    names = request.POST.get("names", "")[:LATE_NAMES_CHARACTERS].splitlines()
    return _act(
        request,
        tournament_id,
        lambda: tournament_late_enter(user=request.user, tournament_id=tournament_id, names=names),
        _("The late entrants are drawn in."),
    )


@login_required
@require_POST
def tournament_venues(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The director sets the places of an event at the club: a line each, "name; short name;
    tables", the host's hall first, and the round the draws are joined at."""
    _club_event_or_404(tournament_id, request)
    lines = [line for line in request.POST.get("places", "")[:4000].splitlines() if line.strip()]
    join = _number(request.POST.get("join_round")) or 0
    return _act(
        request,
        tournament_id,
        lambda: tournament_venues_set(
            user=request.user, tournament_id=tournament_id, venues=venues_read(lines), join_round=join
        ),
        _("The places are saved."),
    )


@login_required
@require_POST
def tournament_walk_in_join(request: HttpRequest, tournament_id: int) -> HttpResponse:
    _club_event_or_404(tournament_id, request)
    entry = TournamentEntry.objects.filter(
        pk=_number(request.POST.get("entry")) or 0, tournament_id=tournament_id
    ).first()
    if entry is None:
        raise Http404("No such entry")
    account = account_named(named=request.POST.get("account", ""))
    return _act(
        request,
        tournament_id,
        lambda: tournament_walk_in_link(user=request.user, entry_id=entry.pk, account=account),
        _("The entry is joined to the account."),
    )


@login_required
def tournament_sheets(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The score sheets to print, one per game not yet ended (print CSS: one page each)."""
    tournament = _club_event_or_404(tournament_id, request)
    if not is_manager(club_id=tournament.club_id, user=request.user):
        return _forbidden(request, _("Only the director prints the score sheets."), f"/tournaments/{tournament_id}/")
    return render(request, T + "sheets.html", {"tournament": tournament, "sheets": score_sheets(tournament=tournament)})


#: The tags of a message the import's form shows beside itself (game/templates/game/tournaments/
#: _club_history.html); "beside-form" keeps it off the site's message list at the top of the page.
BESIDE_IMPORT = "beside-form kaavio-import"


@login_required
@require_POST
def club_kaisakaavio_import(request: HttpRequest, slug: str) -> HttpResponse:
    """A club admin uploads a KaisaKaavio file: the event is made (services/kaavio.py) and its page
    shown with the file's fields Kaiza did not keep; a refused file stores nothing and the club page
    says why."""
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        raise Http404("No such club")
    if not is_manager(club_id=club.pk, user=request.user):
        return _forbidden(request, _("Only the club's owner or an admin can import an event."), f"/clubs/{club.slug}/")
    upload = request.FILES.get("file")
    try:
        if upload is None:
            raise TournamentError("bad_file", gettext_noop("choose a KaisaKaavio file"))
        if upload.size is not None and upload.size > MOST_BYTES:
            raise TournamentError("bad_file", gettext_noop("the file is too large"))
        tables = number_of(request.POST.get("tables"), field=TABLES_FIELD)
        imported = kaavio_import(
            user=request.user,
            club=club,
            data=upload.read(MOST_BYTES + 1),
            tables=DEFAULT_TABLES if tables is None else tables,
        )
    except TournamentError as error:
        if error.forbidden:
            return _forbidden(request, refusal_words(error), f"/clubs/{club.slug}/")
        words: Any = refusal_words(error)
        if error.code == "already_imported":  # the words, and the way to the event that is there
            url = str(error.parts[0][1]["url"])
            words = format_html('{} <a href="{}">{}</a>', words, url, _("Open it"))
        # Said beside the upload's form, where the eye is: the club page scrolls to the form and the
        # site's message list at the top leaves it out (game/templates/game/base.html).
        messages.error(request, words, extra_tags=BESIDE_IMPORT)
        return redirect(f"/clubs/{club.slug}/#kaavio-import")
    messages.success(request, _("The event is imported."))
    if imported.ignored:
        messages.info(
            request,
            _("Not kept from the file (Kaiza has no place for them): %(fields)s")
            % {"fields": ", ".join(imported.ignored)},
        )
    return redirect("tournament", tournament_id=imported.tournament.pk)


@login_required
def tournament_kaavio_export(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """A club admin downloads a drawn event as a KaisaKaavio file (services/kaavio.py), from the club
    page or the event's: the program opens it, and Kaiza imports it back as it was. An event whose
    draw has not begun, or of another format, has no file: the event page says why."""
    tournament = Tournament.objects.select_related("club").filter(pk=tournament_id).first()
    if tournament is None:
        raise Http404("No such tournament")
    require_visible(request, tournament)
    if not is_manager(club_id=tournament.club_id, user=request.user):
        return _forbidden(
            request, _("Only the club's owner or an admin can export an event."), f"/tournaments/{tournament_id}/"
        )
    try:
        if tournament.status not in selectors.PLAYED:
            raise TournamentError("not_drawn", gettext_noop("the draw has not begun: there is nothing to export yet"))
        text = kaavio_export(tournament=tournament)
    except TournamentError as error:
        messages.error(request, refusal_words(error))
        return redirect("tournament", tournament_id=tournament_id)
    day = tournament.starts_at.astimezone(tournament.club.zone).date().isoformat()
    response = HttpResponse(text, content_type="application/xml; charset=utf-8")
    filename = f"{slugify(tournament.name) or 'kaisakaavio'}-{day}.xml"
    response["Content-Disposition"] = content_disposition_header(as_attachment=True, filename=filename) or ""
    return response


@login_required
def tournament_delete_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """A club admin deletes an event at the club (one imported by mistake): this page says what goes
    and what stays, and its form (POST) deletes it (services.tournament_delete). The event is read by
    the columns the page needs only, as the service reads it."""
    at_club = Tournament.objects.filter(pk=tournament_id, tables__isnull=False)
    tournament = at_club.only("pk", "name", "club_id", "tables").first()
    if tournament is None:
        raise Http404("No such event at the club")
    club = Club.objects.get(pk=tournament.club_id)
    if not is_manager(club_id=club.pk, user=request.user):
        message = _("Only the club's owner or an admin can delete an event.")
        return _forbidden(request, message, f"/tournaments/{tournament_id}/")
    if request.method == "POST":
        try:
            name = tournament_delete(user=request.user, tournament_id=tournament.pk)
        except TournamentError as error:
            if error.forbidden:
                return _forbidden(request, refusal_words(error), f"/clubs/{club.slug}/")
            messages.error(request, refusal_words(error))
            return redirect("tournament", tournament_id=tournament_id)
        messages.success(request, _("The event %(name)s is deleted.") % {"name": name})
        return redirect(f"/clubs/{club.slug}/#tournaments")
    counts = {
        "entries": TournamentEntry.objects.filter(tournament_id=tournament.pk).count(),
        "games": TournamentPairing.objects.filter(tournament_id=tournament.pk).count(),
    }
    return render(request, T + "delete.html", {"tournament": tournament, "club": club, **counts})


urlpatterns: list[URLPattern] = [
    path("clubs/<slug:slug>/kaisakaavio/", club_kaisakaavio_import, name="club_kaisakaavio_import"),
    path("tournaments/<int:tournament_id>/tables/", tournament_tables, name="tournament_tables"),
    path("tournaments/<int:tournament_id>/sheets/", tournament_sheets, name="tournament_sheets"),
    path("tournaments/<int:tournament_id>/delete/", tournament_delete_page, name="tournament_delete"),
    path("tournaments/<int:tournament_id>/kaisakaavio.xml", tournament_kaavio_export, name="tournament_kaavio_export"),
    path("tournaments/<int:tournament_id>/walk-in/", tournament_walk_in, name="tournament_walk_in"),
    path(
        "tournaments/<int:tournament_id>/bouts/<int:bout_id>/result/",
        tournament_bout_result,
        name="tournament_bout_result",
    ),
    path(
        "tournaments/<int:tournament_id>/pairings/<int:pairing_id>/draw-again/",
        tournament_bouts_again,
        name="tournament_bouts_draw_again",
    ),
    path("tournaments/<int:tournament_id>/late-entry/", tournament_late_entry, name="tournament_late_entry"),
    path("tournaments/<int:tournament_id>/venues/", tournament_venues, name="tournament_venues"),
    path("tournaments/<int:tournament_id>/walk-in/join/", tournament_walk_in_join, name="tournament_walk_in_join"),
    path(
        "tournaments/<int:tournament_id>/pairings/<int:pairing_id>/result/",
        tournament_result,
        name="tournament_result",
    ),
]
