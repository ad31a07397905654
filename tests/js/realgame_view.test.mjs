import { test } from "node:test";
import assert from "node:assert/strict";
import { clockReading, createGameStore, minutesSeconds, realStateOf, scoreLine, shotWords } from "../../static/game/js/realgame_view.js";

const game = (id, scores = [0, 0]) => ({
  id,
  table: { number: 1, name: "Table 1" },
  event: null,
  players: scores.map((score, seat) => ({ name: `P${seat}`, score, run: 0, visits: 0 })),
  turn: 0,
  status: "playing",
  clock: null,
  last_shots: [],
  next_game: null,
  spectators: 0,
});

test("a real_state message is read in the server's envelope, anything else is not one", () => {
  const wire = { t: "real_state", d: { version: 7, game: game(3) } };
  assert.deepEqual(realStateOf(wire), { version: 7, game: game(3) });
  assert.equal(realStateOf({ t: "pong", d: {} }), null);
  assert.equal(realStateOf(null), null);
  assert.equal(realStateOf({ t: "real_state", d: "nonsense" }), null);
});

test("the store keeps each game's newest version: an older message changes nothing", () => {
  const store = createGameStore();
  assert.equal(store.put(5, game(1, [9, 0])), true);
  assert.equal(store.put(4, game(1, [3, 0])), false, "a reconnect's older snapshot");
  assert.equal(scoreLine(store.get(1)), "9–0");
  assert.equal(store.put(6, game(1, [9, 4])), true);
  assert.equal(store.version(1), 6);
  assert.equal(store.version(2), -1);
});

test("the clock counts the event's limit down on the server's time, warns, and says the extra visits", () => {
  const started = 1_000_000; // epoch seconds
  const clock = { limit: 2400, warning_at: 2100, started_at: started, elapsed: 0, phase: "play", time_up: false };
  assert.deepEqual(clockReading(clock, (started + 60) * 1000), { text: "39:00", stage: "running" });
  // The page's clock is 30 s behind the server's: the skew puts it right.
  assert.deepEqual(clockReading(clock, (started + 30) * 1000, 30_000), { text: "39:00", stage: "running" });
  assert.deepEqual(clockReading(clock, (started + 2130.5) * 1000), { text: "4:29", stage: "warning" });
  assert.deepEqual(clockReading(clock, (started + 2500) * 1000), { text: "0:00", stage: "time_up" });
  const extra = { ...clock, phase: "extra_visits", extra_visits_left: 3, time_up: true };
  assert.deepEqual(clockReading(extra, 0), { text: "Extra visits: 3", stage: "extra_visits" });
  assert.equal(clockReading({ ...clock, phase: "shootout", shootout: true }, 0).stage, "shootout");
  // Not started: the whole limit, stopped; no limit: the time played.
  assert.deepEqual(clockReading({ ...clock, started_at: null }, 0), { text: "40:00", stage: "stopped" });
  const free = { limit: null, started_at: started, phase: "play" };
  assert.deepEqual(clockReading(free, (started + 75) * 1000), { text: "1:15", stage: "running" });
  assert.deepEqual(clockReading(null, 0), { text: "", stage: "none" });
  assert.equal(minutesSeconds(-5), "0:00");
});

test("a shot's words are the page's language of the server's map, or its text as it came", () => {
  assert.equal(shotWords({ player: 0, words: { en: "Potted the red", fi: "Punainen" }, points: 3, rules: [] }), "Potted the red");
  assert.equal(shotWords({ player: 0, words: "A miss", points: 0, rules: [] }), "A miss");
});
