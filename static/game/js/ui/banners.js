// @ts-check
/**
 * Where the words laid over the table go (the verdict, a phase's notice such as "The break", the power
 * while the cue is pulled back): on a spot that covers no ball and not the called pocket. On a phone
 * the table fills the stage, so a fixed place over it (the top centre) sat on the kaisa at the foot,
 * on the red a player could call, or on the pocket just called.
 *
 * The geometry is pure (state, table and transform in, boxes in the stage's CSS pixels out) and tested
 * without a DOM; `createBanners` only measures the elements and moves them, and only when something
 * that decides their place changed (the balls at rest, the call, the stage, a banner shown or its words).
 */

import { restingBalls } from "../state.js";
import { toScreen } from "../transform.js";

/** CSS pixels kept between a banner and a ball, the called pocket, the stage's edge or another banner. */
export const GAP = 4;
/** Candidate tops are tried every this many CSS pixels. */
const STEP = 6;

/**
 * The circles a banner must not cover, in the stage's CSS pixels: every ball the page draws at rest,
 * and the called pocket (its hole and the ring drawn at its mouth); the other pockets are `soft`,
 * kept clear when a spot allows it (a player looks at the pockets while choosing a call).
 * @returns {{x: number, y: number, r: number, soft: boolean}[]}
 */
export function keepClear(state, table, tf) {
  const circles = [];
  const r = table.ball_radius * tf.scale;
  for (const pos of Object.values(restingBalls(state))) {
    if (!pos) continue;
    const [x, y] = toScreen(tf, pos[0], pos[1]);
    circles.push({ x, y, r, soft: false });
  }
  const called = state.call && state.call.pocket;
  for (const [id, pocket] of Object.entries(table.pockets || {})) {
    const soft = id !== called;
    const [hx, hy] = toScreen(tf, pocket.center[0], pocket.center[1]);
    circles.push({ x: hx, y: hy, r: (pocket.mouth_width || 2 * table.ball_radius) * 0.75 * tf.scale, soft });
    const [mx, my] = toScreen(tf, pocket.mouth_center[0], pocket.mouth_center[1]);
    circles.push({ x: mx, y: my, r: r * 1.4, soft });
  }
  return circles;
}

/** How much of `box` the circle covers, roughly: 0 when they do not touch (with `gap` around it). */
function touches(box, c, gap) {
  const nx = Math.max(box.left, Math.min(c.x, box.left + box.width));
  const ny = Math.max(box.top, Math.min(c.y, box.top + box.height));
  return Math.hypot(c.x - nx, c.y - ny) < c.r + gap;
}

function overlapArea(a, b) {
  const w = Math.min(a.left + a.width, b.left + b.width) - Math.max(a.left, b.left);
  const h = Math.min(a.top + a.height, b.top + b.height) - Math.max(a.top, b.top);
  return w > 0 && h > 0 ? w * h : 0;
}

/**
 * The place for a banner of `size` inside `area` (both CSS pixels): the free spot nearest `prefer`
 * (its left and top), free meaning it covers none of `circles` (a `soft` one only when nothing else is
 * free) and none of the `taken` boxes. Tried
 * along the area's width (centred, then at each side and between) at every height; when no spot is
 * free (a crowded table and a long text), the one covering the fewest circles.
 * @param {{width: number, height: number}} size
 * @param {{left: number, top: number, width: number, height: number}} area
 * @param {{x: number, y: number, r: number, soft?: boolean}[]} circles
 * @param {{left: number, top: number, width: number, height: number}[]} taken
 * @param {{left: number, top: number}} prefer
 * @returns {{left: number, top: number, width: number, height: number, free: boolean}}
 */
export function placeBanner(size, area, circles, taken, prefer) {
  const width = Math.min(size.width, area.width - 2 * GAP);
  const height = size.height;
  const minLeft = area.left + GAP;
  const maxLeft = area.left + area.width - GAP - width;
  const minTop = area.top + GAP;
  const maxTop = Math.max(minTop, area.top + area.height - GAP - height);
  const lefts = new Set([Math.min(maxLeft, Math.max(minLeft, prefer.left))]);
  for (let k = 0; k <= 4; k++) lefts.add(minLeft + ((maxLeft - minLeft) * k) / 4);
  let best = null;
  for (let top = minTop; top <= maxTop + 0.5; top += STEP) {
    for (const left of lefts) {
      const box = { left, top: Math.min(top, maxTop), width, height };
      const hit = circles.filter((c) => touches(box, c, GAP));
      const covered = hit.filter((c) => !c.soft).length;
      const crowded = taken.some((t) => overlapArea(box, { ...t, left: t.left - GAP, top: t.top - GAP, width: t.width + 2 * GAP, height: t.height + 2 * GAP }) > 0);
      const near = Math.hypot(box.left - prefer.left, box.top - prefer.top) / 1000;
      const cost = (crowded ? 1000 : 0) + covered * 100 + (hit.length - covered) * 10 + near;
      if (!best || cost < best.cost) best = { ...box, cost, free: !crowded && covered === 0 };
    }
  }
  const { cost, ...place } = best || { left: minLeft, top: minTop, width, height, free: false, cost: 0 };
  return place;
}

/**
 * Keeps the banners of `stage` clear of the balls: `items` are the elements in the order they are
 * placed (the first gets the better spot), each with where it would rather be as a function of the
 * stage's size. The elements are positioned absolutely by their `left` and `top`.
 * @param {HTMLElement} stage
 * @param {{el: HTMLElement, visible: () => boolean, words: () => string,
 *   prefer: (area: object, size: object) => {left: number, top: number}}[]} items
 *   `visible`: is it shown; `words`: what decides its size (the pull meter's changing power is left out,
 *   so that it does not move while the cue is pulled).
 */
export function createBanners(stage, items) {
  let lastKey = "";

  /** Called every frame; measures and moves only when something that decides the places changed. */
  function update(state, table, tf) {
    // The phone's sheet open puts the stage out of the layout: nothing to measure until it closes.
    const sheet = stage.closest("[data-sheet]");
    if (!tf || (sheet && sheet.getAttribute("data-sheet") === "open")) return;
    const shown = items.filter((item) => item.visible());
    const key = JSON.stringify([
      shown.map((item) => item.words()),
      restingBalls(state),
      state.call && state.call.pocket,
      tf.cssWidth,
      tf.cssHeight,
    ]);
    if (key === lastKey) return;
    lastKey = key;
    const area = { left: 0, top: 0, width: tf.cssWidth, height: tf.cssHeight };
    const circles = keepClear(state, table, tf);
    const taken = [];
    for (const item of shown) {
      // Measured at the stage's top left, where its width is not squeezed by a place taken earlier.
      item.el.style.transform = "none";
      item.el.style.right = "auto";
      item.el.style.left = "0px";
      item.el.style.top = "0px";
      const size = { width: item.el.offsetWidth, height: item.el.offsetHeight };
      const place = placeBanner(size, area, circles, taken, item.prefer(area, size));
      item.el.style.left = `${Math.round(place.left)}px`;
      item.el.style.top = `${Math.round(place.top)}px`;
      item.el.dataset.clear = place.free ? "yes" : "no";
      taken.push(place);
    }
  }

  return { update };
}
