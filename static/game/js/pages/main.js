// @ts-check
/**
 * Boot of the match page: read the page, create the state, the renderer, the HUD, the inputs and the
 * socket, and run the loop. This module owns the one mutable reference to the current state; every
 * change goes through a pure function of state.js, and every intent of the player through intents.js
 * (main.js only carries out the effects it returns: the socket, a confirm dialog, the cursor).
 */

import { createNet, socketUrl } from "../net.js";
import { autoCall, intend } from "../intents.js";
import {
  clearError,
  animationRate,
  createState,
  markGapAsked,
  markSent,
  myActions,
  receive,
  setAim,
  setConnection,
  setLatency,
  tick,
  aimGliding,
  animating,
  skippable,
  DEFAULT_AIM,
} from "../state.js";
import { MARCH_EVERY, marching } from "../render/renderer.js";
import { createHud } from "../ui/hud.js";
import { createEndAnalysis } from "../ui/endanalysis.js";
import { constraintsOf } from "../legality.js";
import { setPortrait } from "../i18n.js";
import { createChat } from "../ui/chat.js";
import { createSound } from "../ui/sound.js";
import { createTurnSignal } from "../ui/yourturn.js";
import { createLastShot } from "../ui/lastshot.js";
import { pickRadius } from "../input/reach.js";
import { bindKeepStrike } from "../ui/access.js";
import { createLoupe } from "../render/loupe.js";
import { bindSheet } from "../ui/sheet.js";
import { createBanners } from "../ui/banners.js";
import { pocketPlaces } from "../transform.js";
import { setPocketPlaces } from "../ui/words.js";
import { createTableShell } from "./shell.js";

/** How often the HUD (the clocks, the connection, the phase line) is brought up to date, in ms. The
 * checks below allow 10 ms of slack: a frame's time is its start, so a tick on pace can read a little
 * less than the pace since the last drawing, and would skip a turn. */
const HUD_EVERY = 250;

function boot(root) {
  const table = JSON.parse(document.getElementById("kaiza-table").textContent);
  const page = root.dataset;
  const rate = animationRate(page);
  let state = createState({ table, matchId: page.matchId, me: page.me, role: page.role || "spectator", rate });
  const clockNow = () => performance.now();
  const epochNow = () => Date.now() / 1000;

  const shell = createTableShell(root, table);
  const { canvas, stage, renderer } = shell;
  const hud = createHud(root);
  const sound = createSound(root, table);
  const lastShot = createLastShot(root, { sound, clock: clockNow });
  // "Your turn" in the tab's title (and a chime and a notification, if asked for) while the page is hidden.
  const turnSignal = createTurnSignal(root, { chime: () => sound.chime() });
  // The end card's "Analyse": the progress on the card from the socket's `analysis` messages.
  const endAnalysis = createEndAnalysis(root);

  // The lag round last seen: a new one starts at the server's lag speed, set with the state that
  // brings it (checked in the loop instead, an idle page could reset the power its player had just set).
  let lastLagRound = null;
  function set(next) {
    if (next === state) return;
    state = next;
    const round = lagRound();
    if (round && round !== lastLagRound) state = setAim(state, { speed: constraintsOf(state.shown, state.me).lag.speed });
    lastLagRound = round;
    turnSignal.update(state);
    shell.wake(); // drawn at the next frame, not the next idle tick
  }

  let chat = null;
  const net = createNet({
    url: socketUrl(page.wsPath, window.location),
    onMessage: (msg) => {
      sound.heard(msg, state.version !== null);
      lastShot.heard(msg);
      // Our own shot answered: only now do spin and power go back (a refusal keeps them).
      const ours = msg.t === "shot" && msg.d && msg.d.ack != null && msg.d.ack in state.sent;
      set(receive(state, msg, clockNow(), epochNow()));
      if (ours && !keepStrike()) set(setAim(state, { speed: DEFAULT_AIM.speed, side: 0, height: 0 }));
      if (chat) chat.receive(msg);
      endAnalysis.heard(msg);
      if (msg.t === "snapshot" || msg.t === "shot") set(autoCall(state, table));
      // My own rematch offer: the new match is mine to open.
      if (msg.t === "rematch" && msg.d && msg.d.from === state.me && msg.d.url) window.location.assign(msg.d.url);
    },
    onStatus: (status, info) => set(setConnection(state, status, info && info.refusal)),
    onLatency: (ms) => set(setLatency(state, ms)),
    getVersion: () => state.version,
  });

  const chatRoot = root.querySelector(".kz-chat");
  if (chatRoot) chat = createChat(chatRoot, { send: (t, d) => net.send(t, d), me: page.me });

  function play(t, d) {
    const ack = net.send(t, d);
    if (ack !== null) set(markSent(state, ack, t));
  }

  /** The lag round I owe a strike in ("lag:1"), or null: each new one starts at the server's lag speed. */
  function lagRound() {
    const game = state.shown;
    const mine = constraintsOf(game, state.me);
    if (!mine || !mine.lag || !(mine.actions || []).includes("lag")) return null;
    return `${game.phase}:${(game.lag && game.lag.round) || 0}`;
  }

  /** Every intent goes through intents.js (pure); only its effects are carried out here. */
  function dispatch(intent) {
    const { state: next, effects } = intend(state, intent, { table, transform: renderer.transform(), now: clockNow() });
    set(next);
    for (const effect of effects) carryOut(effect);
  }

  function carryOut(effect) {
    if (effect.kind === "aim") net.sendAim(effect.strike);
    else if (effect.kind === "play") play(effect.t, effect.d);
    else if (effect.kind === "confirm") {
      if (window.confirm(effect.text)) carryOut(effect.then);
    } else if (effect.kind === "hush") sound.hush();
    else if (effect.kind === "cursor") canvas.style.cursor = effect.value;
  }

  let lastDrawn = null;
  const { controls, pullMeter } = shell.bind({
    getState: () => state,
    dispatch,
    onResize: (tf) => {
      // The tap reach in CSS px and the drawn orientation, for the hint words and for tests.
      canvas.dataset.pickRadiusPx = (pickRadius(tf.scale, table.ball_radius) * tf.scale).toFixed(1);
      root.dataset.orientation = tf.portrait ? "portrait" : "landscape";
      setPocketPlaces(pocketPlaces(tf, table));
      setPortrait(tf.portrait);
      lastDrawn = null;
    },
  });
  const keepStrike = bindKeepStrike(root);
  bindSheet(root);
  const loupe = createLoupe(stage, canvas);
  // The words over the table (the verdict and a phase's notice, the power of a pull) on a spot that
  // covers no ball and not the called pocket: the top centre when it is free.
  const float = root.querySelector(".kz-float");
  const floating = [...float.children];
  const topCentre = (area, size) => ({ left: (area.width - size.width) / 2, top: 0 });
  const banners = createBanners(stage, [
    {
      el: float,
      // (the end card hides the verdict and the notice: kaiza.css, data-ended)
      visible: () => root.dataset.ended !== "yes" && floating.some((el) => !el.hidden),
      words: () => floating.map((el) => (el.hidden ? "" : el.textContent)).join("|"),
      prefer: topCentre,
    },
    {
      el: pullMeter.element,
      visible: () => !pullMeter.element.hidden,
      // Its power changes as the cue is drawn: placed again only when it turns from "no shot" to a shot.
      words: () => pullMeter.element.dataset.shoots || "",
      prefer: topCentre,
    },
  ]);
  const skipButton = root.querySelector(".kz-skip");
  const onSkip = () => dispatch({ type: "skip" });
  if (skipButton) skipButton.addEventListener("click", onSkip);

  let lastDrawAt = 0;
  // The last drawing was of a gliding cue: one more is owed once the glide has ended, at its end
  // angle (without it the other player's cue stopped a frame short of where it was aimed).
  let glideDrawn = false;
  let lastHudAt = 0;
  let lastHudState = null;
  let wasMyTurn = false;
  // The last frame drew the last shot's replay: frames go on until it ends.
  let replaying = false;

  shell.resize();
  const loop = shell.loop({
    update: (dt, now) => {
      const next = tick(state, now);
      if (next !== state) {
        set(autoCall(next, table));
      }
      sound.follow(state, now);
      if (state.gap && (!state.gap.asked || now - (state.gap.askedAt || 0) > 3000)) {
        if (net.requestCatchUp(state.gap.from)) set(markGapAsked(state, now));
      }
      if (state.error && now - state.error.at > 8000) set(clearError(state));
      const myTurn = myActions(state).length > 0;
      if (myTurn && !wasMyTurn) canvas.focus({ preventScroll: true });
      wasMyTurn = myTurn;
    },
    render: (now) => {
      const replayed = lastShot.view(state, now);
      replaying = Boolean(replayed);
      if (replayed) {
        renderer.draw(replayed.state, replayed.now);
        lastDrawn = null;
      } else if (
        state !== lastDrawn ||
        animating(state, now) ||
        aimGliding(state, now) ||
        glideDrawn ||
        (now - lastDrawAt > MARCH_EVERY - 10 && marching(state, now))
      ) {
        glideDrawn = aimGliding(state, now);
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
      if (state !== lastHudState || now - lastHudAt > HUD_EVERY - 10) {
        hud.update(state, now, epochNow());
        controls.update(state);
        lastShot.update(state);
        lastHudState = state;
        lastHudAt = now;
      }
      banners.update(state, table, renderer.transform());
    },
    // Frames while something moves or a drawing is owed; otherwise the loop idles on its timer, which
    // keeps the clocks, the HUD and the marching call line going (loop.js).
    busy: (now) =>
      state !== lastDrawn || state.steps.length > 0 || aimGliding(state, now) || glideDrawn || replaying,
    // Still, the page shows clocks to the second (the HUD every HUD_EVERY ms) and, with a call, the
    // called pocket's marching ring: ticks only as often as one of them changes.
    idleStep: (now) => (marching(state, now) ? MARCH_EVERY : HUD_EVERY),
  });
  // Any press or key wakes the frames before its own handler runs (a replay button, a drag's start).
  const wakeOnInput = () => loop.wake();
  for (const type of ["pointerdown", "keydown", "click"]) document.addEventListener(type, wakeOnInput, true);
  loop.start();

  return () => {
    shell.destroy();
    for (const type of ["pointerdown", "keydown", "click"]) document.removeEventListener(type, wakeOnInput, true);
    if (skipButton) skipButton.removeEventListener("click", onSkip);
    lastShot.unbind();
    turnSignal.unbind();
    sound.close();
    net.close();
  };
}

const root = document.getElementById("kaiza-match");
if (root) {
  const stop = boot(root);
  window.addEventListener("pagehide", stop, { once: true });
}
