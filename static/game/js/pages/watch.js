// @ts-check
/**
 * Keeps the Watch page (and the featured match on the home page) live by polling /watch.json.
 *
 * Polling a small JSON endpoint is robust across daphne processes and reconnects, and a few seconds of
 * delay is fine for a list; the match page itself is where spectators get every shot live.
 * The rows are rebuilt with the same markup as the server's `_live_table.html`.
 */

import { gettext } from "../i18n.js";
import { phaseName } from "../ui/words.js";

export const POLL_MS = 4000;

function escapeHtml(text) {
  return String(text ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

/** One live row as HTML (pure: tested through the page). */
export function rowHtml(m) {
  const players = m.players
    .map((p, i) => {
      const cls = p.to_play ? "live-player to-play" : "live-player";
      const rating = `<span class="rating${p.provisional ? " provisional" : ""}">${escapeHtml(p.rating_label)}</span>`;
      const link = `<a href="/players/${encodeURIComponent(p.name)}/">${escapeHtml(p.name)}</a>`;
      return `<span class="${cls}">${link} ${rating}</span>${i === 0 ? `<span class="vs">${escapeHtml(gettext("vs"))}</span>` : ""}`;
    })
    .join("");
  const rated = m.rated
    ? `<span class="tag rated">${escapeHtml(gettext("Rated"))}</span>`
    : `<span class="tag">${escapeHtml(gettext("Casual"))}</span>`;
  const club = m.club ? ` <a class="tag club" href="/clubs/${encodeURIComponent(m.club.slug)}/">${escapeHtml(m.club.name)}</a>` : "";
  const watching = m.spectators === null || m.spectators === undefined ? "–" : String(m.spectators);
  return (
    `<tr data-match="${escapeHtml(m.id)}">` +
    `<td class="live-players">${players}<span class="tags">${rated}${club}</span></td>` +
    `<td class="num score">${m.players[0].score}<span class="dash">–</span>${m.players[1].score}</td>` +
    `<td class="phase hide-sm">${escapeHtml(phaseName(m.phase || "play"))}</td>` +
    `<td class="num" data-label="${escapeHtml(gettext("Watching"))}">${watching}</td>` +
    `<td class="actions"><a class="button small" href="${escapeHtml(m.url)}">${escapeHtml(gettext("Watch"))}</a></td>` +
    `</tr>`
  );
}

function render(matches, body, emptyText) {
  body.innerHTML = matches.length
    ? matches.map(rowHtml).join("")
    : `<tr class="empty"><td colspan="5">${escapeHtml(emptyText)}</td></tr>`;
}

/**
 * The featured match's small table: the position as stored, drawn with the client's own renderers
 * (loaded only when the page has one, so the Watch page stays light).
 */
async function createFeaturedTable(canvas) {
  const tableEl = document.getElementById("featured-table");
  const ballsEl = document.getElementById("featured-balls");
  if (!canvas || !tableEl) return null;
  const [{ fitTable }, { renderTable }, { createBallSprites, drawBalls }] = await Promise.all([
    import("../transform.js"),
    import("../render/table.js"),
    import("../render/balls.js"),
  ]);
  const table = JSON.parse(tableEl.textContent);
  let balls = ballsEl ? JSON.parse(ballsEl.textContent) : {};
  function draw() {
    const rect = canvas.getBoundingClientRect();
    const dpr = window.devicePixelRatio || 1;
    const tf = fitTable(table, Math.max(100, rect.width), Math.max(60, rect.height), dpr, "landscape", 4);
    canvas.width = tf.pixelWidth;
    canvas.height = tf.pixelHeight;
    const ctx = canvas.getContext("2d");
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.drawImage(renderTable(table, tf), 0, 0);
    const shown = {};
    for (const [id, pos] of Object.entries(balls || {})) if (Array.isArray(pos)) shown[id] = { x: pos[0], y: pos[1], drop: 0 };
    drawBalls(ctx, createBallSprites(table.ball_radius * tf.scale * dpr), tf, shown, table.ball_radius, {});
  }
  draw();
  window.addEventListener("resize", draw);
  return (next) => {
    balls = next;
    draw();
  };
}

let redrawFeatured = null;

function updateFeatured(matches) {
  const box = /** @type {HTMLElement} */ (document.querySelector("[data-featured]"));
  if (!box) return;
  const match = matches.find((m) => m.id === box.dataset.featured);
  if (!match) {
    box.classList.add("ended");
    return;
  }
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (box.querySelectorAll("[data-seat]"))) {
    el.textContent = match.players[Number(el.dataset.seat)].score;
  }
  if (redrawFeatured && match.balls) redrawFeatured(match.balls);
}

function startPolling() {
  const section = /** @type {HTMLElement} */ (document.querySelector("[data-watch]"));
  const body = section && section.querySelector("[data-live-rows]");
  const count = document.querySelector("[data-live-count]");
  const source = (section && section.dataset.source) || "/watch.json";
  const emptyRow = body && body.querySelector("tr.empty td");
  const emptyText = emptyRow ? emptyRow.textContent : gettext("Nobody is playing right now.");
  let timer = null;

  async function poll() {
    timer = null;
    try {
      const response = await fetch(source, { headers: { Accept: "application/json" }, cache: "no-store" });
      if (response.ok) {
        const { matches } = await response.json();
        if (body) render(matches, body, emptyText);
        if (count) count.textContent = String(matches.length);
        updateFeatured(matches);
        document.documentElement.dataset.watchUpdated = String(Date.now());
      }
    } catch {
      // A missed poll is harmless: the next one catches up.
    }
    schedule();
  }

  function schedule() {
    if (timer === null && !document.hidden) timer = setTimeout(poll, POLL_MS);
  }

  function onVisibility() {
    if (document.hidden) {
      clearTimeout(timer);
      timer = null;
    } else {
      poll();
    }
  }

  document.addEventListener("visibilitychange", onVisibility);
  schedule();
  return () => {
    document.removeEventListener("visibilitychange", onVisibility);
    clearTimeout(timer);
  };
}

if (document.querySelector("[data-watch], [data-featured]")) {
  startPolling();
  createFeaturedTable(document.querySelector("[data-featured-canvas]")).then((redraw) => {
    redrawFeatured = redraw;
  });
}
