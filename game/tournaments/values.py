"""One check for each value an event's data takes, whichever way it comes in: a KaisaKaavio file (the
club page's upload and `manage.py kaisakaavio import`), the phone's result form, the director's
corrections and the event form. Checking a value's range is done here once, so a value one way
refuses is refused by every other (a target of 0, a score of -5, a round of 99999); a number is read
as every number a person types is (game.common.numbers: the digits 0 to 9).

A refusal is a TournamentError whose words name the field and the value as it was given (cut to a
few characters), in the reader's language where it is shown; nothing is stored before every value
has passed. A field's name is `Words` (words marked with gettext_noop and their placeholders, worded
when shown), so "game 3's points (Pisteet1)" is Finnish on a Finnish page and English in the log.
"""

from __future__ import annotations

import dataclasses
import datetime
import re
from collections.abc import Mapping

from django.utils.translation import gettext, gettext_noop

from game.common.numbers import NotAWholeNumber, shown, whole_number
from game.tournaments.refusal import TournamentError

#: Entries of any tournament, and the tables of an event at the club (a large hall has about 30).
ENTRIES_RANGE = (2, 64)
TABLES_RANGE = (1, 32)
#: A double-loss event of n players has at most 2n - 1 games (every game gives a loss, one player is
#: left with fewer than two), so no round nor any player's own round is beyond 2 x the most entries.
ROUNDS_RANGE = (1, 2 * ENTRIES_RANGE[1])
#: A score may pass the target by the last shot's points (a kaisa and reds together, K-9.1); no real
#: game goes 30 beyond it, so a score above target + 30 is a typing slip. A game's end score is never
#: below 0 here: KaisaKaavio writes a negative Kaisa score as 0, and the phone's form does the same.
SCORE_MARGIN = 30
#: The start of an event, as an instant: within these years it is a real event's, and it reads back
#: on SQLite and PostgreSQL in any club's time zone (PostgreSQL stores years past 9999 it cannot return).
STARTS_RANGE = (
    datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC),
    datetime.datetime(2100, 1, 1, tzinfo=datetime.UTC),
)


@dataclasses.dataclass(frozen=True)
class Words:
    """Words marked for translation (gettext_noop) with their placeholders, worded in the active
    language when they are shown: a field's name inside a refusal's sentence."""

    text: str
    params: Mapping[str, object] = dataclasses.field(default_factory=dict)

    def __str__(self) -> str:
        said = gettext(self.text)
        return said % dict(self.params) if self.params else said


@dataclasses.dataclass(frozen=True)
class Said:
    """A refusal as the value of another's placeholder ("the file is refused: <why>"), worded when shown."""

    error: TournamentError

    def __str__(self) -> str:
        return self.error.words(gettext)


def refuse(field: object, value: object, rule: str, params: Mapping[str, object] | None = None) -> TournamentError:
    """The refusal of `value` given for `field`: "<field> is '<value>': <rule>". `field` may be a
    function that names it, called only for a refusal (a file's reader names thousands of values)."""
    return TournamentError(
        "bad_value",
        gettext_noop("%(field)s is %(value)s: %(rule)s"),
        {"field": field() if callable(field) else field, "value": shown(value), "rule": Words(rule, params or {})},
    )


def number_of(text: str | None, *, field: object) -> int | None:
    """`text` as a whole number written with the digits 0-9 and an optional minus (None if blank), as
    every number a person types is read (game.common.numbers); refused naming `field` and the value."""
    try:
        return whole_number(text)
    except NotAWholeNumber as refused:
        raise refuse(field, refused.text, refused.rule, refused.params) from None


def bounded(value: int, *, field: object, bounds: tuple[int, int], rule: str) -> int:
    """`value` if it is within `bounds` (inclusive); `rule` names them with %(least)s and %(most)s."""
    if not bounds[0] <= value <= bounds[1]:
        raise refuse(field, value, rule, {"least": bounds[0], "most": bounds[1]})
    return value


def score_range(target: int) -> tuple[int, int]:
    return 0, target + SCORE_MARGIN


def score(value: int, *, field: object, target: int, least: int = 0) -> int:
    """A game's end score for an event whose target is `target` (the form's and the file's); a player
    whose game started at a handicap (`least`) ends at it or above."""
    bounds = (max(least, 0), target + SCORE_MARGIN)
    return bounded(value, field=field, bounds=bounds, rule=gettext_noop("a score is %(least)s to %(most)s"))


def run(value: int | None, *, field: object, target: int) -> int | None:
    """A player's run in a game (the points of one visit, KaisaKaavio's "pisimmät sarjat"): 1 to the
    game's highest score; None for none (blank, or 0, which the program counts as no run)."""
    if value is None or value == 0:
        return None
    return bounded(
        value, field=field, bounds=(1, score_range(target)[1]), rule=gettext_noop("a run is %(least)s to %(most)s")
    )


def round_number(value: int, *, field: object) -> int:
    return bounded(value, field=field, bounds=ROUNDS_RANGE, rule=gettext_noop("a round is %(least)s to %(most)s"))


def table(value: int, *, field: object, tables: int = TABLES_RANGE[1]) -> int:
    """A table of an event at the club played on `tables` tables."""
    bounds = (TABLES_RANGE[0], min(tables, TABLES_RANGE[1]))
    return bounded(value, field=field, bounds=bounds, rule=gettext_noop("a table is %(least)s to %(most)s"))


TABLES_FIELD = Words(gettext_noop("the number of tables"))


def tables(value: int, *, field: object = TABLES_FIELD) -> int:
    """The number of tables an event at the club is played on."""
    rule = gettext_noop("an event at the club has %(least)s to %(most)s tables")
    return bounded(value, field=field, bounds=TABLES_RANGE, rule=rule)


def start(moment: datetime.datetime, *, field: object, given: str) -> datetime.datetime:
    """An event's start as an instant (UTC) within STARTS_RANGE; `given` is the value as written.
    The time zone is applied before the check (`moment` is aware), so the instant stored is checked."""
    try:
        instant = moment.astimezone(datetime.UTC)
    except (OverflowError, ValueError):  # beyond Python's years 1..9999 once in UTC
        instant = None
    if instant is None or not STARTS_RANGE[0] <= instant < STARTS_RANGE[1]:
        rule = gettext_noop("an event starts from %(least)s to %(most)s")
        raise refuse(field, given, rule, {"least": STARTS_RANGE[0].year, "most": STARTS_RANGE[1].year - 1})
    return instant


#: A date as KaisaKaavio writes and reads one on every machine (its Tyypit/Aika.cs): `d.m.yyyy` or
#: `dd.mm.yyyy` (today's program), or ISO `yyyy-mm-dd`, alone or with a time and an offset (the
#: versions before 2025 wrote a date and time, `2024-12-10T00:00:00+02:00`). Only the day is read,
#: as the program reads it. A two-digit year or a slashed date is refused: only the program's last
#: resort (.NET's parse in the machine's language) reads one, and `1/2/2025` is a different day on
#: an English machine than on a Finnish one.
_DOTTED_DATE = re.compile(r"\s*([0-9]{1,2})\.([0-9]{1,2})\.([0-9]{4})\s*", re.ASCII)
_ISO_DATE = re.compile(
    r"\s*([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})"
    r"(?:[T ][0-9]{1,2}:[0-9]{2}(?::[0-9]{2}(?:[.,][0-9]+)?)?)?(?:Z|[+-][0-9]{2}(?::?[0-9]{2})?)?\s*",
    re.ASCII,
)
#: A time of day as the program reads one (AikaTunneiksiJaMinuuteiksi): hours and minutes split by
#: a colon or, as Finnish writes it, a full stop (`18:30`, `18.30`, `9.5`).
_TIME_OF_DAY = re.compile(r"\s*([0-9]{1,2})\s*[:.]\s*([0-9]{1,2})\s*", re.ASCII)
#: A game's clock time as the program stamps it (`Alkoi`, `Paattyi`: .NET's short time of the
#: machine's language): `18:30`, `18.30`, `6:30 PM`, or with seconds (`21:16:05.5`).
_CLOCK_TIME = re.compile(
    r"\s*([0-9]{1,2})([:.])([0-9]{1,2})(?:\2([0-9]{1,2}(?:[.,][0-9]+)?))?\s*(?:([ap])\.?\s*m\.?)?\s*",
    re.ASCII | re.IGNORECASE,
)
DATE_FORMS = gettext_noop("a date is written as 27.11.2026 or 2026-11-27")
NO_SUCH_DAY = gettext_noop("there is no such day in the calendar")
TIME_FORMS = gettext_noop("a time of day is written as 18:30 or 18.30")


def event_date(text: str, *, field: object) -> datetime.date:
    """The day `text` names in one of the forms KaisaKaavio reads on every machine (above)."""
    match = _DOTTED_DATE.fullmatch(text)
    if match is not None:
        day, month, year = (int(part) for part in match.groups())
    else:
        match = _ISO_DATE.fullmatch(text)
        if match is None:
            raise refuse(field, text.strip(), DATE_FORMS)
        year, month, day = (int(part) for part in match.groups())
    try:
        return datetime.date(year, month, day)
    except ValueError:
        raise refuse(field, text.strip(), NO_SUCH_DAY) from None


def time_of_day(text: str, *, field: object) -> datetime.time:
    """The time `text` names as hours and minutes (18:30 or 18.30, the program's two forms)."""
    match = _TIME_OF_DAY.fullmatch(text)
    if match is None or int(match[1]) > 23 or int(match[2]) > 59:
        raise refuse(field, text.strip(), TIME_FORMS)
    return datetime.time(int(match[1]), int(match[2]))


def clock_minutes(text: str) -> float | None:
    """A game's clock time (`18:30`, `18.30`, `6:30 PM`, `21:16:05.5`) as minutes after midnight;
    None if it is none. Only orders a file's results (kaisakaavio.replay), so nothing is refused."""
    match = _CLOCK_TIME.fullmatch(text)
    if match is None:
        return None
    hours, minutes = int(match[1]), int(match[3])
    seconds = float(match[4].replace(",", ".")) if match[4] else 0.0
    if match[5]:  # 12-hour clock: 12:05 AM is five past midnight, 12:05 PM five past noon
        if not 1 <= hours <= 12:
            return None
        hours = hours % 12 + (12 if match[5].lower() == "p" else 0)
    if hours > 23 or minutes > 59 or seconds >= 60:
        return None
    return hours * 60 + minutes + seconds / 60
