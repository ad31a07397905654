// A tournament's pages without reloads: ws/tournament/<id>/ says when something changed
// (`tournament {match, scores, event, reload}`, docs/protocol.md). A score is written into its row at
// once; a started or finished match (or a new round) fetches the changing parts again from the
// server, which renders them (the page never computes standings). Reconnects with a capped backoff.

const root = document.querySelector("[data-live-root]");
const statusLine = document.querySelector("[data-socket-status]");

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

let fetching = null;
async function refresh() {
  if (fetching) return fetching;
  fetching = fetch(root.dataset.partsUrl, { headers: { Accept: "text/html" }, cache: "no-store" })
    .then((response) => (response.ok ? response.text() : null))
    .then((html) => {
      if (html !== null) root.innerHTML = html;
    })
    .finally(() => {
      fetching = null;
    });
  return fetching;
}

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
