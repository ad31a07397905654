import { test } from "node:test";
import assert from "node:assert/strict";
import { backoffDelay, BACKOFF_MAX_MS, createNet, initialAck, socketUrl } from "../../static/game/js/net.js";

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
    drop(code = 1006) {
      this.readyState = 3;
      this.onclose({ code });
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

test("acks are unique and increasing; aims are throttled but the last one gets out", () => {
  const sockets = [];
  const timers = fakeTimers();
  const net = createNet({ url: "ws://x/", onMessage() {}, WebSocketImpl: fakeSocketClass(sockets), timers, getVersion: () => 3 });
  sockets[0].open();
  const a = net.send("place", { ball: "white1", x: 0.4, y: 0.3 });
  const b = net.send("resign", {});
  assert.ok(b > a && a >= initialAck(timers.now()));
  assert.equal(sockets[0].sent.find((m) => m.t === "resign").v, undefined, "resign carries no version");
  for (let i = 0; i < 10; i++) net.sendAim({ angle: i / 10, speed: 1, side: 0, height: 0 });
  const aims = () => sockets[0].sent.filter((m) => m.t === "aim");
  assert.equal(aims().length, 1);
  timers.advance(100);
  assert.equal(aims().length, 2);
  assert.equal(aims()[1].d.angle, 0.9, "the newest aim wins");
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
  assert.ok(sockets[0].sent.some((m) => m.t === "ping"));
  timers.t.now += 42;
  sockets[0].feed({ t: "pong", d: {} });
  assert.deepEqual(lat, [42]);
  assert.equal(seen.length, 0);
});
