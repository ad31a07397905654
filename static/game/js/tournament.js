// A tournament's pages without reloads: ws/tournament/<id>/ says when something changed
// (`tournament {match, scores, event, reload}`, docs/protocol.md). A score is written into its row at
// once; a started or finished match (or a new round) fetches the changing parts again from the
// server, which renders them (the page never computes standings). Reconnects with a capped backoff.

const root = typeof document !== "undefined" ? document.querySelector("[data-live-root]") : null;
const statusLine = root ? document.querySelector("[data-socket-status]") : null;

function setStatus(text) {
  if (statusLine) statusLine.textContent = text;
}

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

const refresh = createRefresher(async () => {
  const response = await fetch(root.dataset.partsUrl, { headers: { Accept: "text/html" }, cache: "no-store" });
  const html = response.ok ? await response.text() : null;
  if (html !== null) root.innerHTML = html;
});

function connect(attempt = 0) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/tournament/${root.dataset.tournamentId}/`);
  socket.addEventListener("open", () => {
    if (attempt > 0) refresh(); // whatever happened while we were away
    attempt = 0;
    setStatus(statusLine?.dataset.live ?? "Live");
  });
  socket.addEventListener("message", (event) => {
    const msg = JSON.parse(event.data);
    if (msg.t !== "tournament") return;
    if (msg.d.match) applyScore(root, msg.d.match, msg.d.scores);
    if (msg.d.reload) refresh();
  });
  socket.addEventListener("close", (event) => {
    // 4429: refused for too many sockets of this address (game/realtime/socket_lifecycle.py): say why.
    setStatus(event.code === 4429 && event.reason ? event.reason : "…");
    setTimeout(() => connect(attempt + 1), Math.min(10000, 500 * 2 ** attempt));
  });
}

if (root) connect();
