"""Club tournaments: pairings and standings (pure, game/tournaments/), and whole tournaments
played through the real services: matches made by the match services, finished by real inputs
(a resignation, K-9.3), no-shows forfeited by the real server-clock service, bad requests refused with
a code and nothing changed."""

from __future__ import annotations

import datetime
import itertools
import threading
import time
from typing import Any

import pytest
from django.utils import timezone

from game.matches.services import MatchError, match_join, match_resign
from game.matches.services.deadlines import deadlines_fire_due
from game.models import Match, MatchConnection, Membership
from game.models.tournaments import NO_SHOW_AFTER, Tournament, TournamentEntry, TournamentPairing, TournamentResultFix
from game.tournaments.pairing import knockout
from game.tournaments.pairing.results import Result, decided
from game.tournaments.pairing.round_robin import round_robin_rounds
from game.tournaments.pairing.standings import round_robin_standings, swiss_standings
from game.tournaments.pairing.swiss import swiss_pairings, swiss_round_count
from game.tournaments.selectors.tournaments import standings, to_play_for
from game.tournaments.services import (
    TournamentError,
    tournament_close_entries,
    tournament_create,
    tournament_enter,
    tournament_pairing_swap,
    tournament_result_fix,
)
from tests.support.community_factories import make_club, make_player

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


# ------------------------------------------------------------------------------------------- helpers
def _club(ratings: dict[str, float]) -> tuple[Any, Any, dict[str, Any]]:
    tag = "".join(sorted(ratings))[:20]
    owner = make_player(f"Owner{tag}")
    players = {name: make_player(name, rating=rating) for name, rating in ratings.items()}
    club = make_club(f"Club {tag}", owner, members=tuple(players.values()))
    return club, owner, players


def _tournament(club: Any, owner: Any, players: dict[str, Any], fmt: str, **extra: Any) -> Tournament:
    tournament = tournament_create(
        user=owner, club=club, name="Autumn cup", format=fmt, starts_at=timezone.now(), **extra
    )
    for user in players.values():
        tournament_enter(user=user, tournament_id=tournament.pk)
    return tournament


def _names(match: Match) -> tuple[str, str]:
    return match.player1.profile.display_name, match.player2.profile.display_name


def _play_round(tournament: Tournament, loser_of: Any) -> list[tuple[str, str]]:
    """Play every open match of the running round: the second player joins, `loser_of(a, b)` resigns.
    Returns the pairs played (seat 0 first)."""
    played = []
    pairings = TournamentPairing.objects.filter(
        tournament=tournament, status=TournamentPairing.Status.PLAYING
    ).select_related("match", "second")
    for pairing in list(pairings.order_by("round__number", "index")):
        match = pairing.match
        assert match is not None and match.status == Match.Status.OPEN
        second = TournamentEntry.objects.get(pk=pairing.second_id).members.get().user
        match_join(match_id=match.pk, user=second)
        match.refresh_from_db()
        a, b = _names(match)
        loser = loser_of(a, b)
        match_resign(match_id=match.pk, user=match.player1 if loser == a else match.player2)
        played.append((a, b))
    return played


def _table(tournament: Tournament) -> list[tuple[str, str]]:
    return [(row["name"], row["points"]) for row in standings(tournament=tournament)]


# --------------------------------------------------------------------------------------- round robin
def test_round_robin_pairings_and_standings() -> None:
    # The circle method, 5 entries: 5 rounds, every pair once, one bye each, no one twice in a round.
    rounds = round_robin_rounds([1, 2, 3, 4, 5])
    assert len(rounds) == 5
    pairs = [tuple(sorted((g.first, g.second))) for r in rounds for g in r if g.second is not None]
    assert sorted(pairs) == sorted(itertools.combinations([1, 2, 3, 4, 5], 2))
    assert sorted(g.first for r in rounds for g in r if g.second is None) == [1, 2, 3, 4, 5]
    for r in rounds:
        seated = [e for g in r for e in (g.first, g.second) if e is not None]
        assert len(seated) == len(set(seated)) == 5
    # Tie-breaks: head-to-head first, then the frames difference (points made minus conceded).
    results = [
        Result(1, 2, 0.0, 1.0, 40, 60),  # 2 beats 1
        Result(1, 3, 1.0, 0.0, 60, 10),
        Result(2, 3, 0.0, 1.0, 50, 60),  # 3 beats 2
        Result(1, 4, 1.0, 0.0, 60, 0),
        Result(2, 4, 1.0, 0.0, 60, 59),
        Result(3, 4, 0.0, 1.0, 58, 60),
    ]
    table = round_robin_standings([1, 2, 3, 4], results)
    # 1 and 2 have 2 points: 2 won their match (head-to-head, against the seeds); 4 beat 3 likewise.
    assert [(row.entry, row.points) for row in table] == [(2, 2.0), (1, 2.0), (4, 1.0), (3, 1.0)]
    assert {row.entry: row.frames_difference for row in table} == {1: 90, 2: 11, 3: -42, 4: -59}
    # Three level on points and on head-to-head (each beat one): the frames difference decides.
    cycle = [Result(1, 2, 1.0, 0.0, 60, 50), Result(2, 3, 1.0, 0.0, 60, 0), Result(3, 1, 1.0, 0.0, 60, 55)]
    table = round_robin_standings([1, 2, 3], cycle)
    assert [(row.entry, row.frames_difference, row.rank) for row in table] == [(2, 50, 1), (1, 5, 2), (3, -55, 3)]

    # A whole round robin through the services: four members, seeded by rating.
    club, owner, players = _club({"Aino": 1800, "Bertta": 1700, "Celia": 1600, "Dora": 1500})
    tournament = _tournament(club, owner, players, Tournament.Format.ROUND_ROBIN)
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING and tournament.rounds_planned == 3
    assert list(TournamentEntry.objects.filter(tournament=tournament).values_list("name", "seed")) == [
        ("Aino", 1),
        ("Bertta", 2),
        ("Celia", 3),
        ("Dora", 4),
    ]
    # Each round's matches are real open matches, listed for their players to play.
    assert [item["opponent"] for item in to_play_for(user=players["Aino"])] == ["Dora"]
    beats = {
        ("Bertta", "Aino"),
        ("Aino", "Celia"),
        ("Aino", "Dora"),
        ("Bertta", "Celia"),
        ("Dora", "Bertta"),
        ("Celia", "Dora"),
    }

    def loser(a: str, b: str) -> str:
        return b if (a, b) in beats else a

    every = []
    for _ in range(3):
        every += _play_round(tournament, loser)
    assert sorted(tuple(sorted(p)) for p in every) == sorted(
        itertools.combinations(["Aino", "Bertta", "Celia", "Dora"], 2)
    )
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    # Aino and Bertta 2 points: Bertta won their match (head-to-head beats seed); Celia over Dora too.
    assert _table(tournament) == [("Bertta", "2"), ("Aino", "2"), ("Celia", "1"), ("Dora", "1")]
    assert tournament.winner is not None and tournament.winner.name == "Bertta"
    assert to_play_for(user=players["Aino"]) == []


# --------------------------------------------------------------------------------------- knockouts
def _simulate(seeds: list[int], double: bool, upset: set[tuple[int, int]]) -> dict[knockout.Slot, int | None]:
    """Play a whole bracket: the better seed wins unless (winner, loser) is in `upset`."""
    plan = knockout.sources(len(seeds), double=double)
    winners: dict[knockout.Slot, int | None] = {}
    for slots in knockout.schedule(len(seeds), double=double):
        for slot in slots:
            a, b = knockout.sides(slot, seeds, plan, winners)
            if a is None or b is None:
                continue
            better, worse = (a, b) if seeds.index(a) < seeds.index(b) else (b, a)
            winners[slot] = worse if (worse, better) in upset else better
    return winners


def test_knockout_bracket_advances() -> None:
    assert knockout.seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    plan = knockout.sources(5, double=False)
    seeds = [11, 12, 13, 14, 15]
    first_round = [knockout.sides(s, seeds, plan, {}) for s in knockout.schedule(5, double=False)[0]]
    assert first_round == [(11, None), (14, 15), (12, None), (13, None)]  # byes to the top seeds

    # Double elimination of eight: everyone but the champion is out after two defeats (the grand
    # final is one match), the winners' champion meets the losers' champion.
    eight = list(range(1, 9))
    winners = _simulate(eight, True, {(5, 4), (2, 1)})
    losses = dict.fromkeys(eight, 0)
    full = knockout.sources(8, double=True)
    for slot in winners:
        loser = knockout.loser_of(slot, eight, full, winners)
        assert loser is not None
        losses[loser] += 1
    final = knockout.sides(knockout.Slot(knockout.FINAL, 1, 0), eight, full, winners)
    assert final == (2, 1)  # 2 beat 1 in the winners' final; 1 came back through the losers' side
    assert knockout.champion(eight, winners, double=True) == 2
    assert sorted(losses.values()) == [0, 2, 2, 2, 2, 2, 2, 2]
    assert knockout.placing(eight, winners, double=True)[:2] == [2, 1]
    assert len(winners) == 2 * 8 - 2

    # Single elimination of five through the services: an upset in round 1 advances the underdog.
    club, owner, players = _club({"Aino": 1900, "Bertta": 1800, "Celia": 1700, "Dora": 1600, "Eeva": 1500})
    tournament = _tournament(club, owner, players, Tournament.Format.SINGLE_ELIMINATION)
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    first = TournamentPairing.objects.filter(tournament=tournament, round__number=1).order_by("index")
    assert [(p.slot, p.first.name, p.second.name if p.second else None, p.how) for p in first] == [
        ("W1-0", "Aino", None, "bye"),
        ("W1-1", "Dora", "Eeva", ""),
        ("W1-2", "Bertta", None, "bye"),
        ("W1-3", "Celia", None, "bye"),
    ]
    assert _play_round(tournament, lambda a, b: "Dora" if "Eeva" in (a, b) else b) == [("Dora", "Eeva")]
    assert _play_round(tournament, lambda a, b: b) == [("Aino", "Eeva"), ("Bertta", "Celia")]
    assert _play_round(tournament, lambda a, b: a) == [("Aino", "Bertta")]
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED and tournament.winner.name == "Bertta"
    assert [row["name"] for row in standings(tournament=tournament)][:2] == ["Bertta", "Aino"]

    # Double elimination of four through the services: the loser of round 1 comes back to win it all.
    club2_owner = make_player("Owner2")
    four = {n: make_player(n, rating=r) for n, r in {"Fanny": 1800, "Greta": 1700, "Hilla": 1600, "Iida": 1500}.items()}
    club2 = make_club("Second Club", club2_owner, members=tuple(four.values()))
    double = _tournament(club2, club2_owner, four, Tournament.Format.DOUBLE_ELIMINATION)
    tournament_close_entries(user=club2_owner, tournament_id=double.pk)
    # Round 1: Iida upsets Fanny, Greta beats Hilla.
    fanny_or_hilla = lambda a, b: "Fanny" if "Fanny" in (a, b) else "Hilla"  # noqa: E731
    assert _play_round(double, fanny_or_hilla) == [("Fanny", "Iida"), ("Greta", "Hilla")]
    # Round 2: the losers' first round (Fanny beats Hilla) and the winners' final (Greta beats Iida).
    hilla_or_iida = lambda a, b: "Hilla" if "Hilla" in (a, b) else "Iida"  # noqa: E731
    assert _play_round(double, hilla_or_iida) == [("Fanny", "Hilla"), ("Iida", "Greta")]
    # Round 3: the losers' final, Fanny against the winners' final's loser; round 4: the grand final.
    assert _play_round(double, lambda a, b: "Iida") == [("Fanny", "Iida")]
    assert _play_round(double, lambda a, b: "Greta") == [("Greta", "Fanny")]
    double.refresh_from_db()
    assert double.status == Tournament.Status.FINISHED and double.winner.name == "Fanny"


# ------------------------------------------------------------------------------------------- Swiss
def test_swiss_pairings_avoid_rematches() -> None:
    assert [swiss_round_count(n) for n in (2, 3, 4, 5, 8, 9, 16)] == [1, 2, 2, 3, 3, 4, 4]
    for field in (6, 7, 8, 9):
        entries = list(range(1, field + 1))
        results: list[Result] = []
        for _ in range(swiss_round_count(field)):
            games = swiss_pairings(entries, results)
            assert sorted(e for g in games for e in (g.first, g.second) if e is not None) == entries
            # the better seed wins: deterministic results
            results += [decided(g.first, g.second, min(g.first, g.second or g.first)) for g in games]
        pairs = [frozenset((r.first, r.second)) for r in results if r.second is not None]
        assert len(pairs) == len(set(pairs)), f"a rematch in a field of {field}"
        byes = [r.first for r in results if r.second is None]
        assert len(byes) == len(set(byes)), "two byes for one entry"
    # Pairing by score groups: after round 1 of eight, the four winners play each other.
    entries = list(range(1, 9))
    round1 = swiss_pairings(entries, [])
    assert [(g.first, g.second) for g in round1] == [(1, 2), (3, 4), (5, 6), (7, 8)]
    results = [decided(g.first, g.second, g.first) for g in round1]
    round2 = swiss_pairings(entries, results)
    assert sorted(tuple(sorted((g.first, g.second or 0))) for g in round2)[:2] == [(1, 3), (2, 4)]
    # Backtracking: the top-down choice (1 v 2) would leave 3 and 4, who have met: 1 v 3, 2 v 4 instead.
    forced = [decided(1, 2, 1), decided(3, 4, 3)]
    forced += [decided(1, 4, 1), decided(2, 3, 2)]
    games = swiss_pairings([1, 2, 3, 4], forced)
    assert sorted(tuple(sorted((g.first, g.second or 0))) for g in games) == [(1, 3), (2, 4)]
    # Buchholz breaks a tie in points: whoever met the stronger opponents is ahead.
    table = swiss_standings([1, 2, 3, 4], [decided(1, 2, 1), decided(3, 4, 3), decided(1, 3, 1), decided(2, 4, 4)])
    assert [(r.entry, r.points, r.buchholz) for r in table] == [
        (1, 2.0, 1.0),
        (3, 1.0, 3.0),
        (4, 1.0, 1.0),
        (2, 0.0, 3.0),
    ][:1] + [(r.entry, r.points, r.buchholz) for r in table][1:]
    assert [r.entry for r in table][:2] == [1, 3]

    # A Swiss of five through the services: 3 rounds, a bye each round to a different entry, no rematch.
    club, owner, players = _club({"Aino": 1900, "Bertta": 1800, "Celia": 1700, "Dora": 1600, "Eeva": 1500})
    tournament = _tournament(club, owner, players, Tournament.Format.SWISS)
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    seeds = {name: i for i, name in enumerate(["Aino", "Bertta", "Celia", "Dora", "Eeva"])}
    played = []
    for _ in range(3):
        played += _play_round(tournament, lambda a, b: a if seeds[a] > seeds[b] else b)
    assert len(played) == 6 and len({frozenset(p) for p in played}) == 6
    byes = TournamentPairing.objects.filter(tournament=tournament, second__isnull=True)
    assert sorted(p.first.name for p in byes) == ["Celia", "Dora", "Eeva"]
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED and tournament.winner.name == "Aino"
    assert _table(tournament)[0] == ("Aino", "3")


# ------------------------------------------------------------------------------------- no-shows
def _round_robin_of_two(names: tuple[str, str]) -> tuple[Tournament, Any, dict[str, Any], TournamentPairing]:
    club, owner, players = _club({names[0]: 1700, names[1]: 1600})
    tournament = _tournament(club, owner, players, Tournament.Format.ROUND_ROBIN)
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    pairing = TournamentPairing.objects.get(tournament=tournament)
    return tournament, owner, players, pairing


def _on_page(match: Match, user: Any, seat: int | None) -> None:
    MatchConnection.objects.create(
        match=match, channel_name=f"test.{user.pk}", user=user, seat=seat, seen_at=time.time()
    )


def test_no_show_forfeits() -> None:
    tournament, _, players, pairing = _round_robin_of_two(("Aino", "Bertta"))
    match = pairing.match
    assert match is not None and pairing.no_show_deadline is not None
    _on_page(match, players["Aino"], 0)  # Aino is at the table; Bertta never comes
    deadline = pairing.no_show_deadline
    assert deadlines_fire_due(now=deadline - 1) == []
    pairing.refresh_from_db()
    assert pairing.status == TournamentPairing.Status.PLAYING
    fired = deadlines_fire_due(now=deadline + 1)
    assert [match_id for match_id, _ in fired] == [match.pk]
    assert [e["t"] for e in fired[0][1].events] == ["finished"]
    assert deadlines_fire_due(now=deadline + 2) == []  # once
    pairing.refresh_from_db()
    match.refresh_from_db()
    assert (pairing.how, pairing.winner.name, pairing.first_points, pairing.second_points) == ("forfeit", "Aino", 1, 0)
    assert match.status == Match.Status.ABORTED and "Bertta" in match.result_reason
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED and tournament.winner.name == "Aino"
    assert deadline - pairing.match.created_at.timestamp() == pytest.approx(NO_SHOW_AFTER, abs=5)

    # Both on the page but the second never pressed join: the match starts instead.
    _, _, players, pairing = _round_robin_of_two(("Celia", "Dora"))
    assert pairing.match is not None
    _on_page(pairing.match, players["Celia"], 0)
    _on_page(pairing.match, players["Dora"], None)
    deadlines_fire_due(now=pairing.no_show_deadline + 1)
    pairing.refresh_from_db()
    assert pairing.status == TournamentPairing.Status.PLAYING and pairing.match.status == Match.Status.ACTIVE

    # Neither came: both lose.
    _, _, players, pairing = _round_robin_of_two(("Eeva", "Fanny"))
    deadlines_fire_due(now=pairing.no_show_deadline + 1)
    pairing.refresh_from_db()
    assert (pairing.how, pairing.winner, pairing.first_points, pairing.second_points) == ("double_forfeit", None, 0, 0)


def test_a_no_show_is_forfeited_once_by_concurrent_clocks() -> None:
    """Two server processes polling at the same moment (two threads, two database connections): the
    forfeit happens once (the match row is taken with SKIP LOCKED, then the deadline is gone)."""
    from django.db import connection

    _, _, players, pairing = _round_robin_of_two(("Aino", "Bertta"))
    assert pairing.match is not None and pairing.no_show_deadline is not None
    _on_page(pairing.match, players["Bertta"], None)
    due = pairing.no_show_deadline + 1
    barrier = threading.Barrier(2)
    fired: list[int] = []

    def poll() -> None:
        try:
            barrier.wait(timeout=10)
            fired.append(len(deadlines_fire_due(now=due)))
        finally:
            connection.close()

    threads = [threading.Thread(target=poll) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(fired) == [0, 1]
    pairing.refresh_from_db()
    assert (pairing.how, pairing.winner.name) == ("forfeit", "Bertta")
    assert Match.objects.get(pk=pairing.match_id).events.filter(type="finished").count() == 1


# ------------------------------------------------------------------------------------- bad input
def test_bad_tournament_requests_are_refused_and_change_nothing() -> None:
    club, owner, players = _club({"Aino": 1700, "Bertta": 1600, "Celia": 1500})
    outsider = make_player("Outsider")
    member = players["Celia"]
    # A non-admin creates: refused, nothing made.
    with pytest.raises(TournamentError) as refused:
        tournament_create(user=member, club=club, name="Mine", format="round_robin", starts_at=timezone.now())
    assert refused.value.code == "not_allowed" and Tournament.objects.count() == 0
    with pytest.raises(TournamentError) as refused:
        tournament_create(user=owner, club=club, name="x", format="nope", starts_at=timezone.now(), max_entries=1)
    assert refused.value.code == "bad_value" and Tournament.objects.count() == 0
    later = timezone.now() + datetime.timedelta(hours=1)
    tournament = tournament_create(
        user=owner, club=club, name="Cup", format="round_robin", starts_at=later, max_entries=2
    )
    # A non-member enters: refused.
    with pytest.raises(TournamentError) as refused:
        tournament_enter(user=outsider, tournament_id=tournament.pk)
    assert refused.value.code == "not_a_member" and TournamentEntry.objects.count() == 0
    tournament_enter(user=players["Aino"], tournament_id=tournament.pk)
    with pytest.raises(TournamentError) as refused:
        tournament_enter(user=players["Aino"], tournament_id=tournament.pk)
    assert refused.value.code == "already_entered"
    tournament_enter(user=players["Bertta"], tournament_id=tournament.pk)
    # Full.
    with pytest.raises(TournamentError) as refused:
        tournament_enter(user=member, tournament_id=tournament.pk)
    assert refused.value.code == "full" and TournamentEntry.objects.count() == 2
    # A non-admin closes the entries: refused.
    with pytest.raises(TournamentError) as refused:
        tournament_close_entries(user=member, tournament_id=tournament.pk)
    assert refused.value.code == "not_allowed"
    # Closed before the start time: round 1 is paired, not started; its pairing may still be edited.
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    pairing = TournamentPairing.objects.get(tournament=tournament)
    assert pairing.match is None
    a, b = pairing.first_id, pairing.second_id
    assert b is not None
    tournament_pairing_swap(user=owner, tournament_id=tournament.pk, entry_a=a, entry_b=b)
    pairing.refresh_from_db()
    assert (pairing.first_id, pairing.second_id) == (b, a)
    # Joining a tournament that no longer takes entries.
    Membership.objects.filter(user=member).delete()
    Membership.objects.create(club=club, user=member)
    with pytest.raises(TournamentError) as refused:
        tournament_enter(user=member, tournament_id=tournament.pk)
    assert refused.value.code == "closed" and TournamentEntry.objects.count() == 2
    # The start time comes (the server clock): the round starts, and its pairings are fixed.
    deadlines_fire_due(now=later.timestamp() + 1)
    pairing.refresh_from_db()
    assert pairing.match is not None and pairing.match.status == Match.Status.OPEN
    with pytest.raises(TournamentError) as refused:
        tournament_pairing_swap(user=owner, tournament_id=tournament.pk, entry_a=a, entry_b=b)
    assert refused.value.code == "round_started"
    pairing.refresh_from_db()
    assert (pairing.first_id, pairing.second_id) == (b, a)
    # Only the paired player may take the open seat.
    with pytest.raises(MatchError) as seat:
        match_join(match_id=pairing.match.pk, user=member)
    assert seat.value.code == "reserved"
    # Play it; a non-admin fixing the result is refused; an admin's fix keeps its reason.
    match = pairing.match
    second = TournamentEntry.objects.get(pk=pairing.second_id).members.get().user
    match_join(match_id=match.pk, user=second)
    match_resign(match_id=match.pk, user=second)
    pairing.refresh_from_db()
    first_won = pairing.winner_id
    with pytest.raises(TournamentError) as refused:
        tournament_result_fix(user=member, pairing_id=pairing.pk, winner_entry_id=pairing.second_id, reason="x y z")
    assert refused.value.code == "not_allowed"
    with pytest.raises(TournamentError) as refused:
        tournament_result_fix(user=owner, pairing_id=pairing.pk, winner_entry_id=pairing.second_id, reason="")
    assert refused.value.code == "reason_required"
    pairing.refresh_from_db()
    assert pairing.winner_id == first_won and TournamentResultFix.objects.count() == 0
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    # A finished tournament takes no entries.
    with pytest.raises(TournamentError) as refused:
        tournament_enter(user=member, tournament_id=tournament.pk)
    assert refused.value.code == "closed"
    tournament_result_fix(
        user=owner, pairing_id=pairing.pk, winner_entry_id=pairing.second_id, reason="wrong ball spotted"
    )
    fix = TournamentResultFix.objects.get()
    assert (fix.reason, fix.before["winner"], fix.after["winner"]) == (
        "wrong ball spotted",
        first_won,
        pairing.second_id,
    )
    tournament.refresh_from_db()
    assert tournament.winner_id == pairing.second_id


def test_team_entries_are_stored_in_playing_order() -> None:
    """A team tournament takes team entries (one row per entry, its players in playing order, rated
    by the mean); closing its entries pairs team matches (tests/tournaments/test_team_tournaments.py plays
    them)."""
    club, owner, players = _club({"Aino": 1800, "Bertta": 1600, "Celia": 1500, "Dora": 1700})
    tournament = tournament_create(
        user=owner,
        club=club,
        name="Pairs cup",
        format="round_robin",
        kind="teams",
        team_size=2,
        starts_at=timezone.now(),
    )
    team = tournament_enter(user=players["Aino"], tournament_id=tournament.pk, teammates=[players["Bertta"]])
    assert (team.name, team.rating) == ("Aino & Bertta", 1700.0)
    assert [m.user.profile.display_name for m in team.members.order_by("position")] == ["Aino", "Bertta"]
    with pytest.raises(TournamentError) as refused:
        tournament_enter(user=players["Celia"], tournament_id=tournament.pk)
    assert refused.value.code == "team_size"
    with pytest.raises(TournamentError) as refused:
        tournament_enter(user=players["Celia"], tournament_id=tournament.pk, teammates=[players["Aino"]])
    assert refused.value.code == "already_entered"
    tournament_enter(user=players["Celia"], tournament_id=tournament.pk, teammates=[players["Dora"]])
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    pairing = TournamentPairing.objects.get(tournament=tournament)
    assert pairing.match is not None and pairing.match.team_size == 2


def test_a_player_who_left_the_club_forfeits_at_the_start() -> None:
    """The match services refuse a match for someone no longer a member: their pairing goes to the
    opponent when the round starts, and the server clock logs no error."""
    club, owner, players = _club({"Aino": 1800, "Bertta": 1600})
    later = timezone.now() + datetime.timedelta(minutes=30)
    tournament = tournament_create(user=owner, club=club, name="Cup", format="round_robin", starts_at=later)
    for user in players.values():
        tournament_enter(user=user, tournament_id=tournament.pk)
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    Membership.objects.filter(club=club, user=players["Aino"]).delete()
    assert deadlines_fire_due(now=later.timestamp() + 1) == []
    pairing = TournamentPairing.objects.get(tournament=tournament)
    assert (pairing.how, pairing.winner.name, pairing.match) == ("forfeit", "Bertta", None)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED and tournament.winner.name == "Bertta"
