"""A club's ranking series pages: an owner or admin defines a series or edits it (its name,
its season, its points by placing, the club's tournaments it lists). The tables themselves are shown
on the club page (game/templates/game/community/_series.html).

Thin views: the form checks the shape (a date is a date, the points are whole numbers), the service
(`game.clubs.services.series_create` / `series_update`) the rules (non-negative, non-increasing
points; only the club's own tournaments); a refused form is shown again with its errors and nothing
is stored.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import URLPattern, path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from game.clubs import selectors as club_selectors
from game.clubs import services as club_services
from game.common.forms import form_errors_add
from game.models import Club, RankingSeries, Tournament
from game.models.series import PERIOD_CHOICES

T = "game/community/"
#: The table a new series starts with: a weekly event's usual scoring (25, 20, 16, 13, 11, 10, ...).
#: The form's bonus fields, for beating the players ranked 1st, 2nd, 3rd.
BONUS_FIELDS = ("bonus_first", "bonus_second", "bonus_third")
DEFAULT_POINTS = "25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1"


class PointsField(forms.CharField):
    """Points by placing written as whole numbers, separated by commas or spaces: `25, 20, 16`."""

    def to_python(self, value: Any) -> list[int]:  # type: ignore[override]
        text = super().to_python(value) or ""
        parts = [p for p in text.replace(",", " ").replace(";", " ").split() if p]
        try:
            return [int(p) for p in parts]
        except ValueError:
            raise ValidationError(
                _("Write the points as whole numbers separated by commas, best placing first: 25, 20, 16.")
            ) from None


class SeriesForm(forms.Form):
    name = forms.CharField(max_length=80, min_length=3, label=gettext_lazy("Name"))
    starts_on = forms.DateField(
        required=False,
        label=gettext_lazy("Season starts"),
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=gettext_lazy("The club's tournaments that start within the season count (both days included)."),
    )
    ends_on = forms.DateField(
        required=False, label=gettext_lazy("Season ends"), widget=forms.DateInput(attrs={"type": "date"})
    )
    points = PointsField(
        max_length=600,
        label=gettext_lazy("Points by placing"),
        help_text=gettext_lazy("Best placing first, never more than the placing before: 25, 20, 16, 13, 11, 10."),
    )
    period = forms.ChoiceField(
        required=False,
        choices=PERIOD_CHOICES,
        label=gettext_lazy("The series rolls over"),
        help_text=gettext_lazy("Each event counts in the period of its start date; earlier periods stay on the page."),
    )
    bonus_first = forms.IntegerField(
        required=False, min_value=0, max_value=1000, label=gettext_lazy("Bonus for beating the player ranked 1st")
    )
    bonus_second = forms.IntegerField(
        required=False, min_value=0, max_value=1000, label=gettext_lazy("Bonus for beating the player ranked 2nd")
    )
    bonus_third = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=1000,
        label=gettext_lazy("Bonus for beating the player ranked 3rd"),
        help_text=gettext_lazy(
            "Points for each game won against a player ranked 1st to 3rd in the series before the event "
            "(among the event's players); 0 or empty: none."
        ),
    )
    category = forms.ChoiceField(
        required=False,
        choices=[("", gettext_lazy("Every category")), *Tournament.Category.choices],
        label=gettext_lazy("Category"),
        help_text=gettext_lazy("Only the club's events of this category count in the series."),
    )
    tournaments = forms.TypedMultipleChoiceField(
        coerce=int,
        required=False,
        label=gettext_lazy("Tournaments in the series"),
        help_text=gettext_lazy("Besides those of the season; only finished tournaments score."),
        widget=forms.CheckboxSelectMultiple,
        error_messages={"invalid_choice": gettext_lazy("A series counts only this club's own tournaments.")},
    )

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = Tournament.objects.filter(club=club).order_by("-starts_at", "-id").values_list("pk", "name")
        self.fields["tournaments"].choices = [(pk, name) for pk, name in choices]  # type: ignore[attr-defined]


def _club_or_404(slug: str) -> Club:
    club = club_selectors.club_get(slug=slug)
    if club is None:
        raise Http404(_("No such club"))
    return club


def _forbidden(request: HttpRequest, club: Club) -> HttpResponse:
    message = _("Only the club's owner or an admin can do that.")
    back = reverse("club", kwargs={"slug": club.slug})
    return render(request, T + "forbidden.html", {"message": message, "back": back}, status=403)


def _series_form_page(
    request: HttpRequest, club: Club, series: RankingSeries | None, initial: dict[str, Any]
) -> HttpResponse:
    membership = club_selectors.club_membership(club=club, user=request.user)
    if not club_selectors.club_can_manage(membership=membership):
        return _forbidden(request, club)
    form = SeriesForm(request.POST or None, initial=initial, club=club)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        fields = {
            "name": data["name"],
            "starts_on": data["starts_on"],
            "ends_on": data["ends_on"],
            "points": data["points"],
            "tournament_ids": data["tournaments"],
            "period": data["period"] or "",
            "bonus": [data[f] or 0 for f in BONUS_FIELDS],
            "category": data["category"],
        }
        try:
            if series is None:
                series = club_services.series_create(club=club, user=request.user, **fields)
            else:
                series = club_services.series_update(series=series, user=request.user, **fields)
        except club_services.ClubPermissionError:
            return _forbidden(request, club)
        except ValidationError as error:
            form_errors_add(form, error)
        else:
            messages.success(request, _("Series saved: %(name)s.") % {"name": series.name})
            return redirect(reverse("club", kwargs={"slug": club.slug}) + "#series")
    return render(
        request,
        T + "series_form.html",
        {"form": form, "club": club, "series": series},
        status=400 if form.errors else 200,
    )


@login_required
def series_new(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club_or_404(slug)
    return _series_form_page(request, club, None, {"points": DEFAULT_POINTS})


@login_required
def series_edit(request: HttpRequest, slug: str, series_id: int) -> HttpResponse:
    club = _club_or_404(slug)
    series = club_selectors.series_of_club(club=club, series_id=series_id)
    if series is None:
        raise Http404(_("No such series"))
    initial = {
        "name": series.name,
        "starts_on": series.starts_on,
        "ends_on": series.ends_on,
        "points": ", ".join(str(p) for p in series.points),
        "tournaments": list(series.events.values_list("tournament_id", flat=True)),
        "period": series.period,
        **{f: (series.bonus[i] if i < len(series.bonus) else 0) for i, f in enumerate(BONUS_FIELDS)},
        "category": series.category,
    }
    return _series_form_page(request, club, series, initial)


urlpatterns: list[URLPattern] = [
    path("clubs/<slug:slug>/series/new/", series_new, name="club_series_new"),
    path("clubs/<slug:slug>/series/<int:series_id>/edit/", series_edit, name="club_series_edit"),
]
