// @ts-check
/**
 * Words that explain the phase on the table: the time limit (K-11.1), extra visits, the shoot-out
 * with its visits and sudden death (K-11.2–K-11.4), the shot clock. Pure: they read the state the
 * server sent (no rule is decided here) and return text, so the HUD only places it and tests need no DOM.
 */

import { gettext, interpolate, ngettext } from "../i18n.js";
import { formatClock } from "./words.js";

/** The last seconds of a shot clock shown as a warning. */
export const SHOT_CLOCK_WARNING_S = 10;

const names = (game) => (game.players || []).map((p) => p.name);

/**
 * The phase line under the phase name: what this phase means now, or "" when nothing needs saying.
 * @param {object} game the shown state
 * @param {{matchLeft?: number|null}} [times] seconds left on the K-11 limit by the server's clock
 */
export function phaseDetail(game, { matchLeft = null } = {}) {
  if (!game) return "";
  const who = names(game);
  if (game.phase === "extra_visits") {
    const left = extraVisitsLeft(game);
    const parts = who.map((n, i) => `${n} ${left[i]}`);
    return interpolate(gettext("Time up · extra visits left: %(visits)s"), { visits: parts.join(" · ") });
  }
  if (game.phase === "shootout") {
    const so = game.shootout || {};
    if (so.stage === "lag") return gettext("Shoot-out: lag again to decide who starts");
    if (so.stage === "choose") {
      const chooser = who[game.turn] || "";
      return interpolate(gettext("Shoot-out: %(player)s chooses who starts"), { player: chooser });
    }
    const limit = (game.ruleset && game.ruleset.shootout_visits) || 10;
    const visits = so.visits || [0, 0];
    if (so.sudden_death) {
      const answer = typeof so.answer_by === "number" ? who[so.answer_by] : null;
      return answer
        ? interpolate(gettext("Sudden death · %(player)s must answer"), { player: answer })
        : gettext("Sudden death · the first penalty loses");
    }
    const counts = who.map((n, i) => `${n} ${Math.min(visits[i] + (i === game.turn ? 1 : 0), limit)}/${limit}`).join(" · ");
    return interpolate(gettext("Shoot-out · visits %(visits)s"), { visits: counts });
  }
  const running = ["lag", "choose_break", "opening_placement", "play"].includes(game.phase);
  if (running && matchLeft !== null && timeWarned(game, matchLeft)) {
    return matchLeft > 0
      ? interpolate(gettext("Time-limit warning: %(time)s left, then extra visits"), { time: formatClock(matchLeft) })
      : gettext("Time up: extra visits after this round");
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
  if (game.phase === "extra_visits") return gettext("Time up");
  if (game.phase === "shootout" || game.phase === "finished") return ""; // the phase line says it
  return interpolate(gettext("Match %(time)s"), { time: formatClock(matchLeft) });
}

/** The short message shown over the table when a new phase begins (the server's notice wins). */
export function phaseAnnouncement(key, game) {
  const who = game ? names(game) : [];
  switch (key) {
    case "choose_break":
      return who[game.turn]
        ? interpolate(gettext("%(player)s won the lag and chooses who breaks"), { player: who[game.turn] })
        : gettext("The lag winner chooses who breaks");
    case "opening_placement":
      return gettext("Opening: white •• is placed beyond the centre");
    case "play":
      return gettext("The break");
    case "extra_visits":
      return gettext("Time up: each player gets extra visits");
    case "shootout:lag:":
      return gettext("Shoot-out: only the kaisa and the whites stay. Lag to decide who starts");
    case "shootout:choose:":
      return interpolate(gettext("Shoot-out: %(player)s chooses who starts"), { player: who[game.turn] || gettext("the lag winner") });
    case "shootout:shoot:":
      return gettext("Shoot-out: pot the kaisa from the home into a corner pocket");
    case "shootout:shoot:sd":
      return gettext("Sudden death: the first penalty loses");
    case "finished":
      return "";
    default:
      return "";
  }
}

/** The choice buttons' words: the break, or who starts the shoot-out. */
export function choiceWords(game) {
  if (game && game.phase === "shootout") {
    return {
      take: gettext("Start the shoot-out"),
      pass: gettext("Let the opponent start"),
      hint: gettext("You won the lag: start the shoot-out with white •, or let your opponent start."),
    };
  }
  return {
    take: gettext("Break"),
    pass: gettext("Pass the break"),
    hint: gettext("You won the lag: break with white •, or pass the break."),
  };
}

/**
 * The shot clock's tooltip: what an expiry does, with the server's numbers.
 * @param {object} clock the server's `clock` object
 */
export function shotClockTooltip(clock, { standing = false } = {}) {
  const c = clock || {};
  const lose = typeof c.timeout_limit === "number" ? c.timeout_limit : 3;
  const when = standing
    ? gettext("Shot clock: it starts once the break has been played, and each time counts from when the balls stop.")
    : gettext("Shot clock: it counts from when the balls stop.");
  const first = `${when} ${gettext("When it runs out the visit passes to the opponent, the balls stay where they are.")}`;
  const then =
    typeof c.grace === "number"
      ? interpolate(
          ngettext(
            "%(n)s expiry in a row, or a disconnect past the grace (%(grace)s s), loses the match.",
            "%(n)s expiries in a row, or a disconnect past the grace (%(grace)s s), lose the match.",
            lose,
          ),
          { n: lose, grace: Math.round(c.grace) },
        )
      : interpolate(
          ngettext(
            "%(n)s expiry in a row, or a disconnect past the grace, loses the match.",
            "%(n)s expiries in a row, or a disconnect past the grace, lose the match.",
            lose,
          ),
          { n: lose },
        );
  return `${first} ${then}`;
}

/** Timeouts a player has in a row, as words for the seat ("1 timeout"), or "". */
export function timeoutWords(clock, name) {
  const n = clock && clock.timeouts ? clock.timeouts[name] || 0 : 0;
  if (!n) return "";
  if (typeof clock.timeout_limit === "number") {
    return interpolate(ngettext("%(n)s of %(limit)s timeout", "%(n)s of %(limit)s timeouts", n), { n, limit: clock.timeout_limit });
  }
  return interpolate(ngettext("%(n)s timeout", "%(n)s timeouts", n), { n });
}
