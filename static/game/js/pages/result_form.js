// @ts-check
/**
 * The result forms of an event at the club (game/templates/game/tournaments/tables.html, the director's
 * and the players' phone page).
 *
 * 1. The shoot-out winner's radios show only while "in the shoot-out" is chosen, as the other ends take
 *    their winner from the scores. Hidden, the fieldset is also disabled, so its radios are not sent;
 *    without this script every form shows them and the server ignores a tick beside another end
 *    (game/tournaments/services/club.py result_winner).
 * 2. Nothing typed is lost when the club's wifi is down: a form is kept on the phone (localStorage)
 *    before it is sent, and dropped only once the server has answered it. One that could not be sent
 *    stays, the form says so, and it is sent again when the connection returns (the `online` event, and
 *    a try every 20 s). Each form carries its key (`entry_key`): the server stores its result once
 *    however often it comes (a phone that lost the answer sends it again), so nothing is applied twice.
 *    A form the server refuses (a typing slip, the correction's warning step) is sent again the
 *    ordinary way, so the server's page shows why beside the form.
 * The site's policy runs no inline handler (settings.CONTENT_SECURITY_POLICY), so the forms are wired here.
 */
import { gettext, interpolate } from "../i18n.js";

const SHOOTOUT = "shootout";
/** Where the phone keeps the results it has not had an answer for. */
export const STORE = "kaiza.unsentResults";
/** The header the server answers in JSON (game/tournaments/club_views.py FETCHED). */
const FETCHED = { "X-Kaiza-Form": "fetch" };
const RETRY_EVERY = 20000;

/**
 * The kept results, in the order they were kept, in `storage` (localStorage; a Map-like in tests).
 * `send(entry)` answers {kind: "stored"}, {kind: "refused", words} or {kind: "unsent", why}.
 * @param {{storage: {getItem: Function, setItem: Function}, send: (entry: any) => Promise<any>}} options
 */
export function createOutbox({ storage, send }) {
  function read() {
    try {
      const list = JSON.parse(storage.getItem(STORE) || "[]");
      return Array.isArray(list) ? list : [];
    } catch {
      return [];
    }
  }
  function write(list) {
    storage.setItem(STORE, JSON.stringify(list));
  }
  let flushing = null;
  const outbox = {
    list: read,
    /** Keep `entry` (a later one with the same key replaces it). */
    keep(entry) {
      write([...read().filter((kept) => kept.key !== entry.key), entry]);
    },
    drop(key) {
      write(read().filter((kept) => kept.key !== key));
    },
    /** Mark a kept entry (the server's words of a refusal, or why it is not sent yet). */
    mark(key, fields) {
      write(read().map((kept) => (kept.key === key ? { ...kept, ...fields } : kept)));
    },
    /**
     * Send every kept entry not refused, one at a time; stop at the first that cannot be sent (the
     * connection is still down). One flush at a time. Resolves to how many were stored.
     */
    flush() {
      if (flushing) return flushing;
      flushing = (async () => {
        let stored = 0;
        for (const entry of read()) {
          if (entry.refused) continue;
          const answer = await send(entry);
          if (answer.kind === "stored") {
            outbox.drop(entry.key);
            stored += 1;
          } else if (answer.kind === "refused") {
            outbox.mark(entry.key, { refused: answer.words });
          } else {
            outbox.mark(entry.key, { unsent: answer.why });
            break;
          }
        }
        return stored;
      })().finally(() => {
        flushing = null;
      });
      return flushing;
    },
  };
  return outbox;
}

/** The page's CSRF token (a kept entry may carry an older one). */
function csrfToken() {
  const input = /** @type {HTMLInputElement} */ (document.querySelector("input[name=csrfmiddlewaretoken]"));
  return input ? input.value : "";
}

/**
 * POST a kept entry; what the server said, or that it could not be reached.
 * @param {{url: string, fields: Array<[string, string]>}} entry
 */
export async function sendEntry(entry, fetchImpl = globalThis.fetch) {
  const body = new URLSearchParams(entry.fields.filter(([name]) => name !== "csrfmiddlewaretoken"));
  body.append("csrfmiddlewaretoken", csrfToken());
  let response;
  try {
    response = await fetchImpl(entry.url, {
      method: "POST",
      body,
      headers: FETCHED,
      credentials: "same-origin",
      redirect: "manual",
      cache: "no-store",
    });
  } catch {
    return { kind: "unsent", why: "offline" };
  }
  if (response.type === "opaqueredirect") return { kind: "unsent", why: "signin" }; // the session ended
  if (!(response.headers.get("Content-Type") || "").includes("application/json")) {
    return { kind: "unsent", why: "server" }; // not our answer (a proxy's, a server that is down)
  }
  let answer;
  try {
    answer = await response.json();
  } catch {
    return { kind: "unsent", why: "server" };
  }
  return answer.stored ? { kind: "stored", words: answer.words } : { kind: "refused", words: answer.words };
}

function shootoutRadios(fields) {
  const ended = fields.querySelector("select[name=ended]");
  const winner = fields.querySelector("[data-shootout-winner]");
  if (ended === null || winner === null) return;
  const show = () => {
    const shootout = ended.value === SHOOTOUT;
    winner.hidden = !shootout;
    winner.disabled = !shootout;
  };
  ended.addEventListener("change", show);
  show();
}

const WHY = {
  offline: () => gettext("Not sent: no connection. The result is kept on this phone and sent when the connection returns."),
  signin: () => gettext("Not sent: sign in again. The result is kept on this phone."),
  server: () => gettext("Not sent: the server does not answer. The result is kept on this phone and sent again."),
};

function page() {
  const root = document.querySelector("[data-result-forms]");
  for (const fields of document.querySelectorAll("[data-result-fields]")) shootoutRadios(fields);
  if (root === null) return;
  const outbox = createOutbox({ storage: window.localStorage, send: (entry) => sendEntry(entry) });
  const tournament = root.getAttribute("data-tournament");
  const list = root.querySelector("[data-unsent-list]");
  const box = /** @type {HTMLElement} */ (root.querySelector("[data-unsent]"));

  function formOf(key) {
    return [.../** @type {NodeListOf<HTMLFormElement>} */ (document.querySelectorAll("form[data-result-form]"))].find(
      (form) => new FormData(form).get("entry_key") === key,
    );
  }

  function say(form, text) {
    const line = /** @type {HTMLElement} */ (form && form.querySelector("[data-form-status]"));
    if (!line) return;
    line.textContent = text;
    line.hidden = !text;
  }

  function show() {
    const mine = outbox.list().filter((entry) => entry.tournament === tournament);
    box.hidden = mine.length === 0;
    list.replaceChildren(
      ...mine.map((entry) => {
        const item = document.createElement("li");
        item.setAttribute("data-unsent-entry", entry.key);
        const words = entry.refused
          ? interpolate(gettext("Not stored: %(words)s"), { words: entry.refused })
          : (WHY[entry.unsent] || WHY.offline)();
        const label = document.createElement("strong");
        label.textContent = entry.label;
        const why = document.createElement("span");
        why.textContent = ` ${words} `;
        const again = document.createElement("button");
        again.type = "button";
        again.className = "small";
        again.textContent = gettext("Send now");
        again.addEventListener("click", () => {
          outbox.mark(entry.key, { refused: null });
          flush();
        });
        const discard = document.createElement("button");
        discard.type = "button";
        discard.className = "small secondary";
        discard.textContent = gettext("Discard");
        discard.addEventListener("click", () => {
          if (!window.confirm(gettext("Discard this result? It was not sent."))) return;
          outbox.drop(entry.key);
          show();
        });
        item.append(label, why, again, " ", discard);
        say(formOf(entry.key), words);
        return item;
      }),
    );
  }

  let reloading = false;
  async function flush() {
    if (reloading) return;
    const stored = await outbox.flush();
    if (stored > 0 && !reloading) {
      reloading = true;
      window.location.reload(); // the tables as they are now, with the server's word that it is in
      return;
    }
    show();
  }

  for (const form of /** @type {NodeListOf<HTMLFormElement>} */ (document.querySelectorAll("form[data-result-form]"))) {
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const fields = [...new FormData(form).entries()].map(([name, value]) => /** @type {[string, string]} */ ([name, String(value)]));
      const entry = {
        key: String(new FormData(form).get("entry_key") || ""),
        url: form.action,
        fields,
        label: form.getAttribute("data-label") || "",
        tournament,
        kept: Date.now(),
      };
      if (!entry.key) {
        form.submit();
        return;
      }
      outbox.keep(entry); // kept before it is sent: a page that dies now loses nothing
      const button = /** @type {HTMLButtonElement} */ (form.querySelector("button[type=submit]"));
      if (button) button.disabled = true;
      say(form, gettext("Sending…"));
      const answer = await sendEntry(entry);
      if (button) button.disabled = false;
      if (answer.kind === "stored") {
        outbox.drop(entry.key);
        window.location.assign(root.getAttribute("data-next") || window.location.href);
      } else if (answer.kind === "refused") {
        outbox.drop(entry.key); // nothing was stored: the server's page shows why beside the form
        form.submit();
      } else {
        outbox.mark(entry.key, { unsent: answer.why });
        show();
      }
    });
  }

  show();
  window.addEventListener("online", flush);
  window.setInterval(() => {
    if (outbox.list().some((entry) => !entry.refused)) flush();
  }, RETRY_EVERY);
  if (navigator.onLine !== false && outbox.list().some((entry) => !entry.refused)) flush();
}

if (typeof document !== "undefined") page();
