// @ts-check
/**
 * A club's TV page of an event (game/templates/game/tournaments/tv.html): the whole screen, never
 * scrolled. Each section (the tables, the draw, the latest results, the standings) shows as many of
 * its rows as fit its box; when there are more it pages itself, a page every few seconds, and says
 * which page it shows ("2/3"). The socket (tournament.js `watchTournament`) brings the parts again
 * when something changes, and the page says so when the connection is lost: the red "live" badge is
 * on only while the server answers.
 *
 * The pure parts (`pagesFor`, `createRotator`, `elapsedMinutes`) take their clock and timers as
 * arguments, so tests drive them without waiting (tests/js/tv.test.mjs; the page itself under
 * Playwright's fake clock).
 */
import { applyScore, createRefresher, followTables, tournamentSocketUrl, watchTournament } from "./tournament.js";

/**
 * Split rows of the given heights into pages of at most `available` pixels each (a row taller than
 * the box gets a page of its own). Returns each page's first and last row index (inclusive).
 * @param {number[]} heights
 * @param {number} available
 * @returns {Array<[number, number]>}
 */
export function pagesFor(heights, available) {
  /** @type {Array<[number, number]>} */
  const pages = [];
  let start = 0;
  let used = 0;
  heights.forEach((height, index) => {
    if (index > start && used + height > available) {
      pages.push([start, index - 1]);
      start = index;
      used = 0;
    }
    used += height;
  });
  if (heights.length) pages.push([start, heights.length - 1]);
  return pages;
}

/**
 * Calls `show(page)` for page 0 now and for the next page every `every` ms, round and round, while
 * there is more than one; `stop()` ends it.
 * @param {{count: number, every: number, show: (page: number) => void, setTimer?: Function,
 *   clearTimer?: Function}} options
 */
export function createRotator({
  count,
  every,
  show,
  setTimer = (/** @type {Function} */ f, /** @type {number} */ ms) => setTimeout(f, ms),
  clearTimer = (/** @type {any} */ h) => clearTimeout(h),
}) {
  let page = 0;
  let timer = null;
  show(page);
  function tick() {
    page = (page + 1) % count;
    show(page);
    timer = setTimer(tick, every);
  }
  if (count > 1) timer = setTimer(tick, every);
  return {
    stop() {
      if (timer !== null) clearTimer(timer);
      timer = null;
    },
    page: () => page,
  };
}

/**
 * Whole minutes a game has been on its table, on the server's clock (`skew`: the server's time
 * minus this screen's, measured when the page was made).
 * @param {number} sinceMs
 * @param {number} nowMs
 * @param {number} skew
 */
export function elapsedMinutes(sinceMs, nowMs, skew) {
  return Math.max(0, Math.floor((nowMs + skew - sinceMs) / 60000));
}

/**
 * Pages every section of `container` that has more rows than room.
 * @param {Element} container
 * @param {number} every
 * @returns {() => void} stop
 */
function pageSections(container, every) {
  /** @type {Array<{stop: () => void}>} */
  const rotators = [];
  for (const section of container.querySelectorAll("[data-tv-section]")) {
    const box = /** @type {HTMLElement | null} */ (section.querySelector("[data-rows]"));
    const label = section.querySelector("[data-page-of]");
    if (!box) continue;
    const rows = /** @type {HTMLElement[]} */ ([...box.querySelectorAll("[data-row]")]);
    rows.forEach((row) => (row.hidden = false));
    const heights = rows.map((row) => row.getBoundingClientRect().height);
    // What the box holds besides its rows (a table's head, a caption) stays on every page.
    const rest = box.scrollHeight - heights.reduce((sum, height) => sum + height, 0);
    const pages = pagesFor(heights, box.clientHeight - rest);
    const show = (/** @type {number} */ page) => {
      const [first, last] = pages[page] ?? [0, rows.length - 1];
      rows.forEach((row, index) => (row.hidden = index < first || index > last));
      if (label) label.textContent = pages.length > 1 ? `${page + 1}/${pages.length}` : "";
      section.setAttribute("data-page", String(page + 1));
      section.setAttribute("data-pages", String(pages.length));
    };
    rotators.push(createRotator({ count: Math.max(1, pages.length), every, show }));
  }
  return () => rotators.forEach((rotator) => rotator.stop());
}

/**
 * The games' minutes on their tables, written again each half minute.
 * @param {Element} container
 * @param {number} skew
 */
function writeClocks(container, skew) {
  for (const clock of container.querySelectorAll("[data-since]")) {
    const since = Number(clock.getAttribute("data-since"));
    const minutes = elapsedMinutes(since, Date.now(), skew);
    const limit = clock.getAttribute("data-limit");
    clock.textContent = limit ? `${minutes}/${limit} min` : `${minutes} min`;
  }
}

function tvPage() {
  const root = /** @type {HTMLElement | null} */ (document.querySelector("[data-tv-root]"));
  const parts = root?.querySelector("[data-tv-parts]");
  if (!root || !parts) return;
  const every = 1000 * Number(root.dataset.pageSeconds || 12);
  const skew = Number(root.dataset.now || Date.now()) - Date.now();
  let stopPaging = pageSections(parts, every);
  writeClocks(parts, skew);
  setInterval(() => writeClocks(parts, skew), 30000);
  /** @type {{reread: () => void} | null} */
  let tables = null;
  const refresh = createRefresher(async () => {
    const response = await fetch(root.dataset.partsUrl || "", { headers: { Accept: "text/html" }, cache: "no-store" });
    if (!response.ok) return;
    const html = await response.text();
    stopPaging();
    parts.innerHTML = html;
    stopPaging = pageSections(parts, every);
    writeClocks(parts, skew);
    tables?.reread();
  });
  // The games scored at the tables: their rows' score, run and clock as they change.
  tables = followTables(root, () => parts, refresh);
  let resized = null;
  window.addEventListener("resize", () => {
    if (resized !== null) clearTimeout(resized);
    resized = setTimeout(() => {
      stopPaging();
      stopPaging = pageSections(parts, every);
    }, 300);
  });
  watchTournament({
    url: tournamentSocketUrl(root.dataset.tournamentId),
    onState(state) {
      document.body.dataset.connection = state;
    },
    onMessage(msg) {
      if (msg.d.match) applyScore(parts, msg.d.match, msg.d.scores);
      if (msg.d.reload) refresh();
    },
    onBack: refresh,
  });
}

if (typeof document !== "undefined") tvPage();
