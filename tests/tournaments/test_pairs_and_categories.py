"""Pairs events and categories: a pairs event's entrants are pairs of the club's register players,
entered by the director as "A & B" and imported from and exported to KaisaKaavio's pairs files (its
`KilpaSarja` Parikilpailu/MixedDoubles, each pair's `Pelaajan1Nimi`/`Pelaajan2Nimi`); an event's
category (`KilpaSarja`'s others) is on its form, its page and in its file."""

from __future__ import annotations

import datetime
import html
import re
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.utils import timezone

from game.models import ClubPlayer
from game.models.tournaments import Tournament, TournamentEntry
from game.tournaments.categories import is_pairs_file, partners_in, series_of
from game.tournaments.kaisakaavio import KaavioFile, parse
from game.tournaments.selectors.forum import EventLinks, forum_posts
from game.tournaments.services import TournamentError, tournament_close_entries, tournament_create
from game.tournaments.services.kaavio import kaavio_export, kaavio_import
from game.tournaments.services.walk_ins import tournament_walk_in_enter
from tests.support.community_factories import make_club, make_player
from tests.tournaments.test_kaisakaavio_events import _content
from tests.tournaments.test_kaisakaavio_files import FIXTURE, SAMPLES

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

PAIRS = FIXTURE.parent / "kaisakaavio" / "pairs-11-t3.xml"
PAIRS_SAMPLE = SAMPLES / "pairs-double-loss.xml"


def _partners(kaavio: KaavioFile) -> dict[str, tuple[str, str]]:
    """Each pair's partners by the pair's name, as the file names them."""
    return {p.name: (dict(p.extra)["Pelaajan1Nimi"], dict(p.extra)["Pelaajan2Nimi"]) for p in kaavio.participants}


def _partner_clubs(kaavio: KaavioFile) -> dict[str, tuple[str, str]]:
    """Each pair's partners' clubs by the pair's name, as the file gives them (blank: none)."""
    return {
        p.name: (dict(p.extra).get("Pelaajan1Seura", ""), dict(p.extra).get("Pelaajan2Seura", ""))
        for p in kaavio.participants
    }


def _import(path: Path, club: Any) -> Tournament:
    call_command("kaisakaavio", "import", str(path), "--club", club.slug, "--tables", "3", stdout=StringIO())
    return Tournament.objects.get(club=club)


def test_pairs_event_round_trip(tmp_path: Path, client: Any) -> None:
    """A pairs file (the program's `Parikilpailu`, each pair with its two partners) imports as a pairs
    event whose entries are pairs of the club's register players, and exports the same file content:
    the pairs' names, both partners of each with their clubs (`Pelaajan1Seura`/`Pelaajan2Seura`, kept
    on the entry and the register, shown beside the pair; a blank one written as the program does,
    not at all), ids in draw order, every game and result; the replay of the written file agrees with
    every game."""
    owner = make_player("Pairs Director")
    club = make_club("Pairs Club", owner)
    tournament = _import(PAIRS, club)
    original = parse(PAIRS.read_bytes())
    assert tournament.kind == Tournament.Kind.PAIRS and tournament.category == Tournament.Category.GENERAL
    entries = TournamentEntry.objects.filter(tournament=tournament).select_related("player", "partner")
    assert len(entries) == 11
    partners = _partners(original)
    for entry in entries:
        assert entry.player is not None and entry.partner is not None
        assert (entry.player.name, entry.partner.name) == partners[entry.name]
        assert " & " in entry.name
    assert ClubPlayer.objects.filter(club=club).count() == 22  # two register players per pair
    clubs = _partner_clubs(original)
    assert clubs["Mannila A. & Koski T."] == ("KSS", "HBK") and clubs["Lemmetyinen P. & Lehto R."][1] == ""
    assert {e.name: (e.player_club, e.partner_club) for e in entries} == clubs
    homes = dict(ClubPlayer.objects.filter(club=club).values_list("name", "home_club"))
    assert homes["Mannila Anna"] == "KSS" and homes["Koski Tuomas"] == "HBK" and homes["Lehto Riikka"] == ""

    written = tmp_path / "pairs.xml"
    call_command("kaisakaavio", "export", str(tournament.pk), str(written), stdout=StringIO())
    again = parse(written.read_bytes())
    assert _content(again) == _content(original)
    assert _partners(again) == partners
    assert _partner_clubs(again) == clubs
    assert "Pelaajan2Seura" not in dict(next(p for p in again.participants if p.id == 2).extra)
    assert [p.id for p in again.participants] == [p.id for p in original.participants]
    assert dict(again.other_fields)["KilpaSarja"] == "Parikilpailu"
    out = StringIO()
    call_command("kaisakaavio", "replay", str(written), stdout=out)
    assert "draw agreement: 21/21 games" in out.getvalue()

    # the pages say each pair in words: "A & B"; the event's page, with its partners' clubs
    client.force_login(owner)
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "KSS &amp; HBK" in page and "Kaisa-Klubi Pori &amp; –" in page
    links = EventLinks(live="https://kaiza.example/live/", register="https://kaiza.example/r/")
    invitation = forum_posts(tournament=tournament, links=links, language="en")[0].plain
    assert "Mannila A. & Koski T. (KSS & HBK)" in invitation
    pair = entries[0].name
    for page in ("", "tables/", "chart/", "tv/"):
        response = client.get(f"/tournaments/{tournament.pk}/{page}")
        assert response.status_code == 200, page
        assert pair.replace("&", "&amp;") in response.content.decode(), page


def test_pairs_file_without_the_setting_is_a_pairs_event(tmp_path: Path) -> None:
    """A file saved before the program wrote `KilpaSarja` and the partners' fields: its pairs are
    known by their names "A & B", each split into its two players, and the export writes the setting
    and the partners. The sample pairs file (its names replaced by "Player N") is known by its own
    name and imports as pairs too, each pair under its one name."""
    text = PAIRS.read_text(encoding="utf-8")
    text = text.replace("<KilpaSarja>Parikilpailu</KilpaSarja>", "")
    text = re.sub(r' Pelaajan[12]Nimi="[^"]*"', "", text)
    old = tmp_path / "old-pairs.xml"
    old.write_text(text.replace("Kaiza pairs night", "Club doubles"), encoding="utf-8")
    owner = make_player("Old Pairs Director")
    club = make_club("Old Pairs Club", owner)
    tournament = _import(old, club)
    assert tournament.kind == Tournament.Kind.PAIRS
    entry = TournamentEntry.objects.select_related("player", "partner").get(
        tournament=tournament, name__startswith="Mannila"
    )
    assert entry.player is not None and entry.partner is not None
    assert (entry.player.name, entry.partner.name) == ("Mannila A.", "Koski T.")
    written = parse(kaavio_export(tournament=tournament))
    assert dict(written.other_fields)["KilpaSarja"] == "Parikilpailu"
    assert dict(written.participants[0].extra)["Pelaajan2Nimi"] == "Koski T."
    if PAIRS_SAMPLE.exists():
        other = make_club("Sample Pairs Club", make_player("Sample Pairs Director"))
        sample = _import(PAIRS_SAMPLE, other)
        assert sample.kind == Tournament.Kind.PAIRS
        exported = parse(kaavio_export(tournament=sample))
        assert _content(exported) == _content(parse(PAIRS_SAMPLE.read_bytes()))
        assert dict(exported.other_fields)["KilpaSarja"] == "Parikilpailu"


def test_pairs_are_read_as_the_program_names_them() -> None:
    assert partners_in("Saira T. & Julin L.") == ("Saira T.", "Julin L.")
    assert partners_in("Vulli J. &  Asikainen P.") == ("Vulli J.", "Asikainen P.")
    assert partners_in("Player 1") is None and partners_in("A & B & C") is None and partners_in(" & B") is None
    assert is_pairs_file("MixedDoubles", "Club night", [{"Nimi": "Anna"}])
    assert not is_pairs_file("Naiset", "Pari SM", [{"Nimi": "A & B"}])  # the setting decides
    assert is_pairs_file(None, "Kaisa Pari SM 2024", [{"Nimi": "Player 1"}])
    assert not is_pairs_file(None, "Sparing night", [{"Nimi": "Player 1"}])
    assert series_of("mixed", pairs=True) == "MixedDoubles" and series_of("seniors_60", pairs=False) == "SenioritMN60"


def test_pairs_entered_at_the_club(client: Any) -> None:
    """The director enters each pair as "A & B": two register players, the pair named in the
    register's spelling; a player in one pair only; a name that is no pair is refused, nothing
    stored. A pairs event is played at the club, open or mixed pairs."""
    owner = make_player("Pair Walk Director")
    club = make_club("Pair Walk Club", owner)
    tournament = tournament_create(
        user=owner,
        club=club,
        name="Mixed pairs night",
        format=Tournament.Format.DOUBLE_LOSS,
        starts_at=timezone.now(),
        tables=2,
        kind=Tournament.Kind.PAIRS,
        category=Tournament.Category.MIXED,
    )
    entry = tournament_walk_in_enter(user=owner, tournament_id=tournament.pk, name="Anna Koski  &  Ben Lehto")
    assert entry.name == "Anna Koski & Ben Lehto"
    assert entry.player is not None and entry.partner is not None
    assert (entry.player.name, entry.partner.name) == ("Anna Koski", "Ben Lehto")
    for bad in ("Anna Koski", "Ben Lehto & Cecilia Vainio", "Dora & Dora"):
        with pytest.raises(TournamentError):
            tournament_walk_in_enter(user=owner, tournament_id=tournament.pk, name=bad)
    assert TournamentEntry.objects.filter(tournament=tournament).count() == 1
    for name in ("Cecilia Vainio & Dora Salmi", "Eeva Heino & Fanny Rinne", "Greta Aalto & Hilla Niemi"):
        tournament_walk_in_enter(user=owner, tournament_id=tournament.pk, name=name)
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    client.force_login(owner)
    for page in ("", "tables/", "sheets/", "live/", "tv/"):
        response = client.get(f"/tournaments/{tournament.pk}/{page}")
        assert response.status_code == 200, page
        assert "Anna Koski &amp; Ben Lehto" in response.content.decode(), page
    assert "Mixed pairs" in client.get(f"/tournaments/{tournament.pk}/").content.decode()
    other = tournament_create(
        user=owner,
        club=club,
        name="Open pairs",
        format=Tournament.Format.DOUBLE_LOSS,
        starts_at=timezone.now(),
        tables=2,
        kind=Tournament.Kind.PAIRS,
    )
    form = client.get(f"/tournaments/{other.pk}/", HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    assert "Pari (kaksi nimeä &-merkillä yhdistettynä):" in html.unescape(form)
    for kind, category, tables in (
        (Tournament.Kind.PAIRS, Tournament.Category.GENERAL, None),  # pairs online
        (Tournament.Kind.PAIRS, Tournament.Category.WOMEN, 2),  # the program's pairs are open or mixed
        (Tournament.Kind.SINGLES, Tournament.Category.MIXED, 2),  # mixed is of pairs
        (Tournament.Kind.SINGLES, "veterans", 2),
    ):
        with pytest.raises(TournamentError):
            tournament_create(
                user=owner,
                club=club,
                name="Refused",
                format=Tournament.Format.DOUBLE_LOSS,
                starts_at=timezone.now(),
                tables=tables,
                kind=kind,
                category=category,
            )


def test_category_in_export(client: Any) -> None:
    """An event's category: from the file's `KilpaSarja`, on the event's page in words, written
    back in the export; one chosen on the event form is the one the page and the file give."""
    owner = make_player("Category Director")
    club = make_club("Category Club", owner)
    single = FIXTURE.parent / "kaisakaavio" / "tupla-13-t2.xml"
    data = single.read_bytes().replace(b"<KilpaSarja>Yleinen</KilpaSarja>", b"<KilpaSarja>SenioritMN50</KilpaSarja>")
    assert b"SenioritMN50" in data
    tournament = kaavio_import(user=owner, club=club, data=data).tournament
    assert tournament.category == Tournament.Category.SENIORS_50
    assert tournament.kind == Tournament.Kind.SINGLES
    assert dict(parse(kaavio_export(tournament=tournament)).other_fields)["KilpaSarja"] == "SenioritMN50"
    client.force_login(owner)
    page = client.get(f"/tournaments/{tournament.pk}/", HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    assert re.search(r"data-category>[^<]*50[^<]*<", page) and "seniors_50" not in page

    start = (timezone.localtime(timezone=club.zone) + datetime.timedelta(minutes=30)).strftime("%Y-%m-%dT%H:%M")
    form = {
        "name": "Women's evening",
        "format": "double_loss",
        "kind": "singles",
        "category": "women",
        "clock": "weekly_event",
        "max_entries": "16",
        "starts_at": start,
        "tables": "2",
    }
    refused = client.post(f"/clubs/{club.slug}/tournaments/new/", {**form, "category": "mixed"})
    assert refused.status_code == 400 and not Tournament.objects.filter(name="Women's evening").exists()
    sent = client.post(f"/clubs/{club.slug}/tournaments/new/", form)
    assert sent.status_code == 302
    women = Tournament.objects.get(name="Women's evening")
    assert women.category == Tournament.Category.WOMEN
    for name in ("Aino", "Bertta", "Celia", "Dora"):
        tournament_walk_in_enter(user=owner, tournament_id=women.pk, name=name)
    tournament_close_entries(user=owner, tournament_id=women.pk)
    exported = client.get(f"/tournaments/{women.pk}/kaisakaavio.xml").content
    assert dict(parse(exported).other_fields)["KilpaSarja"] == "Naiset"
