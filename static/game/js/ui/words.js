/** Words for the HUD: ball, pocket and phase names, calls, clocks. Pure. */

export const BALL_NAMES = {
  kaisa: "kaisa",
  red1: "red",
  red2: "red",
  white1: "white •",
  white2: "white ••",
};

export const POCKET_NAMES = {
  home_right: "home right",
  home_left: "home left",
  middle_right: "middle right",
  middle_left: "middle left",
  foot_right: "foot right",
  foot_left: "foot left",
};

export const PHASE_NAMES = {
  lag: "Lag for the break",
  choose_break: "Choice of break",
  opening_placement: "Opening placement",
  play: "Play",
  extra_visits: "Extra visits",
  shootout: "Shoot-out",
  finished: "Finished",
};

const ACTION_WORDS = {
  lag: "lag",
  choose_break: "choose the break",
  place: "place the cue ball",
  shoot: "shoot",
};

export function ballName(id) {
  return BALL_NAMES[id] || id || "";
}

export function pocketName(id) {
  return POCKET_NAMES[id] || id || "";
}

export function actionWords(action) {
  return ACTION_WORDS[action] || action;
}

/** "red → foot left · 1 cushion · via kaisa". */
export function describeCall(call) {
  if (!call || !call.ball) return "";
  const parts = [call.pocket ? `${ballName(call.ball)} → ${pocketName(call.pocket)}` : `${ballName(call.ball)} → …`];
  if (call.object_cushions) parts.push(`${call.object_cushions} cushion${call.object_cushions > 1 ? "s" : ""}`);
  if (call.cue_cushions) parts.push(`cue ${call.cue_cushions} cushion${call.cue_cushions > 1 ? "s" : ""} first`);
  if (call.via) parts.push(`via ${ballName(call.via)}`);
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

/** The verdict in words for the HUD: the server's reason, plus points or penalty. */
export function describeVerdict(verdict) {
  if (!verdict) return "";
  const bits = [];
  if (verdict.reason) bits.push(verdict.reason);
  if (verdict.points) bits.push(formatPoints(verdict.points));
  if (verdict.penalty) bits.push(`penalty ${formatPoints(-Math.abs(verdict.penalty))}`);
  return bits.join(" · ");
}

const ENTRY_KINDS = {
  lag: "lag",
  place: "placed",
  choice: "choice",
  timeout: "shot clock",
  notice: "",
  finish: "end",
  abort: "aborted",
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

export function entryWords(entry) {
  const e = entry || {};
  const kind = e.kind || "shot";
  const what = kind === "shot" ? describeCall(e.call) || "shot" : ENTRY_KINDS[kind] ?? kind;
  let points = kind === "notice" ? "" : "·";
  if (e.penalty) points = formatPoints(-Math.abs(e.penalty));
  else if (e.points) points = formatPoints(e.points);
  const tone = e.foul || e.penalty ? "foul" : e.points ? "good" : kind === "notice" || kind === "timeout" ? "note" : "plain";
  const rules = Array.isArray(e.rules) ? e.rules.filter((id) => RULE_ID.test(id)) : [];
  return { who: e.player || "", what, points, why: e.text || "", tone, kind, rules };
}
