// The aim line the pages draw (static/game/js/aim.js aimLine): its shape. Whether it is the engine's is
// tests/engine/test_aim_preview.py's (node against game/engine/physics/aim.py and simulate()).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { aimLine } from "../../static/game/js/aim.js";
import { aimWords } from "../../static/game/js/render/renderer.js";
import { trimStart } from "../../static/game/js/render/cue.js";

const table = JSON.parse(readFileSync(new URL("./fixtures/table.json", import.meta.url)));
const R = table.ball_radius;
const aim = (angle, extra = {}) => ({ angle, speed: 2.5, side: 0, height: 0, ...extra });
const close = (a, b, eps) => assert.ok(Math.abs(a - b) <= eps, `${a} != ${b}`);

test("straight into a corner: the ghost ball touches the object ball, the gold line runs into the pocket", () => {
  const [mx, my] = table.pockets.foot_left.mouth_center;
  const u = [Math.SQRT1_2, Math.SQRT1_2];
  const red = [mx - 0.4 * u[0], my - 0.4 * u[1]];
  const white = [red[0] - 0.6 * u[0], red[1] - 0.6 * u[1]];
  const line = aimLine(table, { white1: white, red1: red, kaisa: null }, "white1", aim(Math.PI / 4));
  assert.equal(line.hit.ball, "red1");
  close(Math.hypot(line.end[0] - red[0], line.end[1] - red[1]), 2 * R, 1e-5);
  assert.equal(line.hit.pocket, "foot_left");
  assert.equal(aimWords(line), "red1 pocket foot_left");
  close(Math.abs(line.hit.throw), 0, 1e-9);
  // Rolling by the time it gets there, the cue ball follows the red.
  const [fx, fy] = line.hit.cueAfter.at(-1);
  assert.ok((fx - line.end[0]) * u[0] + (fy - line.end[1]) * u[1] > 0.05);
});

test("a cut with side: throw and squirt turn the object ball off the line of centres", () => {
  const balls = { white1: [0.8, 0.5], red2: [1.6, 0.5 + R] };
  const plain = aimLine(table, balls, "white1", aim(0));
  const english = aimLine(table, balls, "white1", aim(0, { side: 0.4 }));
  const centres = (line) => Math.atan2(balls.red2[1] - line.end[1], balls.red2[0] - line.end[0]);
  const heading = (line) => Math.atan2(line.hit.objectDir[1], line.hit.objectDir[0]);
  close(heading(plain) - centres(plain), plain.hit.throw, 1e-12);
  assert.ok(Math.abs(plain.hit.throw) > 0.005 && Math.abs(plain.hit.throw) < 0.08, `cut throw ${plain.hit.throw}`);
  assert.ok(Math.abs(heading(english) - heading(plain)) > 0.002, "side changes where the object ball goes");
  assert.ok(english.end[1] !== plain.end[1], "squirt moves the contact");
});

test("no ball on the line: it ends on the cushion; the cue ball's path starts at its edge", () => {
  const line = aimLine(table, { white1: [0.5, 0.3], red1: [1.5, 1.2] }, "white1", aim(0));
  assert.equal(line.hit, null);
  assert.equal(aimWords(line), " cushion foot");
  close(line.end[0], table.length - R, 1e-6);
  const from = trimStart(line.cuePath, R)[0];
  close(from[0], 0.5 + R, 1e-9);
  assert.equal(aimLine(table, { white1: null }, "white1", aim(0)), null);
  assert.equal(aimLine({ ...table, physics: undefined }, { white1: [0.5, 0.3] }, "white1", aim(0)), null);
});

test("the ball in hand follows the pointer as a ghost, and the aim line starts from it", async () => {
  const { hoverGhost } = await import("../../static/game/js/intents.js");
  const { inHand } = await import("../../static/game/js/render/renderer.js");
  const fixtures = JSON.parse(readFileSync(new URL("./fixtures/constraints.json", import.meta.url)));
  const { player, balls, constraints } = fixtures.break_in_hand;
  const state = {
    role: "player", me: player, steps: [], ui: {}, placing: null,
    shown: { phase: "play", balls, pending: [[player, "place"]], constraints: { [player]: constraints } },
  };
  const home = hoverGhost(state, [0.4, 0.5]);
  assert.deepEqual(home.ui.ghost, { pos: [0.4, 0.5], ok: true });
  assert.equal(hoverGhost(home, [0.4, 0.5]), home, "the same spot: the same state, nothing to redraw");
  assert.equal(hoverGhost(home, [1.5, 0.5]).ui.ghost.ok, false, "beyond the home line: red");
  assert.equal(hoverGhost(home, null).ui.ghost, null, "the pointer left the table");
  const hand = inHand(home, ["place"], constraints, balls);
  assert.deepEqual(hand, { ball: constraints.placement.ball, pos: [0.4, 0.5], ok: true });
  const line = aimLine(table, { ...balls, [hand.ball]: hand.pos }, hand.ball, aim(0));
  assert.deepEqual(line.cuePath[0], [0.4, 0.5]);
});
