// @ts-check
// A tournament's pages without reloads: ws/tournament/<id>/ says when something changed
// (`tournament {match, scores, event, reload}`, docs/protocol.md). A score is written into its row at
// once; a started or finished match (or a new round) fetches the changing parts again from the
// server, which renders them (the page never computes standings). Reconnects with the pages' backoff
// (socket.js).
//
// `watchTournament` owns the socket for every page that follows a tournament (this live page and the
// club's TV page, tv.js); it tells its page whether the connection is live, and says it is lost when
// the socket closes or a ping goes unanswered (a club's wifi gone can leave a socket open for minutes
// with nothing behind it): a page never shows "live" over a server that is gone.

import { followRealGames } from "../realgame_view.js";
import { FOLLOW_BACKOFF, createReconnectingSocket, pageSocketUrl } from "../socket.js";

const root = typeof document !== "undefined" ? /** @type {HTMLElement} */ (document.querySelector("[data-live-root]")) : null;
const statusLine = root ? /** @type {HTMLElement} */ (document.querySelector("[data-socket-status]")) : null;

export function applyScore(container, matchId, scores) {
  const row = container.querySelector(`tr[data-match="${CSS.escape(matchId)}"]`);
  if (!row || !Array.isArray(scores) || scores.length !== 2) return false;
  const cell = row.querySelector("[data-score]");
  if (cell) cell.textContent = `${scores[0]}–${scores[1]}`;
  return true;
}

/**
 * Coalesce refreshes: one load at a time, and a change announced while a load is in flight loads once
 * more after it. Dropping it (as a plain "already fetching" check does) left the page behind the server
 * when two matches of a round finished within one fetch: the second finish was never shown.
 * @param {() => Promise<void>} load
 * @returns {() => Promise<void>} refresh
 */
export function createRefresher(load) {
  let running = null;
  let again = false;
  function refresh() {
    if (running) {
      again = true;
      return running;
    }
    running = Promise.resolve()
      .then(load)
      .catch(() => {})
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          refresh();
        }
      });
    return running;
  }
  return refresh;
}

/**
 * Follow ws/tournament/<id>/: `onState("live" | "lost", detail)` as the connection comes and goes,
 * `onMessage(msg)` for each tournament message, `onBack()` after a reconnect (whatever happened while
 * away must be fetched). A ping every `pingEvery` ms that has no answer within `pongWithin` ms counts
 * as a lost connection: the socket is closed and opened again.
 * @param {{url: string, onState: (state: string, detail?: any) => void,
 *   onMessage: (msg: import("../types").TournamentMessage) => void,
 *   onBack?: () => void, WebSocketImpl?: any, setTimer?: (f: () => void, ms: number) => any,
 *   clearTimer?: (handle: any) => void,
 *   pingEvery?: number, pongWithin?: number}} options
 * @returns {() => void} stop
 */
export function watchTournament({
  url,
  onState,
  onMessage,
  onBack = () => {},
  WebSocketImpl = globalThis.WebSocket,
  setTimer = (f, ms) => setTimeout(f, ms),
  clearTimer = (h) => clearTimeout(h),
  pingEvery = 15000,
  pongWithin = 10000,
}) {
  let pingTimer = null;
  let pongTimer = null;

  function clearPing() {
    if (pingTimer !== null) clearTimer(pingTimer);
    if (pongTimer !== null) clearTimer(pongTimer);
    pingTimer = pongTimer = null;
  }

  /** A ping after `pingEvery` of quiet; no answer within `pongWithin`: the socket is given up. */
  function schedulePing() {
    clearPing();
    pingTimer = setTimer(() => {
      pingTimer = null;
      link.send({ t: "ping" });
      pongTimer = setTimer(() => {
        pongTimer = null;
        link.drop();
      }, pongWithin);
    }, pingEvery);
  }

  const link = createReconnectingSocket({
    url,
    backoff: FOLLOW_BACKOFF,
    WebSocketImpl,
    setTimer,
    clearTimer,
    onOpen({ attempt }) {
      if (attempt > 0) onBack();
      onState("live");
      schedulePing();
    },
    onMessage(msg) {
      schedulePing(); // anything heard says the connection lives
      if (msg && msg.t === "tournament") onMessage(msg);
    },
    onClose(detail) {
      clearPing();
      onState("lost", detail);
    },
  });

  return function stop() {
    clearPing();
    link.stop();
  };
}

/** The socket's address for tournament `id` on this page's host. */
export function tournamentSocketUrl(id) {
  return pageSocketUrl(`/ws/tournament/${id}/`);
}

/**
 * Follow the games scored at an event's tables (ws/realevent/<id>/) in `container`'s table rows: a
 * row's score, run and clock written as they change; a game on a table whose row shows another one
 * calls `refresh` (the page's parts fetched again). Only for an event played at the club's tables
 * (the page says the socket's path in `data-real-socket`).
 * @param {HTMLElement} root
 * @param {() => ParentNode} container
 * @param {() => Promise<void>} refresh
 * @returns {{reread: () => void} | null}
 */
export function followTables(root, container, refresh) {
  if (!root.dataset.realSocket) return null;
  return followRealGames({
    url: pageSocketUrl(root.dataset.realSocket),
    container,
    skew: Number(root.dataset.now || Date.now()) - Date.now(),
    onUnknown(game) {
      if (game.table && container().querySelector(`[data-table="${game.table.number}"]`)) refresh();
    },
    onBack: refresh,
  });
}

function livePage() {
  /** @type {{reread: () => void} | null} */
  let tables = null;
  const refresh = createRefresher(async () => {
    const response = await fetch(root.dataset.partsUrl, { headers: { Accept: "text/html" }, cache: "no-store" });
    const html = response.ok ? await response.text() : null;
    if (html !== null) root.innerHTML = html;
    tables?.reread();
  });
  tables = followTables(root, () => root, refresh);
  watchTournament({
    url: tournamentSocketUrl(root.dataset.tournamentId),
    onState(state, detail) {
      document.body.dataset.connection = state;
      if (!statusLine) return;
      if (state === "live") statusLine.textContent = statusLine.dataset.live ?? "Live";
      // 4429: refused for too many sockets of this address (game/realtime/socket_lifecycle.py): say why.
      else if (detail?.code === 4429 && detail.reason) statusLine.textContent = detail.reason;
      else statusLine.textContent = statusLine.dataset.lost ?? "…";
    },
    onMessage(msg) {
      if (msg.d.match) applyScore(root, msg.d.match, msg.d.scores);
      if (msg.d.reload) refresh();
    },
    onBack: refresh,
  });
}

if (root) livePage();
