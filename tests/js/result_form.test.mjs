import { test } from "node:test";
import assert from "node:assert/strict";
import { STORE, createOutbox } from "../../static/game/js/pages/result_form.js";

/** localStorage's two calls over a Map. */
function memoryStorage() {
  const map = new Map();
  return { getItem: (k) => (map.has(k) ? map.get(k) : null), setItem: (k, v) => map.set(k, String(v)), map };
}

const entry = (key) => ({ key, url: `/tournaments/1/pairings/${key}/result/`, fields: [["entry_key", key]], tournament: "1" });

test("a kept result waits through the outage and is sent once when the connection returns", async () => {
  const storage = memoryStorage();
  let online = false;
  const sent = [];
  const outbox = createOutbox({
    storage,
    send: async (e) => {
      sent.push(e.key);
      return online ? { kind: "stored" } : { kind: "unsent", why: "offline" };
    },
  });
  outbox.keep(entry("a"));
  outbox.keep(entry("b"));
  assert.equal(await outbox.flush(), 0);
  assert.deepEqual(sent, ["a"], "the first that cannot be sent stops the flush");
  assert.deepEqual(outbox.list().map((e) => [e.key, e.unsent]), [["a", "offline"], ["b", undefined]]);
  assert.ok(storage.map.get(STORE).includes('"a"'), "kept in the phone's storage");
  online = true;
  assert.equal(await outbox.flush(), 2);
  assert.equal(await outbox.flush(), 0, "nothing left to send");
  assert.deepEqual(sent, ["a", "a", "b"], "each stored result sent once after the connection returned");
  assert.deepEqual(outbox.list(), []);
});

test("a refused result is kept with the server's words and not sent again by itself", async () => {
  const storage = memoryStorage();
  let calls = 0;
  const outbox = createOutbox({
    storage,
    send: async () => {
      calls += 1;
      return { kind: "refused", words: "a score is a whole number" };
    },
  });
  outbox.keep(entry("c"));
  await outbox.flush();
  await outbox.flush();
  assert.equal(calls, 1);
  assert.equal(outbox.list()[0].refused, "a score is a whole number");
  outbox.drop("c");
  assert.deepEqual(outbox.list(), []);
});

test("two flushes at once send each result once", async () => {
  const storage = memoryStorage();
  const sent = [];
  const outbox = createOutbox({
    storage,
    send: async (e) => {
      sent.push(e.key);
      await new Promise((resolve) => setTimeout(resolve, 1));
      return { kind: "stored" };
    },
  });
  outbox.keep(entry("d"));
  await Promise.all([outbox.flush(), outbox.flush()]);
  assert.deepEqual(sent, ["d"]);
});

test("a broken store reads as empty, never throws", () => {
  const storage = memoryStorage();
  storage.setItem(STORE, "{not json");
  assert.deepEqual(createOutbox({ storage, send: async () => ({ kind: "stored" }) }).list(), []);
});
