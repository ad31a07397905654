// @ts-check
/**
 * The real moment's page (`/practice/real/`): drag the balls on the drawing of the table and the form's
 * fields follow (centimetres from the home cushion and from the right cushion); type a place and the
 * drawing follows; a white in hand leaves the drawing. The server reads the form and opens the practice
 * table at the position's code (game/realgames/coach.py): nothing here encodes a position.
 */

const CM = 100;

/** @param {number} value @param {number} low @param {number} high */
function clamp(value, low, high) {
  return Math.min(Math.max(value, low), high);
}

/** @param {HTMLFormElement} form */
function boot(form) {
  const svg = /** @type {SVGSVGElement} */ (form.querySelector(".real-position-table"));
  // The cloth's group draws the engine's metres as centimetres with y up (the right cushion, y = 0, below).
  const cloth = /** @type {SVGGElement} */ (svg.querySelector(".real-position-cloth"));
  const length = Number(form.dataset.length) * CM;
  const width = Number(form.dataset.width) * CM;
  const field = (/** @type {string} */ name) => /** @type {HTMLInputElement} */ (form.elements.namedItem(name));
  /** @type {{ball: string, id: number} | null} */
  let drag = null;

  /** @param {string} ball */
  function showBall(ball) {
    const circle = svg.querySelector(`[data-ball="${ball}"]`);
    if (!circle) return;
    const hand = field(`${ball}_hand`);
    const x = Number(field(`${ball}_x`).value.replace(",", "."));
    const y = Number(field(`${ball}_y`).value.replace(",", "."));
    const away = (hand && hand.checked) || !Number.isFinite(x) || !Number.isFinite(y);
    circle.toggleAttribute("hidden", away);
    if (!away) {
      circle.setAttribute("cx", String(x));
      circle.setAttribute("cy", String(y));
    }
  }

  /** @param {PointerEvent} event */
  function tablePoint(event) {
    const matrix = cloth.getScreenCTM();
    if (!matrix) return null;
    const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
    return { x: clamp(point.x, 0, length), y: clamp(point.y, 0, width) };
  }

  /** @param {PointerEvent} event */
  function onDown(event) {
    const target = /** @type {Element} */ (event.target);
    const ball = target.getAttribute && target.getAttribute("data-ball");
    if (!ball) return;
    event.preventDefault();
    svg.setPointerCapture?.(event.pointerId);
    drag = { ball, id: event.pointerId };
  }

  /** @param {PointerEvent} event */
  function onMove(event) {
    if (!drag || event.pointerId !== drag.id) return;
    const point = tablePoint(event);
    if (!point) return;
    field(`${drag.ball}_x`).value = String(Math.round(point.x * 10) / 10);
    field(`${drag.ball}_y`).value = String(Math.round(point.y * 10) / 10);
    showBall(drag.ball);
  }

  /** @param {PointerEvent} event */
  function onUp(event) {
    if (drag && event.pointerId === drag.id) drag = null;
  }

  /** @param {Event} event */
  function onInput(event) {
    const target = /** @type {HTMLInputElement} */ (event.target);
    const ball = target.name && target.name.split("_")[0];
    if (ball) showBall(ball);
  }

  svg.addEventListener("pointerdown", onDown);
  svg.addEventListener("pointermove", onMove);
  svg.addEventListener("pointerup", onUp);
  svg.addEventListener("pointercancel", onUp);
  form.addEventListener("input", onInput);
  return () => {
    svg.removeEventListener("pointerdown", onDown);
    svg.removeEventListener("pointermove", onMove);
    svg.removeEventListener("pointerup", onUp);
    svg.removeEventListener("pointercancel", onUp);
    form.removeEventListener("input", onInput);
  };
}

const form = document.getElementById("kaiza-real-position");
if (form instanceof HTMLFormElement) {
  const stop = boot(form);
  window.addEventListener("pagehide", stop, { once: true });
}
