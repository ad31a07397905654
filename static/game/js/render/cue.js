// @ts-check
/**
 * The cue behind the cue ball and the aim line (the cue ball's path to the ghost ball, the object ball's
 * path and the cue ball's after the contact, from aim.js). Drawn in metres through the table's canvas
 * matrix.
 */

import { CUE_LENGTH, TIP_GAP } from "../input/gestures.js";

const TIP_RADIUS = 0.0075;
const BUTT_RADIUS = 0.0185;

/**
 * @param {CanvasRenderingContext2D} ctx in world (metre) coordinates
 * @param {[number, number]} ball cue ball centre
 * @param {number} angle aim direction
 * @param {number} R ball radius
 * @param {number} pull how far the cue is drawn back (m)
 * @param {number} alpha 1 for my cue, less for an opponent's
 */
export function drawCue(ctx, ball, angle, R, pull = 0, alpha = 1, px = 0.002) {
  const dx = Math.cos(angle);
  const dy = Math.sin(angle);
  const nx = -dy;
  const ny = dx;
  const gap = R + TIP_GAP + pull;
  const tipX = ball[0] - dx * gap;
  const tipY = ball[1] - dy * gap;
  const at = (/** @type {number} */ d, /** @type {number} */ w) => /** @type {[number, number]} */ ([tipX - dx * d + nx * w, tipY - dy * d + ny * w]);
  const width = (d) => TIP_RADIUS + ((BUTT_RADIUS - TIP_RADIUS) * d) / CUE_LENGTH;
  const band = (d0, d1, fill) => {
    const a = at(d0, width(d0));
    const b = at(d1, width(d1));
    const c = at(d1, -width(d1));
    const e = at(d0, -width(d0));
    ctx.beginPath();
    ctx.moveTo(a[0], a[1]);
    ctx.lineTo(b[0], b[1]);
    ctx.lineTo(c[0], c[1]);
    ctx.lineTo(e[0], e[1]);
    ctx.closePath();
    ctx.fillStyle = fill;
    ctx.fill();
  };
  ctx.save();
  ctx.globalAlpha = alpha;
  // Shadow on the cloth, offset away from the light.
  ctx.save();
  ctx.translate(0.012, -0.016);
  ctx.globalAlpha = alpha * 0.28;
  band(0, CUE_LENGTH, "#000");
  ctx.restore();
  ctx.globalAlpha = alpha;
  const shaftGrad = ctx.createLinearGradient(...at(0, width(0)), ...at(0, -width(0)));
  shaftGrad.addColorStop(0, "#f3dfb5");
  shaftGrad.addColorStop(0.5, "#e2c18b");
  shaftGrad.addColorStop(1, "#b48a55");
  band(0.022, 0.8, shaftGrad);
  const buttGrad = ctx.createLinearGradient(...at(0.9, width(0.9)), ...at(0.9, -width(0.9)));
  buttGrad.addColorStop(0, "#5a2c14");
  buttGrad.addColorStop(0.5, "#2c1208");
  buttGrad.addColorStop(1, "#150702");
  band(0.8, 0.83, "#d9d2c3");
  band(0.83, CUE_LENGTH - 0.03, buttGrad);
  band(1.0, 1.02, "#b8934a");
  band(CUE_LENGTH - 0.03, CUE_LENGTH, "#111");
  band(0.008, 0.022, "#f4f2ea");
  band(0, 0.008, "#3d6fb6");
  // A thin highlight along the shaft.
  ctx.beginPath();
  const h0 = at(0.03, width(0.03) * 0.35);
  const h1 = at(CUE_LENGTH - 0.05, width(CUE_LENGTH) * 0.35);
  ctx.moveTo(h0[0], h0[1]);
  ctx.lineTo(h1[0], h1[1]);
  ctx.strokeStyle = "rgba(255,255,255,0.35)";
  ctx.lineWidth = px;
  ctx.stroke();
  ctx.restore();
}

/** The points of `path` from `skip` metres along it (the line starts at a ball's edge, not its centre). */
export function trimStart(path, skip) {
  let left = skip;
  for (let k = 1; k < path.length; k++) {
    const [ax, ay] = path[k - 1];
    const [bx, by] = path[k];
    const d = Math.hypot(bx - ax, by - ay);
    if (d > left) {
      const u = left / d;
      return [[ax + (bx - ax) * u, ay + (by - ay) * u], ...path.slice(k)];
    }
    left -= d;
  }
  return [];
}

function stroke(ctx, points) {
  if (points.length < 2) return;
  ctx.beginPath();
  ctx.moveTo(points[0][0], points[0][1]);
  for (let k = 1; k < points.length; k++) ctx.lineTo(points[k][0], points[k][1]);
  ctx.stroke();
}

function outline(ctx, centre, R) {
  ctx.beginPath();
  ctx.arc(centre[0], centre[1], R, 0, Math.PI * 2);
}

/** Colours of the object ball's line: into the pocket, or a miss. */
export const POT_COLOUR = "rgba(255,214,90,0.95)";
export const MISS_COLOUR = "rgba(255,120,95,0.95)";

/**
 * The aim line from `aimLine()` (aim.js), as the engine plays the strike: the cue ball's path to the ghost
 * ball; the object ball's path, gold into the pocket, or red to where it meets the jaw or the cushion,
 * the ball drawn there and a cross on the contact; the cue ball's path after the contact, faint.
 */
export function drawGuide(ctx, guide, R, px, alpha = 1) {
  if (!guide) return;
  ctx.save();
  ctx.globalAlpha = alpha;
  ctx.lineCap = "round";
  ctx.lineJoin = "round";
  // The cue ball to the ghost ball (or the cushion), dashed.
  ctx.setLineDash([6 * px, 5 * px]);
  ctx.strokeStyle = "rgba(255,255,255,0.7)";
  ctx.lineWidth = 1.4 * px;
  const toGhost = trimStart(guide.cuePath, R);
  stroke(ctx, toGhost.length ? trimStart(toGhost.slice().reverse(), R).reverse() : []);
  ctx.setLineDash([]);
  outline(ctx, guide.end, R);
  ctx.fillStyle = "rgba(255,255,255,0.10)";
  ctx.fill();
  ctx.strokeStyle = "rgba(255,255,255,0.8)";
  ctx.lineWidth = 1.3 * px;
  ctx.stroke();
  const hit = guide.hit;
  if (hit) {
    // The cue ball after the contact, faint.
    ctx.strokeStyle = "rgba(255,255,255,0.35)";
    ctx.lineWidth = 1.2 * px;
    stroke(ctx, trimStart(hit.cueAfter, R));
    // The object ball.
    const colour = hit.pocket ? POT_COLOUR : MISS_COLOUR;
    ctx.strokeStyle = colour;
    ctx.lineWidth = 2 * px;
    stroke(ctx, trimStart(hit.objectPath, R));
    const { stop } = hit;
    if (!hit.pocket && stop.kind !== "rest") {
      outline(ctx, stop.at, R);
      ctx.lineWidth = 1.3 * px;
      ctx.stroke();
      const [cx, cy] = stop.point || stop.at;
      const k = 5 * px;
      ctx.lineWidth = 2.2 * px;
      stroke(ctx, [[cx - k, cy - k], [cx + k, cy + k]]);
      stroke(ctx, [[cx - k, cy + k], [cx + k, cy - k]]);
    } else if (hit.pocket) {
      ctx.beginPath();
      ctx.arc(stop.point[0], stop.point[1], 3.5 * px, 0, Math.PI * 2);
      ctx.fillStyle = colour;
      ctx.fill();
    }
  }
  ctx.restore();
}

/** A glowing ring around a ball or a pocket mouth (call markers). */
export function drawRing(ctx, centre, radius, colour, px, dashed = false, phase = 0) {
  ctx.save();
  ctx.beginPath();
  ctx.arc(centre[0], centre[1], radius, 0, Math.PI * 2);
  ctx.strokeStyle = colour;
  ctx.lineWidth = 2.2 * px;
  if (dashed) {
    ctx.setLineDash([4 * px, 3 * px]);
    ctx.lineDashOffset = -phase * 20 * px;
  }
  ctx.shadowColor = colour;
  ctx.shadowBlur = 8;
  ctx.stroke();
  ctx.restore();
}
