import { test } from "node:test";
import assert from "node:assert/strict";
import { createLastShot } from "../../static/game/js/ui/lastshot.js";
import { ballsAt } from "../../static/game/js/state.js";
import { readFileSync } from "node:fs";

const table = JSON.parse(readFileSync(new URL("./fixtures/table.json", import.meta.url)));
// white1 rolls 1 m along +x in 1 s at constant speed, then stops (a last segment with no velocity).
const segments = { white1: [[0, 0.5, 0.7, 1, 0, 0, 0], [1, 1.5, 0.7, 0, 0, 0, 0]] };
const live = { table, shown: { balls: { white1: [1.5, 0.7] } }, steps: [], lagRest: {}, ui: {} };

function page() {
  let t = 0;
  const root = { dataset: {}, querySelectorAll: () => [] };
  const shot = createLastShot(root, { clock: () => t });
  return { root, shot, at: (ms) => (t = ms) };
}

test("a replay at ½× draws the last shot at half the elapsed time, then gives the live state back", () => {
  const { root, shot, at } = page();
  assert.equal(shot.view(live, 0), null);
  shot.heard({ t: "shot", v: 7, d: { segments } });
  at(1000);
  shot.start(0.5);
  assert.equal(root.dataset.replay, "0.5");
  const mid = shot.view(live, 2000); // 1 s later at ½×: 0.5 s of shot time
  assert.equal(mid.now, 500);
  const ball = ballsAt(mid.state, mid.now).white1;
  assert.ok(Math.abs(ball.x - 1.0) < 1e-9, ball.x);
  assert.equal(live.steps.length, 0); // the live state is untouched
  assert.ok(shot.view(live, 3500)); // the end is held a moment
  assert.equal(shot.view(live, 4000), null);
  assert.equal(root.dataset.replay, "");
});

test("a live event ends a replay at once; a snapshot's last shot can be replayed too", () => {
  const { root, shot, at } = page();
  shot.heard({ t: "snapshot", v: 3, d: { state: { last_shot: { segments } } } });
  at(0);
  shot.start(1);
  assert.ok(shot.view(live, 200));
  shot.heard({ t: "choice", v: 4, d: {} });
  assert.equal(shot.view(live, 300), null);
  assert.equal(root.dataset.replay, "");
  shot.heard({ t: "shot", v: 5, d: { segments: { white1: [["bad"]] } } }); // malformed: not kept
  shot.start(1);
  assert.ok(shot.view(live, 400)); // the snapshot's shot is still the one to replay
});

test("pressing the running replay's button again stops it; the other rate restarts it", () => {
  const { root, shot, at } = page();
  shot.heard({ t: "shot", v: 7, d: { segments } });
  at(0);
  shot.toggle(0.5);
  assert.equal(root.dataset.replay, "0.5");
  assert.ok(shot.view(live, 500));
  at(500);
  shot.toggle(1); // the other button: a replay at 1× from the start
  assert.equal(root.dataset.replay, "1");
  assert.equal(shot.view(live, 700).now, 200);
  shot.toggle(1); // the same button again: stopped, the live state is drawn
  assert.equal(root.dataset.replay, "");
  assert.equal(shot.view(live, 800), null);
  assert.equal(root.dataset.replayT, undefined);
});
