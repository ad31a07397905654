"""Team matches, the services: creating one with every member (a tournament's way), opening
one in the lobby and joining a side, the bad inputs (each a clear error, nothing stored), the result
counted for every member and, only when rated, each member's rating moved against the other team's
mean (docs/teams.md)."""

from __future__ import annotations

from typing import Any

import pytest

from game.accounts.selectors import player_recent_matches
from game.accounts.services import guest_create
from game.common import glicko2
from game.engine.rules import Match as EngineMatch
from game.matches.selectors.matches import match_info, match_role, matches_in_progress_for
from game.matches.services import MatchError, match_join, match_resign, match_set_connected
from game.matches.services.rematch import match_rematch
from game.matches.services.results import results_record
from game.models import Match, MatchResult, Profile, RatingChange, TeamSeat
from game.teams.selectors import team_winner
from game.teams.services import team_match_create, team_match_join, team_match_open
from tests.support.community_factories import make_club, make_player

pytestmark = [pytest.mark.django_db, pytest.mark.services]


def players(*names: str, **fields: Any) -> list[Any]:
    return [make_player(n, **fields) for n in names]


def stored() -> tuple[int, int]:
    return Match.objects.count(), TeamSeat.objects.count()


def refused(code: str, call: Any) -> None:
    before = stored()
    with pytest.raises(MatchError) as err:
        call()
    assert err.value.code == code, err.value.message
    assert err.value.message
    assert stored() == before


def test_team_match_create_starts_with_members_in_order() -> None:
    ann, amy, bob, ben = players("ann", "amy", "bob", "ben")
    match = team_match_create(teams=[[ann, amy], [bob, ben]], time_limit=3900)
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE and match.team_size == 2 and not match.rated
    assert (match.player1, match.player2) == (ann, bob)
    snap = match.snapshot
    assert snap["teams"] == [["ann", "amy"], ["bob", "ben"]] and snap["at_table"] == [0, 0]
    assert [p["name"] for p in snap["players"]] == ["ann +1", "bob +1"]
    assert EngineMatch.from_snapshot(snap).pending() == [("ann", "lag"), ("bob", "lag")]
    info = match_info(match=match)["teams"]
    assert [[m["name"] for m in t["members"]] for t in info["teams"]] == [["ann", "amy"], ["bob", "ben"]]
    assert info["teams"][0]["members"][0]["at_table"] and not info["teams"][0]["members"][1]["at_table"]
    assert match_role(match=match, user=amy) == ("player", 0, "amy")
    assert match_role(match=match, user=ben) == ("player", 1, "ben")
    # Every member finds the game among his own in progress; "your turn" is his own visit only.
    assert [(m["id"], m["opponent"], m["your_turn"]) for m in matches_in_progress_for(user=amy)] == [
        (match.id, "bob +1", False)
    ]
    assert matches_in_progress_for(user=ann)[0]["your_turn"] and matches_in_progress_for(user=bob)[0]["your_turn"]


@pytest.mark.parametrize("size", [2, 3, 4])
def test_team_match_open_join_sides_start_when_full(size: int) -> None:
    people = players(*(f"p{i}" for i in range(2 * size)))
    match = team_match_open(user=people[0], team_size=size)
    for i, user in enumerate(people[1:], start=1):
        applied = team_match_join(match_id=match.id, user=user, team=i % 2)
        match.refresh_from_db()
        full = i == 2 * size - 1
        assert (match.status == Match.Status.ACTIVE) == full
        assert [e["t"] for e in applied.events] == (["started"] if full else [])
    teams = match.snapshot["teams"]
    assert teams == [[f"p{i}" for i in range(0, 2 * size, 2)], [f"p{i}" for i in range(1, 2 * size, 2)]]
    assert match.player2 == people[1]


def test_team_match_bad_input_clear_errors_nothing_stored() -> None:
    a, b, c, d, e, f, g, h, i, j = players(*"abcdefghij")
    refused("bad_team_size", lambda: team_match_create(teams=[[a, b, c, d, e], [f, g, h, i, j]]))
    refused("bad_team_size", lambda: team_match_create(teams=[[a], [b]]))
    refused("bad_team_size", lambda: team_match_create(teams=[[a, b], [c, d, e]]))
    refused("duplicate_member", lambda: team_match_create(teams=[[a, b], [a, c]]))
    refused("bad_teams", lambda: team_match_create(teams=[[a, b]]))
    refused("bad_value", lambda: team_match_create(teams=[[a, b], [c, d]], time_limit=5))
    guest = guest_create()
    refused("needs_account", lambda: team_match_create(teams=[[a, b], [c, guest]], rated=True))
    club = make_club("Cue Club", a, members=(b, c))
    refused("not_a_member", lambda: team_match_create(teams=[[a, b], [c, d]], club=club))
    refused("bad_team_size", lambda: team_match_open(user=a, team_size=5))

    match = team_match_open(user=a, team_size=2)
    team_match_join(match_id=match.id, user=b, team=0)
    refused("team_full", lambda: team_match_join(match_id=match.id, user=c, team=0))
    refused("already_playing", lambda: team_match_join(match_id=match.id, user=b, team=1))
    refused("bad_team", lambda: team_match_join(match_id=match.id, user=c, team=2))
    refused("choose_team", lambda: match_join(match_id=match.id, user=c))
    team_match_join(match_id=match.id, user=c, team=1)
    team_match_join(match_id=match.id, user=d, team=1)
    refused("seat_taken", lambda: team_match_join(match_id=match.id, user=e, team=1))
    assert Match.objects.get(pk=match.id).status == Match.Status.ACTIVE


def test_casual_team_result_counts_games_not_ratings() -> None:
    ann, amy, bob, ben = players("ann", "amy", "bob", "ben")
    match = team_match_create(teams=[[ann, amy], [bob, ben]])
    applied = match_resign(match_id=match.id, user=ben)  # any member may resign for his team
    finished = applied.events[-1]["d"]
    assert finished["winner"] == "ann +1" and finished["rating_changes"] == []
    match.refresh_from_db()
    assert match.winner == ann and MatchResult.objects.get(match=match).unrated_reason == "casual"
    assert team_winner(match=match) == 0
    profiles = {p.display_name: p for p in Profile.objects.all()}
    assert [profiles[n].games_won for n in ("ann", "amy", "bob", "ben")] == [1, 1, 0, 0]
    assert [profiles[n].games_lost for n in ("ann", "amy", "bob", "ben")] == [0, 0, 1, 1]
    assert all(p.rating == 1500.0 for p in profiles.values()) and not RatingChange.objects.exists()
    recent = {u.username: player_recent_matches(user=u, viewer=u)[0] for u in (amy, ben)}
    assert (recent["amy"]["outcome"], recent["amy"]["opponent"]) == ("won", "bob +1")
    assert (recent["ben"]["outcome"], recent["ben"]["opponent"]) == ("lost", "ann +1")
    rematch = match_rematch(match_id=match.id, user=amy).match
    assert rematch.snapshot["teams"] == [["bob", "ben"], ["ann", "amy"]] and not rematch.rated


def test_rated_team_result_moves_each_member_against_the_other_teams_mean() -> None:
    ann = make_player("ann", rating=1700.0, rating_deviation=80.0)
    amy = make_player("amy", rating=1500.0, rating_deviation=200.0)
    bob = make_player("bob", rating=1600.0, rating_deviation=60.0)
    ben = make_player("ben", rating=1400.0, rating_deviation=300.0)
    match = team_match_create(teams=[[ann, amy], [bob, ben]], rated=True)
    finished = match_resign(match_id=match.id, user=amy).events[-1]["d"]  # the Reds lose
    changes = finished["rating_changes"]
    assert [c["player"] for c in changes] == ["ann", "amy", "bob", "ben"]
    reds = [glicko2.Rating(1700.0, 80.0), glicko2.Rating(1500.0, 200.0)]
    blues = [glicko2.Rating(1600.0, 60.0), glicko2.Rating(1400.0, 300.0)]
    want_reds, want_blues = glicko2.rate_team_match(reds, blues, first_score=0.0)
    blue_mean = glicko2.team_mean(blues)
    assert blue_mean.rating == 1500.0 and blue_mean.deviation == pytest.approx((60.0**2 / 2 + 300.0**2 / 2) ** 0.5)
    # each member alone against the other team's mean, one period
    assert want_reds[0] == glicko2.rate(reds[0], [glicko2.Result(blue_mean, 0.0)])
    got = {p.display_name: p for p in Profile.objects.all()}
    for profile, want in zip([got["ann"], got["amy"], got["bob"], got["ben"]], [*want_reds, *want_blues], strict=True):
        assert profile.rating == pytest.approx(want.rating) and profile.rated_games == 1
    assert got["ann"].rating < 1700.0 and got["ben"].rating > 1400.0
    # the uncertain member moves more than the established one of the same team
    assert 1500.0 - got["amy"].rating > 1700.0 - got["ann"].rating
    assert RatingChange.objects.filter(match=match).count() == 4
    assert results_record(match=Match.objects.get(pk=match.id)) == changes  # counted once


def test_lobby_creates_a_team_match_and_the_match_page_joins_a_side(client) -> None:
    """The lobby form's "Players per side", the open list's "2 vs 2", the match page's team lists and
    "Join team" buttons; a team match cannot be rated from the lobby nor joined without a team."""
    ann, amy, bob, ben = players("ann", "amy", "bob", "ben")
    client.force_login(ann)
    response = client.post("/lobby/create/", {"opponent": "human", "team_size": "2", "rated": "on"}, follow=True)
    assert "Team matches are casual" in response.content.decode() and not Match.objects.exists()
    response = client.post("/lobby/create/", {"opponent": "human", "team_size": "2"})
    match = Match.objects.get()
    assert response.status_code == 302 and match.team_size == 2 and match.status == Match.Status.OPEN
    lobby = client.get("/lobby/").content.decode()
    assert "2 vs 2 · 3 places open" in lobby and "Players per side" in lobby
    for user, team in ((bob, "1"), (amy, "0")):
        client.force_login(user)
        page = client.get(f"/m/{match.id}/").content.decode()
        assert "Join team 2" in page and "open place" in page
        assert client.post(f"/m/{match.id}/team-join/", {"team": team}).status_code == 302
    client.force_login(ben)
    page = client.get(f"/m/{match.id}/").content.decode()
    assert "Join team 1" not in page and "Join team 2" in page  # team 1 is full
    response = client.post(f"/m/{match.id}/team-join/", {"team": "0"}, follow=True)
    assert "this team is full" in response.content.decode()
    response = client.post(f"/m/{match.id}/team-join/", {"team": "x"}, follow=True)
    assert "choose team 1 or team 2" in response.content.decode()
    assert TeamSeat.objects.filter(match=match).count() == 3
    client.post(f"/m/{match.id}/team-join/", {"team": "1"})
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE and match.snapshot["teams"] == [["ann", "amy"], ["bob", "ben"]]
    assert "2 vs 2 ·" not in client.get("/lobby/").content.decode()  # started: off the open list


PLAY_POSITION = {
    "phase": "play",
    "players": [
        {"name": "ann +1", "cue_ball": "white1", "score": 10},
        {"name": "bob +1", "cue_ball": "white2", "score": 4},
    ],
    "turn": 0,
    "balls": {
        "white1": [0.5, 0.4],
        "white2": [1.9, 0.3],
        "red1": [1.2, 0.5],
        "red2": [2.0, 1.0],
        "kaisa": [1.42, 0.71],
    },
    "teams": [["ann", "amy"], ["bob", "ben"]],
}


@pytest.mark.parametrize("blue_here", [False, True])
def test_a_team_is_present_while_any_member_is(blue_here: bool) -> None:
    """K-9.3 for teams: the disconnect grace runs for a team none of whose members has a socket; a
    team-mate's socket (not the first member's) is enough to stay in the match."""
    from game.matches.services.deadlines import deadline_fire
    from game.models import MatchConnection

    ann, amy, bob, ben = players("ann", "amy", "bob", "ben")
    match = team_match_create(teams=[[ann, amy], [bob, ben]])
    match.snapshot = EngineMatch.from_snapshot(PLAY_POSITION).snapshot()
    match.grace_seat, match.grace_deadline, match.next_deadline = 1, 1000.0, 1000.0
    match.save()
    for i, user in enumerate([amy, ben] if blue_here else [amy]):  # the sockets' rows, seated by the service
        match_set_connected(match_id=match.id, channel_name=f"c{i}", user=user, connected=True)
    assert sorted(MatchConnection.objects.values_list("seat", flat=True)) == ([0, 1] if blue_here else [0])
    deadline_fire(match_id=match.id, now=1001.0)
    match.refresh_from_db()
    if blue_here:
        assert match.status == Match.Status.ACTIVE and match.grace_seat is None
    else:
        assert match.status == Match.Status.FINISHED and match.winner == ann
        assert match.snapshot["winner"] == "ann +1"


def test_team_shot_clock_passes_the_visit_to_the_other_team_and_rotates() -> None:
    """The server's shot clock runs for the member at the table; its expiry is the team's (one count per
    team), passes the visit and hands the team's next visit to his team-mate."""
    from game.matches.services.deadlines import deadline_fire

    ann, amy, bob, ben = players("ann", "amy", "bob", "ben")
    match = team_match_create(teams=[[ann, amy], [bob, ben]], shot_clock=30)
    position = {**PLAY_POSITION, "at_table": [1, 0]}
    match.snapshot = EngineMatch.from_snapshot(position).snapshot()
    match.shot_deadline = match.next_deadline = 1000.0
    match.save()
    applied = deadline_fire(match_id=match.id, now=1001.0)
    assert applied is not None
    timeout = next(e for e in applied.events if e["t"] == "timeout")["d"]
    state = timeout["state"]
    assert timeout["player"] == "amy" and state["pending"] == [["bob", "shoot"]]
    assert state["at_table"] == [0, 0] and state["timeouts"] == [1, 0]
    match.refresh_from_db()
    applied = deadline_fire(match_id=match.id, now=match.shot_deadline + 1)
    assert applied is not None
    state = next(e for e in applied.events if e["t"] == "timeout")["d"]["state"]
    assert state["pending"] == [["ann", "shoot"]] and state["at_table"] == [0, 1]


def test_the_admin_shows_a_team_matchs_members_in_order(client) -> None:
    from django.contrib.auth import get_user_model

    ann, amy, bob, ben = players("ann", "amy", "bob", "ben")
    match = team_match_create(teams=[[ann, amy], [bob, ben]])
    client.force_login(get_user_model().objects.create_superuser("root", "root@example.com", "pw-root-12345"))
    assert client.get("/admin/game/match/?team_size=2").status_code == 200
    page = client.get(f"/admin/game/match/{match.pk}/change/").content.decode()
    seats = page[page.index("Team seats") :]
    assert seats.index(">ann<") < seats.index(">amy<") < seats.index(">bob<") < seats.index(">ben<")
