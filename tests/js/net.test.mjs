import { test } from "node:test";
import assert from "node:assert/strict";
import {
  backoffDelay,
  BACKOFF_MAX_MS,
  createAckSource,
  createNet,
  livenessCheck,
  RESEND_MS,
  SILENCE_MS,
  socketUrl,
  TOO_MANY_CLOSE_CODE,
} from "../../static/game/js/net.js";

/** A fake WebSocket recording what is sent; the test opens, feeds and closes it. */
function fakeSocketClass(log) {
  return class FakeSocket {
    constructor(url) {
      this.url = url;
      this.readyState = 0;
      this.sent = [];
      log.push(this);
    }
    send(text) {
      this.sent.push(JSON.parse(text));
    }
    close() {
      this.readyState = 3;
      this.onclose && this.onclose({ code: 1000 });
    }
    open() {
      this.readyState = 1;
      this.onopen();
    }
    feed(msg) {
      this.onmessage({ data: JSON.stringify(msg) });
    }
    drop(code = 1006, reason = "") {
      this.readyState = 3;
      this.onclose({ code, reason });
    }
  };
}

function fakeTimers() {
  const t = { now: 1_700_000_000_000, queue: [] };
  return {
    t,
    setTimeout: (f, ms) => {
      const h = { f, at: t.now + ms };
      t.queue.push(h);
      return h;
    },
    clearTimeout: (h) => {
      t.queue = t.queue.filter((x) => x !== h);
    },
    now: () => t.now,
    advance(ms) {
      t.now += ms;
      const due = t.queue.filter((h) => h.at <= t.now);
      t.queue = t.queue.filter((h) => h.at > t.now);
      due.forEach((h) => h.f());
    },
  };
}

test("backoff doubles, is capped, and jitters within ±25 %", () => {
  assert.equal(backoffDelay(0, () => 0.5), 400);
  assert.equal(backoffDelay(3, () => 0.5), 3200);
  assert.equal(backoffDelay(30, () => 0.5), BACKOFF_MAX_MS);
  assert.equal(backoffDelay(1, () => 0), 600);
  assert.equal(backoffDelay(1, () => 1), 1000);
});

test("socket URL follows the page's scheme and host", () => {
  assert.equal(socketUrl("/ws/match/ab/", { protocol: "https:", host: "k.example" }), "wss://k.example/ws/match/ab/");
  assert.equal(socketUrl("/ws/match/ab/", { protocol: "http:", host: "127.0.0.1:8000" }), "ws://127.0.0.1:8000/ws/match/ab/");
});

test("reconnects after a drop, says hello with the last version, re-sends unanswered inputs", () => {
  const sockets = [];
  const timers = fakeTimers();
  const statuses = [];
  let version = null;
  const got = [];
  const net = createNet({
    url: "ws://x/ws/match/a/",
    onMessage: (m) => got.push(m),
    onStatus: (s) => statuses.push(s),
    getVersion: () => version,
    WebSocketImpl: fakeSocketClass(sockets),
    timers,
  });
  sockets[0].open();
  assert.equal(sockets[0].sent.filter((m) => m.t === "hello").length, 0, "no hello before any version");
  sockets[0].feed({ t: "snapshot", v: 7, d: {} });
  version = 7;
  const ack = net.send("shoot", { call: {}, strike: {} });
  const shot = sockets[0].sent.find((m) => m.t === "shoot");
  assert.equal(shot.ack, ack);
  assert.equal(shot.v, 7, "inputs name the version they were made against");
  sockets[0].drop();
  assert.equal(statuses.at(-1), "reconnecting");
  timers.advance(BACKOFF_MAX_MS);
  assert.equal(sockets.length, 2);
  sockets[1].open();
  assert.deepEqual(sockets[1].sent[0], { t: "hello", d: { v: 7 } });
  const again = sockets[1].sent.find((m) => m.t === "shoot");
  assert.equal(again.ack, ack, "same ack: the server answers it, never applies it twice");
  // Once answered, it is not re-sent on the next reconnect.
  sockets[1].feed({ t: "shot", v: 8, d: { ack } });
  assert.equal(net.unanswered(), 0);
  assert.equal(got.length, 2);
  net.close();
  assert.equal(statuses.at(-1), "closed");
});

test("a refused socket (no such match) is not retried", () => {
  const sockets = [];
  const timers = fakeTimers();
  const statuses = [];
  createNet({ url: "ws://x/", onMessage() {}, onStatus: (s) => statuses.push(s), WebSocketImpl: fakeSocketClass(sockets), timers });
  sockets[0].open();
  sockets[0].drop(4404);
  timers.advance(60_000);
  assert.equal(sockets.length, 1);
  assert.equal(statuses.at(-1), "closed");
});

test("a socket refused for too many (4429) says the server's words and tries again", () => {
  const sockets = [];
  const timers = fakeTimers();
  const statuses = [];
  createNet({ url: "ws://x/", onMessage() {}, onStatus: (s, info) => statuses.push([s, info]), WebSocketImpl: fakeSocketClass(sockets), timers });
  sockets[0].open();
  sockets[0].drop(TOO_MANY_CLOSE_CODE, "This match is open in too many tabs: close one and try again.");
  assert.deepEqual(statuses.at(-1)[0], "reconnecting");
  assert.equal(statuses.at(-1)[1].refusal, "This match is open in too many tabs: close one and try again.");
  timers.advance(BACKOFF_MAX_MS * 2);
  assert.equal(sockets.length, 2, "tried again after the backoff");
  sockets[1].drop(1006);
  assert.equal(statuses.at(-1)[1].refusal, null, "another close says nothing of a refusal");
});

test("acks are unique and increasing; aims are throttled but the last one gets out", () => {
  const sockets = [];
  const timers = fakeTimers();
  const net = createNet({ url: "ws://x/", onMessage() {}, WebSocketImpl: fakeSocketClass(sockets), timers, getVersion: () => 3 });
  sockets[0].open();
  const a = net.send("place", { ball: "white1", x: 0.4, y: 0.3 });
  const b = net.send("resign", {});
  assert.ok(b > a && a >= 1 && b <= Number.MAX_SAFE_INTEGER);
  assert.equal(sockets[0].sent.find((m) => m.t === "resign").v, undefined, "resign carries no version");
  for (let i = 0; i < 10; i++) net.sendAim({ angle: i / 10, speed: 1, side: 0, height: 0 });
  const aims = () => sockets[0].sent.filter((m) => m.t === "aim");
  assert.equal(aims().length, 1);
  timers.advance(100);
  assert.equal(aims().length, 2);
  assert.equal(aims()[1].d.angle, 0.9, "the newest aim wins");
});

test("a shot cancels an aim the throttle still holds: no aim reaches the server after it", () => {
  const sockets = [];
  const timers = fakeTimers();
  const net = createNet({ url: "ws://x/", onMessage() {}, WebSocketImpl: fakeSocketClass(sockets), timers, getVersion: () => 7 });
  sockets[0].open();
  net.sendAim({ angle: 0.1, speed: 2, side: 0, height: 0 });
  net.sendAim({ angle: 0.2, speed: 2, side: 0, height: 0 }); // held by the throttle
  net.send("shoot", { call: null, strike: { angle: 0.2, speed: 2, side: 0, height: 0 } });
  timers.advance(500);
  const types = sockets[0].sent.map((m) => m.t).filter((t) => t !== "hello");
  assert.deepEqual(types, ["aim", "shoot"], "the held aim was dropped, not sent after the shot");
});

test("catch-up requests are rate limited", () => {
  const sockets = [];
  const timers = fakeTimers();
  const net = createNet({ url: "ws://x/", onMessage() {}, WebSocketImpl: fakeSocketClass(sockets), timers });
  sockets[0].open();
  assert.equal(net.requestCatchUp(4), true);
  assert.equal(net.requestCatchUp(4), false);
  timers.advance(2000);
  assert.equal(net.requestCatchUp(4), true);
  assert.equal(sockets[0].sent.filter((m) => m.t === "hello").length, 2);
});

test("pings measure the round trip and pongs are not passed on", () => {
  const sockets = [];
  const timers = fakeTimers();
  const seen = [];
  const lat = [];
  createNet({ url: "ws://x/", onMessage: (m) => seen.push(m), onLatency: (ms) => lat.push(ms), WebSocketImpl: fakeSocketClass(sockets), timers });
  sockets[0].open();
  assert.ok(!sockets[0].sent.some((m) => m.t === "ping"), "no ping while the server was just heard");
  for (let i = 0; i < 4; i++) timers.advance(500);
  assert.ok(sockets[0].sent.some((m) => m.t === "ping"), "a ping after 2 s of quiet");
  timers.t.now += 42;
  sockets[0].feed({ t: "pong", d: {} });
  assert.deepEqual(lat, [42]);
  assert.equal(seen.length, 0);
});

/** Advance the fake clock in small steps so timers scheduled on the way fire too. */
function run(timers, ms, step = 100) {
  for (let t = 0; t < ms; t += step) timers.advance(step);
}

test("liveness: silent for 6 s is lost, quiet for 2 s pings, an input unanswered for 5 s is resent", () => {
  const base = { now: 10_000, lastPing: 0 };
  assert.deepEqual(livenessCheck({ ...base, lastHeard: 9_000 }), { lost: false, ping: false, resend: [] });
  assert.equal(livenessCheck({ ...base, lastHeard: 8_000 }).ping, true);
  assert.equal(livenessCheck({ ...base, lastHeard: 8_000, lastPing: 9_500 }).ping, false, "one ping per interval");
  assert.equal(livenessCheck({ ...base, lastHeard: 10_000 - SILENCE_MS + 1 }).lost, false);
  assert.equal(livenessCheck({ ...base, lastHeard: 10_000 - SILENCE_MS }).lost, true);
  const pending = [{ ack: 7, sentAt: 10_000 - RESEND_MS }, { ack: 8, sentAt: 9_000 }];
  assert.deepEqual(livenessCheck({ ...base, lastHeard: 10_000, pending }).resend, [7]);
});

test("a frozen connection is given up within 6 s and the client reconnects and catches up", () => {
  const sockets = [];
  const timers = fakeTimers();
  const statuses = [];
  const net = createNet({ url: "ws://x/", onMessage() {}, onStatus: (s) => statuses.push(s), getVersion: () => 12, WebSocketImpl: fakeSocketClass(sockets), timers });
  sockets[0].open();
  run(timers, 4000);
  sockets[0].feed({ t: "beat", d: { v: 12 } }); // anything heard is life
  run(timers, 5000);
  assert.equal(sockets.length, 1, "heard 5 s ago: still alive");
  assert.ok(!statuses.includes("lost"));
  run(timers, 1500); // 6.5 s of silence
  assert.ok(statuses.includes("lost"), `statuses ${statuses}`);
  run(timers, 1000);
  assert.equal(sockets.length, 2, "a new socket is tried at once");
  sockets[1].open();
  assert.deepEqual(sockets[1].sent[0], { t: "hello", d: { v: 12 } }, "catch up from the last version");
  assert.equal(statuses.at(-1), "open");
  net.close();
});

test("a socket that never opens is given up and tried again", () => {
  const sockets = [];
  const timers = fakeTimers();
  createNet({ url: "ws://x/", onMessage() {}, WebSocketImpl: fakeSocketClass(sockets), timers });
  run(timers, 7000);
  assert.ok(sockets.length >= 2, "the hanging handshake is abandoned");
});

test("a beat ahead of our version asks for what we missed; pongs and beats are not passed on", () => {
  const sockets = [];
  const timers = fakeTimers();
  const seen = [];
  createNet({ url: "ws://x/", onMessage: (m) => seen.push(m), getVersion: () => 5, WebSocketImpl: fakeSocketClass(sockets), timers });
  sockets[0].open();
  sockets[0].sent.length = 0;
  sockets[0].feed({ t: "beat", d: { v: 5 } });
  assert.equal(sockets[0].sent.length, 0, "level with the server: nothing to ask");
  sockets[0].feed({ t: "beat", d: { v: 7 } });
  assert.deepEqual(sockets[0].sent, [{ t: "hello", d: { v: 5 } }]);
  assert.equal(seen.length, 0);
});

test("an unanswered input is resent after 5 s with the same ack, and not after its answer", () => {
  const sockets = [];
  const timers = fakeTimers();
  const net = createNet({ url: "ws://x/", onMessage() {}, getVersion: () => 3, WebSocketImpl: fakeSocketClass(sockets), timers });
  sockets[0].open();
  const ack = net.send("shoot", { call: {}, strike: {} });
  const shots = () => sockets[0].sent.filter((m) => m.t === "shoot");
  for (let i = 0; i < 9; i++) {
    run(timers, 500);
    sockets[0].feed({ t: "presence", d: {} }); // the server is alive, only our input got no answer
  }
  assert.equal(shots().length, 1, "not before 5 s");
  for (let i = 0; i < 3; i++) {
    run(timers, 500);
    sockets[0].feed({ t: "presence", d: {} });
  }
  assert.equal(shots().length, 2);
  assert.equal(shots()[1].ack, ack, "the same ack: the server applies it once");
  assert.equal(shots()[1].v, 3, "and the version it was made against");
  sockets[0].feed({ t: "shot", v: 4, d: { ack }, repeat: true });
  for (let i = 0; i < 14; i++) {
    run(timers, 500);
    sockets[0].feed({ t: "presence", d: {} });
  }
  assert.equal(shots().length, 2, "answered: never sent again");
});

test("an input the database failed under is sent again, same ack, until it is answered", () => {
  const sockets = [];
  const timers = fakeTimers();
  const net = createNet({ url: "ws://x/", onMessage() {}, getVersion: () => 3, WebSocketImpl: fakeSocketClass(sockets), timers });
  sockets[0].open();
  const ack = net.send("lag", { strike: {} });
  const lags = () => sockets[0].sent.filter((m) => m.t === "lag");
  sockets[0].feed({ t: "error", d: { code: "unavailable", message: "it is sent again", ack } });
  assert.equal(net.unanswered(), 1, "still unanswered");
  for (let i = 0; i < 12; i++) {
    run(timers, 500);
    sockets[0].feed({ t: "presence", d: {} });
  }
  assert.equal(lags().length, 2);
  assert.equal(lags()[1].ack, ack);
  sockets[0].feed({ t: "error", d: { code: "illegal_placement", message: "no", ack } });
  assert.equal(net.unanswered(), 0, "any other error settles it");
});

test("each tab has its own ack space: two tabs opened at the same moment never share an ack", () => {
  const a = createAckSource(1234567);
  const b = createAckSource(1234568);
  const seenA = new Set(Array.from({ length: 5000 }, () => a.next()));
  const fromB = Array.from({ length: 5000 }, () => b.next());
  assert.equal(seenA.size, 5000, "unique within a tab");
  assert.ok(fromB.every((x) => !seenA.has(x)), "disjoint across tabs");
  const top = createAckSource(2 ** 32 - 1);
  for (let i = 0; i < 3; i++) assert.ok(Number.isSafeInteger(top.next()) && top.next() <= 2 ** 53 - 1, "within the protocol's range");
  // Real tabs draw their ids at random: two sources made in the same millisecond differ.
  const ids = new Set(Array.from({ length: 200 }, () => createAckSource().tabId));
  assert.ok(ids.size >= 199);
});
