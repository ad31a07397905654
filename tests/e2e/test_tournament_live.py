"""A club round robin of four computer players, played through a real daphne, watched in Chromium:
the live page and the tournament page follow every round without a reload.

Set-up goes through the services in a Django process on the server's database (as an admin and the
players' seats would): four bot members enter, the entries close, and each round's matches (made by the
tournament services) get a lowered target (K-9.1, 2 points: the first scoring shot wins) before their
second bot takes its seat. The bots play in the server (game/matches/bot_runner.py), woken by a spectator's socket
on each match; the tournament socket tells the pages. Screenshots: test-artifacts/tournament-*.jpg.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import pages
from tests.support.daphne import DaphneServer
from tests.support.services import PAGE_POLL_MS

#: The two round robin / knockout tests' entries: computer players of level 1 in a "Bot cup".
BOT_CUP = {"name": "Bot cup", "player_kind": {"is_bot": True, "bot_level": 1}}

#: Each tournament starts in an hour while its players enter, then now as the entries close (one
#: transaction): a start time already come would let the server's clock poll start (and, with no entries
#: yet, cancel) it between two statements.
SETUP = """
import datetime
from django.db import transaction
from django.utils import timezone
from game.models.tournaments import Tournament
from game.tournaments.services import tournament_close_entries, tournament_create, tournament_enter
from tests.support.community_factories import make_club, make_player
owner = make_player("{owner}")
players = [make_player(name, rating=rating, **{player_kind}) for name, rating in {players}]
club = make_club("{club}", owner, members=tuple(players))
t = tournament_create(user=owner, club=club, name="{name}", format="{fmt}", rated=False,
                      starts_at=timezone.now() + datetime.timedelta(hours=1))
for player in players:
    tournament_enter(user=player, tournament_id=t.pk)
with transaction.atomic():  # the poll sees the start time come only with the entries closed
    Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now())
    tournament_close_entries(user=owner, tournament_id=t.pk)
result = t.pk
"""

SEAT_ROUND = """
from game.models import Match
from game.matches.services import match_join
from game.models.tournaments import TournamentPairing
result = []
for p in TournamentPairing.objects.filter(tournament_id={tid}, status="playing").select_related("match"):
    if p.match is not None and p.match.status == Match.Status.OPEN:
        m = p.match
        m.ruleset = {{"target_score": 2}}
        m.save(update_fields=["ruleset"])
        match_join(match_id=m.pk, user=p.second.members.get().user)
        result.append(m.pk)
"""


def _spectator_socket(server: DaphneServer, match_id: str) -> Any:
    """An anonymous spectator's match socket, open until closed; its snapshot has arrived. It keeps
    every frame the server sends it (an unbounded queue), so the server never waits on it."""
    from websockets.sync.client import connect
    from websockets.typing import Origin

    socket = connect(
        f"{server.url.replace('http', 'ws', 1)}/ws/match/{match_id}/",
        origin=Origin(server.url),
        max_queue=None,
        open_timeout=30,
    )
    for _ in range(10):  # bounded; the snapshot is a socket's first frame
        if json.loads(socket.recv(timeout=30))["t"] == "snapshot":
            return socket
    raise AssertionError(f"no snapshot on match {match_id}'s socket")


def _points(page: Any) -> float:
    cells = page.locator("[data-standings] td[data-points]").all_inner_texts()
    return sum(float(text) for text in cells)


@pytest.mark.browser
@pytest.mark.slow(35)
def test_tournament_page_live(daphne_factory: Callable[..., DaphneServer], chromium: Any, artifacts_dir: Path) -> None:
    server = daphne_factory(KAIZA_BOT_PACE="0")
    four = [("Aino", 1800), ("Bertta", 1700), ("Celia", 1600), ("Dora", 1500)]
    tid = pages.django_run(
        server.env, SETUP.format(owner="Organiser", club="Kaisa Club", fmt="round_robin", players=four, **BOT_CUP)
    )
    live = pages.new_page(chromium)
    live.goto(f"{server.url}/tournaments/{tid}/live/")
    live.wait_for_function(
        "() => document.querySelector('[data-socket-status]').textContent === 'Live'", polling=PAGE_POLL_MS
    )
    tour = pages.new_page(chromium)
    tour.goto(f"{server.url}/tournaments/{tid}/")
    for page in (live, tour):
        page.evaluate("() => { window.__kaizaNotReloaded = true; }")
    assert "waiting for the players" in pages.visible_text(live, "[data-current-round]")
    assert _points(live) == 0
    for number in (1, 2, 3):
        seated = pages.django_run(server.env, SEAT_ROUND.format(tid=tid))
        assert len(seated) == 2, seated
        # A spectator's socket wakes the bots (MatchConsumer.connect); what the pages show of a match is
        # the match page tests' business, here the tournament's pages are watched.
        watchers = [_spectator_socket(server, match_id) for match_id in seated]
        # Each finished match is one point more in the standings, shown without a reload.
        live.wait_for_function(
            f"() => [...document.querySelectorAll('[data-standings] td[data-points]')]"
            f".reduce((s, td) => s + parseFloat(td.textContent), 0) >= {2 * number}",
            timeout=240000,
            polling=PAGE_POLL_MS,
        )
        if number == 1:
            live.screenshot(path=str(artifacts_dir / "tournament-live-round1.jpg"), full_page=True)
        for watcher in watchers:
            watcher.close()
    pages.wait_text(live, "[data-status]", "Winner", timeout=60)
    pages.wait_text(tour, "[data-status]", "Winner", timeout=60)
    for page in (live, tour):
        assert page.evaluate("() => window.__kaizaNotReloaded === true"), "the page was reloaded"
        assert _points(page) == 6
        assert page.errors == []
    rows = live.locator("[data-standings] tbody tr").all_inner_texts()
    assert len(rows) == 4 and all(any(n in r for r in rows) for n in ("Aino", "Bertta", "Celia", "Dora"))
    rounds = live.locator("[data-round]").count()
    assert rounds == 3
    shot = artifacts_dir / "tournament-live-final.jpg"
    live.screenshot(path=str(shot), full_page=True)
    assert pages.region_colours(live, "[data-standings]") > 20  # drawn text on the table, not a blank box
    tour.screenshot(path=str(artifacts_dir / "tournament-page-final.jpg"), full_page=True)
    # An elimination's bracket, drawn as SVG: five entries, byes to the top three seeds (1 v bye, 4 v 5).
    five = [("Eeva", 1900), ("Fanny", 1800), ("Greta", 1700), ("Hilla", 1600), ("Iida", 1500)]
    elimination = pages.django_run(
        server.env,
        SETUP.format(owner="Organiser2", club="Second Club", fmt="single_elimination", players=five, **BOT_CUP),
    )
    page = pages.new_page(chromium)
    page.goto(f"{server.url}/tournaments/{elimination}/")
    bracket = pages.visible_text(page, "[data-bracket]")
    assert bracket.count("bye") == 3 and "Eeva" in bracket and "Iida" in bracket
    assert pages.region_colours(page, "[data-bracket]", artifacts_dir / "tournament-bracket.png") > 20
    _a_player_is_told_and_an_admin_creates(server, chromium, artifacts_dir)
    time.sleep(0.5)
    pages.assert_clean_log(server)


HUMANS = """
import datetime
from django.db import transaction
from django.utils import timezone
from game.models.tournaments import Tournament
from game.tournaments.services import tournament_close_entries, tournament_create, tournament_enter
from tests.support.community_factories import DEMO_PASSWORD, make_club, make_player
juho, kalle = make_player("Juho", rating=1650), make_player("Kalle", rating=1550)
juho.set_password(DEMO_PASSWORD)
juho.save()
club = make_club("Third Club", juho, members=(kalle,))
t = tournament_create(user=juho, club=club, name="Evening cup", format="round_robin",
                      starts_at=timezone.now() + datetime.timedelta(hours=1))
tournament_enter(user=juho, tournament_id=t.pk)
tournament_enter(user=kalle, tournament_id=t.pk)
with transaction.atomic():  # the poll sees the start time come only with the entries closed
    Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now())
    tournament_close_entries(user=juho, tournament_id=t.pk)
result = club.slug
"""


def _a_player_is_told_and_an_admin_creates(server: DaphneServer, chromium: Any, artifacts: Path) -> None:
    """Juho, a club owner with a tournament match to play, sees the badge and the home page's list;
    the club page lists the club's tournaments; the form refuses a bad entry count and announces one."""
    from tests.support.community_factories import DEMO_PASSWORD

    slug = pages.django_run(server.env, HUMANS)
    page = pages.new_page(chromium)
    page.goto(f"{server.url}/accounts/login/")
    page.fill("#id_login", "juho")
    page.fill("#id_password", DEMO_PASSWORD)
    page.locator("main form button[type=submit], main form input[type=submit]").first.click()
    page.wait_for_load_state()
    page.goto(f"{server.url}/")
    assert pages.visible_text(page, "[data-tournament-badge]") == "1"
    listed = pages.visible_text(page, "[data-tournament-matches]")
    assert "Evening cup" in listed and "against Kalle" in listed
    page.screenshot(path=str(artifacts / "tournament-home.jpg"))
    page.goto(f"{server.url}/clubs/{slug}/")
    assert "Evening cup" in pages.visible_text(page, "[data-club-tournaments]")
    page.screenshot(path=str(artifacts / "tournament-club.jpg"), full_page=True)
    page.click("[data-club-tournaments] a.button")
    page.fill("#id_name", "Spring cup")
    page.select_option("#id_format", "double_elimination")
    page.fill("#id_max_entries", "1")
    page.click("[data-tournament-form] button[type=submit]")
    page.wait_for_load_state()
    assert "Spring cup" not in pages.visible_text(page, "h1")
    page.fill("#id_max_entries", "8")
    page.click("[data-tournament-form] button[type=submit]")
    page.wait_for_url("**/tournaments/*/")
    assert "Spring cup" in pages.visible_text(page, "h1")
    assert "Double elimination" in pages.visible_text(page, ".page-head")
    page.click("[data-enter]")
    page.wait_for_load_state()
    assert "Juho" in pages.visible_text(page, "ol.entries")
    page.screenshot(path=str(artifacts / "tournament-new.jpg"), full_page=True)
    assert page.errors == []


# Every game in progress (one with its match: a game drawn ahead waits for its players' earlier games)
# is given its no-show's end now: the server's own clock forfeits it (as the deadline poll does in play)
# to the one player said to be on its match page, the first entry but in every third game of the draw;
# the draw goes on in the server and the tournament socket tells the pages.
DRAW_FORFEITS = """
import time
from game.models import MatchConnection
from game.models.tournaments import TournamentPairing
result = []
games = TournamentPairing.objects.filter(tournament_id={tid}, status="playing", match__isnull=False)
for p in games.select_related("first", "second"):
    winner = p.second if p.index % 3 == 1 else p.first
    MatchConnection.objects.create(
        match_id=p.match_id, channel_name=f"e2e.{{p.pk}}", user=winner.members.get().user, seen_at=time.time()
    )
    TournamentPairing.objects.filter(pk=p.pk).update(no_show_deadline=time.time() - 1)
    result.append(p.pk)
"""


@pytest.mark.browser
@pytest.mark.slow(23)
def test_double_loss_live_page(daphne_factory: Callable[..., DaphneServer], chromium: Any, artifacts_dir: Path) -> None:
    """A double-loss draw of five followed on a phone without a reload: the games in
    progress, each player's losses, the draw list and who went out in which round, the final placings
    (in English on the live page, in Finnish on the tournament page)."""
    server = daphne_factory()
    five = [("Aino", 1900), ("Bertta", 1800), ("Celia", 1700), ("Dora", 1600), ("Eeva", 1500)]
    tid = pages.django_run(
        server.env,
        SETUP.format(
            owner="Johtaja", club="Kaisa Club", name="Tuplakaavio", fmt="double_loss", players=five, player_kind={}
        ),
    )
    live = pages.new_page(chromium, pages.PHONE_PORTRAIT, scale=2)
    live.goto(f"{server.url}/tournaments/{tid}/live/")
    live.wait_for_function(
        "() => document.querySelector('[data-socket-status]').textContent === 'Live'", polling=PAGE_POLL_MS
    )
    finnish = pages.new_page(chromium, pages.PHONE_PORTRAIT, scale=2)
    finnish.set_extra_http_headers({"Accept-Language": "fi"})
    finnish.goto(f"{server.url}/tournaments/{tid}/")
    for page in (live, finnish):
        page.evaluate("() => { window.__kaizaNotReloaded = true; }")
    # Round 1 of five: the list in twos, the fifth rests; nobody has lost yet.
    playing = pages.visible_text(live, "[data-draw-playing]")
    assert playing.count("Round 1") == 2 and "waiting for the players" in playing
    assert live.locator("[data-draw-list] tbody tr").count() == 5
    assert live.locator("[data-draw-list] tr[data-losses='0']").count() == 5
    assert pages.visible_text(live, "[data-draw-list]").count("still in") == 1
    for step in range(12):
        decided = pages.django_run(server.env, DRAW_FORFEITS.format(tid=tid))
        if not decided:
            break
        gone = " && ".join(
            f"!document.querySelector('[data-draw-playing] tr[data-pairing=\"{pk}\"]')" for pk in decided
        )
        live.wait_for_function(f"() => {gone}", timeout=30000, polling=PAGE_POLL_MS)
        if step == 0:
            live.wait_for_function(
                "() => document.querySelectorAll(\"[data-draw-list] tr[data-losses='1']\").length === 2",
                polling=PAGE_POLL_MS,
            )
            live.screenshot(path=str(artifacts_dir / "tournament-double-loss-round1.jpg"), full_page=True)
    pages.wait_text(live, "[data-status]", "Winner", timeout=60)
    pages.wait_text(finnish, "[data-status]", "Voittaja", timeout=60)
    text = pages.visible_text(live, "[data-tournament-parts]")
    assert "Final placings" in text and live.locator("[data-draw-playing]").count() == 0
    listed = pages.visible_text(live, "[data-draw-list]")
    assert listed.count("out in round") == 4 and listed.count("winner") == 1
    assert live.locator("[data-draw-list] tr[data-losses='2']").count() == 4
    ranks = live.locator("[data-standings] tbody td.rank").all_inner_texts()
    assert ranks[0] == "1" and len(ranks) == 5
    finnish_text = pages.visible_text(finnish, "[data-tournament-parts]")
    assert "Loppusijoitukset" in finnish_text and "putosi kierroksella" in finnish_text
    for page in (live, finnish):
        assert page.evaluate("() => window.__kaizaNotReloaded === true"), "the page was reloaded"
        assert page.errors == []
    live.screenshot(path=str(artifacts_dir / "tournament-double-loss-final.jpg"), full_page=True)
    finnish.screenshot(path=str(artifacts_dir / "tournament-double-loss-fi.jpg"), full_page=True)
    # Finnish words are long: on the phone nothing of the rounds, the draw or the standings is cut off
    # or hidden to the side (the round cards' "Otteluun" button and "putosi kierroksella" were).
    assert pages.cut_off(finnish, "[data-tournament-parts]") == []
    assert finnish.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    assert pages.region_colours(live, "[data-draw-list]") > 20
    time.sleep(0.5)
    pages.assert_clean_log(server)
