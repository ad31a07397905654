// @ts-check
/**
 * How far a finger or a key reaches on the table (phone and keyboard). Pure, for tests.
 *
 * A finger covers about 44 CSS px, so a tap picks the nearest ball within half of that from its centre
 * (never less than the ball itself), and the cue is grabbed as generously. The arrow keys move a ball
 * being placed by 1 mm (Shift: 10 mm) in the direction the arrow points on the screen, whichever way
 * the table is drawn. Legality is never decided here: the caller asks legality.js (the server's region).
 */

/** The smallest tap target, CSS px (WCAG 2.5.5). */
export const TAP_TARGET_PX = 44;

/** Placement steps by key, metres. */
export const PLACE_STEP = 0.001;
export const PLACE_STEP_SHIFT = 0.01;

/** The pick radius in metres for a transform of `scale` CSS px per metre: half a tap target, at least R + 1 cm. */
export function pickRadius(scale, ballRadius) {
  return Math.max(ballRadius + 0.01, TAP_TARGET_PX / 2 / Math.max(scale, 1e-9));
}

/** The extra reach (metres) beyond the ball and the drawn cue that still grabs the cue. */
export function grabSlop(scale, ballRadius) {
  return Math.max(0.02, pickRadius(scale, ballRadius) - ballRadius);
}

/**
 * The id of the ball whose centre is nearest `point` within `radius` metres, or null. Ties go to the
 * id first in sorted order, so the pick never depends on the order the balls came in.
 */
export function nearestBall(balls, point, radius, skip = null) {
  let best = null;
  for (const id of Object.keys(balls).sort()) {
    const pos = balls[id];
    if (!pos || id === skip) continue;
    const d = Math.hypot(pos[0] - point[0], pos[1] - point[1]);
    if (d <= radius && (!best || d < best.d)) best = { id, d };
  }
  return best ? best.id : null;
}

const SCREEN_DIRECTIONS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/**
 * The world step (metres) for an arrow key while placing a ball: the arrow's direction on the screen,
 * turned back into the table's axes through the transform's matrix (a b c d: px = a x + c y, py = b x + d y).
 * Null for other keys.
 */
export function placementStep(key, shift, tf) {
  const dir = SCREEN_DIRECTIONS[key];
  if (!dir) return null;
  const step = shift ? PLACE_STEP_SHIFT : PLACE_STEP;
  const { a, b, c, d } = tf;
  const det = a * d - b * c;
  if (!det) return null;
  // Inverse of [[a, c], [b, d]] applied to the screen direction.
  const wx = (d * dir[0] - c * dir[1]) / det;
  const wy = (-b * dir[0] + a * dir[1]) / det;
  const n = Math.hypot(wx, wy);
  return [(wx / n) * step, (wy / n) * step];
}

/**
 * Where a keyboard placement starts: the ball's pending spot, else the middle of the server's region
 * (its cloth rectangle, up to the home line for a ball in hand, past the centre for the opening).
 */
export function placementStart(placement, pending) {
  if (pending) return pending;
  if (!placement) return null;
  const { region } = placement;
  let [x0, x1, y0, y1] = region.cloth;
  if (region.kind === "home" && region.x_max !== undefined) x1 = Math.min(x1, region.x_max);
  if (region.kind === "opening" && region.x_min !== undefined) x0 = Math.max(x0, region.x_min);
  return [(x0 + x1) / 2, (y0 + y1) / 2];
}

/** Add a step to a point, rounded to 0.1 mm so repeated steps do not drift. */
export function stepPoint(point, step) {
  return [Math.round((point[0] + step[0]) * 1e4) / 1e4, Math.round((point[1] + step[1]) * 1e4) / 1e4];
}
