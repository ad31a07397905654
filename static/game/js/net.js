// @ts-check
/**
 * The match socket (the pages that only follow the server open theirs with socket.js).
 *
 * Connects to the match socket, reconnects with exponential backoff and jitter, greets with
 * `hello {v}` carrying the last applied version so the server can send what was missed, and numbers
 * play inputs with an `ack` so a message repeated after a reconnect is answered, never applied twice.
 * It knows nothing of the game: messages go out through `onMessage`, status through `onStatus`.
 */

import { MATCH_BACKOFF, reconnectDelay } from "./socket.js";

export const BACKOFF_BASE_MS = MATCH_BACKOFF.base;
export const BACKOFF_MAX_MS = MATCH_BACKOFF.max;
/** Inputs that change the match and carry an ack (re-sent after a reconnect until answered). */
export const PLAY_TYPES = new Set(["shoot", "place", "lag", "choose_break", "resign", "claim_timeout", "abort", "rematch"]);
/** Inputs made against a match version: the envelope carries that `v` (game/realtime/protocol.py). */
export const VERSIONED_INPUTS = new Set(["shoot", "place", "lag", "choose_break"]);
const MIN_AIM_INTERVAL_MS = 55; // the server relays at most 20 aims a second
const CATCH_UP_INTERVAL_MS = 1500;
/** A ping when nothing was heard for this long (the server also beats every 2 s). */
export const PING_INTERVAL_MS = 2000;
/** Nothing heard for this long: the connection is lost, and the player knows it within 6 s. */
export const SILENCE_MS = 6000;
/** An input unanswered for this long is sent again, with the same ack. */
export const RESEND_MS = 5000;
/**
 * Error codes that answer an input without settling it: the database failed under it
 * (game/matches/consumer.py). The input stays unanswered and is sent again RESEND_MS later, with the
 * same ack: the server applies it at most once.
 */
export const RESENT_ERRORS = new Set(["unavailable"]);
/** A socket that does not open in this time is given up and tried again. */
export const CONNECT_TIMEOUT_MS = 6000;
const WATCH_INTERVAL_MS = 500;
/** Close codes after which reconnecting cannot help (game/matches/consumer.py). */
export const REFUSED_CLOSE_CODES = new Set([4400, 4401, 4403, 4404]);
/**
 * Refused at the handshake: too many sockets of this user on this match, or of this address
 * (game/realtime/socket_lifecycle.py). The close's reason says why in the reader's language; the client shows
 * it and tries again with the usual backoff (a tab closed elsewhere, or a dead socket of ours timed
 * out on the server, frees a place).
 */
export const TOO_MANY_CLOSE_CODE = 4429;

/** Delay before reconnect attempt `attempt` (0-based): doubling, capped, with ±25 % jitter (socket.js). */
export function backoffDelay(attempt, random = Math.random) {
  return reconnectDelay(attempt, MATCH_BACKOFF, random);
}

/** ws:// or wss:// URL for a path on the page's host. */
export function socketUrl(path, location) {
  if (/^wss?:\/\//.test(path)) return path;
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}${path.startsWith("/") ? "" : "/"}${path}`;
}

/** Acks of one tab: a random tab id in the high bits, a counter in the low ones (2^21 inputs). */
const ACK_SEQ_BITS = 2 ** 21;
const ACK_TABS = 2 ** 32 - 1;

/** A random integer 1 … 2^32−1 for this tab (crypto when there is one). */
export function randomTabId(random = null) {
  if (random) return 1 + Math.floor(random() * (ACK_TABS - 1));
  const c = globalThis.crypto;
  if (c && c.getRandomValues) {
    const a = new Uint32Array(1);
    c.getRandomValues(a);
    return a[0] || 1;
  }
  return 1 + Math.floor(Math.random() * (ACK_TABS - 1));
}

/**
 * The ack ids of one tab: `tab * 2^21 + n`, n = 1, 2, … Two tabs (or a reload) draw different random
 * tab ids, so their acks never meet even when opened in the same millisecond; every
 * ack stays below 2^53 (protocol MAX_ACK), so a JavaScript number holds it exactly.
 */
export function createAckSource(tabId = randomTabId()) {
  let n = 0;
  return {
    tabId,
    next() {
      n = (n % (ACK_SEQ_BITS - 1)) + 1;
      return tabId * ACK_SEQ_BITS + n;
    },
  };
}

/**
 * The liveness decision, pure: is the connection lost (nothing heard for SILENCE_MS), is a ping due,
 * which unanswered inputs are due to be sent again.
 * @param {{now: number, lastHeard: number, lastPing: number, pending: Array<{ack: number, sentAt: number}>}} s
 */
export function livenessCheck({ now, lastHeard, lastPing, pending = [] }) {
  const silent = now - lastHeard;
  return {
    lost: silent >= SILENCE_MS,
    ping: silent >= PING_INTERVAL_MS && now - lastPing >= PING_INTERVAL_MS,
    resend: pending.filter((p) => now - p.sentAt >= RESEND_MS).map((p) => p.ack),
  };
}

/**
 * @param {object} opts
 * @param {string} opts.url
 * @param {(msg: import("./types").MatchServerMessage) => void} opts.onMessage
 * @param {(status: "connecting"|"open"|"reconnecting"|"lost"|"closed", info?: object) => void} [opts.onStatus]
 * @param {(ms: number) => void} [opts.onLatency] round-trip time of a ping, in milliseconds
 * @param {() => number | null} [opts.getVersion] last applied version (null before the first snapshot)
 * @param {typeof WebSocket} [opts.WebSocketImpl]
 * @param {{setTimeout: Function, clearTimeout: Function, now: () => number}} [opts.timers]
 * @param {{tabId: number, next: () => number}} [opts.acks] the ack ids (createAckSource)
 */
export function createNet({
  url,
  onMessage,
  onStatus = () => {},
  onLatency = () => {},
  getVersion = () => null,
  WebSocketImpl = globalThis.WebSocket,
  timers = { setTimeout: (f, ms) => setTimeout(f, ms), clearTimeout: (h) => clearTimeout(h), now: () => Date.now() },
  acks = createAckSource(),
}) {
  let socket = null;
  let attempt = 0;
  let retryTimer = null;
  let closedByUs = false;
  const unanswered = new Map(); // ack -> {msg, sentAt}: re-sent after a reconnect or RESEND_MS
  let lastAimAt = -Infinity;
  let aimTimer = null;
  let queuedAim = null;
  let lastCatchUp = -Infinity;
  let watchTimer = null;
  let connectTimer = null;
  let pingSentAt = null;
  let lastPing = -Infinity;
  let lastHeard = timers.now();
  let everOpen = false;

  /** Every half second: a ping when quiet, the connection given up when silent, inputs resent. */
  function watch() {
    watchTimer = timers.setTimeout(watch, WATCH_INTERVAL_MS);
    if (!socket || socket.readyState !== 1) return;
    const now = timers.now();
    const pending = [...unanswered.entries()].map(([ack, p]) => ({ ack, sentAt: p.sentAt }));
    const check = livenessCheck({ now, lastHeard, lastPing, pending });
    if (check.lost) {
      lose();
      return;
    }
    if (check.ping && raw({ t: "ping", d: {} })) {
      lastPing = now;
      pingSentAt = now;
    }
    for (const ack of check.resend) {
      const p = unanswered.get(ack);
      if (p && raw(p.msg)) p.sentAt = now;
    }
  }

  /** Nothing heard for SILENCE_MS: give this socket up (it may never close by itself) and reconnect. */
  function lose() {
    const ws = socket;
    socket = null;
    if (ws) {
      ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
      try {
        ws.close();
      } catch {
        // a socket that cannot even close is dropped all the same
      }
    }
    // Lost only if we ever were connected; a first connection that hangs is still "connecting".
    if (everOpen) {
      onStatus("lost");
      attempt = 0;
    }
    scheduleReconnect();
  }

  function connect() {
    closedByUs = false;
    onStatus(attempt ? "reconnecting" : "connecting", { attempt });
    let ws;
    try {
      ws = new WebSocketImpl(url);
    } catch (err) {
      scheduleReconnect();
      return;
    }
    socket = ws;
    if (connectTimer) timers.clearTimeout(connectTimer);
    connectTimer = timers.setTimeout(() => {
      connectTimer = null;
      if (socket === ws && ws.readyState !== 1) lose();
    }, CONNECT_TIMEOUT_MS);
    ws.onopen = () => {
      if (connectTimer) timers.clearTimeout(connectTimer);
      connectTimer = null;
      attempt = 0;
      everOpen = true;
      lastHeard = timers.now();
      onStatus("open");
      const v = getVersion();
      if (v !== null && v !== undefined) raw({ t: "hello", d: { v } });
      for (const p of unanswered.values()) {
        if (raw(p.msg)) p.sentAt = timers.now();
      }
      pingSentAt = null;
      lastPing = -Infinity;
      if (!watchTimer) watch();
    };
    ws.onmessage = (event) => {
      if (socket !== ws) return;
      lastHeard = timers.now(); // anything from the server is a sign of life
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return;
      }
      if (msg && msg.t === "pong") {
        if (pingSentAt !== null) onLatency(timers.now() - pingSentAt);
        pingSentAt = null;
        return;
      }
      if (msg && msg.t === "beat") {
        // The server's heartbeat carries its version: behind it, catch up.
        const v = getVersion();
        const theirs = msg.d && msg.d.v;
        if (typeof theirs === "number" && v !== null && v !== undefined && theirs > v) requestCatchUp(v);
        return;
      }
      if (msg && msg.d && msg.d.ack !== undefined && msg.d.ack !== null) {
        const input = unanswered.get(msg.d.ack);
        if (msg.t === "error" && RESENT_ERRORS.has(msg.d.code)) {
          if (input) input.sentAt = timers.now();
        } else {
          unanswered.delete(msg.d.ack);
        }
      }
      onMessage(msg);
    };
    ws.onclose = (event) => {
      if (socket !== ws) return;
      socket = null;
      // The server refused us for good (no such match, not allowed): do not hammer it.
      const refused = event && REFUSED_CLOSE_CODES.has(event.code);
      if (closedByUs || refused) onStatus("closed", { code: event && event.code });
      else if (event && event.code === TOO_MANY_CLOSE_CODE) scheduleReconnect(event.reason || "");
      else scheduleReconnect();
    };
    ws.onerror = () => {};
  }

  /** `refusal`: the server's words when it refused this socket for too many (TOO_MANY_CLOSE_CODE). */
  function scheduleReconnect(refusal = null) {
    const delay = backoffDelay(attempt);
    attempt += 1;
    onStatus("reconnecting", { attempt, delay, refusal });
    retryTimer = timers.setTimeout(() => {
      retryTimer = null;
      connect();
    }, delay);
  }

  function raw(msg) {
    if (!socket || socket.readyState !== 1) return false;
    socket.send(JSON.stringify(msg));
    return true;
  }

  /**
   * Send a message; play inputs get an ack id (returned) and are remembered until answered.
   * Inputs made against a position also carry the version they saw (`v`).
   * @returns {number | null} the ack id, or null for messages without one
   */
  function send(t, d = {}) {
    if (PLAY_TYPES.has(t)) {
      // An aim still held back by the throttle would reach the server after the shot, out of turn.
      if (aimTimer) timers.clearTimeout(aimTimer);
      aimTimer = null;
      queuedAim = null;
      const ack = acks.next();
      const msg = { t, ack, d };
      const v = getVersion();
      if (VERSIONED_INPUTS.has(t) && v !== null && v !== undefined) msg.v = v;
      unanswered.set(ack, { msg, sentAt: timers.now() });
      raw(msg);
      return ack;
    }
    raw({ t, d });
    return null;
  }

  /** Relay the aim, at most one message per MIN_AIM_INTERVAL_MS; the latest aim always gets out. */
  function sendAim(aim) {
    queuedAim = aim;
    const now = timers.now();
    const wait = lastAimAt + MIN_AIM_INTERVAL_MS - now;
    if (wait <= 0) {
      flushAim();
    } else if (!aimTimer) {
      aimTimer = timers.setTimeout(flushAim, wait);
    }
  }

  function flushAim() {
    aimTimer = null;
    if (!queuedAim) return;
    lastAimAt = timers.now();
    raw({ t: "aim", d: queuedAim });
    queuedAim = null;
  }

  /** Ask for the events after version v (a gap was seen); rate limited. */
  function requestCatchUp(v) {
    const now = timers.now();
    if (now - lastCatchUp < CATCH_UP_INTERVAL_MS) return false;
    lastCatchUp = now;
    return raw({ t: "hello", d: { v } });
  }

  function close() {
    closedByUs = true;
    if (retryTimer) timers.clearTimeout(retryTimer);
    if (aimTimer) timers.clearTimeout(aimTimer);
    if (watchTimer) timers.clearTimeout(watchTimer);
    if (connectTimer) timers.clearTimeout(connectTimer);
    retryTimer = null;
    watchTimer = null;
    if (socket) socket.close();
  }

  connect();
  return { send, sendAim, requestCatchUp, close, unanswered: () => unanswered.size };
}
