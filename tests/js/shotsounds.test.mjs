import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { parseSegments } from "../../static/game/js/trajectory.js";
import { FULL_SPEED, gainFor, shotVoices, velocityJumps, voiceCounts } from "../../static/game/js/shotsounds.js";

const table = JSON.parse(readFileSync(new URL("./fixtures/table.json", import.meta.url)));
// A real break from the engine: its segments (the wire) and the engine's own events beside them.
const shot = JSON.parse(readFileSync(new URL("./fixtures/shot.json", import.meta.url)));
const engineCount = (kind) => shot.events.filter((e) => e.kind === kind).length;

test("a real break: one strike, a click per ball-ball event, a thud per cushion event", () => {
  const voices = shotVoices(parseSegments(shot.segments), table);
  const counts = voiceCounts(voices);
  assert.equal(counts.strike, engineCount("strike"));
  assert.ok(counts.ball >= 1);
  // Every audible collision is one the engine had, at the engine's time and between the same balls.
  const clicks = voices.filter((v) => v.kind === "ball");
  for (const c of clicks) {
    const match = shot.events.find((e) => e.kind === "ball_ball" && Math.abs(e.t - c.t) < 1e-4 && [...e.balls].sort().join() === [...c.balls].sort().join());
    assert.ok(match, `no engine event for ${JSON.stringify(c)}`);
  }
  assert.equal(counts.ball, engineCount("ball_ball"), JSON.stringify(counts));
  assert.equal(counts.cushion, engineCount("ball_cushion") + engineCount("ball_jaw"));
  const times = voices.map((v) => v.t);
  assert.deepEqual(times, [...times].sort((a, b) => a - b));
  assert.equal(voices[0].kind, "strike");
  assert.equal(voices[0].gain, 1); // a 6 m/s break is full loudness
});

test("the click follows the impact speed: a fast head-on hit is louder than a slow one", () => {
  const R = table.ball_radius;
  const hit = (v) => ({
    white1: [
      [0, 1, 0.7, v, 0, 0, 0],
      [0.1, 1 + v * 0.1, 0.7, 0, 0, 0, 0],
    ],
    red: [
      [0, 1 + v * 0.1 + 2 * R, 0.7, 0, 0, 0, 0],
      [0.1, 1 + v * 0.1 + 2 * R, 0.7, v, 0, -0.5, 0],
    ],
  });
  const loud = shotVoices(parseSegments(hit(2)), table).find((x) => x.kind === "ball");
  const soft = shotVoices(parseSegments(hit(0.3)), table).find((x) => x.kind === "ball");
  assert.ok(loud && soft);
  assert.equal(loud.t, 0.1);
  assert.ok(Math.abs(loud.speed - 2) < 1e-9 && Math.abs(soft.speed - 0.3) < 1e-9);
  assert.ok(loud.gain > soft.gain * 2, `${loud.gain} vs ${soft.gain}`);
});

test("a lone reversal is a cushion, sliding to rolling is silent, a pocket entry is a drop", () => {
  const segs = {
    white1: [
      [0, 1, 0.7, 1.5, 0, -3, 0], // sliding
      [0.1, 1.135, 0.7, 1.2, 0, -0.1, 0], // rolling: same velocity, new deceleration: no sound
      [0.5, 1.6, 0.7, -1.0, 0, 0.1, 0], // the foot cushion... (a jump: a thud)
      ["pocket", 0.9, "foot_right"],
    ],
  };
  const tracks = parseSegments(segs);
  assert.equal(velocityJumps(tracks).length, 2);
  const voices = shotVoices(tracks, table);
  assert.deepEqual(voices.map((v) => v.kind), ["strike", "cushion", "pocket"]);
  assert.equal(voices[2].t, 0.9);
  assert.ok(voices.every((v) => v.gain > 0 && v.gain <= 1));
});

test("gain is 0..1, monotone, full at the kind's full speed", () => {
  assert.equal(gainFor("ball", FULL_SPEED.ball), 1);
  assert.equal(gainFor("ball", 10), 1);
  assert.equal(gainFor("ball", 0), 0);
  assert.ok(gainFor("cushion", 0.5) < gainFor("cushion", 1));
  assert.deepEqual(shotVoices({}, table), []);
});
