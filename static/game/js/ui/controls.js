// @ts-check
/**
 * The player's controls beside the table: the call, power, spin, and the action buttons. DOM events
 * become intents for main.js; `update` mirrors the state into the controls. Listeners unbind.
 */

import { myActions, powerFromSpeed, strikeLimits } from "../state.js";
import { ballRefusal, callVerdict, constraintsOf, hatchedWhy } from "../legality.js";
import { choiceWords } from "./phase.js";
import { gettext, interpolate } from "../i18n.js";
import { ballName, describeCall } from "./words.js";
import { setAttr, setHidden, setText } from "./dom.js";

/** The aim direction in degrees, 0 … 360, to 0.01° (the wire keeps full precision). */
export function angleDegrees(angle) {
  const deg = (((angle * 180) / Math.PI) % 360 + 360) % 360;
  return `${(Math.round(deg * 100) / 100 % 360).toFixed(2)}°`;
}

function on(el, type, fn, opts) {
  el.addEventListener(type, fn, opts);
  return () => el.removeEventListener(type, fn, opts);
}

/**
 * @param {HTMLElement} root
 * @param {(intent: object) => void} dispatch
 */
export function createControls(root, dispatch) {
  const $ = (/** @type {string} */ sel) => /** @type {HTMLElement} */ (root.querySelector(sel));
  const panel = $(".kz-controls");
  const power = /** @type {HTMLInputElement} */ ($(".kz-power-input"));
  const speed = $(".kz-speed");
  const pad = $(".kz-spin-pad");
  const tip = $(".kz-spin-tip");
  const spinLabel = $(".kz-spin-label");
  const callText = $(".kz-call-text");
  const shoot = /** @type {HTMLButtonElement} */ ($(".kz-shoot"));
  const lag = $(".kz-lag");
  const take = $(".kz-take-break");
  const pass = $(".kz-pass-break");
  const resign = $(".kz-resign");
  const abort = $(".kz-abort");
  const rematch = $(".kz-rematch");
  const angle = $(".kz-angle");
  const fine = $(".kz-fine");
  const via = $(".kz-via");
  const hint = $(".kz-hint");
  const why = $(".kz-why");
  const spinLimit = $(".kz-spin-limit");
  const outputs = [.../** @type {NodeListOf<HTMLOutputElement>} */ (root.querySelectorAll("output[data-field]"))];
  const unbind = [];
  let spinDrag = false;

  // The hints speak the device's words (tap or click; keys only with a keyboard): the pointer that
  // pressed last decides, before any the screen's main pointer.
  if (!root.dataset.pointer) root.dataset.pointer = coarsePointer() ? "touch" : "mouse";
  unbind.push(on(root, "pointerdown", (e) => (root.dataset.pointer = e.pointerType === "mouse" ? "mouse" : "touch"), true));

  unbind.push(on(power, "input", () => dispatch({ type: "power", power: Number(power.value) / 1000 })));
  unbind.push(on(shoot, "click", () => dispatch({ type: "shoot" })));
  unbind.push(on(lag, "click", () => dispatch({ type: "shoot" })));
  unbind.push(on(take, "click", () => dispatch({ type: "choose-break", take: true })));
  unbind.push(on(pass, "click", () => dispatch({ type: "choose-break", take: false })));
  unbind.push(on(resign, "click", () => dispatch({ type: "resign" })));
  unbind.push(on(abort, "click", () => dispatch({ type: "abort" })));
  unbind.push(on(rematch, "click", () => dispatch({ type: "rematch" })));
  unbind.push(on(via, "click", () => dispatch({ type: "via-toggle" })));
  unbind.push(on($(".kz-clear-call"), "click", () => dispatch({ type: "clear-call" })));
  const copy = $(".kz-copy");
  if (copy) {
    unbind.push(
      on(copy, "click", () => {
        const url = /** @type {HTMLInputElement} */ ($(".kz-invite-url"));
        url.select();
        const done = () => (copy.textContent = gettext("Copied"));
        if (navigator.clipboard) navigator.clipboard.writeText(url.value).then(done, () => document.execCommand("copy"));
        else if (document.execCommand("copy")) done();
      }),
    );
  }
  for (const step of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll(".kz-step"))) {
    unbind.push(
      on(step, "click", (e) => {
        e.preventDefault();
        dispatch({ type: "call-step", field: step.dataset.field, delta: Number(step.dataset.delta) });
      }),
    );
  }

  function spinFromEvent(event) {
    const rect = pad.getBoundingClientRect();
    const x = ((event.clientX - rect.left) / rect.width) * 2.2 - 1.1;
    const y = ((event.clientY - rect.top) / rect.height) * 2.2 - 1.1;
    dispatch({ type: "spin", side: x, height: -y });
  }
  unbind.push(
    on(pad, "pointerdown", (e) => {
      spinDrag = true;
      pad.setPointerCapture?.(e.pointerId);
      spinFromEvent(e);
    }),
  );
  unbind.push(on(pad, "pointermove", (e) => spinDrag && spinFromEvent(e)));
  unbind.push(on(pad, "pointerup", () => (spinDrag = false)));
  unbind.push(on(pad, "dblclick", () => dispatch({ type: "spin", side: 0, height: 0 })));
  unbind.push(
    on(pad, "keydown", (e) => {
      const k = { ArrowLeft: [-0.1, 0], ArrowRight: [0.1, 0], ArrowUp: [0, 0.1], ArrowDown: [0, -0.1] }[e.key];
      if (!k) return;
      e.preventDefault();
      e.stopPropagation();
      dispatch({ type: "spin-step", side: k[0], height: k[1] });
    }),
  );

  function update(state) {
    const isPlayer = state.role === "player";
    const game = state.shown;
    setHidden(panel, !isPlayer);
    setHidden(resign, !isPlayer || !game || game.phase === "finished");
    // Abort only where the server says it is allowed (before the first shot of the break).
    setHidden(abort, !isPlayer || !game || !mayAbort(state));
    if (!isPlayer) return;
    const angleText = angleDegrees(state.aim.angle);
    setText(angle, angleText);
    setHidden(fine, !state.ui.fine);
    const actions = myActions(state);
    const shooting = actions.includes("shoot");
    const lagging = actions.includes("lag");
    const choosing = actions.includes("choose_break");
    const placing = actions.includes("place");
    setAttr(root, "data-mode", choosing ? "choose" : placing ? "place" : shooting ? "shoot" : lagging ? "lag" : "wait");

    const limits = strikeLimits(state);
    const p = Math.round(powerFromSpeed(state.aim.speed, limits) * 1000);
    // The dashed circle is the server's tip-offset limit (constraints.strike_limits.max_tip_offset).
    const r = limits ? String(limits.max_tip_offset) : "0";
    if (spinLimit.getAttribute("r") !== r) spinLimit.setAttribute("r", r);
    if (document.activeElement !== power && Number(power.value) !== p) power.value = String(p);
    const text = interpolate(gettext("%(speed)s m/s"), { speed: state.aim.speed.toFixed(1) });
    setText(speed, text);
    const fill = `${(p / 10).toFixed(1)}%`;
    if (power.style.getPropertyValue("--kz-fill") !== fill) power.style.setProperty("--kz-fill", fill);

    setAttr(tip, "cx", state.aim.side.toFixed(3));
    setAttr(tip, "cy", (-state.aim.height).toFixed(3));
    setText(spinLabel, spinWords(state.aim.side, state.aim.height));

    const callComplete = Boolean(state.call.ball && state.call.pocket);
    const touch = root.dataset.pointer === "touch";
    const callLine = describeCall(state.call);
    // Legality is the server's (state.constraints): a forbidden call is struck through and says why.
    const mine = constraintsOf(game, state.me);
    const verdict = callComplete ? callVerdict(mine, state.call) : { ok: true, why: ballRefusal(mine, state.call.ball) };
    const legal = verdict.ok && !verdict.why;
    const callTextNow = callLine
      ? legal
        ? callLine
        : interpolate(gettext("%(call)s: not allowed"), { call: callLine })
      : shooting
        ? touch
          ? gettext("Tap a ball, then a pocket")
          : gettext("Click a ball, then a pocket")
        : "—";
    setText(callText, callTextNow);
    setAttr(callText, "data-auto", state.callManual ? "no" : "yes");
    setAttr(callText, "data-legal", legal ? "yes" : "no");
    const whyText = (shooting || placing) ? (state.ui.why || (legal ? "" : verdict.why || "")) : "";
    setText(why, whyText);
    setHidden(why, !whyText);
    for (const out of outputs) setText(out, String(state.call[out.dataset.field] || 0));
    setAttr(via, "aria-pressed", state.ui.pickVia ? "true" : "false");
    setText(
      via,
      state.call.via
        ? interpolate(gettext("Via %(ball)s"), { ball: ballName(state.call.via) })
        : state.ui.pickVia
          ? gettext("Pick a ball…")
          : gettext("Via ball…"),
    );

    // No disabled Shoot while a ball is being placed: Shoot comes with the shot.
    setHidden(shoot, placing || (!shooting && (lagging || choosing)));
    // A call the server forbids is not sent: Shoot stays off, and the reason is written under the call.
    const off = !shooting || !callComplete || !legal;
    if (shoot.disabled !== off) shoot.disabled = off;
    setAttr(shoot, "title", legal ? "" : verdict.why || "");
    setHidden(lag, !lagging);
    setHidden(take, !choosing);
    setHidden(pass, !choosing);
    const words = choiceWords(game);
    setText(take, words.take);
    setText(pass, words.pass);
    setHidden($(".kz-call"), !(shooting || (!lagging && !choosing && !placing)));
    setHidden($(".kz-strike"), choosing || placing);


    let h = "";
    if (state.steps.length) h = "";
    else if (lagging) h = lagHint(mine, touch, root.dataset.orientation === "portrait");
    else if (choosing) h = words.hint;
    // The opening placement has no call card, so its reason is written in the hint.
    else if (placing && !shooting && state.ui.why) h = state.ui.why;
    else if (placing) h = game && game.phase === "opening_placement"
      ? gettext("Place white •• beyond the centre, outside the red corridors.")
      : root.dataset.orientation === "portrait"
        ? gettext("Ball in hand: place your cue ball in the home (below the line).")
        : gettext("Ball in hand: place your cue ball in the home (left of the line).");
    else if (shooting && !legal) h = gettext("This call is not allowed now: pick another ball or pocket.");
    else if (shooting && touch) h = callComplete
      ? gettext("Drag near the ball to turn, far from it to fine-tune · hold the white (or press the cue's butt) and pull back to shoot")
      : gettext("Call your shot: tap the object ball, then a pocket.");
    else if (shooting) h = callComplete
      ? gettext("Drag to aim · hold the white (or press the cue's butt) and pull back, or press Space, to shoot · ←/→ 0.1° · Shift: fine 0.1 mrad · Ctrl: 2°")
      : gettext("Call your shot: click the object ball, then a pocket (keys: B for the ball, P for the pocket).");
    // Choosing what to call: why the hatched balls may not be (the server's reasons), in the hint's place.
    if (shooting && legal && !state.call.ball && !state.steps.length) h = hatchedWhy(mine, game && game.balls) || h;
    setText(hint, h);
  }

  return {
    update,
    unbind() {
      unbind.forEach((f) => f());
    },
  };
}

/** Does the screen's main pointer lack precision (a finger), before any pointer has pressed? */
function coarsePointer() {
  return Boolean(globalThis.matchMedia && globalThis.matchMedia("(pointer: coarse)").matches);
}

/**
 * What a good lag is and what it needs (K-3.1), with the server's suggested power (constraints.lag);
 * how to play it in the device's words (`touch`: a finger, no keys). `upright`: the table is drawn
 * portrait, a phone's dock under it, where every line of hint is taken from the table's height: the
 * same facts in fewer words.
 */
export function lagHint(mine, touch = false, upright = false) {
  const speed = mine && mine.lag && typeof mine.lag.speed === "number" ? mine.lag.speed : null;
  const at = speed === null ? null : { speed: speed.toFixed(1) };
  if (upright) {
    const what = gettext(
      "Lag: to the far cushion and back; nearest the home cushion wins, to the millimetre. A long cushion, a ball or the centre line loses.",
    );
    const power = at && interpolate(gettext("Straight, about %(speed)s m/s: harder bounces back out."), at);
    return [what, power, lagHow(touch)].filter(Boolean).join(" ");
  }
  const what = gettext(
    "Lag: to the far cushion and back; the white that stops nearer the home cushion wins, to the millimetre. A long cushion, a ball or the centre line loses.",
  );
  const power =
    at &&
    interpolate(
      gettext(
        "A good lag is straight and just soft enough to stop short of the home cushion: about %(speed)s m/s. Harder, it bounces off the home cushion and rolls back out.",
      ),
      at,
    );
  return [what, power, lagHow(touch)].filter(Boolean).join(" ");
}

function lagHow(touch) {
  return touch
    ? gettext("Drag near the ball to turn, far from it to fine-tune; hold the white and pull back.")
    : gettext("Hold the white and pull back, or press Space.");
}

function spinWords(side, height) {
  if (Math.hypot(side, height) < 0.05) return gettext("Centre");
  const v = height > 0.05 ? gettext("top") : height < -0.05 ? gettext("draw") : "";
  const s = side > 0.05 ? gettext("right") : side < -0.05 ? gettext("left") : "";
  return interpolate(gettext("%(spin)s spin"), { spin: [v, s].filter(Boolean).join(" + ") });
}

/**
 * Does the server allow the players to abort now (before the first shot of the break)? The state says
 * so in `abortable` (game/matches/services.py); the client never decides it from the phase itself.
 */
export function mayAbort(state) {
  const game = state.shown;
  return Boolean(game && game.phase !== "finished" && game.abortable === true);
}
