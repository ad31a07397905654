// @ts-check
/**
 * The end-of-match card's content, from the server's `result` (snapshot or `finished` event): who
 * won, the score, how it ended, the rating changes or why the match was unrated. Pure: the HUD puts
 * the returned words in the card; the same words for players and spectators, with "You win" for the
 * winner's own page.
 */

import { gettext, interpolate, said } from "../i18n.js";

const HOW_WORDS = {
  target: () => gettext("reached the target score"),
  resign: () => gettext("resignation"),
  timeout: () => gettext("timeout"),
  shot_clock: () => gettext("shot clock"),
  abandoned: () => gettext("left the match"),
  time_limit: () => gettext("time limit"),
  shootout: () => gettext("shoot-out"),
  aborted: () => gettext("aborted before the break"),
};

/**
 * @param {object} state the page state (result, finished, shown, me, match)
 * @returns {null | {title: string, reason: string, score: string, ratings: string[], rated: string,
 *   ratedHelp: boolean, winner: string|null, how: string|null, teams: string[]}}
 */
export function endCard(state) {
  const game = state.shown;
  const result = state.result;
  const fin = state.finished;
  if (!result && !(game && game.phase === "finished")) return null;
  const players = (game && game.players) || [];
  const winner = result ? result.winner : (fin && fin.winner) || (game && game.winner) || null;
  const how = result ? result.how || null : null;
  let title;
  if (how === "aborted") title = gettext("Match aborted");
  else if (!winner) title = gettext("Match over");
  else if (winner === state.me || myTeamWon(game, winner, state.me)) {
    title = game && Array.isArray(game.teams) ? gettext("Your team wins!") : gettext("You win!");
  } else title = interpolate(gettext("%(player)s wins"), { player: winner });
  const scores = result && Array.isArray(result.scores) ? result.scores : players.map((p) => p.score);
  const names = players.length ? players.map((p) => p.name) : matchNames(state);
  // The server's score line ("45v – 52": the shoot-out's winner marked as KaisaKaavio writes it);
  // a result stored before it existed, or a card without a result, prints the scores.
  const line = result && typeof result.score_line === "string" && result.score_line ? result.score_line : null;
  const plain = scores.length === 2 ? `${signed(scores[0])} – ${signed(scores[1])}` : "";
  const score = names.length === 2 && scores.length === 2 ? `${names[0]} ${line || plain} ${names[1]}` : "";
  const reason = reasonWords(result, fin, game, winner, how);
  const ratings = ratingWords(result ? result.rating_changes : fin && fin.rating_changes);
  let rated = "";
  if (result) {
    if (result.unrated_reason) {
      const why = said({ words: result.unrated_words, text: result.unrated_reason }, "text");
      rated = interpolate(gettext("Unrated: %(reason)s"), { reason: why });
    }
    else if (!result.rated) rated = gettext("Casual match: no rating change");
  } else if (state.match && state.match.rated === false) {
    rated = gettext("Casual match: no rating change");
  }
  // The "Unrated: …" line links to the ratings page (/ratings/), which explains each reason.
  const ratedHelp = Boolean(result && result.unrated_reason);
  return { title, reason, score, ratings, rated, ratedHelp, winner, how, teams: teamLines(game) };
}

/** Team matches: did `me` play for the winning team (the server's `teams` and `players`)? */
function myTeamWon(game, winner, me) {
  if (!game || !Array.isArray(game.teams) || !Array.isArray(game.players)) return false;
  const side = game.players.findIndex((p) => p.name === winner);
  return side >= 0 && (game.teams[side] || []).includes(me);
}

/** Team matches: "Team ann: ann, amy" for each side, in playing order (empty for one-to-one). */
export function teamLines(game) {
  if (!game || !Array.isArray(game.teams) || !Array.isArray(game.players)) return [];
  return game.teams.map((members, side) => `${game.players[side].name}: ${members.join(", ")}`);
}

function matchNames(state) {
  const players = (state.match && state.match.players) || [];
  return players.filter(Boolean).map((p) => p.name);
}

function reasonWords(result, fin, game, winner, how) {
  if (result && (result.text || result.words)) return said(result, "text");
  const raw = (fin && fin.reason) || (game && game.finish_reason) || "";
  if (raw) return winner ? interpolate(gettext("%(player)s won: %(how)s"), { player: winner, how: raw }) : raw;
  if (how && HOW_WORDS[how]) return HOW_WORDS[how]();
  return "";
}

/** "alice 1500 → 1562 (+62)" for each rating change. */
export function ratingWords(changes) {
  if (!Array.isArray(changes)) return [];
  return changes
    .filter((c) => c && c.player)
    .map((c) => {
      const delta = typeof c.delta === "number" ? c.delta : c.after - c.before;
      const sign = delta > 0 ? "+" : delta < 0 ? "−" : "±";
      return `${c.player} ${Math.round(c.before)} → ${Math.round(c.after)} (${sign}${Math.abs(Math.round(delta))})`;
    });
}

/** May this page offer a rematch? Players only, never against the computer (the server refuses it). */
export function canOfferRematch(state) {
  if (state.role !== "player") return false;
  const players = (state.match && state.match.players) || [];
  return !players.some((p) => p && p.is_bot);
}

/** A score as printed: a true minus sign for a negative one (K-11.3 penalties can make it so). */
function signed(n) {
  return n < 0 ? `−${Math.abs(n)}` : String(n);
}

/**
 * `text` cut into runs, each player's name a run of its own (`name: true`), so that the card can keep
 * a name on one line: a guest's "Guest-4821" broke at its hyphen on a narrow card. The runs joined
 * give `text` back unchanged; the longest name is matched first (one name may contain another).
 * @param {string} text
 * @param {string[]} names
 * @returns {{text: string, name: boolean}[]}
 */
export function nameRuns(text, names) {
  const wanted = [...new Set((names || []).filter((n) => typeof n === "string" && n.length))].sort((a, b) => b.length - a.length);
  const runs = [];
  let plain = "";
  let i = 0;
  while (i < text.length) {
    const name = wanted.find((n) => text.startsWith(n, i));
    if (name) {
      if (plain) runs.push({ text: plain, name: false });
      plain = "";
      runs.push({ text: name, name: true });
      i += name.length;
    } else {
      plain += text[i];
      i += 1;
    }
  }
  if (plain) runs.push({ text: plain, name: false });
  return runs;
}
