// @ts-check
/**
 * The phone's sheet: on a phone the match page never scrolls, so the panel's cards other
 * than the controls (shots, replay and sound, chat, resign, "keep spin and power") are a sheet that the
 * dock's "More" button opens in the table's place and closes again. Only a data attribute
 * (`data-sheet` on the match root) changes; the layout is the stylesheet's (kaiza.css, "phones").
 *
 * What the sheet hides must not go unnoticed: a chat line that arrives while it is closed (the chat
 * announces each with a bubbling `kz:chat-line` event) puts a count on "More", cleared when it opens.
 * And what is meant to be seen on the table closes it: a replay button (`data-sheet-close`) shows the
 * replay on the table, not behind the sheet.
 */

import { ngettext, interpolate } from "../i18n.js";

/** Binds the button; returns an unbind function. */
export function bindSheet(root) {
  const button = root.querySelector(".kz-more");
  if (!button) return () => {};
  const badge = document.createElement("span");
  badge.className = "kz-more-count";
  badge.hidden = true;
  button.append(badge);
  let unseen = 0;
  const showUnseen = () => {
    badge.textContent = unseen ? String(unseen) : "";
    badge.hidden = !unseen;
    if (unseen) {
      button.setAttribute("aria-label", interpolate(
        ngettext("More: %(n)s new chat message", "More: %(n)s new chat messages", unseen), { n: unseen }));
    } else {
      button.removeAttribute("aria-label");
    }
  };
  const setOpen = (open) => {
    root.dataset.sheet = open ? "open" : "closed";
    button.setAttribute("aria-expanded", open ? "true" : "false");
    if (open) {
      unseen = 0;
      showUnseen();
    }
  };
  const toggle = () => setOpen(root.dataset.sheet !== "open");
  // Counted only where the sheet hides the chat: "More" shown (a phone) and the sheet closed.
  const onLine = () => {
    if (root.dataset.sheet === "open" || !button.offsetParent) return;
    unseen += 1;
    showUnseen();
  };
  const onClick = (event) => {
    const target = event.target instanceof Element ? event.target.closest("[data-sheet-close]") : null;
    if (target && root.dataset.sheet === "open") setOpen(false);
  };
  button.addEventListener("click", toggle);
  root.addEventListener("kz:chat-line", onLine);
  root.addEventListener("click", onClick);
  return () => {
    button.removeEventListener("click", toggle);
    root.removeEventListener("kz:chat-line", onLine);
    root.removeEventListener("click", onClick);
    badge.remove();
  };
}
