// @ts-check
/**
 * The start-up every page with a playable table shares (the match page, main.js, and the free table
 * of the tutorial, practice and puzzle pages, free_table.js): the canvas and its renderer, the
 * controls, the pull meter, the pointer and the keys, the canvas fitted to its stage whenever the
 * stage changes size, and the frame loop's wake. The page keeps its state, its intents and what its
 * loop draws.
 */

import { createRenderer } from "../render/renderer.js";
import { createControls } from "../ui/controls.js";
import { createPullMeter } from "../ui/pullmeter.js";
import { bindPointer } from "../input/pointer.js";
import { bindKeyboard } from "../input/keyboard.js";
import { createLoop } from "../loop.js";

/**
 * @param {HTMLElement} root the page's `.kz-match` element (its `.kz-canvas` inside a `.kz-stage`)
 * @param {object} table the page's table (docs/protocol.md, "The `table` object")
 */
export function createTableShell(root, table) {
  const canvas = /** @type {HTMLCanvasElement} */ (root.querySelector(".kz-canvas"));
  const stage = /** @type {HTMLElement} */ (root.querySelector(".kz-stage"));
  const renderer = createRenderer(canvas, table);
  /** @type {{start: () => void, stop: () => void, wake: () => void} | null} */
  let loop = null;
  let controls = null;
  let pullMeter = null;
  let pointerHost = null;
  let unbindPointer = null;
  let unbindKeys = () => {};
  let observer = null;
  /** @type {(tf: any) => void} */
  let resized = () => {};

  /** A drawing is owed: the next frame, not the next idle tick (loop.js); nothing before the loop. */
  function wake() {
    if (loop) loop.wake();
  }

  /** The canvas fitted to its stage; the world -> CSS pixel matrix published for browser tests and
   * tools (no globals); then the page's own `onResize`. An empty stage keeps the last drawing. */
  function resize() {
    const rect = stage.getBoundingClientRect();
    const tf = renderer.resize(rect.width, rect.height, window.devicePixelRatio || 1);
    if (!tf) return;
    canvas.style.width = `${rect.width}px`;
    canvas.style.height = `${rect.height}px`;
    canvas.dataset.transform = JSON.stringify({ a: tf.a, b: tf.b, c: tf.c, d: tf.d, e: tf.e, f: tf.f });
    resized(tf);
    wake();
  }

  return {
    canvas,
    stage,
    renderer,
    wake,
    resize,
    /**
     * The inputs, each giving the page's intents to `dispatch`, and the stage watched for its size.
     * @param {{getState: () => any, dispatch: (intent: any) => void, onResize?: (tf: any) => void}} page
     */
    bind({ getState, dispatch, onResize }) {
      controls = createControls(root, dispatch);
      pullMeter = createPullMeter(stage);
      pointerHost = { getState, getTransform: () => renderer.transform(), dispatch };
      unbindPointer = bindPointer(canvas, pointerHost);
      unbindKeys = bindKeyboard(document, dispatch);
      if (onResize) resized = onResize;
      observer = new ResizeObserver(resize);
      observer.observe(stage);
      return { controls, pullMeter };
    },
    /**
     * The page's frame loop (loop.js), woken by `wake`; not started.
     * @param {Parameters<typeof createLoop>[0]} options
     */
    loop(options) {
      loop = createLoop(options);
      return loop;
    },
    /** Hand the canvas's pointer to another gesture (the practice table's arranging) and back. */
    pointer(on) {
      if (on && !unbindPointer) {
        unbindPointer = bindPointer(canvas, pointerHost);
      } else if (!on && unbindPointer) {
        unbindPointer();
        unbindPointer = null;
      }
    },
    destroy() {
      if (loop) loop.stop();
      if (observer) observer.disconnect();
      if (unbindPointer) unbindPointer();
      unbindKeys();
      if (controls) controls.unbind();
    },
  };
}
