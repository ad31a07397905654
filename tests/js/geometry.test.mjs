import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  aimGuide,
  ballAtPoint,
  pocketAlong,
  pocketAtPoint,
  wrapAngle,
} from "../../static/game/js/geometry.js";

const table = JSON.parse(readFileSync(new URL("./fixtures/table.json", import.meta.url)));
const R = table.ball_radius;
const close = (a, b, eps = 1e-9) => assert.ok(Math.abs(a - b) <= eps, `${a} != ${b}`);

test("straight-on aim: the ghost ball sits 2R before the object ball", () => {
  const balls = { white1: [0.5, 0.71], red1: [1.5, 0.71] };
  const g = aimGuide(table, balls, "white1", 0);
  assert.equal(g.hit.ball, "red1");
  close(g.hit.ghost[0], 1.5 - 2 * R);
  close(g.hit.ghost[1], 0.71);
  close(g.hit.objectDir[0], 1);
  close(g.hit.fullness, 1);
});

test("a cut: the object ball leaves along the line of centres, the cue ball along the tangent", () => {
  const balls = { white1: [0.5, 0.71], red1: [1.5, 0.71 + R] }; // half-ball hit
  const g = aimGuide(table, balls, "white1", 0);
  assert.equal(g.hit.ball, "red1");
  const [ox, oy] = g.hit.objectDir;
  const [cx, cy] = g.hit.cueDir;
  close(ox * cx + oy * cy, 0, 1e-9); // perpendicular
  assert.ok(oy > 0, "object ball goes to +y");
  assert.ok(cy < 0, "cue ball deflects to the other side");
  // The ghost ball touches the object ball.
  close(Math.hypot(g.hit.ghost[0] - 1.5, g.hit.ghost[1] - (0.71 + R)), 2 * R, 1e-9);
});

test("the nearest ball along the line is the one hit; a ball barely off the line is missed", () => {
  const balls = { white1: [0.5, 0.71], red1: [2.0, 0.71], kaisa: [1.2, 0.71 + 2 * R - 0.001], red2: [1.0, 0.71 + 2 * R + 0.001] };
  const g = aimGuide(table, balls, "white1", 0);
  assert.equal(g.hit.ball, "kaisa");
});

test("no ball on the line: the guide ends at the cushion, a ball radius inside the nose", () => {
  const balls = { white1: [0.5, 0.3], red1: [1.5, 1.2] };
  const g = aimGuide(table, balls, "white1", 0);
  assert.equal(g.hit, null);
  assert.equal(g.cushion.id, "foot");
  close(g.cushion.point[0], table.length - R);
  const up = aimGuide(table, balls, "white1", Math.PI / 2);
  assert.equal(up.cushion.id, "left_home");
  close(up.cushion.point[1], table.width - R);
});

test("balls off the table (null) are ignored by the aim", () => {
  const g = aimGuide(table, { white1: [0.5, 0.71], red1: null }, "white1", 0);
  assert.equal(g.hit, null);
  assert.equal(aimGuide(table, { white1: null }, "white1", 0), null);
});

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
