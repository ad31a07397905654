// @ts-check
/**
 * A real game (one scored at a club's table) as the pages that follow it show it: its live page, the
 * event's live and TV pages, the stream overlays. The server sends the whole game on every change,
 * `real_state` with a version (docs/protocol.md, built by one selector on the server); these pure
 * functions keep the newest of each game and say its clock and score in words, so every page shows
 * the same. The writers take their container as an argument; `followRealGames` owns the socket of
 * the pages that follow several games.
 */
import { gettext, said } from "./i18n.js";
import { FOLLOW_BACKOFF, createReconnectingSocket } from "./socket.js";

/**
 * What the server says of one game (game/realgames/selectors.py `real_game_view`).
 * @typedef {{name: string, score: number, handicap?: number, run: number, visits: number,
 *   highest_run?: number, fouls?: number}} RealPlayer
 * @typedef {{player: number | string, words: string | Record<string, string>, points: number, rules: string[]}} RealShot
 * @typedef {{id: number, table: {number: number, name: string, stream_url?: string,
 *   scoreboard_url?: string} | null, event: {id: number, name: string, round: number | string | null} | null,
 *   players: RealPlayer[], turn: number, status: string, clock: Record<string, any> | null,
 *   last_shots: RealShot[], next_game: {first: string, second: string} | null, spectators: number}} RealGame
 */

/**
 * The `{version, game}` of a real game message, or null when the message is another kind. The
 * server's `real_state` comes as `{type, version, game}`; the house envelope `{t, v, d}` is read too.
 * @param {any} msg
 * @returns {{version: number, game: RealGame} | null}
 */
export function realStateOf(msg) {
  if (!msg || typeof msg !== "object") return null;
  if (msg.type === "real_state" && msg.game && typeof msg.game === "object") {
    return { version: Number(msg.version) || 0, game: msg.game };
  }
  if (msg.t === "real_state" && msg.d && typeof msg.d === "object") {
    const game = msg.d.game && typeof msg.d.game === "object" ? msg.d.game : msg.d;
    return { version: Number(msg.v ?? msg.d.version) || 0, game };
  }
  return null;
}

/**
 * The games a page holds, by id: a message older than the one shown (two processes publishing
 * close together, a reconnect's snapshot after a newer event) changes nothing.
 * @returns {{put: (version: number, game: RealGame) => boolean, get: (id: number) => RealGame | undefined,
 *   version: (id: number) => number, all: () => RealGame[]}}
 */
export function createGameStore() {
  /** @type {Map<number, {version: number, game: RealGame}>} */
  const games = new Map();
  return {
    put(version, game) {
      const held = games.get(game.id);
      if (held && held.version > version) return false;
      games.set(game.id, { version, game });
      return true;
    },
    get: (id) => games.get(id)?.game,
    version: (id) => games.get(id)?.version ?? -1,
    all: () => [...games.values()].map((held) => held.game),
  };
}

/** Minutes and seconds, "m:ss" (negative numbers shown as 0:00). */
export function minutesSeconds(ms) {
  const total = Math.max(0, Math.floor(ms / 1000));
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  return `${minutes}:${String(seconds).padStart(2, "0")}`;
}

/**
 * What the clock shows now (K-11, on the server's clock: game/realgames/selectors.py `clock_view`,
 * seconds): the time left of the event's limit, or the time played when there is none; the extra
 * visits left once the limit is past; the shoot-out. `stage` is "running", "warning", "time_up",
 * "extra_visits", "shootout", "stopped" or "none". `skew` is the server's time minus this page's (ms).
 * @param {Record<string, any> | null | undefined} clock
 * @param {number} nowMs
 * @param {number} [skew]
 * @returns {{text: string, stage: string}}
 */
export function clockReading(clock, nowMs, skew = 0) {
  if (!clock || typeof clock !== "object") return { text: "", stage: "none" };
  const phase = String(clock.phase || "play");
  if (clock.shootout || phase === "shootout" || phase === "shootout_lag") {
    return { text: gettext("Shoot-out"), stage: "shootout" };
  }
  if (phase === "extra_visits") {
    const left = Number(clock.extra_visits_left) || 0;
    return { text: `${gettext("Extra visits")}: ${left}`, stage: "extra_visits" };
  }
  const limit = typeof clock.limit === "number" ? clock.limit : null;
  const started = typeof clock.started_at === "number" ? clock.started_at : null;
  const running = started !== null && phase === "play" && !clock.time_up;
  const elapsed = running ? Math.max(0, (nowMs + skew) / 1000 - started) : Number(clock.elapsed) || 0;
  if (limit === null) {
    return started === null ? { text: "", stage: "none" } : { text: minutesSeconds(elapsed * 1000), stage: running ? "running" : "stopped" };
  }
  const left = Math.max(0, limit - elapsed);
  if (!running) return { text: minutesSeconds(left * 1000), stage: clock.time_up ? "time_up" : "stopped" };
  if (left <= 0) return { text: minutesSeconds(0), stage: "time_up" };
  const warned = typeof clock.warning_at === "number" && elapsed >= clock.warning_at;
  return { text: minutesSeconds(left * 1000), stage: warned ? "warning" : "running" };
}

/**
 * A shot's words in the page's language (the server sends them in every language).
 * @param {RealShot} shot
 */
export function shotWords(shot) {
  return typeof shot.words === "string" ? shot.words : said({ words: shot.words });
}

/**
 * The score line of a game as "12–7" (an en dash, the site's score style).
 * @param {RealGame} game
 */
export function scoreLine(game) {
  const [first, second] = game.players;
  return `${first?.score ?? 0}–${second?.score ?? 0}`;
}

/**
 * The spectators a socket's presence message counts for a game, or null for another message
 * (`real_presence {game, spectators}`).
 * @param {any} msg
 * @returns {{game: number, spectators: number} | null}
 */
export function presenceOf(msg) {
  const data = msg?.t === "real_presence" ? msg.d : null;
  if (!data || typeof data.game !== "number" || typeof data.spectators !== "number") return null;
  return { game: data.game, spectators: data.spectators };
}

/**
 * Write `text` into every element of `root` that matches `selector` (only when it changed: a
 * screen that follows fifty tables rewrites what moved).
 * @param {ParentNode} root
 * @param {string} selector
 * @param {string} text
 */
export function writeText(root, selector, text) {
  for (const element of root.querySelectorAll(selector)) {
    if (element.textContent !== text) element.textContent = text;
  }
}

/**
 * Fill a game's board (any element holding the data-rg-* slots: a live page, a TV row, an overlay
 * board) from its state: names, scores, runs, visits, whose turn, the clock's stage.
 * @param {HTMLElement} board
 * @param {RealGame} game
 * @param {number} version
 */
export function fillBoard(board, game, version) {
  board.dataset.version = String(version);
  board.dataset.status = game.status;
  game.players.forEach((player, seat) => {
    writeText(board, `[data-rg-name="${seat}"]`, player.name);
    writeText(board, `[data-rg-score="${seat}"]`, String(player.score));
    writeText(board, `[data-rg-run="${seat}"]`, String(player.run));
    writeText(board, `[data-rg-visits="${seat}"]`, String(player.visits));
    writeText(board, `[data-rg-highest="${seat}"]`, String(player.highest_run ?? 0));
    for (const element of board.querySelectorAll(`[data-rg-seat="${seat}"]`)) {
      element.classList.toggle("rg-turn", game.status === "playing" && game.turn === seat);
    }
  });
  writeText(board, "[data-rg-scoreline]", scoreLine(game));
  writeText(board, "[data-rg-run-now]", String(game.players[game.turn]?.run ?? 0));
  if (game.event) writeText(board, "[data-rg-round]", String(game.event.round ?? ""));
  if (typeof game.spectators === "number") writeText(board, "[data-rg-spectators]", String(game.spectators));
  const next = game.next_game;
  writeText(board, "[data-rg-next]", next ? `${next.first} – ${next.second}` : "");
  for (const element of board.querySelectorAll("[data-rg-next-line]")) {
    /** @type {HTMLElement} */ (element).hidden = !next;
  }
}

/**
 * The games whose boards `container` holds (their server-rendered state, `data-state`) put in `store`.
 * @param {ParentNode} container
 * @param {ReturnType<typeof createGameStore>} store
 */
export function readBoards(container, store) {
  for (const board of container.querySelectorAll("[data-real-game][data-state]")) {
    const element = /** @type {HTMLElement} */ (board);
    try {
      const state = JSON.parse(element.dataset.state || "null");
      if (state && typeof state.id === "number") store.put(Number(element.dataset.version || 0), state);
    } catch {
      // a board without its state shows what the server rendered until its next message
    }
  }
}

/**
 * Follow the real games of a page's `container` (an event's rows, an overlay's boards) over the socket
 * at `url`: a game whose board is shown is filled at once; one the page does not show calls
 * `onUnknown(game)` (the page fetches its parts again, then calls `reread`). The clocks are written
 * every second. `onState("live" | "lost")` as the connection comes and goes; `onBack` after a
 * reconnect (what happened while away must be fetched).
 * @param {{url: string, container: () => ParentNode, onUnknown: (game: RealGame) => void,
 *   onState?: (state: string) => void, onBack?: () => void, skew?: number}} options
 * @returns {{reread: () => void, stop: () => void}}
 */
export function followRealGames({ url, container, onUnknown, onState = () => {}, onBack = () => {}, skew = 0 }) {
  let store = createGameStore();
  readBoards(container(), store);
  const tick = () => writeClocks(container(), (id) => store.get(id), Date.now(), skew);
  tick();
  const clock = setInterval(tick, 1000);
  const socket = createReconnectingSocket({
    url,
    backoff: FOLLOW_BACKOFF,
    onOpen({ attempt }) {
      onState("live");
      if (attempt) onBack();
    },
    onClose() {
      onState("lost");
    },
    onMessage(msg) {
      const state = realStateOf(msg);
      if (!state) return;
      const shown = /** @type {HTMLElement[]} */ ([...container().querySelectorAll(`[data-real-game="${state.game.id}"]`)]);
      if (!shown.length) {
        onUnknown(state.game);
        return;
      }
      if (!store.put(state.version, state.game)) return;
      for (const board of shown) fillBoard(board, state.game, state.version);
      tick();
    },
  });
  return {
    reread() {
      store = createGameStore();
      readBoards(container(), store);
      tick();
    },
    stop() {
      clearInterval(clock);
      socket.stop();
    },
  };
}

/**
 * Write every clock of `root` from the games held: each `[data-rg-clock]` inside a board of game id.
 * @param {ParentNode} root
 * @param {(id: number) => RealGame | undefined} gameOf
 * @param {number} nowMs
 * @param {number} skew
 */
export function writeClocks(root, gameOf, nowMs, skew) {
  for (const board of root.querySelectorAll("[data-real-game]")) {
    const game = gameOf(Number(/** @type {HTMLElement} */ (board).dataset.realGame));
    if (!game) continue;
    const reading = clockReading(game.clock, nowMs, skew);
    for (const clock of board.querySelectorAll("[data-rg-clock]")) {
      if (clock.textContent !== reading.text) clock.textContent = reading.text;
      /** @type {HTMLElement} */ (clock).dataset.stage = reading.stage;
    }
  }
}
