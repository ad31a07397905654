// @ts-check
/**
 * The five balls: shaded sprites drawn at device resolution, soft contact shadows, the whites' dots
 * rolling with the ball, and a visible drop into the pocket (shrinking and darkening as it sinks).
 * Balls are drawn in screen space so the light always comes from the top left, whichever way the
 * table is turned.
 */

import { makeCanvas } from "./table.js";
import { toScreen } from "../transform.js";

export const BALL_COLOURS = {
  kaisa: { light: "#ffe36b", base: "#f0b90b", dark: "#7a5200", name: "Kaisa" },
  red1: { light: "#ff7a6e", base: "#d3211b", dark: "#4e0604", name: "Red" },
  red2: { light: "#ff7a6e", base: "#d3211b", dark: "#4e0604", name: "Red" },
  white1: { light: "#ffffff", base: "#f4f1e6", dark: "#8f897a", name: "White •" },
  white2: { light: "#ffffff", base: "#f4f1e6", dark: "#8f897a", name: "White ••" },
};

/** Dots fixed on each white, as unit vectors in the ball's body frame (a pair: one on each side). */
const DOTS = {
  white1: [
    [0, 0, 1],
    [0, 0, -1],
  ],
  white2: [
    [0.34, 0, 0.94],
    [-0.34, 0, 0.94],
    [0.34, 0, -0.94],
    [-0.34, 0, -0.94],
  ],
};

function sphereSprite(colour, size) {
  const c = makeCanvas(size, size);
  const g = c.getContext("2d");
  const r = size / 2 - 1;
  const cx = size / 2;
  const grad = g.createRadialGradient(cx - r * 0.38, cx - r * 0.42, r * 0.05, cx, cx, r);
  grad.addColorStop(0, colour.light);
  grad.addColorStop(0.45, colour.base);
  grad.addColorStop(1, colour.dark);
  g.beginPath();
  g.arc(cx, cx, r, 0, Math.PI * 2);
  g.fillStyle = grad;
  g.fill();
  // Light bounced from the cloth on the lower edge.
  const bounce = g.createRadialGradient(cx + r * 0.3, cx + r * 0.55, 0, cx + r * 0.3, cx + r * 0.55, r * 0.7);
  bounce.addColorStop(0, "rgba(90,200,140,0.18)");
  bounce.addColorStop(1, "rgba(90,200,140,0)");
  g.fillStyle = bounce;
  g.fill();
  return c;
}

function glossSprite(size) {
  const c = makeCanvas(size, size);
  const g = c.getContext("2d");
  const r = size / 2 - 1;
  const cx = size / 2;
  const hx = cx - r * 0.36;
  const hy = cx - r * 0.42;
  const spec = g.createRadialGradient(hx, hy, 0, hx, hy, r * 0.42);
  spec.addColorStop(0, "rgba(255,255,255,0.95)");
  spec.addColorStop(0.25, "rgba(255,255,255,0.45)");
  spec.addColorStop(1, "rgba(255,255,255,0)");
  g.beginPath();
  g.arc(cx, cx, r, 0, Math.PI * 2);
  g.fillStyle = spec;
  g.fill();
  const rim = g.createRadialGradient(cx, cx, r * 0.7, cx, cx, r);
  rim.addColorStop(0, "rgba(0,0,0,0)");
  rim.addColorStop(1, "rgba(0,0,0,0.28)");
  g.fillStyle = rim;
  g.fill();
  return c;
}

function shadowSprite(size) {
  const c = makeCanvas(size, size);
  const g = c.getContext("2d");
  const cx = size / 2;
  const grad = g.createRadialGradient(cx, cx, 0, cx, cx, cx);
  grad.addColorStop(0, "rgba(0,0,0,0.55)");
  grad.addColorStop(0.5, "rgba(0,0,0,0.3)");
  grad.addColorStop(1, "rgba(0,0,0,0)");
  g.fillStyle = grad;
  g.fillRect(0, 0, size, size);
  return c;
}

/** Sprites for one ball size in device pixels; rebuild on resize. */
export function createBallSprites(radiusPx) {
  const size = Math.max(8, Math.ceil(radiusPx * 2) + 2);
  const spheres = {};
  for (const [id, colour] of Object.entries(BALL_COLOURS)) spheres[id] = sphereSprite(colour, size);
  return { size, radiusPx, spheres, gloss: glossSprite(size), shadow: shadowSprite(size * 2) };
}

/** Rotation matrix (row-major 3x3) about unit axis (x, y, 0) by angle. */
function rotation(ax, ay, angle) {
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  const t = 1 - c;
  return [
    t * ax * ax + c, t * ax * ay, s * ay,
    t * ax * ay, t * ay * ay + c, -s * ax,
    -s * ay, s * ax, c,
  ];
}

function mul(a, b) {
  const out = new Array(9);
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      out[i * 3 + j] = a[i * 3] * b[j] + a[i * 3 + 1] * b[3 + j] + a[i * 3 + 2] * b[6 + j];
    }
  }
  return out;
}

/**
 * Roll each ball's orientation by how far it moved since the last frame (no slip assumed): drawing
 * state kept by the renderer, never read by the game.
 */
export function rollOrientations(orientations, balls, R) {
  for (const [id, b] of Object.entries(balls)) {
    const o = orientations[id] || { x: b.x, y: b.y, m: [1, 0, 0, 0, 1, 0, 0, 0, 1] };
    const dx = b.x - o.x;
    const dy = b.y - o.y;
    const d = Math.hypot(dx, dy);
    if (d > 0 && d < 0.5) {
      o.m = mul(rotation(-dy / d, dx / d, d / R), o.m);
    }
    o.x = b.x;
    o.y = b.y;
    orientations[id] = o;
  }
}

/**
 * Draw the balls. `balls` is {id: {x, y, drop}}; `tf` the transform; `ctx` is in device pixels.
 */
export function drawBalls(ctx, sprites, tf, balls, R, orientations) {
  const k = tf.dpr;
  const rPx = R * tf.scale * k;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  const entries = Object.entries(balls);
  for (const [, b] of entries) {
    const [sx, sy] = toScreen(tf, b.x, b.y);
    const scale = 1 - 0.5 * b.drop;
    const s = sprites.size * 2 * scale * 1.05;
    ctx.globalAlpha = 1 - b.drop;
    ctx.drawImage(sprites.shadow, sx * k + rPx * 0.22 - s / 2, sy * k + rPx * 0.3 - s / 2, s, s);
  }
  ctx.globalAlpha = 1;
  for (const [id, b] of entries) {
    const sphere = sprites.spheres[id];
    if (!sphere) continue;
    const [sx, sy] = toScreen(tf, b.x, b.y);
    const scale = 1 - 0.42 * b.drop;
    const s = sprites.size * scale;
    const x = sx * k - s / 2;
    const y = sy * k - s / 2;
    ctx.drawImage(sphere, x, y, s, s);
    const dots = DOTS[id];
    if (dots) drawDots(ctx, tf, sx * k, sy * k, rPx * scale, dots, orientations[id]);
    ctx.drawImage(sprites.gloss, x, y, s, s);
    if (b.drop > 0) {
      ctx.beginPath();
      ctx.arc(sx * k, sy * k, (rPx * scale) + 0.5, 0, Math.PI * 2);
      ctx.fillStyle = `rgba(0,0,0,${Math.min(0.85, b.drop * 1.1)})`;
      ctx.fill();
    }
  }
}

function drawDots(ctx, tf, cx, cy, rPx, dots, orientation) {
  const m = orientation ? orientation.m : [1, 0, 0, 0, 1, 0, 0, 0, 1];
  const dotR = rPx * 0.2;
  // Linear part of world -> screen, normalised (a rotation, possibly with the y flip).
  const s = tf.scale;
  ctx.fillStyle = "#141414";
  for (const [bx, by, bz] of dots) {
    const wx = m[0] * bx + m[1] * by + m[2] * bz;
    const wy = m[3] * bx + m[4] * by + m[5] * bz;
    const wz = m[6] * bx + m[7] * by + m[8] * bz;
    if (wz <= 0.05) continue;
    const ox = (tf.a * wx + tf.c * wy) / s;
    const oy = (tf.b * wx + tf.d * wy) / s;
    const px = cx + ox * rPx * 0.92;
    const py = cy + oy * rPx * 0.92;
    ctx.globalAlpha = Math.min(1, wz * 3);
    ctx.beginPath();
    ctx.ellipse(px, py, Math.max(0.3, dotR * wz), dotR, Math.atan2(oy, ox), 0, Math.PI * 2);
    ctx.fill();
  }
  ctx.globalAlpha = 1;
}
