/**
 * Keyboard fine-tuning: arrows turn the cue (fine; with Shift coarse), up/down change the power,
 * Space or Enter shoots, Escape clears the call. Keys typed into text fields are left alone.
 */

export const FINE_STEP = (0.1 * Math.PI) / 180;
export const COARSE_STEP = (2 * Math.PI) / 180;
export const SPEED_STEP = 0.1;

/** The intent for a key press, or null. Pure, for tests. */
export function keyIntent(key, shift) {
  switch (key) {
    case "ArrowLeft":
      return { type: "turn", delta: shift ? COARSE_STEP : FINE_STEP };
    case "ArrowRight":
      return { type: "turn", delta: -(shift ? COARSE_STEP : FINE_STEP) };
    case "ArrowUp":
      return { type: "speed-step", delta: shift ? 5 * SPEED_STEP : SPEED_STEP };
    case "ArrowDown":
      return { type: "speed-step", delta: -(shift ? 5 * SPEED_STEP : SPEED_STEP) };
    case " ":
    case "Enter":
      return { type: "shoot" };
    case "Escape":
      return { type: "clear-call" };
    default:
      return null;
  }
}

/**
 * @param {Document | HTMLElement} target
 * @param {(intent: object) => void} dispatch
 * @returns {() => void} unbind
 */
export function bindKeyboard(target, dispatch) {
  function onKey(event) {
    const el = event.target;
    const tag = el && el.tagName;
    if (tag === "INPUT" && el.type !== "range") return;
    if (tag === "TEXTAREA" || tag === "SELECT" || (el && el.isContentEditable)) return;
    if (tag === "BUTTON" && (event.key === " " || event.key === "Enter")) return;
    const intent = keyIntent(event.key, event.shiftKey);
    if (!intent) return;
    event.preventDefault();
    dispatch(intent);
  }
  target.addEventListener("keydown", onKey);
  return () => target.removeEventListener("keydown", onKey);
}
