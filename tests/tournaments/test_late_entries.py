"""Late entries at the club: the program's two-stage draw. Play starts with the players who are
there; a late entrant follows everyone in the draw list, the games not begun are deleted and rounds
1-2 drawn again for the longer list (the games begun stay, with their tables and results), until a
game of round 2 has begun. Real services and rows; the draw is checked against the rows."""

from __future__ import annotations

from typing import Any

import pytest

from game.models import ClubPlayer
from game.models.tournaments import Tournament, TournamentEntry, TournamentPairing
from game.tournaments.pairing.double_loss_search import opening
from game.tournaments.selectors.draw import draw_event, draw_state
from game.tournaments.services import TournamentError, tournament_close_entries
from game.tournaments.services.club import tournament_result_enter
from game.tournaments.services.late_entries import tournament_late_enter
from tests.tournaments.test_club_event import WIN_FIRST, club_event, on_tables

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _listing(tournament: Tournament) -> tuple[int, ...]:
    tournament.refresh_from_db()  # the draw number is set when the entries close
    return draw_event(tournament=tournament).entrants


def _games(tournament: Tournament) -> set[tuple[int, frozenset[int]]]:
    return {
        (p.round.number, frozenset((p.first_id, p.second_id)))
        for p in TournamentPairing.objects.filter(tournament=tournament).select_related("round")
    }


def _opening_of(listing: tuple[int, ...]) -> set[tuple[int, frozenset[int]]]:
    """Rounds 1 and 2 as the program draws them for this list (its `HaeAlkukierrokset`)."""
    return {(g.round, frozenset((listing[g.first - 1], listing[g.second - 1]))) for g in opening(len(listing))}


def _begun(tournament: Tournament) -> dict[int, tuple[str, int | None]]:
    rows = TournamentPairing.objects.filter(tournament=tournament)
    return {p.pk: (p.status, p.table) for p in rows if p.table is not None or p.status == "done"}


def test_late_entry_is_drawn_in() -> None:
    """Six players at two tables, late entries on. 1 v 2 and 3 v 4 (list places) begin; Greta comes:
    she is 7th in the list, the two games at the tables keep their rows, and the rest is the opening
    of seven (5 v 6, then 7 v 1 in round 2, ...). 1 v 2 ends, 5 v 6 takes its table; Hilla comes: 8th,
    the opening of eight around the three games begun. The draw plays to its end with everyone placed.
    Refused with nothing stored: an event without late entries, and any late entrant once a game of
    round 2 has begun."""
    tournament, owner = club_event(6, 2, tag="late", late_entries=True)
    assert tournament.late_entries
    with pytest.raises(TournamentError) as before:  # entries still open: a walk-in, not a late entrant
        tournament_late_enter(user=owner, tournament_id=tournament.pk, names=["Greta"])
    assert before.value.code == "not_running"
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    first_list = _listing(tournament)
    begun = _begun(tournament)
    assert len(begun) == 2 and _games(tournament) == _opening_of(first_list)

    (greta,) = tournament_late_enter(user=owner, tournament_id=tournament.pk, names=["Greta"])
    listing = _listing(tournament)
    assert listing == (*first_list, greta.pk) and greta.late_stage == 1
    assert _begun(tournament) == begun  # the same rows, at the same tables
    assert _games(tournament) == _opening_of(listing)
    assert (2, frozenset((listing[6], listing[0]))) in _games(tournament)  # 7 v 1, the program's round 2
    draw_state(tournament=tournament)  # the rows are a draw

    tournament_result_enter(user=owner, pairing_id=on_tables(tournament)[1].pk, result=WIN_FIRST)
    tables = on_tables(tournament)
    assert {frozenset((p.first_id, p.second_id)) for p in tables.values()} == {
        frozenset(listing[2:4]),
        frozenset(listing[4:6]),
    }
    begun = _begun(tournament)
    (hilla,) = tournament_late_enter(user=owner, tournament_id=tournament.pk, names=["Hilla"])
    listing = _listing(tournament)
    assert listing == (*first_list, greta.pk, hilla.pk) and hilla.late_stage == 2
    assert _begun(tournament) == begun
    assert _games(tournament) == _opening_of(listing)
    assert (1, frozenset((greta.pk, hilla.pk))) in _games(tournament)

    def round_two_begun() -> bool:
        return TournamentPairing.objects.filter(tournament=tournament, round__number=2, table__isnull=False).exists()

    while not round_two_begun():
        tables = on_tables(tournament)
        tournament_result_enter(user=owner, pairing_id=tables[min(tables)].pk, result=WIN_FIRST)
    entries, games = TournamentEntry.objects.filter(tournament=tournament).count(), _games(tournament)
    with pytest.raises(TournamentError) as closed:
        tournament_late_enter(user=owner, tournament_id=tournament.pk, names=["Iida"])
    assert closed.value.code == "late_closed"
    assert TournamentEntry.objects.filter(tournament=tournament).count() == entries and _games(tournament) == games

    while on_tables(tournament):
        tables = on_tables(tournament)
        tournament_result_enter(user=owner, pairing_id=tables[min(tables)].pk, result=WIN_FIRST)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    places = dict(TournamentEntry.objects.filter(tournament=tournament).values_list("name", "place"))
    assert len(places) == 8 and all(places.values()) and sorted(places.values())[0] == 1


def test_late_entries_refused_when_not_turned_on(client: Any) -> None:
    """An event without late entries takes none once its draw has begun; its page offers none,
    while the page of one with late entries offers the field to the director, in the reader's words."""
    plain, owner = club_event(4, 1, tag="plain")
    tournament_close_entries(user=owner, tournament_id=plain.pk)
    with pytest.raises(TournamentError) as refused:
        tournament_late_enter(user=owner, tournament_id=plain.pk, names=["Eeva"])
    assert refused.value.code == "no_late_entries"
    assert TournamentEntry.objects.filter(tournament=plain).count() == 4
    client.force_login(owner)
    assert "data-late-entry" not in client.get(f"/tournaments/{plain.pk}/").content.decode()

    late, owner = club_event(4, 1, tag="open", late_entries=True)
    tournament_close_entries(user=owner, tournament_id=late.pk)
    client.force_login(owner)
    page = client.get(f"/tournaments/{late.pk}/", HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    assert "data-late-entry" in page and "Jälki-ilmoittautuneet" in page
    response = client.post(f"/tournaments/{late.pk}/late-entry/", {"names": "Eeva"}, follow=True)
    assert response.status_code == 200
    assert TournamentEntry.objects.filter(tournament=late, name="Eeva", late_stage=1).exists()
    response = client.post(f"/tournaments/{late.pk}/late-entry/", {"names": "  "}, follow=True)
    assert TournamentEntry.objects.filter(tournament=late).count() == 5


def test_several_late_entrants_at_once(client: Any) -> None:
    """Three players come together: typed a name a line (a blank line aside), they are one late draw,
    as the program draws its list of late entrants in at once: seeded in the lines' order, after
    everyone in the draw list, rounds 1-2 the opening of the longer list. A list with bad lines draws
    nobody in and names each bad line with its number and why, in the reader's words: a name entered
    already, one too long, one typed twice in the list."""
    tournament, owner = club_event(4, 1, tag="many", late_entries=True)
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    first_list = _listing(tournament)
    client.force_login(owner)
    url = f"/tournaments/{tournament.pk}/late-entry/"
    page = client.post(url, {"names": "Greta\r\n\r\n  Hilla \nIida\n"}, follow=True).content.decode()
    assert "The late entrants are drawn in." in page
    late = list(TournamentEntry.objects.filter(tournament=tournament, late_stage=1).order_by("seed"))
    assert [e.name for e in late] == ["Greta", "Hilla", "Iida"] and [e.seed for e in late] == [5, 6, 7]
    listing = _listing(tournament)
    assert listing[:4] == first_list and set(listing[4:]) == {e.pk for e in late}
    assert _games(tournament) == _opening_of(listing)

    entries, games = TournamentEntry.objects.filter(tournament=tournament).count(), _games(tournament)
    bad = "Jonna\nhilla\n\n" + "K" * 81 + "\nJONNA"
    page = client.post(url, {"names": bad}, follow=True, HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    assert "ketään ei arvottu kaavioon" in page
    assert "rivi 2: Hilla on jo ilmoittautunut" in page
    assert "rivi 4: nimessä on 1–80 merkkiä" in page
    assert "rivi 5: Jonna on jo ilmoittautunut" in page and "rivi 1:" not in page
    assert TournamentEntry.objects.filter(tournament=tournament).count() == entries and _games(tournament) == games
    assert not ClubPlayer.objects.filter(club=tournament.club, name="Jonna").exists()
    with pytest.raises(TournamentError) as refused:
        tournament_late_enter(user=owner, tournament_id=tournament.pk, names=bad.split("\n"))
    assert refused.value.code == "bad_lines"
    assert (
        refused.value.message.count("line ") == 3 and "line 4: the name is 1 to 80 characters" in refused.value.message
    )
