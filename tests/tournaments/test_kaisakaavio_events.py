"""KaisaKaavio files in and out of the database: `kaisakaavio import` makes the
file's event (walk-ins, the format, the clock, every game and result), `export` writes it back the
same; a bad file is refused with its reason and stores nothing, from the command and the upload."""

from __future__ import annotations

import datetime
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command

from game.matches.clock_presets import event_clock_of
from game.models.tournaments import Tournament, TournamentEntry, TournamentEntryMember, TournamentPairing
from game.tournaments import values
from game.tournaments.kaisakaavio import KaavioFile, parse
from game.tournaments.selectors.draw import draw_list
from game.tournaments.services import TournamentError
from game.tournaments.services.kaavio import kaavio_export, kaavio_import, seeds_for
from tests.support.community_factories import make_club, make_player
from tests.tournaments.test_kaisakaavio_files import FIXTURE, SAMPLES

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

SAMPLE_NAMES = ("weekly-knockout-from-round-3.xml", "pairs-double-loss.xml", "ranking-double-loss.xml")
SEEDED = FIXTURE.parent / "kaiza-club-night-seeded.xml"
FILES = [FIXTURE, SEEDED, *(SAMPLES / name for name in SAMPLE_NAMES if (SAMPLES / name).exists())]


def _content(kaavio: KaavioFile) -> tuple[Any, ...]:
    """What a round trip keeps: the settings, the participants in draw order, each game and result."""
    names = {p.id: p.name for p in kaavio.participants}
    games = tuple(
        (
            g.round,
            g.first_round,
            g.second_round,
            names[g.first_id],
            names[g.second_id],
            g.first_points if g.played else None,
            g.second_points if g.played else None,
            g.winner,
            g.played,
        )
        for g in kaavio.games
    )
    settings = (kaavio.name, kaavio.format, kaavio.game_minutes, kaavio.shootout_visits, kaavio.target)
    return settings, tuple(names[i] for i in kaavio.draw_list), games


def _kept(kaavio: KaavioFile) -> tuple[Any, ...]:
    """The other settings a round trip keeps (services/kaavio.py kept_of): the start as an instant
    (when the file has a date), the most entries (within Kaiza's 64), the game, the seed marks by
    name and each game's table; what the file leaves out is not compared."""
    fields = dict(kaavio.other_fields)
    start = None
    if fields.get("AlkamisAika"):
        clock = values.time_of_day(fields.get("KellonAika") or "00:00", field="KellonAika")
        start = datetime.datetime.combine(values.event_date(fields["AlkamisAika"], field="AlkamisAika"), clock)
    most = int(fields["PelaajiaEnintaan"]) if int(fields.get("PelaajiaEnintaan") or 999) <= 64 else None
    seeds = tuple(sorted((p.name, p.seeded) for p in kaavio.participants if p.seeded))
    tables = tuple(dict(g.extra).get("Poyta") or None for g in kaavio.games)
    return start, most, fields.get("Laji"), seeds, tables


def _kept_again(original: KaavioFile, written: KaavioFile) -> tuple[Any, ...]:
    """`written`'s kept settings, leaving out what `original` does not have."""
    start, most, game, seeds, tables = _kept(written)
    first = _kept(original)
    return (
        start if first[0] is not None else None,
        most if first[1] is not None else None,
        game if first[2] is not None else None,
        seeds,
        tables,
    )


def _rows() -> tuple[int, int, int]:
    return Tournament.objects.count(), TournamentEntry.objects.count(), TournamentPairing.objects.count()


def test_seeds_give_back_the_files_draw_list() -> None:
    for size in (4, 5, 8, 9, 19, 56):
        order = [100 + i for i in range(size)]
        assert list(draw_list(seeds_for(order))) == order


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_kaisakaavio_round_trip(path: Path, tmp_path: Path) -> None:
    owner = make_player(f"Owner {path.stem[:20]}")
    club = make_club(f"Club {path.stem[:20]}", owner)
    out = StringIO()
    call_command("kaisakaavio", "import", str(path), "--club", club.slug, "--tables", "6", stdout=out)
    tournament = Tournament.objects.get()
    assert f"/tournaments/{tournament.pk}/" in out.getvalue()
    original = parse(path.read_bytes())
    assert tournament.tables == 6 and not tournament.rated
    assert TournamentEntry.objects.filter(tournament=tournament).count() == len(original.participants)
    assert not TournamentEntryMember.objects.filter(tournament=tournament).exists()  # walk-ins, all
    clock = event_clock_of(ruleset=tournament.ruleset, time_limit=tournament.time_limit)
    assert (clock.game_minutes, clock.shootout_visits, clock.target_score) == (
        original.game_minutes,
        original.shootout_visits,
        original.target,
    )
    played = [g for g in original.games if g.played]
    assert TournamentPairing.objects.filter(tournament=tournament, status="done").count() == len(played)
    if len(played) == len(original.games):
        assert tournament.status == Tournament.Status.FINISHED  # every game in: the placings are stored
        assert not TournamentEntry.objects.filter(tournament=tournament, place__isnull=True).exists()

    written = tmp_path / "out.xml"
    call_command("kaisakaavio", "export", str(tournament.pk), str(written), stdout=StringIO())
    assert _content(parse(written.read_bytes())) == _content(original)
    assert _kept_again(original, parse(written.read_bytes())) == _kept(original)


def test_kaisakaavio_import_keeps_the_other_settings_and_names_what_it_ignores(tmp_path: Path, client: Any) -> None:
    """The start, the most entries, the game, the seed marks and the tables are Kaiza's own settings
    once imported (and written back: test_kaisakaavio_round_trip); the fields with no home in Kaiza
    are named by the command and on the upload page, the kept ones are not."""
    owner = make_player("Keeper")
    club = make_club("Keeping club", owner)
    out = StringIO()
    call_command("kaisakaavio", "import", str(SEEDED), "--club", club.slug, stdout=out)
    tournament = Tournament.objects.get()
    assert tournament.starts_at == datetime.datetime(2026, 11, 27, 16, 30, tzinfo=datetime.UTC)  # 18:30 +02:00
    assert (tournament.max_entries, tournament.seeds_marked, tournament.tables) == (24, 3, 4)
    seeds = dict(TournamentEntry.objects.filter(tournament=tournament).values_list("name", "seed"))
    assert (seeds["Maija Gren"], seeds["Jussi Dahl"], seeds["Eero Berg"]) == (1, 2, 3)
    tables = {
        (p.first.name, p.round.number, p.status): p.table
        for p in TournamentPairing.objects.filter(tournament=tournament)
    }
    assert tables == {
        ("Aino Aalto", 1, "done"): 1,
        ("Ilona Carlsson", 1, "playing"): 3,
        ("Kaisa Ek", 1, "done"): 2,
        ("Maija Gren", 1, "playing"): 4,
        # round 2, drawn with round 1 as the program draws it: each waits for a player still at a table
        ("Aino Aalto", 2, "playing"): None,
        ("Eero Berg", 2, "playing"): None,
        ("Kaisa Ek", 2, "playing"): None,
        ("Lauri Forss", 2, "playing"): None,
    }
    line = next(line for line in out.getvalue().splitlines() if line.startswith("not kept"))
    for name in (
        "KilpailunJohtaja",
        "Yksipaivainen",
        "OsallistumisMaksu",
        "KilpailuOnViikkokisa",
        "Pelaaja OsMaksu",
        "Peli Alkoi",
        "Peli Paattyi",
    ):
        assert name in line, line
    kept = ("AlkamisAika", "KellonAika", "PelaajiaEnintaan", "Laji", "Sijoitettu", "Seura", "Poyta", "PeliAika")
    kept += ("JalkiIlmoittautuneet",)
    for name in kept:
        assert name not in line, line
    if (SAMPLES / SAMPLE_NAMES[2]).exists():  # 256 entries are beyond Kaiza's 64: named, not kept, not refused
        text = StringIO()
        call_command("kaisakaavio", "import", str(SAMPLES / SAMPLE_NAMES[2]), "--club", club.slug, stdout=text)
        assert "PelaajiaEnintaan (256: Kaiza takes at most 64 entries)" in text.getvalue()
    client.force_login(owner)
    other = make_club("Another keeping club", owner)  # the event is this club's already
    page = client.post(
        f"/clubs/{other.slug}/kaisakaavio/",
        {"file": SimpleUploadedFile("e.xml", SEEDED.read_bytes()), "tables": "4"},
        follow=True,
    ).content.decode()
    assert (
        "The event is imported." in page
        and "Not kept from the file" in page
        and "Pelaaja OsMaksu" in page
        and "Pelaaja Seura" not in page
    )


def _file(
    players: int, games: str, kind: str = "TuplaKaavio", *, settings: str = "", marks: dict[int, str] | None = None
) -> bytes:
    marks = marks or {}
    people = "".join(f'<Pelaaja Nimi="P{i}" Sijoitettu="{marks.get(i, "")}" Id="{i}"/>' for i in range(1, players + 1))
    return (
        f'<?xml version="1.0"?><Kilpailu><Nimi>Bad event</Nimi><PeliAika>40</PeliAika>{settings}'
        f"<RankkareidenMaara>3</RankkareidenMaara><TavoitePistemaara>60</TavoitePistemaara>"
        f"<KaavioTyyppi>{kind}</KaavioTyyppi><Osallistujat>{people}</Osallistujat><Pelit>{games}</Pelit></Kilpailu>"
    ).encode()


def _game(number: int, first: int, second: int, rounds: tuple[int, int], points: tuple[str, str]) -> str:
    return (
        f'<Peli Kierros="{number}" KierrosPelaaja1="{rounds[0]}" KierrosPelaaja2="{rounds[1]}" '
        f'PelaajaId1="{first}" PelaajaId2="{second}" Pisteet1="{points[0]}" Pisteet2="{points[1]}" Tilanne="Pelattu"/>'
    )


ROUND_ONE = _game(1, 1, 2, (1, 1), ("60v", "10")) + _game(1, 3, 4, (1, 1), ("60v", "20"))
BAD_FILES = [
    (b"this is not xml at all", "not XML"),
    (_file(4, ROUND_ONE, kind="KolmoisKaavio"), "unknown format"),
    (_file(4, ROUND_ONE + _game(2, 1, 9, (2, 1), ("60v", "0"))), "player 9"),
    (
        _file(4, ROUND_ONE + _game(2, 2, 4, (2, 2), ("60v", "0")) + _game(3, 4, 3, (3, 2), ("0", "60v"))),
        "third loss",
    ),
    (_file(4, ROUND_ONE + _game(2, 1, 3, (3, 2), ("60v", "0"))), "own round"),  # the draw's rules refuse it
    (_file(3, _game(1, 1, 2, (1, 1), ("60v", "10"))), "4 to 64 participants"),
    # the other settings Kaiza keeps: a bad value is refused, not dropped (services/kaavio.py kept_of)
    (_file(4, ROUND_ONE, settings="<AlkamisAika>next friday</AlkamisAika>"), "AlkamisAika is 'next friday'"),
    (
        _file(
            4, ROUND_ONE, settings="<AlkamisAika>2026-11-27T00:00:00+02:00</AlkamisAika><KellonAika>25:00</KellonAika>"
        ),
        "KellonAika is '25:00': a time of day",
    ),
    (_file(4, ROUND_ONE, settings="<PelaajiaEnintaan>many</PelaajiaEnintaan>"), "PelaajiaEnintaan is 'many'"),
    (_file(4, ROUND_ONE, settings="<PelaajiaEnintaan>3</PelaajiaEnintaan>"), "at least the file's 4 participants"),
    (_file(4, ROUND_ONE, settings="<Laji>Pool</Laji>"), "Kaiza plays Kaisa only"),
    (_file(4, ROUND_ONE, marks={3: "9"}), "a seed is 1 to 4"),
    (_file(4, ROUND_ONE, marks={3: "1", 2: "1"}), "both marked seed 1"),
    (_file(4, ROUND_ONE, marks={3: "2"}), "without a gap"),
    (_file(4, ROUND_ONE, marks={1: "1"}), "marked seed 1 at place 1"),
    (_file(4, ROUND_ONE.replace('Tilanne="Pelattu"', 'Poyta="x" Tilanne="Pelattu"', 1)), "game 1's Poyta is 'x'"),
    (
        _file(4, ROUND_ONE.replace('"60v"', '""').replace('"10"', '""').replace('Tilanne="Pelattu"', 'Poyta="5"', 1)),
        "game 1's Poyta is '5': a table is 1 to 4",
    ),
    (
        _file(
            4,
            ROUND_ONE.replace('"60v"', '""')
            .replace('"10"', '""')
            .replace('"20"', '""')
            .replace('Tilanne="Pelattu"', 'Poyta="2"'),
        ),
        "both being played on table 2",
    ),
]


@pytest.mark.parametrize(("data", "reason"), BAD_FILES, ids=[r for _, r in BAD_FILES])
def test_kaisakaavio_bad_files_store_nothing(data: bytes, reason: str, tmp_path: Path, client: Any) -> None:
    owner = make_player("Importer")
    club = make_club("Import club", owner)
    with pytest.raises(TournamentError) as refused:
        kaavio_import(user=owner, club=club, data=data)
    assert reason in refused.value.message and refused.value.code == "bad_file"
    assert _rows() == (0, 0, 0)
    path = tmp_path / "bad.xml"
    path.write_bytes(data)
    with pytest.raises(CommandError, match=reason):
        call_command("kaisakaavio", "import", str(path), "--club", club.slug, stdout=StringIO())
    assert _rows() == (0, 0, 0)
    client.force_login(owner)
    page = client.post(
        f"/clubs/{club.slug}/kaisakaavio/", {"file": SimpleUploadedFile("bad.xml", data), "tables": "4"}, follow=True
    )
    assert "the file is refused" in page.content.decode() and _rows() == (0, 0, 0)


def test_upload_from_the_club_page_is_for_club_admins(client: Any) -> None:
    owner = make_player("Uploader")
    member = make_player("Member")
    club = make_club("Upload club", owner, members=(member,))
    client.force_login(owner)
    assert "Import a KaisaKaavio event file" in client.get(f"/clubs/{club.slug}/").content.decode()
    client.force_login(member)
    assert "Import a KaisaKaavio event file" not in client.get(f"/clubs/{club.slug}/").content.decode()
    data = FIXTURE.read_bytes()
    refused = client.post(f"/clubs/{club.slug}/kaisakaavio/", {"file": SimpleUploadedFile("e.xml", data)})
    assert refused.status_code == 403 and _rows() == (0, 0, 0)
    client.force_login(owner)
    made = client.post(
        f"/clubs/{club.slug}/kaisakaavio/", {"file": SimpleUploadedFile("e.xml", data), "tables": "3"}, follow=True
    )
    tournament = Tournament.objects.get()
    assert made.redirect_chain[-1][0] == f"/tournaments/{tournament.pk}/" and tournament.tables == 3
    assert "The event is imported." in made.content.decode()


def test_kaisakaavio_late_entrants_list_is_kept(client: Any) -> None:
    """The program's list of late entrants waiting for its draw's second stage (`JalkiIlmoittautuneet`)
    is kept: the event's page lists them (the director's late-entry form holds their names, late
    entries on), the export writes the list back as the file had it; drawn in from the page, the
    entrant leaves the list for the participants, as the program moves them."""
    owner = make_player("Late Keeper")
    club = make_club("Late keeping club", owner)
    tournament = kaavio_import(user=owner, club=club, data=SEEDED.read_bytes()).tournament
    original = parse(SEEDED.read_bytes())
    assert original.late_entrants == ((("Nimi", "Late Comer"), ("Id", "9")),)
    assert tournament.late_entries and tournament.file_late_entrants == [[["Nimi", "Late Comer"], ["Id", "9"]]]
    again = parse(kaavio_export(tournament=tournament))
    assert again.late_entrants == original.late_entrants and "Late Comer" not in {p.name for p in again.participants}

    client.force_login(owner)
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "data-file-late" in page and "Late Comer\n</textarea>" in page
    client.post(f"/tournaments/{tournament.pk}/late-entry/", {"names": "late comer\n"}, follow=True)
    entry = TournamentEntry.objects.get(tournament=tournament, name="late comer")
    assert entry.late_stage == 1
    tournament.refresh_from_db()
    assert tournament.file_late_entrants == []
    assert "data-file-late" not in client.get(f"/tournaments/{tournament.pk}/").content.decode()
    drawn = parse(kaavio_export(tournament=tournament))
    assert drawn.late_entrants == () and "late comer" in {p.name for p in drawn.participants}
