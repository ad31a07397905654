import { test } from "node:test";
import assert from "node:assert/strict";
import {
  DROP_DURATION,
  animationDuration,
  ballAt,
  distanceAt,
  parseSegments,
  positionsAt,
  rawPosition,
  shotDuration,
} from "../../static/game/js/trajectory.js";
import { readFileSync } from "node:fs";

const table = JSON.parse(readFileSync(new URL("./fixtures/table.json", import.meta.url)));
const close = (a, b, eps = 1e-9) => assert.ok(Math.abs(a - b) <= eps, `${a} != ${b}`);

// A ball sliding then rolling along +x, then stopping; and a red that drops into foot_right.
const shot = {
  white1: [
    [0, 0.5, 0.7, 3.0, 0.0, -2.0, 0.0],
    [0.5, 1.75, 0.7, 2.0, 0.0, -0.1, 0.0],
  ],
  red1: [
    [0, 2.0, 0.3, 0.0, 0.0, 0.0, 0.0],
    [0.3, 2.0, 0.3, 1.6, -0.6, -0.16, 0.06],
    ["pocket", 0.8, "foot_right"],
  ],
  kaisa: [[0, 1.42, 0.71, 0, 0, 0, 0]],
};

test("a segment is the closed-form polynomial from its own t0", () => {
  const tracks = parseSegments(shot);
  const [x, y] = rawPosition(tracks.white1, 0.25);
  close(x, 0.5 + 3.0 * 0.25 - 0.5 * 2.0 * 0.25 * 0.25);
  close(y, 0.7);
  // Second segment starts at t0 = 0.5: dt is measured from there, not from 0.
  const [x2] = rawPosition(tracks.white1, 1.5);
  close(x2, 1.75 + 2.0 * 1.0 - 0.5 * 0.1 * 1.0);
});

test("the last segment stops where the velocity reaches zero instead of reversing", () => {
  const tracks = parseSegments(shot);
  const stopT = 0.5 + 2.0 / 0.1; // v = 2.0, a = -0.1 -> stops 20 s after t0
  const atStop = rawPosition(tracks.white1, stopT);
  const later = rawPosition(tracks.white1, stopT + 30);
  close(atStop[0], 1.75 + 2.0 * 20 - 0.5 * 0.1 * 400);
  close(later[0], atStop[0]);
  assert.equal(ballAt(tracks.white1, stopT + 1).moving, false);
  assert.equal(ballAt(tracks.white1, stopT - 1).moving, true);
});

test("durations: the last ball to stop or drop decides; the animation adds the drop", () => {
  const tracks = parseSegments(shot);
  close(shotDuration(tracks), 20.5);
  const onlyRed = parseSegments({ red1: shot.red1 });
  close(shotDuration(onlyRed), 0.8);
  close(animationDuration(onlyRed), 0.8 + DROP_DURATION);
  assert.equal(shotDuration(parseSegments({ kaisa: shot.kaisa })), 0);
});

test("a pocketed ball freezes its path at the drop time and sinks toward the pocket", () => {
  const tracks = parseSegments(shot);
  const before = ballAt(tracks.red1, 0.79, table.pockets);
  assert.equal(before.drop, 0);
  assert.equal(before.pocket, null);
  const atDrop = rawPosition(tracks.red1, 0.8);
  const mid = ballAt(tracks.red1, 0.8 + DROP_DURATION / 2, table.pockets);
  assert.equal(mid.pocket, "foot_right");
  close(mid.drop, 0.5, 1e-9);
  // Moves from the drop point toward the foot_right pocket (x grows, y shrinks).
  assert.ok(mid.x > atDrop[0] && mid.y < atDrop[1]);
  const gone = ballAt(tracks.red1, 5, table.pockets);
  assert.equal(gone.drop, 1);
  assert.equal(gone.moving, false);
});

test("positionsAt gives every ball of the shot, still balls unchanged", () => {
  const tracks = parseSegments(shot);
  const all = positionsAt(tracks, 0.1, table.pockets);
  assert.deepEqual(Object.keys(all).sort(), ["kaisa", "red1", "white1"]);
  close(all.kaisa.x, 1.42);
  close(all.red1.x, 2.0); // the red starts at t = 0.3
});

test("a malformed segment is rejected at parse time, not in the frame loop", () => {
  assert.throws(() => parseSegments({ white1: [[0, 1, 2, 3]] }));
  assert.throws(() => parseSegments({ white1: [[0, 1, 2, 3, 4, NaN, 0]] }));
});

test("distance travelled integrates the speed", () => {
  const tracks = parseSegments({ white1: [[0, 0, 0, 2, 0, -1, 0]] });
  close(distanceAt(tracks.white1, 1), 2 - 0.5, 1e-6);
  close(distanceAt(tracks.white1, 10), 2, 1e-6); // stops at t = 2 after 2 m
});
