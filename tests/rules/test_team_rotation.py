"""Team matches: each team shares one cue ball and one score, its members take its visits in
a fixed rotation, the first members lag (K-3.1); fouls (K-8.1), ball in hand (K-7.1), the shot clock,
the extra visits of the time limit (K-11.1) and the shoot-out (K-11.2 to K-11.4) apply to the team.
Scripted shots (tests/rules/fakes.py), so every visit's outcome is exact."""

from __future__ import annotations

import json

import pytest

from game.engine.rules import Match, RuleError
from tests.rules.fakes import STRIKE, E, Script
from tests.rules.helpers import shot

KAISA = {"ball": "kaisa", "pocket": "foot_left"}
TEAMS = (["ann", "amy", "al"], ["bob", "ben"])
MISS_TO = {"white1": (1.0, 0.3), "white2": (1.0, 1.1)}


def miss(cue: str) -> object:
    """The cue ball crosses the home line and hits nothing: the call is missed, the visit ends (K-6.1)."""
    return shot([], moves={cue: MISS_TO[cue]})


def pot(cue: str) -> object:
    return shot([E("ball_ball", cue, "kaisa"), E("ball_pocket", "kaisa", where="foot_left")], moves={cue: MISS_TO[cue]})


def own_ball_pocketed(cue: str) -> object:
    """K-8.1: the shooter's own cue ball pocketed without hitting a ball: minus 2, visit ends."""
    return shot([E("ball_pocket", cue, where="home_right")], via={cue: [(1.0, 0.3)]})


def refused_unchanged(m: Match, act: object, code: str = "not_your_visit") -> None:
    before = json.dumps(m.snapshot(), sort_keys=True)
    with pytest.raises(RuleError) as err:
        act()  # type: ignore[operator]
    assert err.value.code == code
    assert json.dumps(m.snapshot(), sort_keys=True) == before


def visit(m: Match, script: Script, member: str, item: object | None = None, now: float | None = None) -> dict:
    """``member`` plays his team's visit (from hand if the team's ball is in hand) with ``item``."""
    team = m.current_player
    cue = m.cue_ball_of(team)
    assert m.at_table == member
    assert m.pending()[0][0] == member
    if m.pending() == [(member, "place")]:
        m.place(member, cue, (0.3, 0.3), now=now)
    script.push(item if item is not None else miss(cue))
    return m.shoot(member, KAISA, STRIKE, now=now).verdict


def test_team_rotation() -> None:
    script = Script()
    m = Match.new(("Reds", "Blues"), teams=TEAMS, time_limit=100, time_warning=90, now=0.0, simulate=script)
    snap = m.snapshot()
    assert snap["teams"] == [["ann", "amy", "al"], ["bob", "ben"]] and snap["at_table"] == [0, 0]
    with script:
        # K-3.1: the first players of each team lag; a team-mate is refused and nothing changes.
        assert m.pending() == [("ann", "lag"), ("bob", "lag")]
        refused_unchanged(m, lambda: m.lag("amy", STRIKE))
        script.push(shot([E("ball_cushion", "white1", where="foot")], moves={"white1": (0.5, 0.3)}))
        script.push(shot([E("ball_cushion", "white2", where="foot")], moves={"white2": (0.2, 1.0)}))
        m.lag("ann", STRIKE)
        assert m.lag("bob", STRIKE).verdict["lag_winner"] == "Blues"
        # K-3.2: the lag winner's player chooses; the Blues break with white1 for the whole game.
        refused_unchanged(m, lambda: m.choose_break("ben", True))
        m.choose_break("bob", True)
        assert m.cue_ball_of("Blues") == "white1" and m.cue_ball_of("ann") == "white2"
        # K-3.3: the Reds' player at the table places white2.
        assert m.pending() == [("ann", "place")]
        refused_unchanged(m, lambda: m.place("al", "white2", (2.0, 0.3)))
        m.place("ann", "white2", (2.0, 0.3))
        # K-3.4 the break (from hand, K-7.1) by bob; missed: the Reds' ann is up, the Blues' next is ben.
        visit(m, script, "bob")
        assert (m.current_player, m.at_table, m.snapshot()["at_table"]) == ("Reds", "ann", [0, 1])
        # K-6.1: a fulfilled call keeps the same member at the table; his miss passes it on.
        refused_unchanged(m, lambda: m.shoot("amy", KAISA, STRIKE))
        refused_unchanged(m, lambda: m.shoot("ben", KAISA, STRIKE), code="not_your_turn")
        assert visit(m, script, "ann", pot("white2"))["points"] == 6
        assert m.at_table == "ann" and m.scores == {"Reds": 6, "Blues": 0}
        visit(m, script, "ann")
        # K-8.1: ben's foul costs the team; K-7.1 the team's next visit (bob's) starts with ball in hand.
        verdict = visit(m, script, "ben", own_ball_pocketed("white1"))
        assert verdict["penalty"] == 2 and m.scores == {"Reds": 6, "Blues": -2}
        visit(m, script, "amy")
        assert m.at_table == "bob" and m.pending() == [("bob", "place")]
        refused_unchanged(m, lambda: m.place("ben", "white1", (0.3, 0.3)))
        # The shot clock runs out on bob: the team's visit passes and its next one is ben's.
        refused_unchanged(m, lambda: m.expire_shot_clock("ben"), code="not_your_visit")
        m.expire_shot_clock("bob", now=50.0)
        assert (m.current_player, m.at_table, m.timeouts) == ("Reds", "al", {"Reds": 0, "Blues": 1})
        # K-11.1: the time is up during al's visit (white2's: the round ends): two extra visits per
        # team, the rotations going on: ben, ann, bob, amy.
        visit(m, script, "al", now=101.0)
        assert m.phase == "extra_visits"
        for member in ("ben", "ann", "bob", "amy"):
            visit(m, script, member, now=102.0)
        # K-11.2: the shoot-out lag is played by each team's member next in its rotation.
        assert m.phase == "shootout" and m.pending() == [("al", "lag"), ("ben", "lag")]
        refused_unchanged(m, lambda: m.lag("ann", STRIKE))
        script.push(shot([E("ball_cushion", "white1", where="foot")], moves={"white1": (0.2, 0.3)}))
        script.push(shot([E("ball_cushion", "white2", where="foot")], moves={"white2": (0.5, 1.0)}))
        m.lag("al", STRIKE)
        m.lag("ben", STRIKE)
        m.choose_break("al", True)
        assert m.cue_ball_of("Reds") == "white1"
        # K-11.2/K-11.3: every shot from hand; a pot keeps the member at the table (+6 to the team).
        visit(m, script, "al", pot("white1"))
        visit(m, script, "al")
        visit(m, script, "ben")
        visit(m, script, "ann")
        assert m.at_table == "bob" and m.scores == {"Reds": 12, "Blues": -2}
        assert m.snapshot()["shootout"]["visits"] == [2, 1]
    again = Match.from_snapshot(m.snapshot())
    assert again.snapshot() == m.snapshot() and again.teams == (("ann", "amy", "al"), ("bob", "ben"))


def test_team_rotation_resign_by_any_member_and_winner_is_the_team() -> None:
    m = Match.new(("Reds", "Blues"), teams=(["ann", "amy"], ["bob", "ben"]))
    assert m.constraints("amy")["actions"] == ["resign"] and m.constraints("ann")["actions"] == ["lag", "resign"]
    m.resign("ben")
    assert m.winner == "Reds"


@pytest.mark.parametrize(
    "teams",
    [
        (["ann"], ["bob", "ben"]),  # a team of one
        (["a", "b", "c", "d", "e"], ["f", "g"]),  # a team of five
        (["ann", "amy"], ["ann", "ben"]),  # the same member twice
        (["ann", "Reds"], ["bob", "ben"]),  # a member named like a team
        (["ann", ""], ["bob", "ben"]),
        (["ann", "amy"],),
    ],
)
def test_team_rotation_bad_teams_refused(teams: tuple) -> None:
    with pytest.raises(RuleError) as err:
        Match.new(("Reds", "Blues"), teams=teams)
    assert err.value.code == "bad_teams"


def test_one_to_one_snapshot_has_no_team_keys() -> None:
    """A 1 vs 1 match is two teams of one: its snapshot stays exactly what it was before teams."""
    snap = Match.new(("alice", "bob")).snapshot()
    assert "teams" not in snap and "at_table" not in snap
    assert Match.from_snapshot(snap).snapshot() == snap
    assert Match.from_snapshot(snap).at_table == "alice"
