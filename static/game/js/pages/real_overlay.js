// @ts-check
/**
 * A stream overlay (game/templates/game/realgames/overlay.html, an OBS browser source): the boards of
 * one table's game or of an event's tables over a transparent page. Its socket (a table's
 * ws/realtable/<id>/, an event's ws/realevent/<id>/) sends each game whole on every change
 * (`real_state`); a board shown is filled at once, and a game the overlay does not show yet (the next
 * game came to a table) fetches the boards again from the server, which lays them out. The clocks run
 * here between messages, from the server's instants.
 */
import { pageSocketUrl } from "../socket.js";
import { followRealGames } from "../realgame_view.js";
import { createRefresher } from "./tournament.js";

/**
 * Whether a game the overlay does not show belongs on it: on a table it shows (by number) and newer
 * than the game there, or any game while the overlay shows none.
 * @param {ParentNode} container
 * @param {import("../realgame_view.js").RealGame} game
 */
export function belongsOn(container, game) {
  const number = game.table?.number;
  const board = /** @type {HTMLElement | null} */ (
    number === undefined ? null : container.querySelector(`[data-table-number="${number}"]`)
  );
  if (board) return Number(board.dataset.realGame) < game.id;
  return Boolean(container.querySelector("[data-overlay-idle]")) || container.querySelectorAll("[data-real-game]").length < 8;
}

function overlayPage() {
  const root = /** @type {HTMLElement | null} */ (document.querySelector("[data-overlay-root]"));
  const boards = /** @type {HTMLElement | null} */ (root?.querySelector("[data-overlay-boards]") ?? null);
  if (!root || !boards) return;
  const refresh = createRefresher(async () => {
    const response = await fetch(root.dataset.partsUrl || "", { headers: { Accept: "text/html" }, cache: "no-store" });
    if (!response.ok) return;
    boards.innerHTML = await response.text();
    boards.className = `rg-boards rg-boards--${boards.querySelectorAll("[data-real-game]").length}`;
    follower.reread();
  });
  const follower = followRealGames({
    url: pageSocketUrl(root.dataset.socket || ""),
    container: () => boards,
    skew: Number(root.dataset.now || Date.now()) - Date.now(),
    onUnknown(game) {
      if (belongsOn(boards, game)) refresh();
    },
    onState(state) {
      document.body.dataset.connection = state;
    },
    onBack: refresh,
  });
}

if (typeof document !== "undefined") overlayPage();
