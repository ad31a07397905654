"""The draw as the reference program (KaisaKaavio) draws it, order included: events the program drew
from start to end (generated with its own algorithm, players renamed, kept under fixtures/kaisakaavio)
replay in full; an event played in Kaiza, a correction included, exports a file that replays in full;
the games that become possible together are listed (and called to the tables) in the program's order;
round 1's list is drawn at random from a number the event keeps."""

from __future__ import annotations

import random
import subprocess
import sys
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.utils import timezone

from game.models.tournaments import Tournament, TournamentEntry, TournamentPairing
from game.tournaments.kaisakaavio import parse, replay, replayed
from game.tournaments.pairing.double_loss import DrawState, Event, Format, Game, games_to_add, listing_order
from game.tournaments.pairing.draw_seeding import seed_places
from game.tournaments.selectors.draw import draw_state
from game.tournaments.services import (
    tournament_close_entries,
    tournament_create,
    tournament_enter,
    tournament_walk_in_enter,
)
from game.tournaments.services.club import AT_TARGET, BoardResult, tournament_result_correct, tournament_result_enter
from game.tournaments.services.kaavio import kaavio_export
from tests.support.community_factories import make_club, make_player

FIXTURES = Path(__file__).parent / "fixtures" / "kaisakaavio"
NAMES = ("Aino", "Bertta", "Celia", "Dora", "Eeva", "Fanny", "Greta", "Hilla", "Iida", "Jenni", "Kaisu", "Liisa")


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*.xml")), ids=lambda p: p.stem)
def test_generated_events_replay_in_full(path: Path) -> None:
    """Each file is an event the program's own draw made from start to end (every format, 9 to 23
    players, 1 to 6 tables, games ended in a random order); Kaiza draws the same games in its order."""
    kaavio = parse(path.read_bytes())
    lines = replay(kaavio)
    differing = [line for line in lines if not line.same]
    assert not differing, f"{path.name}: first difference at place {differing[0].number}: {differing[0]}"
    assert len(lines) == len(kaavio.games)


def _club_event(size: int, tables: int, tag: str) -> tuple[Tournament, Any]:
    owner = make_player(f"Director {tag}")
    tournament = tournament_create(
        user=owner,
        club=make_club(f"Club {tag}", owner),
        name=f"Friday {tag}",
        format=Tournament.Format.DOUBLE_LOSS,
        starts_at=timezone.now(),
        tables=tables,
    )
    for name in NAMES[:size]:
        tournament_walk_in_enter(user=owner, tournament_id=tournament.pk, name=name)
    return tournament, owner


def _on_tables(tournament: Tournament) -> list[TournamentPairing]:
    return list(
        TournamentPairing.objects.filter(tournament=tournament, status="playing", table__isnull=False).order_by("table")
    )


def _result(pairing: TournamentPairing, first_wins: bool, loser_points: int) -> BoardResult:
    return BoardResult(60, loser_points, AT_TARGET) if first_wins else BoardResult(loser_points, 60, AT_TARGET)


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_own_export_replays_in_full(tmp_path: Path) -> None:
    """Twelve walk-ins on three tables, results entered in a random order of the tables; a round-1
    result is corrected after later games were drawn from it (the winner changes). The event's own
    export lists every game in the program's order and `kaisakaavio replay` agrees with every one."""
    tournament, owner = _club_event(12, 3, "export")
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    rng = random.Random(52)
    corrected = False
    for _ in range(200):
        playing = _on_tables(tournament)
        if not playing:
            break
        pairing = rng.choice(playing)
        tournament_result_enter(
            user=owner, pairing_id=pairing.pk, result=_result(pairing, rng.random() < 0.5, rng.randint(0, 59))
        )
        played = TournamentPairing.objects.filter(tournament=tournament, status="done")
        if not corrected and played.filter(round__number=3).count() >= 2:
            first = played.filter(round__number=1).order_by("index")[0]
            assert first.second_id is not None
            flipped = _result(first, first.winner_id == first.second_id, 40)
            redrawn = tournament_result_correct(user=owner, pairing_id=first.pk, result=flipped, confirm=True)
            assert redrawn, "the correction drew nothing again: it was made too early to test anything"
            corrected = True
    tournament.refresh_from_db()
    assert corrected and tournament.status == Tournament.Status.FINISHED

    written = tmp_path / "own.xml"
    call_command("kaisakaavio", "export", str(tournament.pk), str(written), stdout=StringIO())
    kaavio = parse(written.read_bytes())
    lines = replay(kaavio)
    assert [line.number for line in lines if not line.same] == []
    assert len(lines) == TournamentPairing.objects.filter(tournament=tournament).count()
    out = StringIO()
    call_command("kaisakaavio", "replay", str(written), stdout=out)
    assert out.getvalue().splitlines()[-1] == f"draw agreement: {len(lines)}/{len(lines)} games"
    # the file's list is the program's order: by round, then the first player's own round
    keys = [(g.round, g.first_round) for g in kaavio.games]
    assert keys == sorted(keys)
    assert kaavio_export(tournament=tournament) == written.read_text(encoding="utf-8")


def test_draw_order_of_simultaneous_games() -> None:
    """Games that become possible together are listed as the program lists them: by round, then the
    first player's own round (a player who rested plays his own earlier round first), then the two
    players' places in the list, whenever each was drawn. Thirteen players: round 2 opens with the
    one who rested in round 1 against the head of the list. In an event the program drew (a
    generated fixture), a game drawn after others of its round is listed before them where the
    program lists it, and Kaiza's list is the file's."""
    event = Event(Format.DOUBLE_LOSS, tuple(range(101, 114)))
    state = DrawState(event)
    for pairing in games_to_add(state):
        state = state.with_game(Game.drawn(pairing))
    listed = [state.games[i] for i in listing_order(state)]
    assert [(g.first, g.second, g.round, g.first_round) for g in listed[6:8]] == [(113, 101, 2, 1), (102, 103, 2, 2)]

    kaavio = parse((FIXTURES / "tupla-13-t2.xml").read_bytes())
    drawn = replayed(kaavio)  # its games in the order Kaiza drew them
    order = listing_order(drawn)
    assert [(drawn.games[i].round, drawn.games[i].first, drawn.games[i].second) for i in order] == [
        (g.round, g.first_id, g.second_id) for g in kaavio.games
    ]
    overtaken = [
        (earlier, later)
        for place, later in enumerate(order)
        for earlier in order[place + 1 :]
        if earlier < later and drawn.games[earlier].round == drawn.games[later].round
    ]
    assert overtaken, "no game of the fixture was drawn after one of its round that it is listed before"


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_draw_order_at_the_club_calls_the_programs_next_game() -> None:
    """On one table, the free table goes to the first game in the program's list whose players are
    free: after round 1 of five (the fifth rested), round 2's 5 v 1 before 2 v 3 and 4 v 5."""
    tournament, owner = _club_event(5, 1, "order")
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    state = draw_state(tournament=Tournament.objects.get(pk=tournament.pk))
    head, second, third, fourth, fifth = state.event.entrants
    calls: list[tuple[int, int | None, int]] = []
    for _ in range(5):
        (game,) = _on_tables(tournament)
        calls.append((game.first_id, game.second_id, game.round.number))
        tournament_result_enter(user=owner, pairing_id=game.pk, result=_result(game, True, 30))
    assert calls == [(head, second, 1), (third, fourth, 1), (fifth, head, 2), (second, third, 2), (fourth, fifth, 2)]


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_round_one_draw_is_random_and_reproducible() -> None:
    """At the club nobody is seeded unless marked: the list is drawn from a number the event keeps
    (so it is not the order the names were typed in), the same number gives the same list in another
    process, and another event of the same names draws another list. Online the eight best rated are
    seeded at the handbook's places and the rest are drawn."""
    lists = []
    for tag in ("a", "b"):
        tournament, owner = _club_event(12, 3, f"list {tag}")
        tournament_close_entries(user=owner, tournament_id=tournament.pk)
        tournament.refresh_from_db()
        assert tournament.draw_seed is not None
        names = dict(TournamentEntry.objects.filter(tournament=tournament).values_list("pk", "name"))
        listing = [names[e] for e in draw_state(tournament=tournament).event.entrants]
        lists.append(listing)
        # rebuilt from the rows, and in a fresh interpreter from the number alone: the same list
        assert [names[e] for e in draw_state(tournament=tournament).event.entrants] == listing
        typed = [
            e
            for e in TournamentEntry.objects.filter(tournament=tournament)
            .order_by("seed", "-rating", "id")
            .values_list("pk", flat=True)
        ]
        code = (
            "from game.tournaments.pairing.draw_seeding import seeded_draw_list, shuffled;"
            f"print(list(seeded_draw_list([], shuffled({typed}, {tournament.draw_seed}, 'list'))))"
        )
        there = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        assert [names[int(e)] for e in there.stdout.strip(" []\n").split(", ")] == listing
        # round 1 pairs the list in twos, as drawn
        round_one = TournamentPairing.objects.filter(tournament=tournament, round__number=1).order_by("index")
        assert [(p.first.name, p.second.name) for p in round_one] == list(zip(listing[::2], listing[1::2], strict=True))
    assert lists[0] != list(NAMES) and lists[1] != list(NAMES)
    assert lists[0] != lists[1]

    owner = make_player("Online director")
    players = [make_player(f"Rated {i}", rating=2000 - 10 * i) for i in range(12)]
    club = make_club("Online club", owner, members=tuple(players))
    online = tournament_create(
        user=owner, club=club, name="Online draw", format="double_loss", starts_at=timezone.now()
    )
    for player in players:
        tournament_enter(user=player, tournament_id=online.pk)
    tournament_close_entries(user=owner, tournament_id=online.pk)
    listing = list(draw_state(tournament=Tournament.objects.get(pk=online.pk)).event.entrants)
    by_seed = dict(TournamentEntry.objects.filter(tournament=online).values_list("seed", "pk"))
    for seed, place in enumerate(seed_places(12, 8), start=1):
        assert listing[place - 1] == by_seed[seed]  # seeds 1-8 by rating, at the handbook's places


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_cup_file_with_empty_seats_is_imported_and_exported_in_full(tmp_path: Path) -> None:
    """A "two rounds then cup" event of thirteen as the program drew it: a cup of sixteen with three
    empty seats (walk-overs with one player, no PelaajaId2) and players with two opening losses seated
    (one loses again: a third loss). Imported, it is the program's event; exported, it replays in full."""
    from game.tournaments.services.kaavio import kaavio_import

    owner = make_player("Cup importer")
    club = make_club("Cup import club", owner)
    data = (FIXTURES / "cup-13-t4.xml").read_bytes()
    tournament = kaavio_import(user=owner, club=club, data=data).tournament
    walkovers = TournamentPairing.objects.filter(tournament=tournament, second__isnull=True)
    assert walkovers.count() == 3 and all(p.how == "bye" and p.winner_id == p.first_id for p in walkovers)
    assert {p.slot for p in walkovers} == {"1", "3", "7"}
    assert tournament.status == Tournament.Status.FINISHED
    written = tmp_path / "cup.xml"
    written.write_text(kaavio_export(tournament=tournament), encoding="utf-8")
    original, again = parse(data), parse(written.read_bytes())
    assert [(g.round, g.first_id, g.second_id) for g in again.games] == [
        (g.round, g.first_id, g.second_id) for g in original.games
    ]
    assert all(line.same for line in replay(again))
