import { test } from "node:test";
import assert from "node:assert/strict";
import { boardItems, formatPoints, formatShare, refusalWords } from "../../static/game/js/engine_board.js";

const WORDS = {
  line: "{points} points expected · comes off {success}",
  refused: "The engine could not answer that.",
  cue_ball_in_hand: "Place your white in the home first, then ask the engine.",
};
const words = (key) => WORDS[key] || "";

test("the board's figures: one decimal of points, never -0.0; a share in whole per cent", () => {
  assert.equal(formatPoints(3.125), "3.1");
  assert.equal(formatPoints(2.96), "3.0");
  assert.equal(formatPoints(-0.04), "0.0");
  assert.equal(formatPoints(-1.25), "-1.2");
  assert.equal(formatShare(0.1667), "17%");
  assert.equal(formatShare(1), "100%");
});

test("the board's items keep the server's order, its sentences and the strike to replay", () => {
  const reply = {
    shots: [
      { words: "Potted the kaisa", expected_points: 3.125, success: 0.25, call: { ball: "kaisa" }, strike: { angle: 1 } },
      { words: "Potted the red", expected_points: 3.0, success: 1.0, call: { ball: "red1" }, strike: { angle: 2 } },
    ],
  };
  const items = boardItems(reply, words);
  assert.deepEqual(
    items.map((i) => [i.rank, i.sentence, i.line]),
    [
      [1, "Potted the kaisa", "3.1 points expected · comes off 25%"],
      [2, "Potted the red", "3.0 points expected · comes off 100%"],
    ],
  );
  assert.deepEqual(items[1].shoot, { call: { ball: "red1" }, strike: { angle: 2 } });
  assert.deepEqual(boardItems({}, words), []);
});

test("a refused question reads the page's own words for its code, else the server's, else a fallback", () => {
  assert.equal(refusalWords("cue_ball_in_hand", "place your white", words), WORDS.cue_ball_in_hand);
  assert.equal(refusalWords("bad_position", "the link does not hold a practice position", words), "the link does not hold a practice position");
  assert.equal(refusalWords("bad_position", "", words), WORDS.refused);
});

test("the engine's queue is said in the server's words, which carry how many are ahead", () => {
  const busy = "Moottori on varattu: 3 kysymystä on sinun edelläsi. Kysy hetken päästä uudelleen.";
  assert.equal(refusalWords("engine_busy", busy, words), busy);
  assert.equal(refusalWords("question_pending", "one at a time", words), "one at a time");
});
