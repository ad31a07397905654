// @ts-check
/**
 * The renderer: reads the state, draws a frame. It never changes the state; the only things it keeps
 * are drawing caches (the table image, ball sprites, the balls' rolling orientation).
 */

import { canvasMatrix, fitTable } from "../transform.js";
import { renderTable } from "./table.js";
import { createBallSprites, drawBalls, rollOrientations } from "./balls.js";
import { drawCue, drawGuide, drawRing } from "./cue.js";
import { pocketAlong } from "../geometry.js";
import { aimLine } from "../aim.js";
import { callVerdict, constraintsOf, pocketLegality } from "../legality.js";
import { animating, ballsAt, myActions, myCueBall, remoteAimAngle, restingBalls } from "../state.js";

/**
 * The pocket the aim line sends the object ball into (or toward: it may still hit the jaw), if the server
 * allows calling it there with the options of `call` (cushions, via): the automatic call never suggests
 * a forbidden call.
 * @returns {{pocket: string} | null}
 */
export function suggestedPocket(table, constraints, balls, cueId, guide, call) {
  if (!guide || !guide.hit) return null;
  const ball = guide.hit.ball;
  const target = guide.hit.pocket
    ? { pocket: guide.hit.pocket }
    : pocketAlong(table, balls[ball], guide.hit.objectDir, balls, [ball, cueId]);
  if (!target) return null;
  const options = { object_cushions: 0, cue_cushions: 0, via: null, ...(call || {}) };
  if (options.ball !== ball) Object.assign(options, { object_cushions: 0, cue_cushions: 0, via: null });
  return callVerdict(constraints, { ...options, ball, pocket: target.pocket }).ok ? target : null;
}

const MAX_PULL = 0.3;

/** The strike drawn for the other player when his aim message lacks a number (an older client's). */
const REMOTE_AIM = { speed: 2.5, side: 0, height: 0 };

/** "<ball> <how it ends> <where>" of an aim line ("red2 pocket foot_left", "red2 jaw foot_left", " cushion foot"). */
export function aimWords(guide) {
  if (!guide) return "";
  if (!guide.hit) return ["", guide.cushion.kind, guide.cushion.id || ""].join(" ");
  return [guide.hit.ball, guide.hit.stop.kind, guide.hit.stop.where || ""].join(" ");
}

/** How often (ms) the marching ring of a called pocket or "via" ball moves on while nothing else moves. */
export const MARCH_EVERY = 100;

/**
 * Whether the drawing of an unchanged state changes with time alone: the dashed ring of a called
 * pocket or "via" ball marches (drawRing's phase). Only then does the page redraw a state it has
 * drawn; a spectator's page or a player's without a call draws nothing while nothing happens (it
 * redrew the whole table eight times a second, for nothing).
 */
export function marching(state, now) {
  return state.role === "player" && !animating(state, now) && Boolean(state.call.pocket || state.call.via);
}

/**
 * The ball in hand before it is on the table, or while it is dragged to another spot: `{ball, pos, ok}`
 * where it would go (the spot being dragged, else the pointer's: `ui.ghost`), or null. Only for a ball
 * its owner then plays (the home's, K-7.1), not the opening placement of the other white.
 */
export function inHand(state, actions, mine, resting) {
  if (!actions.includes("place") || !mine || !mine.placement || mine.placement.region.kind !== "home") return null;
  const ball = mine.placement.ball;
  const dragged = state.placing && state.placing.pos && !state.placing.sent ? state.placing : null;
  if (dragged) return { ball, pos: dragged.pos, ok: Boolean(dragged.ok) };
  const ghost = state.ui.ghost;
  return ghost && !resting[ball] ? { ball, pos: ghost.pos, ok: Boolean(ghost.ok) } : null;
}

/** A ball not yet placed: a translucent ball, its ring green where it may go, red where it may not. */
function drawGhost(ctx, pos, ok, R, px) {
  ctx.save();
  ctx.beginPath();
  ctx.arc(pos[0], pos[1], R, 0, Math.PI * 2);
  ctx.fillStyle = ok ? "rgba(255,255,255,0.35)" : "rgba(255,80,80,0.25)";
  ctx.fill();
  ctx.setLineDash([4 * px, 3 * px]);
  ctx.strokeStyle = ok ? "rgba(120,255,170,0.95)" : "rgba(255,90,90,0.95)";
  ctx.lineWidth = 1.6 * px;
  ctx.stroke();
  ctx.restore();
}

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

  /**
   * Fit the table to a new box. An empty box (a stage not laid out yet, or hidden) keeps the last
   * fit and answers null: a canvas of height 0 cannot take the cloth pattern, and there is nothing
   * to draw into it anyway; the next resize with a real box draws again.
   */
  function resize(cssWidth, cssHeight, dpr) {
    if (!(cssWidth >= 1 && cssHeight >= 1)) return null;
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

    const mine = constraintsOf(state.shown, state.me);
    if (actions.includes("place") && mine && mine.placement) drawPlacementZone(ctx, mine.placement, px);

    // Call markers under the balls.
    const resting = restingBalls(state);
    if (!moving && state.role === "player") {
      const { call } = state;
      if (call.pocket && table.pockets[call.pocket]) {
        drawRing(ctx, table.pockets[call.pocket].mouth_center, R * 1.25, "rgba(255,205,70,0.95)", px, true, pulse);
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
    let drawnRemoteAim = "";
    let drawnAim = "";
    const hand = moving ? null : inHand(state, actions, mine, resting);
    if (hand) {
      // The ball in hand where it would go, and the shot from there: the spot is chosen for the shot.
      drawGhost(ctx, hand.pos, hand.ok, R, px);
      if (hand.ok) {
        const from = { ...resting, [hand.ball]: hand.pos };
        const guide = aimLine(table, from, hand.ball, state.aim);
        drawGuide(ctx, guide, R, px, 0.8);
        drawnAim = aimWords(guide);
        cue = { ball: hand.pos, angle: state.aim.angle, pull: 0, alpha: 0.6 };
      }
    } else if (!moving && (actions.includes("shoot") || actions.includes("lag"))) {
      const id = myCueBall(state);
      if (resting[id]) {
        const guide = aimLine(table, resting, id, state.aim);
        drawGuide(ctx, guide, R, px, 1);
        drawnAim = aimWords(guide);
        cue = { ball: resting[id], angle: state.aim.angle, pull: (state.ui.pull || 0) * MAX_PULL, alpha: 1 };
      }
    } else if (!moving && state.remoteAim && state.shown && state.shown.phase !== "finished") {
      const player = (state.shown.players || []).find((p) => p.name === state.remoteAim.player);
      const seat = (state.shown.players || []).indexOf(player);
      const id = player ? player.cue_ball || (seat === 0 ? "white1" : "white2") : null;
      if (id && resting[id]) {
        const angle = remoteAimAngle(state.remoteAim, now);
        drawGuide(ctx, aimLine(table, resting, id, { ...REMOTE_AIM, ...state.remoteAim, angle }), R, px, 0.55);
        cue = { ball: resting[id], angle, pull: 0, alpha: 0.8 };
        drawnRemoteAim = angle.toFixed(3);
      }
    }
    // The other player's cue angle as drawn, for browser tests and assistive tools.
    if (canvas.dataset.remoteAim !== drawnRemoteAim) canvas.dataset.remoteAim = drawnRemoteAim;
    // Where my aim line ends, for browser tests and assistive tools: "red2 pocket foot_left".
    if (canvas.dataset.aimLine !== drawnAim) canvas.dataset.aimLine = drawnAim;

    if (state.placing && state.placing.pos && !hand) {
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
    // What the server forbids is greyed out, over the balls.
    if (!moving && state.role === "player" && (actions.includes("shoot") || actions.includes("place"))) {
      drawRefused(ctx, mine, resting, state.call, px);
    }
    if (cue) drawCue(ctx, cue.ball, cue.angle, R, cue.pull, cue.alpha, px);
  }

  /** Grey veils over the balls that may not be called and, for the called ball, the pockets never allowed. */
  function drawRefused(ctx, mine, resting, call, px) {
    if (!mine) return;
    const R = table.ball_radius;
    ctx.save();
    ctx.fillStyle = "rgba(70,74,72,0.6)";
    ctx.strokeStyle = "rgba(225,225,225,0.85)";
    ctx.lineWidth = 1.5 * px;
    for (const ball of Object.keys(mine.not_callable || {})) {
      const pos = resting[ball];
      if (!pos) continue;
      ctx.beginPath();
      ctx.arc(pos[0], pos[1], R * 1.02, 0, Math.PI * 2);
      ctx.fill();
      ctx.beginPath();
      ctx.moveTo(pos[0] - R * 0.7, pos[1] + R * 0.7);
      ctx.lineTo(pos[0] + R * 0.7, pos[1] - R * 0.7);
      ctx.stroke();
    }
    ctx.fillStyle = "rgba(60,60,60,0.55)";
    // Pockets: only for a ball that may be called at all (a forbidden ball is greyed itself).
    if (call && call.ball && !(mine.not_callable || {})[call.ball]) {
      for (const [id, pocket] of Object.entries(table.pockets)) {
        if (pocketLegality(mine, call.ball, id).possible) continue;
        ctx.beginPath();
        ctx.arc(pocket.mouth_center[0], pocket.mouth_center[1], R * 1.5, 0, Math.PI * 2);
        ctx.fill();
      }
    }
    ctx.restore();
  }

  /** The region the server allows the ball in (constraints.placement.region), and its corridors. */
  function drawPlacementZone(ctx, placement, px) {
    const { region } = placement;
    const W = table.width;
    ctx.save();
    ctx.fillStyle = "rgba(255,255,255,0.07)";
    if (region.kind === "opening") {
      ctx.fillRect(region.x_min, 0, table.length - region.x_min, W);
      ctx.strokeStyle = "rgba(255,90,90,0.35)";
      ctx.fillStyle = "rgba(255,70,70,0.12)";
      for (const c of region.corridors || []) {
        const dx = c.to[0] - c.from[0];
        const dy = c.to[1] - c.from[1];
        const n = Math.hypot(dx, dy);
        const nx = (-dy / n) * region.half_width;
        const ny = (dx / n) * region.half_width;
        ctx.beginPath();
        ctx.moveTo(c.from[0] + nx, c.from[1] + ny);
        ctx.lineTo(c.to[0] + nx, c.to[1] + ny);
        ctx.lineTo(c.to[0] - nx, c.to[1] - ny);
        ctx.lineTo(c.from[0] - nx, c.from[1] - ny);
        ctx.closePath();
        ctx.fill();
        ctx.lineWidth = px;
        ctx.stroke();
      }
    } else {
      ctx.fillRect(0, 0, region.x_max, W);
      ctx.strokeStyle = "rgba(255,255,255,0.5)";
      ctx.lineWidth = 2 * px;
      ctx.setLineDash([6 * px, 4 * px]);
      ctx.beginPath();
      ctx.moveTo(region.x_max, 0);
      ctx.lineTo(region.x_max, W);
      ctx.stroke();
    }
    ctx.restore();
  }

  return { resize, draw, transform: () => tf };
}
