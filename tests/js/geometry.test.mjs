import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  ballAtPoint,
  pocketAlong,
  pocketAtPoint,
  wrapAngle,
} from "../../static/game/js/geometry.js";

const table = JSON.parse(readFileSync(new URL("./fixtures/table.json", import.meta.url)));
const R = table.ball_radius;
const close = (a, b, eps = 1e-9) => assert.ok(Math.abs(a - b) <= eps, `${a} != ${b}`);

test("pocketAlong finds the pocket the object line points into, unless blocked", () => {
  const from = [2.5, 0.35];
  const mouth = table.pockets.foot_right.mouth;
  const m = [(mouth[0][0] + mouth[1][0]) / 2, (mouth[0][1] + mouth[1][1]) / 2];
  const d = Math.hypot(m[0] - from[0], m[1] - from[1]);
  const dir = [(m[0] - from[0]) / d, (m[1] - from[1]) / d];
  assert.equal(pocketAlong(table, from, dir).pocket, "foot_right");
  const mid = [(from[0] + m[0]) / 2, (from[1] + m[1]) / 2];
  assert.equal(pocketAlong(table, from, dir, { kaisa: mid }), null);
  assert.equal(pocketAlong(table, from, [0, 1]), null, "straight at the long cushion: no pocket");
});

test("picking: a click on a ball or near a pocket mouth", () => {
  const balls = { red1: [1, 1], kaisa: [1.42, 0.71] };
  assert.equal(ballAtPoint(table, balls, [1.02, 1.0]), "red1");
  assert.equal(ballAtPoint(table, balls, [1.2, 1.0]), null);
  assert.equal(pocketAtPoint(table, [2.8, 1.4]), "foot_left");
  assert.equal(pocketAtPoint(table, [1.42, 0.03]), "middle_right");
  assert.equal(pocketAtPoint(table, [1.0, 0.7]), null);
});

test("wrapAngle keeps angles in (-π, π]", () => {
  close(wrapAngle(3 * Math.PI), Math.PI);
  close(wrapAngle(-Math.PI / 2 - 2 * Math.PI), -Math.PI / 2);
});
