"""The pages of an event at the club through Django's test client: the form's
tables setting, walk-ins entered and joined, the director's tables page with its result form in
three languages, the correction's warning step, the public page of the tables and the score sheets."""

from __future__ import annotations

import datetime
import re
from pathlib import Path
from typing import Any

import polib
import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from game.models.tournaments import (
    Tournament,
    TournamentEntry,
    TournamentEntryMember,
    TournamentPairing,
    TournamentResultKey,
)
from game.tournaments.kaisakaavio import parse
from game.tournaments.services import tournament_close_entries
from game.tournaments.services.club import AT_TARGET, ON_TIME, SHOOTOUT, BoardResult, tournament_result_enter
from tests.support.community_factories import make_club, make_player
from tests.tournaments.test_club_event import club_event, on_tables

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_director_creates_an_event_at_the_club_and_enters_walk_ins(client: Any) -> None:
    owner = make_player("Pagedirector")
    club = make_club("Page club", owner)
    client.force_login(owner)
    start = (timezone.localtime(timezone=club.zone) + datetime.timedelta(minutes=30)).strftime("%Y-%m-%dT%H:%M")
    data = {
        "name": "Friday weekly",
        "format": "double_loss",
        "kind": "singles",
        "clock": "weekly_event",
        "max_entries": "16",
        "starts_at": start,
        "tables": "40",
    }
    bad = client.post(f"/clubs/{club.slug}/tournaments/new/", data)
    assert bad.status_code == 400 and Tournament.objects.count() == 0
    data["tables"] = "2"
    made = client.post(f"/clubs/{club.slug}/tournaments/new/", data)
    tournament = Tournament.objects.get()
    assert made.status_code == 302 and (tournament.tables, tournament.rated) == (2, False)
    for name in ("Aino", "Bertta", "Celia", "Dora"):
        client.post(f"/tournaments/{tournament.pk}/walk-in/", {"name": name})
    refused = client.post(f"/tournaments/{tournament.pk}/walk-in/", {"name": "aino"}, follow=True)
    assert "Aino is already entered" in refused.content.decode()  # the one entered, as the register spells her
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Dora" in page and "Tables and results" in page and "Join a player without an account" in page
    player = make_player("Dora Online")
    joined = client.post(
        f"/tournaments/{tournament.pk}/walk-in/join/",
        {"entry": TournamentEntry.objects.get(name="Dora").pk, "account": "Dora Online"},
        follow=True,
    )
    assert "The entry is joined to the account." in joined.content.decode()
    assert TournamentEntry.objects.get(name="Dora").members.get().user == player


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ("Table 1", "Save the result", "Waiting for a table")),
        ("fi", ("Pöytä 1", "Tallenna tulos", "Odottaa pöytää")),
        ("ru", ("Стол 1", "Сохранить результат", "Ждут стола")),
    ],
)
def test_director_tables_page_in_three_languages(client: Any, language: str, words: tuple[str, ...]) -> None:
    tournament, owner = club_event(6, 2, tag=f"p{language}")
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    client.force_login(owner)
    page = client.get(f"/tournaments/{tournament.pk}/tables/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    for word in words:
        assert word in page
    stranger = make_player(f"Nosy{language}")
    client.force_login(stranger)
    assert client.get(f"/tournaments/{tournament.pk}/tables/").status_code == 403


def test_result_form_enters_and_the_correction_warns_first(client: Any) -> None:
    tournament, owner = club_event(8, 4, tag="f")
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    client.force_login(owner)
    game = on_tables(tournament)[1]
    url = f"/tournaments/{tournament.pk}/pairings/{game.pk}/result/"
    bad = client.post(url, {"first_score": "abc", "second_score": "20", "ended": "target"}, follow=True)
    assert "abc&#x27;: a whole number is written with the digits 0 to 9" in bad.content.decode()
    assert TournamentPairing.objects.get(pk=game.pk).status == TournamentPairing.Status.PLAYING
    client.post(url, {"first_score": "60", "second_score": "20", "ended": "target"})
    assert TournamentPairing.objects.get(pk=game.pk).winner_id == game.first_id
    # the opening in (round 2 was drawn with round 1, from the list) and round 3 drawn from it; the
    # second of round 1's second game lost both: round 3 was drawn without him, and the correction
    # of his first loss brings him back, so round 3 is drawn again
    opening = TournamentPairing.objects.filter(tournament=tournament, round__number__lte=2)
    while opening.filter(status="playing").exists():
        other = next(p for p in on_tables(tournament).values() if p.round.number <= 2)
        tournament_result_enter(user=owner, pairing_id=other.pk, result=BoardResult(60, 10, AT_TARGET))
    assert TournamentPairing.objects.filter(tournament=tournament, round__number=3).exists()
    game = opening.filter(round__number=1).order_by("index")[1]
    url = f"/tournaments/{tournament.pk}/pairings/{game.pk}/result/"
    warned = client.post(url, {"first_score": "20", "second_score": "60", "ended": "target"})
    text = warned.content.decode()
    assert warned.status_code == 200 and "Confirm the correction" in text and "drawn again" in text
    assert TournamentPairing.objects.get(pk=game.pk).winner_id == game.first_id  # nothing changed yet
    done = client.post(url, {"first_score": "20", "second_score": "60", "ended": "target", "confirm": "1"}, follow=True)
    assert "The result is corrected." in done.content.decode()
    assert TournamentPairing.objects.get(pk=game.pk).winner_id == game.second_id


def test_public_tables_page_and_score_sheets(client: Any) -> None:
    tournament, owner = club_event(6, 2, tag="s")
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    live = client.get(f"/tournaments/{tournament.pk}/live/", HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    first = on_tables(tournament)[1]
    assert "Pöytä 1" in live and first.first.name in live and "Odottaa pöytää" in live
    assert "alkaa alkamisaikana" not in live  # the draw's games in progress name their tables instead
    parts = client.get(f"/tournaments/{tournament.pk}/parts/?live=1").content.decode()
    assert "data-club-tables" in parts  # the part the live page fetches again when the socket says so
    assert client.get(f"/tournaments/{tournament.pk}/sheets/").status_code == 302  # login first
    client.force_login(owner)
    sheets = client.get(f"/tournaments/{tournament.pk}/sheets/").content.decode()
    # one per game on a table or waiting for one: two on tables, round 1's third waiting (round 2 is
    # drawn too, and waits for its players' first games)
    assert sheets.count('class="sheet"') == 3
    assert "Table 2" in sheets and "Weekly" not in sheets and "target 60" in sheets
    assert "game/css/score_sheets.css" in sheets and "Friday at the club" in sheets
    assert "page-break-after: always" in finders_text("game/css/score_sheets.css")  # one sheet a page


INLINE = re.compile(r"<style|\son[a-z]+=", re.IGNORECASE)


def finders_text(path: str) -> str:
    found = finders.find(path)
    assert isinstance(found, str), path
    return Path(found).read_text()


def test_club_event_pages_style_and_print_within_the_sites_policy(client: Any) -> None:
    """The site's policy (settings.CONTENT_SECURITY_POLICY) runs no inline style or handler: the tables
    page's form layout and the sheets' print layout and Print button were inline and did nothing in a
    browser; they come from the site's own static files."""
    tournament, owner = club_event(6, 2, tag="c")
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    client.force_login(owner)
    tables = client.get(f"/tournaments/{tournament.pk}/tables/")
    sheets = client.get(f"/tournaments/{tournament.pk}/sheets/")
    assert "style-src 'self'" in tables["Content-Security-Policy"]
    for page in (tables, sheets):
        assert page.status_code == 200 and INLINE.search(page.content.decode()) is None
    assert "game/css/club_event.css" in tables.content.decode()
    assert ".result-fields" in finders_text("game/css/club_event.css")
    assert "data-print" in sheets.content.decode() and "game/js/pages/print.js" in sheets.content.decode()
    assert "window.print()" in finders_text("game/js/pages/print.js")


def test_shootout_form_refuses_without_a_winner_beside_the_form(client: Any) -> None:
    """The tables page wires the radios' script (static/game/js/pages/result_form.js, within the policy);
    a shoot-out sent without its winner comes back refused beside that game's form, with the scores
    typed kept and nothing stored; a winner ticked beside another end is ignored (K-9.1, K-11.4)."""
    tournament, owner = club_event(4, 2, tag="w")
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    client.force_login(owner)
    page = client.get(f"/tournaments/{tournament.pk}/tables/").content.decode()
    assert "game/js/pages/result_form.js" in page and page.count("data-shootout-winner") == 2
    assert 'const SHOOTOUT = "shootout"' in finders_text("game/js/pages/result_form.js")
    games = on_tables(tournament)
    url = f"/tournaments/{tournament.pk}/pairings/{games[1].pk}/result/"
    refused = client.post(url, {"first_score": "45", "second_score": "52", "ended": "shootout"})
    text = refused.content.decode()
    assert refused.status_code == 400 and text.count("data-form-error") == 1
    card = text[text.index('data-table="1"') : text.index('data-table="2"')]
    assert "choose the winner of the shoot-out" in card and 'value="45"' in card and 'value="52"' in card
    assert TournamentPairing.objects.get(pk=games[1].pk).status == TournamentPairing.Status.PLAYING

    ignored = {"first_score": "60", "second_score": "52", "ended": "target", "shootout_winner": games[1].second_id}
    assert client.post(url, ignored).status_code == 302
    assert TournamentPairing.objects.get(pk=games[1].pk).winner_id == games[1].first_id
    done = client.post(
        f"/tournaments/{tournament.pk}/pairings/{games[2].pk}/result/",
        {"first_score": "45", "second_score": "52", "ended": "shootout", "shootout_winner": games[2].first_id},
    )
    assert done.status_code == 302
    won = TournamentPairing.objects.get(pk=games[2].pk)
    assert (won.winner_id, won.result_code, won.first_score) == (won.first_id, "shootout", 45)


def test_win_on_time_is_marked(client: Any) -> None:
    """A game won when the time was up (K-11.1) is marked wherever its result is shown, as a shoot-out
    win carries its `v` (K-11.4): the director's results, the public page's latest results, the
    round's line, the standings' wins; a game won at the target carries neither."""
    tournament, owner = club_event(6, 3, tag="t")
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    games = on_tables(tournament)
    timed, shootout, target = games[1], games[2], games[3]
    tournament_result_enter(user=owner, pairing_id=timed.pk, result=BoardResult(41, 35, ON_TIME))
    tournament_result_enter(user=owner, pairing_id=shootout.pk, result=BoardResult(45, 52, SHOOTOUT, shootout.first_id))
    tournament_result_enter(user=owner, pairing_id=target.pk, result=BoardResult(60, 20, AT_TARGET))
    names = {e.pk: e.name for e in TournamentEntry.objects.filter(tournament=tournament)}
    timed_winner = names[timed.first_id]

    client.force_login(owner)
    director = client.get(f"/tournaments/{tournament.pk}/tables/").content.decode()
    lines = {int(m[0]): m[1] for m in re.findall(r'<li data-result="(\d+)">(.*?)(?:<details|</li>)', director, re.S)}
    assert "◷ on time" in lines[timed.pk] and "41 – 35" in lines[timed.pk]
    assert "on time" not in lines[shootout.pk] and "45v – 52" in lines[shootout.pk]
    assert "on time" not in lines[target.pk] and "60 – 20" in lines[target.pk]

    live = client.get(f"/tournaments/{tournament.pk}/live/", HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    latest = live[live.index("Viimeisimmät tulokset") :]
    assert latest.count("◷ ajalla") == 1 and "41 – 35" in latest

    page = client.get(f"/tournaments/{tournament.pk}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert f"{timed_winner}: победа по времени" in page
    row = page[page.index(f'<tr data-row data-entry="{timed_winner}">') :]
    assert "(1 по времени)" in row[: row.index("</tr>")]
    other = page[page.index(f'<tr data-row data-entry="{names[shootout.first_id]}">') :]
    assert "по времени" not in other[: other.index("</tr>")]

    # The club's screens, in the club's Finnish: the TV's latest results and its draw, the wall chart.
    tv = client.get(f"/tournaments/{tournament.pk}/tv/?part=1", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    results = tv[tv.index('data-tv-section="results"') : tv.index('data-tv-section="standings"')]
    assert results.count("◷ ajalla") == 1 and "45v – 52" in results
    chart = client.get(f"/tournaments/{tournament.pk}/chart/").content.decode()
    for page, line_of in ((tv, "data-draw-entry"), (chart, "data-chart-line")):

        def line(name: str, page: str = page, line_of: str = line_of) -> str:
            start = page.index(f'{line_of}="{name}"')
            return page[start : page.index("</tr>", start)]

        assert '<span class="chart-score">41◷</span>' in line(timed_winner)
        assert '<span class="chart-score">45v</span>' in line(names[shootout.first_id])
        assert "◷" not in line(names[target.first_id]) and "v<" not in line(names[target.first_id])


def test_club_screens_speak_the_club_language(client: Any) -> None:
    """The TV page and the wall chart speak the club's language (its edit form chooses it; Finnish by
    default), whatever the browser asks for: nobody signs in to a club's TV. A language the site does
    not have is refused and changes nothing."""
    tournament, owner = club_event(6, 2, tag="l")
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    club = tournament.club
    assert club.language == "fi"
    tv = client.get(f"/tournaments/{tournament.pk}/tv/", HTTP_ACCEPT_LANGUAGE="en")
    assert (
        tv["Content-Language"] == "fi" and "Pöydät" in tv.content.decode() and "site-header" not in tv.content.decode()
    )
    client.force_login(owner)
    edit = {"name": club.name, "description": "", "join_policy": club.join_policy, "time_zone": club.time_zone}
    assert client.post(f"/clubs/{club.slug}/edit/", {**edit, "language": "xx"}).status_code == 400
    assert client.post(f"/clubs/{club.slug}/edit/", {**edit, "language": "ru"}).status_code == 302
    for url, words in (
        (f"/tournaments/{tournament.pk}/tv/", "Столы"),
        (f"/tournaments/{tournament.pk}/chart/", "Тур 1"),
    ):
        page = client.get(url, HTTP_ACCEPT_LANGUAGE="fi")
        assert page["Content-Language"] == "ru" and words in page.content.decode(), url


def test_a_result_form_stores_its_result_once(client: Any) -> None:
    """Each result form carries a key (the director's and a player's): sent twice, as a phone that lost
    the first answer does, its result is stored once and the second sending is answered as stored; the
    tables page's script gets the answers in JSON. A key that is not a form's, or another game's, is
    refused and changes nothing."""
    tournament, owner = club_event(6, 2, tag="k", players_enter_results=True)
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    games = on_tables(tournament)
    player = make_player("Keyed player")
    TournamentEntryMember.objects.create(entry_id=games[1].first_id, tournament=tournament, user=player, position=0)
    client.force_login(player)
    page = client.get(f"/tournaments/{tournament.pk}/tables/").content.decode()
    keys = re.findall(r'name="entry_key" value="([A-Za-z0-9_-]{16,64})"', page)
    assert len(keys) == 1 and "data-result-form" in page  # the player's own game only
    url = f"/tournaments/{tournament.pk}/pairings/{games[1].pk}/result/"
    form = {"first_score": "60", "second_score": "41", "ended": "target", "entry_key": keys[0]}
    fetched = {"HTTP_X_KAIZA_FORM": "fetch"}
    first = client.post(url, form, **fetched)
    assert first.status_code == 200 and first.json() == {"stored": True, "words": "The result is in."}
    stored = TournamentPairing.objects.get(pk=games[1].pk)
    assert (stored.status, stored.first_score, stored.second_score) == (TournamentPairing.Status.DONE, 60, 41)
    drawn = TournamentPairing.objects.filter(tournament=tournament).count()
    again = client.post(url, form, **fetched)
    assert again.status_code == 200 and again.json()["stored"] is True
    assert TournamentResultKey.objects.filter(pairing_id=games[1].pk).count() == 1
    assert TournamentPairing.objects.filter(tournament=tournament).count() == drawn  # not drawn twice
    assert client.post(url, form).status_code == 302  # the browser's own sending: the tables page

    client.force_login(owner)
    other = f"/tournaments/{tournament.pk}/pairings/{games[2].pk}/result/"
    for key in (keys[0], "not a key!", "x" * 200):
        refused = client.post(other, {**form, "entry_key": key}, **fetched)
        assert refused.status_code == 400 and refused.json() == {
            "stored": False,
            "words": "this form is out of date: open the tables page again",
        }, key
    slip = client.post(other, {**form, "first_score": "6o", "entry_key": "k" * 22}, **fetched)
    assert slip.status_code == 400 and slip.json()["stored"] is False
    assert TournamentPairing.objects.get(pk=games[2].pk).status == TournamentPairing.Status.PLAYING
    assert not TournamentResultKey.objects.filter(key="k" * 22).exists()


def test_upload_refusal_beside_its_form_and_export_from_the_club_page(client: Any) -> None:
    """A refused KaisaKaavio upload is said beside the upload's form, which the club page scrolls to,
    wholly in the reader's language; the site's message list at the top does not repeat it. A drawn
    event is exported from the club page (and the event's) by its admins, as the file the program
    reads and Kaiza imports back; others are refused."""
    tournament, owner = club_event(6, 2, tag="x")
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    club = tournament.club
    client.force_login(owner)
    broken = SimpleUploadedFile("viikko.xml", b"<Kilpailu><Nimi>Viikko</Nimi><Pelaajat>\n<Pelaaja Id='1'")
    sent = client.post(f"/clubs/{club.slug}/kaisakaavio/", {"file": broken, "tables": "4"}, HTTP_ACCEPT_LANGUAGE="fi")
    assert sent.status_code == 302 and sent["Location"] == f"/clubs/{club.slug}/#kaavio-import"
    page = client.get(sent["Location"].split("#")[0], HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    form = page[page.index('id="kaavio-import"') : page.index("</form>", page.index('id="kaavio-import"'))]
    said = re.search(r'<p class="form-error import-error" role="alert" data-import-error>(.*?)</p>', form, re.S)
    assert said and "tiedosto ei ole XML:ää (rivi 2" in said[1], form
    assert re.search(r"\b(not|is|the|file)\b", said[1]) is None, said[1]  # no English left in it
    top = page[page.index('<ul class="messages">') : page.index("</ul>", page.index('<ul class="messages">'))]
    assert "XML" not in top

    assert "data-kaavio-export" in page and f"/tournaments/{tournament.pk}/kaisakaavio.xml" in page
    exported = client.get(f"/tournaments/{tournament.pk}/kaisakaavio.xml")
    assert exported.status_code == 200 and exported["Content-Type"] == "application/xml; charset=utf-8"
    assert exported["Content-Disposition"].startswith('attachment; filename="friday-at-the-club-')
    kaavio = parse(exported.content)
    names = set(TournamentEntry.objects.filter(tournament=tournament).values_list("name", flat=True))
    assert {p.name for p in kaavio.participants} == names and len(names) == 6
    assert len(kaavio.games) == TournamentPairing.objects.filter(tournament=tournament).count()

    member = make_player("Curious member")
    client.force_login(member)
    assert client.get(f"/tournaments/{tournament.pk}/kaisakaavio.xml").status_code == 403
    assert "data-kaavio-export" not in client.get(f"/clubs/{club.slug}/").content.decode()


def test_a_seed_never_reads_as_a_placing_in_finnish(client: Any) -> None:
    """Finnish "sijoitus" is a placing: a seed is "siemen" in every Finnish word of the site (the
    KaisaKaavio field `Sijoitettu` keeps its name), and the standings say "siemen 1", never
    "sijoitus 1", beside a player whose placing is in the next column."""
    catalogue = polib.pofile(str(Path(settings.BASE_DIR) / "game/locale/fi/LC_MESSAGES/django.po"))
    for entry in catalogue:
        words = " ".join([entry.msgstr, *entry.msgstr_plural.values()]).replace("Sijoitettu", "")
        if re.search(r"\bseed", entry.msgid + (entry.msgid_plural or ""), re.IGNORECASE):
            assert not re.search(r"sijoit", words, re.IGNORECASE), (entry.msgid, words)
    tournament, owner = club_event(6, 2, tag="s1")
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    page = client.get(f"/tournaments/{tournament.pk}/", HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    standings = page[page.index("data-standings") :]
    assert "(siemen 1" in standings and "(sijoitus" not in standings
