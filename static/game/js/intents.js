// @ts-check
/**
 * What a player's intent (a drag, a key, a button: ui/controls.js, input/pointer.js, input/keyboard.js)
 * does to the match page: pure functions of the state, unit-tested with `node --test`.
 *
 * `intend(state, intent, env)` returns the next state and the effects to carry out, in order; main.js
 * owns the one mutable state and the socket, and only carries the effects out:
 *   {kind: "aim", strike}            send the live aim (the server relays it to the others)
 *   {kind: "play", t, d}             send a play message (main.js marks it sent with its ack)
 *   {kind: "confirm", text, then}    ask the player first (abort, resign); `then` if they agree
 *   {kind: "hush"}                   stop the skipped shot's sounds
 *   {kind: "cursor", value}          the canvas's pointer cursor
 * `env` is what the state does not hold: `table`, the drawn `transform` (or null), the display
 * clock's `now` (ms) for errors.
 */

import {
  clearCall,
  myActions,
  myCueBall,
  restingBalls,
  sending,
  setAim,
  setCall,
  setPlacing,
  setUi,
  skippable,
  skipSteps,
  speedFromPower,
  strikeLimits,
} from "./state.js";
import { cycleChoice } from "./input/keyboard.js";
import { ballAtPoint, pocketAtPoint, wrapAngle } from "./geometry.js";
import { aimLine } from "./aim.js";
import {
  ballRefusal,
  callVerdict,
  clampPlacement,
  clampSpin,
  clampStrike,
  constraintsOf,
  legalPockets,
  placementCheck,
  pocketLegality,
} from "./legality.js";
import { suggestedPocket } from "./render/renderer.js";
import { gettext } from "./i18n.js";
import { nearestBall, pickRadius, placementStart, placementStep, stepPoint } from "./input/reach.js";
import { MIN_SHOT_POWER, pressOn } from "./input/gestures.js";

export const PLACEMENT_WORDS = {
  off_cloth: () => gettext("The ball must lie fully on the cloth."),
  outside_home: () => gettext("Place the ball in the home: on or behind the home line."),
  touching: () => gettext("The ball may not touch another ball."),
  not_now: () => gettext("You may not place a ball now."),
  corridor: () => gettext("Not in the corridor between the centre spot and a foot pocket (K-3.3)."),
  not_past_centre: () => gettext("Place white •• beyond the centre of the table (K-3.3)."),
};

const placementWords = (reason) => (PLACEMENT_WORDS[reason] ? PLACEMENT_WORDS[reason]() : null);

/** Suggest the call from the aim line unless the player chose it (only what the server allows). */
export function autoCall(state, table) {
  if (state.callManual || !myActions(state).includes("shoot")) return state;
  const balls = restingBalls(state);
  const id = myCueBall(state);
  const guide = balls[id] ? aimLine(table, balls, id, state.aim) : null;
  if (!guide || !guide.hit) return state.call.ball ? setCall(state, { ball: null, pocket: null }, false) : state;
  const mine = constraintsOf(state.shown, state.me);
  const ball = ballRefusal(mine, guide.hit.ball) ? null : guide.hit.ball;
  const target = ball ? suggestedPocket(table, mine, balls, id, guide, state.call) : null;
  const pocket = target ? target.pocket : null;
  if (state.call.ball === ball && state.call.pocket === pocket) return state;
  return setCall(state, { ball, pocket }, false);
}

/** The live aim to send, or none: not my turn, or my shot is on its way (it would be refused). */
export function aimEffects(state) {
  const actions = myActions(state);
  if ((!actions.includes("shoot") && !actions.includes("lag")) || sending(state)) return [];
  const { angle, speed, side, height } = state.aim;
  return [{ kind: "aim", strike: { angle: wrapAngle(angle), speed, side, height } }];
}

/** The strike as sent: the angle wrapped, the speed to the millimetre per second, within the limits. */
export function strikeOf(state) {
  const { angle, speed, side, height } = state.aim;
  const rounded = { angle: wrapAngle(angle), speed: Math.round(speed * 1000) / 1000, side, height };
  return clampStrike(rounded, strikeLimits(state));
}

/**
 * Shoot (or lag) now. A call the server's constraints forbid is never sent: the player reads why.
 * Spin and power go back once the shot is played (main.js on the answer), not here: a refused one keeps them.
 */
export function shootNow(state, now) {
  const actions = myActions(state);
  const effects = [];
  if (actions.includes("lag")) {
    effects.push({ kind: "play", t: "lag", d: { strike: strikeOf(state) } });
  } else if (actions.includes("shoot")) {
    const verdict = callVerdict(constraintsOf(state.shown, state.me), state.call);
    if (!verdict.ok) return { state: { ...state, error: { code: "call_not_allowed", message: verdict.why, at: now } }, effects };
    effects.push({ kind: "play", t: "shoot", d: { call: { ...state.call }, strike: strikeOf(state) } });
  }
  return { state: setUi(state, { pull: 0 }), effects };
}

/** Where the server lets me place a ball now (its constraints), or null. */
export function placementOf(state) {
  const mine = constraintsOf(state.shown, state.me);
  return mine ? mine.placement : null;
}

/** An arrow key or Enter while placing: the ball moves (1 mm, Shift 10 mm) or is placed. */
export function placementKey(state, intent, transform) {
  const where = placementOf(state);
  const ball = where ? where.ball : myCueBall(state);
  const from = placementStart(where, (state.placing && state.placing.pos) || restingBalls(state)[ball] || null);
  if (!from) return null;
  if (intent.type === "shoot") return { type: "place", point: from };
  const step = placementStep(intent.key, intent.shift, transform);
  return step ? { type: "place-move", point: stepPoint(from, step) } : null;
}

/** The server's reason against the ball or pocket under the pointer, or null (greyed ones only). */
export function hoverRefusal(state, table, point) {
  const actions = myActions(state);
  if (!point || (!actions.includes("shoot") && !actions.includes("place"))) return null;
  const mine = constraintsOf(state.shown, state.me);
  if (!mine) return null;
  const ball = ballAtPoint(table, restingBalls(state), point);
  if (ball) return ballRefusal(mine, ball);
  const pocket = pocketAtPoint(table, point);
  if (pocket && state.call.ball) {
    const legal = pocketLegality(mine, state.call.ball, pocket);
    return legal.plain ? null : legal.why;
  }
  return null;
}

/** The pointer's cursor over `point`: grab (my cue ball, the butt, a ball to place), pointer, crosshair. */
export function hoverCursor(state, table, point) {
  if (!point) return "";
  const actions = myActions(state);
  if (actions.includes("place")) return "grab";
  if (!actions.includes("shoot") && !actions.includes("lag")) return "";
  const balls = restingBalls(state);
  const ball = ballAtPoint(table, balls, point);
  const cue = balls[myCueBall(state)];
  // The butt pulls the cue back at once: it shows it can be grabbed.
  if (ball === myCueBall(state) || (cue && pressOn(cue, state.aim.angle, point, table.ball_radius) === "butt")) return "grab";
  if (ball || pocketAtPoint(table, point)) return "pointer";
  return "crosshair";
}

/**
 * The ball in hand follows the pointer as a ghost before it is placed (`ui.ghost`: where a click puts
 * it, and whether the server's region allows it there); none once the pointer leaves or nothing is in hand.
 */
export function hoverGhost(state, point) {
  const where = myActions(state).includes("place") ? placementOf(state) : null;
  if (!where || !point) return state.ui.ghost ? setUi(state, { ghost: null }) : state;
  const pos = clampPlacement(where, point);
  const ok = placementCheck(where, pos).ok;
  const old = state.ui.ghost;
  if (old && old.ok === ok && old.pos[0] === pos[0] && old.pos[1] === pos[1]) return state;
  return setUi(state, { ghost: { pos, ok } });
}

/** Skip the running shot: this page snaps to the state it has; nothing is sent. */
export function skipNow(state, table) {
  if (!skippable(state)) return { state, effects: [] };
  return { state: autoCall(skipSteps(state), table), effects: [{ kind: "hush" }] };
}

const done = (state, effects = []) => ({ state, effects });

/** Aim moved: the call follows the line, and the aim goes out. */
function aimed(state, table) {
  const next = autoCall(state, table);
  return done(next, aimEffects(next));
}

function withAim(state, aim) {
  const next = setAim(state, aim);
  return done(next, aimEffects(next));
}

function pick(state, intent, env) {
  const { table } = env;
  const balls = restingBalls(state);
  // A ball hit squarely, else a pocket, else the nearest ball within a finger's reach.
  const reach = env.transform ? pickRadius(env.transform.scale, table.ball_radius) : table.ball_radius;
  const hit = ballAtPoint(table, balls, intent.point);
  const pocket = hit ? null : pocketAtPoint(table, intent.point);
  const ball = hit || (pocket ? null : nearestBall(balls, intent.point, reach));
  const mine = myCueBall(state);
  if (state.ui.pickVia && ball && ball !== mine) {
    return done(setUi(setCall(state, { via: ball === state.call.via ? null : ball }), { pickVia: false }));
  }
  if (ball && ball !== mine && myActions(state).includes("shoot")) return done(setCall(state, { ball }));
  if (pocket && myActions(state).includes("shoot")) return done(setCall(state, { pocket }));
  if (intent.aimIfEmpty && balls[mine]) {
    const [cx, cy] = balls[mine];
    return intend(state, { type: "aim", angle: Math.atan2(intent.point[1] - cy, intent.point[0] - cx) }, env);
  }
  return done(state);
}

function placeMove(state, intent) {
  const where = placementOf(state);
  const ball = where ? where.ball : myCueBall(state);
  const pos = clampPlacement(where, intent.point);
  const check = placementCheck(where, pos);
  let next = setPlacing(state.ui.ghost ? setUi(state, { ghost: null }) : state, { ball, pos, ok: check.ok, reason: check.reason });
  // The reason in words too, under the call, for whoever cannot see the red ring.
  const words = check.ok ? null : placementWords(check.reason);
  if (words !== (next.ui.why || null)) next = setUi(next, { why: words });
  return done(next);
}

function place(state, intent, env) {
  const where = placementOf(state);
  const ball = where ? where.ball : myCueBall(state);
  const pos = clampPlacement(where, intent.point);
  const check = placementCheck(where, pos);
  if (!check.ok) {
    const error = { code: check.reason, message: placementWords(check.reason) || check.reason, at: env.now };
    return done(setPlacing({ ...state, error }, { ball, pos, ok: false, reason: check.reason }));
  }
  const next = setPlacing(state, { ball, pos, ok: true, reason: null, sent: true });
  return done(next, [{ kind: "play", t: "place", d: { ball, x: round6(pos[0]), y: round6(pos[1]) } }]);
}

function callCycle(state, intent) {
  if (!myActions(state).includes("shoot")) return done(state);
  // Only what the server allows: its callable balls, and the pockets it allows for the ball.
  const mine = constraintsOf(state.shown, state.me);
  if (intent.field === "ball") {
    const options = Object.keys((mine && mine.calls) || {}).sort().filter((b) => !ballRefusal(mine, b));
    const ball = cycleChoice(options, state.call.ball, intent.dir);
    const pockets = ball ? legalPockets(mine, ball) : [];
    if (!ball) return done(state);
    return done(setCall(state, { ball, pocket: pockets.includes(state.call.pocket) ? state.call.pocket : pockets[0] || null }));
  }
  if (!state.call.ball) return done(state);
  const pocket = cycleChoice(legalPockets(mine, state.call.ball), state.call.pocket, intent.dir);
  return done(pocket ? setCall(state, { pocket }) : state);
}

/**
 * One intent: the next state and the effects, in order (see the module's comment).
 * @param {object} state
 * @param {{type: string, [k: string]: any}} intent
 * @param {{table: object, transform: object | null, now: number}} env
 * @returns {{state: object, effects: object[]}}
 */
export function intend(state, intent, env) {
  const { table } = env;
  if (intent.key && myActions(state).includes("place")) {
    const keyed = placementKey(state, intent, env.transform);
    return keyed ? intend(state, keyed, env) : done(state);
  }
  switch (intent.type) {
    case "aim":
      return aimed(setAim(state, { angle: intent.angle }), table);
    case "turn": {
      let next = setAim(state, { angle: wrapAngle(state.aim.angle + intent.delta) });
      if (Boolean(intent.fine) !== Boolean(next.ui.fine)) next = setUi(next, { fine: Boolean(intent.fine) });
      return aimed(next, table);
    }
    case "fine-end":
      return done(state.ui.fine ? setUi(state, { fine: false }) : state);
    case "abort":
      return done(state, [
        { kind: "confirm", text: gettext("Abort this match? Nobody wins and no rating changes."), then: { kind: "play", t: "abort", d: {} } },
      ]);
    case "resign":
      return done(state, [{ kind: "confirm", text: gettext("Resign this match?"), then: { kind: "play", t: "resign", d: {} } }]);
    case "rematch":
      return done(state, [{ kind: "play", t: "rematch", d: {} }]);
    case "power":
      return withAim(state, { speed: speedFromPower(intent.power, strikeLimits(state)) });
    case "speed-step":
      return withAim(state, { speed: state.aim.speed + intent.delta });
    case "spin": {
      const [side, height] = clampSpin(intent.side, intent.height, strikeLimits(state));
      return withAim(state, { side, height });
    }
    case "spin-step":
      return withAim(state, { side: state.aim.side + intent.side, height: state.aim.height + intent.height });
    case "pull": {
      const next = setUi(state, { pull: intent.power, pulling: true });
      return done(intent.power > 0 ? setAim(next, { speed: speedFromPower(intent.power, strikeLimits(next)) }) : next);
    }
    case "pull-release": {
      const next = setUi(state, { pull: 0, pulling: false });
      if (intent.power < MIN_SHOT_POWER) return done(next);
      return shootNow(setAim(next, { speed: speedFromPower(intent.power, strikeLimits(next)) }), env.now);
    }
    case "shoot":
      return shootNow(state, env.now);
    case "pick":
      return pick(state, intent, env);
    case "place-move":
      return placeMove(state, intent);
    case "place":
      return place(state, intent, env);
    case "choose-break":
      return done(state, [{ kind: "play", t: "choose_break", d: { take: intent.take } }]);
    case "call-step":
      return done(setCall(state, { [intent.field]: (state.call[intent.field] || 0) + intent.delta }));
    case "call-cycle":
      return callCycle(state, intent);
    case "clear-call":
      return skippable(state) ? skipNow(state, table) : done(setUi(clearCall(state), { pickVia: false }));
    case "skip":
      return skipNow(state, table);
    case "via-toggle":
      return done(state.call.via ? setCall(state, { via: null }) : setUi(state, { pickVia: !state.ui.pickVia }));
    case "hover": {
      const effects = [{ kind: "cursor", value: hoverCursor(state, table, intent.point) }];
      const why = hoverRefusal(state, table, intent.point);
      const next = hoverGhost(state, intent.point);
      return done(why !== (next.ui.why || null) ? setUi(next, { why }) : next, effects);
    }
    default:
      return done(state);
  }
}

function round6(x) {
  return Math.round(x * 1e6) / 1e6;
}
