// @ts-check
/**
 * The power shown while the cue is pulled back: a bar and words over the table, so a
 * pull-back is never a surprise — the player sees how hard the shot will be before letting go, and
 * that back at zero letting go shoots nothing. While a drag fine-tunes the aim it says that instead.
 * It reads the state only (ui.pulling, ui.pull, ui.fine, the aim's speed); the gestures are
 * input/pointer.js's.
 */

import { MIN_SHOT_POWER } from "../input/gestures.js";
import { gettext, interpolate } from "../i18n.js";

/** The meter's words for a pull of `power` (0..1) at `speed` m/s. Pure, for tests. */
export function pullWords(power, speed) {
  if (power < MIN_SHOT_POWER) return gettext("Pull back for power · let go at zero: no shot");
  return interpolate(gettext("Power %(power)s · %(speed)s m/s · let go to shoot"), {
    power: `${Math.round(power * 100)}%`,
    speed: speed.toFixed(1),
  });
}

/**
 * @param {HTMLElement} stage the element over the canvas the meter is laid on
 */
export function createPullMeter(stage) {
  const el = document.createElement("div");
  el.className = "kz-pullmeter";
  el.setAttribute("role", "status");
  el.hidden = true;
  const bar = document.createElement("span");
  bar.className = "kz-pullmeter-bar";
  const fill = document.createElement("span");
  fill.className = "kz-pullmeter-fill";
  bar.append(fill);
  const text = document.createElement("span");
  text.className = "kz-pullmeter-text";
  el.append(bar, text);
  stage.append(el);

  function update(state) {
    const pulling = Boolean(state.ui.pulling);
    // A drag that fine-tunes (far from the ball on touch, or with Shift) says so while it lasts: nothing
    // else on a phone tells a slow turn from a stuck one.
    const fine = !pulling && Boolean(state.ui.fine);
    const on = pulling || fine;
    if (el.hidden === on) el.hidden = !on;
    if (!on) return;
    el.dataset.kind = fine ? "fine" : "pull";
    if (fine) {
      const words = gettext("Fine-tuning the aim · drag near the ball to turn it");
      if (text.textContent !== words) text.textContent = words;
      return;
    }
    const power = state.ui.pull || 0;
    const words = pullWords(power, state.aim.speed);
    if (text.textContent !== words) text.textContent = words;
    fill.style.width = `${(power * 100).toFixed(1)}%`;
    el.dataset.shoots = power >= MIN_SHOT_POWER ? "yes" : "no";
  }

  return { update, element: el };
}
