// The reconnecting socket of the pages that follow the server, and the backoff every socket waits by
// (static/game/js/socket.js): pure schedules, sockets and timers driven by hand.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  FOLLOW_BACKOFF,
  MATCH_BACKOFF,
  createReconnectingSocket,
  pageSocketUrl,
  reconnectDelay,
} from "../../static/game/js/socket.js";
import { backoffDelay } from "../../static/game/js/net.js";

test("the pages' schedule doubles from 0.5 s and stops at 10 s, without jitter", () => {
  const delays = [0, 1, 2, 3, 4, 5, 6, 30].map((n) => reconnectDelay(n, FOLLOW_BACKOFF, () => 0));
  assert.deepEqual(delays, [500, 1000, 2000, 4000, 8000, 10000, 10000, 10000]);
  assert.equal(reconnectDelay(2, FOLLOW_BACKOFF, () => 1), 2000, "no jitter: random is not read");
});

test("the match schedule moves each delay by at most a quarter either way", () => {
  assert.equal(reconnectDelay(0, MATCH_BACKOFF, () => 0.5), 400);
  assert.equal(reconnectDelay(2, MATCH_BACKOFF, () => 0), 1200);
  assert.equal(reconnectDelay(2, MATCH_BACKOFF, () => 1), 2000);
  assert.equal(reconnectDelay(40, MATCH_BACKOFF, () => 1), 12500, "the cap, then its jitter");
  for (let n = 0; n < 12; n++) {
    for (const r of [0, 0.1, 0.5, 0.9, 1]) assert.equal(backoffDelay(n, () => r), reconnectDelay(n, MATCH_BACKOFF, () => r));
  }
});

test("a socket's address follows the page's scheme", () => {
  assert.equal(pageSocketUrl("/ws/lobby/", { protocol: "https:", host: "kaiza.fi" }), "wss://kaiza.fi/ws/lobby/");
  assert.equal(pageSocketUrl("/ws/lobby/", { protocol: "http:", host: "127.0.0.1:8000" }), "ws://127.0.0.1:8000/ws/lobby/");
});

/** Sockets the test opens, answers and closes by hand. */
function fakeSockets() {
  const made = [];
  class FakeSocket {
    constructor(url) {
      this.url = url;
      this.readyState = 0;
      this.sent = [];
      this.listeners = {};
      this.closed = 0;
      made.push(this);
    }
    addEventListener(type, f) {
      (this.listeners[type] ||= []).push(f);
    }
    send(text) {
      this.sent.push(JSON.parse(text));
    }
    close() {
      this.closed += 1;
      this.readyState = 3;
    }
    emit(type, event = {}) {
      if (type === "open") this.readyState = 1;
      for (const f of this.listeners[type] || []) f(event);
    }
  }
  return { FakeSocket, made };
}

/** Timers fired by hand; the delays asked for, in order. */
function handTimers() {
  const pending = new Map();
  const asked = [];
  let next = 1;
  return {
    asked,
    setTimer: (f, ms) => (asked.push(ms), pending.set(next, f), next++),
    clearTimer: (id) => pending.delete(id),
    fireAll() {
      const due = [...pending.values()];
      pending.clear();
      for (const f of due) f();
    },
    count: () => pending.size,
  };
}

test("closed sockets are opened again after 0.5, 1, 2 s, and the wait starts over once one opens", () => {
  const { FakeSocket, made } = fakeSockets();
  const timers = handTimers();
  const events = [];
  createReconnectingSocket({
    url: "ws://x/ws/lobby/",
    WebSocketImpl: FakeSocket,
    onOpen: ({ attempt }) => events.push(["open", attempt]),
    onMessage: (msg) => events.push(["message", msg.t]),
    onClose: (detail, next) => events.push(["close", detail.code, next.attempt, next.delay]),
    setTimer: timers.setTimer,
    clearTimer: timers.clearTimer,
  });
  made[0].emit("open");
  made[0].emit("message", { data: '{"t": "matches", "d": {"matches": []}}' });
  made[0].emit("message", { data: "not json" });
  for (let k = 0; k < 3; k++) {
    made[k].emit("close", { code: 1006, reason: "" });
    timers.fireAll();
  }
  made[3].emit("open");
  made[3].emit("close", { code: 1001, reason: "" });
  assert.deepEqual(timers.asked, [500, 1000, 2000, 500]);
  assert.deepEqual(events, [
    ["open", 0],
    ["message", "matches"],
    ["close", 1006, 1, 500],
    ["close", 1006, 2, 1000],
    ["close", 1006, 3, 2000],
    ["open", 3],
    ["close", 1001, 1, 500],
  ]);
  assert.equal(made.length, 4, "one socket at a time");
});

test("send waits for an open socket; drop gives it up; stop ends the reconnects", () => {
  const { FakeSocket, made } = fakeSockets();
  const timers = handTimers();
  const closes = [];
  const link = createReconnectingSocket({
    url: "ws://x/",
    WebSocketImpl: FakeSocket,
    onMessage: () => {},
    onClose: (detail, next) => closes.push(next.delay),
    setTimer: timers.setTimer,
    clearTimer: timers.clearTimer,
  });
  assert.equal(link.send({ t: "ping" }), false, "not open yet");
  made[0].emit("open");
  assert.equal(link.send({ t: "ping" }), true);
  assert.deepEqual(made[0].sent, [{ t: "ping" }]);
  link.drop(); // a ping unanswered: the socket may never close by itself
  assert.equal(made[0].closed, 1);
  assert.deepEqual(closes, [500]);
  made[0].emit("close", { code: 1006 }); // its late close changes nothing
  assert.deepEqual(closes, [500]);
  timers.fireAll();
  made[1].emit("open");
  link.stop();
  assert.equal(made[1].closed, 1);
  made[1].emit("close", { code: 1000 });
  assert.equal(timers.count(), 0, "no reconnect after stop");
  assert.deepEqual(closes, [500]);
  assert.equal(made.length, 2);
});
