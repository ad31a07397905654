import { test } from "node:test";
import assert from "node:assert/strict";
import { aimAngle, MAX_PULL, pullPower } from "../../static/game/js/input/gestures.js";
import { COARSE_STEP, FINE_STEP, keyIntent, STEP } from "../../static/game/js/input/keyboard.js";
import { createLoop } from "../../static/game/js/loop.js";
import { describeCall, describeVerdict, formatClock } from "../../static/game/js/ui/words.js";

const R = 0.034;

test("pulling back along the cue sets the power, pushing forward does not", () => {
  const start = [1, 0.7];
  assert.ok(Math.abs(pullPower(0, start, [1 - MAX_PULL / 2, 0.7]) - 0.5) < 1e-12);
  assert.equal(pullPower(0, start, [1 - 2 * MAX_PULL, 0.7]), 1);
  assert.equal(pullPower(0, start, [1.2, 0.7]), 0);
  assert.ok(Math.abs(pullPower(0, start, [1 - MAX_PULL / 2, 0.9]) - 0.5) < 1e-12, "sideways drift ignored");
});

test("aim angle points from the cue ball to the pointer", () => {
  assert.ok(Math.abs(aimAngle([0, 0], [0, 1]) - Math.PI / 2) < 1e-12);
});

test("keys: arrows 0.1°, shift fine (at most 0.1 mrad), ctrl coarse, space and enter shoot", () => {
  assert.deepEqual(keyIntent("ArrowLeft", false), { type: "turn", delta: STEP, fine: false });
  assert.deepEqual(keyIntent("ArrowRight", true), { type: "turn", delta: -FINE_STEP, fine: true });
  assert.deepEqual(keyIntent("ArrowRight", false, true), { type: "turn", delta: -COARSE_STEP, fine: false });
  assert.ok(FINE_STEP <= 1e-4, "the fine step is at most 0.1 mrad");
  assert.ok(Math.abs(STEP - (0.1 * Math.PI) / 180) < 1e-15);
  assert.ok(COARSE_STEP > 10 * STEP);
  assert.equal(keyIntent(" ", false).type, "shoot");
  assert.equal(keyIntent("Enter", false).type, "shoot");
  assert.equal(keyIntent("a", false), null);
});

test("the loop runs fixed steps and drops the gap after a hidden tab", () => {
  let frame = null;
  const steps = [];
  let renders = 0;
  const loop = createLoop({ update: (dt) => steps.push(dt), render: () => renders++, step: 10, raf: (f) => ((frame = f), 1), caf() {} });
  loop.start();
  frame(0);
  frame(35);
  assert.equal(steps.length, 4); // 10 (first) + 35 -> 4 steps of 10, 5 ms carried
  frame(60_035); // a minute hidden
  assert.ok(steps.length <= 6, `replayed ${steps.length} steps after a gap`);
  assert.equal(renders, 3);
});

test("words: calls, clocks, verdicts", () => {
  assert.equal(describeCall({ ball: "red1", pocket: "foot_left", object_cushions: 1, cue_cushions: 0, via: "kaisa" }), "red → top right · 1 cushion · via kaisa");
  assert.equal(formatClock(65.2), "1:06");
  assert.equal(formatClock(-3), "0:00");
  assert.equal(describeVerdict({ reason: "foul", points: 0, penalty: 2 }), "foul · penalty −2");
});
