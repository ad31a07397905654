// @ts-check
/**
 * A fixed-rate update loop on requestAnimationFrame (kontra style). Updates run in fixed steps; a
 * huge gap (a hidden tab, a debugger pause) is dropped instead of replayed as hundreds of steps.
 *
 * The loop asks for animation frames only while `busy(now)` says something moves (a shot rolling,
 * a gliding cue, a drawing owed). Otherwise it idles on a timer that runs one update and one render,
 * `idleStep` ms apart (a number, or a function of the time for a page whose drawing sometimes moves
 * on its own): enough for the clocks and the HUD; `wake()` (a new state, an input) brings the frames
 * back at once. A page left open on a match that nobody moves costs a fraction of what sixty frames a
 * second cost (measured in headless Chromium: 0.15 of a core per page, 0.02 with the frames stopped),
 * which a phone's battery feels and a test machine with three pages open does too.
 */

/** The idle ticks' default pace, in ms: a page whose drawing never moves on its own. */
export const IDLE_EVERY = 250;

/**
 * @param {{update: (dt: number, now: number) => void, render: (now: number) => void,
 *   busy?: (now: number) => boolean, step?: number, maxGap?: number,
 *   idleStep?: number | ((now: number) => number), raf?: Function,
 *   caf?: Function, setTimer?: Function, clearTimer?: Function, clock?: () => number}} opts
 */
export function createLoop({
  update,
  render,
  busy = () => true,
  step = 1000 / 60,
  maxGap = 250,
  idleStep = IDLE_EVERY,
  raf = (f) => requestAnimationFrame(f),
  caf = (h) => cancelAnimationFrame(h),
  setTimer = (f, ms) => setTimeout(f, ms),
  clearTimer = (h) => clearTimeout(h),
  clock = () => performance.now(),
}) {
  let running = false;
  let handle = null;
  let timer = null;
  let last = null;
  let acc = 0;

  function frame(now) {
    // The next frame is asked for first: an update that throws does not stop the loop.
    handle = raf(frame);
    let dt = last === null ? step : now - last;
    last = now;
    if (dt > maxGap) dt = step;
    acc += dt;
    while (acc >= step) {
      update(step, now);
      acc -= step;
    }
    render(now);
    if (running && handle !== null && !busy(now)) {
      caf(handle);
      handle = null;
      idle();
    }
  }

  function idle() {
    last = null;
    acc = 0;
    timer = setTimer(idleTick, typeof idleStep === "function" ? idleStep(clock()) : idleStep);
  }

  function idleTick() {
    timer = null;
    if (!running) return;
    const now = clock();
    try {
      update(step, now);
      render(now);
    } finally {
      // Woken meanwhile (an update set a new state): the frames take over; else idle on.
      if (running && handle === null && timer === null) {
        if (busy(now)) handle = raf(frame);
        else idle();
      }
    }
  }

  function wake() {
    if (!running || handle !== null) return;
    if (timer !== null) clearTimer(timer);
    timer = null;
    handle = raf(frame);
  }

  return {
    start() {
      running = true;
      wake();
    },
    wake,
    stop() {
      running = false;
      if (handle !== null) caf(handle);
      if (timer !== null) clearTimer(timer);
      handle = null;
      timer = null;
      last = null;
      acc = 0;
    },
  };
}
