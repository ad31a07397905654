"""The wall chart of an event at the club (/tournaments/<id>/chart/), printed from a real Chromium: the
whole draw (a line per player in the list's order, a column per round, each game's opponent and points,
every loss marked, who is out), the placings with every tie-break at the end, on A4 landscape (and A3
when asked), in the club's language. Artifacts: test-artifacts/wall-chart-*.png and .pdf.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import pages
from tests.e2e.test_security_pages import VIOLATIONS
from tests.support.daphne import DaphneServer

#: Eight walk-ins on two tables played to the end (a double-loss event of 8 is 14 or 15 games): every
#: fourth game on time, every fifth in the shoot-out, the rest at the target. The club speaks Finnish.
SETUP = """
import datetime
from django.db import transaction
from django.utils import timezone
from game.models.tournaments import Tournament, TournamentPairing
from game.tournaments.services import tournament_close_entries, tournament_create
from game.tournaments.services.club import AT_TARGET, ON_TIME, SHOOTOUT, BoardResult, tournament_result_enter
from game.tournaments.services import tournament_walk_in_enter
from tests.support.community_factories import make_club, make_player
director = make_player("Kaavio-johtaja")
club = make_club("Kaavioseura", director)
t = tournament_create(user=director, club=club, name="Syyskisa", format=Tournament.Format.DOUBLE_LOSS,
                      starts_at=timezone.now() + datetime.timedelta(hours=1), tables=2)
for name in ("Aino", "Bertta", "Celia", "Dora", "Eeva", "Fanny", "Greta", "Hilla"):
    tournament_walk_in_enter(user=director, tournament_id=t.pk, name=name)
with transaction.atomic():
    Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now())
    tournament_close_entries(user=director, tournament_id=t.pk)
number = 0
while (game := TournamentPairing.objects.filter(tournament=t, status="playing", table__isnull=False).first()):
    if number % 5 == 4:
        result = BoardResult(44, 51, SHOOTOUT, game.first_id)
    elif number % 4 == 3:
        result = BoardResult(38, 30, ON_TIME)
    else:
        result = BoardResult(60, 10 + number, AT_TARGET)
    tournament_result_enter(user=director, pairing_id=game.pk, result=result)
    number += 1
t.refresh_from_db()
assert t.status == "finished", t.status
result = [t.pk, number]
"""

#: What the chart says, read from the page: each line's cells and marks, the placings' columns.
CHART = """() => {
  const lines = [...document.querySelectorAll('[data-chart] tbody tr')].map((tr) => ({
    name: tr.dataset.chartLine, losses: Number(tr.dataset.losses), out: tr.dataset.out || null,
    games: tr.querySelectorAll('td[data-cell]').length,
    marked: tr.querySelectorAll('td.lost .chart-loss').length,
    status: tr.querySelector('.chart-status').innerText, place: tr.querySelector('.chart-place').innerText,
  }));
  const head = [...document.querySelectorAll('[data-chart-placings] thead th')].map((th) => th.innerText);
  const chart = document.querySelector('[data-chart]').getBoundingClientRect();
  const cut = [...document.querySelectorAll('[data-wall-chart] td, [data-wall-chart] th')]
    .filter((cell) => cell.scrollWidth > cell.clientWidth + 1).map((cell) => cell.innerText);
  return { lines, head, rounds: document.querySelectorAll('[data-chart] th.chart-round').length,
           right: chart.right, width: document.documentElement.scrollWidth, cut,
           caption: document.querySelector('[data-placing-order]').innerText,
           screenOnly: [...document.querySelectorAll('.screen-only')].some((el) => el.getClientRects().length) };
}"""

#: A4 landscape at 96 px an inch less the page's 8 mm margins: the box the printed chart is laid out in.
PRINTABLE = {"width": round((297 - 16) / 25.4 * 96), "height": round((210 - 16) / 25.4 * 96)}


def media_box(pdf: bytes) -> tuple[float, float]:
    """The first page's size in points (A4 landscape is 842 × 595, A3 landscape 1191 × 842)."""
    found = re.search(rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", pdf)
    assert found, "no page size in the PDF"
    return float(found.group(1)), float(found.group(2))


@pytest.mark.browser
def test_wall_chart_prints_the_draw(
    daphne_factory: Callable[..., DaphneServer], chromium: Any, artifacts_dir: Path
) -> None:
    server = daphne_factory()
    tid, games = pages.django_run(server.env, SETUP)
    page = pages.new_page(chromium, PRINTABLE)
    page.context.add_init_script(VIOLATIONS)
    page.set_extra_http_headers({"Accept-Language": "en"})  # the club's Finnish is printed
    page.goto(f"{server.url}/tournaments/{tid}/chart/")
    page.emulate_media(media="print")
    seen = page.evaluate(CHART)
    assert not seen["screenOnly"], "the Print button and links are printed"

    # The whole draw: the eight in the list's order, each with a cell per game he played (two per
    # game in all), every loss marked, seven out and one winner, the placings 1..8 in the last column.
    lines = seen["lines"]
    assert [line["name"] for line in lines] and len(lines) == 8
    assert sum(line["games"] for line in lines) == 2 * games
    assert seen["rounds"] == max(line["games"] for line in lines)
    for line in lines:
        assert line["marked"] == line["losses"], line
        if line["out"]:
            assert line["losses"] == 2 and f"putosi kierroksella {line['out']}" in line["status"], line
        else:
            assert line["status"] == "voittaja" and line["place"] == "1", line
    assert sum(1 for line in lines if line["out"]) == 7
    assert sorted(int(line["place"]) for line in lines) == list(range(1, 9))
    text = pages.visible_text(page, "[data-wall-chart]")
    assert "Kierros 1" in text and "◷" in text and re.search(r"\d+v\b", text), text[:400]

    # The placings at the end, with the tie-breaks they are decided by and their order in words.
    assert seen["head"][:1] == ["#"] and {"Voitot", "Tappiot", "Tehdyt pisteet", "Tilanne"} <= set(seen["head"])
    assert seen["caption"].startswith("Järjestys: ensin mukana olevat, sitten voitot")

    # Laid out on A4 landscape's printable width: nothing wider, no name or score cut; the PDF's pages
    # are A4 landscape (A3 when asked).
    assert seen["right"] <= PRINTABLE["width"] and seen["width"] <= PRINTABLE["width"], seen
    assert seen["cut"] == [], seen["cut"]
    page.screenshot(path=str(artifacts_dir / "wall-chart-print-fi.png"), full_page=True)
    pdf = page.pdf(prefer_css_page_size=True, print_background=True)
    (artifacts_dir / "wall-chart-a4-fi.pdf").write_bytes(pdf)
    assert media_box(pdf) == pytest.approx((841.92, 595.92), abs=1.5)
    page.goto(f"{server.url}/tournaments/{tid}/chart/?paper=a3")
    assert media_box(page.pdf(prefer_css_page_size=True)) == pytest.approx((1190.88, 841.92), abs=1.5)
    assert page.errors == [] and page.evaluate("() => window.__csp") == []
    pages.assert_clean_log(server)
