// @ts-check
/**
 * Metres <-> CSS pixels. Pure: a transform is a plain object, so it can be tested and cached.
 *
 * The table is drawn with y pointing up the screen (counter-clockwise angles stay counter-clockwise):
 * - landscape: home end on the left, +x to the right, +y up;
 * - portrait: home end at the bottom, +x up, +y to the left (the player looks from the home end).
 * Both map world (x, y) to CSS (px, py) = (a x + c y + e, b x + d y + f).
 */

/** Wooden rail outside the cushion nose line, in metres (cushion rubber + wood). */
export const CUSHION_DEPTH = 0.042;
export const RAIL_WIDTH = 0.13;
export const RAIL = CUSHION_DEPTH + RAIL_WIDTH;

/**
 * Fit the table (playing area plus rails) into a CSS box, centred.
 * @param {{length: number, width: number}} table
 * @param {number} cssWidth
 * @param {number} cssHeight
 * @param {number} [dpr] devicePixelRatio, for the canvas backing store
 * @param {"auto"|"landscape"|"portrait"} [orientation]
 * @param {number} [margin] CSS pixels kept free around the table
 */
export function fitTable(table, cssWidth, cssHeight, dpr = 1, orientation = "auto", margin = 0) {
  const L = table.length;
  const W = table.width;
  const w = Math.max(1, cssWidth - 2 * margin);
  const h = Math.max(1, cssHeight - 2 * margin);
  const fullL = L + 2 * RAIL;
  const fullW = W + 2 * RAIL;
  let portrait;
  if (orientation === "auto") {
    // Choose the orientation that gives the larger table.
    const sLand = Math.min(w / fullL, h / fullW);
    const sPort = Math.min(w / fullW, h / fullL);
    portrait = sPort > sLand * 1.05;
  } else {
    portrait = orientation === "portrait";
  }
  const scale = portrait ? Math.min(w / fullW, h / fullL) : Math.min(w / fullL, h / fullW);
  const drawnW = (portrait ? fullW : fullL) * scale;
  const drawnH = (portrait ? fullL : fullW) * scale;
  const left = (cssWidth - drawnW) / 2;
  const top = (cssHeight - drawnH) / 2;
  let m;
  if (!portrait) {
    // px = left + (x + RAIL) s ; py = top + (W + RAIL - y) s
    m = { a: scale, b: 0, c: 0, d: -scale, e: left + RAIL * scale, f: top + (W + RAIL) * scale };
  } else {
    // px = left + (W + RAIL - y) s ; py = top + (L + RAIL - x) s
    m = { a: 0, b: -scale, c: -scale, d: 0, e: left + (W + RAIL) * scale, f: top + (L + RAIL) * scale };
  }
  return {
    ...m,
    scale,
    dpr,
    portrait,
    cssWidth,
    cssHeight,
    pixelWidth: Math.round(cssWidth * dpr),
    pixelHeight: Math.round(cssHeight * dpr),
    bounds: { left, top, width: drawnW, height: drawnH },
  };
}

/** World metres -> CSS pixels. */
export function toScreen(tf, x, y) {
  return [tf.a * x + tf.c * y + tf.e, tf.b * x + tf.d * y + tf.f];
}

/** CSS pixels -> world metres (inverse of toScreen). */
export function toWorld(tf, px, py) {
  const det = tf.a * tf.d - tf.b * tf.c;
  const u = px - tf.e;
  const v = py - tf.f;
  return [(tf.d * u - tf.c * v) / det, (-tf.b * u + tf.a * v) / det];
}

/** Metres -> CSS pixels for lengths. */
export function lengthToScreen(tf, metres) {
  return metres * tf.scale;
}

/**
 * The canvas 2D matrix drawing in metres onto the device-pixel backing store.
 * @returns {[number, number, number, number, number, number]}
 */
export function canvasMatrix(tf) {
  const k = tf.dpr;
  return [tf.a * k, tf.b * k, tf.c * k, tf.d * k, tf.e * k, tf.f * k];
}

/** Screen direction (CSS px, y down) -> world angle (radians, counter-clockwise from +x). */
export function screenVectorToAngle(tf, dx, dy) {
  const det = tf.a * tf.d - tf.b * tf.c;
  const wx = (tf.d * dx - tf.c * dy) / det;
  const wy = (-tf.b * dx + tf.a * dy) / det;
  return Math.atan2(wy, wx);
}

/**
 * Where each pocket is drawn: "top_left", "top_middle", "left_middle", ... from the pocket's
 * centre under this transform, so a pocket's name is the place a player sees it in, in either
 * orientation. The one place the client decides it (ui/words.js names the places).
 */
export function pocketPlaces(tf, table) {
  const [cx, cy] = toScreen(tf, table.length / 2, table.width / 2);
  const tol = 0.1 * Math.min(table.length, table.width) * tf.scale;
  const places = {};
  for (const [id, pocket] of Object.entries(table.pockets || {})) {
    const [px, py] = toScreen(tf, pocket.center[0], pocket.center[1]);
    const dx = px - cx;
    const dy = py - cy;
    const v = Math.abs(dy) < tol ? "" : dy < 0 ? "top" : "bottom";
    const h = Math.abs(dx) < tol ? "middle" : dx < 0 ? "left" : "right";
    places[id] = v ? `${v}_${h}` : `${h}_middle`;
  }
  return places;
}
