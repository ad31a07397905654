// @ts-check
/**
 * The scorer's page of a real table (`/tables/<token>/score/`): the scorer taps what happened in the
 * players' words; the server's game (game/realgames) prices it with the engine's rules and answers
 * with the points, the rule ids and the words, which this page shows. Nothing here computes a point.
 *
 * Every tap is kept in localStorage under the table's token until the server acknowledges it by its
 * key (`real_ack` or `real_refused`): taps made while the connection is down stay on the phone, and are
 * sent in the order they were made when it is back; the server applies each key once, so a tap sent
 * again after a lost answer counts once.
 */

import { interpolate, said } from "../i18n.js";
import { createReconnectingSocket, MATCH_BACKOFF, pageSocketUrl } from "../socket.js";

/** @typedef {{t: string, d: Record<string, any>}} Outgoing */

const root = /** @type {HTMLElement | null} */ (document.querySelector("#kaiza-scorer"));

/** @param {HTMLElement} el @param {string} selector */
function one(el, selector) {
  return /** @type {HTMLElement} */ (el.querySelector(selector));
}

/** @param {HTMLElement} el @param {string} selector */
function all(el, selector) {
  return /** @type {HTMLElement[]} */ ([...el.querySelectorAll(selector)]);
}

/** @param {number} seconds */
function clockText(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** @param {HTMLElement} page */
function boot(page) {
  const data = page.dataset;
  const storeKey = `kaiza.scorer.${data.token}`;
  const session = Math.random().toString(36).slice(2, 8);
  let counter = 0;
  /** @type {any} */
  let game = null;
  let receivedAt = 0;
  let open = false;
  /** @type {{ball: string | null, pocket: string | null, way: string, cushions: number, via: string | null,
   *   caroms: Set<string>, foul: string, first: string}} */
  const draft = {
    ball: null,
    pocket: null,
    way: "direct",
    cushions: 1,
    via: null,
    caroms: new Set(),
    foul: "cue_ball_pocketed",
    first: "",
  };

  /** @returns {Outgoing[]} */
  function queued() {
    try {
      const kept = JSON.parse(localStorage.getItem(storeKey) || "[]");
      return Array.isArray(kept) ? kept : [];
    } catch {
      return [];
    }
  }

  /** @param {Outgoing[]} items */
  function keep(items) {
    localStorage.setItem(storeKey, JSON.stringify(items));
    page.dataset.queued = String(items.length);
    showStatus();
  }

  function newKey() {
    counter += 1;
    return `${session}-${Date.now().toString(36)}-${counter}`;
  }

  /** A tap or an undo: kept first, then sent if the socket is open (in order behind any kept ones). */
  /** @param {string} t @param {Record<string, any>} d */
  function submit(t, d) {
    const items = queued();
    items.push({ t, d: { ...d, key: newKey() } });
    keep(items);
    if (open) flush();
    showShots();
    step("ball");
  }

  /** Keys sent on the socket now open (sent again on the next one: the server takes each once). */
  const sent = new Set();

  function flush() {
    for (const item of queued()) {
      if (sent.has(item.d.key)) continue;
      if (!socket.send(item)) return;
      sent.add(item.d.key);
    }
  }

  /** @param {string} key */
  function settle(key) {
    keep(queued().filter((item) => item.d.key !== key));
  }

  // --- drawing ---------------------------------------------------------------------------------------

  function showStatus() {
    const status = one(page, "[data-socket-status]");
    const waiting = queued().length;
    let text = open ? data.live || "" : data.offline || "";
    if (waiting && !open) {
      text =
        waiting === 1
          ? data.keptOne || ""
          : interpolate(data.keptMany || "", { n: waiting });
    }
    status.textContent = text;
    status.dataset.state = open ? "live" : "offline";
  }

  /** @param {string} text */
  function notice(text) {
    const el = one(page, "[data-notice]");
    el.textContent = text;
    el.hidden = !text;
  }

  /** @param {string} name */
  function step(name) {
    for (const el of all(page, "[data-step]")) el.hidden = el.dataset.step !== name;
  }

  function showBoard() {
    if (!game) return;
    game.players.forEach((/** @type {any} */ p, /** @type {number} */ seat) => {
      const card = one(page, `.scorer-player[data-seat="${seat}"]`);
      one(card, ".scorer-name").textContent = p.name;
      one(card, ".scorer-score").textContent = String(p.score);
      one(card, ".scorer-line").textContent = [
        interpolate(data.run || "", { n: p.run }),
        interpolate(data.visits || "", { n: p.visits }),
        interpolate(data.best || "", { n: p.highest_run }),
      ].join(" · ");
      card.classList.toggle("turn", game.status !== "finished" && game.turn === seat);
      one(page, `[data-starter="${seat}"]`).textContent = p.name;
    });
    page.dataset.version = String(game.version);
    page.dataset.status = game.status;
    page.dataset.scores = game.players.map((/** @type {any} */ p) => p.score).join(" ");
    page.dataset.turn = String(game.turn);
    one(page, "[data-undo]").toggleAttribute("disabled", !game.can_undo);
    // The coach's real-position page, for the game on the table now (the next one comes without a reload).
    const coach = /** @type {HTMLAnchorElement | null} */ (page.querySelector("[data-coach]"));
    if (coach) coach.href = `${coach.dataset.coach}?game=${encodeURIComponent(String(game.id))}`;
    showClock();
    showShots();
    showPhase();
  }

  function showPhase() {
    if (game.status === "finished") {
      const winner = game.winner === null ? null : game.players[game.winner];
      one(page, "[data-result]").textContent = winner ? interpolate(data.won || "", { name: winner.name }) : "";
      const next = one(page, "[data-next-game]");
      next.hidden = !game.next_game;
      next.textContent = game.next_game ? interpolate(data.next || "", game.next_game) : "";
      one(page, "[data-next]").hidden = !game.next_game;
      step("over");
    } else if (game.clock.phase === "shootout_lag") {
      step("starter");
    } else if (!all(page, "[data-step]").some((el) => !el.hidden) || isOver()) {
      step("ball");
    }
  }

  function isOver() {
    return !one(page, '[data-step="over"]').hidden || !one(page, '[data-step="starter"]').hidden;
  }

  function showClock() {
    const el = one(page, "[data-clock]");
    if (!game) return;
    const clock = game.clock;
    const parts = [];
    if (clock.remaining !== null && clock.remaining !== undefined) {
      const running = game.status === "playing" ? (Date.now() - receivedAt) / 1000 : 0;
      parts.push(clockText(clock.remaining - running));
    }
    if (clock.shootout) parts.push(clock.sudden_death ? data.sudden || "" : data.shootout || "");
    else if (clock.phase === "extra_visits") parts.push(interpolate(data.extra || "", { n: clock.extra_visits_left }));
    else if (clock.time_up) parts.push(data.timeUp || "");
    el.textContent = parts.join(" · ");
    el.classList.toggle("warning", Boolean(clock.warning || clock.time_up));
  }

  function showShots() {
    const list = one(page, "[data-shots]");
    list.replaceChildren();
    for (const item of queued().filter((i) => i.t === "tap" || i.t === "undo").reverse()) {
      const li = document.createElement("li");
      li.className = "waiting";
      li.textContent = data.waiting || "";
      list.append(li);
    }
    for (const shot of game ? game.last_shots : []) {
      const li = document.createElement("li");
      const points = document.createElement("span");
      points.className = "points";
      points.textContent = shot.points > 0 ? `+${shot.points}` : shot.points < 0 ? `−${-shot.points}` : "0";
      const who = document.createElement("span");
      who.className = "who";
      who.textContent = game.players[shot.player] ? game.players[shot.player].name : "";
      const words = document.createElement("span");
      words.className = "words";
      words.textContent = said(shot);
      const rules = document.createElement("span");
      rules.className = "rules";
      rules.textContent = shot.rules.join(" · ");
      li.append(points, who, words, rules);
      list.append(li);
    }
  }

  /** @param {HTMLElement} group @param {string} attr @param {string} value */
  function press(group, attr, value) {
    for (const b of all(group, `[${attr}]`)) b.setAttribute("aria-pressed", String(b.getAttribute(attr) === value));
  }

  function showDraft() {
    press(one(page, "[data-ways]"), "data-way", draft.way);
    press(one(page, "[data-cushions]"), "data-cushion", String(draft.cushions));
    press(one(page, "[data-vias]"), "data-via", draft.via || "");
    one(page, "[data-cushions]").hidden = draft.way !== "bank";
    one(page, "[data-vias]").hidden = draft.way !== "kiss" && draft.way !== "combination";
    one(page, "[data-caroms]").hidden = draft.way === "kiss" || draft.way === "combination";
    for (const b of all(page, "[data-carom]")) {
      const value = b.dataset.carom || "";
      b.setAttribute("aria-pressed", String(draft.caroms.has(value)));
      // A called red leaves one red to carom on, and a ball is never its own carom.
      const called = value === draft.ball || (value === "red2" && draft.ball === "red");
      b.hidden = called;
    }
    for (const b of all(page, "[data-via]")) b.hidden = b.dataset.via === draft.ball && draft.ball !== "red";
    press(one(page, "[data-fouls]"), "data-foul", draft.foul);
    press(one(page, "[data-first-hits]"), "data-first", draft.first);
    const firstHit = draft.foul !== "wrong_cue_ball";
    one(page, "[data-first-hits]").hidden = !firstHit;
    one(page, "[data-first-hit-ask]").hidden = !firstHit;
  }

  function resetDraft() {
    Object.assign(draft, { ball: null, pocket: null, way: "direct", cushions: 1, via: null, foul: "cue_ball_pocketed", first: "" });
    draft.caroms.clear();
    const off = /** @type {HTMLInputElement} */ (one(page, "[data-carom-off]"));
    off.checked = false;
    showDraft();
  }

  // --- the taps --------------------------------------------------------------------------------------

  /** @param {HTMLElement} target */
  function onTap(target) {
    const b = /** @type {HTMLElement | null} */ (target.closest("button"));
    if (!b || b.hasAttribute("disabled")) return;
    const d = b.dataset;
    notice("");
    if (d.ball) {
      resetDraft();
      draft.ball = d.ball;
      showDraft();
      step("pocket");
    } else if (d.pocket) {
      draft.pocket = d.pocket;
      step("how");
    } else if (d.way) {
      draft.way = d.way;
      if (draft.way !== "kiss" && draft.way !== "combination") draft.via = null;
      else draft.caroms.clear();
    } else if (d.cushion) {
      draft.cushions = Number(d.cushion);
    } else if (d.via) {
      draft.via = d.via;
    } else if (d.carom) {
      if (draft.caroms.has(d.carom)) draft.caroms.delete(d.carom);
      else draft.caroms.add(d.carom);
    } else if (d.foul) {
      draft.foul = d.foul;
    } else if (d.first !== undefined) {
      draft.first = d.first;
    } else if (d.go) {
      if (d.go === "foul") resetDraft();
      step(d.go);
    } else {
      onAction(b);
      return;
    }
    showDraft();
  }

  /** @param {HTMLElement} b */
  function onAction(b) {
    const d = b.dataset;
    if (b.hasAttribute("data-tap-pot")) submit("tap", { tap: potTap() });
    else if (b.hasAttribute("data-tap-miss")) submit("tap", { tap: { kind: "miss", ball: draft.ball } });
    else if (d.fault) submit("tap", { tap: { kind: "nothing", fault: d.fault, ball: draft.ball } });
    else if (b.hasAttribute("data-tap-foul")) submit("tap", { tap: foulTap() });
    else if (b.hasAttribute("data-tap-touch")) submit("tap", { tap: { kind: "touch" } });
    else if (d.starter) submit("tap", { tap: { kind: "shootout_starter", starter: Number(d.starter) } });
    else if (b.hasAttribute("data-undo")) submit("undo", {});
    else if (b.hasAttribute("data-next")) socket.send({ t: "next", d: {} });
  }

  function potTap() {
    /** @type {Record<string, any>} */
    const tap = { kind: "pot", ball: draft.ball, pocket: draft.pocket, way: draft.way };
    if (draft.way === "bank") tap.cushions = draft.cushions;
    if (draft.way === "kiss" || draft.way === "combination") tap.via = draft.via;
    else {
      tap.caroms = [...draft.caroms].map((c) => (c === "red2" ? "red" : c));
      tap.carom_off_table = /** @type {HTMLInputElement} */ (one(page, "[data-carom-off]")).checked;
    }
    return tap;
  }

  function foulTap() {
    /** @type {Record<string, any>} */
    const tap = { kind: "foul", foul: draft.foul };
    if (draft.foul !== "wrong_cue_ball" && draft.first) tap.first_hit = draft.first;
    return tap;
  }

  // --- the socket ------------------------------------------------------------------------------------

  /** @param {any} msg */
  function onMessage(msg) {
    if (msg.t === "real_state") {
      if (game && game.id === msg.d.game.id && msg.d.version < game.version) return;
      game = msg.d.game;
      receivedAt = Date.now();
      showBoard();
    } else if (msg.t === "real_ack") {
      settle(msg.d.key);
      if (msg.d.verdict) notice(said(msg.d.verdict));
      showShots();
    } else if (msg.t === "real_refused") {
      settle(msg.d.key);
      notice(said(msg.d));
      showShots();
    }
  }

  /** @type {ReturnType<typeof createReconnectingSocket>} */
  let socket = connect();

  function connect() {
    return createReconnectingSocket({
      url: pageSocketUrl(data.socket || ""),
      backoff: MATCH_BACKOFF,
      onMessage,
      onOpen: () => {
        open = true;
        sent.clear();
        showStatus();
        flush();
      },
      onClose: () => {
        open = false;
        showStatus();
      },
    });
  }

  // The phone knows at once when its network goes: the taps are kept from then on; when it is back, a
  // new socket opens now rather than after the backoff's wait.
  window.addEventListener("offline", () => {
    open = false;
    socket.drop();
  });
  window.addEventListener("online", () => {
    if (open) return;
    socket.stop();
    socket = connect();
  });

  page.addEventListener("click", (event) => onTap(/** @type {HTMLElement} */ (event.target)));
  setInterval(showClock, 1000);
  page.dataset.queued = String(queued().length);
  showStatus();
  resetDraft();
  step("ball");
  showShots();
}

if (root) boot(root);
