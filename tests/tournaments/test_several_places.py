"""An event played at several places (KaisaKaavio's `PeliPaikat`, `UseanPelipaikanHakuAlgoritmi`):
each place's players drawn on their own until the joining round, then one draw; the program lists a
round's games place by place. The draw is pure (game/tournaments/pairing/double_loss.py)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from game.models.tournaments import Tournament, TournamentEntry, TournamentPairing, TournamentVenue
from game.tournaments.kaisakaavio import KaavioFile, parse, replay
from game.tournaments.pairing.double_loss import (
    DrawError,
    DrawState,
    Event,
    Format,
    Game,
    games_to_add,
    is_finished,
    is_ready,
    listing_order,
    record_result,
)
from game.tournaments.selectors.draw import draw_state
from game.tournaments.services import tournament_close_entries, tournament_create, tournament_walk_in_enter
from tests.support.community_factories import make_club, make_player

HOST, OTHER = tuple(range(1, 9)), tuple(range(9, 15))


def _played_out(event: Event, seed: int) -> DrawState:
    """The event played to its end: the first ready game in the list decided at random each time,
    the draw's games added after each result."""
    rng = random.Random(seed)
    state = DrawState(event)
    for pairing in games_to_add(state):
        state = state.with_game(Game.drawn(pairing))
    for _ in range(200):
        if is_finished(state):
            return state
        order = listing_order(state)
        place = next(p for p, i in enumerate(order) if not state.games[i].played and is_ready(state, order, p))
        game = state.games[order[place]]
        state = record_result(state, order[place], winner=rng.choice(game.players))
        for pairing in games_to_add(state):
            state = state.with_game(Game.drawn(pairing))
    raise AssertionError("the event did not end")


def test_preliminaries_at_two_places_join_at_round() -> None:
    event = Event(Format.DOUBLE_LOSS, HOST + OTHER, venues=(HOST, OTHER), join_round=4)
    opened = DrawState(event)
    for pairing in games_to_add(opened):
        opened = opened.with_game(Game.drawn(pairing))
    # each place's opening is its own list's: the six at the other place play the twist at its foot
    other_round_two = {frozenset(g.players) for g in opened.games if g.round == 2 and g.first in OTHER}
    assert {frozenset((10, 13)), frozenset((12, 14))} <= other_round_two
    firsts = [(g.first, g.second) for g in opened.games if g.round == 1]
    assert firsts == [(1, 2), (3, 4), (5, 6), (7, 8), (9, 10), (11, 12), (13, 14)]
    for seed in range(6):
        state = _played_out(event, seed)
        before = [g for g in state.games if g.round < 4]
        # a game across the places before the joining round only pairs two players each left alone
        # at his place in the round before it (the program then searches the event whole)
        apart = [g for g in before if not (set(g.players) <= set(HOST) or set(g.players) <= set(OTHER))]
        assert all(g.round == 3 and g.first_round == g.second_round == 3 for g in apart)
        assert all(event.venue_of(g) == (0 if g.first in HOST else 1) for g in before)
        assert all(event.venue_of(g) == 0 for g in state.games if g.round >= 4)
        # the program's list: by round, then the place, then the first player's own round and places
        listed = [state.games[i] for i in listing_order(state)]
        keys = [(g.round, event.venue_of(g)) for g in listed]
        assert keys == sorted(keys)
    joined = _played_out(event, 1)
    assert any(g.round >= 4 and len({p in HOST for p in g.players}) == 2 for g in joined.games)


def test_places_the_draw_refuses() -> None:
    with pytest.raises(DrawError) as small:
        Event(Format.DOUBLE_LOSS, HOST + OTHER, venues=(HOST + OTHER[:3], OTHER[3:]), join_round=4)
    assert small.value.code == "venue_too_small" and small.value.params == {"venue": 2, "count": 3, "least": 4}
    with pytest.raises(DrawError) as late:
        Event(Format.DOUBLE_LOSS, HOST + OTHER, venues=(HOST, OTHER), join_round=7)
    assert late.value.code == "join_round"
    with pytest.raises(DrawError) as apart:
        Event(Format.DOUBLE_LOSS, HOST + OTHER, venues=(HOST, OTHER[1:]), join_round=4)
    assert apart.value.code == "venue_list"
    with pytest.raises(DrawError) as cup:
        Event(Format.TWO_ROUNDS_THEN_CUP, HOST + OTHER, venues=(HOST, OTHER), join_round=4)
    assert cup.value.code == "venue_format"


FIXTURES = Path(__file__).parent / "fixtures" / "kaisakaavio"


@pytest.mark.django_db
def test_several_places_file_round_trip(client: Any) -> None:
    """An event the program drew and played at three places (joined from round 5; its share of the
    26 players by tables, 12-7-7, cut as the program cuts its ids, 12-8-6) imports through the club
    page with its places, exports the same places, players and games, and replays in full."""
    data = (FIXTURES / "places3-26-j5.xml").read_bytes()
    original = parse(data)
    assert all(line.same for line in replay(original))
    owner = make_player("Places director")
    club = make_club("Places club", owner)
    client.force_login(owner)
    made = client.post(
        f"/clubs/{club.slug}/kaisakaavio/", {"file": SimpleUploadedFile("p.xml", data), "tables": "3"}, follow=True
    )
    assert "The event is imported." in made.content.decode()
    tournament = Tournament.objects.get()
    venues = list(TournamentVenue.objects.filter(tournament=tournament).order_by("number"))
    assert [(v.short_name, v.tables) for v in venues] == [("A", 3), ("B", 2), ("C", 2)]
    assert tournament.join_round == 5 and tournament.tables == 7
    sizes = [TournamentEntry.objects.filter(tournament=tournament, venue=v).count() for v in venues]
    assert sizes == [12, 8, 6]
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Places of play" in page and "B hall" in page

    again = parse(client.get(f"/tournaments/{tournament.pk}/kaisakaavio.xml").content)
    assert [(v.short, v.tables, v.players) for v in again.venues] == [("B", 2, 8), ("C", 2, 6)]
    assert dict(again.other_fields)["KaavioidenYhdistaminenKierroksesta"] == "5"
    names = {p.id: p.name for p in original.participants}
    assert [(names[p.id], dict(p.extra)["PeliPaikka"]) for p in again.participants] == [
        (p.name, dict(p.extra)["PeliPaikka"]) for p in sorted(original.participants, key=lambda p: p.id)
    ]

    def games(kaavio: KaavioFile) -> list[tuple[int, int | None, int | None, str]]:
        return [(g.round, g.first_id, g.second_id, dict(g.extra)["Paikka"]) for g in kaavio.games]

    assert games(again) == games(original)
    lines = replay(again)
    assert all(line.same for line in lines) and len(lines) == len(original.games)


@pytest.mark.django_db
def test_director_sets_places_and_each_place_is_drawn_on_its_own(client: Any) -> None:
    """The director gives two places on the event's page; when the entries close each takes its
    share of the list by its tables (16 players, 3 and 2 tables: 10 and 6), each place's opening is
    its own, and each game gets a table of its place. A line that is not a place is refused in the
    reader's language and changes nothing."""
    owner = make_player("Venue director")
    club = make_club("Venue club", owner)
    tournament = tournament_create(
        user=owner,
        club=club,
        name="Two halls",
        format=Tournament.Format.DOUBLE_LOSS,
        starts_at=timezone.now(),
        tables=4,
        max_entries=32,
    )
    client.force_login(owner)
    url = f"/tournaments/{tournament.pk}/venues/"
    refused = client.post(
        url, {"places": "Host hall; H\nOther hall; O; 2", "join_round": "4"}, follow=True, HTTP_ACCEPT_LANGUAGE="fi"
    )
    assert "paikka 1: kirjoita rivi muodossa nimi; lyhenne; pöydät" in refused.content.decode()
    assert not TournamentVenue.objects.exists()
    client.post(url, {"places": "Host hall; H; 3\nOther hall; O; 2", "join_round": "4"})
    tournament.refresh_from_db()
    assert tournament.join_round == 4 and tournament.tables == 5
    for letter in "ABCDEFGHIJKLMNOP":
        tournament_walk_in_enter(user=owner, tournament_id=tournament.pk, name=f"Player {letter}{letter.lower()}")
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    host, other = TournamentVenue.objects.filter(tournament=tournament).order_by("number")
    at = {e.pk: e.venue_id for e in TournamentEntry.objects.filter(tournament=tournament)}
    assert sorted(list(at.values()).count(v.pk) for v in (host, other)) == [6, 10]
    state = draw_state(tournament=tournament)
    assert state.event.venues and state.event.join_round == 4
    assert all(len({at[p] for p in g.players}) == 1 for g in state.games)
    pairings = TournamentPairing.objects.filter(tournament=tournament, table__isnull=False)
    for pairing in pairings:
        tables = range(1, 4) if at[pairing.first_id] == host.pk else range(4, 6)
        assert pairing.table in tables
    assert pairings.count() == 5
    page = client.get(f"/tournaments/{tournament.pk}/tables/").content.decode()
    assert "O, table 1" in page and "H, table 3" in page
