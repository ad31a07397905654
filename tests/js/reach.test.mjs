import { test } from "node:test";
import assert from "node:assert/strict";
import {
  grabSlop,
  nearestBall,
  pickRadius,
  PLACE_STEP,
  PLACE_STEP_SHIFT,
  placementStart,
  placementStep,
  stepPoint,
  TAP_TARGET_PX,
} from "../../static/game/js/input/reach.js";
import { loupeSpot, LOUPE_PX } from "../../static/game/js/render/loupe.js";
import { fitTable } from "../../static/game/js/transform.js";

const R = 0.034;
const TABLE = { length: 2.84, width: 1.42 };

test("the pick radius is half a tap target, never smaller than the ball and a centimetre", () => {
  // A phone in portrait draws about 170 px a metre: 22 px is 13 cm.
  assert.ok(Math.abs(pickRadius(170, R) - TAP_TARGET_PX / 2 / 170) < 1e-12);
  assert.ok(pickRadius(170, R) * 170 >= 22 - 1e-9);
  // A huge desktop table: the ball itself and a centimetre still count.
  assert.equal(pickRadius(2000, R), R + 0.01);
  assert.ok(grabSlop(170, R) > 0.02 && Math.abs(grabSlop(170, R) + R - pickRadius(170, R)) < 1e-12);
  assert.equal(grabSlop(5000, R), 0.02);
});

test("the nearest ball within the radius is picked, ties by id, skipped and pocketed balls never", () => {
  const balls = { red1: [1, 1], kaisa: [1.1, 1], white1: [1.05, 1], white2: null };
  assert.equal(nearestBall(balls, [1.02, 1], 0.1), "red1");
  assert.equal(nearestBall(balls, [1.09, 1.05], 0.1), "kaisa");
  assert.equal(nearestBall(balls, [1.5, 1], 0.1), null);
  assert.equal(nearestBall(balls, [1.05, 1], 0.1, "white1"), "kaisa"); // equal distance: "kaisa" < "red1"
  assert.equal(nearestBall({ b: [0, 0], a: [0.2, 0] }, [0.1, 0], 0.2), "a");
});

test("arrow keys step 1 mm (Shift 10 mm) in the direction they point on the screen", () => {
  const land = fitTable(TABLE, 1200, 700, 1, "landscape");
  const port = fitTable(TABLE, 390, 700, 1, "portrait");
  const close = (a, b) => a.every((v, i) => Math.abs(v - b[i]) < 1e-12);
  // Landscape: home on the left, +x right, +y up.
  assert.ok(close(placementStep("ArrowRight", false, land), [PLACE_STEP, 0]));
  assert.ok(close(placementStep("ArrowUp", true, land), [0, PLACE_STEP_SHIFT]));
  // Portrait: home at the bottom, +x up, +y to the left.
  assert.ok(close(placementStep("ArrowUp", false, port), [PLACE_STEP, 0]));
  assert.ok(close(placementStep("ArrowLeft", false, port), [0, PLACE_STEP]));
  assert.ok(close(placementStep("ArrowDown", true, port), [-PLACE_STEP_SHIFT, 0]));
  assert.equal(placementStep("Enter", false, land), null);
  // Steps do not drift: a hundred 1 mm steps are 10 cm.
  let p = [0.3, 0.5];
  for (let i = 0; i < 100; i += 1) p = stepPoint(p, placementStep("ArrowRight", false, land));
  assert.deepEqual(p, [0.4, 0.5]);
});

test("a keyboard placement starts in the middle of the server's region, or where the ball is", () => {
  const home = { region: { cloth: [R, 2.806, R, 1.386], kind: "home", x_max: 0.71 } };
  assert.deepEqual(placementStart(home, null), [(R + 0.71) / 2, 0.71]);
  const opening = { region: { cloth: [R, 2.806, R, 1.386], kind: "opening", x_min: 1.42 } };
  assert.deepEqual(placementStart(opening, null), [(1.42 + 2.806) / 2, 0.71]);
  assert.deepEqual(placementStart(home, [0.2, 0.3]), [0.2, 0.3]);
  assert.equal(placementStart(null, null), null);
});

test("the loupe sits above the finger, below it near the top, inside the stage", () => {
  assert.deepEqual(loupeSpot(200, 400, 390), [200 - LOUPE_PX / 2, 400 - 40 - LOUPE_PX]);
  assert.deepEqual(loupeSpot(200, 60, 390), [200 - LOUPE_PX / 2, 100]);
  assert.deepEqual(loupeSpot(5, 400, 390)[0], 0);
  assert.deepEqual(loupeSpot(388, 400, 390)[0], 390 - LOUPE_PX);
});

test("B and P step through the calls the server allows, Shift backwards, wrapping", async () => {
  const { cycleChoice, keyIntent } = await import("../../static/game/js/input/keyboard.js");
  assert.deepEqual(keyIntent("b", false), { type: "call-cycle", field: "ball", dir: 1 });
  assert.deepEqual(keyIntent("P", true), { type: "call-cycle", field: "pocket", dir: -1 });
  const pockets = ["foot_left", "foot_right"];
  assert.equal(cycleChoice(pockets, null, 1), "foot_left");
  assert.equal(cycleChoice(pockets, null, -1), "foot_right");
  assert.equal(cycleChoice(pockets, "foot_left", 1), "foot_right");
  assert.equal(cycleChoice(pockets, "foot_right", 1), "foot_left");
  assert.equal(cycleChoice(pockets, "foot_left", -1), "foot_right");
  assert.equal(cycleChoice([], "x", 1), null);
});
