import { test } from "node:test";
import assert from "node:assert/strict";
import { createRotator, elapsedMinutes, pagesFor } from "../../static/game/js/pages/tv.js";

test("rows are split into pages that each fit the room, in order", () => {
  assert.deepEqual(pagesFor([20, 20, 20, 20, 20], 50), [
    [0, 1],
    [2, 3],
    [4, 4],
  ]);
  assert.deepEqual(pagesFor([20, 20, 20], 60), [[0, 2]], "everything fits: one page");
  assert.deepEqual(pagesFor([], 60), []);
  // A row taller than the room still gets a page of its own (never an endless empty page).
  assert.deepEqual(pagesFor([10, 80, 10], 50), [
    [0, 0],
    [1, 1],
    [2, 2],
  ]);
});

/** Timers the test fires by hand: the rotator never waits on a real clock. */
function manualTimers() {
  const pending = new Map();
  let next = 1;
  return {
    setTimer: (f, ms) => {
      pending.set(next, { f, ms });
      return next++;
    },
    clearTimer: (id) => pending.delete(id),
    fire() {
      const [id, timer] = pending.entries().next().value;
      pending.delete(id);
      timer.f();
      return timer.ms;
    },
    waiting: () => pending.size,
  };
}

test("a rotator shows page 1 at once, then each next page after its time, round and round", () => {
  const timers = manualTimers();
  const shown = [];
  const rotator = createRotator({ count: 3, every: 12000, show: (p) => shown.push(p), ...timers });
  assert.deepEqual(shown, [0]);
  assert.equal(timers.fire(), 12000);
  assert.equal(timers.fire(), 12000);
  assert.equal(timers.fire(), 12000);
  assert.deepEqual(shown, [0, 1, 2, 0]);
  rotator.stop();
  assert.equal(timers.waiting(), 0, "stopped: no timer left");
});

test("one page never rotates", () => {
  const timers = manualTimers();
  const shown = [];
  createRotator({ count: 1, every: 12000, show: (p) => shown.push(p), ...timers });
  assert.deepEqual(shown, [0]);
  assert.equal(timers.waiting(), 0);
});

test("a game's minutes on its table follow the server's clock, not the screen's", () => {
  const since = 1_000_000;
  assert.equal(elapsedMinutes(since, since + 23 * 60000 + 59000, 0), 23);
  // The screen's clock is 5 minutes slow: the server's skew puts it right.
  assert.equal(elapsedMinutes(since, since + 18 * 60000, 5 * 60000), 23);
  assert.equal(elapsedMinutes(since, since - 60000, 0), 0, "never negative");
});
