// @ts-check
/**
 * The table's sounds, synthesised with the Web Audio API (no audio files to download): a noise tick for
 * the cue strike, a short high click per ball–ball impact, a low thud per cushion, a falling knock for
 * the drop into a pocket. What to play and how loud comes from shotsounds.js; this module only turns
 * voices into scheduled audio nodes at their shot time, so sound and animation share one clock.
 *
 * Browsers start audio only after a user gesture: the context is created (or resumed) on the first
 * pointer or key event. Only shots that arrive live are heard — a snapshot's shot (a reload catching
 * up) and repeated events stay silent. The mute choice is kept per browser in localStorage.
 */

import { gettext } from "../i18n.js";
import { shotVoices } from "../shotsounds.js";

export const MUTE_KEY = "kaiza.sound.muted";
const MASTER = 0.6;
/**
 * Seconds late a voice may still start. A frame the browser drew late (a busy machine: up to a tenth
 * of a second) still hears its shot's strike, a little late; a tab that was in the background for
 * seconds starts no burst of old voices. (At 0.03 s a loaded test machine's page lost a strike.)
 */
const LATE_VOICE_S = 0.15;

function localStore() {
  try {
    const store = window.localStorage;
    return { get: () => store.getItem(MUTE_KEY), set: (v) => store.setItem(MUTE_KEY, v) };
  } catch {
    let kept = null;
    return { get: () => kept, set: (v) => (kept = v) };
  }
}

/**
 * @param {HTMLElement} root the match page
 * @param {{ball_radius: number}} table
 */
export function createSound(root, table, { storage = localStore(), AudioCtor = window.AudioContext || window.webkitAudioContext } = {}) {
  let ctx = null;
  let master = null;
  let noise = null;
  let muted = storage.get() === "1";
  const live = new Set();
  const played = new Set();
  const counts = { strike: 0, ball: 0, cushion: 0, pocket: 0 };
  const button = /** @type {HTMLElement} */ (root.querySelector(".kz-mute"));
  const playing = new Set();

  function unlock() {
    if (!AudioCtor) return;
    if (!ctx) {
      try {
        ctx = new AudioCtor();
      } catch {
        ctx = null;
        return;
      }
      master = ctx.createGain();
      master.gain.value = MASTER;
      master.connect(ctx.destination);
    }
    if (ctx.state === "suspended") ctx.resume().catch(() => {});
  }

  function label() {
    if (!button) return;
    button.textContent = muted ? gettext("Sound off") : gettext("Sound on");
    button.setAttribute("aria-pressed", String(muted));
    button.title = muted ? gettext("Turn the table sounds on") : gettext("Mute the table sounds");
    root.dataset.sound = muted ? "muted" : "on";
  }

  function stopAll() {
    for (const node of playing) {
      try {
        node.stop();
      } catch {
        // already stopped
      }
    }
    playing.clear();
  }

  function toggle() {
    muted = !muted;
    storage.set(muted ? "1" : "0");
    if (muted) stopAll();
    label();
  }

  function envelope(when, peak, decay) {
    const g = ctx.createGain();
    g.gain.setValueAtTime(0.0001, when);
    g.gain.linearRampToValueAtTime(Math.max(0.0002, peak), when + 0.003);
    g.gain.exponentialRampToValueAtTime(0.0001, when + decay);
    g.connect(master);
    return g;
  }

  function noiseBuffer() {
    if (!noise) {
      const length = Math.floor(ctx.sampleRate * 0.08);
      noise = ctx.createBuffer(1, length, ctx.sampleRate);
      const data = noise.getChannelData(0);
      let seed = 7;
      for (let i = 0; i < length; i++) {
        seed = (seed * 16807) % 2147483647; // a fixed noise: every strike sounds the same
        data[i] = (seed / 2147483647) * 2 - 1;
      }
    }
    return noise;
  }

  /** One voice = one started source node. */
  function voice(v, when) {
    let src;
    let decay;
    if (v.kind === "strike") {
      decay = 0.06;
      src = ctx.createBufferSource();
      src.buffer = noiseBuffer();
      const band = ctx.createBiquadFilter();
      band.type = "bandpass";
      band.frequency.value = 1800;
      band.Q.value = 1.1;
      src.connect(band);
      band.connect(envelope(when, 0.9 * v.gain, decay));
    } else {
      src = ctx.createOscillator();
      if (v.kind === "ball") {
        decay = 0.05;
        src.type = "sine";
        src.frequency.setValueAtTime(2400 + 900 * v.gain, when);
      } else if (v.kind === "cushion") {
        decay = 0.16;
        src.type = "sine";
        src.frequency.setValueAtTime(105, when);
        src.frequency.exponentialRampToValueAtTime(70, when + decay);
      } else {
        decay = 0.3;
        src.type = "triangle";
        src.frequency.setValueAtTime(240, when);
        src.frequency.exponentialRampToValueAtTime(65, when + decay);
      }
      src.connect(envelope(when, (v.kind === "ball" ? 0.7 : 0.9) * v.gain, decay));
    }
    src.start(when);
    src.stop(when + decay + 0.02);
    playing.add(src);
    src.onended = () => playing.delete(src);
    counts[v.kind] += 1;
    return src;
  }

  /**
   * Schedule a shot's voices: shot time 0 is `startIn` seconds from now, played at `rate` (½ for a slow
   * replay). Returns the started nodes (to stop a replay cut short).
   */
  function play(tracks, startIn = 0, rate = 1) {
    if (muted || !ctx || ctx.state !== "running") return [];
    const base = ctx.currentTime + startIn;
    const nodes = [];
    for (const v of shotVoices(tracks, table)) {
      const when = base + v.t / rate;
      // Long past: skipped, never a burst of late voices; but the strike that starts the shot always
      // sounds (one voice, at once if late): a page whose animation began late still hears the shot.
      if (when < ctx.currentTime - LATE_VOICE_S && v.kind !== "strike") continue;
      nodes.push(voice(v, Math.max(when, ctx.currentTime)));
    }
    root.dataset.soundVoices = JSON.stringify(counts);
    return nodes;
  }

  /** A message from the socket; `wasLive`: the page had its snapshot before it (not a reload's catch-up). */
  function heard(msg, wasLive) {
    if (!msg || msg.t !== "shot" || typeof msg.v !== "number") return;
    if (wasLive && !(msg.d && msg.d.repeat)) live.add(msg.v);
  }

  /** Each frame: a live shot whose animation has just started is scheduled once, on its start time. */
  function follow(state, now) {
    const head = state.steps[0];
    if (!head || !head.tracks || head.startAt === null || !live.has(head.v) || played.has(head.v)) return;
    played.add(head.v);
    live.delete(head.v);
    play(head.tracks, (head.startAt - now) / 1000, state.rate || 1);
  }

  const onGesture = () => unlock();
  document.addEventListener("pointerdown", onGesture, true);
  document.addEventListener("keydown", onGesture, true);
  if (button) button.addEventListener("click", toggle);
  label();

  /** Two soft rising notes: the player's turn, heard while the page is hidden (ui/yourturn.js). */
  function chime() {
    if (muted) return;
    unlock();
    if (!ctx) return;
    const start = ctx.currentTime + 0.02;
    [880, 1320].forEach((frequency, i) => {
      const when = start + 0.18 * i;
      const src = ctx.createOscillator();
      src.type = "sine";
      src.frequency.setValueAtTime(frequency, when);
      src.connect(envelope(when, 0.35, 0.35));
      src.start(when);
      src.stop(when + 0.4);
      playing.add(src);
      src.onended = () => playing.delete(src);
    });
    root.dataset.chimes = String(Number(root.dataset.chimes || 0) + 1);
  }

  return {
    heard,
    follow,
    play,
    chime,
    /** Silence every voice scheduled or sounding (a skipped shot's rest is never heard). */
    hush: stopAll,
    stop: (nodes) => {
      for (const n of nodes || []) {
        try {
          n.stop();
        } catch {
          // already stopped
        }
      }
    },
    close() {
      document.removeEventListener("pointerdown", onGesture, true);
      document.removeEventListener("keydown", onGesture, true);
      if (button) button.removeEventListener("click", toggle);
      stopAll();
      if (ctx && ctx.close) ctx.close().catch(() => {});
    },
  };
}
