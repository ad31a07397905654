/**
 * The renderer: reads the state, draws a frame. It never changes the state; the only things it keeps
 * are drawing caches (the table image, ball sprites, the balls' rolling orientation).
 */

import { canvasMatrix, fitTable } from "../transform.js";
import { renderTable } from "./table.js";
import { createBallSprites, drawBalls, rollOrientations } from "./balls.js";
import { drawCue, drawGuide, drawRing } from "./cue.js";
import { aimGuide, mouthCentre, openingCorridors, pocketAlong } from "../geometry.js";
import { animating, ballsAt, myActions, myCueBall, restingBalls } from "../state.js";

const MAX_PULL = 0.3;

/**
 * @param {HTMLCanvasElement} canvas
 * @param {object} table geometry
 */
export function createRenderer(canvas, table) {
  const ctx = canvas.getContext("2d");
  let tf = null;
  let tableImage = null;
  let sprites = null;
  const orientations = {};

  function resize(cssWidth, cssHeight, dpr) {
    tf = fitTable(table, cssWidth, cssHeight, dpr, "auto", 6);
    canvas.width = tf.pixelWidth;
    canvas.height = tf.pixelHeight;
    tableImage = renderTable(table, tf);
    sprites = createBallSprites(table.ball_radius * tf.scale * dpr);
    return tf;
  }

  function draw(state, now) {
    if (!tf) return;
    const R = table.ball_radius;
    const px = 1 / tf.scale;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(tableImage, 0, 0);
    ctx.setTransform(...canvasMatrix(tf));

    const moving = animating(state, now);
    const actions = moving ? [] : myActions(state);
    const pulse = (now % 1600) / 1600;

    if (actions.includes("place")) drawPlacementZone(ctx, state, px);

    // Call markers under the balls.
    const resting = restingBalls(state);
    if (!moving && state.role === "player") {
      const { call } = state;
      if (call.pocket && table.pockets[call.pocket]) {
        drawRing(ctx, mouthCentre(table.pockets[call.pocket]), R * 1.25, "rgba(255,205,70,0.95)", px, true, pulse);
      }
      if (call.ball && resting[call.ball]) {
        drawRing(ctx, resting[call.ball], R * 1.45, "rgba(255,205,70,0.95)", px, false);
      }
      if (call.via && resting[call.via]) {
        drawRing(ctx, resting[call.via], R * 1.45, "rgba(140,200,255,0.9)", px, true, pulse);
      }
    }

    const balls = ballsAt(state, now);
    rollOrientations(orientations, balls, R);

    // The aim guide lies on the cloth, under the balls.
    let cue = null;
    if (!moving && (actions.includes("shoot") || actions.includes("lag"))) {
      const id = myCueBall(state);
      if (resting[id]) {
        const guide = aimGuide(table, resting, id, state.aim.angle);
        const target = guide && guide.hit
          ? pocketAlong(table, resting[guide.hit.ball], guide.hit.objectDir, resting, [guide.hit.ball, id])
          : null;
        drawGuide(ctx, guide, R, px, 1, target);
        cue = { ball: resting[id], angle: state.aim.angle, pull: (state.ui.pull || 0) * MAX_PULL, alpha: 1 };
      }
    } else if (!moving && state.remoteAim && state.shown && state.shown.phase !== "finished") {
      const player = (state.shown.players || []).find((p) => p.name === state.remoteAim.player);
      const seat = (state.shown.players || []).indexOf(player);
      const id = player ? player.cue_ball || (seat === 0 ? "white1" : "white2") : null;
      if (id && resting[id]) {
        drawGuide(ctx, aimGuide(table, resting, id, state.remoteAim.angle), R, px, 0.55);
        cue = { ball: resting[id], angle: state.remoteAim.angle, pull: 0, alpha: 0.8 };
      }
    }

    if (state.placing && state.placing.pos) {
      const [x, y] = state.placing.pos;
      ctx.beginPath();
      ctx.arc(x, y, R, 0, Math.PI * 2);
      ctx.fillStyle = state.placing.ok ? "rgba(255,255,255,0.55)" : "rgba(255,80,80,0.35)";
      ctx.fill();
      ctx.strokeStyle = state.placing.ok ? "rgba(120,255,170,0.95)" : "rgba(255,90,90,0.95)";
      ctx.lineWidth = 2 * px;
      ctx.stroke();
    }

    drawBalls(ctx, sprites, tf, balls, R, orientations);
    ctx.setTransform(...canvasMatrix(tf));
    if (cue) drawCue(ctx, cue.ball, cue.angle, R, cue.pull, cue.alpha, px);
  }

  function drawPlacementZone(ctx, state, px) {
    const L = table.length;
    const W = table.width;
    const opening = state.shown && state.shown.phase === "opening_placement";
    ctx.save();
    ctx.fillStyle = "rgba(255,255,255,0.07)";
    if (opening) {
      ctx.fillRect(L / 2, 0, L / 2, W);
      ctx.strokeStyle = "rgba(255,90,90,0.35)";
      ctx.fillStyle = "rgba(255,70,70,0.12)";
      for (const c of openingCorridors(table)) {
        const dx = c.b[0] - c.a[0];
        const dy = c.b[1] - c.a[1];
        const n = Math.hypot(dx, dy);
        const nx = (-dy / n) * c.halfWidth;
        const ny = (dx / n) * c.halfWidth;
        ctx.beginPath();
        ctx.moveTo(c.a[0] + nx, c.a[1] + ny);
        ctx.lineTo(c.b[0] + nx, c.b[1] + ny);
        ctx.lineTo(c.b[0] - nx, c.b[1] - ny);
        ctx.lineTo(c.a[0] - nx, c.a[1] - ny);
        ctx.closePath();
        ctx.fill();
        ctx.lineWidth = px;
        ctx.stroke();
      }
    } else {
      ctx.fillRect(0, 0, table.home_line_x, W);
      ctx.strokeStyle = "rgba(255,255,255,0.5)";
      ctx.lineWidth = 2 * px;
      ctx.setLineDash([6 * px, 4 * px]);
      ctx.beginPath();
      ctx.moveTo(table.home_line_x, 0);
      ctx.lineTo(table.home_line_x, W);
      ctx.stroke();
    }
    ctx.restore();
  }

  return { resize, draw, transform: () => tf };
}
