// @ts-check
// Quick pairing in the lobby (docs/protocol.md "Lobby socket"): send `seek` with the chosen
// time limit and rated/casual over the lobby socket, show the waiting state (elapsed time, the rating
// window the server announces), cancel with `seek_cancel`; `paired` opens the new match. The numbers
// (the window and how it widens) are the server's: this only shows what `seeking` says.

import { gettext, interpolate } from "../i18n.js";

const card = document.getElementById("quick-pairing");

export function quickPairing(send) {
  if (!card) return { onMessage() {}, onClose() {} };
  const form = /** @type {HTMLFormElement} */ (card.querySelector("#seek-form"));
  const waiting = /** @type {HTMLElement} */ (card.querySelector("#seek-waiting"));
  const statusLine = /** @type {HTMLElement} */ (card.querySelector("#seek-status"));
  const errorLine = /** @type {HTMLElement} */ (card.querySelector("#seek-error"));
  let timer = null;
  let startedAt = 0;
  let window_ = 0;

  function show(seeking) {
    form.hidden = seeking;
    waiting.hidden = !seeking;
    if (!seeking && timer) {
      clearInterval(timer);
      timer = null;
    }
  }

  function draw() {
    const seconds = Math.floor((Date.now() - startedAt) / 1000);
    const clock = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
    statusLine.textContent = interpolate(gettext("Looking for an opponent… %(time)s · rating ±%(window)s"), {
      time: clock,
      window: window_,
    });
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    errorLine.textContent = "";
    const limit = /** @type {HTMLSelectElement} */ (form.querySelector("#seek-time-limit")).value;
    send({ t: "seek", d: { rated: /** @type {HTMLInputElement} */ (form.querySelector("#seek-rated")).checked, time_limit: limit ? Number(limit) : null } });
  });
  card.querySelector("#seek-cancel").addEventListener("click", () => send({ t: "seek_cancel" }));

  return {
    /** True when the message was quick pairing's. */
    onMessage(msg) {
      if (msg.t === "seeking") {
        if (waiting.hidden) startedAt = Date.now() - 1000 * msg.d.waited;
        window_ = msg.d.window;
        show(true);
        draw();
        if (!timer) timer = setInterval(draw, 1000);
        return true;
      }
      if (msg.t === "paired") {
        show(false);
        statusLine.textContent = gettext("Opponent found: opening the match…");
        location.assign(msg.d.url);
        return true;
      }
      if (msg.t === "seek_ended") {
        show(false);
        return true;
      }
      if (msg.t === "error") {
        show(false);
        errorLine.textContent = msg.d.message;
        return true;
      }
      return false;
    },
    /** The socket closed: its seek ended with it (the server removes it). */
    onClose() {
      show(false);
    },
  };
}
