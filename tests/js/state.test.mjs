import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  shotClockLeft,
  activePlayer,
  aimGliding,
  animating,
  animationRate,
  ballsAt,
  classifyVersion,
  createState,
  myActions,
  myCueBall,
  receive,
  remoteAimAngle,
  setAim,
  setCall,
  speedFromPower,
  powerFromSpeed,
  tick,
} from "../../static/game/js/state.js";
import { DROP_DURATION } from "../../static/game/js/trajectory.js";

const table = JSON.parse(readFileSync(new URL("./fixtures/table.json", import.meta.url)));

function game(overrides = {}) {
  return {
    phase: "play",
    players: [
      { name: "alice", cue_ball: "white1", score: 0, connected: true },
      { name: "bob", cue_ball: "white2", score: 0, connected: true },
    ],
    turn: 0,
    in_hand: [],
    balls: { white1: [0.5, 0.7], white2: [2.5, 0.3], red1: [0.71, 0.71], red2: [2.13, 0.71], kaisa: [1.42, 0.71] },
    pending: [["alice", "shoot"]],
    winner: null,
    ...overrides,
  };
}

const snapshot = (v, g = game(), extra = {}) => ({ t: "snapshot", v, d: { state: g, you: { name: "alice", role: "player", seat: 0 }, ...extra } });

function shotMsg(v, { player = "alice", score = 5, pocket = false } = {}) {
  const segments = {
    white1: [[0, 0.5, 0.7, 2.0, 0, -1.0, 0]], // stops after 2 s at x = 2.5
  };
  if (pocket) segments.kaisa = [[0, 1.42, 0.71, 1.0, 0, 0, 0], ["pocket", 0.5, "foot_right"]];
  const after = game({
    balls: { ...game().balls, white1: [2.5, 0.7], kaisa: pocket ? null : [1.42, 0.71] },
    players: [
      { name: "alice", cue_ball: "white1", score, connected: true },
      { name: "bob", cue_ball: "white2", score: 0, connected: true },
    ],
    turn: 1,
    pending: [["bob", "shoot"]],
  });
  return {
    t: "shot",
    v,
    d: { kind: "shot", player, ack: 41, call: { ball: "red1", pocket: "foot_left" }, strike: {}, segments, verdict: { scored: true, points: score, reason: "fulfilled" }, state: after },
  };
}

const fresh = () => createState({ table, matchId: "m1", me: "alice", role: "player" });

test("classifyVersion", () => {
  assert.equal(classifyVersion(null, 3), "first");
  assert.equal(classifyVersion(3, 3), "duplicate");
  assert.equal(classifyVersion(3, 2), "duplicate");
  assert.equal(classifyVersion(3, 4), "next");
  assert.equal(classifyVersion(3, 6), "gap");
});

test("a snapshot replaces everything, even after other events", () => {
  let s = receive(fresh(), snapshot(3), 0);
  s = receive(s, shotMsg(4), 10);
  const replaced = game({ phase: "extra_visits", turn: 1, pending: [["bob", "shoot"]] });
  s = receive(s, snapshot(9, replaced), 20);
  assert.equal(s.version, 9);
  assert.equal(s.shown.phase, "extra_visits");
  assert.equal(s.steps.length, 0, "no animation left over from before the snapshot");
  assert.equal(activePlayer(s), "bob");
});

test("events before the first snapshot are not applied", () => {
  const s = receive(fresh(), shotMsg(4), 0);
  assert.equal(s.version, null);
  assert.equal(s.game, null);
});

test("a shot is queued as an animation, then the display snaps to its state", () => {
  let s = receive(fresh(), snapshot(3), 0);
  s = receive(s, shotMsg(4), 1000);
  assert.equal(s.version, 4);
  assert.equal(s.game.players[0].score, 5, "authoritative state updated at once");
  assert.equal(s.shown.players[0].score, 0, "the score shows only when the balls stop");
  assert.ok(animating(s, 1500));
  // Half a second in: x = 0.5 + 2*0.5 - 0.5*1*0.25.
  const mid = ballsAt(s, 1500);
  assert.ok(Math.abs(mid.white1.x - (0.5 + 1 - 0.125)) < 1e-9);
  assert.deepEqual(myActions(s), [], "no input while the balls roll");
  s = tick(s, 3100);
  assert.equal(s.steps.length, 0);
  assert.equal(s.shown.players[0].score, 5);
  assert.deepEqual(ballsAt(s, 3100).white1, { x: 2.5, y: 0.7, drop: 0, moving: false });
  assert.equal(s.lastVerdict.reason, "fulfilled");
  assert.equal(s.history.length, 1);
  assert.equal(activePlayer(s), "bob");
});

test("a test server's animation rate rolls the same shot in less display time, over the same path", () => {
  const fast = () => createState({ table, matchId: "m1", me: "alice", role: "player", rate: 4 });
  let s = receive(fast(), snapshot(3), 0);
  s = receive(s, shotMsg(4), 1000);
  // Half a second of shot time is an eighth of a second on the display at rate 4.
  const mid = ballsAt(s, 1125);
  assert.ok(Math.abs(mid.white1.x - (0.5 + 1 - 0.125)) < 1e-9);
  assert.ok(animating(s, 1400));
  s = tick(s, 1000 + 2000 / 4 + 1);
  assert.equal(s.steps.length, 0, "the 2-s shot ends after 0.5 s of display time");
  assert.equal(s.shown.players[0].score, 5);
});

test("a pocketed ball is drawn sinking, then disappears", () => {
  let s = receive(fresh(), snapshot(3), 0);
  s = receive(s, shotMsg(4, { pocket: true }), 0);
  const sinking = ballsAt(s, 500 + (DROP_DURATION * 1000) / 2);
  assert.ok(sinking.kaisa.drop > 0.4 && sinking.kaisa.drop < 0.6);
  assert.equal(ballsAt(s, 500 + DROP_DURATION * 1000 + 1).kaisa, undefined);
});

test("duplicate events are ignored by version", () => {
  let s = receive(fresh(), snapshot(3), 0);
  s = receive(s, shotMsg(4, { score: 5 }), 0);
  const again = receive(s, shotMsg(4, { score: 99 }), 10);
  assert.equal(again, s, "same object: nothing changed");
  const older = receive(s, shotMsg(2, { score: 99 }), 10);
  assert.equal(older.game.players[0].score, 5);
});

test("a version gap is detected, held back, and healed when the missing event arrives", () => {
  let s = receive(fresh(), snapshot(3), 0);
  s = receive(s, shotMsg(5, { score: 9 }), 0);
  assert.equal(s.version, 3, "v5 not applied over a hole");
  assert.deepEqual(s.gap && s.gap.from, 3);
  assert.equal(s.buffer.length, 1);
  s = receive(s, shotMsg(4, { score: 5 }), 0);
  assert.equal(s.version, 5);
  assert.equal(s.gap, null);
  assert.equal(s.buffer.length, 0);
  assert.equal(s.game.players[0].score, 9);
  assert.equal(s.steps.length, 2, "both shots animate, in order");
  // The second animation starts where the first ended (2 s), not at once.
  s = tick(s, 2100);
  assert.equal(s.history.length, 1);
  assert.equal(s.steps[0].startAt, 2000);
});

test("a snapshot heals a gap and drops stale buffered events", () => {
  let s = receive(fresh(), snapshot(3), 0);
  s = receive(s, shotMsg(6), 0);
  s = receive(s, snapshot(7), 0);
  assert.equal(s.gap, null);
  assert.equal(s.buffer.length, 0);
  assert.equal(s.version, 7);
});

test("a late joiner's snapshot with last_shot starts the animation mid-way", () => {
  const segments = { white1: [[0, 0.5, 0.7, 2.0, 0, -1.0, 0]] };
  const epoch = 1_000_000;
  const snap = snapshot(8, game({ balls: { ...game().balls, white1: [2.5, 0.7] } }), {
    last_shot: { segments, started_at: epoch - 0.5 },
  });
  const now = 50_000;
  const s = receive(fresh(), snap, now, epoch);
  assert.equal(s.steps.length, 1);
  const b = ballsAt(s, now).white1;
  assert.ok(Math.abs(b.x - (0.5 + 1 - 0.125)) < 1e-9, `at 0.5 s in, got ${b.x}`);
  // A shot that finished long ago is not replayed.
  const old = receive(fresh(), snapshot(8, game(), { last_shot: { segments, started_at: epoch - 60 } }), now, epoch);
  assert.equal(old.steps.length, 0);
});

test("events behind a running animation wait: a finish shows after the winning shot", () => {
  let s = receive(fresh(), snapshot(3), 0);
  s = receive(s, shotMsg(4, { score: 61 }), 0);
  s = receive(s, { t: "finished", v: 5, d: { winner: "alice", reason: "reached 60", state: { ...s.game, phase: "finished", winner: "alice" } } }, 10);
  assert.equal(s.finished, null);
  s = tick(s, 1000);
  assert.equal(s.finished, null);
  s = tick(s, 2001);
  assert.equal(s.finished.winner, "alice");
  assert.equal(s.shown.phase, "finished");
});

test("a hidden tab coming back commits every finished step at once", () => {
  let s = receive(fresh(), snapshot(3), 0);
  s = receive(s, shotMsg(4, { score: 5 }), 0);
  s = receive(s, shotMsg(5, { score: 8 }), 0);
  s = tick(s, 600_000);
  assert.equal(s.steps.length, 0);
  assert.equal(s.shown.players[0].score, 8);
  assert.equal(s.history.length, 2);
});

test("aim messages from others are kept, my own echo ignored; errors clear the pending ack", () => {
  let s = receive(fresh(), snapshot(3), 0);
  s = receive(s, { t: "aim", d: { player: "bob", angle: 1, speed: 2, side: 0, height: 0 } }, 5);
  assert.equal(s.remoteAim.angle, 1);
  const same = receive(s, { t: "aim", d: { player: "alice", angle: 2 } }, 6);
  assert.equal(same.remoteAim.angle, 1);
  s = { ...s, sent: { 12: "shoot" } };
  s = receive(s, { t: "error", d: { code: "bad_call", message: "no", ack: 12 } }, 7);
  assert.equal(s.error.code, "bad_call");
  assert.deepEqual(s.sent, {});
});

test("an input the database failed under is shown as still being sent", () => {
  let s = { ...receive(fresh(), snapshot(3), 0), sent: { 41: "shoot" } };
  s = receive(s, { t: "error", d: { code: "unavailable", message: "it is sent again", ack: 41 } }, 7);
  assert.equal(s.error.message, "it is sent again");
  assert.deepEqual(s.sent, { 41: "shoot" }, "net.js sends it again: it stays pending");
  s = receive(s, shotMsg(4), 8); // its event (ack 41) once the resend was applied
  assert.deepEqual(s.sent, {}, "answered by its event");
});

test("who acts: pending actions, my cue ball (the lag uses the seat)", () => {
  let s = receive(fresh(), snapshot(3, game({ phase: "lag", players: [
    { name: "alice", cue_ball: null, score: 0 },
    { name: "bob", cue_ball: null, score: 0 },
  ], pending: [["alice", "lag"], ["bob", "lag"]] })), 0);
  assert.deepEqual(myActions(s), ["lag"]);
  assert.equal(myCueBall(s), "white1");
  const spectator = { ...s, role: "spectator" };
  assert.deepEqual(myActions(spectator), []);
});

test("aim and call reducers clamp their inputs to the server's strike limits", () => {
  const limits = { min_speed_exclusive: 0, max_speed: 7, max_tip_offset: 0.5, max_angle: 2 * Math.PI };
  const shown = game({ constraints: { alice: { strike_limits: limits }, bob: { strike_limits: limits } } });
  let s = receive(fresh(), snapshot(1, shown), 0, 0);
  s = setAim(s, { speed: 50, side: 1, height: 1 });
  assert.equal(s.aim.speed, 7);
  assert.ok(Math.abs(Math.hypot(s.aim.side, s.aim.height) - 0.5) < 1e-12);
  s = setCall(s, { ball: "red1", object_cushions: -3 });
  assert.equal(s.call.object_cushions, 0);
  assert.equal(s.callManual, true);
  for (const p of [0, 0.3, 1]) assert.ok(Math.abs(powerFromSpeed(speedFromPower(p, limits), limits) - p) < 1e-12);
  assert.equal(speedFromPower(1, limits), 7);
});

test("the other player's aim glides from the angle shown to the new one over the gap it came after", () => {
  let s = receive(fresh(), snapshot(3), 0);
  s = receive(s, { t: "aim", d: { player: "bob", angle: 1, speed: 2, side: 0, height: 0 } }, 1000);
  assert.equal(remoteAimAngle(s.remoteAim, 1000), 1, "the first aim of a sweep is drawn where it is");
  assert.equal(aimGliding(s, 1000), false);
  // A spectator's next aim 100 ms later: drawn from 1 towards 1.2 over the next 100 ms.
  s = receive(s, { t: "aim", d: { player: "bob", angle: 1.2, speed: 2, side: 0, height: 0 } }, 1100);
  assert.ok(Math.abs(remoteAimAngle(s.remoteAim, 1100) - 1) < 1e-9);
  assert.ok(Math.abs(remoteAimAngle(s.remoteAim, 1150) - 1.1) < 1e-9);
  assert.ok(Math.abs(remoteAimAngle(s.remoteAim, 1300) - 1.2) < 1e-9);
  assert.equal(aimGliding(s, 1150), true);
  assert.equal(aimGliding(s, 1200), false);
  // One arriving mid-glide starts from where the cue is drawn then, not from the last angle received.
  s = receive(s, { t: "aim", d: { player: "bob", angle: 1.4, speed: 2, side: 0, height: 0 } }, 1150);
  assert.ok(Math.abs(remoteAimAngle(s.remoteAim, 1150) - 1.1) < 1e-9);
  assert.ok(Math.abs(remoteAimAngle(s.remoteAim, 1200) - 1.4) < 1e-9);
  // Across the ±π seam it turns the short way round.
  s = receive(s, { t: "aim", d: { player: "bob", angle: 3.1, speed: 2, side: 0, height: 0 } }, 2000);
  s = receive(s, { t: "aim", d: { player: "bob", angle: -3.1, speed: 2, side: 0, height: 0 } }, 2100);
  const mid = remoteAimAngle(s.remoteAim, 2150);
  assert.ok(Math.abs(Math.abs(mid) - Math.PI) < 0.05, mid);
  // After a pause (a new sweep) it jumps; any event of the match ends the aim shown.
  s = receive(s, { t: "aim", d: { player: "bob", angle: 0.5, speed: 2, side: 0, height: 0 } }, 5000);
  assert.equal(remoteAimAngle(s.remoteAim, 5000), 0.5);
  assert.equal(remoteAimAngle(null, 5000), null);
});

test("an unchanged table is redrawn only while a called ring marches", async () => {
  const { marching } = await import("../../static/game/js/render/renderer.js");
  let s = receive(fresh(), snapshot(3), 0);
  assert.equal(marching(s, 10), false, "no call: nothing moves on an unchanged table");
  s = setCall(s, { ball: "kaisa", pocket: "foot_left" });
  assert.equal(marching(s, 10), true, "the called pocket's dashed ring marches");
  const spectator = receive(createState({ table, matchId: "m1", me: "", role: "spectator" }), snapshot(3), 0);
  assert.equal(marching({ ...spectator, call: s.call }, 10), false, "a spectator draws no call");
  s = receive(s, shotMsg(4), 1000);
  assert.equal(marching(s, 1500), false, "a rolling shot is redrawn every frame anyway");
});

test("a page's animation rate: a test server's number, else real time", () => {
  assert.equal(animationRate({ animationRate: "16" }), 16);
  assert.equal(animationRate({}), 1);
  assert.equal(animationRate({ animationRate: "" }), 1);
  assert.equal(animationRate({ animationRate: "fast" }), 1);
  assert.equal(animationRate({ animationRate: "-2" }), 1);
});

test("the shot clock stands at its whole time until the balls stop, then counts the shooter's own time", () => {
  const state = { clock: { skew: 0 } };
  // The server's deadline: the shot at 1000, its balls rolling 8.7 s, a 15 s clock.
  const clock = { shot_deadline: 1000 + 8.7 + 15, shot_clock: 15 };
  assert.deepEqual(shotClockLeft(state, clock, 1000.5), { left: 15, running: false }); // balls rolling
  assert.deepEqual(shotClockLeft(state, clock, 1008.7), { left: 15, running: false }); // last ball at rest
  const later = shotClockLeft(state, clock, 1010.7);
  assert.equal(later.running, true);
  assert.ok(Math.abs(later.left - 13) < 1e-9);
  // Before the break (no deadline yet) a match with a shot clock shows it, standing; without one, nothing.
  assert.deepEqual(shotClockLeft(state, { shot_deadline: null, shot_clock: 15 }, 1000), { left: 15, running: false });
  assert.equal(shotClockLeft(state, { shot_deadline: null, shot_clock: null }, 1000), null);
});
