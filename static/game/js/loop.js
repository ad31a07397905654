/**
 * A fixed-rate update loop on requestAnimationFrame (kontra style). Updates run in fixed steps; a
 * huge gap (a hidden tab, a debugger pause) is dropped instead of replayed as hundreds of steps.
 */

/**
 * @param {{update: (dt: number, now: number) => void, render: (now: number) => void, step?: number,
 *   maxGap?: number, raf?: Function, caf?: Function}} opts
 */
export function createLoop({
  update,
  render,
  step = 1000 / 60,
  maxGap = 250,
  raf = (f) => requestAnimationFrame(f),
  caf = (h) => cancelAnimationFrame(h),
}) {
  let handle = null;
  let last = null;
  let acc = 0;

  function frame(now) {
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
  }

  return {
    start() {
      if (handle === null) handle = raf(frame);
    },
    stop() {
      if (handle !== null) caf(handle);
      handle = null;
      last = null;
      acc = 0;
    },
  };
}
