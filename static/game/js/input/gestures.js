// @ts-check
/**
 * Pure helpers that turn pointer positions (already in metres) into aiming decisions.
 */

/** How far the cue can be drawn back (m): the full pull is full power. */
export const MAX_PULL = 0.3;

/**
 * The drawn cue, in metres (render/cue.js draws it from these): its tip stands TIP_GAP off the cue
 * ball, it is CUE_LENGTH long, and its dark butt starts BUTT_FROM from the tip.
 */
export const CUE_LENGTH = 1.45;
export const TIP_GAP = 0.012;
export const BUTT_FROM = 0.8;
const BUTT_HALF_WIDTH = 0.0185;

/** A press held this long (ms) on the cue ball or the cue, without moving, starts a pull-back. */
export const HOLD_MS = 350;

/** Below this power a released pull-back shoots nothing (pulled back to zero: cancelled). */
export const MIN_SHOT_POWER = 0.04;

/**
 * What a press at `point` lands on, for the cue ball at `cue` aimed at `angle`:
 * - "butt": the cue's butt, well beyond the ball: a pull-back starts at once;
 * - "ball" or "cue": the cue ball, or the rest of the drawn cue: a drag aims at the finger, as on the
 *   cloth; held still for HOLD_MS, a pull-back;
 * - "cloth": anywhere else: a drag aims at the finger.
 * A pull-back so needs a deliberate gesture: pressing on the cloth on the cue and dragging back to
 * turn it never fires a shot.
 */
export function pressOn(cue, angle, point, R, slop = 0.02) {
  const dx = point[0] - cue[0];
  const dy = point[1] - cue[1];
  if (Math.hypot(dx, dy) <= R + slop) return "ball";
  const ux = Math.cos(angle);
  const uy = Math.sin(angle);
  const behind = -(dx * ux + dy * uy) - R - TIP_GAP; // along the cue, from its tip
  const off = Math.abs(dx * uy - dy * ux);
  if (behind < -slop || behind > CUE_LENGTH + slop || off > BUTT_HALF_WIDTH + slop) return "cloth";
  return behind >= BUTT_FROM ? "butt" : "cue";
}

/** Power 0..1 from how far the pointer has been pulled back from where the pull began. */
export function pullPower(angle, start, point, maxPull = MAX_PULL) {
  const ux = Math.cos(angle);
  const uy = Math.sin(angle);
  const back = -((point[0] - start[0]) * ux + (point[1] - start[1]) * uy);
  return Math.min(1, Math.max(0, back / maxPull));
}

/** The aim angle pointing from the cue ball to the pointer. */
export function aimAngle(cue, point) {
  return Math.atan2(point[1] - cue[1], point[0] - cue[0]);
}

/** Fine aim while dragging: each CSS pixel moved across the aim line turns the cue 0.1 mrad. */
export const FINE_RAD_PER_PX = 1e-4;

/** On touch, a drag that starts this far from the cue ball (m) aims in the fine mode. */
export const FINE_TOUCH_DISTANCE = 0.9;

/**
 * The turn (radians, counter-clockwise) of a fine-mode drag step from `prev` to `point` (metres):
 * the pointer's movement across the line from the cue ball, in CSS pixels (`scale` px per metre),
 * times FINE_RAD_PER_PX. Moving along the line turns nothing.
 */
export function fineTurn(cue, prev, point, scale) {
  const rx = point[0] - cue[0];
  const ry = point[1] - cue[1];
  const dist = Math.hypot(rx, ry);
  if (dist < 1e-9) return 0;
  const mx = point[0] - prev[0];
  const my = point[1] - prev[1];
  const across = (rx * my - ry * mx) / dist; // metres, counter-clockwise positive
  return across * scale * FINE_RAD_PER_PX;
}

/** Does a drag starting at `point` aim finely: Shift held, or a touch far from the cue ball. */
export function fineDrag(cue, point, { shift = false, touch = false } = {}) {
  if (shift) return true;
  return touch && Math.hypot(point[0] - cue[0], point[1] - cue[1]) >= FINE_TOUCH_DISTANCE;
}
