// @ts-check
/**
 * The replay page's shot analysis while it runs: the server sends `analysis {status, done,
 * total}` to the match's group after every shot; this turns each into what the page shows. Pure: the
 * replay page owns the socket (through net.js) and the element.
 */

import { gettext, interpolate } from "./i18n.js";

/** The states a page may see (game.models.MatchAnalysis.Status). */
export const ANALYSIS_STATES = new Set(["queued", "running", "done", "failed"]);

/**
 * What the page shows for one `analysis` message's data, or null for something that is not one.
 * `reload`: the report is stored, the page fetches itself again to show it.
 * @param {{status: string, done: number, total: number}} d
 * @returns {null | {status: string, text: string, reload: boolean}}
 */
export function analysisProgress(d) {
  if (!d || typeof d !== "object" || !ANALYSIS_STATES.has(d.status)) return null;
  const done = Number.isFinite(d.done) ? Math.max(0, Math.floor(d.done)) : 0;
  const total = Number.isFinite(d.total) ? Math.max(0, Math.floor(d.total)) : 0;
  if (d.status === "failed") {
    return { status: "failed", text: gettext("The analysis failed. You can ask for it again."), reload: false };
  }
  if (d.status === "done") return { status: "done", text: gettext("Analysis done."), reload: true };
  if (d.status === "queued" || total === 0) {
    return { status: d.status, text: gettext("Waiting for the engine…"), reload: false };
  }
  return {
    status: "running",
    text: interpolate(gettext("Analysing: shot %(done)s of %(total)s"), { done: Math.min(done, total), total }),
    reload: false,
  };
}
