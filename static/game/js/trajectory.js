// @ts-check
/**
 * Exact evaluation of the server's motion segments (ARCHITECTURE.md section 4).
 *
 * The client never simulates: a shot arrives as closed-form polynomials per ball and this module
 * evaluates them at display time, so every browser shows exactly the server's shot. Pure functions,
 * metres and seconds.
 *
 * Segment `[t0, x, y, vx, vy, ax, ay]`: position(t) = (x, y) + v (t - t0) + ½ a (t - t0)², valid until
 * the next segment of the same ball. A pocketed ball's list ends with `["pocket", t, pocket_id]`.
 */

/** Seconds a pocketed ball takes to sink out of sight after crossing the capture line. */
export const DROP_DURATION = 0.28;

/**
 * Parse the `segments` object of a `shot` message into tracks, validating it once so the per-frame
 * evaluation needs no checks.
 * @param {Record<string, Array<Array<number|string>>>} segments
 * @returns {Record<string, {segs: number[][], pocket: {t: number, id: string} | null}>}
 */
export function parseSegments(segments) {
  /** @type {Record<string, {segs: number[][], pocket: {t: number, id: string} | null}>} */
  const tracks = {};
  for (const [ball, list] of Object.entries(segments || {})) {
    const segs = [];
    let pocket = null;
    for (const entry of list) {
      if (entry[0] === "pocket") {
        pocket = { t: Number(entry[1]), id: String(entry[2]) };
        break;
      }
      if (entry.length < 7 || !entry.slice(0, 7).every(Number.isFinite)) {
        throw new Error(`bad segment for ${ball}: ${JSON.stringify(entry)}`);
      }
      segs.push(entry.slice(0, 7).map(Number));
    }
    if (!segs.length) continue;
    segs.sort((a, b) => a[0] - b[0]);
    tracks[ball] = { segs, pocket };
  }
  return tracks;
}

/** Time after t0 at which a segment's velocity is smallest (when a decelerating ball stops). */
function stopAfter(seg) {
  const [, , , vx, vy, ax, ay] = seg;
  const aa = ax * ax + ay * ay;
  if (aa === 0) return vx === 0 && vy === 0 ? 0 : Infinity;
  const t = -(vx * ax + vy * ay) / aa;
  return t > 0 ? t : 0;
}

function evalSeg(seg, t) {
  const dt = t - seg[0];
  return [seg[1] + seg[3] * dt + 0.5 * seg[5] * dt * dt, seg[2] + seg[4] * dt + 0.5 * seg[6] * dt * dt];
}

/** Index of the segment in force at time t (binary search; the first segment before it starts). */
function segmentIndex(segs, t) {
  let lo = 0;
  let hi = segs.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (segs[mid][0] <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Where the ball's centre is at time t, ignoring the pocket: the segment polynomial, clamped at the
 * stop of the last segment so a decelerating ball never runs backwards.
 */
export function rawPosition(track, t) {
  const { segs } = track;
  const i = segmentIndex(segs, t);
  const seg = segs[i];
  let tt = Math.max(t, seg[0]);
  if (i === segs.length - 1) tt = Math.min(tt, seg[0] + stopAfter(seg));
  return evalSeg(seg, tt);
}

/**
 * State of one ball at time t.
 * @returns {{x: number, y: number, drop: number, pocket: string | null, moving: boolean}}
 *   drop: 0 on the cloth, rising to 1 as it sinks into `pocket` (1 = gone).
 */
export function ballAt(track, t, pockets = null) {
  const { pocket } = track;
  if (pocket && t >= pocket.t) {
    const [px, py] = rawPosition(track, pocket.t);
    const drop = Math.min(1, (t - pocket.t) / DROP_DURATION);
    let x = px;
    let y = py;
    const centre = pockets && pockets[pocket.id] && pocketSink(pockets[pocket.id]);
    if (centre) {
      const k = easeOut(drop);
      x = px + (centre[0] - px) * k;
      y = py + (centre[1] - py) * k;
    }
    return { x, y, drop, pocket: pocket.id, moving: drop < 1 };
  }
  const [x, y] = rawPosition(track, t);
  return { x, y, drop: 0, pocket: null, moving: t < trackEnd(track) };
}

/** Where a ball sinks to: a little behind the capture line, in the pocket's throat. */
export function pocketSink(pocket) {
  const [c1, c2] = pocket.capture;
  const [m1, m2] = pocket.mouth;
  const cx = (c1[0] + c2[0]) / 2;
  const cy = (c1[1] + c2[1]) / 2;
  const mx = (m1[0] + m2[0]) / 2;
  const my = (m1[1] + m2[1]) / 2;
  let ax = cx - mx;
  let ay = cy - my;
  const n = Math.hypot(ax, ay) || 1;
  ax /= n;
  ay /= n;
  return [cx + ax * 0.03, cy + ay * 0.03];
}

function easeOut(u) {
  return 1 - (1 - u) * (1 - u);
}

/** Seconds until the ball stops moving on the cloth or crosses its pocket's capture line. */
export function trackEnd(track) {
  if (track.pocket) return track.pocket.t;
  const last = track.segs[track.segs.length - 1];
  const stop = stopAfter(last);
  return Number.isFinite(stop) ? last[0] + stop : last[0];
}

/** Physical duration of the shot: the last ball stops or drops (seconds). */
export function shotDuration(tracks) {
  let end = 0;
  for (const track of Object.values(tracks)) end = Math.max(end, trackEnd(track));
  return end;
}

/** Duration of the animation, including the last drop into a pocket. */
export function animationDuration(tracks) {
  let end = 0;
  for (const track of Object.values(tracks)) {
    end = Math.max(end, track.pocket ? track.pocket.t + DROP_DURATION : trackEnd(track));
  }
  return end;
}

/** Every ball of the shot at time t: {ballId: ballAt(...)}. */
export function positionsAt(tracks, t, pockets = null) {
  const out = {};
  for (const [ball, track] of Object.entries(tracks)) out[ball] = ballAt(track, t, pockets);
  return out;
}

/** Velocity of the ball at time t (m/s), for rolling cues like the dots' rotation. */
export function velocityAt(track, t) {
  const { segs } = track;
  const seg = segs[segmentIndex(segs, t)];
  let dt = Math.max(0, t - seg[0]);
  if (seg === segs[segs.length - 1]) dt = Math.min(dt, stopAfter(seg));
  return [seg[3] + seg[5] * dt, seg[4] + seg[6] * dt];
}

/**
 * Distance travelled along the track up to t (m), used to turn a rolling ball's dots.
 * Integrates |v| with a few Simpson steps per segment: exact enough for drawing.
 */
export function distanceAt(track, t) {
  let total = 0;
  const { segs } = track;
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i];
    if (seg[0] >= t) break;
    let end = i + 1 < segs.length ? Math.min(segs[i + 1][0], t) : t;
    if (i === segs.length - 1) end = Math.min(end, seg[0] + stopAfter(seg));
    const span = end - seg[0];
    if (span <= 0) continue;
    const speed = (u) => Math.hypot(seg[3] + seg[5] * u, seg[4] + seg[6] * u);
    const n = 4;
    const h = span / n;
    let s = speed(0) + speed(span);
    for (let k = 1; k < n; k++) s += (k % 2 ? 4 : 2) * speed(k * h);
    total += (s * h) / 3;
  }
  return total;
}
