"""Every form of a value KaisaKaavio writes or reads, read as the program reads it
(docs/double-loss-draw.md, "The forms of the program's files"), on fixtures of our own making under
fixtures/kaisakaavio-forms/: `weekly-2025.xml` an event today's program (1.0.0.48) drew and saved
headless, players renamed; `weekly-2024-layout.xml` a weekly event in the layout of the program's
2024 files, made by hand from another such event (an ISO date with its offset, a clock time with a
full stop, winners at the target typed without their `v`, a loser's `h`, a ranking mark "3P", a blank
participant row, the final being played). The program itself opens both and replays their draw.
Each hand-edited form reads as the same event; a form the program cannot open, or an event Kaiza
cannot hold, is refused with its reason, in the reader's language, and nothing is stored."""

from __future__ import annotations

import datetime
import html
import re
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import translation
from django.utils.translation import gettext

from game.models.tournaments import Tournament, TournamentEntry, TournamentPairing
from game.tournaments.draw_words import DRAW_WORDS, draw_refusal
from game.tournaments.kaisakaavio import parse, replay, results_order
from game.tournaments.pairing.double_loss import DrawError, DrawState, Event, Format, Game
from game.tournaments.pairing.double_loss_state import REASONS
from game.tournaments.services import TournamentError
from game.tournaments.services.kaavio import kaavio_export, kaavio_import, kept_of
from tests.support.community_factories import make_club, make_player

FORMS = Path(__file__).parent / "fixtures" / "kaisakaavio-forms"
TODAY = (FORMS / "weekly-2025.xml").read_text(encoding="utf-8")
OLD_LAYOUT = (FORMS / "weekly-2024-layout.xml").read_bytes()
HELSINKI = ZoneInfo("Europe/Helsinki")
FIRST_GAME = 'PelaajaId1="1" PelaajaId2="2" Pisteet1="60v" Pisteet2="26"'


def _variant(*changes: tuple[str, str]) -> bytes:
    """TODAY with each change made everywhere (each must be there: a change that misses is no test)."""
    text = TODAY
    for old, new in changes:
        assert old in text, old
        text = text.replace(old, new)
    return text.encode("utf-8")


def _times(pattern: str) -> bytes:
    """TODAY with every game's clock times (`Alkoi`, `Paattyi`, "10:07") in another form."""
    return re.sub(r'(Alkoi|Paattyi)="10:(\d\d)"', lambda m: f'{m[1]}="{pattern.format(m[2])}"', TODAY).encode()


def _event(data: bytes) -> tuple[Any, ...]:
    """What an import makes of a file, without the database: the clock and format, the draw list by
    name, each game (round, players, winner, played, points) and the start on the club's clock,
    the games Kaiza draws replaying it and the order it takes the results in (by the file's clock)."""
    kaavio = parse(data)
    name = {p.id: p.name for p in kaavio.participants}
    games = tuple(
        (
            g.round,
            name[g.first_id],
            name[g.second_id],
            name[g.first_id if g.winner == 1 else g.second_id] if g.played else None,
            (g.first_points, g.second_points),
        )
        for g in kaavio.games
    )
    start = kept_of(kaavio, tables=4, zone=HELSINKI).starts_at
    drawn = tuple(line.drawn for line in replay(kaavio))
    clock = (kaavio.format, kaavio.game_minutes, kaavio.shootout_visits, kaavio.target)
    return clock, tuple(name[i] for i in kaavio.draw_list), games, start, drawn, tuple(results_order(kaavio))


SAME_EVENT = {
    "date dd.mm.yyyy": _variant(("<AlkamisAika>1.1.2025<", "<AlkamisAika>01.01.2025<")),
    "ISO date": _variant(("<AlkamisAika>1.1.2025<", "<AlkamisAika>2025-01-01<")),
    "ISO date and time with the offset (the 2024 versions)": _variant(
        ("<AlkamisAika>1.1.2025<", "<AlkamisAika>2025-01-01T00:00:00+02:00<")
    ),
    "ISO date and time without an offset": _variant(("<AlkamisAika>1.1.2025<", "<AlkamisAika>2025-01-01T00:00:00<")),
    "start time with a full stop": _variant(("<KellonAika>10:00<", "<KellonAika>10.00<")),
    "winners at the target without their v": _variant(('"60v"', '"60"')),
    "the loser marked h": _variant((FIRST_GAME, FIRST_GAME.replace('"60v" Pisteet2="26"', '"60" Pisteet2="26h"'))),
    "marks in capitals before the number": _variant(('"60v"', '"V60"')),
    "spaces around the points": _variant(('"60v"', '" 60 v "')),
    "settings as decimals": _variant(
        ("<PeliAika>40<", "<PeliAika>40.0<"), ("<TavoitePistemaara>60<", "<TavoitePistemaara>60.00<")
    ),
    "settings left out (the program's own)": _variant(
        ("<PeliAika>40</PeliAika>", ""),
        ("<RankkareidenMaara>3</RankkareidenMaara>", ""),
        ("<TavoitePistemaara>60</TavoitePistemaara>", ""),
        ("<KaavioTyyppi>Pudari3Kierros</KaavioTyyppi>", ""),
    ),
    "a game being played whose points decide it": _variant(
        (FIRST_GAME + ' Poyta="1" Tilanne="Pelattu"', FIRST_GAME + ' Poyta="1" Tilanne="Kaynnissa"')
    ),
    "a blank participant row": _variant(("</Osallistujat>", '<Pelaaja Nimi="" Id="0" /></Osallistujat>')),
    "ranking points as a mark, no seeding": _variant(
        ('<Pelaaja Nimi="Ek Kaisa" Id="5" />', '<Pelaaja Nimi="Ek Kaisa" Sijoitettu="3P" Id="5" />')
    ),
    "game times with a full stop": _times("10.{}"),
    "game times on a 12-hour clock": _times("10:{} AM"),
}


@pytest.mark.parametrize("data", SAME_EVENT.values(), ids=SAME_EVENT.keys())
def test_kaisakaavio_forms_read_as_the_same_event(data: bytes) -> None:
    assert _event(data) == _event(TODAY.encode())


def test_kaisakaavio_forms_the_file_today_and_its_reading() -> None:
    event = _event(TODAY.encode())
    clock, _, games, start, drawn, results = event
    assert clock == ("Pudari3Kierros", 40, 3, 60)
    assert start == datetime.datetime(2025, 1, 1, 10, 0, tzinfo=HELSINKI)
    assert games[0] == (1, "Aalto Aino", "Berg Eero", "Aalto Aino", (60, 26))
    assert all(winner is not None for *_, winner, _ in games) and len(drawn) == len(games) == 17
    # the results by the games' ends (Paattyi): game 1 ended at 10:02, game 5 at 10:04, game 3 at 10:06
    assert results[:3] == (0, 4, 2) and sorted(results) == list(range(17))


@pytest.mark.services
@pytest.mark.django_db
def test_kaisakaavio_forms_of_2024_import_and_export_for_todays_program() -> None:
    """The 2024 layout imports with each result as the program reads it, the final on its table; the
    export is in today's program's forms (its date, its state names) and reads back the same."""
    owner = make_player("Forms owner")
    club = make_club("Forms club", owner)
    imported = kaavio_import(user=owner, club=club, data=OLD_LAYOUT)
    tournament = imported.tournament
    assert tournament.starts_at == datetime.datetime(2024, 11, 13, 18, 0, tzinfo=HELSINKI)
    assert tournament.time_limit == 40 * 60 and tournament.status == Tournament.Status.RUNNING
    assert TournamentEntry.objects.filter(tournament=tournament).count() == 9  # the blank row is nobody
    assert "Pelaaja Sijoitettu" in imported.ignored and tournament.seeds_marked == 0
    pairings = list(TournamentPairing.objects.filter(tournament=tournament).order_by("index"))
    done = [p for p in pairings if p.status == TournamentPairing.Status.DONE]
    assert len(done) == 16 and all(p.winner_id is not None for p in done)
    on_time = next(p for p in done if {p.first_score, p.second_score} == {45, 37})  # the loser's h
    assert on_time.winner.name == "Pelto Sanni" and on_time.result_code == "time_limit"
    shootout = next(p for p in done if {p.first_score, p.second_score} == {58, 59})
    assert shootout.winner.name == "Uusi Hely" and shootout.result_code == "shootout"
    final = pairings[-1]
    assert final.status == TournamentPairing.Status.PLAYING and final.table == 1

    written = kaavio_export(tournament=tournament)
    assert "<AlkamisAika>13.11.2024</AlkamisAika>" in written and "<KellonAika>18:00</KellonAika>" in written
    assert "<Sijoittaminen>EiSijoittamista</Sijoittaminen>" in written and 'Tilanne=""' not in written
    assert written.count('Tilanne="Pelattu"') == 16 and written.count('Tilanne="Kaynnissa"') == 1
    again, original = parse(written.encode()), parse(OLD_LAYOUT)
    name_again = {p.id: p.name for p in again.participants}
    name = {p.id: p.name for p in original.participants}
    assert [(g.round, name_again[g.first_id], name_again[g.second_id], g.winner, g.played) for g in again.games] == [
        (g.round, name[g.first_id], name[g.second_id], g.winner, g.played) for g in original.games
    ]
    assert all(line.same for line in replay(again))


@pytest.mark.services
@pytest.mark.django_db
def test_kaisakaavio_forms_no_time_limit_both_ways() -> None:
    """No limit is the program's `PeliaikaOnRajattu` false (its form writes a time of 0 with it);
    Kaiza imports it as no limit and exports it the same way, never an empty number."""
    owner = make_player("Unlimited owner")
    club = make_club("Unlimited club", owner)
    for data in (
        _variant(("<PeliAika>40</PeliAika>", "<PeliAika>0</PeliAika><PeliaikaOnRajattu>false</PeliaikaOnRajattu>")),
        _variant(("<PeliAika>40</PeliAika>", "<PeliAika>40</PeliAika><PeliaikaOnRajattu>false</PeliaikaOnRajattu>")),
    ):
        assert parse(data).game_minutes is None
    tournament = kaavio_import(user=owner, club=club, data=data).tournament
    assert tournament.time_limit is None
    written = kaavio_export(tournament=tournament)
    assert "<PeliAika>0</PeliAika>" in written and "<PeliaikaOnRajattu>false</PeliaikaOnRajattu>" in written
    assert parse(written.encode()).game_minutes is None


REFUSED = {
    "a slashed date": (
        (("<AlkamisAika>1.1.2025<", "<AlkamisAika>1/1/2025<"),),
        "AlkamisAika is '1/1/2025': a date is written as 27.11.2026 or 2026-11-27",
    ),
    "a two-digit year": (
        (("<AlkamisAika>1.1.2025<", "<AlkamisAika>1.1.25<"),),
        "AlkamisAika is '1.1.25': a date is written as 27.11.2026 or 2026-11-27",
    ),
    "no such day": (
        (("<AlkamisAika>1.1.2025<", "<AlkamisAika>29.2.2025<"),),
        "AlkamisAika is '29.2.2025': there is no such day in the calendar",
    ),
    "a start before 1970": (
        (("<AlkamisAika>1.1.2025<", "<AlkamisAika>1.1.1969<"),),
        "AlkamisAika is '1.1.1969 10:00': an event starts from 1970 to 2099",
    ),
    "a time with seconds": (
        (("<KellonAika>10:00<", "<KellonAika>10:00:00<"),),
        "KellonAika is '10:00:00': a time of day is written as 18:30 or 18.30",
    ),
    "a state in lower case": (
        (('Tilanne="Pelattu"', 'Tilanne="pelattu"'),),
        "game 1's Tilanne is 'pelattu': the program knows Tyhja, ValmiinaAlkamaan, Kaynnissa, Pelattu",
    ),
    "a game in lower case": ((("<Laji>Kaisa<", "<Laji>kaisa<"),), "Laji is 'kaisa': the program knows Kaisa, Pool"),
    "a boolean in capitals": (
        (("<PeliAika>40</PeliAika>", "<PeliAika>40</PeliAika><PeliaikaOnRajattu>True</PeliaikaOnRajattu>"),),
        "PeliaikaOnRajattu is 'True': the program writes true or false here",
    ),
    "an empty target": (
        (("<TavoitePistemaara>60<", "<TavoitePistemaara><"),),
        "TavoitePistemaara is '': the program writes a number here",
    ),
    "a fraction of a minute": (
        (("<PeliAika>40<", "<PeliAika>40.5<"),),
        "PeliAika is '40.5': a whole number is written with the digits 0 to 9",
    ),
    "both players lost": (
        ((FIRST_GAME, FIRST_GAME.replace('"60v" Pisteet2="26"', '"60h" Pisteet2="26h"')),),
        "game 1 marks both players the loser (h)",
    ),
    "both at the target, no winner": (
        ((FIRST_GAME, FIRST_GAME.replace('"60v" Pisteet2="26"', '"60" Pisteet2="61"')),),
        "game 1: both players have 60 points or more and neither is marked the winner (v)",
    ),
    "won and lost at once": (
        ((FIRST_GAME, FIRST_GAME.replace('"60v"', '"60vh"')),),
        "game 1's Pisteet1 marks its player both the winner (v) and the loser (h)",
    ),
    "not drawn yet": ((("<Pelit>", "<Pelit><!--"), ("</Pelit>", "--></Pelit>")), "the event is not drawn yet"),
    "a team event of players without teams": (
        (("<KilpaSarja>Yleinen<", "<KilpaSarja>Joukkuekilpailu<"),),
        "has no team (Joukkue)",
    ),
    "places nobody plays at": (
        (("</Osallistujat>", '</Osallistujat><PeliPaikat><Sali Nimi="A" /><Sali Nimi="B" /></PeliPaikat>'),),
        "place 2 has 0 players: each place needs at least 4",
    ),
}


@pytest.mark.services
@pytest.mark.django_db
@pytest.mark.parametrize(("changes", "reason"), REFUSED.values(), ids=REFUSED.keys())
def test_kaisakaavio_forms_the_program_cannot_open_are_refused(
    changes: tuple[tuple[str, str], ...], reason: str
) -> None:
    owner = make_player("Refusing owner")
    club = make_club("Refusing club", owner)
    with pytest.raises(TournamentError) as refused:
        kaavio_import(user=owner, club=club, data=_variant(*changes))
    assert refused.value.code == "bad_file" and reason in refused.value.message
    assert not Tournament.objects.exists() and not TournamentEntry.objects.exists()


#: The third game of round 3 drawn for a player in his own round 4: the draw's own rule refuses it.
BROKEN = _variant(
    (
        'Kierros="3" KierrosPelaaja1="3" KierrosPelaaja2="3" PelaajaId1="1" PelaajaId2="4"',
        'Kierros="4" KierrosPelaaja1="3" KierrosPelaaja2="4" PelaajaId1="1" PelaajaId2="4"',
    )
)
#: The refusal in each language: what it must say, and words of the others it must not.
BROKEN_SAYS = {
    "en": "the file is refused: the games break the draw's rules: game 11 ('Aalto Aino' v 'Dahl Jussi'): "
    "for 'Dahl Jussi' it is own round 3, not 4",
    "fi": "tiedosto hylätään: pelit rikkovat kaavion sääntöjä: peli 11 ('Aalto Aino' v 'Dahl Jussi'): "
    "pelaajalla 'Dahl Jussi' on oma kierros 3 eikä 4",
    "ru": "файл отклонён: партии нарушают правила жеребьёвки: партия 11 ('Aalto Aino' v 'Dahl Jussi'): "
    "у 'Dahl Jussi' сейчас свой тур 3, а не 4",
}


@pytest.mark.services
@pytest.mark.django_db
def test_kaisakaavio_draw_rule_refusal_reads_in_the_readers_language(client: Any) -> None:
    """The draw refuses with a code and its values; the upload words it wholly in the reader's
    language, the players by name and the game by the file's number, nothing stored."""
    owner = make_player("Worded owner")
    club = make_club("Worded club", owner)
    client.force_login(owner)
    for language, says in BROKEN_SAYS.items():
        page = client.post(
            f"/clubs/{club.slug}/kaisakaavio/",
            {"file": SimpleUploadedFile("event.xml", BROKEN), "tables": "4"},
            HTTP_ACCEPT_LANGUAGE=language,
            follow=True,
        )
        text = html.unescape(page.content.decode())
        assert page.status_code == 200 and says in text, language
        others = [other for other in BROKEN_SAYS.values() if other != says]
        assert not any(other.split(": ")[1] in text for other in others)
        assert not Tournament.objects.exists()


def test_every_draw_refusal_has_its_words_in_each_language() -> None:
    """Each code the draw refuses with has a sentence at the edge with the same values in it, worded
    in Finnish and Russian; a refusal of the pure draw names its players by name once worded."""
    assert DRAW_WORDS.keys() == REASONS.keys()
    for code, english in REASONS.items():
        values_named = set(re.findall(r"{(\w+)}", english))
        words = DRAW_WORDS[code]
        shown = set(re.findall(r"%\((\w+)\)s", words))
        assert shown <= values_named and values_named - shown <= {"format"}, code  # no internal format id
        for language in ("fi", "ru"):
            with translation.override(language):
                assert gettext(words) != words, (code, language)
    try:
        DrawState(Event(Format.DOUBLE_LOSS, (7, 8, 9, 10)), (Game(7, 11, 1, 1, 1),))
    except DrawError as error:
        refused = draw_refusal(error, names={7: "Aino Aalto"})
    with translation.override("fi"):
        assert refused.words(gettext) == "peli 1 ('Aino Aalto' v '11'): pelaaja '11' ei ole arvontalistassa"
