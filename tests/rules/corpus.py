"""The recorded corpus of whole matches: how it was made and how it is replayed.

A rewrite made the match a typed state with one module per phase. To prove the rewrite changed no
verdict and no position, a corpus of matches was recorded with the engine *before* the rewrite
(``python -m tests.rules.corpus record OUT.json``; the data is ``tests/rules/data/corpus.json``, which
is the baseline and must not be re-recorded with a later engine) and
``test_corpus.py`` replays every input through today's engine and compares:

- each accepted input's verdict, every field except the words (``reason``, and the structured
  ``code``/``params`` added later), or the refusal's error code;
- the snapshot after each input (hashed without ``last_verdict``, whose words changed), with the balls,
  scores, phase and turn kept in the clear so a difference is readable;
- the final snapshot in full (again without ``last_verdict``).

The matches: seeded games of the load client's quick player (whole matches, clocked ones through the
extra visits and the shoot-out), games between bot levels, and single shots from random hand-written
positions in every phase (random calls, legal or not; shots aimed at a pocket with noise; random
placements; touch fouls, resignations, forfeits, ticks). The recording itself is not deterministic (the
bots search against the clock); the replay is, since it plays the recorded inputs.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import sys
from pathlib import Path
from typing import Any

from game.engine.rules import Match, RuleError

DATA = Path(__file__).parent / "data" / "corpus.json"
#: Verdict fields made of words (or, after the rewrite, the structure the words are made from).
WORD_FIELDS = ("reason", "code", "params")


def comparable_verdict(verdict: dict[str, Any] | None) -> dict[str, Any] | None:
    """The verdict without its words (the rewrite changed the words on purpose)."""
    if verdict is None:
        return None
    out = {k: v for k, v in verdict.items() if k not in WORD_FIELDS}
    if isinstance(out.get("lag"), dict):
        out["lag"] = {k: v for k, v in out["lag"].items() if k != "reason"}
    return out


def comparable_snapshot(snapshot: dict[str, Any]) -> dict[str, Any]:
    """The snapshot without ``last_verdict`` (words) and the lag results' words."""
    out = {k: v for k, v in snapshot.items() if k != "last_verdict"}
    lag = out.get("lag")
    if isinstance(lag, dict) and isinstance(lag.get("results"), list):
        out["lag"] = {
            **lag,
            "results": [
                {k: v for k, v in r.items() if k != "reason"} if isinstance(r, dict) else r for r in lag["results"]
            ],
        }
    return out


def snapshot_hash(snapshot: dict[str, Any]) -> str:
    canonical = json.dumps(comparable_snapshot(snapshot), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()[:20]


def apply_input(match: Match, step: dict[str, Any]) -> Any:
    """Play one recorded input on ``match`` (raises RuleError when refused)."""
    kind = step["kind"]
    player = step.get("player")
    timing = {"now": step["now"]} if step.get("now") is not None else {}
    if kind == "lag":
        return match.lag(player, step["strike"], **timing)  # type: ignore[arg-type]
    if kind == "choose_break":
        return match.choose_break(player, step["take"], **timing)  # type: ignore[arg-type]
    if kind == "place":
        return match.place(player, step["ball"], tuple(step["position"]), **timing)  # type: ignore[arg-type]
    if kind == "shoot":
        return match.shoot(player, step["call"], step["strike"], **timing)  # type: ignore[arg-type]
    if kind == "touch_foul":
        return match.touch_foul(player, **timing)  # type: ignore[arg-type]
    if kind == "resign":
        return match.resign(player, **timing)  # type: ignore[arg-type]
    if kind == "forfeit":
        return match.forfeit(player, step["reason"], **timing)  # type: ignore[arg-type]
    if kind == "tick":
        return match.tick(step["now"])
    if kind == "set_connected":
        return match.set_connected(player, step["connected"])  # type: ignore[arg-type]
    raise ValueError(f"unknown input kind {kind!r}")


def observe(match: Match) -> dict[str, Any]:
    snap = match.snapshot()
    return {
        "hash": snapshot_hash(snap),
        "phase": snap["phase"],
        "turn": snap["turn"],
        "scores": [p["score"] for p in snap["players"]],
        "balls": snap["balls"],
    }


class Recorder:
    """Plays inputs on a match and writes down what happened."""

    def __init__(self, name: str, start: dict[str, Any]) -> None:
        self.name = name
        self.start = start
        if "new" in start:
            self.match = Match.new(**{k: (tuple(v) if k == "players" else v) for k, v in start["new"].items()})
        else:
            self.match = Match.from_snapshot(start["snapshot"])
        self.steps: list[dict[str, Any]] = []

    def do(self, step: dict[str, Any]) -> bool:
        record = dict(step)
        try:
            out = apply_input(self.match, step)
        except RuleError as exc:
            record["error"] = exc.code
            record["message"] = exc.message
            self.steps.append(record)
            return False
        record["verdict"] = getattr(out, "verdict", None)
        record["after"] = observe(self.match)
        self.steps.append(record)
        return True

    def result(self) -> dict[str, Any]:
        return {"name": self.name, "start": self.start, "steps": self.steps, "final": self.match.snapshot()}


# ------------------------------------------------------------------------------------- recording
def _move_step(move: dict[str, Any], now: float | None) -> dict[str, Any]:
    action = move["action"]
    step: dict[str, Any] = {"kind": action, "player": move["player"], "now": now}
    if action == "lag":
        step["strike"] = move["strike"]
    elif action == "choose_break":
        step["take"] = move["take"]
    elif action == "place":
        step["ball"] = move["ball"]
        step["position"] = [move["x"], move["y"]]
    else:
        step["call"] = move["call"]
        step["strike"] = move["strike"]
    return step


def record_quick_games(out: list[dict[str, Any]]) -> None:
    from game.engine.bot import pending_for, quick_move

    for seed in range(8):
        clocked = seed >= 4
        new: dict[str, Any] = {"players": ["alice", "bob"], "ruleset": {"target_score": 40 if seed % 2 else 60}}
        if clocked:
            new.update(time_limit=200.0, time_warning=150.0, now=0.0)
        rec = Recorder(f"quick-{seed}", {"new": new})
        now = 0.0
        for step in range(260):
            snapshot = rec.match.snapshot()
            due = pending_for(snapshot)
            if due is None:
                break
            move = quick_move(snapshot, player=due[0], seed=seed * 1000 + step)
            now += 3.0
            rec.do(_move_step(move, now if clocked else None))
            if step == 40 and seed == 2:
                rec.do({"kind": "touch_foul", "player": rec.match.current_player})
            if step == 60 and seed == 3:
                rec.do({"kind": "set_connected", "player": "bob", "connected": False})
        out.append(rec.result())


def record_bot_games(out: list[dict[str, Any]]) -> None:
    from game.engine.bot import choose_move, pending_for

    for game, (a, b) in enumerate(((5, 2), (3, 4), (1, 5))):
        rec = Recorder(f"bots-{a}-{b}", {"new": {"players": ["north", "south"], "ruleset": {"target_score": 25}}})
        levels = {"north": a, "south": b}
        for step in range(200):
            snapshot = rec.match.snapshot()
            due = pending_for(snapshot)
            if due is None:
                break
            move = choose_move(snapshot, levels[due[0]], player=due[0], seed=game * 1000 + step, budget=0.08)
            rec.do(_move_step(move, None))
        out.append(rec.result())


OBJECTS = ("white1", "white2", "red1", "red2", "kaisa")
POCKETS = ("home_right", "home_left", "middle_right", "middle_left", "foot_right", "foot_left")


def _random_point(rng: random.Random, x0: float = 0.04, x1: float = 2.80) -> list[float]:
    return [round(rng.uniform(x0, x1), 4), round(rng.uniform(0.04, 1.38), 4)]


def _layout(rng: random.Random, names: tuple[str, ...], frozen: bool) -> dict[str, list[float] | None]:
    r = 0.034
    balls: dict[str, list[float] | None] = {}
    for name in names:
        for _ in range(100):
            p = _random_point(rng)
            if frozen and rng.random() < 0.35:
                side = rng.randrange(4)
                if side == 0:
                    p[1] = r
                elif side == 1:
                    p[1] = 1.42 - r
                elif side == 2:
                    p[0] = r
                else:
                    p[0] = 2.84 - r
            if all(q is None or math.hypot(p[0] - q[0], p[1] - q[1]) > 2 * r + 1e-3 for q in balls.values()):
                balls[name] = p
                break
        else:
            balls[name] = None
    return balls


def _aimed_strike(rng: random.Random, cue: list[float], obj: list[float], pocket: str) -> dict[str, float]:
    from game.engine.rules import table_for

    table = table_for(0.068)
    (ax, ay), (bx, by) = table.pockets[pocket].mouth
    px, py = (ax + bx) / 2, (ay + by) / 2
    dx, dy = px - obj[0], py - obj[1]
    n = math.hypot(dx, dy) or 1.0
    gx, gy = obj[0] - 2 * table.ball_radius * dx / n, obj[1] - 2 * table.ball_radius * dy / n
    angle = math.atan2(gy - cue[1], gx - cue[0]) + rng.gauss(0.0, 0.01)
    return {
        "angle": round(angle, 6),
        "speed": round(rng.uniform(0.8, 5.0), 3),
        "side": round(rng.uniform(-0.3, 0.3), 3),
        "height": round(rng.uniform(-0.3, 0.3), 3),
    }


def record_positions(out: list[dict[str, Any]]) -> None:
    """Single visits from random hand-written positions in every phase."""
    rng = random.Random(15)
    kinds = ("play", "play_hand", "opening", "extra_visits", "shootout", "middle_kaisa", "opening_placement")
    for i in range(240):
        kind = kinds[i % len(kinds)]
        turn = rng.randrange(2)
        players = [
            {"name": "alice", "cue_ball": "white1", "score": rng.randrange(0, 62)},
            {"name": "bob", "cue_ball": "white2", "score": rng.randrange(0, 62)},
        ]
        data: dict[str, Any] = {"players": players, "turn": turn}
        names: tuple[str, ...] = OBJECTS
        if kind == "shootout":
            names = ("kaisa", "white1", "white2")
            data["shootout"] = {"stage": "shoot", "visits": [rng.randrange(10), rng.randrange(10)]}
        balls = _layout(rng, names, frozen=i % 3 == 0)
        for b in OBJECTS:
            balls.setdefault(b, None)
        cue = players[turn]["cue_ball"]
        if kind in ("play_hand", "shootout"):
            balls[cue] = None
        if kind == "opening":
            balls.update(red1=[0.71, 0.71], red2=[2.13, 0.71], kaisa=[1.42, 0.71])
            data["visit"] = {"opening": True}
            balls["white1"] = None
            data["turn"] = turn = 0
            cue = "white1"
        if kind == "opening_placement":
            balls.update(red1=[0.71, 0.71], red2=[2.13, 0.71], kaisa=[1.42, 0.71], white1=None, white2=None)
            data["turn"] = turn = 1
        if kind == "middle_kaisa":
            data["visit"] = {"middle_kaisa": True, "shots": 1}
        if kind == "extra_visits":
            data["clock"] = {"limit": 10.0, "warning": 8.0, "started": 0.0, "last": 11.0, "expired": True}
        data["phase"] = {"play_hand": "play", "opening": "play", "middle_kaisa": "play"}.get(kind, kind)
        data["balls"] = balls
        rec = Recorder(f"position-{i}-{kind}", {"snapshot": data})
        player = players[turn]["name"]
        shots = 1 + rng.randrange(3)
        for _ in range(shots):
            if rec.match.phase == "finished" or not rec.match.pending():
                break
            player, action = rec.match.pending()[0]
            cue = rec.match.cue_ball_of(player) or ""
            if action == "place":
                for _try in range(2):
                    if kind == "opening_placement":
                        point = _random_point(rng, 1.43, 2.80)
                    else:
                        point = _random_point(rng, 0.04, 0.72)
                    rec.do({"kind": "place", "player": player, "ball": cue, "position": point})
                if rec.match.pending() and rec.match.pending()[0][1] == "place":
                    continue
                player, action = rec.match.pending()[0]
            if action != "shoot":
                break
            snap = rec.match.snapshot()
            on_table = [b for b in OBJECTS if snap["balls"][b] is not None and b != cue]
            if not on_table:
                break
            ball = rng.choice(on_table)
            pocket = rng.choice(POCKETS)
            call: dict[str, Any] = {"ball": ball, "pocket": pocket}
            roll = rng.random()
            if roll < 0.15:
                call["object_cushions"] = 1
            elif roll < 0.25:
                call["cue_cushions"] = 1
            elif roll < 0.35:
                call["via"] = rng.choice([b for b in OBJECTS if b != ball])
            # A refused call first sometimes, then the legal call the match allows for that ball.
            if rng.random() < 0.5:
                rec.do({"kind": "shoot", "player": player, "call": call, "strike": {"angle": 0.0, "speed": 2.0}})
                if not rec.match.pending() or rec.match.pending()[0] != (player, "shoot"):
                    continue
            legal = rec.match.legal_pockets(ball) or rec.match.legal_pockets(ball, object_cushions=1)
            if legal and rng.random() < 0.8:
                call = {"ball": ball, "pocket": rng.choice(legal)}
                if not rec.match.legal_pockets(ball):
                    call["object_cushions"] = 1
                pocket = call["pocket"]
            obj = snap["balls"][ball]
            strike = _aimed_strike(rng, snap["balls"][cue], obj, pocket)
            rec.do({"kind": "shoot", "player": player, "call": call, "strike": strike})
        if i % 17 == 0 and rec.match.phase != "finished":
            rec.do({"kind": "touch_foul", "player": rec.match.current_player})
        if i % 23 == 0 and rec.match.phase != "finished":
            rec.do({"kind": "resign", "player": "bob"})
        if i % 29 == 0 and rec.match.phase != "finished":
            rec.do({"kind": "forfeit", "player": "alice", "reason": "absent past the reconnect grace time"})
        out.append(rec.result())


def record_lags(out: list[dict[str, Any]]) -> None:
    rng = random.Random(3)
    for i in range(12):
        rec = Recorder(f"lag-{i}", {"new": {"players": ["alice", "bob"], "time_limit": 50.0, "now": 0.0}})
        now = 0.0
        for _ in range(8):
            if rec.match.phase != "lag":
                break
            for player in ("alice", "bob"):
                now += 7.0
                strike = {"angle": round(rng.gauss(0.0, 0.02), 5), "speed": round(rng.uniform(1.0, 3.5), 3)}
                rec.do({"kind": "lag", "player": player, "strike": strike, "now": now})
        if rec.match.phase == "choose_break":
            player = rec.match.pending()[0][0]
            rec.do({"kind": "choose_break", "player": "bob" if player == "alice" else "alice", "take": True})
            rec.do({"kind": "choose_break", "player": player, "take": bool(i % 2)})
            rec.do({"kind": "tick", "now": now + 60.0})
        out.append(rec.result())


def record_rail_shots(out: list[dict[str, Any]]) -> None:
    """A red frozen to a long rail, driven into it and out across the table (K-6.2's frozen ball),
    called direct and as a one-cushion bank: the shots that pot (or drop anywhere) and a few misses."""
    from game.engine.rules import table_for

    table = table_for(0.068)
    r = table.ball_radius
    rng = random.Random(62)
    for i in range(300):
        x = rng.uniform(0.9, 2.0)
        obj = [round(x, 4), round(r, 6)]
        pocket = rng.choice(["middle_left", "foot_left", "home_left"])
        (ax, ay), (bx, by) = table.pockets[pocket].mouth
        px, py = (ax + bx) / 2, -(ay + by) / 2  # the pocket mirrored in the rail
        dx, dy = px - obj[0], py - obj[1]
        n = math.hypot(dx, dy)
        gx, gy = obj[0] - 2 * r * dx / n, obj[1] - 2 * r * dy / n
        d = rng.uniform(0.2, 0.6)
        cue = [round(gx - d * dx / n, 4), round(gy - d * dy / n, 4)]
        if not (0.04 < cue[0] < 2.8 and 0.04 < cue[1] < 1.38):
            continue
        strike = {
            "angle": round(math.atan2(gy - cue[1], gx - cue[0]) + rng.gauss(0, 0.01), 6),
            "speed": round(rng.uniform(1.5, 4.0), 3),
        }
        balls = {"white1": cue, "white2": [0.3, 1.3], "red1": obj, "red2": [0.5, 0.9], "kaisa": [1.42, 0.9]}
        for cushions in (0, 1):
            data = {
                "phase": "play",
                "turn": 0,
                "players": [
                    {"name": "alice", "cue_ball": "white1", "score": 10},
                    {"name": "bob", "cue_ball": "white2", "score": 20},
                ],
                "balls": balls,
            }
            rec = Recorder(f"rail-{i}-{cushions}", {"snapshot": data})
            call = {"ball": "red1", "pocket": pocket, "object_cushions": cushions}
            rec.do({"kind": "shoot", "player": "alice", "call": call, "strike": strike})
            verdict = rec.steps[-1].get("verdict") or {}
            if verdict.get("pocketed") or verdict.get("scored") or i % 10 == 0:
                out.append(rec.result())


def record(path: Path) -> None:
    out: list[dict[str, Any]] = []
    record_rail_shots(out)
    record_lags(out)
    record_positions(out)
    record_quick_games(out)
    record_bot_games(out)
    if path.exists():
        raise SystemExit(f"{path} exists: the recorded baseline is never overwritten")
    path.write_text(json.dumps({"format": 1, "matches": out}, sort_keys=True, separators=(",", ":")) + "\n")
    steps = sum(len(m["steps"]) for m in out)
    print(f"{len(out)} matches, {steps} inputs -> {path}")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "record":
        record(Path(sys.argv[2]))
    else:
        raise SystemExit("usage: python -m tests.rules.corpus record OUT.json")
