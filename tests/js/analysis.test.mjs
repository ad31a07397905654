import { test } from "node:test";
import assert from "node:assert/strict";
import { analysisProgress } from "../../static/game/js/analysis.js";

test("a running analysis says shot k of N", () => {
  assert.deepEqual(analysisProgress({ status: "running", done: 3, total: 12 }), {
    status: "running",
    text: "Analysing: shot 3 of 12",
    reload: false,
  });
  // the count never passes the total, and a bad count reads as none done
  assert.equal(analysisProgress({ status: "running", done: 40, total: 12 }).text, "Analysing: shot 12 of 12");
  assert.equal(analysisProgress({ status: "running", done: "x", total: 12 }).text, "Analysing: shot 0 of 12");
});

test("queued, or running before the shots are counted, waits for the engine", () => {
  assert.equal(analysisProgress({ status: "queued", done: 0, total: 0 }).text, "Waiting for the engine…");
  assert.equal(analysisProgress({ status: "running", done: 0, total: 0 }).status, "running");
});

test("done reloads the page for the report; failed says it may be asked again", () => {
  assert.equal(analysisProgress({ status: "done", done: 12, total: 12 }).reload, true);
  const failed = analysisProgress({ status: "failed", done: 0, total: 0 });
  assert.equal(failed.reload, false);
  assert.match(failed.text, /failed/);
});

test("anything else is not an analysis message", () => {
  for (const d of [null, undefined, 3, {}, { status: "later" }]) assert.equal(analysisProgress(d), null);
});
