"""The seeded formats as the reference program (KaisaKaavio) draws them: the championship (24 seeds,
seeds 1-12 entering in round 3 and 13-24 in round 2, each round they skip a walk-over won at the
draw) and the ranking event (8 seeds spread over the list). The fixtures are events the program's own
draw made from start to end (the oracle's `montecarlo --seeds 24|8`, players renamed)."""

from __future__ import annotations

import importlib
import random
from pathlib import Path

import pytest
from django.apps import apps as django_apps
from django.utils import timezone

from game.models.tournaments import Tournament, TournamentEntry, TournamentPairing
from game.tournaments.kaisakaavio import parse, replay
from game.tournaments.pairing.double_loss import (
    DrawError,
    DrawState,
    Event,
    Format,
    Game,
    games_to_add,
    record_result,
)
from game.tournaments.pairing.draw_seeding import (
    championship_draw_list,
    championship_places,
    crowded_draw_list,
    seed_places,
    seeded_draw_list,
    shuffled,
)
from game.tournaments.selectors.draw import championship_list
from game.tournaments.services import tournament_close_entries, tournament_create, tournament_walk_in_enter
from game.tournaments.services.club import AT_TARGET, BoardResult, tournament_result_enter
from game.tournaments.services.kaavio import kaavio_export, kaavio_import
from game.tournaments.services.ranking import tournament_ranking_list_apply
from tests.support.community_factories import make_club, make_player

FIXTURES = Path(__file__).parent / "fixtures" / "kaisakaavio"


def _opened(event: Event) -> DrawState:
    state = DrawState(event)
    for pairing in games_to_add(state):
        state = state.with_game(Game.drawn(pairing))
    return state


def _first_real_round(state: DrawState, entrant: int) -> int:
    return min(g.round for g in state.games if g.has(entrant) and g.second is not None)


def _play_to_round_three(state: DrawState) -> DrawState:
    """Results for every drawn game, the first player winning, until a round-3 game is drawn."""
    for _ in range(200):
        if any(g.round >= 3 and g.second is not None for g in state.games):
            return state
        index = next(i for i, g in enumerate(state.games) if not g.played)
        state = record_result(state, index, winner=state.games[index].first)
        for pairing in games_to_add(state):
            state = state.with_game(Game.drawn(pairing))
    raise AssertionError("no round-3 game drawn")


def test_championship_draw_seeds_enter_at_rounds_two_and_three() -> None:
    seeds = tuple(range(101, 125))  # seed k is 100 + k
    unseeded = tuple(range(1, 6))
    entrants = championship_draw_list(seeds, unseeded)
    places = championship_places(len(entrants), 24)
    assert [entrants.index(s) + 1 for s in seeds] == places
    assert places[:2] == [2, 16]  # seed 1 second from the head, seed 2 past the middle: they meet last

    state = _opened(Event(Format.CHAMPIONSHIP, entrants, seeds=seeds))
    walkovers = {s: sorted(g.round for g in state.games if g.first == s and g.second is None) for s in seeds}
    assert all(walkovers[100 + k] == [1, 2] for k in range(1, 13))
    assert all(walkovers[100 + k] == [1] for k in range(13, 25))
    assert all(g.winner == g.first for g in state.games if g.second is None)
    assert all(_first_real_round(state, 100 + k) == 2 for k in range(13, 25))
    assert all(_first_real_round(state, e) <= 2 for e in unseeded)
    assert not any(g.has(100 + k) and g.second is not None for g in state.games for k in range(1, 13))

    played = _play_to_round_three(state)
    entered = {s for g in played.games if g.round == 3 and g.second is not None for s in g.players}
    assert entered & {100 + k for k in range(1, 13)}
    assert all(_first_real_round(played, s) >= 3 for s in entered & {100 + k for k in range(1, 13)})

    with pytest.raises(DrawError):  # a walk-over is a championship seed's only
        Event(Format.DOUBLE_LOSS, entrants, seeds=seeds)

    kaavio = parse((FIXTURES / "championship24-25-t4.xml").read_bytes())
    event = kaavio.event()
    assert event.format == Format.CHAMPIONSHIP and len(event.seeds) == 24
    assert [event.entrants.index(s) + 1 for s in event.seeds] == championship_places(25, 24)
    lines = replay(kaavio)
    assert all(line.same for line in lines) and len(lines) == len(kaavio.games) == 85


def test_ranking_event_eight_seeds() -> None:
    kaavio = parse((FIXTURES / "ranking8-13-t3.xml").read_bytes())
    marks = {int(p.seeded): p.id for p in kaavio.participants if p.seeded}
    assert sorted(marks) == list(range(1, 9))
    order = list(kaavio.draw_list)
    assert [order.index(marks[k]) + 1 for k in range(1, 9)] == seed_places(13, 8) == [12, 6, 3, 9, 8, 1, 4, 11]
    lines = replay(kaavio)
    assert all(line.same for line in lines) and len(lines) == len(kaavio.games)

    # the top two seeds meet in neither round of the opening, nor do seeds 1-4 among themselves
    state = _opened(Event(Format.DOUBLE_LOSS, kaavio.draw_list))
    top = {marks[k] for k in range(1, 5)}
    assert not any(set(g.players) <= top for g in state.games)


def test_small_championship_seeding() -> None:
    """A championship of fewer than its 24 places is drawn whole, seeds included, as the program
    draws it (below 24 entrants `ArvoKaavio` gives every id at random); Kaiza draws it from the
    event's draw number, so the same number gives the same list. The seeds still skip their rounds
    (the program's walk-overs go by the marks whatever the field)."""
    ids = list(range(1, 18))
    listing, seeds = championship_list(ids, draw_seed=7)
    assert listing == tuple(shuffled(ids, 7, "list")) and seeds == tuple(ids)
    assert listing[:5] != (1, 2, 3, 4, 5)  # the seeds are not at the head of the list
    assert championship_list(ids, draw_seed=7) == (listing, seeds)
    assert championship_list(ids, draw_seed=8)[0] != listing
    state = _opened(Event(Format.CHAMPIONSHIP, listing, seeds=seeds))
    walkovers = {s: sum(1 for g in state.games if g.first == s and g.second is None) for s in seeds}
    assert walkovers == {s: 2 if s <= 12 else 1 for s in seeds}

    # the program's own championship of 21, drawn whole and played out by it, replays in full
    kaavio = parse((FIXTURES / "championship-small-21-t3.xml").read_bytes())
    event = kaavio.event()
    assert len(event.seeds) == 21 and event.entrants.index(event.seeds[0]) != 0
    lines = replay(kaavio)
    assert all(line.same for line in lines) and len(lines) == len(kaavio.games)


def test_small_ranking_event_seeds_as_the_program() -> None:
    """A ranking event of 8 or fewer seeds everyone: the program's places clash (6 players: seeds 4
    and 5 on place 4, seed 6 on place 0), it lists two seeds of one place in order, draws a seed at
    place 0 with the unseeded players onto a free place, and numbers the list again without a gap.
    Kaiza draws that free place from the event's draw number."""
    seeds = (101, 102, 103, 104, 105, 106)
    lists = {crowded_draw_list(seeds, (), draw_seed) for draw_seed in range(20)}
    assert lists == {(103, 106, 102, 104, 105, 101), (103, 102, 104, 105, 101, 106)}
    assert seeded_draw_list(seeds, (), 3) == crowded_draw_list(seeds, (), 3)
    # eight: seeds 1 and 8 share the place before the foot, seed 1 first
    assert seeded_draw_list(tuple(range(101, 109)), ()) == (106, 103, 107, 102, 105, 104, 101, 108)
    # the program's own event of six seeds replays in full
    kaavio = parse((FIXTURES / "ranking8-small-6-t2.xml").read_bytes())
    assert all(line.same for line in replay(kaavio))


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("name", "format", "seeding"),
    [
        ("championship24-25-t4.xml", Tournament.Format.CHAMPIONSHIP, "Sijoitetaan24Pelaajaa"),
        ("ranking8-13-t3.xml", Tournament.Format.DOUBLE_LOSS, "Sijoitetaan8Pelaajaa"),
        ("championship-small-21-t3.xml", Tournament.Format.CHAMPIONSHIP, "Sijoitetaan24Pelaajaa"),
        ("ranking8-small-6-t2.xml", Tournament.Format.DOUBLE_LOSS, "Sijoitetaan8Pelaajaa"),
    ],
)
def test_seeded_file_imports_and_exports_in_full(tmp_path: Path, name: str, format: str, seeding: str) -> None:
    """A seeded event as the program drew it imports as the program's event (a championship's
    walk-overs won at the draw) and exports the same list, seeds and games, which replay in full."""
    short = name.split("-")[0]  # a display name holds 32 characters (PostgreSQL enforces it)
    owner = make_player(f"Importer {short}")
    club = make_club(f"Seeded club {short}", owner)
    data = (FIXTURES / name).read_bytes()
    tournament = kaavio_import(user=owner, club=club, data=data).tournament
    assert tournament.format == format
    assert tournament.status == Tournament.Status.FINISHED
    walkovers = TournamentPairing.objects.filter(tournament=tournament, second__isnull=True)
    assert all(p.how == "bye" and p.winner_id == p.first_id for p in walkovers)
    seeded = sum(1 for p in parse(data).participants if p.seeded)
    assert walkovers.count() == (seeded + min(seeded, 12) if format == Tournament.Format.CHAMPIONSHIP else 0)
    written = tmp_path / name
    written.write_text(kaavio_export(tournament=tournament), encoding="utf-8")
    original, again = parse(data), parse(written.read_bytes())
    assert dict(again.other_fields)["Sijoittaminen"] == seeding
    assert [(g.round, g.first_id, g.second_id) for g in again.games] == [
        (g.round, g.first_id, g.second_id) for g in original.games
    ]
    names = {p.id: p.name for p in original.participants}
    assert [(names[p.id], p.seeded) for p in again.participants] == [
        (p.name, p.seeded) for p in sorted(original.participants, key=lambda p: p.id)
    ]
    assert all(line.same for line in replay(again))


@pytest.mark.django_db(transaction=True)
def test_small_field_with_a_few_seeds_keeps_its_marks_through_a_round_trip() -> None:
    """A club event of 8 or fewer seeded from a ranking list with fewer seeds than entrants (their
    places do not clash) exports its marks; imported elsewhere and exported again, every entrant
    keeps his mark and his place in the list, as in the program, where a mark stays with its player.
    Kaiza lists an import of such a field with all its entrants placed, whose places clash: the
    import keeps the file's list place by place and the marks as the seeds."""
    owner = make_player("Small field director")
    names = ("Aalto", "Berg", "Carlsson", "Dahl", "Ek", "Forsman", "Grahn", "Holm")
    for size, seeds in ((4, 3), (6, 4), (8, 7)):
        tournament = tournament_create(
            user=owner,
            club=make_club(f"Small field club {size}", owner),
            name=f"Small field {size}",
            format=Tournament.Format.DOUBLE_LOSS,
            starts_at=timezone.now(),
            tables=2,
        )
        ranked = [f"{place}\t{name} Pekka\tBK Kaisa" for place, name in enumerate(names[:seeds], start=1)]
        text = "\n".join([*ranked, *(f"-\t{name} Pekka\tBK Kaisa" for name in names[seeds:size])])
        tournament_ranking_list_apply(user=owner, tournament_id=tournament.pk, text=text)
        tournament_close_entries(user=owner, tournament_id=tournament.pk)
        written = kaavio_export(tournament=Tournament.objects.get(pk=tournament.pk))
        first = parse(written)
        assert sorted(int(p.seeded) for p in first.participants if p.seeded) == list(range(1, seeds + 1))
        other_owner = make_player(f"Small field importer {size}")
        imported = kaavio_import(
            user=other_owner, club=make_club(f"Small field other {size}", other_owner), data=written.encode()
        ).tournament
        again = parse(kaavio_export(tournament=imported))
        assert again.participants == first.participants, size
        assert again.draw_list == first.draw_list, size


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_club_championship_is_played_out_and_its_export_replays_in_full(tmp_path: Path) -> None:
    """A championship of 25 walk-ins at the club on four tables: the seeds' walk-overs are stored
    decided when the entries close, the event is played out on the tables, and its export (seeding
    24) replays in full."""
    owner = make_player("Championship director")
    tournament = tournament_create(
        user=owner,
        club=make_club("Championship club", owner),
        name="Championship",
        format=Tournament.Format.CHAMPIONSHIP,
        starts_at=timezone.now(),
        tables=4,
        max_entries=32,
    )
    for number in range(1, 26):
        tournament_walk_in_enter(user=owner, tournament_id=tournament.pk, name=f"Entrant {number:02d}")
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    byes = TournamentPairing.objects.filter(tournament=tournament, second__isnull=True)
    assert byes.count() == 36 and all(p.status == "done" and p.winner_id == p.first_id for p in byes)
    rng = random.Random(24)
    for _ in range(300):
        playing = list(TournamentPairing.objects.filter(tournament=tournament, status="playing", table__isnull=False))
        if not playing:
            break
        pairing = rng.choice(playing)
        loser = rng.randint(0, 59)
        result = BoardResult(60, loser, AT_TARGET) if rng.random() < 0.5 else BoardResult(loser, 60, AT_TARGET)
        tournament_result_enter(user=owner, pairing_id=pairing.pk, result=result)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    kaavio = parse(kaavio_export(tournament=tournament))
    assert dict(kaavio.other_fields)["Sijoittaminen"] == "Sijoitetaan24Pelaajaa"
    assert sorted(int(p.seeded) for p in kaavio.participants if p.seeded) == list(range(1, 25))
    lines = replay(kaavio)
    assert all(line.same for line in lines) and len(lines) == len(kaavio.games)


@pytest.mark.django_db
def test_small_field_drawn_before_keeps_its_list() -> None:
    """A small championship drawn before its field was drawn whole kept its seeds at the head of the
    list: the migration that brought the whole draw stores that list place by place, so its games
    stay the draw's."""
    keep_lists = importlib.import_module("game.migrations.0043_entry_list_place").keep_lists
    owner = make_player("Before director")
    tournament = tournament_create(
        user=owner,
        club=make_club("Before club", owner),
        name="Small championship",
        format=Tournament.Format.CHAMPIONSHIP,
        starts_at=timezone.now(),
        tables=3,
        max_entries=32,
    )
    for letter in "ABCDEFGHIJKLM":
        tournament_walk_in_enter(user=owner, tournament_id=tournament.pk, name=f"Entrant {letter}{letter.lower()}")
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    keep_lists(django_apps, None)
    # every entrant a seed, each at the head of the list in seed order, as Kaiza drew it before
    places = dict(TournamentEntry.objects.filter(tournament=tournament).values_list("seed", "list_place"))
    assert places == {seed: seed for seed in range(1, 14)}
