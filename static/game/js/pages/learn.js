// @ts-check
/**
 * Boot of the tutorial page (`/learn/`): five positions, each played on the shared free table
 * (free_table.js: the match page's state, renderer, controls and inputs). The server judges every try
 * with the real engine (game/site/selectors/tutorial.py); this module says what a try carries and shows the
 * outcome.
 *
 * It holds no words: the steps' texts and the outcomes are in the page (translated by the server), and
 * the verdict's sentence comes with the answer. Nothing is stored: "Try again" puts the step's position
 * back from the page's data.
 */

import { createFreeTable } from "./free_table.js";

function boot(root) {
  const table = JSON.parse(document.getElementById("kaiza-table").textContent);
  const steps = JSON.parse(document.getElementById("learn-steps").textContent);
  const csrf = root.querySelector(".kz-learn-csrf input[name=csrfmiddlewaretoken]").value;
  const $ = (/** @type {string} */ sel) => /** @type {HTMLElement} */ (root.querySelector(sel));
  const words = (key) => {
    const el = root.querySelector(`.kz-learn-words [data-outcome="${key}"]`);
    return el ? el.textContent : "";
  };

  let index = 0;
  const passed = new Set();

  function showResult(outcome, verdictWords, ok) {
    const box = $(".kz-learn-result");
    box.hidden = false;
    box.dataset.outcome = outcome;
    $(".kz-learn-outcome").textContent = words(outcome) || words("refused");
    $(".kz-learn-verdict").textContent = verdictWords || "";
    $(".kz-learn-verdict").hidden = !verdictWords;
    $(".kz-learn-retry").hidden = ok;
    $(".kz-learn-next").hidden = !ok || index === steps.length - 1;
  }

  function finish() {
    root.dataset.state = "done";
    $(".kz-learn-done").hidden = false;
    const body = new URLSearchParams({ how: "finished" });
    fetch(root.dataset.doneUrl, {
      method: "POST",
      headers: { "X-CSRFToken": csrf, Accept: "application/json" },
      body,
      credentials: "same-origin",
    }).catch(() => {});
  }

  const board = createFreeTable(root, {
    table,
    url: () => root.dataset.tryUrl.replace("STEP", steps[index].id),
    presetCall: () => steps[index].call,
    shotBody: (shoot, placed) => (placed ? { shoot, place: placed } : { shoot }),
    placeBody: (place) => ({ place }),
    refused: (code) => showResult(words(code) ? code : "refused", "", false),
    answered: () => {
      $(".kz-learn-result").hidden = true;
    },
    judged: (answer) => {
      // Judged: the learner reads the outcome; the cue and the controls step back until "Try again".
      board.standBack();
      const step = steps[index];
      if (answer.passed) {
        passed.add(step.id);
        const li = root.querySelector(`.kz-learn-step[data-step="${step.id}"]`);
        if (li) li.dataset.status = "done";
      }
      showResult(answer.outcome, answer.words, answer.passed);
      if (answer.passed && passed.size === steps.length) finish();
    },
    illegalPlacement: () => showResult("illegal_placement", "", false),
    callFirst: (why) => showResult("call_first", why, false),
  });

  function load(i) {
    index = i;
    const step = steps[i];
    board.load(step.state);
    root.dataset.step = step.id;
    for (const el of root.querySelectorAll(".kz-learn-text")) el.hidden = el.dataset.step !== step.id;
    for (const el of root.querySelectorAll(".kz-learn-step")) {
      el.dataset.status = passed.has(el.dataset.step) ? "done" : el.dataset.step === step.id ? "current" : "todo";
    }
    $(".kz-learn-of").textContent = `${i + 1} ${words("step")} ${steps.length}`;
    $(".kz-learn-result").hidden = true;
    $(".kz-learn-done").hidden = true;
    board.canvas.focus({ preventScroll: true });
  }

  const onClick = (event) => {
    const target = event.target;
    if (target.closest(".kz-learn-retry")) load(index);
    else if (target.closest(".kz-learn-next")) load(Math.min(index + 1, steps.length - 1));
    else if (target.closest(".kz-learn-again")) {
      passed.clear();
      load(0);
    } else {
      const li = target.closest(".kz-learn-step");
      if (li) load(steps.findIndex((s) => s.id === li.dataset.step));
    }
  };
  root.addEventListener("click", onClick);
  load(0);
  board.start();

  return () => {
    board.destroy();
    root.removeEventListener("click", onClick);
  };
}

const root = document.getElementById("kaiza-learn");
if (root) {
  const stop = boot(root);
  window.addEventListener("pagehide", stop, { once: true });
}
