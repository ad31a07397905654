// @ts-check
/**
 * Picking geometry on the table. Pure functions, metres and radians. No rule lives here: what may be
 * called or where a ball may be placed is the server's (legality.js reads it). The aim line is aim.js's,
 * the engine's physics.
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
