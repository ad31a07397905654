// @ts-check
/**
 * Boot of a puzzle page (`/puzzles/`): a position from a real match on the shared free table
 * (free_table.js), the player's one shot posted with the token of the puzzle served to him
 * (game/puzzles/services.py judges it: the strike played exactly, the rules' verdict, solved when it
 * scores the target). The answer's shot is drawn as the motion the server sent; then the outcome, the
 * rating change and, in a streak, the next puzzle or the end of the streak.
 *
 * It holds no words: they are in the page (translated by the server), the verdict's sentence comes
 * with the answer.
 */

import { createFreeTable } from "./free_table.js";

function boot(root) {
  const table = JSON.parse(document.getElementById("kaiza-table").textContent);
  const start = JSON.parse(document.getElementById("puzzle-start").textContent);
  const $ = (/** @type {string} */ sel) => /** @type {HTMLElement} */ (root.querySelector(sel));
  const words = (key) => {
    const el = root.querySelector(`.kz-learn-words [data-words="${key}"]`);
    return el ? el.textContent : "";
  };

  function show(kind, title, text) {
    const box = $(".kz-practice-result");
    box.hidden = !title && !text;
    box.dataset.kind = kind;
    $(".kz-puzzle-outcome-title").textContent = title || "";
    $(".kz-practice-outcome").textContent = text || "";
  }

  function finish(answer) {
    root.dataset.outcome = answer.solved ? "solved" : "missed";
    const lines = [`${words("scored")} ${answer.points}`];
    if (answer.rating) {
      const sign = answer.rating.delta >= 0 ? "+" : "−";
      lines.push(`${words("rating")} ${answer.rating.after} (${sign}${Math.abs(answer.rating.delta)})`);
      const value = $(".kz-puzzle-rating-value");
      if (value) value.textContent = String(answer.rating.after);
    }
    if (answer.words) lines.unshift(answer.words);
    show(answer.solved ? "verdict" : "refused", words(answer.solved ? "solved" : "missed"), lines.join(" · "));
    if (answer.mode !== "streak") $(".kz-puzzle-restart").hidden = false;
    if (answer.mode === "streak") {
      const count = $(".kz-puzzle-streak-count");
      if (count) count.textContent = String(answer.streak);
      if (answer.solved) {
        const next = /** @type {HTMLAnchorElement} */ ($(".kz-puzzle-next"));
        next.href = `${root.dataset.nextUrl}?after=${encodeURIComponent(start.token)}`;
        next.hidden = false;
      } else {
        $(".kz-puzzle-restart").hidden = false;
        show("refused", `${words("missed")} ${words("streak_over")}`, lines.join(" · "));
      }
    }
  }

  const board = createFreeTable(root, {
    table,
    url: () => root.dataset.answerUrl,
    shotBody: (shoot, placed) => (placed ? { token: start.token, place: placed, shoot } : { token: start.token, shoot }),
    placeBody: (place) => ({ token: start.token, place }),
    refused: (code, message) => show("refused", "", message && code !== "rate_limited" ? message : words(code) || words("refused")),
    answered: () => show("", "", ""),
    judged: (answer) => {
      board.standBack();
      finish(answer);
    },
    illegalPlacement: () => show("refused", "", words("illegal_placement")),
    callFirst: (why) => show("refused", "", why || words("call_first")),
  });

  board.load(start.state);
  board.start();
  board.canvas.focus({ preventScroll: true });
  return () => board.destroy();
}

const root = document.getElementById("kaiza-puzzle");
if (root) {
  const stop = boot(root);
  window.addEventListener("pagehide", stop, { once: true });
}
