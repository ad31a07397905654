// @ts-check
/**
 * Replay of the last shot on the live table, at 1× or ½×, for players and spectators.
 *
 * It keeps the segments of the last shot the page received (a live `shot` event, or the snapshot's
 * `last_shot`) and, while a replay runs, hands the renderer a copy of the live state whose only
 * timeline step is that shot, evaluated at slowed shot time — the same drawing path as a live shot.
 * The live state is never touched: when the replay ends, or the moment any versioned event arrives,
 * the page draws the live state again. Its sound plays too, slowed with it. The buttons are toggles
 * (`aria-pressed`): pressing the running replay's button again stops it, so nobody has to sit
 * through a long shot at half speed to get the live table back.
 */

import { animationDuration, parseSegments } from "../trajectory.js";

const TAIL = 400; // ms of the final position held before the live state returns

/**
 * @param {HTMLElement} root
 * @param {{sound?: {play: Function, stop: Function}, clock?: () => number}} opts
 */
export function createLastShot(root, { sound = null, clock = () => performance.now() } = {}) {
  let last = null;
  let replay = null;
  const buttons = [.../** @type {NodeListOf<HTMLButtonElement>} */ (root.querySelectorAll(".kz-replay-last"))];

  function keep(shot, v) {
    if (!shot || !shot.segments) return;
    try {
      const tracks = parseSegments(shot.segments);
      if (!Object.keys(tracks).length) return;
      last = { tracks, v, duration: animationDuration(tracks) * 1000 };
    } catch {
      // a malformed shot is simply not offered for replay
    }
  }

  /** Every socket message: remember the newest shot; a live event ends a replay at once. */
  function heard(msg) {
    if (!msg || typeof msg.v !== "number") return;
    end();
    const d = msg.d || {};
    if (msg.t === "shot") keep(d, msg.v);
    else if (msg.t === "snapshot") keep(d.last_shot || (d.state && d.state.last_shot), msg.v);
  }

  function start(rate) {
    if (!last) return;
    end();
    const nodes = sound ? sound.play(last.tracks, 0, rate) : [];
    replay = { rate, at: clock(), nodes, shot: last };
    root.dataset.replay = String(rate);
    for (const b of buttons) b.setAttribute("aria-pressed", String(Number(b.dataset.rate) === rate));
  }

  function end() {
    if (!replay) return;
    if (sound) sound.stop(replay.nodes);
    replay = null;
    root.dataset.replay = "";
    for (const b of buttons) b.setAttribute("aria-pressed", "false");
    delete root.dataset.replayT;
  }

  /**
   * What to draw now: null for the live state, else {state, now} — the live state with the replayed
   * shot as its one animating step, and the display time that puts the shot at the replay's moment.
   */
  function view(state, now) {
    if (!replay) return null;
    const shotMs = (now - replay.at) * replay.rate;
    const { shot } = replay;
    if (shotMs > shot.duration + TAIL) {
      end();
      return null;
    }
    root.dataset.replayT = (Math.min(shotMs, shot.duration) / 1000).toFixed(3);
    const step = { kind: "shot", v: shot.v, startAt: 0, duration: shot.duration, tracks: shot.tracks, after: state.shown };
    return {
      state: { ...state, rate: 1, steps: [step], remoteAim: null, placing: null, ui: { ...state.ui, pull: 0 } },
      now: Math.min(shotMs, shot.duration),
    };
  }

  /** The buttons: usable when there is a shot to replay and no live shot is animating. */
  function update(state) {
    const off = !last || state.steps.length > 0;
    for (const b of buttons) if (b.disabled !== off) b.disabled = off;
  }

  /** A button's press: start a replay at `rate`, or stop the one running at that rate. */
  function toggle(rate) {
    if (replay && replay.rate === rate) end();
    else start(rate);
  }

  const onClick = (e) => toggle(Number(e.currentTarget.dataset.rate) || 1);
  for (const b of buttons) b.addEventListener("click", onClick);
  root.dataset.replay = "";

  return {
    heard,
    view,
    update,
    start,
    toggle,
    end,
    unbind() {
      for (const b of buttons) b.removeEventListener("click", onClick);
    },
  };
}
