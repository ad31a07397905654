// @ts-check
/**
 * The end card's "Analyse": the analysis asked for without leaving the match page, its
 * progress shown on the card itself ("Analysing: shot k of N", from the match socket's `analysis
 * {status, done, total}` messages that main.js passes on), and once it is done a link to the replay
 * with the analysis. Without scripts the button is a plain form that opens the replay page.
 *
 * The words of the line are analysis.js's (the replay page says the same); the link's words and the
 * refusals come from the server. The card carries `data-analysis-status` (queued | running | done |
 * failed) for tests and styles. Each binding returns its own unbind function (no globals).
 */

import { analysisProgress } from "../analysis.js";

/**
 * @param {HTMLElement} root the match page's root (the end card inside it)
 * @returns {{heard: (msg: object) => void, unbind: () => void}}
 */
export function createEndAnalysis(root) {
  const card = /** @type {HTMLElement} */ (root.querySelector(".kz-end-card"));
  const form = /** @type {HTMLFormElement} */ (root.querySelector(".kz-end-card .kz-analyse-form"));
  const box = /** @type {HTMLElement} */ (root.querySelector(".kz-end-analysis"));
  const line = box && box.querySelector(".kz-end-analysis-line");
  const link = /** @type {HTMLElement} */ (box && box.querySelector(".kz-end-analysis-link"));
  // The socket's word wins over the request's answer: progress may arrive before the POST returns.
  let heardAny = false;

  function show(d, fromSocket) {
    const shown = analysisProgress(d);
    if (!shown || !box || !line) return;
    if (fromSocket) heardAny = true;
    box.hidden = false;
    line.textContent = shown.text;
    if (card) card.dataset.analysisStatus = shown.status;
    if (link) link.hidden = shown.status !== "done";
    if (form) form.hidden = shown.status !== "failed";
  }

  function say(text) {
    if (!box || !line) return;
    box.hidden = false;
    line.textContent = text;
    if (link) link.hidden = true;
  }

  async function submit(event) {
    event.preventDefault();
    const button = form.querySelector("button");
    if (button) button.disabled = true;
    try {
      const response = await fetch(form.action, {
        method: "POST",
        body: new FormData(form),
        headers: { Accept: "application/json" },
        credentials: "same-origin",
      });
      const d = await response.json();
      if (!response.ok) say(d.error || "");
      else if (!heardAny) show(d, false);
    } catch {
      form.submit(); // the plain form's way: the replay page shows the progress
    } finally {
      if (button) button.disabled = false;
    }
  }

  if (form) form.addEventListener("submit", submit);
  return {
    heard(msg) {
      if (msg && msg.t === "analysis") show(msg.d, true);
    },
    unbind() {
      if (form) form.removeEventListener("submit", submit);
    },
  };
}
