// @ts-check
/** Words for the HUD: ball, pocket and phase names, calls, clocks, in the page's language (i18n.js). Pure. */

import { gettext, interpolate, ngettext, pgettext, said } from "../i18n.js";

/** The client's own names (the server's sentences name balls in their grammatical case themselves). */
const BALL_NAMES = {
  kaisa: () => gettext("kaisa"),
  red1: () => gettext("red"),
  red2: () => gettext("red"),
  white1: () => gettext("white •"),
  white2: () => gettext("white ••"),
};

/** Pockets are named by the place they are drawn in (in portrait foot_left is top left). */
const PLACE_NAMES = {
  top_left: () => gettext("top left"),
  top_middle: () => gettext("top middle"),
  top_right: () => gettext("top right"),
  bottom_left: () => gettext("bottom left"),
  bottom_middle: () => gettext("bottom middle"),
  bottom_right: () => gettext("bottom right"),
  left_middle: () => gettext("left middle"),
  right_middle: () => gettext("right middle"),
};

/** The landscape drawing (ARCHITECTURE 4), until the page says how it draws the table. */
const LANDSCAPE = {
  home_right: "bottom_left",
  home_left: "top_left",
  middle_right: "bottom_middle",
  middle_left: "top_middle",
  foot_right: "bottom_right",
  foot_left: "top_right",
};
let drawnAt = LANDSCAPE;

/** Where the page draws each pocket ({pocket id: place}, transform.js pocketPlaces). */
export function setPocketPlaces(places) {
  drawnAt = places && Object.keys(places).length ? { ...LANDSCAPE, ...places } : LANDSCAPE;
}

const PHASE_NAMES = {
  lag: () => pgettext("phase", "Lag for the break"),
  choose_break: () => pgettext("phase", "Choice of break"),
  opening_placement: () => pgettext("phase", "Opening placement"),
  play: () => pgettext("phase", "Play"),
  extra_visits: () => pgettext("phase", "Extra visits"),
  shootout: () => pgettext("phase", "Shoot-out"),
  finished: () => pgettext("phase", "Finished"),
};

const ACTION_WORDS = {
  lag: () => gettext("lag"),
  choose_break: () => gettext("choose the break"),
  place: () => gettext("place the cue ball"),
  shoot: () => gettext("shoot"),
};

export function ballName(id) {
  return BALL_NAMES[id] ? BALL_NAMES[id]() : id || "";
}

export function pocketName(id) {
  const place = drawnAt[id];
  return place && PLACE_NAMES[place] ? PLACE_NAMES[place]() : id || "";
}

/** A phase's name for the HUD ("Shoot-out"); an unknown phase as sent. */
export function phaseName(phase) {
  return PHASE_NAMES[phase] ? PHASE_NAMES[phase]() : phase || "";
}

export function actionWords(action) {
  return ACTION_WORDS[action] ? ACTION_WORDS[action]() : action;
}

/** "red → top right · 1 cushion · via kaisa". */
export function describeCall(call) {
  if (!call || !call.ball) return "";
  const parts = [call.pocket ? `${ballName(call.ball)} → ${pocketName(call.pocket)}` : `${ballName(call.ball)} → …`];
  if (call.object_cushions) {
    const n = call.object_cushions;
    parts.push(interpolate(ngettext("%(n)s cushion", "%(n)s cushions", n), { n }));
  }
  if (call.cue_cushions) {
    const n = call.cue_cushions;
    parts.push(interpolate(ngettext("cue %(n)s cushion first", "cue %(n)s cushions first", n), { n }));
  }
  if (call.via) parts.push(interpolate(gettext("via %(ball)s"), { ball: ballName(call.via) }));
  return parts.join(" · ");
}

/** m:ss for a number of seconds (negative shows 0:00). */
export function formatClock(seconds) {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return "";
  const s = Math.max(0, Math.ceil(seconds));
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, "0")}`;
}

/** Signed points: "+5", "−2", "0". */
export function formatPoints(n) {
  if (!n) return "0";
  return n > 0 ? `+${n}` : `−${Math.abs(n)}`;
}

/** The verdict in words for the HUD: the server's sentence in the page's language, plus points or penalty. */
export function describeVerdict(verdict, lang) {
  if (!verdict) return "";
  const bits = [];
  const reason = said(verdict, "reason", lang);
  if (reason) bits.push(reason);
  if (verdict.points) bits.push(formatPoints(verdict.points));
  if (verdict.penalty) bits.push(interpolate(gettext("penalty %(points)s"), { points: formatPoints(-Math.abs(verdict.penalty)) }));
  return bits.join(" · ");
}

const ENTRY_KINDS = {
  lag: () => gettext("lag"),
  place: () => gettext("placed"),
  choice: () => gettext("choice"),
  timeout: () => gettext("shot clock"),
  notice: () => "",
  finish: () => gettext("end"),
  abort: () => gettext("aborted"),
};

/**
 * One shot-list entry (snapshot `history` or a live event's `entry`) as the words of its row:
 * who, what (the call for a shot), points, and the server's text. Pure; the same entry gives the same
 * words whether it came live, after a reload or to a late spectator.
 */
/** A rule id of docs/rules.md (K-6.2, K-11.4 …): only these become links to /rules/. */
const RULE_ID = /^K-\d+(\.\d+)*$/;

/** The page of the rules, at a rule's anchor. */
export function ruleUrl(id) {
  return `/rules/#${id}`;
}

export function entryWords(entry, lang) {
  const e = entry || {};
  const kind = e.kind || "shot";
  const what = kind === "shot" ? describeCall(e.call) || gettext("shot") : ENTRY_KINDS[kind] ? ENTRY_KINDS[kind]() : kind;
  let points = kind === "notice" ? "" : "·";
  if (e.penalty) points = formatPoints(-Math.abs(e.penalty));
  else if (e.points) points = formatPoints(e.points);
  const tone = e.foul || e.penalty ? "foul" : e.points ? "good" : kind === "notice" || kind === "timeout" ? "note" : "plain";
  const rules = Array.isArray(e.rules) ? e.rules.filter((id) => RULE_ID.test(id)) : [];
  return { who: e.player || "", what, points, why: said(e, "text", lang), tone, kind, rules };
}
