// @ts-check
/**
 * "Your turn" while the page is hidden (another tab, another window, a phone's other app): the tab's
 * title says so, and, when the player has turned the alert on, a short chime and a system notification.
 * The title comes back as soon as the page is shown again or the turn has gone. The turn is read from
 * the newest state the server sent, not from the drawn one: a hidden page gets no animation frames, so
 * the shot that gives the turn would never finish rolling there.
 *
 * The alert is the player's choice, kept per browser (localStorage); turning it on asks the browser for
 * the permission to notify (a notification is shown only when granted; the chime needs none).
 */

import { gettext, interpolate } from "../i18n.js";
import { owedActions } from "../state.js";
import { actionWords } from "./words.js";

export const ALERT_KEY = "kaiza.turn.alert";

function localStore() {
  try {
    const store = window.localStorage;
    return { get: () => store.getItem(ALERT_KEY), set: (v) => store.setItem(ALERT_KEY, v) };
  } catch {
    let kept = null;
    return { get: () => kept, set: (v) => (kept = v) };
  }
}

/** The tab's title: the page's own, or "● Your turn · " before it while the player is owed a move and
 * does not see the page. */
export function turnTitle(base, owed, hidden) {
  return owed && hidden ? `● ${gettext("Your turn")} · ${base}` : base;
}

function systemNotify(title, body) {
  const Note = typeof window !== "undefined" ? window.Notification : undefined;
  if (!Note || Note.permission !== "granted") return;
  try {
    new Note(title, { body, tag: "kaiza-turn" });
  } catch {
    // A browser that only notifies from a service worker (Android Chrome): the title and chime remain.
  }
}

/**
 * @param {HTMLElement} root the match page
 * @param {{doc?: Document, storage?: {get: () => string | null, set: (v: string) => void},
 *   chime?: () => void, notify?: (title: string, body: string) => void}} [opts]
 */
export function createTurnSignal(root, { doc = document, storage = localStore(), chime = () => {}, notify = systemNotify } = {}) {
  const base = doc.title;
  const button = /** @type {HTMLElement} */ (root.querySelector(".kz-turn-alert"));
  let alert = storage.get() === "1";
  /** @type {string[]} */
  let owed = [];

  function label() {
    if (!button) return;
    button.textContent = alert ? gettext("Turn alert on") : gettext("Turn alert off");
    button.setAttribute("aria-pressed", String(alert));
    button.title = alert
      ? gettext("A chime and a notification when it is your turn and this page is hidden: click to stop them")
      : gettext("Click for a chime and a notification when it is your turn and this page is hidden");
  }

  function show() {
    const hidden = doc.visibilityState === "hidden";
    const title = turnTitle(base, owed.length > 0, hidden);
    if (doc.title !== title) doc.title = title;
    root.dataset.turnSignal = owed.length && hidden ? "yes" : "no";
  }

  /** Every new state: a turn that begins while the page is hidden is signalled once. */
  function update(state) {
    if (button) button.hidden = state.role !== "player";
    const now = owedActions(state);
    const began = now.length > 0 && owed.length === 0;
    owed = now;
    if (began && doc.visibilityState === "hidden" && alert) {
      chime();
      notify(gettext("Your turn"), `${interpolate(gettext("Your turn: %(action)s"), { action: actionWords(now[0]) })} · ${base}`);
    }
    show();
  }

  function toggle() {
    alert = !alert;
    storage.set(alert ? "1" : "0");
    const Note = typeof window !== "undefined" ? window.Notification : undefined;
    if (alert && Note && Note.permission === "default") Note.requestPermission().catch(() => {});
    label();
  }

  doc.addEventListener("visibilitychange", show);
  if (button) button.addEventListener("click", toggle);
  label();

  return {
    update,
    unbind() {
      doc.removeEventListener("visibilitychange", show);
      if (button) button.removeEventListener("click", toggle);
      doc.title = base;
    },
  };
}
