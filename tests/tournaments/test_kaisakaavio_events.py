"""KaisaKaavio files in and out of the database (issue 28 item 5): `kaisakaavio import` makes the
file's event (walk-ins, the format, the clock, every game and result), `export` writes it back the
same; a bad file is refused with its reason and stores nothing, from the command and the upload."""

from __future__ import annotations

from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command

from game.matches.clock_presets import event_clock_of
from game.models.tournaments import Tournament, TournamentEntry, TournamentEntryMember, TournamentPairing
from game.tournaments.kaisakaavio import KaavioFile, parse
from game.tournaments.selectors.draw import draw_list
from game.tournaments.services import TournamentError
from game.tournaments.services.kaavio import kaavio_import, seeds_for
from tests.support.community_factories import make_club, make_player
from tests.tournaments.test_kaisakaavio_files import FIXTURE, SAMPLES

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

SAMPLE_NAMES = ("weekly-knockout-from-round-3.xml", "pairs-double-loss.xml", "ranking-double-loss.xml")
FILES = [FIXTURE, *(SAMPLES / name for name in SAMPLE_NAMES if (SAMPLES / name).exists())]


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
            g.state,
        )
        for g in kaavio.games
    )
    settings = (kaavio.name, kaavio.format, kaavio.game_minutes, kaavio.shootout_visits, kaavio.target)
    return settings, tuple(names[i] for i in kaavio.draw_list), games


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


def _file(players: int, games: str, kind: str = "TuplaKaavio") -> bytes:
    people = "".join(f'<Pelaaja Nimi="P{i}" Id="{i}"/>' for i in range(1, players + 1))
    return (
        f'<?xml version="1.0"?><Kilpailu><Nimi>Bad event</Nimi><PeliAika>40</PeliAika>'
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
    (_file(3, ""), "4 to 64 participants"),
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
