// Where the words over the table go (static/game/js/ui/banners.js): clear of every ball and of the
// called pocket, as near the top centre as that allows. Whether the page does it: test_phone_layouts.py.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { GAP, keepClear, placeBanner } from "../../static/game/js/ui/banners.js";
import { createState } from "../../static/game/js/state.js";
import { fitTable, toScreen } from "../../static/game/js/transform.js";

const table = JSON.parse(readFileSync(new URL("./fixtures/table.json", import.meta.url)));
const area = { left: 0, top: 0, width: 390, height: 560 };
const topCentre = (size) => ({ left: (area.width - size.width) / 2, top: 0 });

function clearOf(box, circles) {
  return circles.every((c) => {
    const nx = Math.max(box.left, Math.min(c.x, box.left + box.width));
    const ny = Math.max(box.top, Math.min(c.y, box.top + box.height));
    return Math.hypot(c.x - nx, c.y - ny) >= c.r + GAP;
  });
}

test("a free top centre is kept", () => {
  const size = { width: 200, height: 30 };
  const place = placeBanner(size, area, [{ x: 195, y: 300, r: 10 }], [], topCentre(size));
  assert.deepEqual([place.left, place.top, place.free], [95, GAP, true]);
});

test("a ball under the top centre moves the banner to the nearest free spot, inside the stage", () => {
  const size = { width: 200, height: 30 };
  const circles = [{ x: 195, y: 20, r: 10 }, { x: 60, y: 60, r: 10 }, { x: 330, y: 60, r: 10 }];
  const place = placeBanner(size, area, circles, [], topCentre(size));
  assert.ok(place.free && clearOf(place, circles), JSON.stringify(place));
  assert.ok(place.left >= GAP && place.left + place.width <= area.width - GAP && place.top >= GAP);
  assert.ok(place.top < 120, "near the top: " + place.top);
});

test("a second banner keeps clear of the first", () => {
  const size = { width: 300, height: 40 };
  const first = placeBanner(size, area, [], [], topCentre(size));
  const second = placeBanner(size, area, [], [first], topCentre(size));
  assert.ok(second.free && second.top >= first.top + first.height + GAP, JSON.stringify([first, second]));
});

test("an uncalled pocket is kept clear when a spot allows it, a ball always", () => {
  const size = { width: 200, height: 30 };
  const pocket = { x: 195, y: 10, r: 12, soft: true };
  const place = placeBanner(size, area, [pocket], [], topCentre(size));
  assert.ok(place.free && clearOf(place, [pocket]), JSON.stringify(place));
  const wall = [0, 1, 2, 3, 4, 5, 6].map((k) => ({ x: 30 + 55 * k, y: 15, r: 20, soft: k !== 0 }));
  const squeezed = placeBanner(size, { ...area, height: 40 }, wall, [], topCentre(size));
  assert.ok(clearOf(squeezed, wall.filter((c) => !c.soft)), JSON.stringify(squeezed));
});

test("no free spot: the one covering the fewest circles, still inside the stage", () => {
  const size = { width: 380, height: 540 };
  const place = placeBanner(size, area, [{ x: 100, y: 100, r: 10 }], [], topCentre(size));
  assert.equal(place.free, false);
  assert.ok(place.left >= 0 && place.top >= 0);
});

test("keepClear: every ball at rest and the called pocket, where the page draws them", () => {
  const tf = fitTable(table, 390, 600, 1, "portrait", 6);
  let state = createState({ table });
  const balls = { kaisa: [table.length / 2, table.width / 2], red1: [3.0, 0.9], white1: null };
  state = { ...state, shown: { phase: "play", balls, players: [] }, call: { ...state.call, pocket: "foot_left" } };
  const circles = keepClear(state, table, tf);
  // two balls, each pocket's hole and the ring at its mouth: only the called pocket's are hard
  assert.equal(circles.length, 2 + 2 * Object.keys(table.pockets).length);
  assert.equal(circles.filter((c) => !c.soft).length, 4);
  const [kx, ky] = toScreen(tf, ...balls.kaisa);
  assert.ok(circles.some((c) => Math.abs(c.x - kx) < 1e-9 && Math.abs(c.y - ky) < 1e-9 && c.r === table.ball_radius * tf.scale));
  const [px, py] = toScreen(tf, ...table.pockets.foot_left.center);
  assert.ok(circles.some((c) => Math.hypot(c.x - px, c.y - py) < 1e-9));
});
