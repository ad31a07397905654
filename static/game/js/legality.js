// @ts-check
/**
 * What the server says a player may do now, read off `state.constraints[name]` (docs/protocol.md,
 * "constraints"; game/engine/rules/constraints.py). Pure functions, no DOM.
 *
 * The client never decides a rule itself: a call is legal when the server's `ways` say so, a placement
 * when it lies in the server's region, a strike within the server's `strike_limits`. The words of a
 * refusal are the server's `why`; only the hints on what to add (a cushion, a kiss) are made here.
 */

import { pointSegmentDistance } from "./geometry.js";
import { drawnKey, gettext, interpolate, language } from "./i18n.js";
import { ballName } from "./ui/words.js";

const OPTION_WORDS = {
  object_cushions: () => gettext("an object-ball cushion"),
  cue_cushions: () => gettext("a cue-ball cushion"),
};

/** The server's `why` in the page's language (its `why_words`), the English sentence otherwise. */
export function whyWords(constraints, why, lang = language()) {
  if (!why) return why;
  const said = constraints && constraints.why_words && constraints.why_words[why];
  return (said && said[drawnKey(said, lang)]) || why;
}

/** The constraints of `name` in a state (`null` when the server sent none, e.g. a spectator's own). */
export function constraintsOf(game, name) {
  return (game && game.constraints && game.constraints[name]) || null;
}

/** The strike limits of a state: the same for both players, so any seated player's will do. */
export function limitsOf(game) {
  const all = (game && game.constraints) || {};
  for (const c of Object.values(all)) if (c && c.strike_limits) return c.strike_limits;
  return null;
}

function optionMet(option, call) {
  if (option === "object_cushions") return (call.object_cushions || 0) > 0;
  if (option === "cue_cushions") return (call.cue_cushions || 0) > 0;
  if (option.startsWith("via:")) return call.via === option.slice(4);
  return false;
}

function wayWords(way) {
  return way
    .map((o) => (OPTION_WORDS[o] ? OPTION_WORDS[o]() : interpolate(gettext("a kiss off %(ball)s"), { ball: ballName(o.slice(4)) })))
    .join(gettext(" and "));
}

/** Why `ball` may not be called at all now, or null (the cue ball and unknown balls: null). */
export function ballRefusal(constraints, ball) {
  if (!constraints || !ball) return null;
  return whyWords(constraints, (constraints.not_callable && constraints.not_callable[ball]) || null);
}

/**
 * Why the balls drawn hatched (the server's `not_callable` that are on the table) may not be called, in
 * the page's language: "Hatched balls may not be called: <the server's reasons>", or "".
 */
export function hatchedWhy(constraints, balls) {
  const refused = (constraints && constraints.not_callable) || {};
  const reasons = [];
  for (const [ball, why] of Object.entries(refused)) {
    const said = whyWords(constraints, why);
    if (balls && balls[ball] && said && !reasons.includes(said)) reasons.push(said);
  }
  if (!reasons.length) return "";
  return interpolate(gettext("Hatched balls may not be called: %(why)s"), { why: reasons.join("; ") });
}

/**
 * Is a call of `ball` into `pocket` possible at all (some way exists), and why the plain call is refused.
 * @returns {{possible: boolean, plain: boolean, why: string | null}}
 */
export function pocketLegality(constraints, ball, pocket) {
  const entry = constraints && constraints.calls && constraints.calls[ball];
  const p = entry && entry.pockets && entry.pockets[pocket];
  if (!p) return { possible: false, plain: false, why: ballRefusal(constraints, ball) };
  const plain = p.ways.some((way) => way.length === 0);
  return { possible: p.ways.length > 0, plain, why: whyWords(constraints, p.why || null) };
}

/**
 * Does the server allow this call now? `why` is the server's reason when it does not, completed with
 * what would make it legal ("allowed with a cue-ball cushion called").
 * @param {object | null} constraints the player's constraints
 * @param {{ball, pocket, object_cushions, cue_cushions, via}} call
 * @returns {{ok: boolean, why: string | null}}
 */
export function callVerdict(constraints, call) {
  if (!constraints) return { ok: false, why: gettext("The server has not said what you may call yet.") };
  if (!call || !call.ball || !call.pocket) return { ok: false, why: gettext("Call your shot first: choose a ball, then a pocket.") };
  const refused = ballRefusal(constraints, call.ball);
  if (refused) return { ok: false, why: refused };
  const entry = constraints.calls && constraints.calls[call.ball];
  if (!entry) return { ok: false, why: gettext("That ball cannot be called now.") };
  if (call.via && !(entry.via || []).includes(call.via)) {
    return { ok: false, why: gettext("That ball cannot be named for a kiss or combination now.") };
  }
  const p = entry.pockets && entry.pockets[call.pocket];
  if (!p) return { ok: false, why: gettext("That pocket cannot be called now.") };
  if (p.ways.some((way) => way.every((o) => optionMet(o, call)))) return { ok: true, why: null };
  const why = whyWords(constraints, p.why) || gettext("This call is not allowed now.");
  if (!p.ways.length) return { ok: false, why };
  const ways = p.ways.map(wayWords).join(gettext(", or "));
  return { ok: false, why: interpolate(gettext("%(why)s; allowed with %(ways)s called"), { why, ways }) };
}

/** The pockets `ball` may be called into with the options of `call` (plain when omitted), in server order. */
export function legalPockets(constraints, ball, call = {}) {
  const entry = constraints && constraints.calls && constraints.calls[ball];
  if (!entry) return [];
  return Object.keys(entry.pockets).filter((pocket) =>
    callVerdict(constraints, { object_cushions: 0, cue_cushions: 0, via: null, ...call, ball, pocket }).ok,
  );
}

/**
 * Is the centre `pos` a legal place for the ball (constraints.placement)? Reason codes: off_cloth,
 * outside_home, not_past_centre, corridor, touching.
 * @returns {{ok: boolean, reason: string | null}}
 */
export function placementCheck(placement, pos) {
  if (!placement) return { ok: false, reason: "not_now" };
  const { region } = placement;
  const [x, y] = pos;
  const [x0, x1, y0, y1] = region.cloth;
  if (x < x0 || x > x1 || y < y0 || y > y1) return { ok: false, reason: "off_cloth" };
  if (region.kind === "home") {
    if (x > region.x_max) return { ok: false, reason: "outside_home" };
  } else if (region.kind === "opening") {
    if (!(x > region.x_min)) return { ok: false, reason: "not_past_centre" };
    for (const c of region.corridors || []) {
      if (pointSegmentDistance(pos, c.from, c.to) < region.half_width) return { ok: false, reason: "corridor" };
    }
  }
  const gap = 2 * placement.ball_radius + placement.touch_tolerance;
  for (const other of Object.values(placement.avoid || {})) {
    if (Math.hypot(other[0] - x, other[1] - y) < gap) return { ok: false, reason: "touching" };
  }
  return { ok: true, reason: null };
}

/**
 * Keep a wished placement inside the cloth rectangle of the region. The home line and the centre line
 * are not clamped: a ball dragged across them turns red and says why.
 */
export function clampPlacement(placement, pos) {
  if (!placement) return pos;
  const [x0, x1, y0, y1] = placement.region.cloth;
  return [Math.min(x1, Math.max(x0, pos[0])), Math.min(y1, Math.max(y0, pos[1]))];
}

/** Clamp a cue tip offset (side, height) into the disc of radius `limits.max_tip_offset`. */
export function clampSpin(side, height, limits) {
  if (!limits) return [side, height];
  const limit = limits.max_tip_offset;
  const r = Math.hypot(side, height);
  if (r <= limit) return [side, height];
  return [(side / r) * limit, (height / r) * limit];
}

/** Clamp a speed into (min_speed_exclusive, max_speed], never below the client's own `floor`. */
export function clampSpeed(speed, limits, floor = 0) {
  const hi = limits ? limits.max_speed : Infinity;
  const lo = Math.max(floor, limits ? limits.min_speed_exclusive : 0);
  return Math.min(hi, Math.max(lo, speed));
}

/** A strike brought within the limits: speed, tip offset, and |angle| ≤ max_angle. */
export function clampStrike(strike, limits, floor = 0) {
  const [side, height] = clampSpin(strike.side || 0, strike.height || 0, limits);
  let angle = strike.angle;
  if (limits && Math.abs(angle) > limits.max_angle) angle = Math.sign(angle) * limits.max_angle;
  return { angle, speed: clampSpeed(strike.speed, limits, floor), side, height };
}
