import { test } from "node:test";
import assert from "node:assert/strict";
import { createRefresher } from "../../static/game/js/pages/tournament.js";

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

/** A socket the test opens, answers and closes by hand. */
function fakeSockets() {
  const made = [];
  class FakeSocket {
    constructor(url) {
      this.url = url;
      this.sent = [];
      this.listeners = {};
      this.closed = false;
      made.push(this);
    }
    addEventListener(type, f) {
      (this.listeners[type] ||= []).push(f);
    }
    send(text) {
      this.sent.push(JSON.parse(text));
    }
    close() {
      this.closed = true;
    }
    emit(type, event = {}) {
      if (type === "open") this.readyState = 1;
      for (const f of this.listeners[type] || []) f(event);
    }
  }
  return { FakeSocket, made };
}

/** Timers fired by hand, in the order they were set (the page's clock never waited on). */
function handTimers() {
  const pending = new Map();
  let next = 1;
  return {
    setTimer: (f, ms) => (pending.set(next, { f, ms }), next++),
    clearTimer: (id) => pending.delete(id),
    fire(ms) {
      const found = [...pending.entries()].find(([, t]) => t.ms === ms);
      assert.ok(found, `a timer of ${ms} ms is set`);
      pending.delete(found[0]);
      found[1].f();
    },
  };
}

test("the connection is live while the server answers, lost when the socket closes", async () => {
  const { watchTournament } = await import("../../static/game/js/pages/tournament.js");
  const { FakeSocket, made } = fakeSockets();
  const timers = handTimers();
  const states = [];
  let back = 0;
  watchTournament({
    url: "ws://x/ws/tournament/1/",
    onState: (s) => states.push(s),
    onMessage: () => {},
    onBack: () => (back += 1),
    WebSocketImpl: FakeSocket,
    ...timers,
  });
  made[0].emit("open");
  assert.deepEqual(states, ["live"]);
  made[0].emit("close", { code: 1006 });
  assert.deepEqual(states, ["live", "lost"], "a server gone: never live");
  timers.fire(500); // the first retry
  made[1].emit("open");
  assert.deepEqual(states, ["live", "lost", "live"]);
  assert.equal(back, 1, "back again: the page fetches what it missed");
});

test("a ping with no answer is a lost connection (a wifi gone leaves the socket open)", async () => {
  const { watchTournament } = await import("../../static/game/js/pages/tournament.js");
  const { FakeSocket, made } = fakeSockets();
  const timers = handTimers();
  const states = [];
  const heard = [];
  watchTournament({
    url: "ws://x/ws/tournament/1/",
    onState: (s) => states.push(s),
    onMessage: (m) => heard.push(m.d.reload),
    WebSocketImpl: FakeSocket,
    pingEvery: 15000,
    pongWithin: 10000,
    ...timers,
  });
  made[0].emit("open");
  timers.fire(15000);
  assert.deepEqual(made[0].sent, [{ t: "ping" }]);
  made[0].emit("message", { data: JSON.stringify({ t: "pong", d: {} }) }); // answered: still live
  made[0].emit("message", { data: JSON.stringify({ t: "tournament", d: { reload: true } }) });
  assert.deepEqual(heard, [true]);
  timers.fire(15000);
  timers.fire(10000); // no answer to the second ping
  assert.deepEqual(states, ["live", "lost"]);
  assert.ok(made[0].closed, "the dead socket is closed and a new one opened later");
});
