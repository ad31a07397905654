// @ts-check
/**
 * A table off the record, played on the match page's own state, renderer, controls and inputs: the
 * shared part of the tutorial (`/learn/`, learn.js) and the practice table (`/practice/`, practice.js).
 * The server judges every input with the real engine (game/practice/selectors/free_table.py) over one JSON
 * endpoint (CSRF, a per-address limit) and answers with the same `shot`, `placed` and `snapshot`
 * events a match socket sends, so this module posts inputs and feeds the answers to state.js's
 * `receive`; the host page says what a shot's body carries and what to do with each answer.
 *
 * It holds no words: the pages have them (translated by the server), the verdict's sentence comes
 * with the answer.
 */

import {
  clearCall,
  animationRate,
  createState,
  myActions,
  myCueBall,
  receive,
  restingBalls,
  setAim,
  setCall,
  setConnection,
  setPlacing,
  setUi,
  speedFromPower,
  strikeLimits,
  tick,
  animating,
} from "../state.js";
import { MARCH_EVERY, marching, suggestedPocket } from "../render/renderer.js";
import { ballAtPoint, pocketAtPoint, wrapAngle } from "../geometry.js";
import { aimLine } from "../aim.js";
import { ballRefusal, callVerdict, clampPlacement, clampSpin, clampStrike, constraintsOf, placementCheck } from "../legality.js";
import { MIN_SHOT_POWER } from "../input/gestures.js";
import { createTableShell } from "./shell.js";
import { IDLE_EVERY } from "../loop.js";

export const ME = "player";

function round6(x) {
  return Math.round(x * 1e6) / 1e6;
}

/**
 * @param {HTMLElement} root the page's `.kz-match` element (canvas, stage, controls, CSRF form)
 * @param {{
 *   table: object,
 *   url: () => string,
 *   presetCall?: () => object | null,
 *   shotBody: (shoot: object, placed: object | null) => object,
 *   placeBody: (place: object) => object,
 *   refused: (code: string, message: string) => void,
 *   answered?: (answer: object) => void,
 *   judged: (answer: object) => void,
 *   illegalPlacement?: (reason: string) => void,
 *   callFirst: (why: string) => void,
 *   uncalled?: () => boolean,
 * }} host
 */
export function createFreeTable(root, host) {
  const { table } = host;
  const csrf = /** @type {HTMLInputElement} */ (root.querySelector("input[name=csrfmiddlewaretoken]")).value;
  const shell = createTableShell(root, table);
  const { canvas, renderer } = shell;
  const presetCall = host.presetCall || (() => null);
  const rate = animationRate(root.dataset);

  let state = null;
  /** "ready" (the player may act), "trying" (an input is on its way or animating), "judged" (shown). */
  let phase = "ready";
  let placed = null;
  let pending = null;
  let generation = 0;

  // A new state is drawn at the next frame (loop.js idles otherwise).
  function set(next) {
    if (next === state) return;
    state = next;
    shell.wake();
  }

  function setPhase(next) {
    phase = next;
    root.dataset.state = next;
  }

  /** Show a position (a `state` the server made): the player's turn, the call preset or cleared, the
   * aim kept when asked (the practice table's "again, a little finer"). */
  function load(positionState, { keepAim = false } = {}) {
    generation += 1;
    let s = createState({ table, me: ME, role: "player", rate });
    s = setConnection(s, "open");
    if (state && keepAim) s = { ...s, aim: { ...state.aim } };
    set(receive(s, { t: "snapshot", v: 1, d: { state: positionState } }, performance.now()));
    const preset = presetCall();
    if (preset) set(setCall(state, preset, true));
    placed = null;
    pending = null;
    setPhase("ready");
    autoCall();
  }

  /** Post one input; the answer's event goes through `receive` like a socket event. */
  async function send(body) {
    const mine = generation;
    setPhase("trying");
    let answer;
    let status = 0;
    try {
      const response = await fetch(host.url(), {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
        body: JSON.stringify(body),
        credentials: "same-origin",
      });
      status = response.status;
      answer = await response.json();
    } catch (err) {
      answer = { ok: false, error: { code: "refused", message: "" } };
    }
    if (mine !== generation) return; // the page moved on meanwhile
    if (!answer.ok) {
      setPhase("ready");
      if (state.placing) set(setPlacing(state, null));
      const error = answer.error || {};
      host.refused(status === 429 ? "rate_limited" : error.code || "refused", error.message || "");
      return;
    }
    const event = answer.event;
    set(receive(state, { t: event.t, v: state.version + 1, d: event.d }, performance.now()));
    if (event.t === "shot") {
      pending = answer; // judged when the animation has ended
      return;
    }
    if (event.t === "placed") placed = { ball: event.d.ball, x: event.d.x, y: event.d.y };
    setPhase("ready");
    autoCall();
    if (host.answered) host.answered(answer);
  }

  /** After the verdict is read: the cue and the controls step back until the host loads a position. */
  function standBack() {
    setPhase("judged");
    set({ ...state, role: "spectator" });
  }

  function autoCall() {
    if (!state || state.callManual || presetCall() || !myActions(state).includes("shoot")) return;
    const balls = restingBalls(state);
    const id = myCueBall(state);
    const guide = balls[id] ? aimLine(table, balls, id, state.aim) : null;
    if (!guide || !guide.hit) {
      if (state.call.ball) set(setCall(state, { ball: null, pocket: null }, false));
      return;
    }
    const mine = constraintsOf(state.shown, state.me);
    const ball = ballRefusal(mine, guide.hit.ball) ? null : guide.hit.ball;
    const target = ball ? suggestedPocket(table, mine, balls, id, guide, state.call) : null;
    const pocket = target ? target.pocket : null;
    if (state.call.ball !== ball || state.call.pocket !== pocket) set(setCall(state, { ball, pocket }, false));
  }

  function strike() {
    const { angle, speed, side, height } = state.aim;
    const rounded = { angle: wrapAngle(angle), speed: Math.round(speed * 1000) / 1000, side, height };
    return clampStrike(rounded, strikeLimits(state));
  }

  function shoot() {
    if (phase !== "ready" || !myActions(state).includes("shoot")) return;
    // The practice table may shoot with no call (`"call": null`: played, not judged, K-4.1).
    const bare = Boolean(host.uncalled && host.uncalled());
    const verdict = callVerdict(constraintsOf(state.shown, state.me), state.call);
    if (!bare && !verdict.ok) {
      host.callFirst(verdict.why || "");
      return;
    }
    const body = host.shotBody({ call: bare ? null : { ...state.call }, strike: strike() }, placed);
    set(setUi(state, { pull: 0 }));
    send(body);
  }

  function placement() {
    const mine = constraintsOf(state.shown, state.me);
    return mine ? mine.placement : null;
  }

  function dispatch(intent) {
    if (phase !== "ready") return;
    switch (intent.type) {
      case "aim":
        set(setAim(state, { angle: intent.angle }));
        autoCall();
        break;
      case "turn":
        set(setAim(state, { angle: wrapAngle(state.aim.angle + intent.delta) }));
        if (Boolean(intent.fine) !== Boolean(state.ui.fine)) set(setUi(state, { fine: Boolean(intent.fine) }));
        autoCall();
        break;
      case "fine-end":
        if (state.ui.fine) set(setUi(state, { fine: false }));
        break;
      case "power":
        set(setAim(state, { speed: speedFromPower(intent.power, strikeLimits(state)) }));
        break;
      case "speed-step":
        set(setAim(state, { speed: state.aim.speed + intent.delta }));
        break;
      case "spin": {
        const [side, height] = clampSpin(intent.side, intent.height, strikeLimits(state));
        set(setAim(state, { side, height }));
        break;
      }
      case "spin-step":
        set(setAim(state, { side: state.aim.side + intent.side, height: state.aim.height + intent.height }));
        break;
      case "pull":
        set(setUi(state, { pull: intent.power, pulling: true }));
        if (intent.power > 0) set(setAim(state, { speed: speedFromPower(intent.power, strikeLimits(state)) }));
        break;
      case "pull-release":
        set(setUi(state, { pull: 0, pulling: false }));
        if (intent.power >= MIN_SHOT_POWER) {
          set(setAim(state, { speed: speedFromPower(intent.power, strikeLimits(state)) }));
          shoot();
        }
        break;
      case "shoot":
        shoot();
        break;
      case "pick": {
        const balls = restingBalls(state);
        const ball = ballAtPoint(table, balls, intent.point);
        const pocket = ball ? null : pocketAtPoint(table, intent.point);
        const mine = myCueBall(state);
        if (ball && ball !== mine && myActions(state).includes("shoot")) set(setCall(state, { ball }));
        else if (pocket && myActions(state).includes("shoot")) set(setCall(state, { pocket }));
        else if (intent.aimIfEmpty && balls[mine]) {
          const [cx, cy] = balls[mine];
          dispatch({ type: "aim", angle: Math.atan2(intent.point[1] - cy, intent.point[0] - cx) });
        }
        break;
      }
      case "place-move": {
        const where = placement();
        const pos = clampPlacement(where, intent.point);
        const check = placementCheck(where, pos);
        set(setPlacing(state, { ball: where ? where.ball : myCueBall(state), pos, ok: check.ok, reason: check.reason }));
        break;
      }
      case "place": {
        const where = placement();
        const ball = where ? where.ball : myCueBall(state);
        const pos = clampPlacement(where, intent.point);
        const check = placementCheck(where, pos);
        if (!check.ok) {
          set(setPlacing(state, { ball, pos, ok: false, reason: check.reason }));
          if (host.illegalPlacement) host.illegalPlacement(check.reason);
          break;
        }
        set(setPlacing(state, { ball, pos, ok: true, reason: null, sent: true }));
        send(host.placeBody({ ball, x: round6(pos[0]), y: round6(pos[1]) }));
        break;
      }
      case "call-step":
        set(setCall(state, { [intent.field]: (state.call[intent.field] || 0) + intent.delta }));
        break;
      case "clear-call": {
        set(setUi(clearCall(state), { pickVia: false }));
        const preset = presetCall();
        if (preset) set(setCall(state, preset, true));
        break;
      }
      case "hover":
        canvas.style.cursor = intent.point ? "crosshair" : "";
        break;
      default:
        break;
    }
  }

  let lastDrawn = null;
  let lastDrawAt = 0;
  const { controls, pullMeter } = shell.bind({
    getState: () => state,
    dispatch,
    onResize: () => {
      lastDrawn = null;
    },
  });

  let lastHud = null;
  const loop = shell.loop({
    update: (dt, now) => {
      const next = tick(state, now);
      if (next !== state) set(next);
      if (pending && !state.steps.length) {
        const answer = pending;
        pending = null;
        setPhase("ready");
        host.judged(answer);
      }
    },
    render: (now) => {
      if (state !== lastDrawn || animating(state, now) || (now - lastDrawAt > MARCH_EVERY - 10 && marching(state, now))) {
        renderer.draw(state, now);
        lastDrawn = state;
        lastDrawAt = now;
      }
      pullMeter.update(state);
      if (state !== lastHud || animating(state, now)) {
        controls.update(state);
        lastHud = state;
      }
    },
    // Frames while a shot rolls, an answer waits for its animation or a drawing is owed; else idle.
    busy: () => state !== lastDrawn || Boolean(state && state.steps.length) || pending !== null,
    idleStep: (now) => (state && marching(state, now) ? MARCH_EVERY : IDLE_EVERY),
  });

  return {
    load,
    send,
    standBack,
    resize: shell.resize,
    start: () => {
      shell.resize();
      loop.start();
    },
    get state() {
      return state;
    },
    setState: set,
    get phase() {
      return phase;
    },
    canvas,
    renderer,
    /** Hand the canvas's pointer to another gesture (the practice table's arranging) and back. */
    pointer: shell.pointer,
    destroy: shell.destroy,
  };
}
