"""``Match.constraints`` (ARCHITECTURE 3) tells the truth: whatever it allows the match accepts, whatever
it forbids the match refuses (K-4.3, K-3.3, K-3.4, K-6.4, K-7.1, K-7.2, K-11.2), for random positions in
every phase. The placement predicate below is written from the constraint data alone, as a client would."""

from __future__ import annotations

import itertools
import math
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.engine.rules import Match, RuleError, table_for
from game.engine.table import point_segment_distance

T = table_for(0.068)
R = T.ball_radius
BALLS = ("white1", "white2", "red1", "red2", "kaisa")
POCKETS = ("home_right", "home_left", "middle_right", "middle_left", "foot_right", "foot_left")
PHASES = (
    "lag",
    "choose_break",
    "opening_placement",
    "opening",
    "play",
    "hand",
    "hand_placed",
    "middle_kaisa",
    "extra_visits",
    "shootout_lag",
    "shootout_choose",
    "shootout",
    "shootout_placed",
    "finished",
)
SPOTS = {"front": [0.71, 0.71], "rear": [2.13, 0.71], "center": [1.42, 0.71]}


def _free(point: list[float], taken: list[list[float]]) -> bool:
    return all(math.hypot(point[0] - q[0], point[1] - q[1]) > 2 * R + 1e-4 for q in taken)


@st.composite
def positions(draw: st.DrawFn) -> tuple[Match, str]:
    """A hand-written position in one of the phases, and one of the two players."""
    kind = draw(st.sampled_from(PHASES))
    balls: dict[str, list[float] | None] = {}
    taken: list[list[float]] = []
    names = ("kaisa", "white1", "white2") if kind.startswith("shootout") else BALLS
    for ball in BALLS:
        balls[ball] = None
        if ball not in names or draw(st.integers(0, 9)) == 0:
            continue
        if ball in ("red2", "red1") and draw(st.booleans()):
            point = list(SPOTS["rear" if ball == "red2" else "front"])
        else:
            x = draw(st.floats(R, T.length - R)) if draw(st.integers(0, 2)) else draw(st.floats(R, 0.8))
            point = [round(x, 4), round(draw(st.floats(R, T.width - R)), 4)]
        if _free(point, taken):
            balls[ball] = point
            taken.append(point)
    turn = draw(st.integers(0, 1))
    players = [
        {"name": "alice", "cue_ball": "white1", "score": draw(st.integers(0, 59))},
        {"name": "bob", "cue_ball": "white2", "score": draw(st.integers(0, 59))},
    ]
    data: dict[str, Any] = {"players": players, "turn": turn, "balls": balls}
    phase = kind
    if kind in ("lag", "choose_break"):
        for p in players:
            p["cue_ball"] = None
        balls["white1"] = balls["white2"] = None
    elif kind == "opening_placement":
        balls["white1"] = balls["white2"] = None
        data["turn"] = 1
    elif kind == "opening":
        phase = "play"
        data["turn"] = 0
        data["visit"] = {"opening": True, "from_hand": balls["white1"] is not None}
    elif kind in ("hand", "shootout"):
        phase = "play" if kind == "hand" else "shootout"
        balls[("white1", "white2")[turn]] = None
    elif kind in ("hand_placed", "shootout_placed"):
        phase = "play" if kind == "hand_placed" else "shootout"
        data["visit"] = {"from_hand": True}
    elif kind == "middle_kaisa":
        phase = "play"
        data["visit"] = {"middle_kaisa": True, "shots": 1}
    elif kind.startswith("shootout_"):
        phase = "shootout"
        stage = kind.split("_")[1]
        data["shootout"] = {"stage": stage}
        if stage == "lag":
            for p in players:
                p["cue_ball"] = None
        balls["white1"] = balls["white2"] = None
    elif kind == "finished":
        data["winner"] = "alice"
    if phase == "shootout" and "shootout" not in data:
        data["shootout"] = {"stage": "shoot"}
    data["phase"] = phase
    return Match.from_snapshot(data), draw(st.sampled_from(("alice", "bob")))


def _call_allowed(constraints: dict[str, Any], call: dict[str, Any]) -> bool:
    """The constraint data's verdict on a call (the rule of ``ways`` in constraints.py)."""
    entry = constraints["calls"].get(call["ball"])
    if entry is None:
        return False
    if call["via"] is not None and call["via"] not in entry["via"]:
        return False
    atoms = set()
    if call["object_cushions"]:
        atoms.add("object_cushions")
    if call["cue_cushions"]:
        atoms.add("cue_cushions")
    if call["via"] is not None:
        atoms.add(f"via:{call['via']}")
    return any(set(way) <= atoms for way in entry["pockets"][call["pocket"]]["ways"])


def _placement_allowed(placement: dict[str, Any], point: tuple[float, float]) -> bool:
    """A client's check of a placement, from the constraint data only (positions to the micrometre)."""
    x, y = round(point[0], 6), round(point[1], 6)
    region = placement["region"]
    x0, x1, y0, y1 = region["cloth"]
    if not (x0 <= x <= x1 and y0 <= y <= y1):
        return False
    if region["kind"] == "home" and not x <= region["x_max"]:
        return False
    if region["kind"] == "opening":
        if not x > region["x_min"]:
            return False
        for corridor in region["corridors"]:
            if point_segment_distance((x, y), tuple(corridor["from"]), tuple(corridor["to"])) < region["half_width"]:
                return False
    limit = 2 * placement["ball_radius"] + placement["touch_tolerance"]
    return all(math.hypot(x - p[0], y - p[1]) >= limit for p in placement["avoid"].values())


def _accepted(fn: Any) -> bool:
    try:
        fn()
    except RuleError:
        return False
    return True


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    case=positions(),
    points=st.lists(st.tuples(st.floats(-0.05, 2.9), st.floats(-0.05, 1.5)), min_size=12, max_size=12),
)
def test_constraints_match_the_refusals(case: tuple[Match, str], points: list[tuple[float, float]]) -> None:
    match, player = case
    c = match.constraints(player)
    assert set(c) == {"actions", "calls", "not_callable", "why_words", "placement", "strike_limits", "lag"}
    assert c["strike_limits"]["max_speed"] == 9.0
    before = match.snapshot()

    # Placement: every point the data allows is accepted, every other refused.
    cue = match.cue_ball_of(player)
    placement = c["placement"]
    assert (placement is not None) == ("place" in c["actions"])
    placed: Match | None = None
    for point in points:
        trial = Match.from_snapshot(before)
        ok = _accepted(lambda t=trial, p=point: t.place(player, cue or "white1", p))
        expected = placement is not None and _placement_allowed(placement, point)
        assert ok == expected, (point, placement)
        if ok and placed is None:
            placed = trial
    if placement is not None:
        # The region's own corners: a legal point somewhere in it is found by a scan when random ones miss.
        for x, y in itertools.product([i * 0.02 for i in range(1, 142)], [0.04, 0.3, 0.7, 1.1, 1.38]):
            if placed is not None:
                break
            if _placement_allowed(placement, (x, y)):
                placed = Match.from_snapshot(before)
                placed.place(player, cue or "white1", (x, y))

    # Calls: exactly the ones the data allows pass the match's check (after placing a ball in hand).
    shooter = match if "shoot" in c["actions"] else placed if "place" in c["actions"] else None
    if shooter is None or match.phase not in ("play", "extra_visits", "shootout"):
        assert c["calls"] == {} and c["not_callable"] == {}
        shooter = match
    for ball, pocket in itertools.product(BALLS, POCKETS):
        for bank, cushions, via in itertools.product((0, 2), (0, 1), (None, *BALLS)):
            if via == ball:
                continue
            call = {"ball": ball, "pocket": pocket, "object_cushions": bank, "cue_cushions": cushions, "via": via}
            ok = _accepted(lambda s=shooter, k=call: s.check_call(player, k))
            assert ok == _call_allowed(c, call), (call, c["calls"].get(ball))
    for ball, why in c["not_callable"].items():
        assert why and ball not in c["calls"]

    # Actions: the choice is accepted exactly when offered; nothing above changed the match.
    chose = _accepted(lambda: Match.from_snapshot(before).choose_break(player, True))
    assert chose == ("choose_break" in c["actions"])
    assert match.snapshot() == before


def test_constraints_of_the_opening_shot_explain_the_foot_pocket_rule() -> None:
    """K-3.4 before the shot: the front red is not callable, the rear red and the kaisa only into the
    foot corner pockets, and the reason is in words."""
    m = Match.from_snapshot(
        {
            "phase": "play",
            "turn": 0,
            "visit": {"opening": True},
            "players": [{"name": "alice", "cue_ball": "white1"}, {"name": "bob", "cue_ball": "white2"}],
            "balls": {"white2": [2.0, 0.3], "red1": SPOTS["front"], "red2": SPOTS["rear"], "kaisa": SPOTS["center"]},
        }
    )
    c = m.constraints("alice")
    assert c["actions"] == ["place", "resign"]
    assert c["placement"]["region"]["kind"] == "home" and c["placement"]["ball"] == "white1"
    assert "red1" in c["not_callable"] and "K-3.4" in c["not_callable"]["red1"]
    # Each refusal shown, in the other languages too: the client reads its own.
    said = c["why_words"][c["not_callable"]["red1"]]
    assert set(said) == {"fi", "ru"} and "K-3.4" in said["fi"] and "K-3.4" in said["ru"]
    assert said["ru"].startswith("начальным ударом заказывается кайза")
    shown = set(c["not_callable"].values()) | {
        p["why"] for entry in c["calls"].values() for p in entry["pockets"].values() if p["why"]
    }
    assert set(c["why_words"]) == shown
    for ball in ("kaisa", "red2"):
        pockets = c["calls"][ball]["pockets"]
        assert [p for p in POCKETS if pockets[p]["ways"]] == ["foot_right", "foot_left"]
        assert "far end" in pockets["middle_left"]["why"]
    assert m.constraints("bob")["calls"] == {} and m.constraints("bob")["actions"] == ["resign"]
