import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  ballsAt,
  createState,
  cutOff,
  DEFAULT_AIM,
  entryOf,
  markSent,
  mergeHistory,
  myActions,
  receive,
  sending,
  setAim,
  setConnection,
  tick,
} from "../../static/game/js/state.js";
import { canOfferRematch, endCard, ratingWords } from "../../static/game/js/ui/endcard.js";
import { choiceWords, extraVisitsLeft, matchClockText, phaseDetail, shotClockTooltip } from "../../static/game/js/ui/phase.js";
import { entryWords, ruleUrl } from "../../static/game/js/ui/words.js";
import { fineDrag, fineTurn, FINE_RAD_PER_PX } from "../../static/game/js/input/gestures.js";
import { angleDegrees, mayAbort } from "../../static/game/js/ui/controls.js";

const table = JSON.parse(readFileSync(new URL("./fixtures/table.json", import.meta.url)));
const players = (a = 0, b = 0) => [
  { name: "alice", cue_ball: "white1", score: a },
  { name: "bob", cue_ball: "white2", score: b },
];
const game = (o = {}) => ({
  phase: "play",
  players: players(),
  turn: 0,
  balls: { white1: [0.5, 0.7], white2: [2.5, 0.3], red1: [0.71, 0.71], red2: [2.13, 0.71], kaisa: [1.42, 0.71] },
  pending: [["alice", "shoot"]],
  winner: null,
  ...o,
});
const fresh = (role = "player", me = "alice") => createState({ table, matchId: "m1", me, role });
const entry = (v, o = {}) => ({ v, player: "alice", kind: "shot", text: `shot ${v}`, points: 0, penalty: 0, foul: null, scores: [0, 0], call: { ball: "red1", pocket: "foot_left" }, ...o });

test("history: the snapshot's entries, then live entries, one per version in order", () => {
  let s = receive(fresh(), { t: "snapshot", v: 6, d: { state: game(), history: { entries: [entry(3), entry(5), entry(4)], total: 3 } } }, 0);
  assert.deepEqual(s.history.map((e) => e.v), [3, 4, 5]);
  assert.equal(s.historyTotal, 3);
  const choice = { t: "choice", v: 7, d: { player: "bob", take: true, state: game(), entry: entry(7, { kind: "choice", player: "bob", text: "bob breaks with white •" }) } };
  s = receive(s, choice, 10);
  s = tick(s, 20);
  assert.deepEqual(s.history.map((e) => e.v), [3, 4, 5, 7]);
  // The same event again (a repeat answer, or caught up twice) adds nothing.
  s = tick(receive(s, choice, 30), 40);
  assert.equal(s.history.length, 4);
  assert.equal(s.historyTotal, 4, "counted once");
  // A reconnect snapshot replaces the list with the server's, words and all.
  s = receive(s, { t: "snapshot", v: 9, d: { state: game(), history: { entries: [entry(3), entry(4), entry(5), entry(7), entry(9)], total: 5 } } }, 50);
  assert.deepEqual(s.history.map((e) => e.v), [3, 4, 5, 7, 9]);
  assert.deepEqual(mergeHistory([entry(1), entry(2)], [entry(2, { text: "new" }), { text: "no v" }]).map((e) => e.text), ["shot 1", "new"]);
});

test("history: a live shot's entry joins the list only when its balls have stopped", () => {
  let s = receive(fresh(), { t: "snapshot", v: 1, d: { state: game(), history: { entries: [], total: 0 } } }, 0);
  const segments = { white1: [[0, 0.5, 0.7, 2.0, 0, -1.0, 0]] };
  s = receive(s, { t: "shot", v: 2, d: { kind: "shot", player: "alice", segments, verdict: { reason: "missed" }, state: game({ turn: 1 }), entry: entry(2, { text: "alice missed" }) } }, 100);
  assert.equal(s.history.length, 0, "not while the balls roll");
  s = tick(s, 100 + 5000);
  assert.deepEqual(s.history.map((e) => e.text), ["alice missed"]);
});

test("entryOf: the server's entry, else one made from an older server's verdict", () => {
  assert.equal(entryOf("shot", 4, { entry: entry(4, { text: "words" }) }).text, "words");
  const made = entryOf("shot", 5, { kind: "lag", player: "bob", verdict: { reason: "bob's lag: 12 cm" } });
  assert.equal(made.kind, "lag");
  assert.equal(made.text, "bob's lag: 12 cm");
  assert.equal(entryOf("placed", 6, { verdict: { reason: "x" } }), null);
  assert.deepEqual(entryWords(entry(8, { points: 6, call: { ball: "kaisa", pocket: "foot_left" } })), {
    who: "alice",
    what: "kaisa → top right",
    points: "+6",
    why: "shot 8",
    tone: "good",
    kind: "shot",
    rules: [],
  });
  assert.equal(entryWords({ v: 3, player: "bob", kind: "choice", text: "bob breaks" }).what, "choice");
  // The rule ids that decided a verdict become links to /rules/; anything else is dropped.
  const ruled = entryWords(entry(9, { rules: ["K-3.4", "K-11.2", "<b>", 7] }));
  assert.deepEqual(ruled.rules, ["K-3.4", "K-11.2"]);
  assert.equal(ruleUrl("K-3.4"), "/rules/#K-3.4");
});

test("result: the snapshot's result shows the end card after a reload, the same for everyone", () => {
  const result = {
    winner: "alice",
    loser: "bob",
    scores: [60, 41],
    how: "target",
    text: "alice won: reached 60",
    rated: true,
    unrated_reason: null,
    rating_changes: [
      { player: "alice", before: 1500, after: 1562, delta: 62 },
      { player: "bob", before: 1500, after: 1438, delta: -62 },
    ],
  };
  const finished = game({ phase: "finished", winner: "alice", pending: [], players: players(60, 41) });
  const snap = { t: "snapshot", v: 40, d: { state: finished, result } };
  const forAlice = endCard(receive(fresh(), snap, 0));
  const forBob = endCard(receive(fresh("player", "bob"), snap, 0));
  const forCarol = endCard(receive(fresh("spectator", "carol"), snap, 0));
  assert.equal(forAlice.title, "You win!");
  assert.equal(forBob.title, "alice wins");
  assert.equal(forCarol.title, "alice wins");
  for (const card of [forAlice, forBob, forCarol]) {
    assert.equal(card.reason, "alice won: reached 60");
    assert.equal(card.score, "alice 60 – 41 bob");
    assert.deepEqual(card.ratings, ["alice 1500 → 1562 (+62)", "bob 1500 → 1438 (−62)"]);
  }
  const unrated = endCard(receive(fresh(), { t: "snapshot", v: 3, d: { state: finished, result: { ...result, how: "resign", text: "bob resigned", rated: false, unrated_reason: "bob played fewer than 2 shots", rating_changes: [] } } }, 0));
  assert.equal(unrated.rated, "Unrated: bob played fewer than 2 shots");
  const aborted = endCard(receive(fresh(), { t: "snapshot", v: 3, d: { state: game({ phase: "finished", pending: [] }), result: { ...result, winner: null, loser: null, how: "aborted", text: "aborted by bob before the break", rated: false, rating_changes: [] } } }, 0));
  assert.equal(aborted.title, "Match aborted");
  assert.equal(endCard(receive(fresh(), { t: "snapshot", v: 3, d: { state: game() } }, 0)), null, "no card while live");
  assert.deepEqual(ratingWords(null), []);
});

test("result: a game won in the shoot-out with fewer points shows the server's 45v – 52 (K-11.4)", () => {
  const result = {
    winner: "alice",
    loser: "bob",
    scores: [45, 52],
    score_line: "45v – 52",
    how: "shootout",
    text: "alice won in the shoot-out",
    rated: false,
    unrated_reason: null,
    rating_changes: [],
  };
  const finished = game({ phase: "finished", winner: "alice", pending: [], players: players(45, 52) });
  const card = endCard(receive(fresh("spectator", "carol"), { t: "snapshot", v: 40, d: { state: finished, result } }, 0));
  assert.equal(card.title, "alice wins");
  assert.equal(card.score, "alice 45v – 52 bob");
  assert.equal(card.reason, "alice won in the shoot-out");
  const older = endCard(receive(fresh(), { t: "snapshot", v: 40, d: { state: finished, result: { ...result, score_line: undefined } } }, 0));
  assert.equal(older.score, "alice 45 – 52 bob", "a result stored before score_line prints the scores");
});

test("result: a live finished event carries the result into the card", () => {
  let s = receive(fresh("spectator", "carol"), { t: "snapshot", v: 9, d: { state: game() } }, 0);
  const fin = game({ phase: "finished", winner: "bob", pending: [] });
  s = tick(receive(s, { t: "finished", v: 10, d: { winner: "bob", reason: "alice resigned", state: fin, result: { winner: "bob", scores: [0, 0], how: "resign", text: "bob won: alice resigned", rated: false } } }, 10), 20);
  const card = endCard(s);
  assert.equal(card.title, "bob wins");
  assert.equal(card.reason, "bob won: alice resigned");
  assert.equal(canOfferRematch(s), false, "a spectator offers no rematch");
  const bot = { ...fresh(), match: { players: [{ name: "alice" }, { name: "Computer", is_bot: true }] } };
  assert.equal(canOfferRematch(bot), false, "no rematch against the computer");
});

test("a refusal's words stay while reconnecting and through a refused socket's open; a snapshot clears them", () => {
  let s = setConnection(fresh(), "reconnecting", "Too many tabs");
  assert.equal(s.refusal, "Too many tabs");
  s = setConnection(s, "reconnecting");
  assert.equal(s.refusal, "Too many tabs", "a new attempt keeps what the server said");
  s = setConnection(s, "open");
  assert.equal(s.refusal, "Too many tabs", "a refused socket opens before its close: no blink");
  s = receive(s, { t: "snapshot", v: 4, d: { state: game() } }, 0);
  assert.equal(s.refusal, null, "the server kept this socket");
  s = setConnection(s, "reconnecting", "Too many tabs");
  s = setConnection(s, "reconnecting", null);
  assert.equal(s.refusal, null);
});

test("cut off: no input while the connection is lost; sending until answered, a repeat answers it", () => {
  let s = receive(fresh(), { t: "snapshot", v: 4, d: { state: game() } }, 0);
  s = setConnection(s, "open");
  assert.deepEqual(myActions(s), ["shoot"]);
  s = setConnection(s, "lost");
  assert.ok(cutOff(s));
  assert.deepEqual(myActions(s), [], "shooting disabled while cut off");
  s = setConnection(s, "open");
  s = markSent(s, 77, "shoot");
  assert.ok(sending(s));
  s = receive(s, { t: "shot", v: 5, d: { kind: "shot", player: "alice", ack: 77, segments: {}, state: game() } }, 1);
  assert.ok(!sending(s));
  s = markSent(s, 78, "shoot");
  s = receive(s, { t: "shot", v: 5, d: { kind: "shot", ack: 78, state: game() }, repeat: true }, 2);
  assert.ok(!sending(s), "the stored event, sent again for a repeated ack, answers the input");
  assert.equal(s.version, 5);
});

test("a new phase resets aim, power and call; the shoot-out lag draws both lag whites", () => {
  let s = receive(fresh(), { t: "snapshot", v: 4, d: { state: game({ phase: "extra_visits", extra_visits: ["white2"], turn: 1, pending: [["bob", "shoot"]] }) } }, 0);
  s = setAim(s, { angle: 2.2, speed: 7 });
  const shootout = game({
    phase: "shootout",
    balls: { white1: null, white2: null, red1: null, red2: null, kaisa: [1.42, 0.71] },
    shootout: { stage: "lag", visits: [0, 0], sudden_death: false, answer_by: null },
    lag: { round: 1, results: [null, null] },
    pending: [["alice", "lag"], ["bob", "lag"]],
  });
  s = tick(receive(s, { t: "notice", v: 5, d: { kind: "shootout", state: shootout, entry: entry(5, { kind: "notice", player: null, text: "Shoot-out: lag for who starts" }) } }, 10), 20);
  assert.deepEqual(s.aim, { ...DEFAULT_AIM });
  assert.equal(s.announce.text, "Shoot-out: lag for who starts");
  assert.deepEqual(myActions(s), ["lag"]);
  const balls = ballsAt(s, 30);
  assert.ok(balls.white1 && balls.white2, "both lag whites are on the table");
  assert.ok(balls.kaisa);
});

test("phase words: warning, extra visits left, shoot-out visits, sudden death and who must answer", () => {
  const warned = game({ clock: { limit: 60, warning: 55.4, warned: true } });
  assert.match(phaseDetail(warned, { matchLeft: 4.2 }), /Time-limit warning: 0:05 left/);
  assert.match(phaseDetail(game({ clock: { limit: 60, warning: 55.4, warned: false } }), { matchLeft: 3 }), /warning/, "the server's clock passed the warning");
  assert.equal(phaseDetail(game({ clock: { limit: 60, warning: 55.4 } }), { matchLeft: 30 }), "");
  const extra = game({ phase: "extra_visits", extra_visits: ["white1", "white2", "white1"] });
  assert.deepEqual(extraVisitsLeft(extra), [2, 1]);
  assert.equal(phaseDetail(extra), "Time up · extra visits left: alice 2 · bob 1");
  assert.equal(matchClockText(extra, -20), "Time up", "no stuck Match 0:00");
  const so = (o) => game({ phase: "shootout", ruleset: { shootout_visits: 10 }, shootout: { stage: "shoot", visits: [3, 2], sudden_death: false, answer_by: null, ...o }, turn: 1 });
  assert.equal(phaseDetail(so()), "Shoot-out · visits alice 3/10 · bob 3/10");
  assert.equal(phaseDetail(so({ sudden_death: true })), "Sudden death · the first penalty loses");
  assert.equal(phaseDetail(so({ sudden_death: true, answer_by: 1 })), "Sudden death · bob must answer");
  assert.equal(choiceWords(so({ stage: "choose" })).take, "Start the shoot-out");
  assert.equal(choiceWords(game({ phase: "choose_break" })).take, "Break");
  assert.match(shotClockTooltip({ timeout_limit: 3, grace: 60 }), /visit passes to the opponent.*3 expiries in a row.*disconnect past the grace \(60 s\)/);
});

test("fine aim: a drag step across the line turns at most 0.1 mrad a pixel; the angle shows to 0.01°", () => {
  const cue = [1, 0.7];
  const scale = 300; // CSS px per metre
  const px = 1 / scale;
  const turn = fineTurn(cue, [1.5, 0.7], [1.5, 0.7 + px], scale);
  assert.ok(Math.abs(turn - FINE_RAD_PER_PX) < 1e-8 && turn <= 1e-4, `${turn}`);
  assert.ok(Math.abs(fineTurn(cue, [1.5, 0.7], [1.5 + 10 * px, 0.7], scale)) < 1e-15, "along the line: no turn");
  assert.ok(fineTurn(cue, [1.5, 0.7], [1.5, 0.7 - px], scale) < 0, "the other way turns back");
  assert.equal(fineDrag(cue, [1.2, 0.7], { shift: true }), true);
  assert.equal(fineDrag(cue, [1.2, 0.7], { touch: true }), false, "a touch near the ball aims directly");
  assert.equal(fineDrag(cue, [2.3, 0.7], { touch: true }), true, "a touch far from the ball aims finely");
  assert.equal(angleDegrees(0), "0.00°");
  assert.equal(angleDegrees(-Math.PI / 2), "270.00°");
  assert.equal(angleDegrees(0.0001), "0.01°");
  assert.equal(angleDegrees(2 * Math.PI - 1e-6), "0.00°");
});

test("the computer's break choice is announced in words (the choice entry)", () => {
  let s = receive(fresh(), { t: "snapshot", v: 3, d: { state: game({ phase: "choose_break", pending: [["Computer", "choose_break"]] }) } }, 0);
  const after = game({ phase: "opening_placement", pending: [["alice", "place"]] });
  const text = "Computer passes the break: alice breaks with white •; Computer places white ••";
  s = tick(receive(s, { t: "choice", v: 4, d: { player: "Computer", take: false, state: after, entry: entry(4, { kind: "choice", player: "Computer", text }) } }, 5), 6);
  assert.equal(s.announce.text, text, "shown over the table");
  assert.equal(s.history.at(-1).text, text, "and kept in the list");
});

test("abort is offered only when the server's state says it is allowed", () => {
  const at = (g) => receive(fresh(), { t: "snapshot", v: 2, d: { state: g } }, 0);
  assert.equal(mayAbort(at(game({ phase: "lag", abortable: true }))), true);
  assert.equal(mayAbort(at(game({ phase: "play", abortable: false }))), false);
  assert.equal(mayAbort(at(game({ phase: "lag" }))), false, "no field, no button: the client does not guess");
  assert.equal(mayAbort(at(game({ phase: "finished", abortable: true, pending: [] }))), false);
});

test("the end card keeps each player's name whole: the runs give the text back, names on their own", async () => {
  const { nameRuns } = await import("../../static/game/js/ui/endcard.js");
  const text = "Guest-4821 won: Guest-48 resigned";
  const runs = nameRuns(text, ["Guest-48", "Guest-4821"]);
  assert.equal(runs.map((r) => r.text).join(""), text);
  assert.deepEqual(runs.filter((r) => r.name).map((r) => r.text), ["Guest-4821", "Guest-48"], "the longer name first");
  assert.deepEqual(nameRuns("Match over", ["alice"]), [{ text: "Match over", name: false }]);
  assert.deepEqual(nameRuns("", ["alice"]), []);
});
