"""Tournament pages: a club admin's form, the tournament page (entries, standings, rounds,
the bracket), the live page of the current round, and the POST actions (enter, withdraw, close the
entries, swap a pairing, fix a result).

Thin: reads through game.tournaments.selectors.tournaments, writes through game.tournaments.services. A refused
action redirects back with the service's message (403 when this user may not do it at all); nothing
has changed either way. After a write the tournament's pages are told (realtime.tournament_publish_sync).
"""

from __future__ import annotations

import datetime
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import URLPattern, path
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from game.common.clock import game_now
from game.common.forms import WholeNumberField
from game.matches.clock_presets import KAISA_RULES, NO_LIMIT, EventClockError, event_clock_make
from game.matches.forms import EventClockForm
from game.models import Club
from game.models.tournaments import Tournament, TournamentPairing
from game.realtime import fanout as realtime
from game.tournaments import services
from game.tournaments.pairing.double_loss_state import JOIN_ROUNDS
from game.tournaments.selectors import tournaments as selectors
from game.tournaments.selectors.bracket import bracket_layout
from game.tournaments.selectors.club import tables_view, walk_ins
from game.tournaments.selectors.draw import file_late_entrants, late_entries_open
from game.tournaments.selectors.fixes import fix_log
from game.tournaments.selectors.team_games import team_players
from game.tournaments.selectors.venues import venues_view
from game.tournaments.services.base import is_manager
from game.tournaments.values import number_of
from game.tournaments.visibility import require_visible

T = "game/tournaments/"


class TournamentForm(EventClockForm):
    """Shapes only; the service decides what is allowed (its messages come back as form errors). The
    clock and target fields are the match form's (EventClockForm), the Kaisa rules preselected."""

    DEFAULT_CLOCK = KAISA_RULES.key

    name = forms.CharField(max_length=80, min_length=3, label=_("Name"))
    format = forms.ChoiceField(choices=Tournament.Format.choices, label=_("Format"))
    knockout_from = WholeNumberField(
        required=False,
        label=_("Knockout from round"),
        help_text=_("Double-loss draw, then knockout: from this round on (2 to 6) one loss is out"),
    )
    kind = forms.ChoiceField(
        choices=Tournament.Kind.choices,
        label=_("Singles, pairs or teams"),
        help_text=_("Pairs: at the club, the director enters each pair as two names joined by &"),
    )
    category = forms.ChoiceField(
        required=False, choices=Tournament.Category.choices, initial=Tournament.Category.GENERAL, label=_("Category")
    )
    team_size = WholeNumberField(min_value=2, max_value=4, required=False, label=_("Players per team"))
    rated = forms.BooleanField(required=False, initial=True, label=_("Rated"))
    max_entries = WholeNumberField(min_value=2, max_value=64, initial=16, label=_("Most entries"))
    tables = WholeNumberField(
        required=False,
        min_value=1,
        max_value=32,
        label=_("Played at the club on tables"),
        help_text=_("At the club: the number of real tables (1 to 32); the director enters the results. Empty: online"),
    )
    players_enter_results = forms.BooleanField(
        required=False, label=_("The two players may enter their game's result too")
    )
    late_entries = forms.BooleanField(
        required=False,
        label=_("Late entries: players who come after the draw has begun are drawn in"),
        help_text=_("At the club, double loss: until a game of round 2 begins, as KaisaKaavio's two-stage draw."),
    )
    starts_at = forms.DateTimeField(
        label=_("Start time"), widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["clock"].initial = KAISA_RULES.key
        self.order_fields(["name", "format", "kind", "category", "team_size", "rated", "max_entries", "starts_at"])


def next_quarter_hour(now: float, zone: datetime.tzinfo) -> datetime.datetime:
    """The first quarter hour from `now` (epoch seconds) on, in `zone`: a new event's default start
    (every zone's offset is whole quarter hours, so the quarters of UTC are the zone's)."""
    quarter = 15 * 60
    return datetime.datetime.fromtimestamp(-(-int(now) // quarter) * quarter, tz=zone)


def refusal_words(error: services.TournamentError) -> str:
    """A refusal in the reader's language: the service marks its words (gettext_noop) and this page
    translates them, as game/matches/forms.py does for the match services (docs/i18n.md)."""
    return error.words(gettext)


def _club_or_404(slug: str) -> Club:
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        raise Http404("No such club")
    return club


def _tournament_or_404(tournament_id: int, request: HttpRequest) -> Tournament:
    """The event, if this visitor may see it (game/tournaments/visibility.py); else not found."""
    tournament = Tournament.objects.select_related("club", "winner").filter(pk=tournament_id).first()
    if tournament is None:
        raise Http404("No such tournament")
    require_visible(request, tournament)
    return tournament


@login_required
def tournament_new(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club_or_404(slug)
    if not is_manager(club_id=club.pk, user=request.user):
        message = _("Only the club's owner or an admin can create a tournament.")
        return render(
            request, "game/community/forbidden.html", {"message": message, "back": f"/clubs/{slug}/"}, status=403
        )
    # The club's time zone is the current one on its pages (game/clubs/time_zone.py): the field shows
    # and reads the club's wall clock.
    form = TournamentForm(request.POST or None, initial={"starts_at": next_quarter_hour(game_now(), club.zone)})
    form.fields["starts_at"].help_text = _("The club's time (%(zone)s)") % {"zone": club.time_zone}
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            # No preset: no time limit, or the minutes given with the Kaisa rules' other numbers.
            clock = data["clock"] or event_clock_make(preset=NO_LIMIT, game_minutes=data["time_limit"])
        except EventClockError as error:
            for words, params in error.problems:
                form.add_error(None, gettext(words) % params if params else gettext(words))
            return render(request, T + "form.html", {"form": form, "club": club}, status=400)
        try:
            tournament = services.tournament_create(
                user=request.user,
                club=club,
                name=data["name"],
                format=data["format"],
                kind=data["kind"],
                category=data["category"] or Tournament.Category.GENERAL,
                team_size=data["team_size"] or 1,
                rated=data["rated"],
                clock=clock,
                max_entries=data["max_entries"],
                starts_at=data["starts_at"],
                knockout_from=data["knockout_from"],
                tables=data["tables"],
                players_enter_results=data["players_enter_results"],
                late_entries=data["late_entries"],
            )
        except services.TournamentError as error:
            form.add_error(None, refusal_words(error))
        else:
            messages.success(request, _("The tournament is announced: members can enter now."))
            return redirect("tournament", tournament_id=tournament.pk)
    status = 400 if form.errors else 200
    return render(request, T + "form.html", {"form": form, "club": club}, status=status)


def _page_context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    manager = is_manager(club_id=tournament.club_id, user=request.user)
    rounds = selectors.rounds(tournament=tournament)
    draw = selectors.draw_view(tournament=tournament)
    return {
        "tournament": tournament,
        "summary": selectors.tournament_summary(tournament=tournament),
        "entries": selectors.entries_in_seed_order(tournament=tournament),
        "team_players": team_players(tournament=tournament),
        "rated_entries": selectors.rated_entries(tournament=tournament),
        "standings": selectors.standings(tournament=tournament),
        "rounds": rounds,
        "current": None if draw is not None else selectors.current_round(tournament=tournament),
        "draw": draw,
        "tables": tables_view(tournament=tournament),
        "bracket": bracket_layout(tournament=tournament),
        "swiss": tournament.format == Tournament.Format.SWISS,
        "can_manage": manager,
        "my_entry": selectors.entry_of_user(tournament=tournament, user=request.user),
        "teammate_choices": selectors.teammate_choices(tournament=tournament, user=request.user),
        "teammate_places": list(range(2, tournament.team_size + 1)),
        "fixes": fix_log(tournament=tournament) if manager else [],
        "editable_round": bool(rounds) and rounds[-1]["status"] == "paired",
        "walk_ins": walk_ins(tournament=tournament) if manager else [],
        "late_open": manager and late_entries_open(tournament),
        "file_late": file_late_entrants(tournament=tournament),
        "venues": venues_view(tournament=tournament),
        "join_rounds": range(JOIN_ROUNDS[0], JOIN_ROUNDS[1] + 1),
    }


def tournament(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament_or_404(tournament_id, request)
    return render(request, T + "tournament.html", _page_context(request, tournament))


def tournament_live(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament_or_404(tournament_id, request)
    return render(request, T + "live.html", _page_context(request, tournament))


def tournament_parts(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The parts of the pages that change (standings, rounds, the live round), fetched by the pages'
    script when the tournament socket says so."""
    tournament = _tournament_or_404(tournament_id, request)
    return render(request, T + "_parts.html", _page_context(request, tournament))


def _act(request: HttpRequest, tournament_id: int, action: Any, success: str) -> HttpResponse:
    hidden = Tournament.objects.select_related("club").filter(pk=tournament_id).first()
    if hidden is not None:
        require_visible(request, hidden)
    try:
        action()
    except services.TournamentError as error:
        if error.forbidden:
            return render(
                request,
                "game/community/forbidden.html",
                {"message": refusal_words(error), "back": f"/tournaments/{tournament_id}/"},
                status=403,
            )
        messages.error(request, refusal_words(error))
    else:
        messages.success(request, success)
        realtime.tournament_publish_sync(tournament_id)
    return redirect("tournament", tournament_id=tournament_id)


def _teammates(values: list[str]) -> list[Any]:
    """The team-mates the entry form names (users' ids, in playing order); anything that names no
    user is passed on as it is, for the service to refuse with its message."""
    User = get_user_model()
    named: list[Any] = []
    for value in values:
        user = User.objects.filter(pk=int(value)).first() if value.isdigit() and len(value) < 16 else None
        named.append(user if user is not None else value)
    return named


@login_required
@require_POST
def tournament_enter(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _act(
        request,
        tournament_id,
        lambda: services.tournament_enter(
            user=request.user, tournament_id=tournament_id, teammates=_teammates(request.POST.getlist("teammate"))
        ),
        str(_("You are in.")),
    )


@login_required
@require_POST
def tournament_withdraw(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _act(
        request,
        tournament_id,
        lambda: services.tournament_withdraw(user=request.user, tournament_id=tournament_id),
        str(_("Your entry is withdrawn.")),
    )


@login_required
@require_POST
def tournament_close(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _act(
        request,
        tournament_id,
        lambda: services.tournament_close_entries(user=request.user, tournament_id=tournament_id),
        str(_("Entries closed and round 1 paired.")),
    )


@login_required
@require_POST
def tournament_start(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Start now (the event page's button, or the director's tables page, which it goes back to)."""
    response = _act(
        request,
        tournament_id,
        lambda: services.tournament_start_now(user=request.user, tournament_id=tournament_id),
        str(_("The tournament has started.")),
    )
    if request.POST.get("back") == "tables" and response.status_code == 302:
        return redirect("tournament_tables", tournament_id=tournament_id)
    return response


def _int(value: Any) -> int | None:
    """An id the page sent, read as every number of an event is (game/tournaments/values.py)."""
    try:
        return number_of(value if isinstance(value, str) else None, field="")
    except services.TournamentError:
        return None


@login_required
@require_POST
def tournament_swap(request: HttpRequest, tournament_id: int) -> HttpResponse:
    a, b = _int(request.POST.get("entry_a")), _int(request.POST.get("entry_b"))
    return _act(
        request,
        tournament_id,
        lambda: services.tournament_pairing_swap(
            user=request.user, tournament_id=tournament_id, entry_a=a or 0, entry_b=b or 0
        ),
        str(_("The two entries swapped places.")),
    )


@login_required
@require_POST
def tournament_fix(request: HttpRequest, tournament_id: int, pairing_id: int) -> HttpResponse:
    if not TournamentPairing.objects.filter(pk=pairing_id, tournament_id=tournament_id).exists():
        raise Http404("No such pairing")
    winner = request.POST.get("winner", "")
    winner_id = None if winner == "draw" else _int(winner) or -1
    return _act(
        request,
        tournament_id,
        lambda: services.tournament_result_fix(
            user=request.user, pairing_id=pairing_id, winner_entry_id=winner_id, reason=request.POST.get("reason", "")
        ),
        str(_("The result is fixed; the reason is kept.")),
    )


urlpatterns: list[URLPattern] = [
    path("clubs/<slug:slug>/tournaments/new/", tournament_new, name="tournament_new"),
    path("tournaments/<int:tournament_id>/", tournament, name="tournament"),
    path("tournaments/<int:tournament_id>/live/", tournament_live, name="tournament_live"),
    path("tournaments/<int:tournament_id>/parts/", tournament_parts, name="tournament_parts"),
    path("tournaments/<int:tournament_id>/enter/", tournament_enter, name="tournament_enter"),
    path("tournaments/<int:tournament_id>/withdraw/", tournament_withdraw, name="tournament_withdraw"),
    path("tournaments/<int:tournament_id>/close/", tournament_close, name="tournament_close"),
    path("tournaments/<int:tournament_id>/start/", tournament_start, name="tournament_start"),
    path("tournaments/<int:tournament_id>/swap/", tournament_swap, name="tournament_swap"),
    path("tournaments/<int:tournament_id>/pairings/<int:pairing_id>/fix/", tournament_fix, name="tournament_fix"),
]
