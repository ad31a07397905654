// @ts-check
/**
 * Boot of the practice table (`/practice/`): any position, any call, the server's engine,
 * undo and a link, on the shared free table (free_table.js). The position is the server's code
 * (game/practice/selectors/positions.py): every request carries it, every answer gives the next one with its
 * `state`, so undo is a stack of (code, state) pairs the server made, and the link is the code in the
 * URL. Nothing is stored anywhere but this page.
 *
 * "Ask the engine" (the analysis board) asks the server's engine for its three best shots from
 * the position shown; "Show this shot" plays one from that position, exactly, as any shot here is played
 * (Undo comes back). A link with `ask=1` opens the position with the engine's answer.
 *
 * "Move balls" hands the canvas's pointer to a drag of any ball; the server checks where it was dropped
 * (on the cloth, overlapping no ball) and says why not. It holds no words: they are in the page.
 */

import { createFreeTable } from "./free_table.js";
import { restingBalls, setPlacing } from "../state.js";
import { ballAtPoint } from "../geometry.js";
import { toWorld } from "../transform.js";
import { boardItems, refusalWords } from "../engine_board.js";

const UNDO_KEEP = 100;

function round6(x) {
  return Math.round(x * 1e6) / 1e6;
}

function boot(root) {
  const table = JSON.parse(document.getElementById("kaiza-table").textContent);
  const start = JSON.parse(document.getElementById("practice-start").textContent);
  const $ = (/** @type {string} */ sel) => /** @type {HTMLElement} */ (root.querySelector(sel));
  const words = (key) => {
    const el = root.querySelector(`.kz-learn-words [data-words="${key}"]`);
    return el ? el.textContent : "";
  };

  const csrf = root.querySelector("input[name=csrfmiddlewaretoken]").value;
  /** The position shown: its code and the state the server made for it. */
  let current = { position: start.position, state: start.state };
  /** Earlier positions, the last one first to come back. */
  const undo = [];
  /** The position a request started from (pushed on the undo stack when the answer changes it). */
  let before = null;

  function link() {
    const ask = asked && asked.position === current.position && asked.reply ? "&ask=1" : "";
    return new URL(`${root.dataset.pageUrl}?p=${encodeURIComponent(current.position)}${ask}`, window.location.href).href;
  }

  // ---- the analysis board: the engine's three best shots for the position shown -------------------
  const boardRoot = $(".kz-board");
  const boardWords = (key) => {
    const el = boardRoot.querySelector(`.kz-board-words [data-words="${key}"]`);
    return el ? el.textContent : "";
  };
  /** The position the engine was asked about, its state, and the answer once it came. */
  let asked = null;
  /** The position whose answer the board shows (null: none shown). */
  let boardFor = null;

  function boardStatus(text) {
    const status = $(".kz-board-status");
    status.hidden = !text;
    status.textContent = text || "";
  }

  /** The engine's answer is about one position: shown while that position is on the table (Undo back
   * to it shows it again), hidden as soon as another is, so an old answer never reads as this one's. */
  function syncBoard() {
    const answer = asked && asked.position === current.position ? asked : null;
    if (answer && answer.reply) {
      if (boardFor !== answer.position) drawBoard(answer);
      return;
    }
    if (answer) return; // still thinking about this very position: its "thinking…" stays
    boardFor = null;
    const list = $(".kz-board-shots");
    list.replaceChildren();
    list.hidden = true;
    boardStatus("");
  }

  async function askEngine() {
    const question = { position: current.position, state: current.state, reply: null };
    asked = question;
    $(".kz-board-shots").hidden = true;
    boardStatus(boardWords("thinking"));
    /** @type {HTMLButtonElement} */ ($(".kz-board-ask")).disabled = true;
    let status = 0;
    let reply;
    try {
      const response = await fetch(boardRoot.dataset.askUrl, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
        body: JSON.stringify({ position: question.position }),
        credentials: "same-origin",
      });
      status = response.status;
      reply = await response.json();
    } catch (err) {
      reply = { ok: false, error: { code: "refused", message: "" } };
    }
    /** @type {HTMLButtonElement} */ ($(".kz-board-ask")).disabled = false;
    if (asked !== question) return; // asked again meanwhile
    if (!reply.ok) {
      if (question.position !== current.position) return; // about a position no longer shown
      const error = reply.error || {};
      boardStatus(refusalWords(status === 429 ? "rate_limited" : error.code, error.message, boardWords));
      return;
    }
    question.reply = reply;
    refresh(); // shows it if its position is still the one on the table (syncBoard)
  }

  function drawBoard(question) {
    const items = boardItems(question.reply, boardWords);
    const list = $(".kz-board-shots");
    list.replaceChildren(
      ...items.map((item) => {
        const li = document.createElement("li");
        li.className = "kz-board-shot";
        const sentence = document.createElement("p");
        sentence.className = "kz-board-sentence";
        sentence.textContent = item.sentence;
        const line = document.createElement("p");
        line.className = "kz-board-line";
        line.textContent = item.line;
        const show = document.createElement("button");
        show.type = "button";
        show.className = "kz-btn kz-btn-ghost kz-board-show";
        show.textContent = boardWords("show");
        show.addEventListener("click", () => showShot(question, item.shoot));
        li.append(sentence, line, show);
        return li;
      }),
    );
    list.hidden = items.length === 0;
    boardStatus(items.length ? "" : boardWords("none"));
    boardFor = question.position;
  }

  /** Play one of the engine's shots from the position it was asked about (Undo comes back to it). */
  function showShot(question, shoot) {
    if (board.phase !== "ready" && board.phase !== "judged") return;
    if (current.position !== question.position) {
      undo.push({ ...current });
      current = { position: question.position, state: question.state };
      board.load(current.state);
    }
    before = { ...current };
    board.send({ position: question.position, shoot });
  }

  function show(kind, text) {
    const box = $(".kz-practice-result");
    box.hidden = !text;
    box.dataset.kind = kind;
    $(".kz-practice-outcome").textContent = text || "";
  }

  function refresh() {
    root.dataset.position = current.position;
    /** @type {HTMLInputElement} */ ($(".kz-practice-link-input")).value = link();
    window.history.replaceState(null, "", link());
    syncBoard();
    showUndo();
    const balls = (current.state && current.state.balls) || {};
    const cue = cueBall();
    let off = 0;
    for (const button of root.querySelectorAll(".kz-practice-restore")) {
      const away = balls[button.dataset.ball] === null && button.dataset.ball !== cue;
      button.hidden = !away;
      if (away) off += 1;
    }
    $(".kz-practice-tray").hidden = off === 0;
    for (const el of root.querySelectorAll(".kz-practice-cue-name")) el.hidden = el.dataset.cue !== cue;
  }

  /** Undo is there while there is a position to go back to, or a shot still rolling to take back. */
  function showUndo() {
    /** @type {HTMLButtonElement} */ ($(".kz-practice-undo")).disabled = undo.length === 0 && before === null;
  }

  function cueBall() {
    const players = (current.state && current.state.players) || [];
    const me = players.find((p) => p.name === "player");
    return me ? me.cue_ball : "white1";
  }

  /** A new position from the server: the one before goes on the undo stack. */
  function moveTo(answer) {
    if (before) {
      undo.push(before);
      if (undo.length > UNDO_KEEP) undo.shift();
    }
    before = null;
    current = { position: answer.position, state: answer.state };
    refresh();
  }

  function request(body) {
    before = { ...current };
    showUndo();
    board.send({ position: current.position, ...body });
  }

  const board = createFreeTable(root, {
    table,
    url: () => root.dataset.playUrl,
    // A placed white is in the position's code (the server answers the placement with it), so a shot
    // carries the position alone, and the link, Undo, a reload and "Ask the engine" all see the white.
    shotBody: (shoot) => {
      before = { ...current };
      showUndo();
      return { position: current.position, shoot };
    },
    placeBody: (place) => {
      before = { ...current };
      showUndo();
      return { position: current.position, place };
    },
    refused: (code, message) => {
      before = null;
      showUndo();
      show("refused", message && code !== "rate_limited" ? message : words(code) || words("refused"));
    },
    answered: (answer) => {
      moveTo(answer);
      if (answer.event.t !== "placed") show("moved", words("moved"));
    },
    uncalled: () => /** @type {HTMLInputElement} */ ($(".kz-practice-uncalled-input")).checked,
    judged: (answer) => {
      moveTo(answer);
      const uncalled = answer.event.d.verdict && answer.event.d.verdict.code === "uncalled";
      show("verdict", uncalled ? words("uncalled") : answer.words);
      board.load(answer.state, { keepAim: true });
    },
    illegalPlacement: () => show("refused", words("illegal_placement")),
    callFirst: (why) => show("refused", why || words("call_first")),
  });

  // ---- moving balls: the canvas's pointer drags any ball, the server says whether it may lie there --
  let drag = null;
  const canvas = board.canvas;
  const worldOf = (event) => {
    const rect = canvas.getBoundingClientRect();
    return toWorld(board.renderer.transform(), event.clientX - rect.left, event.clientY - rect.top);
  };
  function onDown(event) {
    if (root.dataset.tool !== "arrange" || board.phase !== "ready") return;
    const point = worldOf(event);
    const ball = ballAtPoint(table, restingBalls(board.state), point);
    if (!ball) return;
    event.preventDefault();
    canvas.setPointerCapture?.(event.pointerId);
    drag = { id: event.pointerId, ball };
    board.setState(setPlacing(board.state, { ball, pos: point, ok: true, reason: null }));
  }
  function onMove(event) {
    if (!drag || event.pointerId !== drag.id) return;
    board.setState(setPlacing(board.state, { ball: drag.ball, pos: worldOf(event), ok: true, reason: null }));
  }
  function onUp(event) {
    if (!drag || event.pointerId !== drag.id) return;
    const { ball } = drag;
    drag = null;
    const [x, y] = worldOf(event);
    request({ move: { ball, x: round6(x), y: round6(y) } });
  }
  function onCancel() {
    drag = null;
    board.setState(setPlacing(board.state, null));
  }

  function setMode(mode) {
    root.dataset.tool = mode;
    const arranging = mode === "arrange";
    $(".kz-practice-arrange").setAttribute("aria-pressed", String(arranging));
    board.pointer(!arranging);
    canvas.style.cursor = arranging ? "grab" : "";
  }

  const onClick = (event) => {
    const target = event.target;
    if (target.closest(".kz-board-ask")) askEngine();
    else if (target.closest(".kz-practice-arrange")) setMode(root.dataset.tool === "arrange" ? "shoot" : "arrange");
    else if (target.closest(".kz-practice-undo")) {
      if (board.phase === "trying" && before !== null) {
        // The shot still rolling (or its answer on the way): taken back, the table as it was before it.
        before = null;
        board.load(current.state, { keepAim: true });
        show("", "");
        refresh();
        return;
      }
      if (!undo.length || board.phase !== "ready") return;
      current = undo.pop();
      board.load(current.state, { keepAim: true });
      show("", "");
      refresh();
    } else if (target.closest(".kz-practice-cue")) {
      if (board.phase === "ready") request({ cue: cueBall() === "white1" ? "white2" : "white1" });
    } else if (target.closest(".kz-practice-restore")) {
      if (board.phase === "ready") request({ restore: target.closest(".kz-practice-restore").dataset.ball });
    } else if (target.closest(".kz-practice-copy")) {
      const text = link();
      const copied = () => show("copied", words("copied"));
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(text).then(copied, () => {
          /** @type {HTMLInputElement} */ ($(".kz-practice-link-input")).select();
        });
      } else {
        /** @type {HTMLInputElement} */ ($(".kz-practice-link-input")).select();
      }
    }
  };

  root.addEventListener("click", onClick);
  canvas.addEventListener("pointerdown", onDown);
  canvas.addEventListener("pointermove", onMove);
  canvas.addEventListener("pointerup", onUp);
  canvas.addEventListener("pointercancel", onCancel);
  // Read before refresh() rewrites the address (with ask=1 only once the answer is shown).
  const askOnOpen = new URL(window.location.href).searchParams.get("ask") === "1";
  board.load(current.state);
  refresh();
  board.start();
  if (askOnOpen) askEngine();
  board.canvas.focus({ preventScroll: true });

  return () => {
    board.destroy();
    root.removeEventListener("click", onClick);
    canvas.removeEventListener("pointerdown", onDown);
    canvas.removeEventListener("pointermove", onMove);
    canvas.removeEventListener("pointerup", onUp);
    canvas.removeEventListener("pointercancel", onCancel);
  };
}

const root = document.getElementById("kaiza-practice");
if (root) {
  const stop = boot(root);
  window.addEventListener("pagehide", stop, { once: true });
}
