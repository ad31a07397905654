// The pure readers of the server's constraints (static/game/js/legality.js). The fixture is the engine's
// own Match.constraints output at the opening (tests/js/fixtures/make_constraints.py).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  ballRefusal,
  callVerdict,
  clampPlacement,
  clampSpeed,
  clampSpin,
  clampStrike,
  constraintsOf,
  hatchedWhy,
  legalPockets,
  limitsOf,
  placementCheck,
  pocketLegality,
} from "../../static/game/js/legality.js";

const fixtures = JSON.parse(readFileSync(new URL("./fixtures/constraints.json", import.meta.url)));
const brk = fixtures.break_placed.constraints;
const opening = fixtures.opening_placement.constraints;
const hand = fixtures.break_in_hand.constraints;
const K34 = /opening shot must call the kaisa or the red on the rear spot.*K-3\.4/;
const plain = (ball, pocket, extra = {}) => ({ ball, pocket, object_cushions: 0, cue_cushions: 0, via: null, ...extra });
const close = (a, b, eps = 1e-9) => assert.ok(Math.abs(a - b) <= eps, `${a} != ${b}`);

test("K-3.4 opening: the front red into a foot pocket is refused with the server's words", () => {
  const v = callVerdict(brk, plain("red1", "foot_left"));
  assert.equal(v.ok, false);
  assert.match(v.why, K34);
  assert.match(ballRefusal(brk, "red1"), K34);
  assert.equal(ballRefusal(brk, "red2"), null);
});

test("the hatched balls say why, once per reason, for the balls on the table only", () => {
  const words = hatchedWhy(brk, fixtures.break_placed.balls);
  assert.match(words, /^Hatched balls may not be called: the opening shot must call/);
  assert.equal(words.match(/K-3\.4/g).length, 1, "the front red and the other white share one reason");
  assert.equal(hatchedWhy(brk, { ...fixtures.break_placed.balls, red1: null, white2: null }), "");
  assert.equal(hatchedWhy(null, fixtures.break_placed.balls), "");
});

test("K-3.4 opening: the kaisa and the rear red only into the foot corners", () => {
  assert.deepEqual(callVerdict(brk, plain("kaisa", "foot_left")), { ok: true, why: null });
  assert.deepEqual(callVerdict(brk, plain("red2", "foot_right")), { ok: true, why: null });
  const middle = callVerdict(brk, plain("kaisa", "middle_left"));
  assert.equal(middle.ok, false);
  assert.match(middle.why, K34);
  assert.deepEqual(legalPockets(brk, "kaisa"), ["foot_left", "foot_right"]);
  assert.deepEqual(legalPockets(brk, "red1"), []);
  assert.deepEqual(pocketLegality(brk, "kaisa", "home_left").possible, false);
  assert.deepEqual(pocketLegality(brk, "kaisa", "foot_left"), { possible: true, plain: true, why: null });
  // While the ball is still in hand the calls are those of the shot from hand.
  assert.deepEqual(legalPockets(hand, "red2"), ["foot_left", "foot_right"]);
});

test("a call is legal when its options cover a way; otherwise the why says what to add (K-7.2)", () => {
  const c = {
    actions: ["shoot", "resign"],
    not_callable: {},
    calls: {
      red1: {
        via: ["kaisa"],
        pockets: {
          foot_left: { ways: [["cue_cushions"], ["via:kaisa"]], why: "from hand a ball in the home needs a cushion first (K-7.2)" },
          home_left: { ways: [], why: "never here" },
        },
      },
    },
  };
  const v = callVerdict(c, plain("red1", "foot_left"));
  assert.equal(v.ok, false);
  assert.match(v.why, /K-7\.2.*allowed with a cue-ball cushion, or a kiss off kaisa called/);
  assert.equal(callVerdict(c, plain("red1", "foot_left", { cue_cushions: 2 })).ok, true);
  assert.equal(callVerdict(c, plain("red1", "foot_left", { via: "kaisa" })).ok, true);
  assert.equal(callVerdict(c, plain("red1", "foot_left", { object_cushions: 1 })).ok, false);
  assert.equal(callVerdict(c, plain("red1", "home_left", { cue_cushions: 1, via: "kaisa" })).why, "never here");
  assert.equal(callVerdict(c, plain("red1", "foot_left", { via: "red2" })).ok, false, "a via the server does not list");
  assert.deepEqual(pocketLegality(c, "red1", "foot_left"), { possible: true, plain: false, why: c.calls.red1.pockets.foot_left.why });
  assert.equal(callVerdict(null, plain("red1", "foot_left")).ok, false, "no constraints: nothing is sent");
  assert.equal(callVerdict(c, { ball: "red1", pocket: null }).ok, false);
});

test("ball in hand: the region is the home (x <= x_max), on the cloth, clear of the avoided balls", () => {
  const p = hand.placement;
  assert.equal(p.region.kind, "home");
  const R = p.ball_radius;
  assert.deepEqual(placementCheck(p, [0.4, 0.3]), { ok: true, reason: null });
  assert.equal(placementCheck(p, [p.region.x_max, 0.3]).ok, true, "on the home line is home");
  assert.equal(placementCheck(p, [p.region.x_max + 1e-4, 0.3]).reason, "outside_home");
  assert.equal(placementCheck(p, [0.3, R - 1e-4]).reason, "off_cloth");
  const [rx, ry] = p.avoid.red1;
  const gap = 2 * R + p.touch_tolerance;
  assert.equal(placementCheck(p, [rx - gap + 1e-7, ry]).reason, "touching");
  assert.equal(placementCheck(p, [rx - gap - 1e-7, ry]).ok, true, "the server's touch tolerance, not the client's");
  assert.deepEqual(clampPlacement(p, [-1, 9]), [p.region.cloth[0], p.region.cloth[3]]);
  assert.equal(placementCheck(null, [0.4, 0.3]).ok, false);
});

test("opening placement (K-3.3): past the centre line, outside the server's corridors", () => {
  const p = opening.placement;
  assert.equal(p.region.kind, "opening");
  assert.equal(placementCheck(p, [p.region.x_min - 0.05, 0.2]).reason, "not_past_centre");
  assert.equal(placementCheck(p, [p.region.x_min, 0.2]).reason, "not_past_centre", "the centre line itself is not past it");
  const c = p.region.corridors[0];
  const onLine = [c.from[0] + (c.to[0] - c.from[0]) * 0.7, c.from[1] + (c.to[1] - c.from[1]) * 0.7];
  assert.equal(placementCheck(p, onLine).reason, "corridor");
  assert.equal(placementCheck(p, [2.6, 0.71]).ok, true);
  const [kx, ky] = p.avoid.red2;
  assert.equal(placementCheck(p, [kx, ky + p.ball_radius]).reason, "touching");
});

test("the strike is clamped to the server's limits, not the client's", () => {
  const limits = brk.strike_limits;
  assert.equal(limitsOf({ constraints: { alice: brk } }), limits);
  assert.equal(limitsOf({ constraints: null }), null);
  assert.equal(constraintsOf({ constraints: { alice: brk } }, "alice"), brk);
  assert.equal(clampSpeed(50, limits), limits.max_speed);
  assert.equal(clampSpeed(0.01, limits, 0.2), 0.2);
  const [s, h] = clampSpin(1, 1, limits);
  close(Math.hypot(s, h), limits.max_tip_offset);
  close(s, h);
  assert.deepEqual(clampSpin(0.3, 0.2, limits), [0.3, 0.2]);
  const tight = { min_speed_exclusive: 0, max_speed: 4, max_tip_offset: 0.3, max_angle: 1 };
  const k = clampStrike({ angle: -3, speed: 7, side: 0.5, height: 0 }, tight);
  assert.deepEqual(k, { angle: -1, speed: 4, side: 0.3, height: 0 });
});

test("the aim guide and the automatic call suggest only the pockets the server allows", async () => {
  const { suggestedPocket } = await import("../../static/game/js/render/renderer.js");
  const table = JSON.parse(readFileSync(new URL("./fixtures/table.json", import.meta.url)));
  const balls = fixtures.break_placed.balls;
  const toward = (ball, pocket) => {
    const [mx, my] = table.pockets[pocket].mouth_center;
    const [x, y] = balls[ball];
    const n = Math.hypot(mx - x, my - y);
    return { hit: { ball, objectDir: [(mx - x) / n, (my - y) / n] } };
  };
  // The front red heads for foot left: a pot on the table, but K-3.4 forbids the call, so none is offered.
  assert.equal(suggestedPocket(table, brk, balls, "white1", toward("red1", "foot_left"), {}), null);
  assert.equal(suggestedPocket(table, brk, balls, "white1", toward("kaisa", "foot_left"), {}).pocket, "foot_left");
  assert.equal(suggestedPocket(table, brk, balls, "white1", toward("kaisa", "middle_left"), {}), null);
  assert.equal(suggestedPocket(table, null, balls, "white1", toward("kaisa", "foot_left"), {}), null, "no constraints, no suggestion");
});

test("the table is drawn from the server's normals, axes and facings", async () => {
  const { cushionPolygon, pocketHole } = await import("../../static/game/js/render/table.js");
  const table = JSON.parse(readFileSync(new URL("./fixtures/table.json", import.meta.url)));
  const head = table.cushions.find((c) => c.id === "head");
  const poly = cushionPolygon(table, head);
  assert.deepEqual(poly.normal, head.normal);
  // Both ends start on the server's facings (a jaw tip), not on a point worked out here.
  const facingStarts = table.facings.map((f) => JSON.stringify(f.a));
  for (const end of poly.ends) assert.ok(facingStarts.includes(JSON.stringify(end.face)), JSON.stringify(end.face));
  const hole = pocketHole(table, table.pockets.middle_right);
  assert.deepEqual(hole.axis, table.pockets.middle_right.axis);
  close(hole.centre[0], table.pockets.middle_right.mouth_center[0]);
});
