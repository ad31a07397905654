// @ts-check
/**
 * The match chat (docs/chat.md): the log, the input, the quick phrases, per-author mute and report.
 *
 * The server decides who reads and writes which channel; this module shows what arrives: `chat`
 * messages live, and the recent chat inside every `snapshot` (a reload or reconnect loses nothing,
 * messages are kept by id so nothing shows twice). Quick phrases arrive as codes and are worded here
 * from the page's own list (rendered by the server in the reader's language). User text only ever
 * goes in through textContent. Mute is per browser (localStorage): the muted author's messages are
 * hidden on this screen only.
 */

import { gettext, interpolate } from "../i18n.js";

const MUTE_KEY = "kaiza.chat.muted";
const KEEP = 100;
/** Error codes a chat or report answer may carry: shown under the chat, not as a play error. */
const CHAT_ERRORS = new Set([
  "bad_value", "bad_shape", "rate_limited", "wrong_channel", "spectator", "login_required",
  "chat_closed", "no_such_message", "own_message", "already_reported",
]);
/** A refusal counts as the chat's if it comes this soon after the chat sent something. */
const ANSWER_MS = 5000;

function loadMuted(storage) {
  try {
    const list = JSON.parse(storage.getItem(MUTE_KEY) || "[]");
    return new Set(Array.isArray(list) ? list.filter((n) => typeof n === "string") : []);
  } catch {
    return new Set();
  }
}

/**
 * @param {HTMLElement} root the `.kz-chat` card
 * @param {{send: (t: string, d: object) => unknown, me: string, storage?: Storage, now?: () => number}} options
 */
export function createChat(root, { send, me, storage = window.localStorage, now = () => Date.now() }) {
  const phrases = JSON.parse(root.querySelector("#kaiza-chat-phrases").textContent);
  const log = /** @type {HTMLElement} */ (root.querySelector(".kz-chat-log"));
  const form = /** @type {HTMLFormElement} */ (root.querySelector(".kz-chat-form"));
  const input = /** @type {HTMLInputElement} */ (root.querySelector(".kz-chat-input"));
  const status = /** @type {HTMLElement} */ (root.querySelector(".kz-chat-status"));
  const mutedLine = /** @type {HTMLElement} */ (root.querySelector(".kz-chat-muted"));
  const muted = loadMuted(storage);
  const shown = new Map(); // id -> <li>
  let lastSent = -Infinity;

  function say(words) {
    status.textContent = words;
    status.hidden = !words;
  }

  function post(d) {
    lastSent = now();
    say("");
    send("chat", d);
  }

  function saveMuted() {
    try {
      storage.setItem(MUTE_KEY, JSON.stringify([...muted].sort()));
    } catch {
      /* private mode: the mute lasts for this page */
    }
  }

  function applyMutes() {
    for (const li of shown.values()) li.hidden = muted.has(li.dataset.from);
    mutedLine.replaceChildren();
    const names = [...muted].sort();
    mutedLine.hidden = names.length === 0;
    if (!names.length) return;
    const label = document.createElement("span");
    label.textContent = gettext("Muted:");
    mutedLine.append(label);
    for (const name of names) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "kz-btn kz-btn-ghost kz-chat-unmute";
      b.textContent = interpolate(gettext("Unmute %(name)s"), { name });
      b.addEventListener("click", () => {
        muted.delete(name);
        saveMuted();
        applyMutes();
      });
      mutedLine.append(b);
    }
  }

  function line(m) {
    const li = document.createElement("li");
    li.className = "kz-chat-line";
    li.dataset.id = String(m.id);
    li.dataset.from = m.from;
    li.dataset.channel = m.channel;
    const who = document.createElement("span");
    who.className = "kz-chat-who";
    who.textContent = m.channel === "spectators" ? interpolate(gettext("%(name)s (spectator)"), { name: m.from }) : m.from;
    const text = document.createElement("span");
    text.className = "kz-chat-text";
    text.textContent = m.phrase ? phrases[m.phrase] || m.phrase : m.text;
    li.append(who, text);
    if (m.from !== me) {
      const mute = document.createElement("button");
      mute.type = "button";
      mute.className = "kz-chat-act kz-chat-mute";
      mute.textContent = gettext("Mute");
      mute.setAttribute("aria-label", interpolate(gettext("Mute %(name)s"), { name: m.from }));
      mute.addEventListener("click", () => {
        muted.add(m.from);
        saveMuted();
        applyMutes();
      });
      const report = document.createElement("button");
      report.type = "button";
      report.className = "kz-chat-act kz-chat-report";
      report.textContent = gettext("Report");
      report.setAttribute("aria-label", interpolate(gettext("Report this message by %(name)s"), { name: m.from }));
      report.addEventListener("click", () => {
        lastSent = now();
        send("chat_report", { id: m.id });
      });
      li.append(mute, report);
    }
    li.hidden = muted.has(m.from);
    return li;
  }

  /** Adds the lines not shown yet; how many of them are someone else's, not muted (news to the reader). */
  function add(messages) {
    let news = 0;
    for (const m of messages) {
      if (!m || typeof m.id !== "number" || shown.has(m.id)) continue;
      const li = line(m);
      if (m.from !== me && !li.hidden) news += 1;
      shown.set(m.id, li);
      // In id order: a history that arrives after a live message still reads oldest first.
      const after = [...log.children].find((c) => Number(/** @type {HTMLElement} */ (c).dataset.id) > m.id);
      log.insertBefore(li, after || null);
    }
    while (log.children.length > KEEP) {
      shown.delete(Number(/** @type {HTMLElement} */ (log.firstElementChild).dataset.id));
      log.firstElementChild.remove();
    }
    log.scrollTop = log.scrollHeight;
    return news;
  }

  if (form) {
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      post({ text });
      input.value = "";
    });
    for (const b of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll(".kz-chat-phrase"))) {
      b.addEventListener("click", () => post({ phrase: b.dataset.phrase }));
    }
  }
  applyMutes();

  return {
    /** Every socket message passes by; the chat takes what is its own. */
    receive(msg) {
      if (!msg || !msg.d) return;
      if (msg.t === "snapshot" && Array.isArray(msg.d.chat)) add(msg.d.chat);
      else if (msg.t === "chat" && add([msg.d])) {
        // A live line for the reader: whatever hides the chat (the phone's sheet) may say so.
        log.dispatchEvent(new CustomEvent("kz:chat-line", { bubbles: true }));
      }
      else if (msg.t === "chat_reported") {
        const li = shown.get(msg.d.id);
        const button = li && li.querySelector(".kz-chat-report");
        if (button) {
          button.textContent = gettext("Reported");
          button.disabled = true;
        }
        say(gettext("Thank you: the report was sent to the moderators."));
      } else if (msg.t === "error" && CHAT_ERRORS.has(msg.d.code) && now() - lastSent < ANSWER_MS) {
        say(msg.d.message || msg.d.code);
      }
    },
  };
}
