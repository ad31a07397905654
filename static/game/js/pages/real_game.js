// @ts-check
/**
 * A real game's live page (game/templates/game/realgames/live.html): the score, the current run, the
 * visits, the clock, the last shots in words and the next game on the table, as the table's scorer
 * taps them. ws/realgame/<id>/ sends the whole game on every change (`real_state`, versioned: an
 * older one is ignored) and how many are watching (`real_presence`); the clock runs here between
 * messages from the server's instants. Reconnects with the pages' backoff (socket.js): the socket's
 * first message is the game as it is, so nothing missed while away stays missed.
 */
import { FOLLOW_BACKOFF, createReconnectingSocket, pageSocketUrl } from "../socket.js";
import { createGameStore, fillBoard, presenceOf, realStateOf, shotWords, writeClocks, writeText } from "../realgame_view.js";

/**
 * The last shots as list items (the newest first, as the server lists them).
 * @param {HTMLElement} list
 * @param {import("../realgame_view.js").RealGame} game
 */
export function writeShots(list, game) {
  const items = game.last_shots.map((shot) => {
    const item = document.createElement("li");
    item.dataset.rgShot = "";
    const who = typeof shot.player === "number" ? (game.players[shot.player]?.name ?? "") : shot.player;
    const player = document.createElement("span");
    player.className = "rg-shot-player";
    player.textContent = who;
    const words = document.createElement("span");
    words.className = "rg-shot-words";
    words.textContent = shotWords(shot);
    const points = document.createElement("span");
    points.className = "rg-shot-points";
    points.textContent = shot.points > 0 ? `+${shot.points}` : String(shot.points);
    item.append(player, ": ", words, " ", points);
    if (shot.rules?.length) {
      const rules = document.createElement("span");
      rules.className = "rg-shot-rules muted";
      rules.textContent = shot.rules.join(", ");
      item.append(" ", rules);
    }
    return item;
  });
  if (items.length) list.replaceChildren(...items);
}

function realGamePage() {
  const root = /** @type {HTMLElement | null} */ (document.querySelector("[data-real-root]"));
  const board = /** @type {HTMLElement | null} */ (root?.querySelector("[data-real-game]") ?? null);
  const data = document.getElementById("real-game-data");
  if (!root || !board || !data) return;
  const status = /** @type {HTMLElement | null} */ (document.querySelector("[data-socket-status]"));
  const shots = /** @type {HTMLElement | null} */ (root.querySelector("[data-rg-shots]"));
  const words = /** @type {HTMLElement | null} */ (root.querySelector("[data-rg-status]"));
  const skew = Number(root.dataset.now || Date.now()) - Date.now();
  const store = createGameStore();
  store.put(Number(board.dataset.version || 0), JSON.parse(data.textContent || "{}"));
  const gameId = Number(root.dataset.gameId);
  const tick = () => writeClocks(root, (id) => store.get(id), Date.now(), skew);
  tick();
  setInterval(tick, 1000);
  createReconnectingSocket({
    url: pageSocketUrl(root.dataset.socket || ""),
    backoff: FOLLOW_BACKOFF,
    onOpen() {
      document.body.dataset.connection = "live";
      if (status) status.textContent = status.dataset.live || "";
    },
    onClose() {
      document.body.dataset.connection = "lost";
      if (status) status.textContent = status.dataset.lost || "";
    },
    onMessage(msg) {
      const presence = presenceOf(msg);
      if (presence && presence.game === gameId) {
        writeText(board, "[data-rg-spectators]", String(presence.spectators));
        return;
      }
      const state = realStateOf(msg);
      if (!state || state.game.id !== gameId || !store.put(state.version, state.game)) return;
      const game = state.game;
      fillBoard(board, game, state.version);
      if (words) words.textContent = words.dataset[game.status] || game.status;
      if (shots) writeShots(shots, game);
      tick();
    },
  });
}

if (typeof document !== "undefined") realGamePage();
