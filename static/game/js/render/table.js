// @ts-check
/**
 * The table, drawn once into an offscreen canvas per size: wooden rails with sights, the cloth, the
 * cushions exactly as the geometry gives them (nose segments, rounded jaw tips, facings along each
 * pocket's axis), six tight pockets cut into the rail, the home line and the spots.
 * Everything is drawn in metres through the transform's canvas matrix.
 */

import { CUSHION_DEPTH, RAIL, canvasMatrix } from "../transform.js";

const WOOD_DARK = "#3b1f0e";
const WOOD_MID = "#6b3a1c";
const WOOD_LIGHT = "#8d5229";
const CLOTH = "#17704a";
const CLOTH_DARK = "#0c4a30";
const CUSHION_NOSE = "#1f8a5b";
const CUSHION_BACK = "#0f5a3a";

/**
 * The table the server sends carries its own cushion normals, pocket mouth centres and axes, and the
 * pocket facings (docs/protocol.md, "table"): they are drawn as given, never derived again here.
 */

function dist(a, b) {
  return Math.hypot(a[0] - b[0], a[1] - b[1]);
}

/** Hole of a pocket: centre and radius of the round opening in the rail (metres). */
export function pocketHole(table, pocket) {
  const [m1, m2] = pocket.mouth;
  const half = Math.hypot(m2[0] - m1[0], m2[1] - m1[1]) / 2;
  const axis = pocket.axis;
  const m = pocket.mouth_center;
  const depth = table.ball_radius * 1.05;
  return { centre: [m[0] + axis[0] * depth, m[1] + axis[1] * depth], radius: half + 0.006, axis };
}

/**
 * The cushion rubber as a polygon: nose, the facings at both ends, the back along the rail. At a pocket
 * end the rubber follows the server's facing from its jaw-tip point outward along the pocket's axis.
 */
export function cushionPolygon(table, cushion) {
  const n = cushion.normal;
  const out = [-n[0], -n[1]];
  const ends = [cushion.a, cushion.b].map((p) => {
    let best = null;
    for (const facing of table.facings || []) {
      const d = Math.hypot(facing.a[0] - p[0], facing.a[1] - p[1]);
      if (d < 0.03 && (!best || d < best.d)) best = { facing, d };
    }
    if (!best) return { nose: p, face: p, back: [p[0] + out[0] * CUSHION_DEPTH, p[1] + out[1] * CUSHION_DEPTH] };
    const { facing } = best;
    const face = facing.a;
    const axis = table.pockets[facing.pocket].axis;
    // Follow the facing outward until it meets the back of the cushion.
    const depthOfFace = (face[0] - p[0]) * out[0] + (face[1] - p[1]) * out[1];
    const along = axis[0] * out[0] + axis[1] * out[1];
    const t = along > 1e-6 ? (CUSHION_DEPTH - depthOfFace) / along : CUSHION_DEPTH;
    const back = [face[0] + axis[0] * t, face[1] + axis[1] * t];
    // The rounded jaw tip the facing starts on (the server's jaws), drawn over the rubber's corner.
    const jaw = (table.jaws || [])
      .filter((j) => j.pocket === facing.pocket)
      .reduce((a, j) => (!a || dist(j.center, face) < dist(a.center, face) ? j : a), null);
    return { nose: p, face, back, facing, jaw };
  });
  return { normal: n, points: [ends[0].back, ends[0].face, ends[0].nose, ends[1].nose, ends[1].face, ends[1].back], ends };
}

function roundRect(ctx, x, y, w, h, r) {
  ctx.beginPath();
  ctx.moveTo(x + r, y);
  ctx.lineTo(x + w - r, y);
  ctx.arcTo(x + w, y, x + w, y + r, r);
  ctx.lineTo(x + w, y + h - r);
  ctx.arcTo(x + w, y + h, x + w - r, y + h, r);
  ctx.lineTo(x + r, y + h);
  ctx.arcTo(x, y + h, x, y + h - r, r);
  ctx.lineTo(x, y + r);
  ctx.arcTo(x, y, x + r, y, r);
  ctx.closePath();
}

/** Deterministic pseudo-random numbers, so the wood grain is the same on every redraw. */
function seeded(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

function clothPattern(ctx, dpr) {
  const size = Math.round(96 * dpr);
  const c = makeCanvas(size, size);
  const g = c.getContext("2d");
  const img = g.createImageData(size, size);
  const rnd = seeded(7);
  for (let i = 0; i < img.data.length; i += 4) {
    const v = rnd() * 255;
    img.data[i] = v;
    img.data[i + 1] = v;
    img.data[i + 2] = v;
    img.data[i + 3] = 10;
  }
  g.putImageData(img, 0, 0);
  return ctx.createPattern(c, "repeat");
}

export function makeCanvas(w, h) {
  if (typeof OffscreenCanvas !== "undefined") return new OffscreenCanvas(w, h);
  const c = document.createElement("canvas");
  c.width = w;
  c.height = h;
  return c;
}

/**
 * Draw the whole static table into a new canvas sized like the visible one.
 * @returns {HTMLCanvasElement | OffscreenCanvas}
 */
export function renderTable(table, tf) {
  const canvas = makeCanvas(tf.pixelWidth, tf.pixelHeight);
  const ctx = canvas.getContext("2d");
  const L = table.length;
  const W = table.width;
  const px = 1 / tf.scale; // one CSS pixel in metres
  ctx.setTransform(...canvasMatrix(tf));

  // Shadow of the table on the floor.
  ctx.save();
  ctx.shadowColor = "rgba(0,0,0,0.55)";
  ctx.shadowBlur = 28 * tf.dpr;
  ctx.shadowOffsetY = 10 * tf.dpr;
  roundRect(ctx, -RAIL, -RAIL, L + 2 * RAIL, W + 2 * RAIL, 0.07);
  ctx.fillStyle = WOOD_MID;
  ctx.fill();
  ctx.restore();

  // Wood: a warm gradient across the width plus fine grain along the length.
  ctx.save();
  roundRect(ctx, -RAIL, -RAIL, L + 2 * RAIL, W + 2 * RAIL, 0.07);
  ctx.clip();
  const wood = ctx.createLinearGradient(0, -RAIL, 0, W + RAIL);
  wood.addColorStop(0, WOOD_LIGHT);
  wood.addColorStop(0.08, WOOD_MID);
  wood.addColorStop(0.5, "#5a2f15");
  wood.addColorStop(0.92, WOOD_MID);
  wood.addColorStop(1, WOOD_LIGHT);
  ctx.fillStyle = wood;
  ctx.fillRect(-RAIL, -RAIL, L + 2 * RAIL, W + 2 * RAIL);
  const rnd = seeded(1234);
  ctx.lineCap = "round";
  for (let i = 0; i < 260; i++) {
    const horizontal = i % 2 === 0;
    const offset = rnd() * RAIL * 1.1 - RAIL;
    const side = rnd() < 0.5;
    ctx.strokeStyle = rnd() < 0.5 ? "rgba(30,12,2,0.16)" : "rgba(200,140,80,0.08)";
    ctx.lineWidth = (0.4 + rnd() * 1.4) * px;
    ctx.beginPath();
    if (horizontal) {
      const y = side ? offset : W - offset;
      const x0 = -RAIL + rnd() * (L + 2 * RAIL);
      const len = 0.2 + rnd() * 0.9;
      ctx.moveTo(x0, y);
      ctx.bezierCurveTo(x0 + len / 3, y + 0.004, x0 + (2 * len) / 3, y - 0.004, x0 + len, y);
    } else {
      const x = side ? offset : L - offset;
      const y0 = -RAIL + rnd() * (W + 2 * RAIL);
      const len = 0.15 + rnd() * 0.5;
      ctx.moveTo(x, y0);
      ctx.bezierCurveTo(x + 0.004, y0 + len / 3, x - 0.004, y0 + (2 * len) / 3, x, y0 + len);
    }
    ctx.stroke();
  }
  ctx.restore();
  // Polished edge and inner bevel of the rail.
  roundRect(ctx, -RAIL + 1.5 * px, -RAIL + 1.5 * px, L + 2 * RAIL - 3 * px, W + 2 * RAIL - 3 * px, 0.068);
  ctx.strokeStyle = "rgba(255,210,160,0.25)";
  ctx.lineWidth = 1.5 * px;
  ctx.stroke();
  ctx.strokeStyle = "rgba(20,8,0,0.6)";
  ctx.lineWidth = 3 * px;
  ctx.strokeRect(-CUSHION_DEPTH - 1.5 * px, -CUSHION_DEPTH - 1.5 * px, L + 2 * CUSHION_DEPTH + 3 * px, W + 2 * CUSHION_DEPTH + 3 * px);

  // Sights (diamonds): mother-of-pearl inlays on the wood.
  const mid = CUSHION_DEPTH + (RAIL - CUSHION_DEPTH) * 0.5;
  const sights = [];
  for (let i = 1; i < 8; i++) {
    if (i === 4) continue;
    sights.push([(L * i) / 8, -mid], [(L * i) / 8, W + mid]);
  }
  for (let i = 1; i < 4; i++) sights.push([-mid, (W * i) / 4], [L + mid, (W * i) / 4]);
  for (const [x, y] of sights) {
    const s = 0.011;
    ctx.beginPath();
    ctx.moveTo(x - s, y);
    ctx.lineTo(x, y + s * 0.6);
    ctx.lineTo(x + s, y);
    ctx.lineTo(x, y - s * 0.6);
    ctx.closePath();
    const g = ctx.createRadialGradient(x - s * 0.3, y + s * 0.2, 0, x, y, s);
    g.addColorStop(0, "#fffaf0");
    g.addColorStop(1, "#cfc3a8");
    ctx.fillStyle = g;
    ctx.fill();
  }

  // Leather pocket rims on the wood.
  const holes = Object.values(table.pockets).map((p) => pocketHole(table, p));
  for (const hole of holes) {
    const [cx, cy] = hole.centre;
    const r = hole.radius + 0.016;
    const g = ctx.createRadialGradient(cx, cy, hole.radius, cx, cy, r);
    g.addColorStop(0, "#1a1411");
    g.addColorStop(0.6, "#3a2a20");
    g.addColorStop(1, "#15100c");
    ctx.beginPath();
    ctx.arc(cx, cy, r, 0, Math.PI * 2);
    ctx.fillStyle = g;
    ctx.fill();
  }

  // Cloth bed, out to the back of the cushions.
  ctx.save();
  ctx.beginPath();
  ctx.rect(-CUSHION_DEPTH, -CUSHION_DEPTH, L + 2 * CUSHION_DEPTH, W + 2 * CUSHION_DEPTH);
  ctx.clip();
  const cloth = ctx.createRadialGradient(L / 2, W / 2, 0.1, L / 2, W / 2, L * 0.62);
  cloth.addColorStop(0, "#1b7f54");
  cloth.addColorStop(0.65, CLOTH);
  cloth.addColorStop(1, CLOTH_DARK);
  ctx.fillStyle = cloth;
  ctx.fillRect(-CUSHION_DEPTH, -CUSHION_DEPTH, L + 2 * CUSHION_DEPTH, W + 2 * CUSHION_DEPTH);
  const pattern = clothPattern(ctx, tf.dpr);
  if (pattern) {
    ctx.save();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = pattern;
    ctx.fillRect(0, 0, tf.pixelWidth, tf.pixelHeight);
    ctx.restore();
  }
  ctx.restore();

  // Pocket holes: the throat between the facings and the round drop.
  for (const [id, pocket] of Object.entries(table.pockets)) {
    const hole = holes[Object.keys(table.pockets).indexOf(id)];
    const [m1, m2] = pocket.mouth;
    const axis = hole.axis;
    const deep = 0.09;
    ctx.beginPath();
    ctx.moveTo(m1[0], m1[1]);
    ctx.lineTo(m2[0], m2[1]);
    ctx.lineTo(m2[0] + axis[0] * deep, m2[1] + axis[1] * deep);
    ctx.lineTo(m1[0] + axis[0] * deep, m1[1] + axis[1] * deep);
    ctx.closePath();
    ctx.fillStyle = "#050504";
    ctx.fill();
    const [cx, cy] = hole.centre;
    const g = ctx.createRadialGradient(cx - axis[0] * 0.01, cy - axis[1] * 0.01, 0, cx, cy, hole.radius);
    g.addColorStop(0, "#000000");
    g.addColorStop(0.75, "#060605");
    g.addColorStop(1, "#1c1a16");
    ctx.beginPath();
    ctx.arc(cx, cy, hole.radius, 0, Math.PI * 2);
    ctx.fillStyle = g;
    ctx.fill();
  }

  // Cushions.
  for (const cushion of table.cushions) {
    const poly = cushionPolygon(table, cushion);
    const n = poly.normal;
    const [ax, ay] = cushion.a;
    const g = ctx.createLinearGradient(ax, ay, ax - n[0] * CUSHION_DEPTH, ay - n[1] * CUSHION_DEPTH);
    g.addColorStop(0, CUSHION_NOSE);
    g.addColorStop(0.25, "#167a4f");
    g.addColorStop(1, CUSHION_BACK);
    ctx.beginPath();
    poly.points.forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
    ctx.closePath();
    ctx.fillStyle = g;
    ctx.fill();
    for (const end of poly.ends) {
      if (!end.jaw) continue;
      ctx.beginPath();
      ctx.arc(end.jaw.center[0], end.jaw.center[1], end.jaw.radius, 0, Math.PI * 2);
      ctx.fillStyle = CUSHION_NOSE;
      ctx.fill();
    }
    // Light catching the nose of the cushion.
    ctx.beginPath();
    ctx.moveTo(ax, ay);
    ctx.lineTo(cushion.b[0], cushion.b[1]);
    ctx.strokeStyle = "rgba(190,255,215,0.22)";
    ctx.lineWidth = 1.2 * px;
    ctx.stroke();
    // Shadow the cushion casts on the cloth.
    ctx.beginPath();
    ctx.moveTo(ax + n[0] * 1.5 * px, ay + n[1] * 1.5 * px);
    ctx.lineTo(cushion.b[0] + n[0] * 1.5 * px, cushion.b[1] + n[1] * 1.5 * px);
    ctx.strokeStyle = "rgba(0,0,0,0.18)";
    ctx.lineWidth = 2.5 * px;
    ctx.stroke();
  }

  // Home line and spots.
  ctx.beginPath();
  ctx.moveTo(table.home_line_x, 0);
  ctx.lineTo(table.home_line_x, W);
  ctx.strokeStyle = "rgba(235,245,235,0.38)";
  ctx.lineWidth = 1.2 * px;
  ctx.stroke();
  for (const [name, [x, y]] of Object.entries(table.spots)) {
    const r = name.endsWith("cushion") ? 0.0045 : 0.0065;
    ctx.beginPath();
    ctx.arc(x, y, r, 0, Math.PI * 2);
    ctx.fillStyle = "rgba(235,245,235,0.55)";
    ctx.fill();
  }
  return canvas;
}
