"""The match forms and words other domains' pages share: a refused match action in the reader's
language, and an event's clock and target (the match and the tournament forms both use it).

The match pages themselves compose several domains (clubs, teams, the lobby, the chat) and live in
game/site/views/; these pieces depend on the match code alone, so any page may import them.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from game.common.forms import WholeNumberField
from game.matches.clock_presets import GAME_MINUTES, NO_LIMIT, EventClockError, event_clock_make, preset_choices
from game.matches.services import MatchError

__all__ = ["EventClockForm", "legacy_time_limit", "match_error_words"]


def match_error_words(error: MatchError) -> str:
    """A refused create, join or cancel in the reader's language: the service's own words, which it
    marks for translation (gettext_noop); a message it does not mark stays as it is. Names and numbers
    fill the translated words' placeholders."""
    words = _(error.template)
    return words % error.params if error.params else words


def _setting(**words: Any) -> WholeNumberField:
    """An optional whole number of the clock; `words`: its label and help text."""
    return WholeNumberField(required=False, **words)


class EventClockForm(forms.Form):
    """An event's clock and target (K-11), shared by the tournament and the match forms: a
    preset, and any of its numbers replaced. Each number is read as typed, digits 0 to 9
    (WholeNumberField); the ranges are checked once, by
    game/matches/clock_presets.py (its words become the form's errors); `cleaned_data["clock"]` is the
    EventClock, or None for a match with no preset but its minutes (the K-11 limit of old: the warning
    at the same share of it as 60 of 65)."""

    #: The clock of a form sent without one (a match: none; the tournament form: the Kaisa rules).
    DEFAULT_CLOCK = NO_LIMIT
    clock = forms.ChoiceField(
        choices=preset_choices(with_no_limit=True),
        required=False,
        initial=NO_LIMIT,
        label=gettext_lazy("Time limit"),
        help_text=gettext_lazy(
            "A game with a time limit ends on time and is then decided by extra and shoot-out visits, as club"
            " events play it. With no time limit the game goes on until someone reaches the target."
        ),
    )
    time_limit = _setting(
        label=gettext_lazy("Game time (minutes)"),
        help_text=gettext_lazy(
            "Leave it empty for the time limit's own (the Kaisa rules: 65 minutes, a warning 5 minutes before the"
            " end). With no time limit above, minutes here give the game a time limit of its own."
        ),
    )
    warning_minutes = _setting(
        label=gettext_lazy("Warning (minutes before the end)"),
        help_text=gettext_lazy("empty: as the time limit sets it"),
    )
    extra_visits = _setting(
        label=gettext_lazy("Extra visits each"), help_text=gettext_lazy("empty: as the time limit sets it")
    )
    shootout_visits = _setting(
        label=gettext_lazy("Shoot-out visits each"), help_text=gettext_lazy("empty: as the time limit sets it")
    )
    target_score = _setting(
        label=gettext_lazy("Target score"), help_text=gettext_lazy("empty: as the time limit sets it (60)")
    )

    SETTINGS = ("warning_minutes", "extra_visits", "shootout_visits", "target_score")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        given = {name: data.get(name) for name in self.SETTINGS}
        minutes = data.get("time_limit")
        data["clock"] = data.get("clock") or self.DEFAULT_CLOCK
        if data["clock"] == NO_LIMIT and all(v is None for v in given.values()):
            data["clock"] = None  # no preset: `time_limit` alone, or no limit at all
            if minutes is not None and not GAME_MINUTES[0] <= minutes <= GAME_MINUTES[1]:
                words = _("the game time is %(least)s to %(most)s minutes")
                self.add_error("time_limit", words % {"least": GAME_MINUTES[0], "most": GAME_MINUTES[1]})
            return data
        try:
            data["clock"] = event_clock_make(preset=data["clock"], game_minutes=minutes, **given)
        except EventClockError as error:
            for words, params in error.problems:
                self.add_error(None, _(words) % params if params else _(words))
        return data


def legacy_time_limit(data: dict[str, Any]) -> int | None:
    """The seconds of a form's limit given without a clock (`EventClockForm`), else None."""
    return data["time_limit"] * 60 if data["clock"] is None and data["time_limit"] else None
