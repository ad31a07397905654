"""The dict form of a :class:`~game.engine.rules.state.MatchState` (ARCHITECTURE section 4): made here,
read here, nowhere else.

``to_snapshot`` writes the JSON-ready dict stored on the Match row and sent to clients (format 1, the
same keys and values as before the typed state); ``from_snapshot`` reads a stored snapshot or a
hand-written position ("phase", "players", "turn" and "balls" suffice: every other field takes its
default) and refuses a malformed one with ``RuleError("bad_snapshot")``. ``upgrade_snapshot`` is the
hook for a later format change (stored snapshots are migrated through it); format 1 is current.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Mapping
from typing import Any

from game.engine.balls import BALL_IDS, CUE_BALL_IDS
from game.engine.rules.clock import Clock
from game.engine.rules.errors import RuleError
from game.engine.rules.lag import LagResult
from game.engine.rules.ruleset import Ruleset
from game.engine.rules.state import (
    LagState,
    MatchState,
    Phase,
    PlayerState,
    Shootout,
    ShootoutStage,
    Vec2,
    Visit,
)

SNAPSHOT_FORMAT = 1


def _bad(message: str) -> RuleError:
    return RuleError("bad_snapshot", message)


# --------------------------------------------------------------------------------------- writing
def _point(p: Vec2 | None) -> list[float] | None:
    return None if p is None else [p[0], p[1]]


def _lag_result(r: LagResult | None) -> dict[str, Any] | None:
    return None if r is None else r.as_dict()


def to_snapshot(state: MatchState) -> dict[str, Any]:
    """The JSON-ready dict of ``state`` (key order fixed: the same state gives the same bytes)."""
    lag: dict[str, Any] = {"round": state.lag.round, "results": [_lag_result(r) for r in state.lag.results]}
    if state.lag.winner is not None:
        lag["winner"] = state.lag.winner
    so = state.shootout
    return {
        "format": SNAPSHOT_FORMAT,
        "phase": str(state.phase),
        "players": [
            {
                "name": p.name,
                "cue_ball": p.cue_ball,
                "score": p.score,
                "connected": p.connected,
                "points_this_visit": p.points_this_visit,
                "best_break": p.best_break,
            }
            for p in state.players
        ],
        "turn": state.turn,
        "in_hand": list(state.in_hand),
        "balls": {b: _point(state.balls.get(b)) for b in BALL_IDS},
        "visit": {
            "shots": state.visit.shots,
            "middle_kaisa": state.visit.middle_kaisa,
            "points": state.visit.points,
            "from_hand": state.visit.from_hand,
            "opening": state.visit.opening,
        },
        "clock": state.clock.as_dict(),
        "winner": state.winner,
        "finish_reason": state.finish_reason,
        "ruleset": state.ruleset.as_dict(),
        "lag": lag,
        "breaker": state.breaker,
        "kaisa_spotted_at": _point(state.kaisa_spotted_at),
        "extra_visits": list(state.extra_visits),
        "shootout": None
        if so is None
        else {
            "stage": str(so.stage),
            "visits": [so.visits[0], so.visits[1]],
            "sudden_death": so.sudden_death,
            "answer_by": so.answer_by,
            "potted": so.potted,
        },
        "last_verdict": _tree_copy(state.last_verdict) if state.last_verdict is not None else None,
        "moves": state.moves,
        # Online shot-clock counts: written only while one runs, so snapshots stored before the server
        # clocks read back unchanged (no migration) and most snapshots stay as they were.
        **({"timeouts": [state.timeouts[0], state.timeouts[1]]} if any(state.timeouts) else {}),
        # Team matches only: the members in rotation order and, per team, the index of the
        # member whose visit it is or comes next; a one-to-one snapshot stays exactly as before.
        **(
            {"teams": [list(state.teams[0]), list(state.teams[1])], "at_table": list(state.at_table)}
            if state.teams is not None
            else {}
        ),
    }


def upgrade_snapshot(old: Mapping[str, Any]) -> dict[str, Any]:
    """A stored snapshot in the current format. Format 1 (or no ``format``: hand-written) is current,
    so this is the identity today; a later format change adds its step here and a data migration."""
    data = dict(old)
    fmt = data.get("format", SNAPSHOT_FORMAT)
    if fmt != SNAPSHOT_FORMAT:
        raise _bad(f"unknown snapshot format {fmt!r}")
    return data


# --------------------------------------------------------------------------------------- reading
def _integer(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad(f"{what} must be an integer")
    return value


def _boolean(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise _bad(f"{what} must be a boolean")
    return value


def _number_or_none(value: object, what: str) -> Any:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise _bad(f"{what} must be a number")
    return value


def _position(value: object, what: str) -> Vec2 | None:
    if value is None:
        return None
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or any(isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v) for v in value)
    ):
        raise _bad(f"{what} needs [x, y]")
    return (float(value[0]) + 0.0, float(value[1]) + 0.0)


def _players(raw: object) -> tuple[PlayerState, PlayerState]:
    if not isinstance(raw, list | tuple) or len(raw) != 2:
        raise _bad("players must be a list of two")
    players = []
    for p in raw:
        if not isinstance(p, Mapping) or not isinstance(p.get("name"), str) or not p["name"]:
            raise _bad("each player needs a name")
        cue = p.get("cue_ball")
        if cue is not None and cue not in CUE_BALL_IDS:
            raise _bad(f"bad cue ball {cue!r}")
        players.append(
            PlayerState(
                name=p["name"],
                cue_ball=cue,
                score=_integer(p.get("score", 0), "player score"),
                connected=_boolean(p.get("connected", True), "connected"),
                points_this_visit=_integer(p.get("points_this_visit", 0), "player points_this_visit"),
                best_break=_integer(p.get("best_break", 0), "player best_break"),
            )
        )
    if players[0].name == players[1].name:
        raise RuleError("bad_players", "the two players need different names")
    return players[0], players[1]


def _balls(raw: object) -> dict[str, Vec2 | None]:
    if not isinstance(raw, Mapping):
        raise _bad("balls must be an object")
    for key in raw:
        if key not in BALL_IDS:
            raise _bad(f"unknown ball {key!r}")
    return {b: _position(raw.get(b), f"ball {b}") for b in BALL_IDS}


def _shootout(raw: object, phase: Phase, cues: list[str | None]) -> Shootout | None:
    if phase == Phase.SHOOTOUT and raw is None:
        raw = {"stage": "shoot" if None not in cues else "lag"}
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise _bad("shootout must be an object")
    stage = raw.get("stage", "shoot")
    if stage not in tuple(ShootoutStage):
        raise _bad("bad shoot-out stage")
    visits = raw.get("visits", [0, 0])
    if not isinstance(visits, list | tuple) or len(visits) != 2:
        raise _bad("shoot-out visits must be a pair")
    answer_by = raw.get("answer_by")
    if answer_by is not None and answer_by not in (0, 1):
        raise _bad("shoot-out answer_by must be 0, 1 or null")
    return Shootout(
        stage=ShootoutStage(stage),
        visits=(_integer(visits[0], "shoot-out visits"), _integer(visits[1], "shoot-out visits")),
        sudden_death=bool(raw.get("sudden_death", False)),
        answer_by=answer_by,
        potted=bool(raw.get("potted", False)),
    )


def _visit(raw: object) -> Visit:
    raw = raw or {}
    if not isinstance(raw, Mapping):
        raise _bad("visit must be an object")
    default = Visit()
    return Visit(
        shots=_integer(raw.get("shots", default.shots), "visit shots"),
        middle_kaisa=bool(raw.get("middle_kaisa", default.middle_kaisa)),
        points=_integer(raw.get("points", default.points), "visit points"),
        from_hand=bool(raw.get("from_hand", default.from_hand)),
        opening=bool(raw.get("opening", default.opening)),
    )


def _clock(raw: object) -> Clock:
    raw = raw or {}
    if not isinstance(raw, Mapping):
        raise _bad("clock must be an object")
    return Clock(
        limit=_number_or_none(raw.get("limit"), "clock limit"),
        warning=_number_or_none(raw.get("warning"), "clock warning"),
        started=_number_or_none(raw.get("started"), "clock started"),
        last=_number_or_none(raw.get("last"), "clock last"),
        warned=bool(raw.get("warned", False)),
        expired=bool(raw.get("expired", False)),
    )


def _lag(raw: object) -> LagState:
    raw = raw or {}
    if not isinstance(raw, Mapping):
        raise _bad("lag must be an object")
    results_raw = raw.get("results", [None, None])
    if not isinstance(results_raw, list | tuple) or len(results_raw) != 2:
        raise _bad("lag results must be a pair")
    results: list[LagResult | None] = []
    for r in results_raw:
        if r is None:
            results.append(None)
        elif isinstance(r, Mapping):
            distance = _number_or_none(r.get("distance"), "lag distance")
            results.append(LagResult(bool(r.get("lost")), distance, str(r.get("reason", ""))))
        else:
            raise _bad("a lag result is an object or null")
    winner = raw.get("winner")
    return LagState(
        round=_integer(raw.get("round", 1), "lag round"),
        results=(results[0], results[1]),
        winner=winner if isinstance(winner, str) else None,
    )


def _extra_visits(
    raw: object, phase: Phase, players: tuple[PlayerState, PlayerState], turn: int, rs: Ruleset
) -> tuple[str, ...]:
    if raw is None:
        if phase != Phase.EXTRA_VISITS:
            return ()
        first = players[turn].cue_ball
        second = "white2" if first == "white1" else "white1"
        extra = [str(first), second] * rs.extra_visits_each
        if first == "white2":
            extra = extra[: 2 * rs.extra_visits_each - 1]
        return tuple(extra)
    if not isinstance(raw, list | tuple) or any(b not in CUE_BALL_IDS for b in raw):
        raise _bad("extra_visits lists cue balls")
    return tuple(raw)


_SCALARS = (str, int, float, bool, type(None))
_SCALAR_TYPES = frozenset(_SCALARS)


def _tree_copy(value: Any) -> Any:
    """A deep copy of JSON-shaped data (mappings, lists, tuples, scalars), the last verdict's shape: the
    same result as `copy.deepcopy(dict(value))` in about a quarter of the time (it crosses every snapshot read
    and write, twice per input on the server). Anything else is left to `copy.deepcopy`.

    Plain dicts, lists and scalars, which is what JSON reads back as, are told by their exact type first:
    `isinstance(value, Mapping)` asks the ABC machinery, and a verdict has ~40 nodes."""
    kind = type(value)
    if kind is dict:
        return {key: _tree_copy(item) for key, item in value.items()}
    if kind is list:
        return [_tree_copy(item) for item in value]
    if kind in _SCALAR_TYPES:
        return value
    if isinstance(value, _SCALARS):
        return value
    if isinstance(value, Mapping):
        return {key: _tree_copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_tree_copy(item) for item in value]
    if isinstance(value, tuple):
        return tuple(_tree_copy(item) for item in value)
    return copy.deepcopy(value)


def from_snapshot(data: object) -> MatchState:
    """Read a snapshot or a hand-written position, filling every default (see the module docstring)."""
    if not isinstance(data, Mapping):
        raise _bad("a snapshot is an object")
    data = upgrade_snapshot(data)
    phase = _phase(data.get("phase"))
    rs = Ruleset.from_dict(data.get("ruleset"))
    players = _players(data.get("players"))
    cues = [players[0].cue_ball, players[1].cue_ball]
    playing = (Phase.OPENING_PLACEMENT, Phase.PLAY, Phase.EXTRA_VISITS)
    if phase in playing and sorted(c or "" for c in cues) != ["white1", "white2"]:
        raise _bad("in this phase the players hold white1 and white2")
    turn = data.get("turn", 0)
    if turn not in (0, 1) or isinstance(turn, bool):
        raise _bad("turn must be 0 or 1")
    balls = _balls(data.get("balls"))
    shootout = _shootout(data.get("shootout"), phase, cues)
    in_hand = _in_hand(data, phase, balls, shootout)
    breaker = data.get("breaker")
    if breaker is None:
        breaker = _white1_holder(players)
    winner = data.get("winner")
    finish_reason = data.get("finish_reason")
    last_verdict = data.get("last_verdict")
    if last_verdict is not None and not isinstance(last_verdict, Mapping):
        raise _bad("last_verdict must be an object")
    teams, at_table = read_teams(data.get("teams"), data.get("at_table"), players)
    return MatchState(
        phase=phase,
        players=players,
        turn=turn,
        balls=balls,
        ruleset=rs,
        in_hand=tuple(in_hand),
        visit=_visit(data.get("visit")),
        clock=_clock(data.get("clock")),
        winner=winner if isinstance(winner, str) else None,
        finish_reason=finish_reason if isinstance(finish_reason, str) else None,
        lag=_lag(data.get("lag")),
        breaker=breaker if isinstance(breaker, str) else None,
        kaisa_spotted_at=_position(data.get("kaisa_spotted_at"), "kaisa_spotted_at"),
        extra_visits=_extra_visits(data.get("extra_visits"), phase, players, turn, rs),
        shootout=shootout,
        last_verdict=_tree_copy(last_verdict) if last_verdict is not None else None,
        moves=_integer(data.get("moves", 0), "moves"),
        timeouts=_timeouts(data.get("timeouts")),
        teams=teams,
        at_table=at_table,
    )


def _phase(raw: Any) -> Phase:
    if raw not in tuple(Phase):
        raise _bad(f"unknown phase {raw!r}")
    return Phase(raw)


def _in_hand(
    data: Mapping[str, Any], phase: Phase, balls: Mapping[str, Vec2 | None], shootout: Shootout | None
) -> list[str]:
    """The cue balls in hand; by default those off the table, and none while the players lag (the lag,
    the choice of the break, a shoot-out before its shots)."""
    lagging = phase in (Phase.LAG, Phase.CHOOSE_BREAK) or (
        shootout is not None and phase == Phase.SHOOTOUT and shootout.stage != ShootoutStage.SHOOT
    )
    default_hand = [] if lagging else [b for b in CUE_BALL_IDS if balls[b] is None]
    in_hand: object = data.get("in_hand", default_hand)
    if not isinstance(in_hand, list) or any(b not in CUE_BALL_IDS for b in in_hand):
        raise _bad("in_hand lists cue balls")
    return in_hand


def _white1_holder(players: tuple[PlayerState, PlayerState]) -> str | None:
    """Who breaks when the snapshot does not say: the holder of white1 (the last, if both claim it)."""
    breaker = None
    for p in players:
        if p.cue_ball == "white1":
            breaker = p.name
    return breaker


def _timeouts(value: Any) -> tuple[int, int]:
    """Online: consecutive shot-clock expiries per player (absent in snapshots older than the clocks)."""
    if value is None:
        return (0, 0)
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise _bad("timeouts must be a pair of counts")
    a, b = (_integer(v, "timeouts") for v in value)
    return (a, b)


#: Team sizes a team match allows (2 vs 2 up to 4 vs 4); a one-to-one match has no teams.
TEAM_SIZES = range(2, 5)


def check_teams(teams: object, players: tuple[PlayerState, PlayerState]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Two teams of 2 to 4 distinct, non-empty member names, none of them a team's name."""
    if not isinstance(teams, list | tuple) or len(teams) != 2:
        raise RuleError("bad_teams", "a team match has exactly two teams")
    out: list[tuple[str, ...]] = []
    for members in teams:
        if not isinstance(members, list | tuple) or len(members) not in TEAM_SIZES:
            raise RuleError("bad_teams", f"a team has {TEAM_SIZES[0]} to {TEAM_SIZES[-1]} players")
        if any(not isinstance(m, str) or not m for m in members):
            raise RuleError("bad_teams", "member names must be non-empty strings")
        out.append(tuple(members))
    everyone = [*out[0], *out[1], players[0].name, players[1].name]
    if len(set(everyone)) != len(everyone):
        raise RuleError("bad_teams", "every member and team needs a name of its own")
    return out[0], out[1]


def read_teams(
    teams: object, at_table: object, players: tuple[PlayerState, PlayerState]
) -> tuple[tuple[tuple[str, ...], tuple[str, ...]] | None, tuple[int, int]]:
    if teams is None:
        return None, (0, 0)
    checked = check_teams(teams, players)
    at_table = [0, 0] if at_table is None else at_table
    if not isinstance(at_table, list | tuple) or len(at_table) != 2:
        raise _bad("at_table must be a pair")
    a, b = (_integer(v, "at_table") for v in at_table)
    if not (0 <= a < len(checked[0]) and 0 <= b < len(checked[1])):
        raise _bad("at_table must index a member of each team")
    return checked, (a, b)
