/**
 * Pure helpers that turn pointer positions (already in metres) into aiming decisions.
 */

/** How far the cue can be drawn back (m): the full pull is full power. */
export const MAX_PULL = 0.3;

/** How much of the drawn cue, behind the ball, can be grabbed to pull it back (m). */
export const GRAB_LENGTH = 0.35;

/**
 * Does a press at `point` grab the cue (to pull it back for power) rather than aim?
 * Grabbing works on the cue ball itself or on the front of the drawn cue behind it; the rest of the
 * cue stays an aiming surface, so turning the cue right round never grabs it by accident.
 */
export function grabsCue(cue, angle, point, R, slop = 0.02) {
  const dx = point[0] - cue[0];
  const dy = point[1] - cue[1];
  if (Math.hypot(dx, dy) <= R + slop) return true;
  const ux = Math.cos(angle);
  const uy = Math.sin(angle);
  const behind = -(dx * ux + dy * uy);
  const off = Math.abs(dx * uy - dy * ux);
  return behind > R && behind < GRAB_LENGTH && off < 0.018 + slop;
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
