import { test } from "node:test";
import assert from "node:assert/strict";
import { memberLabel, teamOfMember, teamsOf, waitingTeams } from "../../static/game/js/ui/teams.js";

function teamGame(overrides = {}) {
  return {
    phase: "play",
    players: [
      { name: "Team ann", cue_ball: "white2", score: 6 },
      { name: "Team bob", cue_ball: "white1", score: 3 },
    ],
    turn: 1,
    teams: [["ann", "amy"], ["bob", "ben"]],
    at_table: [1, 1],
    pending: [["ben", "shoot"]],
    ...overrides,
  };
}

test("teamsOf reads the teams, the member at the table and the next one off the server's state", () => {
  const teams = teamsOf(teamGame(), [{ name: "amy", connected: false }], "amy");
  assert.deepEqual(
    teams.map((t) => [t.name, t.score, t.toPlay]),
    [["Team ann", 6, false], ["Team bob", 3, true]],
  );
  assert.deepEqual(teams[1].members.map((m) => memberLabel(m, teams[1])), ["bob", "▶ ben"]);
  assert.deepEqual(teams[0].members.map((m) => memberLabel(m, teams[0])), ["ann", "amy (next)"]);
  assert.equal(teams[0].members[1].me, true);
  assert.equal(teams[0].members[1].connected, false);
  assert.equal(teamOfMember(teams, "ben").name, "Team bob");
  assert.equal(teamOfMember(teams, "sam"), null);
});

test("teamsOf: a one-to-one match has no teams; a finished match nobody at the table", () => {
  assert.equal(teamsOf({ phase: "play", players: [{ name: "a" }, { name: "b" }] }), null);
  const over = teamsOf(teamGame({ phase: "finished", pending: [] }));
  assert.ok(over.every((t) => !t.toPlay && t.members.every((m) => !m.atTable && !m.playing)));
});

test("the end card of a team match names the teams and tells a winning member his team won", async () => {
  const { endCard } = await import("../../static/game/js/ui/endcard.js");
  const game = teamGame({ phase: "finished", pending: [], winner: "Team bob" });
  const state = { shown: game, result: null, finished: { winner: "Team bob" }, me: "ben", match: {} };
  const card = endCard(state);
  assert.equal(card.title, "Your team wins!");
  assert.deepEqual(card.teams, ["Team ann: ann, amy", "Team bob: bob, ben"]);
  assert.equal(endCard({ ...state, me: "amy" }).title, "Team bob wins");
  const single = endCard({ ...state, shown: { phase: "finished", players: game.players, winner: "Team bob" }, me: "Team bob" });
  assert.equal(single.title, "You win!");
});

test("waitingTeams: an open team match's members per side from presence, and its open places", () => {
  const match = { teams: { size: 3 } };
  const presence = [
    { name: "ann", seat: 0, connected: true },
    { name: "bob", seat: 1, connected: false },
    { name: "amy", seat: 0, connected: true },
  ];
  assert.deepEqual(waitingTeams(match, presence), [
    { members: ["ann", "amy"], open: 1 },
    { members: ["bob"], open: 2 },
  ]);
  assert.equal(waitingTeams({ players: [] }, presence), null);
});
