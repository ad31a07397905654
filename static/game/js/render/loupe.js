// @ts-check
/**
 * The loupe: while a ball is being placed on a touch screen or a portrait table, a round
 * magnified view of the spot is drawn beside it, so the finger does not hide where the ball goes and
 * whether it is legal (the red or green ring is the renderer's, from the server's region).
 */

import { toScreen } from "../transform.js";

/** Loupe diameter (CSS px) and magnification. */
export const LOUPE_PX = 120;
export const LOUPE_ZOOM = 2.5;

/**
 * Where the loupe goes (its top-left, CSS px) for a ball at screen point (px, py): above the finger,
 * or below it near the top edge, kept inside the stage.
 */
export function loupeSpot(px, py, width, size = LOUPE_PX) {
  const gap = 40;
  const top = py - gap - size >= 0 ? py - gap - size : py + gap;
  const left = Math.min(Math.max(0, px - size / 2), Math.max(0, width - size));
  return [left, top];
}

/**
 * @param {HTMLElement} stage
 * @param {HTMLCanvasElement} source the table canvas
 */
export function createLoupe(stage, source) {
  const el = document.createElement("canvas");
  el.className = "kz-loupe";
  el.setAttribute("aria-hidden", "true");
  el.hidden = true;
  stage.appendChild(el);
  const coarse = window.matchMedia ? window.matchMedia("(pointer: coarse)") : { matches: false };

  function draw(placing, tf) {
    const show = Boolean(placing && placing.pos && tf && (coarse.matches || tf.portrait));
    if (el.hidden === show) el.hidden = !show;
    if (!show) return;
    const dpr = tf.dpr || 1;
    const px = Math.round(LOUPE_PX * dpr);
    if (el.width !== px) {
      el.width = px;
      el.height = px;
      el.style.width = `${LOUPE_PX}px`;
      el.style.height = `${LOUPE_PX}px`;
    }
    const [sx, sy] = toScreen(tf, placing.pos[0], placing.pos[1]);
    const [left, top] = loupeSpot(sx, sy, tf.cssWidth);
    el.style.left = `${left}px`;
    el.style.top = `${top}px`;
    const span = LOUPE_PX / LOUPE_ZOOM; // CSS px of the table shown
    const ctx = el.getContext("2d");
    ctx.clearRect(0, 0, px, px);
    ctx.save();
    ctx.beginPath();
    ctx.arc(px / 2, px / 2, px / 2, 0, 2 * Math.PI);
    ctx.clip();
    ctx.drawImage(source, (sx - span / 2) * dpr, (sy - span / 2) * dpr, span * dpr, span * dpr, 0, 0, px, px);
    ctx.restore();
  }

  return { draw, element: el };
}
