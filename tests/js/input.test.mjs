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

test("the loop stops asking for frames while nothing moves and idles on its timer until woken", () => {
  const frames = [];
  const timers = [];
  let busy = true;
  let updates = 0;
  let renders = 0;
  const loop = createLoop({
    update: () => updates++,
    render: () => renders++,
    busy: () => busy,
    step: 10,
    idleStep: 100,
    raf: (f) => (frames.push(f), frames.length),
    caf: (h) => (frames[h - 1] = null),
    setTimer: (f) => (timers.push(f), timers.length),
    clearTimer: (h) => (timers[h - 1] = null),
    clock: () => 1000,
  });
  loop.start();
  assert.equal(frames.length, 1);
  frames[0](0); // something moves: the next frame is asked for
  assert.equal(frames.length, 2);
  assert.equal(timers.length, 0);
  busy = false;
  frames[1](16); // still: that frame is given back, the idle timer runs instead
  assert.equal(frames[2], null, "the frame asked for at the start of a still frame is cancelled");
  assert.equal(timers.length, 1);
  const [rendersBefore, updatesBefore] = [renders, updates];
  timers[0](); // an idle tick: one update, one render, the next tick
  assert.equal(renders, rendersBefore + 1);
  assert.equal(updates, updatesBefore + 1);
  assert.equal(timers.length, 2);
  assert.equal(frames.length, 3, "no frame while idle");
  loop.wake(); // a new state: a frame at once, the idle tick cancelled
  assert.equal(frames.length, 4);
  assert.equal(timers[1], null);
  loop.wake(); // already awake: no second frame
  assert.equal(frames.length, 4);
  loop.stop();
  assert.equal(frames[3], null);
  loop.wake(); // stopped: nothing wakes it
  assert.equal(frames.length, 4);
});

test("the idle ticks come as often as the page asks at each moment", () => {
  const delays = [];
  const frames = [];
  let marchingNow = false;
  const loop = createLoop({
    update() {},
    render() {},
    busy: () => false,
    idleStep: () => (marchingNow ? 100 : 250),
    raf: (f) => (frames.push(f), frames.length),
    caf() {},
    setTimer: (f, ms) => (delays.push([f, ms]), delays.length),
    clearTimer() {},
    clock: () => 0,
  });
  loop.start();
  frames[0](0); // a still frame: the loop goes idle
  assert.deepEqual(delays.map(([, ms]) => ms), [250], "still and nothing marching: the HUD's pace");
  marchingNow = true;
  delays[0][0]();
  assert.deepEqual(delays.map(([, ms]) => ms), [250, 100], "a call marching: its ring's pace");
  loop.stop();
});

test("an idle tick that sets a new state hands over to the frames", () => {
  const frames = [];
  const timers = [];
  let loop = null;
  let moving = false;
  loop = createLoop({
    update: () => {
      if (moving) loop.wake();
    },
    render() {},
    busy: () => moving,
    raf: (f) => (frames.push(f), frames.length),
    caf() {},
    setTimer: (f) => (timers.push(f), timers.length),
    clearTimer() {},
    clock: () => 0,
  });
  loop.start();
  frames[0](0);
  assert.equal(timers.length, 1, "still: idling");
  moving = true;
  const asked = frames.length;
  timers[0]();
  assert.equal(frames.length, asked + 1, "the tick's new state asked for one frame");
  assert.equal(timers.length, 1, "and no further idle tick");
});

test("words: calls, clocks, verdicts", () => {
  assert.equal(describeCall({ ball: "red1", pocket: "foot_left", object_cushions: 1, cue_cushions: 0, via: "kaisa" }), "red → top right · 1 cushion · via kaisa");
  assert.equal(formatClock(65.2), "1:06");
  assert.equal(formatClock(-3), "0:00");
  assert.equal(describeVerdict({ reason: "foul", points: 0, penalty: 2 }), "foul · penalty −2");
});
