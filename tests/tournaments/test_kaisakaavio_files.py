"""KaisaKaavio event files: the pure parser and writer, and the replay command on Kaiza's
own fixture (written by Kaiza's writer from an event its draw played; not the program's samples)."""

from __future__ import annotations

from dataclasses import replace
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from game.tournaments.kaisakaavio import FORMATS, parse, replay, write
from game.tournaments.pairing.double_loss import Format
from game.tournaments.services import TournamentError

FIXTURE = Path(__file__).parent / "fixtures" / "kaiza-weekly-knockout-from-round-4.xml"
SAMPLES = Path(__file__).resolve().parents[2].parent / "shared" / "kaisakaavio"
GOOD_START = '<?xml version="1.0"?><Kilpailu><Nimi>x</Nimi><KaavioTyyppi>TuplaKaavio</KaavioTyyppi>'
PLAYERS = '<Osallistujat><Pelaaja Nimi="A" Id="1"/><Pelaaja Nimi="B" Id="2"/><Pelaaja Nimi="C" Id="3"/></Osallistujat>'


def game(first: int, second: int, points: tuple[str, str]) -> str:
    return (
        f'<Peli Kierros="1" KierrosPelaaja1="1" KierrosPelaaja2="1" PelaajaId1="{first}" PelaajaId2="{second}" '
        f'Pisteet1="{points[0]}" Pisteet2="{points[1]}" Tilanne="Pelattu"/>'
    )


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("this is not xml", "not XML"),
        ('<?xml version="1.0"?><!DOCTYPE k [<!ENTITY a "aaaa">]><Kilpailu>&a;</Kilpailu>', "document type"),
        ("<Turnaus/>", "not a KaisaKaavio event"),
        (GOOD_START.replace("TuplaKaavio", "Pudari9Kierros") + "</Kilpailu>", "unknown format 'Pudari9Kierros'"),
        (GOOD_START + PLAYERS + "<Pelit>" + game(1, 7, ("1v", "0")) + "</Pelit></Kilpailu>", "player 7"),
        (
            GOOD_START + PLAYERS + "<Pelit>" + "".join(game(1, 2 + i % 2, ("0", "5v")) for i in range(3)) + "</Pelit>"
            "</Kilpailu>",
            "player 1 has a third loss",
        ),
        (GOOD_START + PLAYERS + "<Pelit>" + game(1, 2, ("1v", "2v")) + "</Pelit></Kilpailu>", "both players"),
        (GOOD_START + PLAYERS + "<Pelit>" + game(1, 2, ("lots", "0")) + "</Pelit></Kilpailu>", "Pisteet1 is 'lots'"),
    ],
)
def test_kaisakaavio_bad_files_refused(text: str, reason: str) -> None:
    with pytest.raises(TournamentError, match=reason):
        parse(text)


def test_the_own_fixture_parses_to_its_settings_players_and_games() -> None:
    kaavio = parse(FIXTURE.read_bytes())
    assert (kaavio.format, kaavio.game_minutes, kaavio.shootout_visits, kaavio.target) == ("Pudari4Kierros", 40, 3, 60)
    assert FORMATS[kaavio.format] == (Format.DOUBLE_LOSS_THEN_KNOCKOUT, 4)
    assert len(kaavio.participants) == 11 and kaavio.participants[0].name == "Aino Aalto"
    first = kaavio.games[0]
    assert (first.round, first.first_id, first.second_id) == (1, 1, 2)
    assert first.winner in (1, 2) and 60 in (first.first_points, first.second_points)
    assert all(g.played for g in kaavio.games)


def test_parse_write_parse_round_trip() -> None:
    kaavio = parse(FIXTURE.read_bytes())
    again = parse(write(kaavio))
    assert again == kaavio
    # a shoot-out win with fewer points keeps both scores and the mark (K-11.4)
    shootout = replace(kaavio, games=(replace(kaavio.games[0], first_points=48, second_points=52, winner=1),))
    text = write(shootout)
    assert 'Pisteet1="48v"' in text and 'Pisteet2="52"' in text
    assert parse(text) == shootout


def test_replay_agrees_with_the_own_fixture_and_sees_a_changed_game() -> None:
    kaavio = parse(FIXTURE.read_bytes())
    lines = replay(kaavio)
    assert len(lines) == len(kaavio.games) and all(line.same for line in lines)
    # swap one opponent of a round-3 game: that game now differs from what Kaiza draws
    index = next(i for i, g in enumerate(kaavio.games) if g.round == 3)
    games = list(kaavio.games)
    games[index], games[index + 1] = games[index + 1], games[index]
    changed = replay(replace(kaavio, games=tuple(games)))
    assert not changed[index].same


def test_replay_command_prints_each_game_and_the_agreement() -> None:
    out = StringIO()
    call_command("kaisakaavio", "replay", str(FIXTURE), stdout=out)
    lines = out.getvalue().splitlines()
    games = len(parse(FIXTURE.read_bytes()).games)
    assert len(lines) == games + 1
    assert lines[0].split() == ["1", "round", "1", "Aino", "Aalto", "v", "Eero", "Berg", "same"]
    assert lines[-1] == f"draw agreement: {games}/{games} games"


def test_replay_command_refuses_a_bad_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.xml"
    bad.write_text("not xml")
    with pytest.raises(CommandError, match="not XML"):
        call_command("kaisakaavio", "replay", str(bad), stdout=StringIO())


@pytest.mark.skipif(not SAMPLES.is_dir(), reason=f"the program's sample files are not at {SAMPLES}")
@pytest.mark.parametrize(
    "name", ["weekly-knockout-from-round-3.xml", "pairs-double-loss.xml", "ranking-double-loss.xml"]
)
def test_replay_meets_the_bar_on_the_samples(name: str) -> None:
    """The program's sample events replay in full: the same games, in the program's order."""
    kaavio = parse((SAMPLES / name).read_bytes())
    lines = replay(kaavio)
    differing = [line for line in lines if not line.same]
    assert not differing and len(lines) == len(kaavio.games), f"{name}: first difference {differing[:1]}"
