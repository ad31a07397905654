"""The federation's ranking list pasted on an event's page (it seeds the event and fills the clubs),
its refusal line by line with nothing stored, and the handicaps an entrant's games start at, through
the pages, the result form and a KaisaKaavio file out and back in. Real services, views and rows."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from game.models import ClubPlayer
from game.models.tournaments import Tournament, TournamentEntry, TournamentPairing
from game.tournaments.kaisakaavio import parse
from game.tournaments.pairing.draw_seeding import seed_places
from game.tournaments.ranking_list import read_ranking_list
from game.tournaments.selectors.draw import draw_event
from game.tournaments.services import TournamentError, tournament_close_entries, tournament_create
from game.tournaments.services import tournament_walk_in_enter as walk_in
from game.tournaments.services.club import AT_TARGET, BoardResult, tournament_result_enter
from game.tournaments.services.kaavio import kaavio_export, kaavio_import
from game.tournaments.services.ranking import tournament_ranking_list_apply
from tests.support.community_factories import make_club, make_player

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

#: As the registration site's table is copied out of a browser: a header, tabs, "1." places, a
#: text editor's runs of spaces on one line, a registration without a place ("-").
RANKING_LIST = (
    "Sija\tNimi\tSeura\n"
    "1.\tMäkelä Sari\tBK Kaisa\n"
    "3\tVirtanen Olli\tKeravan Biljardi\n"
    "2.   Öhman Åke     Porin Kaisaseura\n"
    "\n"
    "4\tTuominen Anna\tBK Kaisa\n"
    "-\tLahti Eero\tSeinäjoen Biljardi\n"
)


def club_event(tag: str, *, max_entries: int = 16) -> tuple[Tournament, Any]:
    owner = make_player(f"Director{tag}")
    club = make_club(f"Club {tag}", owner)
    tournament = tournament_create(
        user=owner,
        club=club,
        name="Ranking event",
        format=Tournament.Format.DOUBLE_LOSS,
        starts_at=timezone.now(),
        tables=2,
        max_entries=max_entries,
    )
    return tournament, owner


def entries(tournament: Tournament) -> list[TournamentEntry]:
    return list(TournamentEntry.objects.filter(tournament=tournament).order_by("seed", "pk"))


def test_ranking_list_paste_seeds_and_clubs(client: Any) -> None:
    tournament, owner = club_event("paste")
    # entered before the list came, typed as a phone types: case and accents aside, the same people
    walk_in(user=owner, tournament_id=tournament.pk, name="makela sari")
    walk_in(user=owner, tournament_id=tournament.pk, name="Kallio Pekka")  # not on the list
    client.force_login(owner)
    response = client.post(f"/tournaments/{tournament.pk}/ranking-list/", {"list": RANKING_LIST})
    assert response.status_code == 302
    assert [str(m) for m in get_messages(response.wsgi_request)] == [
        "The ranking list seeds the event: 4 players added."
    ]

    seeded = entries(tournament)
    assert [(e.seed, e.name, e.club, e.ranking_place) for e in seeded] == [
        (1, "makela sari", "BK Kaisa", 1),  # the register's spelling of the walk-in stays
        (2, "Öhman Åke", "Porin Kaisaseura", 2),
        (3, "Virtanen Olli", "Keravan Biljardi", 3),
        (4, "Tuominen Anna", "BK Kaisa", 4),
        (5, "Lahti Eero", "Seinäjoen Biljardi", None),  # registered, no ranking place: after the ranked
        (6, "Kallio Pekka", "", None),  # not on the list: after it
    ]
    # the register keeps each player's club; the top seeds are the event's marked ones
    assert ClubPlayer.objects.get(club=tournament.club, name="Öhman Åke").home_club == "Porin Kaisaseura"
    assert ClubPlayer.objects.get(club=tournament.club, name="makela sari").home_club == "BK Kaisa"
    assert Tournament.objects.get(pk=tournament.pk).seeds_marked == 4

    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Porin Kaisaseura" in page and "ranked 2" in page

    # the draw keeps the list's seeds: seeds 1-4 stand at the handbook's places of the draw list
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    top = ["makela sari", "Öhman Åke", "Virtanen Olli", "Tuominen Anna"]
    assert [e.name for e in entries(tournament)][:4] == top
    event = draw_event(tournament=Tournament.objects.get(pk=tournament.pk))
    by_pk = {e.pk: e.name for e in seeded}
    assert [by_pk[event.entrants[place - 1]] for place in seed_places(6, 4)] == top


def test_ranking_list_uploaded_as_a_windows_csv_file(client: Any) -> None:
    tournament, owner = club_event("csv")
    client.force_login(owner)
    data = "Sija;Nimi;Seura\n1;Mäkelä Sari;BK Kaisa\n2;Öhman Åke;Porin Kaisaseura\n".encode("cp1252")
    upload = _upload("lista.csv", data)
    client.post(f"/tournaments/{tournament.pk}/ranking-list/", {"file": upload, "list": ""})
    assert [(e.name, e.club, e.seed) for e in entries(tournament)] == [
        ("Mäkelä Sari", "BK Kaisa", 1),
        ("Öhman Åke", "Porin Kaisaseura", 2),
    ]


def _upload(name: str, data: bytes) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="text/csv")


BAD_LIST = (
    "Sija\tNimi\tSeura\n"
    "1\tMäkelä Sari\tBK Kaisa\n"
    "x\tVirtanen Olli\tKeravan Biljardi\n"  # 3: no place
    "2\tÖhman Åke\n"  # 4: no club
    "3\tMAKELA SARI\tBK Kaisa\n"  # 5: line 2's player again, as the register compares names
    "1\tTuominen Anna\tBK Kaisa\n"  # 6: place 1 again
    "4\tLahti\tEero\tSeinäjoen Biljardi\n"  # 7: four parts
    "5\tKallio Pekka\tTampereen Biljardi\n"
)


@pytest.mark.parametrize(
    ("language", "lines"),
    [
        (
            "en",
            ("line 3: the place is", "line 4: a line is a place, a name and a club", "line 5:", "line 6:", "line 7:"),
        ),
        ("fi", ("rivi 3: sija on", "rivi 4: rivillä on sija, nimi ja seura", "rivi 5:", "rivi 6:", "rivi 7:")),
        ("ru", ("строка 3: место", "строка 4: в строке место, имя и клуб", "строка 5:", "строка 6:", "строка 7:")),
    ],
)
def test_ranking_list_bad_lines_store_nothing(client: Any, language: str, lines: tuple[str, ...]) -> None:
    tournament, owner = club_event(f"bad{language}")
    walk_in(user=owner, tournament_id=tournament.pk, name="Mäkelä Sari")
    before = [(e.pk, e.seed, e.club, e.ranking_place) for e in entries(tournament)]
    client.force_login(owner)
    response = client.post(
        f"/tournaments/{tournament.pk}/ranking-list/", {"list": BAD_LIST}, HTTP_ACCEPT_LANGUAGE=language
    )
    said = [str(m) for m in get_messages(response.wsgi_request)]
    assert len(said) == 1 + 5  # what happened, then each bad line once
    for line, words in zip(said[1:], lines, strict=True):
        assert line.startswith(words), (line, words)
    # nothing stored: no entry, no club, no seed, no register player, no marked seeds
    assert [(e.pk, e.seed, e.club, e.ranking_place) for e in entries(tournament)] == before
    assert not ClubPlayer.objects.filter(club=tournament.club).exclude(name="Mäkelä Sari").exists()
    assert ClubPlayer.objects.get(club=tournament.club).home_club == ""
    assert Tournament.objects.get(pk=tournament.pk).seeds_marked is None

    # the reader names the same lines, and a full event refuses a list that adds too many
    assert sorted({p.line for p in read_ranking_list(BAD_LIST)[1]}) == [3, 4, 5, 6, 7]


def test_ranking_list_beyond_the_most_entries_or_after_the_draw_is_refused() -> None:
    tournament, owner = club_event("full", max_entries=4)
    with pytest.raises(TournamentError) as refused:
        tournament_ranking_list_apply(user=owner, tournament_id=tournament.pk, text=RANKING_LIST)
    assert refused.value.code == "full"
    assert not TournamentEntry.objects.filter(tournament=tournament).exists()
    walk_in(user=owner, tournament_id=tournament.pk, name="A Player")
    walk_in(user=owner, tournament_id=tournament.pk, name="B Player")
    walk_in(user=owner, tournament_id=tournament.pk, name="C Player")
    walk_in(user=owner, tournament_id=tournament.pk, name="D Player")
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    with pytest.raises(TournamentError) as refused:
        tournament_ranking_list_apply(user=owner, tournament_id=tournament.pk, text="1\tA Player\tBK Kaisa")
    assert refused.value.code == "closed"


def test_handicap_start_score(client: Any) -> None:
    """A handicap is the score a player's games start at (the program's `Tasoitus`): typed on the
    entrants list or taken from the club's list, shown on the score sheet, the tables page and the
    live page; a result below it is refused."""
    tournament, owner = club_event("handicap")
    for name in ("Aino Aalto", "Bertta Berg", "Celia Cole", "Dora Dahl"):
        walk_in(user=owner, tournament_id=tournament.pk, name=name)
    client.force_login(owner)
    # the club's handicap list, pasted on the register's page (a name is the register's player)
    client.post(
        f"/clubs/{tournament.club.slug}/handicaps/", {"list": "Nimi\tTasoitus\naino aalto\t15\nCelia Cole  5\n"}
    )
    assert ClubPlayer.objects.get(club=tournament.club, name="Aino Aalto").handicap == 15
    client.post(f"/tournaments/{tournament.pk}/handicaps/", {"from_club": "1"})
    by_name = {e.name: e for e in entries(tournament)}
    assert (by_name["Aino Aalto"].handicap, by_name["Celia Cole"].handicap, by_name["Dora Dahl"].handicap) == (15, 5, 0)

    # typed on the entrants list: one bad value (at the target) stores none of them
    typed = {f"handicap-{by_name['Bertta Berg'].pk}": "10", f"handicap-{by_name['Dora Dahl'].pk}": "60"}
    client.post(f"/tournaments/{tournament.pk}/handicaps/", typed)
    assert TournamentEntry.objects.get(pk=by_name["Bertta Berg"].pk).handicap == 0
    typed[f"handicap-{by_name['Dora Dahl'].pk}"] = ""
    client.post(f"/tournaments/{tournament.pk}/handicaps/", typed)
    assert TournamentEntry.objects.get(pk=by_name["Bertta Berg"].pk).handicap == 10

    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    game = next(
        p
        for p in TournamentPairing.objects.filter(tournament=tournament, table__isnull=False).select_related(
            "first", "second"
        )
        if p.first.handicap or (p.second is not None and p.second.handicap)
    )
    first, second = TournamentEntry.objects.get(pk=game.first_id), TournamentEntry.objects.get(pk=game.second_id)
    start = f"(starts at {max(first.handicap, second.handicap)})"
    assert start in client.get(f"/tournaments/{tournament.pk}/tables/").content.decode()
    assert start in client.get(f"/tournaments/{tournament.pk}/live/").content.decode()
    sheets = client.get(f"/tournaments/{tournament.pk}/sheets/").content.decode()
    assert f"starts at {max(first.handicap, second.handicap)}" in sheets
    assert f'min="{first.handicap}"' in client.get(f"/tournaments/{tournament.pk}/tables/").content.decode()

    # the result form accepts scores from the handicap up
    low_side = 0 if first.handicap else 1
    handicapped = (first, second)[low_side]
    below = [60, 60]
    below[low_side] = handicapped.handicap - 1
    below[1 - low_side] = 60
    with pytest.raises(TournamentError) as refused:
        tournament_result_enter(user=owner, pairing_id=game.pk, result=BoardResult(below[0], below[1], AT_TARGET))
    assert "a score is" in refused.value.message and str(handicapped.handicap) in refused.value.message
    at_start = [60, 60]
    at_start[low_side] = handicapped.handicap
    tournament_result_enter(user=owner, pairing_id=game.pk, result=BoardResult(at_start[0], at_start[1], AT_TARGET))
    assert TournamentPairing.objects.get(pk=game.pk).status == TournamentPairing.Status.DONE


def test_club_and_handicap_round_trip_through_kaisakaavio(client: Any) -> None:
    """The export writes each entrant's club (`Seura`) and handicap (`Tasoitus`), the import reads
    them back into the entries and the register, and names neither as ignored."""
    tournament, owner = club_event("trip")
    tournament_ranking_list_apply(user=owner, tournament_id=tournament.pk, text=RANKING_LIST)
    lahti = TournamentEntry.objects.get(tournament=tournament, name="Lahti Eero")
    TournamentEntry.objects.filter(pk=lahti.pk).update(handicap=12)
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    written = kaavio_export(tournament=Tournament.objects.get(pk=tournament.pk))
    kaavio = parse(written)
    clubs = {p.name: (p.club, p.handicap) for p in kaavio.participants}
    assert clubs["Lahti Eero"] == ("Seinäjoen Biljardi", "12")
    assert clubs["Öhman Åke"] == ("Porin Kaisaseura", "")
    assert 'Tasoitus="12"' in written and written.count("Tasoitus=") == 1

    other_owner = make_player("OtherDirector")
    other = make_club("Other club", other_owner)
    imported = kaavio_import(user=other_owner, club=other, data=written.encode())
    again = {e.name: (e.club, e.handicap) for e in TournamentEntry.objects.filter(tournament=imported.tournament)}
    assert again["Lahti Eero"] == ("Seinäjoen Biljardi", 12)
    assert again["Mäkelä Sari"] == ("BK Kaisa", 0)
    assert ClubPlayer.objects.get(club=other, name="Virtanen Olli").home_club == "Keravan Biljardi"
    assert not any(name.startswith(("Pelaaja Seura", "Pelaaja Tasoitus")) for name in imported.ignored)
    assert parse(kaavio_export(tournament=imported.tournament)).participants == kaavio.participants


def test_kaisakaavio_handicap_must_be_below_the_target() -> None:
    tournament, owner = club_event("badtasoitus")
    tournament_ranking_list_apply(user=owner, tournament_id=tournament.pk, text=RANKING_LIST)
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    written = kaavio_export(tournament=Tournament.objects.get(pk=tournament.pk))
    broken = written.replace('Nimi="Lahti Eero"', 'Nimi="Lahti Eero" Tasoitus="60"')
    other_owner = make_player("OtherDirector2")
    with pytest.raises(TournamentError) as refused:
        kaavio_import(user=other_owner, club=make_club("Other two", other_owner), data=broken.encode())
    assert "Tasoitus" in refused.value.message and "Lahti Eero" in refused.value.message
