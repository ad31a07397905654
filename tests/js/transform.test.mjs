import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { RAIL, canvasMatrix, fitTable, screenVectorToAngle, toScreen, toWorld } from "../../static/game/js/transform.js";

const table = JSON.parse(readFileSync(new URL("./fixtures/table.json", import.meta.url)));
const close = (a, b, eps = 1e-9) => assert.ok(Math.abs(a - b) <= eps, `${a} != ${b}`);

test("landscape: home end on the left, +y up, the rails fit the box", () => {
  const tf = fitTable(table, 1200, 700, 1);
  assert.equal(tf.portrait, false);
  const [hx] = toScreen(tf, 0, table.width / 2);
  const [fx] = toScreen(tf, table.length, table.width / 2);
  assert.ok(hx < fx);
  const [, yLow] = toScreen(tf, 1, 0);
  const [, yHigh] = toScreen(tf, 1, table.width);
  assert.ok(yHigh < yLow, "+y goes up the screen");
  const [left, top] = toScreen(tf, -RAIL, table.width + RAIL);
  const [right, bottom] = toScreen(tf, table.length + RAIL, -RAIL);
  assert.ok(left >= -1e-9 && top >= -1e-9 && right <= 1200 + 1e-9 && bottom <= 700 + 1e-9);
  // It fills one dimension exactly.
  assert.ok(Math.abs(right - left - 1200) < 1e-6 || Math.abs(bottom - top - 700) < 1e-6);
});

test("portrait: the home end at the bottom, the foot at the top", () => {
  const tf = fitTable(table, 390, 800, 3);
  assert.equal(tf.portrait, true);
  const [, homeY] = toScreen(tf, 0, table.width / 2);
  const [, footY] = toScreen(tf, table.length, table.width / 2);
  assert.ok(homeY > footY);
  // Standing at the home end looking to the foot, the right pockets (y = 0) are on the right.
  const [rightX] = toScreen(tf, 1, 0);
  const [leftX] = toScreen(tf, 1, table.width);
  assert.ok(rightX > leftX);
});

test("a phone in landscape fits the whole table with its rails", () => {
  const tf = fitTable(table, 844, 390, 3);
  assert.equal(tf.portrait, false);
  const corners = [
    [-RAIL, -RAIL],
    [table.length + RAIL, table.width + RAIL],
  ].map(([x, y]) => toScreen(tf, x, y));
  for (const [x, y] of corners) assert.ok(x >= -1e-6 && x <= 844 + 1e-6 && y >= -1e-6 && y <= 390 + 1e-6);
});

test("round trip metres -> pixels -> metres in both orientations", () => {
  for (const [w, h] of [
    [1000, 600],
    [400, 900],
  ]) {
    const tf = fitTable(table, w, h, 2);
    for (const [x, y] of [
      [0, 0],
      [1.234, 0.567],
      [table.length, table.width],
    ]) {
      const [px, py] = toScreen(tf, x, y);
      const [bx, by] = toWorld(tf, px, py);
      close(bx, x, 1e-9);
      close(by, y, 1e-9);
    }
  }
});

test("devicePixelRatio scales the backing store and the canvas matrix, not CSS positions", () => {
  const one = fitTable(table, 800, 450, 1);
  const three = fitTable(table, 800, 450, 3);
  assert.equal(three.pixelWidth, 2400);
  assert.equal(three.pixelHeight, 1350);
  assert.deepEqual(toScreen(one, 1, 1), toScreen(three, 1, 1));
  const m1 = canvasMatrix(one);
  const m3 = canvasMatrix(three);
  m1.forEach((v, i) => close(m3[i], 3 * v, 1e-9));
});

test("a screen drag direction becomes the matching world angle", () => {
  const land = fitTable(table, 1000, 600, 1);
  close(screenVectorToAngle(land, 1, 0), 0); // right = +x
  close(screenVectorToAngle(land, 0, -1), Math.PI / 2); // up = +y
  const port = fitTable(table, 400, 900, 1);
  close(screenVectorToAngle(port, 0, -1), 0); // up = +x (toward the foot)
  close(screenVectorToAngle(port, -1, 0), Math.PI / 2); // left = +y
});
