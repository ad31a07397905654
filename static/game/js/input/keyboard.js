// @ts-check
/**
 * Keyboard aiming: arrows turn the cue 0.1°, with Shift in the fine mode (0.1 mrad: a kaisa from the
 * home pots only within about 0.4 mrad), with Ctrl or Alt coarse (2°); up/down change the power,
 * Space or Enter shoots, Escape clears the call (while a shot runs, it skips to the result, as S does).
 * Keys typed into text fields are left alone.
 */

export const STEP = (0.1 * Math.PI) / 180;
/** The fine step: 0.1 mrad. */
export const FINE_STEP = 1e-4;
export const COARSE_STEP = (2 * Math.PI) / 180;
export const SPEED_STEP = 0.1;

/** The turn for an arrow key with these modifiers. */
function turnStep(shift, coarse) {
  if (shift) return FINE_STEP;
  return coarse ? COARSE_STEP : STEP;
}

/** The next of `options` after `current` in direction `dir` (±1), wrapping; the first (or last) when none. */
export function cycleChoice(options, current, dir) {
  if (!options.length) return null;
  const at = options.indexOf(current);
  if (at < 0) return dir < 0 ? options[options.length - 1] : options[0];
  return options[(at + dir + options.length) % options.length];
}

/** The intent for a key press, or null. Pure, for tests. `coarse`: Ctrl or Alt held. */
export function keyIntent(key, shift, coarse = false) {
  switch (key) {
    case "ArrowLeft":
      return { type: "turn", delta: turnStep(shift, coarse), fine: Boolean(shift) };
    case "ArrowRight":
      return { type: "turn", delta: -turnStep(shift, coarse), fine: Boolean(shift) };
    case "ArrowUp":
      return { type: "speed-step", delta: shift ? 5 * SPEED_STEP : SPEED_STEP };
    case "ArrowDown":
      return { type: "speed-step", delta: -(shift ? 5 * SPEED_STEP : SPEED_STEP) };
    case " ":
    case "Enter":
      return { type: "shoot" };
    case "Escape":
      return { type: "clear-call" };
    // Skip the running shot to its result, on this page only.
    case "s":
    case "S":
      return coarse ? null : { type: "skip" };
    // The call without a pointer: B steps through the balls the server lets you call, P
    // through the pockets it allows for that ball; Shift steps backwards.
    case "b":
    case "B":
      return { type: "call-cycle", field: "ball", dir: shift ? -1 : 1 };
    case "p":
    case "P":
      return { type: "call-cycle", field: "pocket", dir: shift ? -1 : 1 };
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
    // A focused slider keeps its own arrow keys: they change the power, never turn the cue.
    if (tag === "INPUT" && el.type === "range" && event.key.startsWith("Arrow")) return;
    if (tag === "TEXTAREA" || tag === "SELECT" || (el && el.isContentEditable)) return;
    if (tag === "BUTTON" && (event.key === " " || event.key === "Enter")) return;
    const intent = keyIntent(event.key, event.shiftKey, event.ctrlKey || event.altKey);
    if (!intent) return;
    event.preventDefault();
    // The key rides along: while a ball is being placed, main.js moves the ball with the arrows instead.
    dispatch({ ...intent, key: event.key, shift: event.shiftKey });
  }
  target.addEventListener("keydown", onKey);
  return () => target.removeEventListener("keydown", onKey);
}
