// The pull-back as a deliberate gesture: what a press lands on, the aim of a drag that starts on the
// cue, and the pointer's gesture machine driven with real pointer-event sequences on a stand-in canvas
// (the DOM is the browser's; the gesture logic is ours and runs unchanged), and the skip to the result
// (item 15) on the pure state.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { BUTT_FROM, CUE_LENGTH, HOLD_MS, MAX_PULL, pressOn, TIP_GAP } from "../../static/game/js/input/gestures.js";
import { bindPointer } from "../../static/game/js/input/pointer.js";
import { keyIntent } from "../../static/game/js/input/keyboard.js";
import { animating, ballsAt, createState, myActions, receive, skippable, skipSteps, tick } from "../../static/game/js/state.js";
import { pullWords } from "../../static/game/js/ui/pullmeter.js";

const table = JSON.parse(readFileSync(new URL("./fixtures/table.json", import.meta.url)));
const R = table.ball_radius;

test("a press on the butt pulls; on the ball or the rest of the cue it may hold; elsewhere it aims", () => {
  const cue = [2, 0.7];
  const tipAt = (d) => [cue[0] - R - TIP_GAP - d, 0.7]; // aim 0: the cue lies towards -x
  assert.equal(pressOn(cue, 0, [2.01, 0.7], R), "ball");
  assert.equal(pressOn(cue, 0, tipAt(0.2), R), "cue", "on the cue near the ball: a new player's trap");
  assert.equal(pressOn(cue, 0, tipAt(BUTT_FROM - 0.05), R), "cue");
  assert.equal(pressOn(cue, 0, tipAt(BUTT_FROM + 0.05), R), "butt");
  assert.equal(pressOn(cue, 0, tipAt(CUE_LENGTH - 0.01), R), "butt");
  assert.equal(pressOn(cue, 0, tipAt(CUE_LENGTH + 0.1), R), "cloth", "beyond the cue's end");
  assert.equal(pressOn(cue, 0, [2.3, 0.7], R), "cloth", "in front of the ball");
  assert.equal(pressOn(cue, 0, [tipAt(1.0)[0], 0.8], R), "cloth", "beside the butt");
  // The cue turns with the aim: aimed up (+y) the butt lies below the ball.
  assert.equal(pressOn(cue, Math.PI / 2, [2, 0.7 - R - TIP_GAP - 1.0], R), "butt");
  assert.equal(pressOn(cue, Math.PI / 2, tipAt(1.0), R), "cloth");
  // A finger's slop widens the butt.
  assert.equal(pressOn(cue, 0, [tipAt(1.0)[0], 0.75], R, 0.06), "butt");
});

// ---- the gesture machine ---------------------------------------------------------------------

/** A canvas stand-in at the page's origin: 100 CSS px per metre, y down the screen as +y. */
function rig({ aim = 0, cue = [2, 0.7], actions = ["lag"] } = {}) {
  const handlers = {};
  const canvas = {
    addEventListener: (t, f) => (handlers[t] = f),
    removeEventListener: () => {},
    getBoundingClientRect: () => ({ left: 0, top: 0 }),
    setPointerCapture: () => {},
  };
  const tf = { a: 100, b: 0, c: 0, d: 100, e: 0, f: 0, scale: 100 };
  const state = {
    role: "player", me: "alice", steps: [], wasOpen: false, connection: "open", table,
    shown: { phase: "lag", players: [{ name: "alice", cue_ball: "white1" }], balls: { white1: cue }, pending: actions.map((a) => ["alice", a]) },
    you: { seat: 0 }, aim: { angle: aim }, lagRest: {},
  };
  const intents = [];
  const timers = [];
  bindPointer(canvas, {
    getState: () => state,
    getTransform: () => tf,
    dispatch: (i) => intents.push(i),
    setTimer: (f, ms) => timers.push({ f, ms }) && timers.length,
    clearTimer: (id) => (timers[id - 1].f = null),
  });
  const at = ([x, y]) => ({ clientX: x * 100, clientY: y * 100, pointerId: 1, button: 0, pointerType: "mouse", preventDefault() {} });
  return {
    intents,
    down: (p) => handlers.pointerdown(at(p)),
    move: (p) => handlers.pointermove(at(p)),
    up: (p) => handlers.pointerup(at(p)),
    elapse: () => timers.forEach((t) => t.f && t.f()),
    timers,
    types: () => intents.map((i) => i.type),
  };
}

test("a drag from the cue near the ball aims at the finger, never the opposite way, and fires nothing", () => {
  const r = rig();
  const press = [2 - R - TIP_GAP - 0.2, 0.7]; // on the drawn cue, 0.2 m behind its tip
  r.down(press);
  for (let i = 1; i <= 10; i++) r.move([press[0] - 0.02 * i, 0.7 + 0.01 * i]); // back and a little aside
  r.up([press[0] - 0.2, 0.8]);
  assert.ok(!r.types().includes("pull") && !r.types().includes("pull-release"), r.types().join());
  const aims = r.intents.filter((i) => i.type === "aim");
  assert.ok(aims.length > 0, "the drag turned the aim");
  // Each step of the drag points the shot from the ball at the finger, as a drag on the cloth does.
  for (const [k, { angle }] of aims.entries()) {
    const finger = [press[0] - 0.02 * (k + 11 - aims.length), 0.7 + 0.01 * (k + 11 - aims.length)];
    assert.ok(Math.abs(angle - Math.atan2(finger[1] - 0.7, finger[0] - 2)) < 1e-9, `${angle}`);
  }
  assert.equal(r.timers[0].ms, HOLD_MS);
});

test("a press on the butt pulls back at once: the power grows, release shoots; back to zero cancels", () => {
  const r = rig();
  const butt = [2 - R - TIP_GAP - 1.0, 0.7];
  r.down(butt);
  assert.deepEqual(r.intents[0], { type: "pull", power: 0 });
  r.move([butt[0] - MAX_PULL / 2, 0.7]);
  assert.ok(Math.abs(r.intents.at(-1).power - 0.5) < 1e-9);
  r.up([butt[0] - MAX_PULL / 2, 0.7]);
  assert.equal(r.intents.at(-1).type, "pull-release");
  assert.ok(Math.abs(r.intents.at(-1).power - 0.5) < 1e-9);

  const back = rig();
  back.down(butt);
  back.move([butt[0] - 0.2, 0.7]);
  back.move([butt[0], 0.7]);
  back.up([butt[0] + 0.01, 0.7]);
  assert.deepEqual(back.intents.at(-1), { type: "pull-release", power: 0 }, "back at zero: nothing to shoot");
});

test("held still on the cue ball, the press becomes a pull-back from there; moved first, it stays an aim", () => {
  const r = rig();
  r.down([2, 0.7]);
  assert.deepEqual(r.intents, [], "nothing yet: a press is not a pull");
  r.elapse();
  assert.deepEqual(r.intents, [{ type: "pull", power: 0 }]);
  r.move([2 - MAX_PULL, 0.7]);
  r.up([2 - MAX_PULL, 0.7]);
  assert.deepEqual(r.intents.at(-1), { type: "pull-release", power: 1 });

  const moved = rig();
  moved.down([2, 0.7]);
  moved.move([2.1, 0.9]);
  moved.elapse();
  moved.up([2.1, 0.9]);
  assert.ok(!moved.types().includes("pull"), moved.types().join());

  const cloth = rig();
  cloth.down([1, 0.2]);
  assert.equal(cloth.timers.length, 0, "on the cloth a hold does nothing");
});

test("the meter's words say the power, or that letting go at zero shoots nothing", () => {
  assert.equal(pullWords(0.5, 3.2), "Power 50% · 3.2 m/s · let go to shoot");
  assert.equal(pullWords(0, 0.2), "Pull back for power · let go at zero: no shot");
});

// ---- skip ------------------------------------------------------------------------------------

function game(overrides = {}) {
  return {
    phase: "play",
    players: [
      { name: "alice", cue_ball: "white1", score: 0 },
      { name: "bob", cue_ball: "white2", score: 0 },
    ],
    turn: 1,
    balls: { white1: [0.5, 0.7], white2: [2.5, 0.3], kaisa: [1.42, 0.71] },
    pending: [["bob", "shoot"]],
    ...overrides,
  };
}

const shot = (v, white2, score, pending) => ({
  t: "shot",
  v,
  d: {
    kind: "shot", player: "bob", call: null, strike: {},
    segments: { white2: [[0, 2.5, 0.3, -0.5, 0, 0.05, 0]] }, // 10 s of rolling
    verdict: { reason: "fulfilled", points: score },
    state: game({ balls: { ...game().balls, white2 }, players: [{ name: "alice", cue_ball: "white1", score: 0 }, { name: "bob", cue_ball: "white2", score }], turn: 0, pending }),
  },
});

test("skip: every queued shot is committed at once, the final position and the next input follow", () => {
  let s = createState({ table, matchId: "m", me: "alice", role: "player" });
  s = receive(s, { t: "snapshot", v: 3, d: { state: game(), you: { name: "alice", role: "player", seat: 0 } } }, 0);
  assert.equal(skippable(s), false);
  assert.equal(skipSteps(s), s, "nothing to skip: the same state");
  s = receive(s, shot(4, [1.0, 0.3], 2, [["bob", "shoot"]]), 100);
  s = receive(s, shot(5, [0.2, 0.3], 4, [["alice", "shoot"]]), 200);
  s = tick(s, 1000);
  assert.ok(animating(s, 1000) && skippable(s));
  assert.deepEqual(myActions(s), []);
  const skipped = skipSteps(s);
  assert.equal(skipped.steps.length, 0);
  assert.deepEqual(skipped.shown.balls.white2, [0.2, 0.3], "the last event's state");
  assert.equal(skipped.shown.players[1].score, 4);
  assert.equal(skipped.history.length, 2, "both shots are in the list");
  assert.equal(animating(skipped, 1000), false);
  assert.deepEqual(ballsAt(skipped, 1000).white2, { x: 0.2, y: 0.3, drop: 0, moving: false });
  assert.deepEqual(myActions(skipped), ["shoot"], "my turn at once");
  assert.equal(s.steps.length, 2, "the old state is untouched");
});

test("S skips (not Ctrl+S); Escape stays the call's clear key", () => {
  assert.deepEqual(keyIntent("s", false), { type: "skip" });
  assert.deepEqual(keyIntent("S", true), { type: "skip" });
  assert.equal(keyIntent("s", false, true), null);
  assert.equal(keyIntent("Escape", false).type, "clear-call");
});
