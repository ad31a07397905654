/**
 * The heads-up display, in the DOM: players, scores, whose turn, phase, clocks, the last verdict in
 * words, the shot list, connection, spectators, the end-of-match banner. It only reads the state;
 * DOM writes happen only when a value changed.
 */

import { activePlayer, myActions, mySeat, secondsLeft } from "../state.js";
import {
  actionWords,
  ballName,
  describeCall,
  describeVerdict,
  formatClock,
  formatPoints,
  PHASE_NAMES,
} from "./words.js";

const VERDICT_SHOW_MS = 6000;
const TOAST_SHOW_MS = 4500;

function setText(el, text) {
  if (el && el.textContent !== text) el.textContent = text;
}

function setAttr(el, name, value) {
  if (!el) return;
  if (value === null || value === undefined || value === false) {
    if (el.hasAttribute(name)) el.removeAttribute(name);
  } else if (el.getAttribute(name) !== String(value)) {
    el.setAttribute(name, String(value));
  }
}

/**
 * @param {HTMLElement} root the #kaiza-match element
 */
export function createHud(root) {
  const $ = (sel) => root.querySelector(sel);
  const seats = [0, 1].map((i) => {
    const el = root.querySelector(`.kz-player[data-seat="${i}"]`);
    return {
      el,
      name: el.querySelector(".kz-name"),
      score: el.querySelector(".kz-score"),
      chip: el.querySelector(".kz-chip"),
      note: el.querySelector(".kz-player-note"),
    };
  });
  const phase = $(".kz-phase");
  const turn = $(".kz-turn");
  const shotClock = $(".kz-shotclock");
  const matchClock = $(".kz-matchclock");
  const verdict = $(".kz-verdict");
  const toast = $(".kz-toast");
  const banner = $(".kz-banner");
  const shots = $(".kz-shots");
  const shotCount = $(".kz-history-count");
  const connection = $(".kz-connection");
  const latency = $(".kz-latency");
  const spectators = $(".kz-spectators");
  let lastHistory = null;
  let lastVerdict = null;
  let verdictAt = 0;
  let lastError = null;
  let prevScores = [null, null];
  let lastStateShown = null;

  function update(state, now, epoch) {
    const game = state.shown;
    setAttr(root, "data-role", state.role);
    setAttr(root, "data-connection", state.connection);
    if (!game) {
      const waiting = state.match && state.match.status === "open";
      setText(phase, waiting ? "Open match" : state.connection === "open" ? "Loading…" : "Connecting…");
      setText(turn, waiting ? "Waiting for an opponent…" : "");
      setAttr(root, "data-phase", waiting ? "waiting" : null);
      setAttr(root, "data-version", state.version);
      const players = (state.match && state.match.players) || [];
      players.forEach((p, i) => p && seats[i] && setText(seats[i].name, p.name));
      return;
    }
    const active = activePlayer(state);
    const actions = myActions(state);
    const me = mySeat(state);
    const presence = new Map((state.presence.players || []).map((p) => [p.name, p.connected]));
    (game.players || []).forEach((p, i) => {
      const seat = seats[i];
      if (!seat) return;
      setText(seat.name, p.name);
      setText(seat.score, String(p.score));
      if (prevScores[i] !== null && prevScores[i] !== p.score) {
        seat.score.classList.remove("kz-bump");
        void seat.score.offsetWidth;
        seat.score.classList.add("kz-bump");
      }
      prevScores[i] = p.score;
      setAttr(seat.chip, "data-ball", p.cue_ball || (i === 0 ? "white1" : "white2"));
      setAttr(seat.chip, "title", p.cue_ball ? ballName(p.cue_ball) : "cue ball not decided yet");
      const connected = presence.has(p.name) ? presence.get(p.name) : p.connected !== false;
      setAttr(seat.el, "data-connected", connected ? "yes" : "no");
      setAttr(seat.el, "data-active", game.phase !== "finished" && active === p.name ? "yes" : null);
      setAttr(seat.el, "data-me", i === me ? "yes" : null);
      setAttr(seat.el, "data-winner", game.winner === p.name ? "yes" : null);
      setText(seat.note, i === me ? "you" : connected ? "" : "away");
    });
    setText(phase, PHASE_NAMES[game.phase] || game.phase);
    setAttr(root, "data-phase", game.phase);
    setAttr(root, "data-version", state.version);
    setAttr(root, "data-actions", actions.join(" "));
    setAttr(root, "data-animating", state.steps.length ? "yes" : "no");
    if (!state.steps.length) {
      setAttr(root, "data-balls", JSON.stringify(game.balls || {}));
      // The shown position, for browser tests and tools (no globals).
      if (game !== lastStateShown) {
        lastStateShown = game;
        setAttr(root, "data-state", JSON.stringify(game));
      }
      setAttr(root, "data-scores", (game.players || []).map((p) => p.score).join(":"));
    }

    let turnText = "";
    if (game.phase === "finished") turnText = game.winner ? `${game.winner} wins` : "Match over";
    else if (state.steps.length) turnText = "Balls rolling…";
    else if (actions.length) turnText = `Your turn: ${actionWords(actions[0])}`;
    else if (game.pending && game.pending.length) {
      const waiting = game.pending.filter(([n]) => n !== state.me);
      turnText = waiting.length ? `${waiting[0][0]} to ${actionWords(waiting[0][1])}` : "";
    } else if (active) turnText = `${active} to play`;
    setText(turn, turnText);
    setAttr(turn, "data-mine", actions.length ? "yes" : null);

    const clock = state.clock || {};
    const shotLeft = secondsLeft(state, clock.shot_deadline, epoch);
    setText(shotClock, shotLeft !== null ? `⏱ ${formatClock(shotLeft)}` : "");
    setAttr(shotClock, "data-urgent", shotLeft !== null && shotLeft < 10 ? "yes" : null);
    const matchLeft = secondsLeft(state, clock.match_deadline, epoch);
    setText(matchClock, matchLeft !== null ? `Match ${formatClock(matchLeft)}` : "");

    // The last verdict, in words, for a few seconds over the table (and for good in the shot list).
    if (state.lastVerdict !== lastVerdict) {
      lastVerdict = state.lastVerdict;
      verdictAt = now;
      if (lastVerdict) {
        const reason = lastVerdict.reason || "";
        const who = lastVerdict.player && !reason.startsWith(lastVerdict.player) ? `${lastVerdict.player}: ` : "";
        setText(verdict, who + (describeVerdict(lastVerdict) || (lastVerdict.kind === "lag" ? "lag shot" : "")));
        setAttr(verdict, "data-tone", lastVerdict.foul ? "foul" : lastVerdict.scored ? "good" : "plain");
      }
    }
    verdict.hidden = !lastVerdict || now - verdictAt > VERDICT_SHOW_MS;

    if (state.error !== lastError) {
      lastError = state.error;
      if (lastError) setText(toast, lastError.message || lastError.code);
    }
    toast.hidden = !lastError || now - lastError.at > TOAST_SHOW_MS;

    if (state.history !== lastHistory) {
      lastHistory = state.history;
      renderHistory(state.history);
    }

    const label = { open: "Online", connecting: "Connecting", reconnecting: "Reconnecting…", closed: "Offline" };
    setText(connection, label[state.connection] || state.connection);
    setAttr(connection, "data-status", state.connection);
    setText(latency, state.latency ? `${Math.round(state.latency)} ms` : "");
    setText(spectators, `${state.presence.spectators || 0} watching`);
    setAttr(spectators, "title", `${state.presence.spectators || 0} watching`);

    const fin = game.phase === "finished" ? state.finished || { winner: game.winner } : null;
    banner.hidden = !fin || Boolean(state.steps.length);
    if (fin) {
      setText($(".kz-banner-title"), fin.winner ? (fin.winner === state.me ? "You win!" : `${fin.winner} wins`) : "Match over");
      const score = (game.players || []).map((p) => `${p.name} ${p.score}`).join("  ·  ");
      setText($(".kz-banner-text"), [fin.reason, score].filter(Boolean).join(" — "));
    }
  }

  function renderHistory(history) {
    setText(shotCount, history.length ? String(history.length) : "");
    const frag = document.createDocumentFragment();
    for (let i = history.length - 1; i >= 0; i--) {
      const h = history[i];
      const li = document.createElement("li");
      li.className = "kz-shot";
      const v = h.verdict || {};
      li.dataset.tone = v.foul ? "foul" : v.scored ? "good" : "plain";
      const who = document.createElement("span");
      who.className = "kz-shot-who";
      who.textContent = h.player || "";
      const what = document.createElement("span");
      what.className = "kz-shot-what";
      what.textContent = h.kind === "lag" ? "lag" : describeCall(h.call) || "shot";
      const pts = document.createElement("span");
      pts.className = "kz-shot-pts";
      pts.textContent = v.penalty ? formatPoints(-Math.abs(v.penalty)) : v.points ? formatPoints(v.points) : "·";
      const why = document.createElement("span");
      why.className = "kz-shot-why";
      why.textContent = v.reason || "";
      li.append(who, what, pts, why);
      frag.append(li);
    }
    shots.replaceChildren(frag);
  }

  return { update };
}
