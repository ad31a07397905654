/**
 * The phone's sheet (issue 25): on a phone the match page never scrolls, so the panel's cards other
 * than the controls (shots, replay and sound, chat, resign, "keep spin and power") are a sheet that the
 * dock's "More" button opens in the table's place and closes again. Only a data attribute
 * (`data-sheet` on the match root) changes; the layout is the stylesheet's (kaiza.css, "phones").
 */

/** Binds the button; returns an unbind function. */
export function bindSheet(root) {
  const button = root.querySelector(".kz-more");
  if (!button) return () => {};
  const toggle = () => {
    const open = root.dataset.sheet !== "open";
    root.dataset.sheet = open ? "open" : "closed";
    button.setAttribute("aria-expanded", open ? "true" : "false");
  };
  button.addEventListener("click", toggle);
  return () => button.removeEventListener("click", toggle);
}
