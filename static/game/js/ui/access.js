// @ts-check
/**
 * The "keep spin and power" setting: by default every shot starts from centre ball and
 * medium power, so nothing carries over silently; a player who prefers to keep them ticks the box, and
 * the choice is remembered in this browser (localStorage), not on the server.
 */

const KEY = "kaiza.keepStrike";

function stored() {
  try {
    return window.localStorage.getItem(KEY) === "yes";
  } catch {
    return false;
  }
}

/**
 * Wire the checkbox `.kz-keep-strike` (if the page has one) and return a function telling whether the
 * strike is kept after a shot.
 * @param {HTMLElement} root
 * @returns {() => boolean}
 */
export function bindKeepStrike(root) {
  const box = /** @type {HTMLInputElement} */ (root.querySelector(".kz-keep-strike"));
  if (!box) return stored;
  box.checked = stored();
  box.addEventListener("change", () => {
    try {
      window.localStorage.setItem(KEY, box.checked ? "yes" : "no");
    } catch {
      /* private mode: the setting lasts for this page only */
    }
  });
  return () => box.checked;
}
