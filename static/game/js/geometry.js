/**
 * Aiming and picking geometry on the table. Pure functions, metres and radians. No rule lives here:
 * what may be called or where a ball may be placed is the server's (legality.js reads it).
 *
 * The aim guide is the classic ghost ball: follow the cue ball's centre along the aim line until it
 * is 2R from some ball's centre; the cue ball then sits at the ghost position and drives the object
 * ball along the line of centres. It is a guide, not a prediction: the server's physics decides.
 */

export const TAU = Math.PI * 2;

/** Normalise an angle to (-π, π]. */
export function wrapAngle(a) {
  let r = ((a + Math.PI) % TAU + TAU) % TAU - Math.PI;
  if (r === -Math.PI) r = Math.PI;
  return r;
}

/**
 * Distance along the ray p + s·d (d unit) to the first point at distance `radius` from c, or null.
 */
export function rayCircle(p, d, c, radius) {
  const fx = p[0] - c[0];
  const fy = p[1] - c[1];
  const b = fx * d[0] + fy * d[1];
  const cc = fx * fx + fy * fy - radius * radius;
  const disc = b * b - cc;
  if (disc < 0) return null;
  const s = -b - Math.sqrt(disc);
  if (s >= 0) return s;
  // Starting inside (balls frozen together): contact now if moving toward it.
  if (cc <= 0 && b < 0) return 0;
  return null;
}

/** Distance along the ray to the segment a-b, or null. */
export function raySegment(p, d, a, b) {
  const ex = b[0] - a[0];
  const ey = b[1] - a[1];
  const den = d[0] * ey - d[1] * ex;
  if (Math.abs(den) < 1e-12) return null;
  const wx = a[0] - p[0];
  const wy = a[1] - p[1];
  const s = (wx * ey - wy * ex) / den;
  const u = (wx * d[1] - wy * d[0]) / den;
  if (s < 0 || u < 0 || u > 1) return null;
  return s;
}

/**
 * The cushion nose segment pulled `R` into the cloth along the server's normal (cushion.normal points
 * into the cloth): where a ball's centre is when it touches it.
 */
function insetCushion(table, cushion) {
  const [nx, ny] = cushion.normal;
  const R = table.ball_radius;
  return [
    [cushion.a[0] + nx * R, cushion.a[1] + ny * R],
    [cushion.b[0] + nx * R, cushion.b[1] + ny * R],
  ];
}

/**
 * Ghost-ball aim.
 * @param {object} table geometry (TableSpec.as_dict())
 * @param {Record<string, [number, number] | null>} balls positions, null = off the table
 * @param {string} cueId the ball struck
 * @param {number} angle radians, 0 = +x
 * @returns {{origin, dir, hit: null | {ball, s, ghost, objectDir, cueDir}, cushion: null | {id, s, point}, end}}
 */
export function aimGuide(table, balls, cueId, angle) {
  const origin = balls[cueId];
  if (!origin) return null;
  const R = table.ball_radius;
  const dir = [Math.cos(angle), Math.sin(angle)];
  let best = null;
  for (const [id, pos] of Object.entries(balls)) {
    if (id === cueId || !pos) continue;
    const s = rayCircle(origin, dir, pos, 2 * R);
    if (s !== null && (!best || s < best.s)) best = { ball: id, s };
  }
  let cushion = null;
  for (const c of table.cushions) {
    const [a, b] = insetCushion(table, c);
    const s = raySegment(origin, dir, a, b);
    if (s !== null && (!cushion || s < cushion.s)) cushion = { id: c.id, s };
  }
  if (!cushion) {
    // Heading into a pocket mouth: stop at the edge of the cloth.
    const s = rayBox(origin, dir, table.length, table.width);
    cushion = { id: null, s };
  }
  if (best && best.s <= cushion.s) {
    const ghost = [origin[0] + dir[0] * best.s, origin[1] + dir[1] * best.s];
    const target = balls[best.ball];
    let ox = target[0] - ghost[0];
    let oy = target[1] - ghost[1];
    const n = Math.hypot(ox, oy) || 1;
    ox /= n;
    oy /= n;
    // Stun shot: the cue ball leaves along the tangent line, on the side away from the object line.
    const cross = dir[0] * oy - dir[1] * ox;
    const cueDir = cross > 0 ? [oy, -ox] : [-oy, ox];
    const cut = Math.abs(dir[0] * ox + dir[1] * oy);
    return {
      origin,
      dir,
      hit: { ball: best.ball, s: best.s, ghost, objectDir: [ox, oy], cueDir, fullness: cut },
      cushion: null,
      end: ghost,
    };
  }
  const point = [origin[0] + dir[0] * cushion.s, origin[1] + dir[1] * cushion.s];
  return { origin, dir, hit: null, cushion: { ...cushion, point }, end: point };
}

function rayBox(p, d, L, W) {
  let s = Infinity;
  if (d[0] > 0) s = Math.min(s, (L - p[0]) / d[0]);
  if (d[0] < 0) s = Math.min(s, -p[0] / d[0]);
  if (d[1] > 0) s = Math.min(s, (W - p[1]) / d[1]);
  if (d[1] < 0) s = Math.min(s, -p[1] / d[1]);
  return Math.max(0, s);
}

/**
 * The pocket an object ball sent from `from` along unit `dir` is heading for, if its line passes
 * within `tolerance` of a mouth centre (and no other ball is in the way). Used to suggest a call.
 */
export function pocketAlong(table, from, dir, balls = {}, skip = [], tolerance = null) {
  const tol = tolerance ?? table.ball_radius * 1.1;
  let best = null;
  for (const [id, pocket] of Object.entries(table.pockets)) {
    const m = pocket.mouth_center;
    const wx = m[0] - from[0];
    const wy = m[1] - from[1];
    const along = wx * dir[0] + wy * dir[1];
    if (along <= 0) continue;
    const off = Math.abs(wx * dir[1] - wy * dir[0]);
    if (off > tol) continue;
    let blocked = false;
    for (const [bid, pos] of Object.entries(balls)) {
      if (!pos || skip.includes(bid)) continue;
      const s = rayCircle(from, dir, pos, 2 * table.ball_radius);
      if (s !== null && s < along) blocked = true;
    }
    if (blocked) continue;
    if (!best || off < best.off) best = { pocket: id, off, distance: along };
  }
  return best;
}

/** The id of the ball under the point (within `slop` metres beyond its radius), nearest first. */
export function ballAtPoint(table, balls, point, slop = 0.01) {
  let best = null;
  for (const [id, pos] of Object.entries(balls)) {
    if (!pos) continue;
    const d = Math.hypot(pos[0] - point[0], pos[1] - point[1]);
    if (d <= table.ball_radius + slop && (!best || d < best.d)) best = { id, d };
  }
  return best ? best.id : null;
}

/** The id of the pocket whose mouth is nearest the point, if within `reach` metres. */
export function pocketAtPoint(table, point, reach = 0.12) {
  let best = null;
  for (const [id, pocket] of Object.entries(table.pockets)) {
    const m = pocket.mouth_center;
    const d = Math.hypot(m[0] - point[0], m[1] - point[1]);
    if (d <= reach && (!best || d < best.d)) best = { id, d };
  }
  return best ? best.id : null;
}

/** Distance from point p to segment a-b. */
export function pointSegmentDistance(p, a, b) {
  const abx = b[0] - a[0];
  const aby = b[1] - a[1];
  const apx = p[0] - a[0];
  const apy = p[1] - a[1];
  const den = abx * abx + aby * aby;
  const t = den === 0 ? 0 : Math.max(0, Math.min(1, (apx * abx + apy * aby) / den));
  return Math.hypot(apx - t * abx, apy - t * aby);
}
