// @ts-check
/**
 * What a shot sounds like, as pure data: the voices (cue strike, ball–ball click, cushion thud, drop
 * into a pocket) with their time and loudness, read from the server's motion segments.
 *
 * The wire carries no event list (ARCHITECTURE.md section 3: a shot is its segments), but every event
 * of the engine starts a new segment: a collision is where a ball's velocity jumps. Two balls whose
 * velocities jump at the same instant with their centres one diameter apart met each other; a lone
 * jump is a cushion (or a jaw); `["pocket", t, id]` is the drop. A jump-free new segment (sliding turns
 * to rolling, the ball stops) makes no sound. Loudness follows the impact speed, so a kiss is soft and
 * a break is loud. Pure functions: ui/sound.js plays them, tests read them.
 */

/** Velocity changes below this (m/s) are the cloth's doing, not an impact. */
export const MIN_IMPACT = 0.03;
/** Impact speeds (m/s) that sound at full loudness, per kind. */
export const FULL_SPEED = { strike: 6, ball: 3, cushion: 2.5, pocket: 2 };
/** Quietest voice worth playing (0..1). */
export const MIN_GAIN = 0.04;
const SAME_TIME = 1e-4;
const CONTACT_SLACK = 0.004;

/** Loudness 0..1 of an impact of `speed` m/s of `kind`: a gentle curve, so soft touches stay audible. */
export function gainFor(kind, speed) {
  const full = FULL_SPEED[kind] || 3;
  return Math.min(1, Math.sqrt(Math.max(0, speed) / full));
}

/**
 * Velocity of a segment at absolute time t. No clamp at a stop: a segment ends at the engine's next
 * event, and a drawn ball's velocity passes through zero within one sliding segment.
 */
function velocityOf(seg, t) {
  const dt = t - seg[0];
  return [seg[3] + seg[5] * dt, seg[4] + seg[6] * dt];
}

/**
 * The velocity jumps of every ball: {ball, t, x, y, before: [vx, vy], after: [vx, vy], jump}.
 * @param {Record<string, {segs: number[][], pocket: object|null}>} tracks parsed (trajectory.js)
 */
export function velocityJumps(tracks) {
  const out = [];
  for (const ball of Object.keys(tracks).sort()) {
    const { segs } = tracks[ball];
    for (let i = 0; i < segs.length; i++) {
      const seg = segs[i];
      const before = i === 0 ? [0, 0] : velocityOf(segs[i - 1], seg[0]);
      const after = [seg[3], seg[4]];
      const jump = Math.hypot(after[0] - before[0], after[1] - before[1]);
      if (jump >= MIN_IMPACT) out.push({ ball, t: seg[0], x: seg[1], y: seg[2], before, after, jump });
    }
  }
  return out.sort((a, b) => a.t - b.t || (a.ball < b.ball ? -1 : 1));
}

/**
 * The voices of a shot, in time order: [{t, kind, gain, balls}] with kind "strike" | "ball" |
 * "cushion" | "pocket", t in seconds of shot time and gain 0..1.
 * @param {Record<string, {segs: number[][], pocket: {t: number, id: string}|null}>} tracks
 * @param {{ball_radius: number}} table
 */
export function shotVoices(tracks, table) {
  const diameter = 2 * ((table && table.ball_radius) || 0.034);
  const jumps = velocityJumps(tracks);
  const used = new Set();
  const voices = [];
  const firstT = jumps.length ? jumps[0].t : 0;
  for (let i = 0; i < jumps.length; i++) {
    if (used.has(i)) continue;
    const a = jumps[i];
    // The cue strike: the first ball set moving from rest at the start of the shot.
    const fromRest = a.before[0] === 0 && a.before[1] === 0;
    if (i === 0 && a.t <= firstT + SAME_TIME && fromRest) {
      used.add(i);
      voices.push(voice(a.t, "strike", a.jump, [a.ball]));
      continue;
    }
    let partner = -1;
    for (let j = i + 1; j < jumps.length && jumps[j].t - a.t <= SAME_TIME; j++) {
      if (used.has(j) || jumps[j].ball === a.ball) continue;
      const d = Math.hypot(jumps[j].x - a.x, jumps[j].y - a.y);
      if (d <= diameter + CONTACT_SLACK) {
        partner = j;
        break;
      }
    }
    used.add(i);
    if (partner >= 0) {
      const b = jumps[partner];
      used.add(partner);
      const n = [(b.x - a.x) / Math.hypot(b.x - a.x, b.y - a.y), (b.y - a.y) / Math.hypot(b.x - a.x, b.y - a.y)];
      const rel = [a.before[0] - b.before[0], a.before[1] - b.before[1]];
      const speed = Math.abs(rel[0] * n[0] + rel[1] * n[1]) || a.jump;
      voices.push(voice(a.t, "ball", speed, [a.ball, b.ball]));
    } else {
      // A cushion reverses the normal speed: the jump is about twice the speed into it.
      voices.push(voice(a.t, "cushion", a.jump / 2, [a.ball]));
    }
  }
  for (const ball of Object.keys(tracks).sort()) {
    const { segs, pocket } = tracks[ball];
    if (!pocket) continue;
    let seg = segs[0];
    for (const s of segs) if (s[0] <= pocket.t) seg = s;
    const [vx, vy] = velocityOf(seg, pocket.t);
    voices.push(voice(pocket.t, "pocket", Math.max(Math.hypot(vx, vy), 0.5), [ball]));
  }
  return voices.filter((v) => v.gain >= MIN_GAIN).sort((p, q) => p.t - q.t);
}

function voice(t, kind, speed, balls) {
  return { t, kind, gain: Math.round(gainFor(kind, speed) * 1000) / 1000, speed: Math.round(speed * 1000) / 1000, balls };
}

/** How many voices of each kind: {strike, ball, cushion, pocket}. */
export function voiceCounts(voices) {
  const out = { strike: 0, ball: 0, cushion: 0, pocket: 0 };
  for (const v of voices) out[v.kind] = (out[v.kind] || 0) + 1;
  return out;
}
