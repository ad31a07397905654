import { test } from "node:test";
import assert from "node:assert/strict";
import { createRefresher } from "../../static/game/js/tournament.js";

/** A load whose completions the test releases one by one, counting the loads started. */
function controlledLoad() {
  const releases = [];
  let started = 0;
  const load = () => {
    started += 1;
    return new Promise((resolve) => releases.push(resolve));
  };
  return { load, started: () => started, release: () => releases.shift()() };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

test("a change announced during a load loads once more after it (two finishes in one fetch)", async () => {
  const c = controlledLoad();
  const refresh = createRefresher(c.load);
  refresh();
  await settle();
  assert.equal(c.started(), 1);
  refresh(); // the second match finished while the first fetch is in flight
  refresh(); // and a third notice: still only one more load
  await settle();
  assert.equal(c.started(), 1, "one load at a time");
  c.release();
  await settle();
  assert.equal(c.started(), 2, "the notice during the load was not dropped");
  c.release();
  await settle();
  assert.equal(c.started(), 2, "nothing more was announced");
});

test("a failed load does not stop later refreshes", async () => {
  let calls = 0;
  const refresh = createRefresher(() => {
    calls += 1;
    return Promise.reject(new Error("offline"));
  });
  await refresh();
  await refresh();
  assert.equal(calls, 2);
});
