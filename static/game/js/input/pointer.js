// @ts-check
/**
 * Pointer input on the table canvas (mouse, touch, pen through Pointer Events).
 *
 * It reads the state to know what a gesture means and reports intents; it never changes the state
 * or talks to the server. Gestures:
 * - drag anywhere to aim: the shot points from the cue ball to the finger, wherever the drag started
 *   (on the cloth, the cue ball or the drawn cue); on touch a drag that starts far from the ball
 *   fine-tunes instead (FINE_TOUCH_DISTANCE), as Shift does with a mouse;
 * - a pull-back is a deliberate gesture: press on the cue's butt, or hold the cue ball or
 *   the cue still for HOLD_MS, then pull back for power (the page shows it), release to shoot; back
 *   to zero and release cancels;
 * - click a ball then a pocket to call them;
 * - with a ball in hand, drag or click inside the allowed area to place it.
 */

import { toWorld } from "../transform.js";
import { aimAngle, fineDrag, fineTurn, HOLD_MS, pressOn, pullPower } from "./gestures.js";
import { grabSlop } from "./reach.js";
import { myActions, myCueBall, restingBalls } from "../state.js";

const CLICK_SLOP_PX = 6;

/**
 * @param {HTMLCanvasElement} canvas
 * @param {{getState: () => object, getTransform: () => object, dispatch: (intent: object) => void,
 *   setTimer?: (f: () => void, ms: number) => any, clearTimer?: (handle: any) => void}} host
 * @returns {() => void} unbind
 */
export function bindPointer(canvas, { getState, getTransform, dispatch, setTimer = setTimeout, clearTimer = clearTimeout }) {
  let gesture = null;

  function stopHold(g) {
    if (g && g.hold) clearTimer(g.hold);
    if (g) g.hold = null;
  }

  /** Turn the gesture into a pull-back from `point` (the power counts from there). */
  function startPull(g, point) {
    stopHold(g);
    g.kind = "pull";
    g.start = point;
    g.angle = getState().aim.angle;
    dispatch({ type: "pull", power: 0 });
  }

  const worldOf = (event) => {
    const rect = canvas.getBoundingClientRect();
    return toWorld(getTransform(), event.clientX - rect.left, event.clientY - rect.top);
  };

  function onDown(event) {
    if (event.button !== undefined && event.button !== 0) return;
    const state = getState();
    const tf = getTransform();
    if (!tf) return;
    const actions = myActions(state);
    const point = worldOf(event);
    canvas.setPointerCapture?.(event.pointerId);
    event.preventDefault();
    const base = { id: event.pointerId, x: event.clientX, y: event.clientY, moved: false, start: point };
    if (actions.includes("place")) {
      gesture = { ...base, kind: "place" };
      dispatch({ type: "place-move", point });
      return;
    }
    if (actions.includes("shoot") || actions.includes("lag")) {
      const id = myCueBall(state);
      const cue = restingBalls(state)[id];
      const on = cue ? pressOn(cue, state.aim.angle, point, state.table.ball_radius, grabSlop(tf.scale, state.table.ball_radius)) : "cloth";
      if (on === "butt") {
        gesture = { ...base, kind: "pull" };
        startPull(gesture, point);
        return;
      }
      const touch = event.pointerType === "touch";
      const g = { ...base, kind: "aim", cue, touch, fine: Boolean(cue) && fineDrag(cue, point, { shift: event.shiftKey, touch }), last: point, hold: null };
      // Held still on the cue ball or the cue: the pull-back starts where the finger is.
      if (on !== "cloth") g.hold = setTimer(() => gesture === g && !g.moved && startPull(g, g.last), HOLD_MS);
      gesture = g;
      return;
    }
    gesture = { ...base, kind: "look" };
  }

  function onMove(event) {
    const point = worldOf(event);
    if (!gesture) {
      dispatch({ type: "hover", point });
      return;
    }
    if (event.pointerId !== gesture.id) return;
    if (Math.hypot(event.clientX - gesture.x, event.clientY - gesture.y) > CLICK_SLOP_PX) {
      gesture.moved = true;
      stopHold(gesture);
    }
    if (gesture.kind === "place") dispatch({ type: "place-move", point });
    else if (gesture.kind === "pull") dispatch({ type: "pull", power: pullPower(gesture.angle, gesture.start, point) });
    else if (gesture.kind === "aim" && gesture.cue) {
      // Shift (held at any time during the drag) or a far touch: the cue turns by what the pointer
      // moves across the line, 0.1 mrad a pixel; otherwise it points at the pointer.
      if (event.shiftKey) gesture.fine = true;
      const prev = gesture.last;
      gesture.last = point;
      if (gesture.fine) {
        const tf = getTransform();
        const delta = fineTurn(gesture.cue, prev, point, tf ? tf.scale : 1);
        if (delta) dispatch({ type: "turn", delta, fine: true });
      } else if (gesture.moved) {
        dispatch({ type: "aim", angle: aimAngle(gesture.cue, point) });
      }
    }
  }

  function onUp(event) {
    if (!gesture || event.pointerId !== gesture.id) return;
    const g = gesture;
    gesture = null;
    stopHold(g);
    const point = worldOf(event);
    if (g.kind === "place") {
      dispatch({ type: "place", point });
    } else if (g.kind === "pull") {
      const power = pullPower(g.angle, g.start, point);
      dispatch({ type: "pull-release", power });
      // Held and let go without pulling: it was a (long) click.
      if (!g.moved) dispatch({ type: "pick", point, aimIfEmpty: false });
    } else if (!g.moved) {
      dispatch({ type: "pick", point, aimIfEmpty: g.kind === "aim" && !g.fine });
    }
    if (g.fine) dispatch({ type: "fine-end" });
  }

  function onCancel(event) {
    if (!gesture || event.pointerId !== gesture.id) return;
    stopHold(gesture);
    if (gesture.kind === "pull") dispatch({ type: "pull-release", power: 0 });
    gesture = null;
  }

  function onLeave() {
    if (!gesture) dispatch({ type: "hover", point: null });
  }

  canvas.addEventListener("pointerdown", onDown);
  canvas.addEventListener("pointermove", onMove);
  canvas.addEventListener("pointerup", onUp);
  canvas.addEventListener("pointercancel", onCancel);
  canvas.addEventListener("pointerleave", onLeave);
  // A finger held on the cue is a pull-back, never the phone's long-press menu.
  const onMenu = (event) => event.preventDefault();
  canvas.addEventListener("contextmenu", onMenu);
  return () => {
    canvas.removeEventListener("contextmenu", onMenu);
    canvas.removeEventListener("pointerdown", onDown);
    canvas.removeEventListener("pointermove", onMove);
    canvas.removeEventListener("pointerup", onUp);
    canvas.removeEventListener("pointercancel", onCancel);
    canvas.removeEventListener("pointerleave", onLeave);
  };
}
