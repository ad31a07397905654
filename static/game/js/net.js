/**
 * The only module that touches the WebSocket.
 *
 * Connects to the match socket, reconnects with exponential backoff and jitter, greets with
 * `hello {v}` carrying the last applied version so the server can send what was missed, and numbers
 * play inputs with an `ack` so a message repeated after a reconnect is answered, never applied twice.
 * It knows nothing of the game: messages go out through `onMessage`, status through `onStatus`.
 */

export const BACKOFF_BASE_MS = 400;
export const BACKOFF_MAX_MS = 10_000;
/** Inputs that change the match and carry an ack (re-sent after a reconnect until answered). */
export const PLAY_TYPES = new Set(["shoot", "place", "lag", "choose_break", "resign", "claim_timeout"]);
/** Inputs made against a match version: the envelope carries that `v` (game/protocol.py). */
export const VERSIONED_INPUTS = new Set(["shoot", "place", "lag", "choose_break"]);
const MIN_AIM_INTERVAL_MS = 55; // the server relays at most 20 aims a second
const CATCH_UP_INTERVAL_MS = 1500;
const PING_INTERVAL_MS = 5000;
/** Close codes after which reconnecting cannot help (game/consumers.py). */
export const REFUSED_CLOSE_CODES = new Set([4400, 4401, 4403, 4404]);

/** Delay before reconnect attempt `attempt` (0-based): doubling, capped, with ±25 % jitter. */
export function backoffDelay(attempt, random = Math.random) {
  const base = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** attempt);
  return Math.round(base * (0.75 + 0.5 * random()));
}

/** ws:// or wss:// URL for a path on the page's host. */
export function socketUrl(path, location) {
  if (/^wss?:\/\//.test(path)) return path;
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}${path.startsWith("/") ? "" : "/"}${path}`;
}

/** A starting ack id unlikely to repeat one this player used before a page reload. */
export function initialAck(nowMs) {
  return (Math.floor(nowMs / 1000) % 1_000_000) * 1000 + 1;
}

/**
 * @param {object} opts
 * @param {string} opts.url
 * @param {(msg: object) => void} opts.onMessage
 * @param {(status: "connecting"|"open"|"reconnecting"|"closed", info?: object) => void} opts.onStatus
 * @param {(ms: number) => void} [opts.onLatency] round-trip time of a ping, in milliseconds
 * @param {() => number | null} opts.getVersion last applied version (null before the first snapshot)
 * @param {typeof WebSocket} [opts.WebSocketImpl]
 * @param {{setTimeout: Function, clearTimeout: Function, now: () => number}} [opts.timers]
 */
export function createNet({
  url,
  onMessage,
  onStatus = () => {},
  onLatency = () => {},
  getVersion = () => null,
  WebSocketImpl = globalThis.WebSocket,
  timers = { setTimeout: (f, ms) => setTimeout(f, ms), clearTimeout: (h) => clearTimeout(h), now: () => Date.now() },
}) {
  let socket = null;
  let attempt = 0;
  let retryTimer = null;
  let closedByUs = false;
  let nextAck = initialAck(timers.now());
  const unanswered = new Map(); // ack -> message, re-sent after a reconnect
  let lastAimAt = -Infinity;
  let aimTimer = null;
  let queuedAim = null;
  let lastCatchUp = -Infinity;
  let pingTimer = null;
  let pingSentAt = null;

  function ping() {
    pingTimer = timers.setTimeout(ping, PING_INTERVAL_MS);
    if (pingSentAt !== null && timers.now() - pingSentAt < PING_INTERVAL_MS * 3) return;
    if (raw({ t: "ping", d: {} })) pingSentAt = timers.now();
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
    ws.onopen = () => {
      attempt = 0;
      onStatus("open");
      const v = getVersion();
      if (v !== null && v !== undefined) raw({ t: "hello", d: { v } });
      for (const msg of unanswered.values()) raw(msg);
      pingSentAt = null;
      if (pingTimer) timers.clearTimeout(pingTimer);
      ping();
    };
    ws.onmessage = (event) => {
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
      if (msg && msg.d && msg.d.ack !== undefined && msg.d.ack !== null) unanswered.delete(msg.d.ack);
      onMessage(msg);
    };
    ws.onclose = (event) => {
      if (socket !== ws) return;
      socket = null;
      // The server refused us for good (no such match, not allowed): do not hammer it.
      const refused = event && REFUSED_CLOSE_CODES.has(event.code);
      if (closedByUs || refused) onStatus("closed", { code: event && event.code });
      else scheduleReconnect();
    };
    ws.onerror = () => {};
  }

  function scheduleReconnect() {
    const delay = backoffDelay(attempt);
    attempt += 1;
    onStatus("reconnecting", { attempt, delay });
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
      const ack = nextAck++;
      const msg = { t, ack, d };
      const v = getVersion();
      if (VERSIONED_INPUTS.has(t) && v !== null && v !== undefined) msg.v = v;
      unanswered.set(ack, msg);
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
    if (pingTimer) timers.clearTimeout(pingTimer);
    retryTimer = null;
    if (socket) socket.close();
  }

  connect();
  return { send, sendAim, requestCatchUp, close, unanswered: () => unanswered.size };
}
