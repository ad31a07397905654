// The player's intents as pure functions (static/game/js/intents.js): the next state
// and the effects main.js carries out. The constraints are the engine's own (fixtures/constraints.json).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { intend } from "../../static/game/js/intents.js";
import { createState, receive } from "../../static/game/js/state.js";

const table = JSON.parse(readFileSync(new URL("./fixtures/table.json", import.meta.url)));
const fixtures = JSON.parse(readFileSync(new URL("./fixtures/constraints.json", import.meta.url)));
const env = { table, transform: null, now: 5000 };

/** alice at the table after the break's placement (fixture break_placed), or in hand (break_in_hand). */
function atTable(name = "break_placed", pending = [["alice", "shoot"]]) {
  const fixture = fixtures[name];
  const game = {
    phase: "play",
    players: [
      { name: "alice", cue_ball: "white1", score: 0, connected: true },
      { name: "bob", cue_ball: "white2", score: 0, connected: true },
    ],
    turn: 0,
    in_hand: [],
    balls: fixture.balls,
    pending,
    winner: null,
    constraints: { alice: fixture.constraints },
  };
  const s = createState({ table, matchId: "m1", me: "alice", role: "player" });
  return receive(s, { t: "snapshot", v: 3, d: { state: game, you: { name: "alice", role: "player", seat: 0 } } }, 0);
}

test("an aim turns the cue, suggests the call the line allows, and goes out only on my turn", () => {
  const s = atTable();
  const toKaisa = Math.atan2(0.71 - 0.5, 1.42 - 0.5);
  const { state, effects } = intend(s, { type: "aim", angle: toKaisa }, env);
  assert.equal(state.aim.angle, toKaisa);
  assert.equal(state.call.ball, "kaisa", "the line's first ball, which the server lets me call");
  assert.deepEqual(effects.map((e) => e.kind), ["aim"]);
  assert.ok(Math.abs(effects[0].strike.angle - toKaisa) < 1e-12);
  const waiting = intend(atTable("break_placed", [["bob", "shoot"]]), { type: "aim", angle: 1 }, env);
  assert.deepEqual(waiting.effects, [], "not my turn: the aim would only be refused");
});

test("a shot with a call the server forbids is not sent: the player reads why", () => {
  let s = atTable();
  s = intend(s, { type: "pick", point: [0.71, 0.71] }, env).state; // red1: not callable at the opening
  s = { ...s, call: { ...s.call, ball: "red1", pocket: "foot_left" } };
  const { state, effects } = intend(s, { type: "shoot" }, env);
  assert.deepEqual(effects, []);
  assert.equal(state.error.code, "call_not_allowed");
  assert.equal(state.error.at, 5000);
  assert.ok(state.error.message.length > 10, state.error.message);
});

test("a pulled cue released past the threshold shoots the allowed call with the limited strike", () => {
  let s = atTable();
  s = { ...s, call: { ...s.call, ball: "kaisa", pocket: "foot_left" } };
  const weak = intend(s, { type: "pull-release", power: 0 }, env);
  assert.deepEqual(weak.effects, [], "a release without a pull shoots nothing");
  const { state, effects } = intend(s, { type: "pull-release", power: 0.6 }, env);
  assert.equal(effects.length, 1);
  const [play] = effects;
  assert.equal(play.kind, "play");
  assert.equal(play.t, "shoot");
  assert.equal(play.d.call.ball, "kaisa");
  assert.equal(play.d.call.pocket, "foot_left");
  assert.ok(play.d.strike.speed > 0 && play.d.strike.speed <= fixtures.break_placed.constraints.strike_limits.max_speed);
  assert.equal(state.ui.pull, 0, "the cue goes back to rest");
});

test("abort and resign ask first; the play message is sent only on yes", () => {
  const s = atTable();
  for (const [type, t] of [["abort", "abort"], ["resign", "resign"]]) {
    const { state, effects } = intend(s, { type }, env);
    assert.equal(state, s, "asking changes nothing");
    assert.equal(effects.length, 1);
    assert.equal(effects[0].kind, "confirm");
    assert.match(effects[0].text, /\?/, "a question the player answers");
    assert.deepEqual(effects[0].then, { kind: "play", t, d: {} });
  }
});

test("a ball in hand: an illegal spot is refused with words, a legal one is placed to the micrometre", () => {
  const s = atTable("break_in_hand", [["alice", "place"]]);
  const bad = intend(s, { type: "place", point: [2.0, 0.7] }, env); // beyond the home line
  assert.deepEqual(bad.effects, []);
  assert.equal(bad.state.placing.ok, false);
  assert.match(bad.state.error.message, /home/);
  const good = intend(s, { type: "place", point: [0.3000004, 0.4] }, env);
  assert.deepEqual(good.effects, [{ kind: "play", t: "place", d: { ball: "white1", x: 0.3, y: 0.4 } }]);
  assert.equal(good.state.placing.sent, true);
  const moving = intend(s, { type: "place-move", point: [2.0, 0.7] }, env);
  assert.equal(moving.state.placing.ok, false);
  assert.match(moving.state.ui.why, /home/, "the reason under the call, for whoever cannot see the ring");
});

test("the pointer's cursor and the reason against a greyed ball come from the server's constraints", () => {
  const s = atTable();
  const overRed = intend(s, { type: "hover", point: [0.71, 0.71] }, env);
  assert.deepEqual(overRed.effects, [{ kind: "cursor", value: "pointer" }]);
  assert.ok(overRed.state.ui.why, "red1 may not be called at the opening: the reason shows");
  const overCue = intend(s, { type: "hover", point: [0.5, 0.5] }, env);
  assert.deepEqual(overCue.effects, [{ kind: "cursor", value: "grab" }]);
  const empty = intend(s, { type: "hover", point: [2.2, 1.2] }, env);
  assert.deepEqual(empty.effects, [{ kind: "cursor", value: "crosshair" }]);
});

test("cycling the call offers only the balls the server lets me call", () => {
  const s = atTable();
  const allowed = Object.keys(fixtures.break_placed.constraints.calls);
  const seen = new Set();
  let state = s;
  for (let i = 0; i < 6; i += 1) {
    state = intend(state, { type: "call-cycle", field: "ball", dir: 1 }, env).state;
    seen.add(state.call.ball);
  }
  assert.deepEqual([...seen].sort(), [...allowed].sort());
});

test("skip with nothing rolling does nothing; an unknown intent changes nothing", () => {
  const s = atTable();
  assert.deepEqual(intend(s, { type: "skip" }, env), { state: s, effects: [] });
  assert.deepEqual(intend(s, { type: "nonsense" }, env), { state: s, effects: [] });
});
