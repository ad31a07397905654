// @ts-check
/**
 * The one state object of the match page, and the pure functions that produce its next value.
 *
 * Server messages and local intents go in, a new state comes out (the old one is never mutated), so
 * the renderer and the HUD can compare by identity and the tests need no DOM. Time is always passed in:
 * `now` is the display clock in milliseconds (performance.now()), `epoch` wall-clock seconds.
 *
 * Versioned events (ARCHITECTURE.md section 4) are applied strictly in order: a repeated version is
 * ignored, a jump ahead is held back and flagged as a gap so net.js can ask for the missing ones.
 * A shot becomes a timeline step: its segments animate in real time, then the display snaps to the
 * shot's authoritative `state`. Events behind a running animation wait their turn, so the score never
 * changes before the balls have stopped.
 */

import { animationDuration, ballAt, parseSegments, positionsAt, trackEnd } from "./trajectory.js";
import { clampSpeed, clampSpin, limitsOf } from "./legality.js";
import { RESENT_ERRORS } from "./net.js";

export const VERSIONED = new Set(["snapshot", "shot", "placed", "choice", "finished", "timeout", "notice"]);
export const DEFAULT_AIM = Object.freeze({ angle: 0, speed: 2.5, side: 0, height: 0 });
/** The softest stroke the power control offers (a choice of the page; the server's limits are wider). */
export const MIN_SPEED = 0.2;
const HISTORY_KEEP = 200;

/**
 * How many times faster than real time a page rolls shots: its `data-animation-rate` (set only by a
 * test server, game/common/context_processors.py), else 1.
 */
export function animationRate(dataset) {
  const rate = Number(dataset.animationRate);
  return rate > 0 ? rate : 1;
}

/**
 * @param {{table: object, matchId?: string, me?: string, role?: string, rate?: number}} page
 *   `rate`: shot time per display time (1: real time; a test server's pages roll shots faster).
 */
export function createState({ table, matchId = "", me = "", role = "spectator", rate = 1 }) {
  return {
    table,
    rate,
    matchId,
    me,
    role,
    connection: "connecting",
    /** Set once the socket was open: a later drop shows "Connection lost". */
    wasOpen: false,
    /** The server's words when it refused the socket for too many sockets (close 4429), else null. */
    refusal: null,
    latency: null,
    version: null,
    game: null,
    shown: null,
    match: null,
    you: null,
    buffer: [],
    gap: null,
    steps: [],
    presence: { players: [], spectators: 0 },
    clock: null,
    history: [],
    historyTotal: 0,
    lastVerdict: null,
    finished: null,
    result: null,
    announce: null,
    rematch: null,
    error: null,
    remoteAim: null,
    aim: { ...DEFAULT_AIM },
    call: emptyCall(),
    callManual: false,
    placing: null,
    sent: {},
    ui: { pull: 0 },
    lagRest: {},
  };
}

/** The fixed start of a seat's lag white (K-3.1; game/engine/rules/lag.py): x = L/8, in its half. */
export function lagStart(table, seat) {
  const y = seat === 0 ? table.width / 4 : (3 * table.width) / 4;
  return [Math.round((table.home_line_x / 2) * 1e6) / 1e6, Math.round(y * 1e6) / 1e6];
}

const LAG_BALLS = ["white1", "white2"];

/**
 * During the lag the whites are off the table in the snapshot (each lag is simulated on its own):
 * show a white waiting at its start, or where its lag stopped.
 */
export function lagging(game) {
  if (!game) return false;
  return game.phase === "lag" || (game.phase === "shootout" && Boolean(game.shootout) && game.shootout.stage === "lag");
}

function lagBalls(state) {
  const game = state.shown;
  if (!lagging(game)) return {};
  const results = (game.lag && game.lag.results) || [null, null];
  const out = {};
  LAG_BALLS.forEach((id, seat) => {
    if (game.balls && game.balls[id]) return;
    if (!results[seat]) out[id] = lagStart(state.table, seat);
    else if (state.lagRest[id] && !results[seat].lost) out[id] = state.lagRest[id];
  });
  return out;
}

export function emptyCall() {
  return { ball: null, pocket: null, object_cushions: 0, cue_cushions: 0, via: null };
}

/**
 * How a versioned event relates to the last applied version.
 * @returns {"first"|"duplicate"|"next"|"gap"}
 */
export function classifyVersion(last, v) {
  if (last === null || last === undefined) return "first";
  if (v <= last) return "duplicate";
  if (v === last + 1) return "next";
  return "gap";
}

/** Errors about the live aim relay, not about anything the player asked for: not worth a toast. Chat
 * refusals are shown by the chat card itself (ui/chat.js), not as the page's toast. */
const QUIET_ERRORS = new Set([
  "not_your_turn", "rate_limited",
  "wrong_channel", "login_required", "chat_closed", "no_such_message", "own_message", "already_reported",
]);

/**
 * Apply one server message. Every message with a numeric `v` is a versioned event, known type or
 * not (a new event type must never look like a hole in the versions).
 * @param {import("./types").MatchServerMessage} msg
 */
export function receive(state, msg, now = 0, epoch = now / 1000) {
  if (!msg || typeof msg !== "object" || typeof msg.t !== "string") return state;
  if ("v" in msg && typeof msg.v === "number") {
    // (a versioned event of a type this page does not know yet is still a version: `d` read as any)
    const d = /** @type {any} */ (msg.d || {});
    if (msg.t === "snapshot") {
      if (state.version !== null && msg.v < state.version) return state;
      return drain(applySnapshot(state, d, msg.v, now, epoch), now);
    }
    const kind = classifyVersion(state.version, msg.v);
    if (kind === "first") return state; // nothing to build on yet: wait for the snapshot
    // A repeated event (e.g. the answer to an input resent with the same ack) answers that input.
    if (kind === "duplicate") return withoutSent(state, d.ack);
    if (kind === "gap") {
      if (state.buffer.some((m) => m.v === msg.v)) return state;
      const buffer = [...state.buffer, msg].sort((a, b) => a.v - b.v);
      return { ...state, buffer, gap: state.gap || { from: state.version, since: now, asked: false } };
    }
    return drain(applyEvent(state, msg, now, epoch), now);
  }
  switch (msg.t) {
    case "aim": {
      const d = msg.d || /** @type {typeof msg.d} */ ({});
      if (d.player === state.me) return state;
      const prev = state.remoteAim;
      if (!prev || prev.player !== d.player) return { ...state, remoteAim: { ...d, at: now } };
      const gap = now - prev.at;
      const glide = gap <= MAX_AIM_GLIDE_MS ? gap : 0;
      return { ...state, remoteAim: { ...d, at: now, from: remoteAimAngle(prev, now), glide } };
    }
    case "presence": {
      const d = msg.d || /** @type {typeof msg.d} */ ({});
      return { ...state, presence: { players: d.players || [], spectators: d.spectators || 0 } };
    }
    case "clock": {
      const d = msg.d || /** @type {typeof msg.d} */ ({});
      return { ...state, clock: clockOf(d, epoch) };
    }
    case "rematch": {
      const d = msg.d || /** @type {typeof msg.d} */ ({});
      return { ...state, rematch: { from: d.from, matchId: d.match_id, url: d.url, at: now } };
    }
    case "error": {
      const d = msg.d || /** @type {typeof msg.d} */ ({});
      if (QUIET_ERRORS.has(d.code) && (d.ack === null || d.ack === undefined)) return state;
      // The database failed under the input: net.js sends it again, so it is still being sent.
      if (RESENT_ERRORS.has(d.code)) return { ...state, error: { code: d.code, message: d.message, ack: d.ack, at: now } };
      return withoutSent({ ...state, error: { code: d.code, message: d.message, ack: d.ack, at: now } }, d.ack);
    }
    default:
      return state;
  }
}

/** The deadlines, with the skew between the server's clock and ours (`now` is the server's). */
function clockOf(d, epoch) {
  return { ...d, skew: typeof d.now === "number" ? d.now - epoch : 0, received: epoch };
}

/** Seconds left until an epoch deadline by the server's clock, or null. */
/** An aim that comes more than this long after the one before starts where it is (a new sweep), not
 * gliding from the old one. */
const MAX_AIM_GLIDE_MS = 150;

/**
 * The angle of the other player's cue to draw at `now`. Aims arrive 20 a second for a player and 10
 * a second for a spectator (the server thins them: game/realtime/hub.py, SPECTATOR_AIM_INTERVAL), so each new
 * one glides from the angle shown when it came to its own, over the time the one before it took to
 * come: the cue sweeps as smoothly as it was dragged, one interval behind.
 */
export function remoteAimAngle(aim, now) {
  if (!aim) return null;
  if (typeof aim.from !== "number" || !(aim.glide > 0)) return aim.angle;
  const k = Math.min(1, Math.max(0, (now - aim.at) / aim.glide));
  const turn = 2 * Math.PI;
  const delta = ((((aim.angle - aim.from + Math.PI) % turn) + turn) % turn) - Math.PI; // the short way round
  return aim.from + delta * k;
}

/** Whether the other player's cue is still gliding to its latest aim (the page draws every frame then). */
export function aimGliding(state, now) {
  const aim = state.remoteAim;
  return Boolean(aim && aim.glide > 0 && now - aim.at < aim.glide);
}

export function secondsLeft(state, deadline, epoch) {
  if (typeof deadline !== "number") return null;
  const skew = (state.clock && state.clock.skew) || 0;
  return deadline - (epoch + skew);
}

/**
 * The shot clock as the player reads it: `{left, running}`, or null in a match without one. The
 * server's deadline is the shot's time plus its balls' rolling time plus the clock, so the clock
 * stands at its whole time until the last ball is at rest and counts only the shooter's own time.
 * Before the break (no deadline yet) a match with a shot clock shows it standing, from the lag on.
 */
export function shotClockLeft(state, clock, epoch) {
  const whole = clock && typeof clock.shot_clock === "number" && clock.shot_clock > 0 ? clock.shot_clock : null;
  const left = secondsLeft(state, clock ? clock.shot_deadline : null, epoch);
  if (left === null) return whole === null ? null : { left: whole, running: false };
  if (whole !== null && left >= whole) return { left: whole, running: false };
  return { left, running: true };
}

/** Apply buffered events that have become contiguous. */
function drain(state, now) {
  let s = state;
  while (s.buffer.length) {
    const [head, ...rest] = s.buffer;
    const kind = classifyVersion(s.version, head.v);
    if (kind === "duplicate") {
      s = { ...s, buffer: rest };
    } else if (kind === "next") {
      s = applyEvent({ ...s, buffer: rest }, head, now);
    } else {
      break;
    }
  }
  if (!s.buffer.length && s.gap) s = { ...s, gap: null };
  return s;
}

function applySnapshot(state, d, v, now, epoch) {
  const game = d.state || null;
  const clock = d.clock ? clockOf(d.clock, epoch) : state.clock;
  let steps = [];
  const last = d.last_shot || (game && game.last_shot);
  if (last && last.segments && typeof last.started_at === "number") {
    const tracks = parseSegments(last.segments);
    const duration = (animationDuration(tracks) * 1000) / (state.rate || 1);
    const startAt = now - ((epoch - last.started_at) * 1000) / (state.rate || 1);
    if (startAt + duration > now) {
      steps = [
        {
          kind: "shot",
          v,
          startAt,
          duration,
          tracks,
          after: game,
          player: last.player || null,
          verdict: last.verdict || null,
          call: last.call || null,
        },
      ];
    }
  }
  return {
    ...state,
    version: v,
    game,
    shown: game,
    match: d.match || state.match,
    you: d.you || state.you,
    clock,
    steps,
    buffer: state.buffer.filter((m) => m.v > v),
    gap: null,
    finished: game && game.phase === "finished" ? state.finished || { winner: game.winner } : null,
    result: d.result || (game && game.phase === "finished" ? state.result : null),
    placing: null,
    remoteAim: null,
    refusal: null,
    ...historyOf(d.history, state),
    ...(phaseChanged(state.shown, game) ? freshPhase(state) : {}),
  };
}

/** The snapshot's shot list (`{entries, total}`), or the one we have if the server sent none. */
function historyOf(history, state) {
  if (history && Array.isArray(history.entries)) {
    const entries = mergeHistory([], history.entries);
    return { history: entries, historyTotal: Math.max(history.total || 0, entries.length) };
  }
  if (Array.isArray(history)) {
    const entries = mergeHistory([], history);
    return { history: entries, historyTotal: entries.length };
  }
  return { history: state.history, historyTotal: state.historyTotal };
}

/**
 * The shot list with `add` merged in: one entry per version (a repeat replaces), in version order,
 * the newest HISTORY_KEEP kept. Pure; entries without a numeric `v` are dropped.
 */
export function mergeHistory(list, add) {
  const byV = new Map();
  for (const e of [...list, ...add]) if (e && typeof e.v === "number") byV.set(e.v, e);
  return [...byV.values()].sort((a, b) => a.v - b.v).slice(-HISTORY_KEEP);
}

/**
 * The list entry a versioned event makes: the server's `entry` when it sends one, else (an older
 * server) one built from the verdict of a shot, lag or choice. Null for events that make none.
 */
export function entryOf(t, v, d) {
  if (d.entry && typeof d.entry === "object") return { ...d.entry, v: typeof d.entry.v === "number" ? d.entry.v : v };
  const verdict = d.verdict || {};
  if (t === "shot") {
    return {
      v,
      player: d.player || null,
      kind: d.kind === "lag" ? "lag" : "shot",
      text: verdict.reason || "",
      words: verdict.words,
      points: verdict.points || 0,
      penalty: verdict.penalty || 0,
      foul: verdict.foul || null,
      scores: verdict.scores || ((d.state && d.state.players) || []).map((p) => p.score),
      call: d.call || null,
    };
  }
  if (t === "choice" && verdict.reason) {
    return { v, player: d.player || null, kind: "choice", text: verdict.reason, words: verdict.words, points: 0, penalty: 0, foul: null, call: null };
  }
  return null;
}

/** What makes a new phase for the player: the phase, the shoot-out's stage, sudden death. */
export function phaseKey(game) {
  if (!game) return "";
  const so = game.phase === "shootout" && game.shootout ? game.shootout : null;
  return so ? `shootout:${so.stage}:${so.sudden_death ? "sd" : ""}` : game.phase;
}

function phaseChanged(before, after) {
  return Boolean(before && after) && phaseKey(before) !== phaseKey(after);
}

/** A new phase starts with the cue straight, medium power, centre ball and no call. */
function freshPhase(state) {
  return { aim: { ...DEFAULT_AIM }, call: emptyCall(), callManual: false, ui: { ...state.ui, pull: 0 }, lagRest: {} };
}

function applyEvent(state, msg, now, epoch) {
  const d = msg.d || {};
  const after = d.state || state.game;
  let step;
  if (msg.t === "shot" && d.segments) {
    const tracks = parseSegments(d.segments || {});
    step = {
      kind: d.kind || "shot",
      v: msg.v,
      startAt: null,
      duration: (animationDuration(tracks) * 1000) / (state.rate || 1),
      tracks,
      after,
      player: d.player,
      verdict: d.verdict || null,
      call: d.call || null,
      strike: d.strike || null,
      entry: entryOf(msg.t, msg.v, d),
    };
  } else {
    step = {
      kind: msg.t,
      v: msg.v,
      startAt: null,
      duration: 0,
      tracks: null,
      after,
      player: d.player,
      data: d,
      entry: entryOf(msg.t, msg.v, d),
    };
  }
  const steps = [...state.steps, step];
  if (steps.length === 1) steps[0] = { ...step, startAt: now };
  let next = { ...state, version: msg.v, game: after, steps };
  if (d.match) next = { ...next, match: d.match };
  if (d.clock) next = { ...next, clock: clockOf(d.clock, epoch) };
  next = withoutSent(next, d.ack);
  if (d.player === state.me && msg.t === "shot") {
    // Our shot was played: its call is spent.
    next = { ...next, call: emptyCall(), callManual: false };
  }
  if (msg.t === "placed" || msg.t === "shot") next = { ...next, placing: null };
  // Any change of the match ends the opponent's aim shown so far (a shot, a placement, the end).
  next = { ...next, remoteAim: null };
  return next;
}

function withoutSent(state, ack) {
  if (ack === undefined || ack === null || !(ack in state.sent)) return state;
  const sent = { ...state.sent };
  delete sent[ack];
  return { ...state, sent };
}

/**
 * Advance the timeline to `now`: finished steps are committed to `shown` (the display snaps to the
 * authoritative state), the next one starts where the previous ended. Returns the same object if
 * nothing changed, so callers can skip redraws.
 */
export function tick(state, now) {
  if (!state.steps.length) return state;
  let steps = state.steps;
  let s = state;
  let changed = false;
  while (steps.length) {
    let head = steps[0];
    if (head.startAt === null) {
      head = { ...head, startAt: now };
      steps = [head, ...steps.slice(1)];
      changed = true;
    }
    const end = head.startAt + head.duration;
    if (now < end) break;
    steps = steps.slice(1);
    changed = true;
    s = commitStep(s, head);
    if (steps.length && steps[0].startAt === null) steps = [{ ...steps[0], startAt: end }, ...steps.slice(1)];
  }
  if (!changed) return state;
  return { ...s, steps };
}

function commitStep(state, step) {
  let s = { ...state, shown: step.after };
  if (phaseChanged(state.shown, step.after)) s = { ...s, ...freshPhase(state), announce: phaseAnnouncement(step) };
  if (step.kind === "lag" && step.tracks) {
    const lagRest = { ...state.lagRest };
    for (const id of LAG_BALLS) {
      const track = step.tracks[id];
      if (!track) continue;
      const end = ballAt(track, trackEnd(track) + 10);
      if (end.drop === 0) lagRest[id] = [end.x, end.y];
      else delete lagRest[id];
    }
    s = { ...s, lagRest };
  }
  if (step.entry) {
    const added = s.history.some((e) => e.v === step.entry.v) ? 0 : 1;
    s = { ...s, history: mergeHistory(s.history, [step.entry]), historyTotal: s.historyTotal + added };
  }
  if (step.kind === "shot" || step.kind === "lag") {
    s = { ...s, lastVerdict: step.verdict ? { ...step.verdict, player: step.player, kind: step.kind } : null };
  } else if (step.kind === "finished") {
    s = { ...s, finished: { ...step.data }, result: step.data.result || s.result };
  } else if ((step.kind === "notice" || step.kind === "timeout" || step.kind === "choice") && step.entry && step.entry.text) {
    // Words for what just happened that no ball shows: a notice, a shot clock expiry, a choice.
    s = { ...s, announce: { kind: step.kind, text: step.entry.text, words: step.entry.words, v: step.v } };
  } else if ((step.kind === "notice" || step.kind === "timeout") && step.data && step.data.verdict && step.data.verdict.reason) {
    s = { ...s, announce: { kind: step.kind, text: step.data.verdict.reason, words: step.data.verdict.words, v: step.v } };
  }
  return s;
}

/** The announcement of a new phase reached by `step` (words in ui/phase.js). */
function phaseAnnouncement(step) {
  return { kind: "phase", key: phaseKey(step.after), v: step.v };
}

/**
 * Skip to the result: every step waiting on the timeline is committed at once, so
 * this page shows the server's state after the last event it has, as if the animations had run. Only
 * this page's view changes (nothing is sent); the same object comes back when there is nothing to skip.
 */
export function skipSteps(state) {
  if (!state.steps.length) return state;
  let s = state;
  for (const step of state.steps) s = commitStep(s, step);
  return { ...s, steps: [] };
}

/** Is there a shot to skip: one animating, or waiting its turn on the timeline? */
export function skippable(state) {
  return state.steps.some((step) => Boolean(step.tracks));
}

/** Is the animation of a shot running at `now`? */
export function animating(state, now) {
  const head = state.steps[0];
  return Boolean(head && head.tracks && head.startAt !== null && now >= head.startAt && now < head.startAt + head.duration);
}

/**
 * Where to draw every ball at `now`: {id: {x, y, drop}} for balls on the table (or sinking).
 */
export function ballsAt(state, now) {
  const out = {};
  const game = state.shown;
  if (game && game.balls) {
    for (const [id, pos] of Object.entries(game.balls)) {
      if (pos) out[id] = { x: pos[0], y: pos[1], drop: 0, moving: false };
    }
  }
  for (const [id, pos] of Object.entries(lagBalls(state))) out[id] = { x: pos[0], y: pos[1], drop: 0, moving: false };
  const head = state.steps[0];
  if (head && head.tracks && head.startAt !== null && now >= head.startAt) {
    const t = ((now - head.startAt) / 1000) * (state.rate || 1);
    const moving = positionsAt(head.tracks, t, state.table.pockets);
    for (const [id, b] of Object.entries(moving)) {
      if (b.drop >= 1) delete out[id];
      else out[id] = b;
    }
  }
  return out;
}

/** Plain positions {id: [x, y] | null} of the shown state, for the aiming geometry. */
export function restingBalls(state) {
  const out = {};
  const balls = (state.shown && state.shown.balls) || {};
  for (const [id, pos] of Object.entries(balls)) out[id] = pos ? [pos[0], pos[1]] : null;
  return { ...out, ...lagBalls(state) };
}

/** My seat index in `players`, or -1 for a spectator. */
export function mySeat(state) {
  const game = state.shown || state.game;
  if (state.you && typeof state.you.seat === "number") return state.you.seat;
  if (!game || !game.players) return -1;
  return game.players.findIndex((p) => p.name === state.me);
}

/** The actions the shown state allows me now ("lag", "choose_break", "place", "shoot"). */
export function myActions(state) {
  const game = state.shown;
  if (state.role !== "player" || !game || state.steps.length || cutOff(state)) return [];
  return (game.pending || []).filter(([name]) => name === state.me).map(([, action]) => action);
}

/**
 * What the newest state the server sent waits for me to do, even while its shot still rolls on the
 * page (or never rolls: a hidden page draws no frames). `myActions` is what I may do now, on the drawn
 * table; this is what I owe.
 */
export function owedActions(state) {
  const game = state.game;
  if (state.role !== "player" || !game || game.phase === "finished" || cutOff(state)) return [];
  return (game.pending || []).filter(([name]) => name === state.me).map(([, action]) => action);
}

/** The cue ball I play with; during the lag the first seat lags white1, the second white2. */
export function myCueBall(state) {
  const game = state.shown;
  const seat = mySeat(state);
  if (!game || seat < 0) return null;
  const player = game.players[seat];
  return (player && player.cue_ball) || (seat === 0 ? "white1" : "white2");
}

/** The player whose turn it is in the shown state, or null. */
export function activePlayer(state) {
  const game = state.shown;
  if (!game) return null;
  const pending = game.pending || [];
  if (pending.length) return pending[0][0];
  const p = game.players && game.players[game.turn];
  return p ? p.name : null;
}

// ---- local intents -------------------------------------------------------------------------------

/**
 * `refusal`: the server's words when it refused the socket for too many ("" when it gave none), null
 * when a close was for another reason, undefined to keep what was said (a reconnect attempt starting).
 * An open socket does not clear it: a refused socket is accepted and closed at once (so that the close
 * can carry the reason), and clearing it on open made the card blink at every retry. The server's
 * snapshot, the first message of a socket it keeps, clears it (applySnapshot).
 */
export function setConnection(state, connection, refusal = undefined) {
  const was = state.refusal ?? null;
  const next = refusal === undefined || connection === "open" ? was : refusal;
  if (state.connection === connection && next === was) return state;
  return { ...state, connection, refusal: next, wasOpen: state.wasOpen || connection === "open" };
}

/** Cut off from the server after having been connected: no input, "Connection lost" shown. */
export function cutOff(state) {
  return state.wasOpen && state.connection !== "open";
}

/** Inputs sent and not answered yet ("sending…"). */
export function sending(state) {
  return Object.keys(state.sent).length > 0;
}

export function setLatency(state, latency) {
  return { ...state, latency };
}

export function setAim(state, patch) {
  const aim = { ...state.aim, ...patch };
  const limits = strikeLimits(state);
  aim.speed = clampSpeed(aim.speed, limits, MIN_SPEED);
  [aim.side, aim.height] = clampSpin(aim.side, aim.height, limits);
  return { ...state, aim };
}

export function setCall(state, patch, manual = true) {
  const call = { ...state.call, ...patch };
  for (const key of ["object_cushions", "cue_cushions"]) call[key] = Math.max(0, Math.min(9, call[key] | 0));
  return { ...state, call, callManual: state.callManual || manual };
}

export function clearCall(state) {
  return { ...state, call: emptyCall(), callManual: false };
}

export function setPlacing(state, placing) {
  return { ...state, placing };
}

export function setUi(state, patch) {
  return { ...state, ui: { ...state.ui, ...patch } };
}

export function markSent(state, ack, kind) {
  return { ...state, sent: { ...state.sent, [ack]: kind } };
}

export function markGapAsked(state, now) {
  return state.gap ? { ...state, gap: { ...state.gap, asked: true, askedAt: now } } : state;
}

export function clearError(state) {
  return state.error ? { ...state, error: null } : state;
}

/** The server's strike limits in the shown state (constraints.strike_limits), or null before one. */
export function strikeLimits(state) {
  return limitsOf(state.shown) || limitsOf(state.game);
}

/**
 * Speed (m/s) from a power fraction 0..1 of the server's `max_speed`: quadratic, for fine control of
 * soft shots. Without limits (no state yet) the power stays at the softest stroke.
 */
export function speedFromPower(power, limits) {
  const p = Math.min(1, Math.max(0, power));
  const max = limits ? limits.max_speed : MIN_SPEED;
  return MIN_SPEED + (max - MIN_SPEED) * p * p;
}

export function powerFromSpeed(speed, limits) {
  const max = limits ? limits.max_speed : MIN_SPEED;
  if (max <= MIN_SPEED) return 0;
  return Math.min(1, Math.sqrt(Math.max(0, (speed - MIN_SPEED) / (max - MIN_SPEED))));
}
