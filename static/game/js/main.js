/**
 * Boot of the match page: read the page, create the state, the renderer, the HUD, the inputs and the
 * socket, and run the loop. This module owns the one mutable reference to the current state; every
 * change goes through a pure function of state.js.
 */

import { createNet, socketUrl } from "./net.js";
import {
  clearCall,
  clearError,
  createState,
  markGapAsked,
  markSent,
  myActions,
  myCueBall,
  receive,
  restingBalls,
  sending,
  setAim,
  setCall,
  setConnection,
  setLatency,
  setPlacing,
  setUi,
  speedFromPower,
  strikeLimits,
  tick,
  aimGliding,
  animating,
  skippable,
  skipSteps,
  DEFAULT_AIM,
} from "./state.js";
import { createRenderer } from "./render/renderer.js";
import { createHud } from "./ui/hud.js";
import { createControls } from "./ui/controls.js";
import { bindPointer } from "./input/pointer.js";
import { bindKeyboard, cycleChoice } from "./input/keyboard.js";
import { createLoop } from "./loop.js";
import { aimGuide, ballAtPoint, pocketAtPoint, wrapAngle } from "./geometry.js";
import { ballRefusal, callVerdict, legalPockets, pocketLegality, clampPlacement, clampSpin, clampStrike, constraintsOf, placementCheck } from "./legality.js";
import { suggestedPocket } from "./render/renderer.js";
import { gettext, setPortrait } from "./i18n.js";
import { createChat } from "./ui/chat.js";
import { createSound } from "./ui/sound.js";
import { createLastShot } from "./ui/lastshot.js";
import { nearestBall, pickRadius, placementStart, placementStep, stepPoint } from "./input/reach.js";
import { bindKeepStrike } from "./ui/access.js";
import { createLoupe } from "./render/loupe.js";
import { MIN_SHOT_POWER, pressOn } from "./input/gestures.js";
import { createPullMeter } from "./ui/pullmeter.js";
import { bindSheet } from "./ui/sheet.js";
import { pocketPlaces } from "./transform.js";
import { setPocketPlaces } from "./ui/words.js";

const PLACEMENT_WORDS = {
  off_cloth: () => gettext("The ball must lie fully on the cloth."),
  outside_home: () => gettext("Place the ball in the home: on or behind the home line."),
  touching: () => gettext("The ball may not touch another ball."),
  not_now: () => gettext("You may not place a ball now."),
  corridor: () => gettext("Not in the corridor between the centre spot and a foot pocket (K-3.3)."),
  not_past_centre: () => gettext("Place white •• beyond the centre of the table (K-3.3)."),
};

function boot(root) {
  const table = JSON.parse(document.getElementById("kaiza-table").textContent);
  const page = root.dataset;
  // A test server's faster shots (settings.KAIZA_ANIMATION_RATE); absent, shots roll in real time.
  const rate = Number(page.animationRate) > 0 ? Number(page.animationRate) : 1;
  let state = createState({ table, matchId: page.matchId, me: page.me, role: page.role || "spectator", rate });
  const clockNow = () => performance.now();
  const epochNow = () => Date.now() / 1000;

  const canvas = root.querySelector(".kz-canvas");
  const stage = root.querySelector(".kz-stage");
  const renderer = createRenderer(canvas, table);
  const hud = createHud(root);
  const sound = createSound(root, table);
  const lastShot = createLastShot(root, { sound, clock: clockNow });

  function set(next) {
    state = next;
  }

  let chat = null;
  const net = createNet({
    url: socketUrl(page.wsPath, window.location),
    onMessage: (msg) => {
      sound.heard(msg, state.version !== null);
      lastShot.heard(msg);
      // Our own shot answered: only now do spin and power go back (a refusal keeps them, issue 25).
      const ours = msg.t === "shot" && msg.d && msg.d.ack != null && msg.d.ack in state.sent;
      set(receive(state, msg, clockNow(), epochNow()));
      if (ours && !keepStrike()) set(setAim(state, { speed: DEFAULT_AIM.speed, side: 0, height: 0 }));
      if (chat) chat.receive(msg);
      if (msg.t === "snapshot" || msg.t === "shot") autoCall();
      // My own rematch offer: the new match is mine to open.
      if (msg.t === "rematch" && msg.d && msg.d.from === state.me && msg.d.url) window.location.assign(msg.d.url);
    },
    onStatus: (status, info) => set(setConnection(state, status, info && info.refusal)),
    onLatency: (ms) => set(setLatency(state, ms)),
    getVersion: () => state.version,
  });

  const chatRoot = root.querySelector(".kz-chat");
  if (chatRoot) chat = createChat(chatRoot, { send: (t, d) => net.send(t, d), me: page.me });

  function sendAim() {
    const actions = myActions(state);
    // Not my turn, or my shot is on its way: an aim now would only be refused (issue 25).
    if ((!actions.includes("shoot") && !actions.includes("lag")) || sending(state)) return;
    const { angle, speed, side, height } = state.aim;
    net.sendAim({ angle: wrapAngle(angle), speed, side, height });
  }

  /** Suggest the call from the aim line unless the player chose it. */
  function autoCall() {
    if (state.callManual || !myActions(state).includes("shoot")) return;
    const balls = restingBalls(state);
    const id = myCueBall(state);
    const guide = balls[id] ? aimGuide(table, balls, id, state.aim.angle) : null;
    if (!guide || !guide.hit) {
      if (state.call.ball) set(setCall(state, { ball: null, pocket: null }, false));
      return;
    }
    // Only what the server allows is suggested: a ball it forbids to call is not, nor a pocket it forbids.
    const mine = constraintsOf(state.shown, state.me);
    const ball = ballRefusal(mine, guide.hit.ball) ? null : guide.hit.ball;
    const target = ball ? suggestedPocket(table, mine, balls, id, guide, state.call) : null;
    const pocket = target ? target.pocket : null;
    if (state.call.ball !== ball || state.call.pocket !== pocket) {
      set(setCall(state, { ball, pocket }, false));
    }
  }

  function strike() {
    const { angle, speed, side, height } = state.aim;
    const rounded = { angle: wrapAngle(angle), speed: Math.round(speed * 1000) / 1000, side, height };
    return clampStrike(rounded, strikeLimits(state));
  }

  function play(t, d) {
    const ack = net.send(t, d);
    if (ack !== null) set(markSent(state, ack, t));
  }

  function shoot() {
    const actions = myActions(state);
    if (actions.includes("lag")) {
      play("lag", { strike: strike() });
    } else if (actions.includes("shoot")) {
      const { call } = state;
      // The server's constraints decide; a call they forbid is never sent, and the player reads why.
      const verdict = callVerdict(constraintsOf(state.shown, state.me), call);
      if (!verdict.ok) {
        set({ ...state, error: { code: "call_not_allowed", message: verdict.why, at: clockNow() } });
        return;
      }
      play("shoot", { call: { ...call }, strike: strike() });
    }
    set(setUi(state, { pull: 0 }));
    // Spin and power go back once the shot is played (onMessage), not here: a refused one keeps them.
  }

  /** The lag round I owe a strike in ("lag:1"), or null: each new one starts at the server's lag speed. */
  function lagRound() {
    const game = state.shown;
    const mine = constraintsOf(game, state.me);
    if (!mine || !mine.lag || !(mine.actions || []).includes("lag")) return null;
    return `${game.phase}:${(game.lag && game.lag.round) || 0}`;
  }

  function placement() {
    const mine = constraintsOf(state.shown, state.me);
    return mine ? mine.placement : null;
  }

  /** An arrow key or Enter while placing: the ball moves (1 mm, Shift 10 mm) or is placed (issue 17). */
  function placementKey(intent) {
    const where = placement();
    const ball = where ? where.ball : myCueBall(state);
    const from = placementStart(where, (state.placing && state.placing.pos) || restingBalls(state)[ball] || null);
    if (!from) return null;
    if (intent.type === "shoot") return { type: "place", point: from };
    const step = placementStep(intent.key, intent.shift, renderer.transform());
    return step ? { type: "place-move", point: stepPoint(from, step) } : null;
  }

  /**
   * Skip the running shot (issue 25 item 15): this page snaps to the server's state it already has;
   * the shot's sounds still to come are stopped, and the next input is possible at once. Nothing is
   * sent, so the other pages go on animating.
   */
  function skip() {
    if (!skippable(state)) return;
    sound.hush();
    set(skipSteps(state));
    autoCall();
  }

  function dispatch(intent) {
    if (intent.key && myActions(state).includes("place")) {
      const keyed = placementKey(intent);
      if (keyed) dispatch(keyed);
      return;
    }
    switch (intent.type) {
      case "aim":
        set(setAim(state, { angle: intent.angle }));
        autoCall();
        sendAim();
        break;
      case "turn":
        set(setAim(state, { angle: wrapAngle(state.aim.angle + intent.delta) }));
        if (Boolean(intent.fine) !== Boolean(state.ui.fine)) set(setUi(state, { fine: Boolean(intent.fine) }));
        autoCall();
        sendAim();
        break;
      case "fine-end":
        if (state.ui.fine) set(setUi(state, { fine: false }));
        break;
      case "abort":
        if (window.confirm(gettext("Abort this match? Nobody wins and no rating changes."))) play("abort", {});
        break;
      case "rematch":
        play("rematch", {});
        break;
      case "power":
        set(setAim(state, { speed: speedFromPower(intent.power, strikeLimits(state)) }));
        sendAim();
        break;
      case "speed-step":
        set(setAim(state, { speed: state.aim.speed + intent.delta }));
        sendAim();
        break;
      case "spin": {
        const [side, height] = clampSpin(intent.side, intent.height, strikeLimits(state));
        set(setAim(state, { side, height }));
        sendAim();
        break;
      }
      case "spin-step":
        set(setAim(state, { side: state.aim.side + intent.side, height: state.aim.height + intent.height }));
        sendAim();
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
        // A ball hit squarely, else a pocket, else the nearest ball within a finger's reach (issue 17).
        const tf = renderer.transform();
        const reach = tf ? pickRadius(tf.scale, table.ball_radius) : table.ball_radius;
        const hit = ballAtPoint(table, balls, intent.point);
        const pocket = hit ? null : pocketAtPoint(table, intent.point);
        const ball = hit || (pocket ? null : nearestBall(balls, intent.point, reach));
        const mine = myCueBall(state);
        if (state.ui.pickVia && ball && ball !== mine) {
          set(setUi(setCall(state, { via: ball === state.call.via ? null : ball }), { pickVia: false }));
        } else if (ball && ball !== mine && myActions(state).includes("shoot")) {
          set(setCall(state, { ball }));
        } else if (pocket && myActions(state).includes("shoot")) {
          set(setCall(state, { pocket }));
        } else if (intent.aimIfEmpty && balls[mine]) {
          const [cx, cy] = balls[mine];
          dispatch({ type: "aim", angle: Math.atan2(intent.point[1] - cy, intent.point[0] - cx) });
        }
        break;
      }
      case "place-move": {
        const where = placement();
        const ball = where ? where.ball : myCueBall(state);
        const pos = clampPlacement(where, intent.point);
        const check = placementCheck(where, pos);
        set(setPlacing(state, { ball, pos, ok: check.ok, reason: check.reason }));
        // The reason in words too, under the call, for whoever cannot see the red ring (issue 17).
        const words = check.ok ? null : PLACEMENT_WORDS[check.reason] ? PLACEMENT_WORDS[check.reason]() : null;
        if (words !== (state.ui.why || null)) set(setUi(state, { why: words }));
        break;
      }
      case "place": {
        const where = placement();
        const ball = where ? where.ball : myCueBall(state);
        const pos = clampPlacement(where, intent.point);
        const check = placementCheck(where, pos);
        if (!check.ok) {
          set({ ...state, error: { code: check.reason, message: PLACEMENT_WORDS[check.reason] ? PLACEMENT_WORDS[check.reason]() : check.reason, at: clockNow() } });
          set(setPlacing(state, { ball, pos, ok: false, reason: check.reason }));
          break;
        }
        set(setPlacing(state, { ball, pos, ok: true, reason: null, sent: true }));
        play("place", { ball, x: round6(pos[0]), y: round6(pos[1]) });
        break;
      }
      case "choose-break":
        play("choose_break", { take: intent.take });
        break;
      case "resign":
        if (window.confirm(gettext("Resign this match?"))) play("resign", {});
        break;
      case "call-step":
        set(setCall(state, { [intent.field]: (state.call[intent.field] || 0) + intent.delta }));
        break;
      case "call-cycle": {
        if (!myActions(state).includes("shoot")) break;
        // Only what the server allows: its callable balls, and the pockets it allows for the ball.
        const mine = constraintsOf(state.shown, state.me);
        if (intent.field === "ball") {
          const options = Object.keys((mine && mine.calls) || {}).sort().filter((b) => !ballRefusal(mine, b));
          const ball = cycleChoice(options, state.call.ball, intent.dir);
          const pockets = ball ? legalPockets(mine, ball) : [];
          if (ball) set(setCall(state, { ball, pocket: pockets.includes(state.call.pocket) ? state.call.pocket : pockets[0] || null }));
        } else if (state.call.ball) {
          const pocket = cycleChoice(legalPockets(mine, state.call.ball), state.call.pocket, intent.dir);
          if (pocket) set(setCall(state, { pocket }));
        }
        break;
      }
      case "clear-call":
        if (skippable(state)) dispatch({ type: "skip" });
        else set(setUi(clearCall(state), { pickVia: false }));
        break;
      case "skip":
        skip();
        break;
      case "via-toggle":
        if (state.call.via) set(setCall(state, { via: null }));
        else set(setUi(state, { pickVia: !state.ui.pickVia }));
        break;
      case "hover": {
        canvas.style.cursor = hoverCursor(intent.point);
        const why = hoverRefusal(intent.point);
        if (why !== (state.ui.why || null)) set(setUi(state, { why }));
        break;
      }
      default:
        break;
    }
  }

  /** The server's reason against the ball or pocket under the pointer, or null (greyed ones only). */
  function hoverRefusal(point) {
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

  function hoverCursor(point) {
    if (!point) return "";
    const actions = myActions(state);
    if (actions.includes("place")) return "grab";
    if (!actions.includes("shoot") && !actions.includes("lag")) return "";
    const balls = restingBalls(state);
    const ball = ballAtPoint(table, balls, point);
    const cue = balls[myCueBall(state)];
    // The butt pulls the cue back at once: it shows it can be grabbed (issue 25).
    if (ball === myCueBall(state) || (cue && pressOn(cue, state.aim.angle, point, table.ball_radius) === "butt")) return "grab";
    if (ball || pocketAtPoint(table, point)) return "pointer";
    return "crosshair";
  }

  const controls = createControls(root, dispatch);
  const keepStrike = bindKeepStrike(root);
  bindSheet(root);
  const loupe = createLoupe(stage, canvas);
  const pullMeter = createPullMeter(stage);
  const skipButton = root.querySelector(".kz-skip");
  const onSkip = () => dispatch({ type: "skip" });
  if (skipButton) skipButton.addEventListener("click", onSkip);
  const unbindPointer = bindPointer(canvas, {
    getState: () => state,
    getTransform: () => renderer.transform(),
    dispatch,
  });
  const unbindKeys = bindKeyboard(document, dispatch);

  let lastDrawn = null;
  let lastDrawAt = 0;
  let lastHudAt = 0;
  let lastHudState = null;
  let wasMyTurn = false;
  let lastLagRound = null;

  function resize() {
    const rect = stage.getBoundingClientRect();
    const tf = renderer.resize(rect.width, rect.height, window.devicePixelRatio || 1);
    if (!tf) return; // an empty stage: the last drawing stays
    canvas.style.width = `${rect.width}px`;
    canvas.style.height = `${rect.height}px`;
    // World -> CSS pixel matrix, published for browser tests and tools (no globals).
    canvas.dataset.transform = JSON.stringify({ a: tf.a, b: tf.b, c: tf.c, d: tf.d, e: tf.e, f: tf.f });
    // The tap reach in CSS px and the drawn orientation, for the hint words and for tests.
    canvas.dataset.pickRadiusPx = (pickRadius(tf.scale, table.ball_radius) * tf.scale).toFixed(1);
    root.dataset.orientation = tf.portrait ? "portrait" : "landscape";
    setPocketPlaces(pocketPlaces(tf, table));
    setPortrait(tf.portrait);
    lastDrawn = null;
  }
  const observer = new ResizeObserver(resize);
  observer.observe(stage);
  resize();
  const loop = createLoop({
    update: (dt, now) => {
      const next = tick(state, now);
      if (next !== state) {
        set(next);
        autoCall();
      }
      sound.follow(state, now);
      if (state.gap && (!state.gap.asked || now - (state.gap.askedAt || 0) > 3000)) {
        if (net.requestCatchUp(state.gap.from)) set(markGapAsked(state, now));
      }
      if (state.error && now - state.error.at > 8000) set(clearError(state));
      const round = lagRound();
      if (round && round !== lastLagRound) set(setAim(state, { speed: constraintsOf(state.shown, state.me).lag.speed }));
      lastLagRound = round;
      const myTurn = myActions(state).length > 0;
      if (myTurn && !wasMyTurn) canvas.focus({ preventScroll: true });
      wasMyTurn = myTurn;
    },
    render: (now) => {
      const replayed = lastShot.view(state, now);
      if (replayed) {
        renderer.draw(replayed.state, replayed.now);
        lastDrawn = null;
      } else if (state !== lastDrawn || animating(state, now) || aimGliding(state, now) || now - lastDrawAt > 120) {
        renderer.draw(state, now);
        loupe.draw(myActions(state).includes("place") ? state.placing : null, renderer.transform());
        // What the placement looks like (legal or not, and where), for tests and assistive tools.
        canvas.dataset.placement = state.placing ? (state.placing.ok ? "legal" : "illegal") : "";
        canvas.dataset.placingPos = state.placing && state.placing.pos ? JSON.stringify(state.placing.pos) : "";
        lastDrawn = state;
        lastDrawAt = now;
      }
      pullMeter.update(state);
      if (skipButton && skipButton.hidden === skippable(state)) skipButton.hidden = !skippable(state);
      if (state !== lastHudState || now - lastHudAt > 250) {
        hud.update(state, now, epochNow());
        controls.update(state);
        lastShot.update(state);
        lastHudState = state;
        lastHudAt = now;
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
    if (skipButton) skipButton.removeEventListener("click", onSkip);
    lastShot.unbind();
    sound.close();
    net.close();
  };
}

function round6(x) {
  return Math.round(x * 1e6) / 1e6;
}

const root = document.getElementById("kaiza-match");
if (root) {
  const stop = boot(root);
  window.addEventListener("pagehide", stop, { once: true });
}
