/**
 * Boot of the tutorial page (`/learn/`, issue 16): five positions, each played on the match page's own
 * state, renderer, controls and inputs. The server judges every try with the real engine
 * (game/selectors/tutorial.py) and answers with the same `shot` and `placed` events a match socket
 * sends, so this module only posts tries and feeds the answers to state.js's `receive`.
 *
 * It holds no words: the steps' texts and the outcomes are in the page (translated by the server), and
 * the verdict's sentence comes with the answer. Nothing is stored: "Try again" puts the step's position
 * back from the page's data.
 */

import {
  clearCall,
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
} from "./state.js";
import { createRenderer, suggestedPocket } from "./render/renderer.js";
import { createControls } from "./ui/controls.js";
import { bindPointer } from "./input/pointer.js";
import { bindKeyboard } from "./input/keyboard.js";
import { createLoop } from "./loop.js";
import { aimGuide, ballAtPoint, pocketAtPoint, wrapAngle } from "./geometry.js";
import { ballRefusal, callVerdict, clampPlacement, clampSpin, clampStrike, constraintsOf, placementCheck } from "./legality.js";

const MIN_SHOT_POWER = 0.04;
const ME = "player";

function round6(x) {
  return Math.round(x * 1e6) / 1e6;
}

function boot(root) {
  const table = JSON.parse(document.getElementById("kaiza-table").textContent);
  const steps = JSON.parse(document.getElementById("learn-steps").textContent);
  const csrf = root.querySelector(".kz-learn-csrf input[name=csrfmiddlewaretoken]").value;
  const $ = (sel) => root.querySelector(sel);
  const canvas = $(".kz-canvas");
  const stage = $(".kz-stage");
  const renderer = createRenderer(canvas, table);
  const words = (key) => {
    const el = root.querySelector(`.kz-learn-words [data-outcome="${key}"]`);
    return el ? el.textContent : "";
  };

  let state = null;
  let index = 0;
  /** "ready" (the learner may act), "trying" (a try is on its way or animating), "judged" (shown). */
  let phase = "ready";
  let placed = null;
  let pending = null;
  const passed = new Set();

  function set(next) {
    state = next;
  }

  function load(i) {
    index = i;
    const step = steps[i];
    let s = createState({ table, me: ME, role: "player" });
    s = setConnection(s, "open");
    set(receive(s, { t: "snapshot", v: 1, d: { state: step.state } }, performance.now()));
    // A call the server makes for the learner in this step (the first teaches aiming only).
    if (step.call) set(setCall(state, step.call, true));
    phase = "ready";
    placed = null;
    pending = null;
    root.dataset.step = step.id;
    root.dataset.state = "ready";
    for (const el of root.querySelectorAll(".kz-learn-text")) el.hidden = el.dataset.step !== step.id;
    for (const el of root.querySelectorAll(".kz-learn-step")) {
      el.dataset.status = passed.has(el.dataset.step) ? "done" : el.dataset.step === step.id ? "current" : "todo";
    }
    $(".kz-learn-of").textContent = `${i + 1} ${words("step")} ${steps.length}`;
    $(".kz-learn-result").hidden = true;
    $(".kz-learn-done").hidden = true;
    autoCall();
    canvas.focus({ preventScroll: true });
  }

  function showResult(outcome, verdictWords, ok) {
    const box = $(".kz-learn-result");
    box.hidden = false;
    box.dataset.outcome = outcome;
    $(".kz-learn-outcome").textContent = words(outcome) || words("refused");
    $(".kz-learn-verdict").textContent = verdictWords || "";
    $(".kz-learn-verdict").hidden = !verdictWords;
    $(".kz-learn-retry").hidden = ok;
    $(".kz-learn-next").hidden = !ok || index === steps.length - 1;
  }

  function finish() {
    root.dataset.state = "done";
    $(".kz-learn-done").hidden = false;
    const body = new URLSearchParams({ how: "finished" });
    fetch(root.dataset.doneUrl, {
      method: "POST",
      headers: { "X-CSRFToken": csrf, Accept: "application/json" },
      body,
      credentials: "same-origin",
    }).catch(() => {});
  }

  /** Post one try; the answer's event goes through `receive` like a socket event. */
  async function send(body) {
    const step = steps[index];
    phase = "trying";
    root.dataset.state = "trying";
    let answer;
    let status = 0;
    try {
      const response = await fetch(root.dataset.tryUrl.replace("STEP", step.id), {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
        body: JSON.stringify(body),
        credentials: "same-origin",
      });
      status = response.status;
      answer = await response.json();
    } catch (err) {
      answer = { ok: false, error: { code: "refused" } };
    }
    if (steps[index] !== step) return; // the learner moved on meanwhile
    if (!answer.ok) {
      phase = "ready";
      root.dataset.state = "ready";
      const code = status === 429 ? "rate_limited" : answer.error && answer.error.code;
      showResult(words(code) ? code : "refused", "", false);
      if (state.placing) set(setPlacing(state, null));
      return;
    }
    const event = answer.event;
    set(receive(state, { t: event.t, v: state.version + 1, d: event.d }, performance.now()));
    if (event.t === "placed") {
      placed = { ball: event.d.ball, x: event.d.x, y: event.d.y };
      phase = "ready";
      root.dataset.state = "ready";
      $(".kz-learn-result").hidden = true;
      autoCall();
      return;
    }
    pending = answer; // shown when the animation has ended
  }

  function judged(answer) {
    phase = "judged";
    root.dataset.state = "judged";
    // Judged: the learner reads the outcome; the cue and the controls step back until "Try again".
    set({ ...state, role: "spectator" });
    const step = steps[index];
    if (answer.passed) {
      passed.add(step.id);
      const li = root.querySelector(`.kz-learn-step[data-step="${step.id}"]`);
      if (li) li.dataset.status = "done";
    }
    showResult(answer.outcome, answer.words, answer.passed);
    if (answer.passed && passed.size === steps.length) finish();
  }

  function autoCall() {
    if (!state || state.callManual || steps[index].call || !myActions(state).includes("shoot")) return;
    const balls = restingBalls(state);
    const id = myCueBall(state);
    const guide = balls[id] ? aimGuide(table, balls, id, state.aim.angle) : null;
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
    const verdict = callVerdict(constraintsOf(state.shown, state.me), state.call);
    if (!verdict.ok) {
      showResult("call_first", verdict.why, false);
      return;
    }
    const body = { shoot: { call: { ...state.call }, strike: strike() } };
    if (placed) body.place = placed;
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
        set(setUi(state, { pull: intent.power }));
        if (intent.power > 0) set(setAim(state, { speed: speedFromPower(intent.power, strikeLimits(state)) }));
        break;
      case "pull-release":
        set(setUi(state, { pull: 0 }));
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
          showResult("illegal_placement", "", false);
          break;
        }
        set(setPlacing(state, { ball, pos, ok: true, reason: null, sent: true }));
        send({ place: { ball, x: round6(pos[0]), y: round6(pos[1]) } });
        break;
      }
      case "call-step":
        set(setCall(state, { [intent.field]: (state.call[intent.field] || 0) + intent.delta }));
        break;
      case "clear-call":
        set(setUi(clearCall(state), { pickVia: false }));
        if (steps[index].call) set(setCall(state, steps[index].call, true));
        break;
      case "hover":
        canvas.style.cursor = intent.point ? "crosshair" : "";
        break;
      default:
        break;
    }
  }

  const controls = createControls(root, dispatch);
  const unbindPointer = bindPointer(canvas, { getState: () => state, getTransform: () => renderer.transform(), dispatch });
  const unbindKeys = bindKeyboard(document, dispatch);
  const onClick = (event) => {
    const target = event.target;
    if (target.closest(".kz-learn-retry")) load(index);
    else if (target.closest(".kz-learn-next")) load(Math.min(index + 1, steps.length - 1));
    else if (target.closest(".kz-learn-again")) {
      passed.clear();
      load(0);
    } else {
      const li = target.closest(".kz-learn-step");
      if (li) load(steps.findIndex((s) => s.id === li.dataset.step));
    }
  };
  root.addEventListener("click", onClick);

  function resize() {
    const rect = stage.getBoundingClientRect();
    canvas.style.width = `${rect.width}px`;
    canvas.style.height = `${rect.height}px`;
    const tf = renderer.resize(rect.width, rect.height, window.devicePixelRatio || 1);
    canvas.dataset.transform = JSON.stringify({ a: tf.a, b: tf.b, c: tf.c, d: tf.d, e: tf.e, f: tf.f });
  }
  const observer = new ResizeObserver(resize);
  observer.observe(stage);
  load(0);
  resize();

  let lastHud = null;
  const loop = createLoop({
    update: (dt, now) => {
      const next = tick(state, now);
      if (next !== state) set(next);
      if (pending && !state.steps.length) {
        const answer = pending;
        pending = null;
        judged(answer);
      }
    },
    render: (now) => {
      renderer.draw(state, now);
      if (state !== lastHud || animating(state, now)) {
        controls.update(state);
        lastHud = state;
      }
    },
  });
  loop.start();

  return () => {
    loop.stop();
    observer.disconnect();
    unbindPointer();
    unbindKeys();
    controls.unbind();
    root.removeEventListener("click", onClick);
  };
}

const root = document.getElementById("kaiza-learn");
if (root) {
  const stop = boot(root);
  window.addEventListener("pagehide", stop, { once: true });
}
