"""An event's clock and target (K-11): game time, the warning before it ends, the
extra visits, the shoot-out visits and the target score, and the three presets clubs choose from.

The one home of these numbers outside the engine: the tournament and match forms offer the presets
and the ranges below, the services check an `EventClock` here before anything is written, and the
match is created with `EventClock.ruleset()` as its `ruleset` JSON, which the engine's K-11 phases
read (`Ruleset.time_limit`, `time_warning`, `extra_visits_each`, `shootout_visits`, `target_score`).
The "Kaisa rules" preset is the engine's own `Ruleset()` defaults, so K-11's numbers stay written
once, in game/engine/rules/ruleset.py.

The two club presets come from how Finnish clubs run their events (KaisaKaavio's event
files carry only `PeliAika`, the game time in minutes, `RankkareidenMaara`, the penalty visits, and
`TavoitePistemaara`, the target):

- "Ranking event (60 min, shoot-out 5)": ranking and championship events play 60 minutes, then 5
  shoot-out visits each; "Weekly event (40 min, shoot-out 3)": 40 minutes, then 3.
- Their game time is the whole limit: no "+ 5" after it and **no extra visits** (0). The issue and the
  files give a club event's clock as game time and penalty visits only; K-11.1's two extra visits come
  with its 60 + 5 rule, not with these. The limit is still acted on at the end of a round (K-11.1:
  white2's visit ends it), so both players have had as many visits when the shoot-out begins.
- The warning comes **5 minutes before the end**, K-11.1's own lead (at 60 of 65): a club player is
  told the time is running out as a K-11 player is, and nothing in the issue asks for another lead.
- The target stays 60 (K-9.1; every sample file has `TavoitePistemaara` 60); it is a setting of the
  event like the rest.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeGuard

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy, gettext_noop

from game.engine.rules.ruleset import Ruleset

#: The ranges a club may set (inclusive). Minutes of game time: as the match services' limit allows.
GAME_MINUTES = (1, 240)
WARNING_MINUTES = (0, 30)
EXTRA_VISITS = (0, 5)
SHOOTOUT_VISITS = (1, 20)
TARGET_SCORE = (20, 200)

#: The preset key of a match or an event without a time limit (the target still applies).
NO_LIMIT = "none"

_DEFAULT = Ruleset()


@dataclass(frozen=True)
class EventClock:
    """An event's K-11 settings as a club gives them: whole minutes and visits.

    `game_minutes` None: no time limit (then the warning, extra and shoot-out visits are not used)."""

    game_minutes: int | None
    warning_minutes: int
    extra_visits: int
    shootout_visits: int
    target_score: int

    @property
    def time_limit(self) -> int | None:
        """The K-11.1 limit in seconds, as `Match.time_limit` and `Tournament.time_limit` store it."""
        return None if self.game_minutes is None else self.game_minutes * 60

    def ruleset(self) -> dict[str, Any]:
        """The match's `ruleset` JSON: only what differs from `Ruleset()` (an unchanged K-11 match
        stores what it always stored). The K-9.2 score from which a plain white passes follows the
        target (59 for 60)."""
        values: dict[str, Any] = {
            "target_score": self.target_score,
            "plain_white_pass_score": self.target_score - 1,
            "extra_visits_each": self.extra_visits,
            "shootout_visits": self.shootout_visits,
        }
        if self.game_minutes is not None:
            values["time_limit"] = float(self.game_minutes * 60)
            values["time_warning"] = float((self.game_minutes - self.warning_minutes) * 60)
        return {key: value for key, value in values.items() if getattr(_DEFAULT, key) != value}


@dataclass(frozen=True)
class ClockPreset:
    key: str
    label: Promise
    clock: EventClock


KAISA_RULES = ClockPreset(
    "kaisa_rules",
    gettext_lazy("Kaisa rules (60 + 5 min, shoot-out 10)"),
    EventClock(
        game_minutes=int(_DEFAULT.time_limit // 60),
        warning_minutes=int((_DEFAULT.time_limit - _DEFAULT.time_warning) // 60),
        extra_visits=_DEFAULT.extra_visits_each,
        shootout_visits=_DEFAULT.shootout_visits,
        target_score=_DEFAULT.target_score,
    ),
)
RANKING_EVENT = ClockPreset(
    "ranking_event",
    gettext_lazy("Ranking event (60 min, shoot-out 5)"),
    EventClock(
        game_minutes=60, warning_minutes=5, extra_visits=0, shootout_visits=5, target_score=_DEFAULT.target_score
    ),
)
WEEKLY_EVENT = ClockPreset(
    "weekly_event",
    gettext_lazy("Weekly event (40 min, shoot-out 3)"),
    EventClock(
        game_minutes=40, warning_minutes=5, extra_visits=0, shootout_visits=3, target_score=_DEFAULT.target_score
    ),
)
#: The presets by key, in the order the forms offer them (the first is the default).
PRESETS: dict[str, ClockPreset] = {p.key: p for p in (KAISA_RULES, RANKING_EVENT, WEEKLY_EVENT)}


def preset_choices(*, with_no_limit: bool) -> list[tuple[str, str | Promise]]:
    """The forms' choices: the presets, and "no time limit" where a match may have none."""
    choices: list[tuple[str, str | Promise]] = [(p.key, p.label) for p in PRESETS.values()]
    if with_no_limit:
        choices.append((NO_LIMIT, gettext_lazy("No time limit")))
    return choices


class EventClockError(ValueError):
    """Settings out of range: every problem as (words marked with gettext_noop, their placeholders)."""

    def __init__(self, problems: list[tuple[str, dict[str, object]]]) -> None:
        self.problems = problems
        super().__init__("; ".join(words % params for words, params in problems))


def _whole(value: object) -> TypeGuard[int]:
    """A whole number, not a bool (True is an int to Python, never a number of minutes to a form)."""
    return isinstance(value, int) and not isinstance(value, bool)


def event_clock_problems(clock: EventClock) -> list[tuple[str, dict[str, object]]]:
    """What is wrong with `clock`, in the words a form shows (empty: nothing). A setting out of range
    also names itself and its value in the placeholders (`setting`, `value`), so a caller that shows
    the settings under other names (a KaisaKaavio file's tags) can say which one and what it was."""
    problems: list[tuple[str, dict[str, object]]] = []

    def check(setting: str, bounds: tuple[int, int], words: str) -> bool:
        value = getattr(clock, setting)
        if not _whole(value) or not bounds[0] <= value <= bounds[1]:
            problems.append((words, {"least": bounds[0], "most": bounds[1], "setting": setting, "value": value}))
            return False
        return True

    if clock.game_minutes is not None:
        minutes_ok = check("game_minutes", GAME_MINUTES, gettext_noop("the game time is %(least)s to %(most)s minutes"))
        warning_ok = check(
            "warning_minutes",
            WARNING_MINUTES,
            gettext_noop("the warning comes %(least)s to %(most)s minutes before the end"),
        )
        if minutes_ok and warning_ok and clock.warning_minutes >= clock.game_minutes:
            problems.append((gettext_noop("the warning must come after the game has begun"), {}))
        check("extra_visits", EXTRA_VISITS, gettext_noop("each player gets %(least)s to %(most)s extra visits"))
        check("shootout_visits", SHOOTOUT_VISITS, gettext_noop("the shoot-out is %(least)s to %(most)s visits each"))
    check("target_score", TARGET_SCORE, gettext_noop("the target is %(least)s to %(most)s points"))
    return problems


def event_clock_check(clock: EventClock) -> EventClock:
    """`clock` if every setting is in range; EventClockError with every problem otherwise."""
    problems = event_clock_problems(clock)
    if problems:
        raise EventClockError(problems)
    return clock


def event_clock_make(
    *,
    preset: str,
    game_minutes: int | None = None,
    warning_minutes: int | None = None,
    extra_visits: int | None = None,
    shootout_visits: int | None = None,
    target_score: int | None = None,
) -> EventClock:
    """The clock a form asks for: the preset's numbers, each one given replacing the preset's
    (`preset` NO_LIMIT: no time limit, the Kaisa rules' other numbers). Checked: EventClockError."""
    if preset == NO_LIMIT:
        base = dataclasses.replace(KAISA_RULES.clock, game_minutes=None)
        if game_minutes is not None:
            base = KAISA_RULES.clock  # minutes given without a preset: the Kaisa rules with those minutes
    elif preset in PRESETS:
        base = PRESETS[preset].clock
    else:
        raise EventClockError([(gettext_noop("choose a clock"), {})])
    given = {
        "game_minutes": game_minutes,
        "warning_minutes": warning_minutes,
        "extra_visits": extra_visits,
        "shootout_visits": shootout_visits,
        "target_score": target_score,
    }
    return event_clock_check(dataclasses.replace(base, **{k: v for k, v in given.items() if v is not None}))


def event_clock_of(*, ruleset: Mapping[str, Any] | None, time_limit: int | None) -> EventClock:
    """The clock a stored match or tournament was made with (its `ruleset` JSON and `time_limit`)."""
    rules = Ruleset.from_dict(dict(ruleset or {}))
    if time_limit is None:
        minutes: int | None = None
        warning = KAISA_RULES.clock.warning_minutes
    else:
        minutes = time_limit // 60
        warning = round((rules.time_limit - rules.time_warning) / 60)
    return EventClock(
        game_minutes=minutes,
        warning_minutes=warning,
        extra_visits=rules.extra_visits_each,
        shootout_visits=rules.shootout_visits,
        target_score=rules.target_score,
    )


def preset_of(clock: EventClock) -> ClockPreset | None:
    """The preset `clock` is, None when a club changed any of its numbers (or it has no limit)."""
    return next((p for p in PRESETS.values() if p.clock == clock), None)
