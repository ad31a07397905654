"""The runs of a game ("pisimmät sarjat": each player's longest and second-longest run) in KaisaKaavio
files: read from the program's `PisinSarja1/2` and `ToiseksiPisinSarja1/2`, kept on the game, written
back as the program writes them (a blank one left out), and a run that is no run refused with its
field, storing nothing."""

from __future__ import annotations

from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from game.models.tournaments import Tournament, TournamentPairing
from game.tournaments.kaisakaavio import parse, write
from game.tournaments.services import TournamentError
from game.tournaments.services.kaavio import kaavio_import
from tests.support.community_factories import make_club, make_player

HEAD = (
    '<?xml version="1.0"?><Kilpailu><Nimi>Runs night</Nimi><PeliAika>40</PeliAika>'
    "<RankkareidenMaara>3</RankkareidenMaara><TavoitePistemaara>60</TavoitePistemaara>"
    "<KaavioTyyppi>TuplaKaavio</KaavioTyyppi><Osallistujat>"
    + "".join(f'<Pelaaja Nimi="Player {i}" Id="{i}"/>' for i in range(1, 5))
    + "</Osallistujat><Pelit>"
)


def _game(first: int, second: int, points: tuple[str, str], runs: str = "") -> str:
    return (
        f'<Peli Kierros="1" KierrosPelaaja1="1" KierrosPelaaja2="1" PelaajaId1="{first}" PelaajaId2="{second}" '
        f'Pisteet1="{points[0]}" Pisteet2="{points[1]}" Tilanne="Pelattu" {runs}/>'
    )


RUNS = 'PisinSarja1="23" ToiseksiPisinSarja1="11" PisinSarja2="9"'
FILE = (HEAD + _game(1, 2, ("60v", "31"), RUNS) + _game(3, 4, ("12", "60v")) + "</Pelit></Kilpailu>").encode()


def test_runs_are_read_and_written_as_the_program_keeps_them() -> None:
    kaavio = parse(FILE)
    first, second = kaavio.games
    assert (first.first_runs, first.second_runs) == ((23, 11), (9, None))
    assert (second.first_runs, second.second_runs) == ((None, None), (None, None))
    assert not any(tag.endswith("Sarja1") or tag.endswith("Sarja2") for tag, _ in first.extra)
    text = write(kaavio)
    assert 'PisinSarja1="23"' in text and 'ToiseksiPisinSarja1="11"' in text and 'PisinSarja2="9"' in text
    assert "ToiseksiPisinSarja2" not in text  # blank: the program's default, left out as it leaves it out
    assert parse(text) == kaavio


@pytest.mark.parametrize(
    ("runs", "reason"),
    [
        ('PisinSarja1="lots"', "PisinSarja1 is 'lots'"),
        ('ToiseksiPisinSarja2="91"', "a run is 1 to 90"),
    ],
)
def test_a_run_that_is_no_run_is_refused(runs: str, reason: str) -> None:
    with pytest.raises(TournamentError, match=reason):
        parse((HEAD + _game(1, 2, ("60v", "31"), runs) + "</Pelit></Kilpailu>").encode())


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_runs_go_out_and_come_back_in_kaisakaavio_files(tmp_path: Path, client: Any) -> None:
    """Imported runs are the game's and the export writes them back; the score sheets of the games to
    play have the runs' boxes for the table to fill in, as the program's game details have."""
    owner = make_player("Runs director")
    club = make_club("Runs club", owner)
    tournament = kaavio_import(user=None, club=club, data=FILE).tournament
    pairing = TournamentPairing.objects.get(tournament=tournament, round__number=1, first__name="Player 1")
    assert (pairing.first_longest_run, pairing.first_second_run) == (23, 11)
    assert (pairing.second_longest_run, pairing.second_second_run) == (9, None)

    written = tmp_path / "out.xml"
    call_command("kaisakaavio", "export", str(tournament.pk), str(written), stdout=StringIO())
    runs = [(g.first_runs, g.second_runs) for g in parse(written.read_bytes()).games]
    assert [r for r in runs if r != ((None, None), (None, None))] == [((23, 11), (9, None))]

    client.force_login(owner)
    sheets = client.get(f"/tournaments/{tournament.pk}/sheets/", HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    assert sheets.count('class="sheet"') >= 1
    assert sheets.count('data-run="longest"') == sheets.count('data-run="second"') == 2 * sheets.count('class="sheet"')
    assert "Pisin sarja" in sheets and "Toiseksi pisin sarja" in sheets

    # a run out of range in one game refuses the whole file: nothing stored
    bad = FILE.replace(b'PisinSarja2="9"', b'PisinSarja2="200"')
    before = Tournament.objects.count()
    with pytest.raises(TournamentError, match="PisinSarja2 is '200'"):
        kaavio_import(user=None, club=club, data=bad)
    assert Tournament.objects.count() == before
