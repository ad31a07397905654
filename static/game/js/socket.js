// @ts-check
/**
 * The reconnecting socket of the pages that follow the server (the lobby, a tournament's live and TV
 * pages), and the one backoff schedule every socket of the client waits by, net.js's match socket
 * included. Opens, parses each frame as JSON, and after a close waits a doubling, capped delay before
 * opening again; the delay starts over once a socket opens. It knows nothing of what the messages mean.
 */

/**
 * A reconnect schedule: the first delay, the cap, and the share of each delay drawn at random either
 * way (so that the sockets a server restart closed do not all come back in the same millisecond).
 * @typedef {{base: number, max: number, jitter: number}} Backoff
 */

/** The match socket's (net.js): 0.4 s doubling to 10 s, ±25 %: a player is back within a second. */
export const MATCH_BACKOFF = Object.freeze({ base: 400, max: 10_000, jitter: 0.25 });
/** The pages that only follow (lobby, tournament): 0.5 s doubling to 10 s, no jitter. */
export const FOLLOW_BACKOFF = Object.freeze({ base: 500, max: 10_000, jitter: 0 });

/**
 * The delay before reconnect attempt `attempt` (0-based): `base · 2^attempt`, capped at `max`, then
 * moved by up to ±`jitter` of itself with `random` (a number in [0, 1]).
 * @param {number} attempt
 * @param {Backoff} schedule
 * @param {() => number} [random]
 * @returns {number} milliseconds
 */
export function reconnectDelay(attempt, schedule, random = Math.random) {
  const base = Math.min(schedule.max, schedule.base * 2 ** attempt);
  if (!schedule.jitter) return base;
  return Math.round(base * (1 - schedule.jitter + 2 * schedule.jitter * random()));
}

/** The ws:// or wss:// URL of `path` on the page's host. */
export function pageSocketUrl(path, location = globalThis.location) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${location.host}${path}`;
}

/**
 * A socket opened again after every close until `stop()`.
 * - `onOpen({attempt})`: a socket opened; `attempt` counts the reconnects before it (0: the first);
 * - `onMessage(msg)`: a frame parsed as JSON (one that is not JSON is dropped);
 * - `onClose(detail, next)`: the socket closed (or was dropped): its close `code` and `reason`, and
 *   when the next one opens (`delay` ms) as reconnect `attempt`.
 * @param {{
 *   url: string,
 *   onMessage: (msg: any) => void,
 *   onOpen?: (info: {attempt: number}) => void,
 *   onClose?: (detail: {code?: number, reason?: string}, next: {attempt: number, delay: number}) => void,
 *   backoff?: Backoff,
 *   WebSocketImpl?: any,
 *   setTimer?: (f: () => void, ms: number) => any,
 *   clearTimer?: (handle: any) => void,
 *   random?: () => number,
 * }} options
 * @returns {{send: (msg: object) => boolean, drop: () => void, stop: () => void}}
 *   `send`: false when no socket is open; `drop`: give the current socket up as if it had closed (a
 *   ping unanswered); `stop`: close it for good.
 */
export function createReconnectingSocket({
  url,
  onMessage,
  onOpen = () => {},
  onClose = () => {},
  backoff = FOLLOW_BACKOFF,
  WebSocketImpl = globalThis.WebSocket,
  setTimer = (f, ms) => setTimeout(f, ms),
  clearTimer = (handle) => clearTimeout(handle),
  random = Math.random,
}) {
  let socket = null;
  let attempt = 0;
  let stopped = false;
  let retryTimer = null;

  function lost(current, detail) {
    if (current !== socket) return;
    socket = null;
    try {
      current.close();
    } catch {
      // already closed
    }
    if (stopped) return;
    const delay = reconnectDelay(attempt, backoff, random);
    attempt += 1;
    onClose(detail, { attempt, delay });
    retryTimer = setTimer(open, delay);
  }

  function open() {
    retryTimer = null;
    if (stopped) return;
    const current = new WebSocketImpl(url);
    socket = current;
    current.addEventListener("open", () => {
      if (current !== socket) return;
      const before = attempt;
      attempt = 0;
      onOpen({ attempt: before });
    });
    current.addEventListener("message", (event) => {
      if (current !== socket) return;
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return;
      }
      onMessage(msg);
    });
    current.addEventListener("close", (event) => lost(current, { code: event.code, reason: event.reason }));
  }

  open();
  return {
    send(msg) {
      if (!socket || socket.readyState !== 1) return false;
      socket.send(JSON.stringify(msg));
      return true;
    },
    drop: () => lost(socket, {}),
    stop() {
      stopped = true;
      if (retryTimer !== null) clearTimer(retryTimer);
      retryTimer = null;
      const current = socket;
      socket = null;
      if (current) current.close();
    },
  };
}
