/**
 * Words that explain the phase on the table: the time limit (K-11.1), extra visits, the shoot-out
 * with its visits and sudden death (K-11.2–K-11.4), the shot clock. Pure: they read the state the
 * server sent (no rule is decided here) and return text, so the HUD only places it and tests need no DOM.
 */

import { formatClock } from "./words.js";

/** The last seconds of a shot clock shown as a warning. */
export const SHOT_CLOCK_WARNING_S = 10;

const names = (game) => (game.players || []).map((p) => p.name);

/**
 * The phase line under the phase name: what this phase means now, or "" when nothing needs saying.
 * @param {object} game the shown state
 * @param {{matchLeft: number|null}} times seconds left on the K-11 limit by the server's clock
 */
export function phaseDetail(game, { matchLeft = null } = {}) {
  if (!game) return "";
  const who = names(game);
  if (game.phase === "extra_visits") {
    const left = extraVisitsLeft(game);
    const parts = who.map((n, i) => `${n} ${left[i]}`);
    return `Time up · extra visits left: ${parts.join(" · ")}`;
  }
  if (game.phase === "shootout") {
    const so = game.shootout || {};
    if (so.stage === "lag") return "Shoot-out: lag again to decide who starts";
    if (so.stage === "choose") {
      const chooser = who[game.turn] || "";
      return `Shoot-out: ${chooser} chooses who starts`;
    }
    const limit = (game.ruleset && game.ruleset.shootout_visits) || 10;
    const visits = so.visits || [0, 0];
    if (so.sudden_death) {
      const answer = typeof so.answer_by === "number" ? who[so.answer_by] : null;
      return answer ? `Sudden death · ${answer} must answer` : "Sudden death · the first penalty loses";
    }
    return `Shoot-out · visits ${who.map((n, i) => `${n} ${Math.min(visits[i] + (i === game.turn ? 1 : 0), limit)}/${limit}`).join(" · ")}`;
  }
  const running = ["lag", "choose_break", "opening_placement", "play"].includes(game.phase);
  if (running && matchLeft !== null && timeWarned(game, matchLeft)) {
    return matchLeft > 0
      ? `Time-limit warning: ${formatClock(matchLeft)} left, then extra visits`
      : "Time up: extra visits after this round";
  }
  return "";
}

/** Has the K-11 warning been given (by the engine's clock, or by the server's clock passing it)? */
export function timeWarned(game, matchLeft) {
  const clock = game.clock || {};
  if (clock.warned || clock.expired) return true;
  if (typeof clock.limit === "number" && typeof clock.warning === "number" && matchLeft !== null) {
    return clock.limit - matchLeft >= clock.warning;
  }
  return false;
}

/** Extra visits left per seat (the current one included), from the server's list of cue balls. */
export function extraVisitsLeft(game) {
  const list = game.extra_visits || [];
  return (game.players || []).map((p) => list.filter((b) => b === p.cue_ball).length);
}

/** The match clock's text: the time left, or what replaced it once the limit is over. */
export function matchClockText(game, matchLeft) {
  if (!game || matchLeft === null) return "";
  if (game.phase === "extra_visits") return "Time up";
  if (game.phase === "shootout" || game.phase === "finished") return ""; // the phase line says it
  return `Match ${formatClock(matchLeft)}`;
}

/** The short message shown over the table when a new phase begins (the server's notice wins). */
export function phaseAnnouncement(key, game) {
  const who = game ? names(game) : [];
  switch (key) {
    case "choose_break":
      return `${who[game.turn] || "The lag winner"} won the lag and chooses who breaks`;
    case "opening_placement":
      return "Opening: white •• is placed beyond the centre";
    case "play":
      return "The break";
    case "extra_visits":
      return "Time up: each player gets extra visits";
    case "shootout:lag:":
      return "Shoot-out: only the kaisa and the whites stay. Lag to decide who starts";
    case "shootout:choose:":
      return `Shoot-out: ${who[game.turn] || "the lag winner"} chooses who starts`;
    case "shootout:shoot:":
      return "Shoot-out: pot the kaisa from the home into a corner pocket";
    case "shootout:shoot:sd":
      return "Sudden death: the first penalty loses";
    case "finished":
      return "";
    default:
      return "";
  }
}

/** The choice buttons' words: the break, or who starts the shoot-out. */
export function choiceWords(game) {
  if (game && game.phase === "shootout") {
    return { take: "Start the shoot-out", pass: "Let the opponent start", hint: "You won the lag: start the shoot-out with white •, or let your opponent start." };
  }
  return { take: "Break", pass: "Pass the break", hint: "You won the lag: break with white •, or pass the break." };
}

/**
 * The shot clock's tooltip: what an expiry does, with the server's numbers.
 * @param {object} clock the server's `clock` object
 */
export function shotClockTooltip(clock) {
  const c = clock || {};
  const lose = typeof c.timeout_limit === "number" ? c.timeout_limit : 3;
  const grace = typeof c.grace === "number" ? ` (${Math.round(c.grace)} s)` : "";
  return (
    "Shot clock: when it runs out the visit passes to the opponent, the balls stay where they are. " +
    `${lose} expiries in a row, or a disconnect past the grace${grace}, lose the match.`
  );
}

/** Timeouts a player has in a row, as words for the seat ("1 timeout"), or "". */
export function timeoutWords(clock, name) {
  const n = clock && clock.timeouts ? clock.timeouts[name] || 0 : 0;
  if (!n) return "";
  const lose = typeof clock.timeout_limit === "number" ? ` of ${clock.timeout_limit}` : "";
  return `${n}${lose} timeout${n > 1 ? "s" : ""}`;
}
