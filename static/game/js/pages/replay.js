// @ts-check
/**
 * The replay page: plays a finished match shot by shot from the stored motion segments, with the
 * verdicts and the score after each input. Nothing is simulated here: the segments are the server's
 * own polynomials (trajectory.js evaluates them), so the replay shows exactly what was played.
 *
 * State in, drawing out: `view` holds the step index and the animation clock; `draw` only reads it.
 * The root element carries `data-index` and `data-state` (paused | playing) so tests and styles can
 * follow along.
 *
 * The engine's shot: "Show the engine's shot" beside an analysed shot fetches the engine's
 * best shot there (call, strike and the exact motion segments the server computed when it analysed)
 * and draws it on the position before that shot: the called ball and pocket ringed as the match page
 * rings a call, the cue on the strike's line and the cue ball's and the called ball's paths; "Play
 * the engine's shot" runs those segments through the same animation as a played shot. The root then
 * carries `data-engine-shot` (the step), `data-engine-state` (shown | playing | played) and, once
 * drawn, `data-engine-drawn`.
 */

import { animationDuration, parseSegments, positionsAt } from "../trajectory.js";
import { canvasMatrix, fitTable } from "../transform.js";
import { renderTable } from "../render/table.js";
import { createBallSprites, drawBalls, rollOrientations } from "../render/balls.js";
import { drawCue, drawRing } from "../render/cue.js";
import { gettext, interpolate, said } from "../i18n.js";
import { createNet, socketUrl } from "../net.js";
import { analysisProgress } from "../analysis.js";

/** Pause between two inputs while playing, seconds (at 1x). */
const STEP_GAP = 0.7;
/** Time an input without motion (placement, choice) stays on screen while playing, seconds (at 1x). */
const STILL_STEP = 0.9;

function readJson(id) {
  const el = document.getElementById(id);
  return el ? JSON.parse(el.textContent) : null;
}

/** Ball positions {id: [x, y]} from a snapshot's `balls` (null = off the table). */
function fromSnapshotBalls(balls) {
  const out = {};
  for (const [id, pos] of Object.entries(balls || {})) if (Array.isArray(pos)) out[id] = [pos[0], pos[1]];
  return out;
}

function safeTracks(segments) {
  if (!segments || typeof segments !== "object") return null;
  try {
    const tracks = parseSegments(segments);
    return Object.keys(tracks).length ? tracks : null;
  } catch {
    return null;
  }
}

/** Where each ball rests after the motion of `tracks` (pocketed balls are gone). */
function restingAfter(tracks, before) {
  const out = { ...before };
  const end = animationDuration(tracks) + 1;
  for (const [id, b] of Object.entries(positionsAt(tracks, end))) {
    if (b.pocket) delete out[id];
    else out[id] = [b.x, b.y];
  }
  return out;
}

/** Where each ball stands when `tracks` starts. */
function startOf(tracks, before) {
  const out = { ...before };
  for (const [id, b] of Object.entries(positionsAt(tracks, 0))) out[id] = [b.x, b.y];
  return out;
}

/**
 * Precompute the position after every step: index 0 is the opening position, index i the position
 * after input i. Event states (when the server kept them) and the final snapshot are authoritative;
 * between them the segments' end points are exact.
 */
export function buildTimeline(replay) {
  const steps = replay.steps.map((s) => ({ ...s, tracks: safeTracks(s.segments) }));
  const firstMoving = steps.find((s) => s.tracks);
  let current = firstMoving ? startOf(firstMoving.tracks, {}) : fromSnapshotBalls(replay.final.balls);
  const after = [current];
  for (const step of steps) {
    if (step.balls) current = fromSnapshotBalls(step.balls);
    else if (step.tracks) current = restingAfter(step.tracks, startOf(step.tracks, current));
    else if (step.kind === "place" && step.input) {
      const pos = step.input.position || [step.input.x, step.input.y];
      if (step.input.ball && Number.isFinite(Number(pos[0]))) current = { ...current, [step.input.ball]: [Number(pos[0]), Number(pos[1])] };
    }
    after.push(current);
  }
  if (steps.length && replay.final.balls) after[after.length - 1] = fromSnapshotBalls(replay.final.balls);
  return { steps, after };
}

/** An input's kind in words ("break choice", never choose_break). */
function kindWords(kind) {
  const words = {
    shoot: () => gettext("shot"),
    lag: () => gettext("lag"),
    place: () => gettext("placed"),
    choose_break: () => gettext("break choice"),
    resign: () => gettext("resigned"),
    claim_timeout: () => gettext("claimed the shot clock"),
  };
  return words[kind] ? words[kind]() : String(kind || "").replace(/_/g, " ");
}

function verdictText(step) {
  if (!step) return gettext("The opening position.");
  const v = step.verdict || {};
  // The server says the input in the reader's language (replays.py INPUT_WORDS); a record without it, ours.
  const action = typeof step.action === "string" && step.action ? step.action : kindWords(step.kind);
  const parts = [`${step.player}: ${action}`];
  const reason = said(v, "reason");
  if (reason) parts.push(reason);
  if (v.penalty) parts.push(`−${v.penalty}`);
  else if (v.points) parts.push(`+${v.points}`);
  if (v.foul && !reason) parts.push(interpolate(gettext("foul: %(foul)s"), { foul: v.foul }));
  return parts.join(" · ");
}

function start(root) {
  const replay = readJson("replay-data");
  const table = readJson("table-data");
  if (!replay || !table) return;
  const { steps, after } = buildTimeline(replay);
  const canvas = root.querySelector("[data-canvas]");
  const wrap = root.querySelector(".replay-canvas-wrap");
  const ctx = canvas.getContext("2d");
  const scrub = root.querySelector("[data-scrub]");
  const speedSelect = root.querySelector("[data-speed]");
  const playButton = root.querySelector('[data-action="play"]');
  const list = document.querySelector("[data-shot-list]");
  const R = table.ball_radius;
  const view = { index: 0, playing: false, anim: null, gapUntil: 0, orientations: {}, engine: null };
  /** The pending animation frame, if any (`wake`): none while nothing moves. */
  let frameHandle = null;
  const enginePanel = root.querySelector("[data-engine-panel]");
  const enginePlay = root.querySelector("[data-engine-play]");
  let engineAsk = 0;
  let tf = null;
  let tableImage = null;
  let sprites = null;

  function resize() {
    const dpr = window.devicePixelRatio || 1;
    const width = Math.max(200, wrap.clientWidth);
    const height = Math.max(120, Math.min(width * 0.56, window.innerHeight * 0.7));
    canvas.style.width = `${width}px`;
    canvas.style.height = `${height}px`;
    tf = fitTable(table, width, height, dpr, "landscape", 10);
    canvas.width = tf.pixelWidth;
    canvas.height = tf.pixelHeight;
    tableImage = renderTable(table, tf);
    sprites = createBallSprites(R * tf.scale * dpr);
    draw();
  }

  function ballsNow(now) {
    if (view.anim) {
      const { step, t0, base } = view.anim;
      const t = ((now - t0) / 1000) * view.anim.speed;
      const out = {};
      for (const [id, p] of Object.entries(base)) out[id] = { x: p[0], y: p[1], drop: 0 };
      for (const [id, b] of Object.entries(positionsAt(step.tracks, t, table.pockets))) {
        if (b.drop >= 1) delete out[id];
        else out[id] = { x: b.x, y: b.y, drop: b.drop };
      }
      return out;
    }
    const resting = view.engine ? (view.engine.state === "played" ? view.engine.rest : view.engine.base) : after[view.index];
    const out = {};
    for (const [id, p] of Object.entries(resting)) out[id] = { x: p[0], y: p[1], drop: 0 };
    return out;
  }

  /** The engine's shot before it is played: the call ringed, the balls' paths and the cue. */
  function drawEngineCall(engine, under) {
    const px = 1 / tf.scale;
    ctx.setTransform(...canvasMatrix(tf));
    const { call, base, cue, tracks } = engine;
    if (under) {
      if (call.pocket && table.pockets[call.pocket]) {
        drawRing(ctx, table.pockets[call.pocket].mouth_center, R * 1.25, "rgba(255,205,70,0.95)", px, true, 0);
      }
      if (call.ball && base[call.ball]) drawRing(ctx, base[call.ball], R * 1.45, "rgba(255,205,70,0.95)", px, false);
      if (call.via && base[call.via]) drawRing(ctx, base[call.via], R * 1.45, "rgba(140,200,255,0.9)", px, true, 0);
      for (const [id, colour] of [[cue, "rgba(255,255,255,0.75)"], [call.ball, "rgba(255,205,70,0.8)"]]) {
        const path = engine.paths[id];
        if (!path || path.length < 2) continue;
        ctx.save();
        ctx.setLineDash([6 * px, 5 * px]);
        ctx.strokeStyle = colour;
        ctx.lineWidth = 1.4 * px;
        ctx.beginPath();
        ctx.moveTo(path[0][0], path[0][1]);
        for (const p of path.slice(1)) ctx.lineTo(p[0], p[1]);
        ctx.stroke();
        ctx.restore();
      }
    } else if (cue && base[cue] && tracks) {
      drawCue(ctx, base[cue], Number(engine.strike.angle) || 0, R, 0.02, 0.95, px);
    }
  }

  function draw(now = performance.now()) {
    if (!tf) return;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(tableImage, 0, 0);
    const shown = view.engine && view.engine.state === "shown" ? view.engine : null;
    if (shown) drawEngineCall(shown, true);
    const balls = ballsNow(now);
    rollOrientations(view.orientations, balls, R);
    drawBalls(ctx, sprites, tf, balls, R, view.orientations);
    if (shown) {
      drawEngineCall(shown, false);
      root.dataset.engineDrawn = String(shown.index);
    }
  }

  /** Where a ball goes in the engine's motion, sampled for the drawn path (pocketed: up to the pocket). */
  function pathsOf(tracks) {
    const end = animationDuration(tracks);
    const paths = {};
    for (let k = 0; k <= 60; k += 1) {
      for (const [id, b] of Object.entries(positionsAt(tracks, (end * k) / 60))) (paths[id] ||= []).push([b.x, b.y]);
    }
    return paths;
  }

  function setEngineState(state) {
    if (!view.engine) {
      delete root.dataset.engineShot;
      delete root.dataset.engineState;
      delete root.dataset.engineDrawn;
      if (enginePanel) enginePanel.hidden = true;
      return;
    }
    view.engine.state = state;
    root.dataset.engineShot = String(view.engine.index);
    root.dataset.engineState = state;
    if (enginePanel) enginePanel.hidden = false;
  }

  /** "Show the engine's shot" beside step `index`: the position before it, the engine's shot drawn. */
  function showEngineShot(index, url) {
    const ask = (engineAsk += 1);
    fetch(url, { headers: { Accept: "application/json" }, cache: "no-store" })
      .then((response) => response.json().then((d) => ({ ok: response.ok, d })))
      .then(({ ok, d }) => {
        if (ask !== engineAsk || !d) return;
        if (!ok) {
          // Said, not swallowed: an older analysis's shot the engine was too busy to make, or one
          // that is not there.
          const words = enginePanel && enginePanel.querySelector("[data-engine-words]");
          if (words && d.error) {
            setPlaying(false);
            goTo(index - 1);
            words.textContent = d.error;
            enginePanel.hidden = false;
            if (enginePlay) enginePlay.hidden = true;
          }
          return;
        }
        if (enginePlay) enginePlay.hidden = false;
        const tracks = safeTracks(d.segments);
        if (!tracks) return;
        setPlaying(false);
        goTo(index - 1);
        const base = startOf(tracks, after[index - 1]);
        view.engine = {
          index,
          call: d.call || {},
          strike: d.strike || {},
          cue: d.cue_ball,
          tracks,
          base,
          rest: restingAfter(tracks, base),
          paths: pathsOf(tracks),
          state: "shown",
        };
        setEngineState("shown");
        const words = enginePanel && enginePanel.querySelector("[data-engine-words]");
        if (words) words.textContent = interpolate(gettext("The engine's shot: %(call)s"), { call: d.words });
        draw();
      })
      .catch(() => {});
  }

  function playEngineShot() {
    const engine = view.engine;
    if (!engine) return;
    const speed = Number(speedSelect.value) || 1;
    view.orientations = {};
    view.anim = { step: { tracks: engine.tracks }, t0: performance.now(), speed, base: engine.base, engine: true };
    view.anim.duration = animationDuration(engine.tracks) / speed;
    setEngineState("playing");
    wake();
  }

  function showStep() {
    const step = view.index > 0 ? steps[view.index - 1] : null;
    const scores = step ? step.scores : [0, 0];
    root.querySelector('[data-score="0"]').textContent = scores[0];
    root.querySelector('[data-score="1"]').textContent = scores[1];
    root.querySelector("[data-step-label]").textContent =
      view.index === 0 ? gettext("Start") : interpolate(gettext("Shot %(n)s of %(total)s"), { n: view.index, total: steps.length });
    root.querySelector("[data-verdict]").textContent = verdictText(step);
    for (const seat of [0, 1]) {
      const el = root.querySelector(`.replay-player[data-seat="${seat}"]`);
      el.classList.toggle("to-play", !!step && step.player === replay.players[seat]);
    }
    scrub.value = String(view.index);
    root.dataset.index = String(view.index);
    root.dataset.state = view.playing ? "playing" : "paused";
    playButton.textContent = view.playing ? gettext("Pause") : gettext("Play");
    if (list) {
      for (const li of /** @type {NodeListOf<HTMLElement>} */ (list.querySelectorAll("li[data-index]"))) {
        const on = Number(li.dataset.index) === view.index;
        li.classList.toggle("current", on);
        if (on && view.playing) li.scrollIntoView({ block: "nearest" });
      }
    }
  }

  function goTo(index, animate = false) {
    const target = Math.max(0, Math.min(steps.length, index));
    const step = target > 0 ? steps[target - 1] : null;
    view.anim = null;
    view.engine = null;
    setEngineState(null);
    if (animate && step && step.tracks && target === view.index + 1) {
      view.anim = {
        step,
        t0: performance.now(),
        speed: Number(speedSelect.value) || 1,
        base: startOf(step.tracks, after[target - 1]),
      };
      view.anim.duration = animationDuration(step.tracks) / view.anim.speed;
    }
    view.index = target;
    if (!view.anim) view.orientations = {};
    showStep();
    draw();
    if (view.anim) wake();
  }

  function frame(now) {
    frameHandle = null;
    if (view.anim && (now - view.anim.t0) / 1000 >= view.anim.duration) {
      const engine = view.anim.engine;
      view.anim = null;
      if (engine && view.engine) setEngineState("played");
      else view.gapUntil = now + (STEP_GAP * 1000) / (Number(speedSelect.value) || 1);
    }
    if (view.playing && !view.anim && now >= view.gapUntil) {
      if (view.index >= steps.length) {
        view.playing = false;
        showStep();
      } else {
        const next = steps[view.index];
        goTo(view.index + 1, true);
        if (!next.tracks) view.gapUntil = now + (STILL_STEP * 1000) / (Number(speedSelect.value) || 1);
      }
    }
    draw(now);
    // Frames only while a shot rolls or the replay plays: a paused replay drew the whole table sixty
    // times a second for nothing (every change of a still view draws at once: goTo, resize, the engine's
    // shot), as the match page's loop already avoids (loop.js).
    if (view.anim || view.playing) wake();
  }

  function wake() {
    if (frameHandle === null) frameHandle = requestAnimationFrame(frame);
  }

  function setPlaying(on) {
    view.playing = on && steps.length > 0;
    if (view.playing && view.index >= steps.length) goTo(0);
    view.gapUntil = 0;
    showStep();
    wake();
  }

  const actions = {
    first: () => (setPlaying(false), goTo(0)),
    prev: () => (setPlaying(false), goTo(view.index - 1)),
    next: () => (setPlaying(false), goTo(view.index + 1, true)),
    last: () => (setPlaying(false), goTo(steps.length)),
    play: () => setPlaying(!view.playing),
  };
  const unbind = [];
  function on(target, type, handler) {
    target.addEventListener(type, handler);
    unbind.push(() => target.removeEventListener(type, handler));
  }
  for (const button of root.querySelectorAll("[data-action]")) {
    on(button, "click", () => actions[button.dataset.action]());
  }
  on(scrub, "input", () => (setPlaying(false), goTo(Number(scrub.value))));
  if (list) {
    on(list, "click", (event) => {
      const engineButton = event.target.closest("[data-engine-shot]");
      if (engineButton) {
        showEngineShot(Number(engineButton.dataset.engineShot), engineButton.dataset.url);
        return;
      }
      const li = event.target.closest("li[data-index]");
      if (li) (setPlaying(false), goTo(Number(li.dataset.index)));
    });
  }
  on(document, "keydown", (event) => {
    if (event.target.closest("input, select, textarea, [data-engine-shot], [data-engine-play]")) return;
    const key = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last", " ": "play" }[event.key];
    if (key) {
      event.preventDefault();
      actions[key]();
    }
  });
  if (enginePlay) on(enginePlay, "click", playEngineShot);
  on(window, "resize", resize);
  resize();
  showStep();
  wake();
  return () => unbind.forEach((f) => f());
}

/**
 * While the match's analysis waits or runs: "Analysing: shot k of N" from the match socket's
 * `analysis` messages, live; once it is done the page loads again with the report. The socket's
 * opening also asks the stored status once (`data-status-url`), so an analysis that ended between
 * the page and the socket is not waited for in vain.
 */
function followAnalysis(panel) {
  const line = panel.querySelector("[data-analysis-progress]");
  let net = null;
  function show(d) {
    const shown = analysisProgress(d);
    if (!shown || !line) return;
    line.textContent = shown.text;
    panel.dataset.status = shown.status;
    if (shown.status === "done" || shown.status === "failed") {
      if (net) net.close();
      if (shown.reload) window.location.reload();
    }
  }
  net = createNet({
    url: socketUrl(`/ws/match/${panel.dataset.match}/`, window.location),
    onMessage: (msg) => {
      if (msg.t === "analysis") show(msg.d);
    },
    onStatus: (status) => {
      if (status !== "open") return;
      fetch(panel.dataset.statusUrl, { headers: { Accept: "application/json" }, cache: "no-store" })
        .then((response) => (response.ok ? response.json() : null))
        .then((d) => d && show(d))
        .catch(() => {});
    },
  });
}

const root = document.querySelector("[data-replay]");
if (root) start(root);
const analysisPanel = /** @type {HTMLElement} */ (document.querySelector("[data-analysis]"));
if (analysisPanel && ["queued", "running"].includes(analysisPanel.dataset.status)) followAnalysis(analysisPanel);
