// @ts-check
/**
 * Writes to the page that happen only when they change something. The HUD and the controls are brought
 * up to date several times a second while nothing moves; writing the same text or attribute again
 * still costs the browser a style pass and a repaint (a text is replaced, an attribute mutated), so an
 * idle match page drew for nothing.
 */

/** The element's text, set only when it differs. */
export function setText(/** @type {Element | null} */ el, /** @type {string} */ text) {
  if (el && el.textContent !== text) el.textContent = text;
}

/** An attribute: removed for null, undefined or false, else set to the value's text, only when it differs. */
export function setAttr(/** @type {Element | null} */ el, /** @type {string} */ name, /** @type {unknown} */ value) {
  if (!el) return;
  if (value === null || value === undefined || value === false) {
    if (el.hasAttribute(name)) el.removeAttribute(name);
  } else if (el.getAttribute(name) !== String(value)) {
    el.setAttribute(name, String(value));
  }
}

/** Shown or hidden (the `hidden` attribute), only when it differs. */
export function setHidden(/** @type {HTMLElement | null} */ el, /** @type {boolean} */ hidden) {
  if (el && el.hidden !== hidden) el.hidden = hidden;
}
