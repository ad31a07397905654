"""The periods a club's ranking series rolls over by (the program's RankingSarjanTyyppi): a month,
a quarter (January-March, April-June, ...) or a half-year (January-June, July-December). An event
counts in the period of its start date on the club's clock. Pure dates: no zone, no database.

A period is named by a key that the series page's links carry: `2026-03` (a month), `2026-Q1` (a
quarter), `2026-H2` (a half-year). A key that is not one of the series' kind is no period.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass

from django.utils.formats import date_format
from django.utils.translation import gettext as _

#: How many months each kind of period spans.
MONTHS = {"month": 1, "quarter": 3, "half": 6}
_KEY = re.compile(r"^(\d{4})-(?:(\d{2})|Q([1-4])|H([12]))$")


@dataclass(frozen=True)
class Period:
    kind: str
    first: datetime.date  # the first day
    after: datetime.date  # the day after the last

    @property
    def key(self) -> str:
        year, month = self.first.year, self.first.month
        if self.kind == "month":
            return f"{year}-{month:02d}"
        if self.kind == "quarter":
            return f"{year}-Q{(month - 1) // 3 + 1}"
        return f"{year}-H{(month - 1) // 6 + 1}"

    @property
    def label(self) -> str:
        """The period in words: "March 2026", "Q1 2026 (January–March)", "first half of 2026"."""
        year = self.first.year
        if self.kind == "month":
            return date_format(self.first, "YEAR_MONTH_FORMAT")
        last = self.after - datetime.timedelta(days=1)
        months = f"{date_format(self.first, 'F')}–{date_format(last, 'F')}"
        if self.kind == "quarter":
            quarter = (self.first.month - 1) // 3 + 1
            return _("Quarter %(quarter)s of %(year)s (%(months)s)") % {
                "quarter": quarter,
                "year": year,
                "months": months,
            }
        if self.first.month == 1:
            return _("First half of %(year)s (%(months)s)") % {"year": year, "months": months}
        return _("Second half of %(year)s (%(months)s)") % {"year": year, "months": months}


def _month_after(year: int, month: int, months: int) -> datetime.date:
    index = year * 12 + (month - 1) + months
    return datetime.date(index // 12, index % 12 + 1, 1)


def period_of(day: datetime.date, kind: str) -> Period:
    """The period of `kind` that `day` is in."""
    span = MONTHS[kind]
    first_month = (day.month - 1) // span * span + 1
    return Period(kind, datetime.date(day.year, first_month, 1), _month_after(day.year, first_month, span))


def period_from_key(key: str, kind: str) -> Period | None:
    """The period a key names, if it is one of `kind`; None for anything else."""
    found = _KEY.match(key or "")
    if found is None or kind not in MONTHS:
        return None
    year, month, quarter, half = found.groups()
    if kind == "month" and month is not None and 1 <= int(month) <= 12:
        return period_of(datetime.date(int(year), int(month), 1), kind)
    if kind == "quarter" and quarter is not None:
        return period_of(datetime.date(int(year), (int(quarter) - 1) * 3 + 1, 1), kind)
    if kind == "half" and half is not None:
        return period_of(datetime.date(int(year), (int(half) - 1) * 6 + 1, 1), kind)
    return None
