"""A club's ranking series that rolls over (by month, quarter or half-year, as the clubs' program's
RankingSarjanTyyppi): each event counts in the period of its start date on the club's clock, the
club page shows the current period and links the earlier ones; and the bonus for beating the players
ranked 1st-3rd before the event (the program's RankingPisteetPelista). Real services throughout:
every game made by the match services and decided by a real resignation."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from django.utils import timezone

from game.clubs.selectors import series_table
from game.clubs.series_periods import period_from_key, period_of
from game.clubs.services import ClubError, series_create, series_update
from game.models import RankingSeries
from game.models.tournaments import Tournament
from tests.clubs.test_ranking_series import _by_rating, _club, _event, _play

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

UTC = datetime.UTC


def _rows(series: RankingSeries, period: str = "") -> list[tuple[int, str, int, int]]:
    """rank, name, events, points"""
    return [
        (r["rank"], r["name"], r["events"], r["points"]) for r in series_table(series=series, period_key=period)["rows"]
    ]


def _started(tournament: Tournament, when: datetime.datetime) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=when)


def test_series_periods_are_calendar_months_quarters_and_halves() -> None:
    day = datetime.date(2026, 8, 17)
    assert period_of(day, "month").key == "2026-08"
    assert (period_of(day, "quarter").first, period_of(day, "quarter").after) == (
        datetime.date(2026, 7, 1),
        datetime.date(2026, 10, 1),
    )
    assert period_of(datetime.date(2026, 12, 31), "quarter").after == datetime.date(2027, 1, 1)
    assert period_of(day, "half").key == "2026-H2"
    assert period_from_key("2026-Q3", "quarter") == period_of(day, "quarter")
    # a key of another kind, or no key at all, names no period of the series
    assert period_from_key("2026-08", "quarter") is None and period_from_key("2026-Q5", "quarter") is None
    assert period_from_key("<script>", "month") is None


def test_series_rolls_over_by_quarter(client: Any) -> None:
    """A quarterly series: three finished events, in the first quarter, at 01:30 on 1 April in
    Helsinki (22:30 UTC on 31 March: the second quarter on the club's clock) and in May. The first
    quarter's table has the first event alone, the second quarter's the other two; the page shows
    the current quarter (no events: an empty table) with links to the two earlier ones, in words."""
    club, owner, p = _club("Q", ("Aino", "Bertta"))
    club.time_zone = "Europe/Helsinki"
    club.save(update_fields=["time_zone"])
    january = _event(club, owner, [p["Aino"], p["Bertta"]], Tournament.Format.ROUND_ROBIN, "Winter 1")
    april = _event(club, owner, [p["Aino"], p["Bertta"]], Tournament.Format.ROUND_ROBIN, "Spring 1")
    may = _event(club, owner, [p["Aino"], p["Bertta"]], Tournament.Format.ROUND_ROBIN, "Spring 2")
    _play(january, owner, _by_rating)  # Aino wins
    _play(april, owner, lambda first, second: "BerttaQ")
    _play(may, owner, lambda first, second: "BerttaQ")
    _started(january, datetime.datetime(2026, 1, 20, 17, 0, tzinfo=UTC))
    _started(april, datetime.datetime(2026, 3, 31, 22, 30, tzinfo=UTC))
    _started(may, datetime.datetime(2026, 5, 5, 16, 0, tzinfo=UTC))
    series = series_create(
        club=club,
        user=owner,
        name="Quarterly",
        points=[10, 6],
        starts_on=datetime.date(2026, 1, 1),
        ends_on=datetime.date(2026, 12, 31),
        period="quarter",
    )
    assert _rows(series, "2026-Q1") == [(1, "AinoQ", 1, 10), (2, "BerttaQ", 1, 6)]
    assert _rows(series, "2026-Q2") == [(1, "BerttaQ", 2, 20), (2, "AinoQ", 2, 12)]
    assert [e["name"] for e in series_table(series=series, period_key="2026-Q2")["events"]] == ["Spring 1", "Spring 2"]
    # not rolling over, the season has all three
    whole = series_update(
        series=series,
        user=owner,
        name="Quarterly",
        points=[10, 6],
        starts_on=datetime.date(2026, 1, 1),
        ends_on=datetime.date(2026, 12, 31),
    )
    assert _rows(whole) == [(1, "BerttaQ", 3, 26), (2, "AinoQ", 3, 22)]
    series = series_update(
        series=whole,
        user=owner,
        name="Quarterly",
        points=[10, 6],
        starts_on=datetime.date(2026, 1, 1),
        ends_on=datetime.date(2026, 12, 31),
        period="quarter",
    )
    with pytest.raises(ClubError):
        series_update(series=series, user=owner, name="Quarterly", points=[10, 6], period="fortnight")
    assert RankingSeries.objects.get(pk=series.pk).period == "quarter"  # a refused edit stores nothing

    current = period_of(timezone.localdate(timezone=club.zone), "quarter")
    page = client.get(f"/clubs/{club.slug}/").content.decode()
    shown = page[page.index('data-series="') :]
    assert f'data-series-period="{current.key}"' in shown
    assert f"Quarter {(current.first.month - 1) // 3 + 1} of {current.first.year}" in shown
    assert f'href="?series{series.pk}=2026-Q1#series"' in shown and f'href="?series{series.pk}=2026-Q2#series"' in shown
    if current.key not in ("2026-Q1", "2026-Q2"):
        assert "No finished event in this series yet." in shown
    earlier = client.get(f"/clubs/{club.slug}/?series{series.pk}=2026-Q1").content.decode()
    words = " ".join(re.sub(r"<[^>]+>", " ", earlier[earlier.index('data-series="') :]).split())
    assert "Quarter 1 of 2026 (January–March)" in words
    assert "1 AinoQ 1 10 1 1 2 BerttaQ 1 6 2 2" in words and "Spring 1" not in words
    finnish = client.get(f"/clubs/{club.slug}/?series{series.pk}=2026-Q1", HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    assert "Neljännes 1/2026 (tammikuu–maaliskuu)" in finnish
    russian = client.get(f"/clubs/{club.slug}/?series{series.pk}=2026-H1", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Квартал" in russian  # a key of another kind: the current quarter


def test_series_bonus_for_beating_the_top_three() -> None:
    """Bonus 5 / 3 / 1 for beating the players ranked 1st / 2nd / 3rd before the event, among the
    event's players (as the program renumbers them); places 10, 6, 3, 1.
    - Week 1, no table yet, no bonus: Aino 1st (10), Bertta 2nd (6), Celia 3rd (3), Dora 4th (1).
    - Week 2, Dora beats everyone: Aino (1st) +5, Bertta (2nd) +3, Celia (3rd) +1; Aino beats Bertta
      +3 and Celia +1; Bertta beats Celia +1. Dora 1st 10 + 9, Aino 2nd 6 + 4, Bertta 3rd 3 + 1,
      Celia 4th 1: Aino 20, Dora 20 (Aino ahead on placings), Bertta 10, Celia 4.
    - Week 3 without Aino: Dora, Bertta, Celia are now 1st-3rd among those present; the better
      rating wins: Bertta beats Dora +5 and Celia +1, Celia beats Dora +5; Bertta 1st 10, Celia 2nd 6,
      Dora 3rd 3. Bertta 26, Dora 23, Aino 20, Celia 15."""
    club, owner, p = _club("B")
    series = series_create(club=club, user=owner, name="Bonus", points=[10, 6, 3, 1], bonus=[5, 3, 1])
    everyone = [p["Aino"], p["Bertta"], p["Celia"], p["Dora"]]
    weeks = [
        _event(club, owner, everyone, Tournament.Format.ROUND_ROBIN, "Week 1"),
        _event(club, owner, everyone, Tournament.Format.ROUND_ROBIN, "Week 2"),
        _event(club, owner, [p["Bertta"], p["Celia"], p["Dora"]], Tournament.Format.ROUND_ROBIN, "Week 3"),
    ]
    for day, week in enumerate(weeks, start=1):
        _started(week, datetime.datetime(2026, 3, day, 17, 0, tzinfo=UTC))
    series = series_update(
        series=series,
        user=owner,
        name="Bonus",
        points=[10, 6, 3, 1],
        bonus=[5, 3, 1],
        tournament_ids=[w.pk for w in weeks],
    )
    _play(weeks[0], owner, _by_rating)
    assert [(r["name"], r["points"], r["bonus"]) for r in series_table(series=series)["rows"]] == [
        ("AinoB", 10, 0),
        ("BerttaB", 6, 0),
        ("CeliaB", 3, 0),
        ("DoraB", 1, 0),
    ]
    _play(weeks[1], owner, lambda first, second: "DoraB" if "DoraB" in (first, second) else _by_rating(first, second))
    assert [(r["rank"], r["name"], r["points"], r["bonus"]) for r in series_table(series=series)["rows"]] == [
        (1, "AinoB", 20, 4),
        (2, "DoraB", 20, 9),
        (3, "BerttaB", 10, 1),
        (4, "CeliaB", 4, 0),
    ]
    _play(weeks[2], owner, _by_rating)
    assert [(r["rank"], r["name"], r["points"], r["bonus"]) for r in series_table(series=series)["rows"]] == [
        (1, "BerttaB", 26, 7),
        (2, "DoraB", 23, 9),
        (3, "AinoB", 20, 4),
        (4, "CeliaB", 15, 5),
    ]
    # without the bonus, the same games score placings alone
    plain = series_update(
        series=series, user=owner, name="Bonus", points=[10, 6, 3, 1], tournament_ids=[w.pk for w in weeks]
    )
    assert [(r["name"], r["points"]) for r in series_table(series=plain)["rows"]] == [
        ("BerttaB", 19),
        ("AinoB", 16),
        ("DoraB", 14),
        ("CeliaB", 10),
    ]
    with pytest.raises(ClubError):
        series_update(series=plain, user=owner, name="Bonus", points=[10, 6, 3, 1], bonus=[5, 3, 1, 1])
