"""Team tournaments: a club tournament of teams played through the real services. Each
pairing's match is a team match (game.teams.services.team_match_create: every member seated in his
team's playing order, started at once, rated as the tournament is); its result goes to the pairing by
the winning team with the team scores; the no-show is the team's (a team none of whose members came
loses by forfeit, both such: both lose), decided once by the server clocks, the match's disconnect
grace held till the teams have come; bad team entries are refused with a code and change nothing."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from django.utils import timezone

from game.engine.rules import Match as EngineMatch
from game.matches.selectors.match_state import disconnect_grace
from game.matches.services import match_resign, match_set_connected
from game.matches.services.deadlines import deadlines_fire_due
from game.models import Match, RatingChange, TeamSeat
from game.models.tournaments import (
    NO_SHOW_AFTER,
    Tournament,
    TournamentEntry,
    TournamentEntryMember,
    TournamentPairing,
)
from game.tournaments.selectors.tournaments import standings
from game.tournaments.services import TournamentError, tournament_close_entries, tournament_create, tournament_enter
from tests.support.community_factories import make_club, make_player

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _club(ratings: dict[str, float]) -> tuple[Any, Any, dict[str, Any]]:
    owner = make_player("Owner" + "".join(sorted(ratings))[:12])
    players = {name: make_player(name, rating=rating) for name, rating in ratings.items()}
    club = make_club("Club " + "".join(sorted(ratings))[:12], owner, members=tuple(players.values()))
    return club, owner, players


def _team_tournament(club: Any, owner: Any, teams: list[list[Any]], *, rated: bool = True) -> Tournament:
    tournament = tournament_create(
        user=owner,
        club=club,
        name="Pairs cup",
        format=Tournament.Format.ROUND_ROBIN,
        kind=Tournament.Kind.TEAMS,
        team_size=len(teams[0]),
        rated=rated,
        starts_at=timezone.now(),
    )
    for first, *mates in teams:
        tournament_enter(user=first, tournament_id=tournament.pk, teammates=mates)
    return tournament


def _members(entry_id: int) -> list[str]:
    rows = TournamentEntryMember.objects.filter(entry_id=entry_id).order_by("position")
    return [m.user.profile.display_name for m in rows.select_related("user__profile")]


def _seated(match: Match) -> list[list[str]]:
    seats = TeamSeat.objects.filter(match=match).order_by("team", "order").select_related("user__profile")
    teams: list[list[str]] = [[], []]
    for seat in seats:
        teams[seat.team].append(seat.user.profile.display_name)
    return teams


def _come(match: Match, user: Any) -> None:
    """A member opens the match page: his socket is recorded by the real presence service."""
    match_set_connected(match_id=match.pk, channel_name=f"test.{match.pk}.{user.pk}", user=user, connected=True)


def _leave(match: Match, user: Any) -> None:
    match_set_connected(match_id=match.pk, channel_name=f"test.{match.pk}.{user.pk}", user=user, connected=False)


def _scores_on_table(match: Match, scores: tuple[int, int]) -> None:
    """Put the running team match at a play position with these team scores (K-5: each team one
    score), as if the frames so far had been played."""
    snap = match.snapshot
    position = {
        "phase": "play",
        "players": [
            {"name": snap["players"][0]["name"], "cue_ball": "white1", "score": scores[0]},
            {"name": snap["players"][1]["name"], "cue_ball": "white2", "score": scores[1]},
        ],
        "turn": 0,
        "balls": {
            "white1": [0.5, 0.4],
            "white2": [1.9, 0.3],
            "red1": [1.2, 0.5],
            "red2": [2.0, 1.0],
            "kaisa": [1.42, 0.71],
        },
        "teams": snap["teams"],
        "at_table": [0, 0],
    }
    match.snapshot = EngineMatch.from_snapshot(position).snapshot()
    match.save(update_fields=["snapshot"])


def test_team_round_robin_played_through_the_services() -> None:
    """Four 2 vs 2 teams, round robin, rated: three rounds of team matches, each with both entries'
    members in their playing order (the first entry as team 0); the results by the winning team and
    the team scores; the standings by points, head-to-head and the frames difference; each member's
    rating moved once per match."""
    club, owner, p = _club(
        {
            "Aila": 1900,
            "Alma": 1700,  # team A: mean 1800, seed 1
            "Bo": 1800,
            "Bea": 1600,  # team B: mean 1700, entered weaker first (the team's own order)
            "Cai": 1700,
            "Cid": 1500,  # team C: 1600
            "Dag": 1600,
            "Dan": 1400,  # team D: 1500
        }
    )
    teams = [[p["Aila"], p["Alma"]], [p["Bea"], p["Bo"]], [p["Cai"], p["Cid"]], [p["Dag"], p["Dan"]]]
    tournament = _team_tournament(club, owner, teams)
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING and tournament.rounds_planned == 3
    seeds = {e.name: e.seed for e in TournamentEntry.objects.filter(tournament=tournament)}
    assert seeds == {"Aila & Alma": 1, "Bea & Bo": 2, "Cai & Cid": 3, "Dag & Dan": 4}

    # Who wins each meeting, and the team scores on the table when the loser resigns: the better
    # seed wins, except that D beats A (so A and B are level on points: head-to-head decides).
    upsets = {("Aila & Alma", "Dag & Dan")}
    played: list[tuple[str, str]] = []
    frames: dict[str, int] = dict.fromkeys(seeds, 0)
    for number in (1, 2, 3):
        pairings = list(
            TournamentPairing.objects.filter(tournament=tournament, round__number=number)
            .select_related("first", "second", "match")
            .order_by("index")
        )
        assert len(pairings) == 2 and all(pr.second is not None for pr in pairings)
        for pairing in pairings:
            match = pairing.match
            assert pairing.second is not None and match is not None
            # A team match with every member seated in the entries' order, started at once, rated.
            assert match.team_size == 2 and match.status == Match.Status.ACTIVE and match.rated
            assert _seated(match) == [_members(pairing.first_id), _members(pairing.second_id)]
            assert match.snapshot["teams"] == _seated(match)
            assert match.club_id == club.pk and match.time_limit == tournament.time_limit
            # The match's own disconnect grace is held while the no-show clock runs ...
            assert pairing.no_show_deadline == pytest.approx(time.time() + NO_SHOW_AFTER, abs=30)
            assert match.grace_deadline is None
            # ... until a member of each team is on the page (here each team's second member).
            first_members = TournamentEntryMember.objects.filter(entry_id=pairing.first_id).order_by("position")
            second_members = TournamentEntryMember.objects.filter(entry_id=pairing.second_id).order_by("position")
            _come(match, first_members[1].user)
            pairing.refresh_from_db()
            assert pairing.no_show_deadline is not None  # one team is not a match
            _come(match, second_members[1].user)
            pairing.refresh_from_db()
            match.refresh_from_db()
            assert pairing.no_show_deadline is None and match.grace_deadline is None
            names = (pairing.first.name, pairing.second.name)
            first_wins = (seeds[names[0]] < seeds[names[1]]) != (names in upsets or names[::-1] in upsets)
            scores = (40, 12 + number) if first_wins else (9, 35 + number)
            _scores_on_table(match, scores)
            loser = second_members if first_wins else first_members
            match_resign(match_id=match.pk, user=loser[1].user)  # any member resigns for his team
            pairing.refresh_from_db()
            match.refresh_from_db()
            winner = pairing.first if first_wins else pairing.second
            assert pairing.status == TournamentPairing.Status.DONE and pairing.how == "played"
            assert pairing.winner == winner
            assert (pairing.first_points, pairing.second_points) == ((1, 0) if first_wins else (0, 1))
            assert (pairing.first_score, pairing.second_score) == scores
            assert RatingChange.objects.filter(match=match).count() == 4  # each member's own rating
            frames[names[0]] += scores[0] - scores[1]
            frames[names[1]] += scores[1] - scores[0]
            played.append(names)
    pairs = sorted(tuple(sorted(pair)) for pair in played)
    assert len(pairs) == len(set(pairs)) == 6  # every pair of teams once
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED and tournament.winner is not None
    assert tournament.winner.name == "Aila & Alma"  # level with B on 2 points, beat B
    table = standings(tournament=tournament)
    assert [(row["name"], row["points"]) for row in table] == [
        ("Aila & Alma", "2"),
        ("Bea & Bo", "2"),
        ("Cai & Cid", "1"),
        ("Dag & Dan", "1"),
    ]
    assert {row["name"]: row["frames_difference"] for row in table} == frames
    for user in p.values():
        user.profile.refresh_from_db()
        assert user.profile.rated_games == 3
    # The clocks find nothing left to do: no second outcome.
    assert deadlines_fire_due(now=time.time() + NO_SHOW_AFTER + disconnect_grace() + 10) == []


def _two_teams(names: tuple[str, str, str, str]) -> tuple[Tournament, list[Any], TournamentPairing]:
    club, owner, p = _club(dict(zip(names, (1800, 1700, 1600, 1500), strict=True)))
    users = [p[n] for n in names]
    tournament = _team_tournament(club, owner, [users[:2], users[2:]])
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    pairing = TournamentPairing.objects.select_related("match").get(tournament=tournament)
    return tournament, users, pairing


def test_team_no_show_forfeits_once_through_the_server_clocks() -> None:
    # One member of the first team came; nobody of the second: the second team forfeits at 10 min.
    tournament, users, pairing = _two_teams(("Aino", "Anni", "Bertta", "Britt"))
    match = pairing.match
    assert match is not None and match.status == Match.Status.ACTIVE
    _come(match, users[1])
    deadline = pairing.no_show_deadline
    assert deadline is not None
    # The disconnect grace (60 s) would have ended the match long before the no-show clock: it is
    # held, so nothing fires until the no-show deadline.
    assert deadlines_fire_due(now=time.time() + disconnect_grace() + 5) == []
    assert deadlines_fire_due(now=deadline - 1) == []
    match.refresh_from_db()
    pairing.refresh_from_db()
    assert match.status == Match.Status.ACTIVE and pairing.status == TournamentPairing.Status.PLAYING
    fired = deadlines_fire_due(now=deadline + 1)
    assert [match_id for match_id, _ in fired] == [match.pk]
    assert "finished" in [e["t"] for e in fired[0][1].events]
    assert deadlines_fire_due(now=deadline + 2) == []  # once
    assert deadlines_fire_due(now=deadline + disconnect_grace() + 5) == []
    pairing.refresh_from_db()
    match.refresh_from_db()
    assert pairing.winner is not None
    assert (pairing.how, pairing.winner.name, pairing.first_points, pairing.second_points) == (
        "forfeit",
        "Aino & Anni",
        1,
        0,
    )
    # The match ended through the engine (K-9.3: nothing played, so aborted): no rating moves.
    assert match.status == Match.Status.ABORTED and match.snapshot["phase"] == "finished"
    assert "Bertta & Britt" in match.result_reason and "Aino & Anni" not in match.result_reason
    assert not RatingChange.objects.filter(match=match).exists()
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED and tournament.winner == pairing.winner

    # Nobody came: both teams lose.
    tournament, users, pairing = _two_teams(("Celia", "Cilla", "Dora", "Doris"))
    assert pairing.no_show_deadline is not None and pairing.match is not None
    fired = deadlines_fire_due(now=pairing.no_show_deadline + 1)
    assert [match_id for match_id, _ in fired] == [pairing.match.pk]
    pairing.refresh_from_db()
    assert (pairing.how, pairing.winner, pairing.first_points, pairing.second_points) == ("double_forfeit", None, 0, 0)
    assert pairing.match is not None and pairing.match.status == Match.Status.ABORTED


def test_a_team_no_show_is_decided_once_by_concurrent_clocks() -> None:
    """Two server processes polling at the same moment, past both the no-show deadline and the time the
    match's own disconnect grace would have run out: one outcome (one `finished` event, one pairing
    result), fired once."""
    from django.db import connection

    _, users, pairing = _two_teams(("Jaana", "Jenni", "Kaisu", "Kerttu"))
    assert pairing.match is not None and pairing.no_show_deadline is not None
    _come(pairing.match, users[3])  # the second team's second member came; nobody of the first
    due = pairing.no_show_deadline + disconnect_grace() + 1
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
    assert pairing.winner is not None and (pairing.how, pairing.winner.name) == ("forfeit", "Kaisu & Kerttu")
    match = Match.objects.get(pk=pairing.match_id)
    assert match.status == Match.Status.ABORTED and match.events.filter(type="finished").count() == 1
    assert deadlines_fire_due(now=due + 1) == []


def test_team_match_grace_takes_over_once_both_teams_came() -> None:
    """Both teams came (the no-show clock stops); then every member of one team leaves: the match's
    own disconnect grace runs, and the match (nothing played: aborted, K-9.3) is replaced by a fresh
    team match with a fresh no-show clock, its grace held again."""
    _, users, pairing = _two_teams(("Eeva", "Elli", "Fanny", "Frida"))
    match = pairing.match
    assert match is not None
    _come(match, users[0])
    _come(match, users[3])
    pairing.refresh_from_db()
    assert pairing.no_show_deadline is None
    _leave(match, users[3])
    match.refresh_from_db()
    assert match.grace_seat == 1 and match.grace_deadline is not None
    fired = deadlines_fire_due(now=match.grace_deadline + 1)
    assert [match_id for match_id, _ in fired] == [match.pk]
    match.refresh_from_db()
    pairing.refresh_from_db()
    assert match.status == Match.Status.ABORTED
    assert pairing.status == TournamentPairing.Status.PLAYING and pairing.match_id != match.pk
    fresh = pairing.match
    assert fresh is not None and fresh.team_size == 2 and fresh.status == Match.Status.ACTIVE
    assert _seated(fresh) == [["Eeva", "Elli"], ["Fanny", "Frida"]]
    assert pairing.no_show_deadline == pytest.approx(time.time() + NO_SHOW_AFTER, abs=30)
    assert fresh.grace_deadline is None


def test_bad_team_entries_are_refused_and_change_nothing() -> None:
    club, owner, p = _club({"Gia": 1800, "Gun": 1700, "Hel": 1600, "Hil": 1500, "Ida": 1400})
    outsider = make_player("Outi")
    tournament = _team_tournament(club, owner, [[p["Gia"], p["Gun"]]])

    def stored() -> tuple[int, int]:
        return (
            TournamentEntry.objects.filter(tournament=tournament).count(),
            TournamentEntryMember.objects.filter(tournament=tournament).count(),
        )

    before = stored()
    cases: list[tuple[Any, list[Any] | None, str, str]] = [
        (p["Hel"], [outsider], "not_a_member", "Outi is not a member of this club"),
        (p["Hel"], [p["Gun"]], "already_entered", "Gun already plays in another entry"),
        (p["Hel"], None, "team_size", "an entry here is a team of 2 players"),
        (p["Hel"], [p["Hil"], p["Ida"]], "team_size", "an entry here is a team of 2 players"),
        (p["Hel"], [p["Hel"]], "team_size", "named twice"),
        (p["Hel"], ["Hil"], "bad_value", "team-mate"),
    ]
    for user, mates, code, words in cases:
        with pytest.raises(TournamentError) as refused:
            tournament_enter(user=user, tournament_id=tournament.pk, teammates=mates)
        assert refused.value.code == code and words in refused.value.message, refused.value.message
        assert not refused.value.forbidden
        assert stored() == before
    tournament_enter(user=p["Hel"], tournament_id=tournament.pk, teammates=[p["Hil"]])
    assert stored() == (2, 4)


def test_a_team_enters_through_the_tournament_page(client: Any) -> None:
    """The page's entry form of a team tournament: the member names his team-mates (club members not
    yet entered) in playing order; a refusal comes back as the service's words, nothing changed."""
    club, owner, p = _club({"Jaana": 1800, "Jenni": 1700, "Kaisu": 1600, "Kerttu": 1500, "Liisa": 1400})
    outsider = make_player("Outsider")
    tournament = _team_tournament(club, owner, [[p["Jaana"], p["Jenni"]]])
    url = f"/tournaments/{tournament.pk}/"
    client.force_login(p["Kaisu"])
    page = client.get(url).content.decode()
    form = page[page.index("data-team-entry") : page.index("Enter the team")]
    assert "Your team, in playing order: you first, then" in form
    assert form.count('<select name="teammate"') == 1  # pairs: one team-mate to name
    assert ">Kerttu<" in form and ">Liisa<" in form
    assert ">Kaisu<" not in form and ">Jenni<" not in form and ">Outsider<" not in form

    def refused(teammates: list[str], words: str) -> None:
        before = TournamentEntryMember.objects.filter(tournament=tournament).count()
        shown = client.post(url + "enter/", {"teammate": teammates}, follow=True).content.decode()
        assert words in shown, shown[-2000:]
        assert TournamentEntryMember.objects.filter(tournament=tournament).count() == before

    refused([str(outsider.pk)], "Outsider is not a member of this club")
    refused([str(p["Jenni"].pk)], "Jenni already plays in another entry of this tournament")
    refused(["somebody"], "name each team-mate by their account")
    refused([], "an entry here is a team of 2 players")
    response = client.post(url + "enter/", {"teammate": [str(p["Kerttu"].pk)]})
    assert response.status_code == 302
    entry = TournamentEntry.objects.get(tournament=tournament, name="Kaisu & Kerttu")
    assert _members(entry.pk) == ["Kaisu", "Kerttu"]
