"""The match: the phase machine of kaisa-rules.md behind the engine contract (ARCHITECTURE section 3).

Design (why it looks like this):

- The whole state is one JSON-ready dict; ``snapshot()`` is a deep copy of it and ``from_snapshot``
  fills defaults into a hand-written one. So a snapshot round-trips exactly and a replay of the same
  inputs gives the same bytes.
- Every public input runs as a transaction on a copy of that dict and commits only on success: a
  refused input raises :class:`RuleError` and leaves the match exactly as it was (K-4.3, K-10.3).
- The rules judge a finished shot through :func:`~game.engine.rules.verdict.judge_shot`, a pure
  function of the position before, the call and the event list; the match applies the verdict.
- The engine never reads a clock: inputs carry ``now`` (seconds) for the time limit (K-11).

Phases: ``lag`` -> ``choose_break`` -> ``opening_placement`` -> ``play`` (-> ``extra_visits`` ->
``shootout``) -> ``finished``.
"""

from __future__ import annotations

import copy
import functools
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from game.engine.rules import clock as clock_mod
from game.engine.rules.calls import Call, parse_call
from game.engine.rules.errors import RuleError
from game.engine.rules.lag import LAG_BALLS, LagResult, decide_lag, judge_lag, lag_start
from game.engine.rules.names import (
    BALL_IDS,
    CORNER_POCKETS,
    CUE_BALL_IDS,
    FOOT_POCKETS,
    MIDDLE_POCKETS,
    POCKET_IDS,
    RED_IDS,
    ball_name,
    pocket_name,
)
from game.engine.rules.placement import home_placement_error, opening_placement_error
from game.engine.rules.ruleset import Ruleset
from game.engine.rules.spotting import kaisa_return, respot
from game.engine.rules.strike import parse_strike
from game.engine.rules.trace import coordinate_extent, crossed_home_line, rolled_in_along_cushion
from game.engine.rules.verdict import Verdict, judge_shot
from game.engine.table import TableSpec, kaisa_table

Vec2 = tuple[float, float]
T = TypeVar("T")

PHASES: tuple[str, ...] = (
    "lag",
    "choose_break",
    "opening_placement",
    "play",
    "extra_visits",
    "shootout",
    "finished",
)
SHOOTING_PHASES: tuple[str, ...] = ("play", "extra_visits", "shootout")
SHOOTOUT_STAGES: tuple[str, ...] = ("lag", "choose", "shoot")
SNAPSHOT_FORMAT = 1
#: Consecutive shot-clock expiries of one player that lose the match (online rule).
TIMEOUTS_TO_LOSE = 3


@dataclass(frozen=True)
class Outcome:
    """What an accepted input did: the verdict dict (wire form) and the physics Shot, if one was played."""

    verdict: dict[str, Any]
    shot: Any = None


def _r6(value: float) -> float:
    return round(float(value), 6) + 0.0


@functools.lru_cache(maxsize=8)
def table_for(ball_diameter: float) -> TableSpec:
    """The table a ruleset plays on (K-1.2 ``ball_diameter`` flag)."""
    return kaisa_table(ball_diameter=ball_diameter)


def _physics() -> Any:
    try:
        from game.engine import physics
    except ImportError as exc:  # the physics package is written alongside the rules
        raise RuleError("physics_unavailable", "the physics engine is not available") from exc
    if not hasattr(physics, "simulate"):
        raise RuleError("physics_unavailable", "the physics engine is not available")
    return physics


def _simulate(table: TableSpec, balls: Mapping[str, Vec2], strike: Mapping[str, float], ball: str) -> Any:
    """Run the physics; its refusals become RuleErrors (K-10.3: cap hit -> rejected, position kept)."""
    physics = _physics()
    from game.engine.balls import BallState

    states = {b: BallState(position=balls[b]) for b in BALL_IDS if b in balls}
    strike_error = getattr(physics, "StrikeError", None)
    cap_error = getattr(physics, "SimulationCapError", None)
    try:
        stroke = physics.Strike(
            ball=ball, speed=strike["speed"], angle=strike["angle"], side=strike["side"], height=strike["height"]
        )
        return physics.simulate(table, states, strike=stroke, params=physics.PhysicsParams())
    except RuleError:
        raise
    except Exception as exc:
        if cap_error is not None and isinstance(exc, cap_error):
            raise RuleError(
                "cap_hit", "the shot could not be simulated (event cap hit); the position is unchanged"
            ) from exc
        if strike_error is not None and isinstance(exc, strike_error):
            raise RuleError("bad_strike", f"the physics refused the strike: {exc}") from exc
        raise RuleError("physics_error", f"the shot could not be simulated: {type(exc).__name__}") from exc


def _pos(value: Any) -> Vec2 | None:
    return None if value is None else (float(value[0]), float(value[1]))


def _verdict_dict(reason: str, rules: tuple[str, ...], **extra: Any) -> dict[str, Any]:
    """A verdict for inputs that are not shots (lag decisions, placements, choices, forfeits)."""
    data: dict[str, Any] = {
        "scored": False,
        "points": 0,
        "penalty": 0,
        "foul": None,
        "caroms": [],
        "turn_passes": False,
        "reason": reason,
        "rules": list(rules),
    }
    data.update(extra)
    return data


def _fresh_visit(*, opening: bool = False) -> dict[str, Any]:
    return {"shots": 0, "middle_kaisa": False, "points": 0, "from_hand": False, "opening": opening}


def _start_balls(table: TableSpec) -> dict[str, Any]:
    """K-2.8: kaisa on the centre spot, red1 on the front spot, red2 on the rear spot; whites off."""

    def spot(name: str) -> list[float]:
        x, y = table.spots[name]
        return [_r6(x), _r6(y)]

    return {"white1": None, "white2": None, "red1": spot("front"), "red2": spot("rear"), "kaisa": spot("center")}


class Match:
    """One game of Kaisa between two players. Build with :meth:`new` or :meth:`from_snapshot`."""

    def __init__(self, state: dict[str, Any]) -> None:
        self._s = state

    # ----------------------------------------------------------------- construction and snapshots
    @classmethod
    def new(
        cls,
        players: tuple[str, str] | list[str] = ("alice", "bob"),
        ruleset: Ruleset | Mapping[str, Any] | None = None,
        time_limit: float | bool | None = None,
        *,
        time_warning: float | None = None,
        now: float | None = None,
    ) -> Match:
        """A match in phase ``lag``. ``players[0]`` is the first-joined player (lag side y < W/2).

        ``time_limit`` in seconds (``True`` = the ruleset's 3900 s); the warning defaults to the same
        fraction of it as the ruleset's 3600 of 3900.
        """
        names = _check_players(players)
        rs = Ruleset.from_dict(ruleset.as_dict() if isinstance(ruleset, Ruleset) else ruleset)
        limit: float | None
        if time_limit is None or time_limit is False:
            limit = None
        elif time_limit is True:
            limit = rs.time_limit
        else:
            limit = clock_mod.check_now(time_limit)
            if limit is None or limit <= 0:
                raise RuleError("bad_time", "time_limit must be a positive number of seconds")
        warning: float | None = None
        if limit is not None:
            if time_warning is None:
                warning = limit * rs.time_warning / rs.time_limit
            else:
                warning = clock_mod.check_now(time_warning)
                if warning is None or not 0 <= warning <= limit:
                    raise RuleError("bad_time", "time_warning must lie between 0 and the time limit")
        table = table_for(rs.ball_diameter)
        state: dict[str, Any] = {
            "format": SNAPSHOT_FORMAT,
            "phase": "lag",
            "players": [_player(n) for n in names],
            "turn": 0,
            "in_hand": [],
            "balls": _start_balls(table),
            "visit": _fresh_visit(),
            "clock": clock_mod.new_clock(limit, warning),
            "winner": None,
            "finish_reason": None,
            "ruleset": rs.as_dict(),
            "lag": {"round": 1, "results": [None, None]},
            "breaker": None,
            "kaisa_spotted_at": None,
            "extra_visits": [],
            "shootout": None,
            "last_verdict": None,
            "moves": 0,
            "timeouts": [0, 0],
        }
        match = cls(state)
        if now is not None:
            match._run(lambda: clock_mod.tick(match._s["clock"], clock_mod.check_now(now)))
        return match

    @classmethod
    def from_snapshot(cls, data: Mapping[str, Any]) -> Match:
        """A match from a snapshot or a hand-written position (phase, players, turn, balls suffice)."""
        try:
            return cls(_normalise(data))
        except RuleError:
            raise
        except Exception as exc:
            raise RuleError("bad_snapshot", f"the snapshot is malformed: {type(exc).__name__}") from exc

    def snapshot(self) -> dict[str, Any]:
        """JSON-ready state (ARCHITECTURE section 4); deterministic for the same history."""
        return copy.deepcopy(self._s)

    # ----------------------------------------------------------------------------- read-only views
    @property
    def phase(self) -> str:
        return str(self._s["phase"])

    @property
    def players(self) -> tuple[str, str]:
        return (self._s["players"][0]["name"], self._s["players"][1]["name"])

    @property
    def turn(self) -> int:
        return int(self._s["turn"])

    @property
    def current_player(self) -> str:
        return str(self._s["players"][self.turn]["name"])

    @property
    def scores(self) -> dict[str, int]:
        return {p["name"]: int(p["score"]) for p in self._s["players"]}

    @property
    def winner(self) -> str | None:
        return self._s["winner"]

    @property
    def ruleset(self) -> Ruleset:
        return Ruleset.from_dict(self._s["ruleset"])

    @property
    def table(self) -> TableSpec:
        return table_for(float(self._s["ruleset"]["ball_diameter"]))

    @property
    def balls(self) -> dict[str, Vec2 | None]:
        return {b: _pos(self._s["balls"][b]) for b in BALL_IDS}

    @property
    def in_hand(self) -> list[str]:
        return list(self._s["in_hand"])

    @property
    def last_verdict(self) -> dict[str, Any] | None:
        return copy.deepcopy(self._s["last_verdict"])

    def cue_ball_of(self, player: str) -> str | None:
        return self._s["players"][self._index(player)]["cue_ball"]

    def clock_status(self, now: float | None = None) -> dict[str, Any]:
        """Elapsed/remaining time at ``now`` without changing the match."""
        return clock_mod.status(self._s["clock"], clock_mod.check_now(now))

    def pending(self) -> list[tuple[str, str]]:
        """Who may act now and how: pairs (player, action), action in lag/choose_break/place/shoot.

        With the shooter's cue ball in hand the action is "place"; once placed it is "shoot" (the
        ball may still be moved with another ``place`` before the shot).
        """
        s = self._s
        phase = s["phase"]
        names = [p["name"] for p in s["players"]]
        stage = s["shootout"]["stage"] if phase == "shootout" and s["shootout"] else None
        if phase == "finished":
            return []
        if phase == "lag" or stage == "lag":
            return [(names[i], "lag") for i in (0, 1) if s["lag"]["results"][i] is None]
        if phase == "choose_break" or stage == "choose":
            return [(names[s["turn"]], "choose_break")]
        if phase == "opening_placement":
            return [(names[s["turn"]], "place")]
        cue = s["players"][s["turn"]]["cue_ball"]
        if s["balls"].get(cue) is None:
            return [(names[s["turn"]], "place")]
        return [(names[s["turn"]], "shoot")]

    def legal_pockets(self, ball: str, *, object_cushions: int = 0, via: str | None = None) -> list[str]:
        """Pockets the current shooter may call for ``ball`` now (for the UI and the computer player)."""
        result = []
        for pocket in POCKET_IDS:
            call = {"ball": ball, "pocket": pocket, "object_cushions": object_cushions, "via": via}
            try:
                self.check_call(self.current_player, call)
            except RuleError:
                continue
            result.append(pocket)
        return result

    def callable_balls(self) -> list[str]:
        """Balls the current shooter may call into some pocket now."""
        return [b for b in BALL_IDS if self.legal_pockets(b) or self.legal_pockets(b, object_cushions=1)]

    def check_call(self, player: str, call: Mapping[str, Any] | Call) -> Call:
        """Validate a call for ``player`` now (K-4.3) without shooting; RuleError if refused."""
        s = self._s
        self._require_shooter(s, player)
        return self._validate_call(s, parse_call(call))

    # --------------------------------------------------------------------------------- the inputs
    def tick(self, now: float) -> Outcome:
        """Advance the tournament clock (records the K-11.1 warning); changes nothing else."""

        def run() -> Outcome:
            t = clock_mod.check_now(now)
            if t is None:
                raise RuleError("bad_time", "now is required")
            clock_mod.tick(self._s["clock"], t)
            return Outcome(_verdict_dict("Clock updated", ("K-11.1",), clock=dict(self._s["clock"])))

        return self._run(run)

    def set_connected(self, player: str, connected: bool) -> None:
        """Presence, kept by the online layer (it decides absences: K-9.3 via :meth:`forfeit`)."""

        def run() -> None:
            if not isinstance(connected, bool):
                raise RuleError("bad_input", "connected must be true or false")
            self._s["players"][self._index(player)]["connected"] = connected

        self._run(run)

    def lag(self, player: str, strike: Mapping[str, Any], *, now: float | None = None) -> Outcome:
        """K-3.1: play ``player``'s lag; once both have lagged the lag is decided (or re-lagged)."""
        return self._run(lambda: self._acted(player, self._lag(player, strike, now)))

    def choose_break(self, player: str, take: bool, *, now: float | None = None) -> Outcome:
        """K-3.2 (and K-11.2 in the shoot-out): the lag winner breaks (``take``) or passes the break."""
        return self._run(lambda: self._acted(player, self._choose_break(player, take, now)))

    def place(self, player: str, ball: str, position: Any, *, now: float | None = None) -> Outcome:
        """K-3.3 opening placement of white2, or K-7.1 ball in hand in the home."""
        return self._run(lambda: self._acted(player, self._place(player, ball, position, now)))

    def shoot(
        self, player: str, call: Mapping[str, Any] | Call, strike: Mapping[str, Any], *, now: float | None = None
    ) -> Outcome:
        """Play a called shot with the shooter's own white; the verdict says what happened."""
        return self._run(lambda: self._acted(player, self._shoot(player, call, strike, now)))

    def touch_foul(self, player: str, *, now: float | None = None) -> Outcome:
        """K-8.2: the shooter touched a ball (an admin or referee action): visit ends."""
        return self._run(lambda: self._touch_foul(player, now))

    def forfeit(self, loser: str, reason: str = "forfeit", *, now: float | None = None) -> Outcome:
        """K-9.3: end the game for the opponent (absence past the grace time, shot clock, resignation)."""
        return self._run(lambda: self._forfeit(loser, reason, now))

    def resign(self, player: str, *, now: float | None = None) -> Outcome:
        """K-9.3: resignation."""
        return self.forfeit(player, "resigned", now=now)

    # ------------------------------------------------------------- server clocks and abort (online)
    @property
    def abortable(self) -> bool:
        """Before the first shot of the break: the lag, the break choice, the opening placement and the
        breaker's placement of white1 all count as before (nothing has been played yet)."""
        s = self._s
        return s["phase"] in ("lag", "choose_break", "opening_placement") or (
            s["phase"] == "play" and bool(s["visit"]["opening"])
        )

    @property
    def timeouts(self) -> dict[str, int]:
        """Consecutive shot-clock expiries per player (reset by that player's next own input)."""
        return {p["name"]: int(n) for p, n in zip(self._s["players"], self._s["timeouts"], strict=True)}

    def abort(self, player: str, *, now: float | None = None) -> Outcome:
        """Either player ends the match before the break: no winner, nothing to count (online rule)."""
        return self._run(lambda: self._abort(player, f"aborted by {player} before the break", now))

    def expire_shot_clock(self, player: str, *, now: float | None = None) -> Outcome:
        """The shot clock of ``player`` (one the rules wait for) ran out (online rule, like online pool).

        In play, extra visits and the shoot-out the visit passes with a timeout foul: no points lost,
        every ball (the cue ball too) stays where it is. The third consecutive expiry of the same
        player loses the match. Before the break nothing has been played: the match is aborted. In a
        shoot-out lag the late player's lag counts as lost; a late shoot-out choice passes to the
        opponent."""
        return self._run(lambda: self._expire(player, now))

    def abandon(self, absent: list[str] | tuple[str, ...], *, now: float | None = None) -> Outcome:
        """The online layer found ``absent`` gone past the disconnect grace (K-9.3): the opponent wins;
        both gone, or nothing played yet (before the break): aborted, no winner."""

        def run() -> Outcome:
            names = sorted({self.players[self._index(p)] for p in absent}, key=self.players.index)
            if not names:
                raise RuleError("bad_input", "name the absent players")
            if len(names) == 2:
                return self._abort(names[0], "both players left", now, anytime=True)
            if self.abortable:
                return self._abort(names[0], f"{names[0]} left before the break", now)
            return self._forfeit(names[0], "left the match", now)

        return self._run(run)

    def _acted(self, player: str, outcome: Outcome) -> Outcome:
        self._s["timeouts"][self._index(player)] = 0
        return outcome

    def _abort(self, player: str, reason: str, now: float | None, *, anytime: bool = False) -> Outcome:
        s = self._s
        if s["phase"] == "finished":
            raise RuleError("game_over", "the game is over")
        self._index(player)
        if not anytime and not self.abortable:
            raise RuleError("not_abortable", "a match can only be aborted before the first shot of the break")
        clock_mod.tick(s["clock"], clock_mod.check_now(now))
        s["phase"] = "finished"
        s["winner"] = None
        s["finish_reason"] = reason
        verdict = _verdict_dict(reason, (), aborted=True, winner=None)
        self._done(verdict)
        return Outcome(verdict)

    def _expire(self, player: str, now: float | None) -> Outcome:
        s = self._s
        if s["phase"] == "finished":
            raise RuleError("game_over", "the game is over")
        index = self._index(player)
        if player not in [name for name, _ in self.pending()]:
            raise RuleError("not_pending", f"the rules do not wait for {player}")
        if self.abortable:
            return self._abort(player, "no shot within the shot clock before the break", now)
        clock_mod.tick(s["clock"], clock_mod.check_now(now))
        s["timeouts"][index] += 1
        count = s["timeouts"][index]
        other = s["players"][1 - index]["name"]
        if count >= TIMEOUTS_TO_LOSE:
            self._finish(other, f"{player} ran out of the shot clock {count} times in a row")
            verdict = _verdict_dict(s["finish_reason"], ("K-9.3",), foul="shot_clock", winner=other, timeouts=count)
            self._done(verdict)
            return Outcome(verdict)
        stage = s["shootout"]["stage"] if s["phase"] == "shootout" else None
        if stage == "lag":
            s["lag"]["results"][index] = {"lost": True, "distance": None, "reason": "the shot clock ran out"}
            text = f"{player} ran out of the shot clock ({count} of {TIMEOUTS_TO_LOSE}): the lag is lost"
            theirs = s["lag"]["results"][1 - index]
            if theirs is not None and theirs["lost"]:
                s["lag"] = {"round": s["lag"]["round"] + 1, "results": [None, None]}
                text += "; both lags lost: lag again"
            elif theirs is not None:
                s["turn"] = 1 - index
                s["lag"]["winner"] = other
                s["shootout"]["stage"] = "choose"
                text += f"; {other} wins the lag and chooses who starts"
        elif stage == "choose":
            s["turn"] = 1 - index
            text = f"{player} ran out of the shot clock ({count} of {TIMEOUTS_TO_LOSE}): {other} chooses"
        else:
            text = f"{player} ran out of the shot clock ({count} of {TIMEOUTS_TO_LOSE}): {other}'s turn"
            if s["phase"] == "shootout":
                self._shootout_end_visit(now)
            else:
                self._end_visit(now)
        verdict = _verdict_dict(text, ("K-6.1",), foul="shot_clock", turn_passes=True, timeouts=count)
        self._done(verdict)
        return Outcome(verdict)

    # ------------------------------------------------------------------------------ transactions
    def _run(self, fn: Callable[[], T]) -> T:
        saved = self._s
        self._s = copy.deepcopy(saved)
        try:
            result = fn()
        except RuleError:
            self._s = saved
            raise
        except Exception as exc:  # no other exception type may escape an input
            self._s = saved
            raise RuleError("internal_error", f"the input could not be handled: {type(exc).__name__}") from exc
        return result

    def _index(self, player: object) -> int:
        if not isinstance(player, str):
            raise RuleError("unknown_player", "the player must be a name")
        for i, p in enumerate(self._s["players"]):
            if p["name"] == player:
                return i
        raise RuleError("unknown_player", f"{player!r} does not play in this match")

    def _begin(self, now: float | None, phases: tuple[str, ...]) -> None:
        s = self._s
        if s["phase"] == "finished":
            raise RuleError("game_over", "the game is over")
        if s["phase"] not in phases:
            raise RuleError("wrong_phase", f"not possible in phase {s['phase']}")
        clock_mod.tick(s["clock"], clock_mod.check_now(now))

    def _done(self, verdict: dict[str, Any]) -> None:
        self._s["last_verdict"] = verdict
        self._s["moves"] += 1

    # ------------------------------------------------------------------------------------- lag
    def _lag(self, player: str, strike_data: Mapping[str, Any], now: float | None) -> Outcome:
        s = self._s
        self._begin(now, ("lag", "shootout"))
        if s["phase"] == "shootout" and s["shootout"]["stage"] != "lag":
            raise RuleError("wrong_phase", "the shoot-out lag is over")
        index = self._index(player)
        if s["lag"]["results"][index] is not None:
            raise RuleError("already_lagged", f"{player} has already lagged; waiting for the opponent")
        strike = parse_strike(strike_data)
        table = self.table
        label = LAG_BALLS[index]
        layout: dict[str, Vec2] = {}
        for b in BALL_IDS:
            pos = _pos(s["balls"][b])
            if b not in CUE_BALL_IDS and pos is not None:
                layout[b] = pos
        layout[label] = lag_start(table, index)
        shot = _simulate(table, layout, strike, label)
        final = shot.final.get(label)
        result = judge_lag(
            ball=label,
            side=index,
            events=shot.events,
            pocketed=label in shot.pocketed,
            final=None if final is None else final.position,
            y_extent=coordinate_extent(shot, label, 1),
            table=table,
        )
        s["lag"]["results"][index] = result.as_dict()
        reason = f"{player}'s lag: {result.reason}"
        extra: dict[str, Any] = {"lag": result.as_dict(), "lag_winner": None, "relag": False}
        results = s["lag"]["results"]
        if results[0] is not None and results[1] is not None:
            first = LagResult(results[0]["lost"], results[0]["distance"], results[0]["reason"])
            second = LagResult(results[1]["lost"], results[1]["distance"], results[1]["reason"])
            winner = decide_lag(first, second, self.ruleset.lag_tie_tolerance)
            if winner is None:
                s["lag"] = {"round": s["lag"]["round"] + 1, "results": [None, None]}
                reason += "; both lags lost or equal: lag again"
                extra["relag"] = True
            else:
                name = s["players"][winner]["name"]
                s["turn"] = winner
                s["lag"]["winner"] = name
                if s["phase"] == "lag":
                    s["phase"] = "choose_break"
                else:
                    s["shootout"]["stage"] = "choose"
                reason += f"; {name} wins the lag and chooses who breaks"
                extra["lag_winner"] = name
        verdict = _verdict_dict(reason, ("K-11.2", "K-3.1") if s["phase"] == "shootout" else ("K-3.1",), **extra)
        self._done(verdict)
        return Outcome(verdict, shot)

    def _choose_break(self, player: str, take: object, now: float | None) -> Outcome:
        s = self._s
        self._begin(now, ("choose_break", "shootout"))
        shootout = s["phase"] == "shootout"
        if shootout and s["shootout"]["stage"] != "choose":
            raise RuleError("wrong_phase", "nothing to choose now")
        index = self._index(player)
        if index != s["turn"]:
            raise RuleError("not_your_turn", "only the lag winner chooses")
        if not isinstance(take, bool):
            raise RuleError("bad_input", "take must be true or false")
        breaker = index if take else 1 - index
        s["players"][breaker]["cue_ball"] = "white1"
        s["players"][1 - breaker]["cue_ball"] = "white2"
        s["breaker"] = s["players"][breaker]["name"]
        s["lag"] = {"round": s["lag"]["round"], "results": [None, None]}
        name = s["players"][breaker]["name"]
        if shootout:
            s["shootout"]["stage"] = "shoot"
            s["turn"] = breaker
            s["balls"]["white1"] = None
            s["balls"]["white2"] = None
            s["in_hand"] = ["white1", "white2"]
            s["visit"] = _fresh_visit()
            verdict = _verdict_dict(f"{name} starts the shoot-out with {ball_name('white1')}", ("K-11.2",))
        else:
            s["phase"] = "opening_placement"
            s["turn"] = 1 - breaker
            s["in_hand"] = ["white1", "white2"]
            verdict = _verdict_dict(
                f"{name} breaks with {ball_name('white1')}; {s['players'][1 - breaker]['name']} places "
                f"{ball_name('white2')}",
                ("K-3.2", "K-3.3"),
            )
        self._done(verdict)
        return Outcome(verdict)

    # ------------------------------------------------------------------------------- placement
    def _place(self, player: str, ball: object, position: Any, now: float | None) -> Outcome:
        s = self._s
        self._begin(now, ("opening_placement", *SHOOTING_PHASES))
        if s["phase"] == "shootout" and s["shootout"]["stage"] != "shoot":
            raise RuleError("wrong_phase", "the shoot-out has not started")
        index = self._index(player)
        if index != s["turn"]:
            raise RuleError("not_your_turn", f"it is {s['players'][s['turn']]['name']}'s turn")
        if not isinstance(ball, str) or ball not in BALL_IDS:
            raise RuleError("unknown_ball", f"there is no ball {ball!r}")
        own = s["players"][index]["cue_ball"]
        if ball != own:
            raise RuleError("not_in_hand", f"only your own cue ball {own} can be placed")
        point = _parse_point(position)
        table = self.table
        others = {b: _pos(s["balls"][b]) for b in BALL_IDS if b != ball}
        if s["phase"] == "opening_placement":
            error = opening_placement_error(point, others, table, self.ruleset.corridor_width, ball)
            if error is not None:
                raise RuleError("illegal_placement", f"{error} (K-3.3)")
            s["balls"][ball] = [point[0], point[1]]
            s["in_hand"] = [b for b in s["in_hand"] if b != ball]
            s["phase"] = "play"
            s["turn"] = 1 - index
            s["visit"] = _fresh_visit(opening=True)
            verdict = _verdict_dict(
                f"{player} placed {ball_name(ball)}; {s['players'][1 - index]['name']} breaks from the home",
                ("K-3.3", "K-3.4"),
            )
        else:
            in_hand = s["balls"][ball] is None
            if not in_hand and not (s["visit"]["from_hand"]):
                raise RuleError("not_in_hand", f"{ball} is not in hand")
            error = home_placement_error(point, others, table, ball)
            if error is not None:
                raise RuleError("illegal_placement", f"{error} (K-7.1)")
            s["balls"][ball] = [point[0], point[1]]
            s["in_hand"] = [b for b in s["in_hand"] if b != ball]
            s["visit"]["from_hand"] = True
            verdict = _verdict_dict(f"{player} placed {ball_name(ball)} in the home", ("K-7.1",))
        self._done(verdict)
        return Outcome(verdict)

    # ----------------------------------------------------------------------------------- shots
    def _require_shooter(self, s: dict[str, Any], player: str) -> int:
        if s["phase"] == "finished":
            raise RuleError("game_over", "the game is over")
        if s["phase"] not in SHOOTING_PHASES or (s["phase"] == "shootout" and s["shootout"]["stage"] != "shoot"):
            raise RuleError("wrong_phase", f"no shots in phase {s['phase']}")
        index = self._index(player)
        if index != s["turn"]:
            raise RuleError("not_your_turn", f"it is {s['players'][s['turn']]['name']}'s turn")
        cue = s["players"][index]["cue_ball"]
        if s["balls"].get(cue) is None:
            raise RuleError("cue_ball_in_hand", f"place {cue} in the home first")
        return index

    def _validate_call(self, s: dict[str, Any], call: Call) -> Call:
        """K-4.3: refuse calls that could never be legal here, with the reason."""
        index = s["turn"]
        cue = s["players"][index]["cue_ball"]
        table = self.table
        if call.ball == cue:
            raise RuleError("own_cue_ball", f"{cue} is your own cue ball: call another ball")
        if call.via == cue:
            raise RuleError("own_cue_ball", f"{cue} is your own cue ball: it cannot be the kiss ball")
        if s["balls"].get(call.ball) is None:
            raise RuleError("ball_not_on_table", f"{ball_name(call.ball)} is not on the table")
        if call.via is not None and s["balls"].get(call.via) is None:
            raise RuleError("ball_not_on_table", f"{ball_name(call.via)} is not on the table")
        if s["phase"] == "shootout":
            if call.ball != "kaisa" or call.pocket not in CORNER_POCKETS:
                raise RuleError(
                    "shootout_call", "in the shoot-out only the kaisa into a corner pocket is called (K-11.2)"
                )
        if s["visit"]["opening"]:
            rear = table.spots["rear"]
            rear_red = [r for r in RED_IDS if _pos(s["balls"][r]) == (_r6(rear[0]), _r6(rear[1]))]
            if call.ball not in ("kaisa", *rear_red) or call.pocket not in FOOT_POCKETS:
                raise RuleError(
                    "opening_call",
                    "the opening shot must call the kaisa or the rear-spot red into a foot pocket (K-3.4)",
                )
        if s["visit"]["from_hand"]:
            if call.pocket in MIDDLE_POCKETS and call.object_cushions == 0:
                raise RuleError("hand_restriction", "from hand a middle pocket may only be called as a bank (K-7.2)")
            targets = [call.ball] if call.via is None else [call.ball, call.via]
            if call.cue_cushions == 0 and all(table.in_home(_pos(s["balls"][b]) or (0.0, 0.0)) for b in targets):
                raise RuleError(
                    "hand_restriction",
                    f"from hand {ball_name(call.ball)} in the home may only be "
                    "attacked off a cushion beyond the home line (K-7.2)",
                )
        if s["visit"]["middle_kaisa"] and call.ball == "kaisa" and call.pocket in MIDDLE_POCKETS and call.direct:
            raise RuleError(
                "middle_kaisa_twice", "the kaisa may not be potted directly into a middle pocket twice in a row (K-6.4)"
            )
        return call

    def _shoot(
        self, player: str, call_data: Mapping[str, Any] | Call, strike_data: Mapping[str, Any], now: float | None
    ) -> Outcome:
        s = self._s
        if s["phase"] == "finished":
            raise RuleError("game_over", "the game is over")
        index = self._require_shooter(s, player)
        call = self._validate_call(s, parse_call(call_data))
        strike = parse_strike(strike_data)
        clock_mod.tick(s["clock"], clock_mod.check_now(now))
        table = self.table
        rs = self.ruleset
        cue = s["players"][index]["cue_ball"]
        before = {b: _pos(s["balls"][b]) for b in BALL_IDS}
        on_table = {b: p for b, p in before.items() if p is not None}
        shot = _simulate(table, on_table, strike, cue)
        shootout = s["phase"] == "shootout"
        from_hand = bool(s["visit"]["from_hand"]) or shootout
        pocketed = list(shot.pocketed.items())
        rolled: tuple[str, ...] = ()
        if (call.ball, call.pocket) in pocketed and rolled_in_along_cushion(shot, call.ball, table):
            rolled = (call.ball,)
        verdict = judge_shot(
            call=call,
            cue=cue,
            before=before,
            events=shot.events,
            table=table,
            ruleset=rs,
            score_before=int(s["players"][index]["score"]),
            from_hand=from_hand,
            shootout=shootout,
            cue_crossed_home_line=crossed_home_line(shot, cue, table) if from_hand else True,
            rolled_in=rolled,
            pocketed=pocketed,
        )
        if not verdict.replay:
            final = {b: (_r6(st.position[0]), _r6(st.position[1])) for b, st in shot.final.items()}
            self._apply(verdict, call, final, [b for b, _ in pocketed], now)
        out = verdict.as_dict()
        out["scores"] = [int(p["score"]) for p in s["players"]]
        self._done(out)
        return Outcome(out, shot)

    def _apply(
        self, verdict: Verdict, call: Call, final: Mapping[str, Vec2], dropped: list[str], now: float | None
    ) -> None:
        """Apply a judged shot: balls, respotting, score, the visit and the phase."""
        s = self._s
        table = self.table
        index = s["turn"]
        me = s["players"][index]
        balls: dict[str, Vec2 | None] = {b: final.get(b) for b in BALL_IDS}
        shootout = s["phase"] == "shootout"
        if shootout:
            centre = table.spots["center"]
            balls = {b: None for b in BALL_IDS}
            balls["kaisa"] = (_r6(centre[0]), _r6(centre[1]))
            s["kaisa_spotted_at"] = None
        else:
            colours = [b for b in ("kaisa", *RED_IDS) if b in dropped or balls[b] is None]
            spotted = respot(colours, balls, table)
            if "kaisa" in spotted:
                s["kaisa_spotted_at"] = None if spotted["kaisa"] == "center" else list(balls["kaisa"] or ())
        me["score"] = int(me["score"]) + verdict.points - verdict.penalty
        me["points_this_visit"] = int(me["points_this_visit"]) + verdict.points - verdict.penalty
        s["visit"]["shots"] += 1
        s["visit"]["points"] += verdict.points - verdict.penalty
        s["visit"]["middle_kaisa"] = bool(
            verdict.scored and call.ball == "kaisa" and call.pocket in MIDDLE_POCKETS and call.direct
        )
        s["visit"]["from_hand"] = False
        s["visit"]["opening"] = False
        _set_balls(s, balls)
        if not shootout:
            moved, marker = kaisa_return(balls, _pos(s["kaisa_spotted_at"]), table)
            s["kaisa_spotted_at"] = None if marker is None else [marker[0], marker[1]]
            if moved:
                _set_balls(s, balls)
        if verdict.wins:
            self._finish(me["name"], "reached the target score")
            return
        if shootout:
            self._shootout_after_shot(verdict, now)
            return
        if verdict.turn_passes:
            self._end_visit(now)

    def _touch_foul(self, player: str, now: float | None) -> Outcome:
        s = self._s
        self._begin(now, SHOOTING_PHASES)
        index = self._index(player)
        if index != s["turn"]:
            raise RuleError("not_your_turn", "only the shooter can commit a touch foul")
        penalty = self.ruleset.touch_penalty
        me = s["players"][index]
        me["score"] = int(me["score"]) - penalty
        text = f"{player} touched a ball: the visit ends"
        if penalty:
            text += f", minus {penalty} point" + ("" if penalty == 1 else "s")
        verdict = _verdict_dict(text, ("K-8.2",), foul="touched_ball", penalty=penalty, turn_passes=True)
        if s["phase"] == "shootout" and s["shootout"]["sudden_death"] and penalty:
            self._finish(s["players"][1 - index]["name"], "penalty in sudden death")
        elif s["phase"] == "shootout":
            self._shootout_end_visit(now)
        else:
            self._end_visit(now)
        self._done(verdict)
        return Outcome(verdict)

    def _forfeit(self, loser: str, reason: object, now: float | None) -> Outcome:
        s = self._s
        if s["phase"] == "finished":
            raise RuleError("game_over", "the game is over")
        clock_mod.tick(s["clock"], clock_mod.check_now(now))
        index = self._index(loser)
        if not isinstance(reason, str) or not reason or len(reason) > 200:
            raise RuleError("bad_input", "the reason must be a short text")
        winner = s["players"][1 - index]["name"]
        self._finish(winner, f"{loser} {reason}" if reason == "resigned" else f"{loser}: {reason}")
        verdict = _verdict_dict(f"{winner} wins: {s['finish_reason']}", ("K-9.3",), winner=winner)
        self._done(verdict)
        return Outcome(verdict)

    # --------------------------------------------------------------------------- visits and ends
    def _finish(self, winner: str, reason: str) -> None:
        s = self._s
        s["phase"] = "finished"
        s["winner"] = winner
        s["finish_reason"] = reason
        for p in s["players"]:
            p["best_break"] = max(int(p["best_break"]), int(p["points_this_visit"]))

    def _next_visit(self) -> None:
        s = self._s
        me = s["players"][s["turn"]]
        me["best_break"] = max(int(me["best_break"]), int(me["points_this_visit"]))
        s["turn"] = 1 - s["turn"]
        s["players"][s["turn"]]["points_this_visit"] = 0
        s["visit"] = _fresh_visit()

    def _end_visit(self, now: float | None) -> None:
        """K-6.1 end of a visit; K-11.1 time limit read at the end of each round (white2's visit)."""
        s = self._s
        ending_cue = s["players"][s["turn"]]["cue_ball"]
        self._next_visit()
        if s["phase"] == "play":
            if s["clock"]["expired"] and ending_cue == "white2":
                s["phase"] = "extra_visits"
                s["extra_visits"] = ["white1", "white2"] * self.ruleset.extra_visits_each
        elif s["phase"] == "extra_visits":
            if s["extra_visits"]:
                s["extra_visits"] = s["extra_visits"][1:]
            if not s["extra_visits"]:
                self._start_shootout()

    def _start_shootout(self) -> None:
        """K-11.2: only the kaisa (centre spot) and the whites stay; a new lag decides who starts."""
        s = self._s
        centre = self.table.spots["center"]
        s["phase"] = "shootout"
        s["balls"] = {b: None for b in BALL_IDS}
        s["balls"]["kaisa"] = [_r6(centre[0]), _r6(centre[1])]
        s["in_hand"] = []
        s["kaisa_spotted_at"] = None
        s["lag"] = {"round": 1, "results": [None, None]}
        s["turn"] = 0
        s["visit"] = _fresh_visit()
        s["shootout"] = {"stage": "lag", "visits": [0, 0], "sudden_death": False, "answer_by": None, "potted": False}

    def _shootout_after_shot(self, verdict: Verdict, now: float | None) -> None:
        s = self._s
        so = s["shootout"]
        index = s["turn"]
        if verdict.penalty and so["sudden_death"]:
            self._finish(s["players"][1 - index]["name"], "penalty in the sudden death (K-11.4)")
            return
        if verdict.scored:
            so["potted"] = True
        if verdict.turn_passes:
            self._shootout_end_visit(now)

    def _shootout_end_visit(self, now: float | None) -> None:
        """K-11.4: count visits; after the limit the higher score wins; equal: sudden death."""
        s = self._s
        so = s["shootout"]
        index = s["turn"]
        other = 1 - index
        so["visits"][index] += 1
        score = [int(p["score"]) for p in s["players"]]
        names = [p["name"] for p in s["players"]]
        potted = so["potted"]
        so["potted"] = False
        if not so["sudden_death"]:
            limit = self.ruleset.shootout_visits
            if so["visits"][0] >= limit and so["visits"][1] >= limit:
                if score[0] != score[1]:
                    self._finish(
                        names[0] if score[0] > score[1] else names[1],
                        "higher score after the shoot-out visits (K-11.4)",
                    )
                    return
                so["sudden_death"] = True
        else:
            if so["answer_by"] == index:
                if score[index] != score[other]:
                    winner = index if score[index] > score[other] else other
                    self._finish(names[winner], "sudden death (K-11.4)")
                    return
                so["answer_by"] = None
            elif potted:
                so["answer_by"] = other
        self._next_visit()


# ---------------------------------------------------------------------------------- helpers
def _player(name: str) -> dict[str, Any]:
    return {"name": name, "cue_ball": None, "score": 0, "connected": True, "points_this_visit": 0, "best_break": 0}


def _check_players(players: object) -> tuple[str, str]:
    if not isinstance(players, tuple | list) or len(players) != 2:
        raise RuleError("bad_players", "a match has exactly two players")
    a, b = players
    if not isinstance(a, str) or not isinstance(b, str) or not a or not b:
        raise RuleError("bad_players", "player names must be non-empty strings")
    if a == b:
        raise RuleError("bad_players", "the two players need different names")
    return a, b


def _parse_point(position: Any) -> Vec2:
    if isinstance(position, Mapping):
        position = (position.get("x"), position.get("y"))
    if not isinstance(position, tuple | list) or len(position) != 2:
        raise RuleError("bad_position", "a position is a pair (x, y) in metres")
    out = []
    for v in position:
        if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
            raise RuleError("bad_position", "a position needs two finite numbers")
        out.append(_r6(v))
    return (out[0], out[1])


def _set_balls(s: dict[str, Any], balls: Mapping[str, Vec2 | None]) -> None:
    s["balls"] = {
        b: (None if balls[b] is None else [balls[b][0], balls[b][1]])  # type: ignore[index]
        for b in BALL_IDS
    }
    s["in_hand"] = [b for b in CUE_BALL_IDS if s["balls"][b] is None]


def _normalise(data: Mapping[str, Any]) -> dict[str, Any]:
    """Fill every default into a (possibly hand-written) snapshot and check its shape."""
    if not isinstance(data, Mapping):
        raise RuleError("bad_snapshot", "a snapshot is an object")
    bad = RuleError
    phase = data.get("phase")
    if phase not in PHASES:
        raise bad("bad_snapshot", f"unknown phase {phase!r}")
    rs = Ruleset.from_dict(data.get("ruleset"))
    raw_players = data.get("players")
    if not isinstance(raw_players, list | tuple) or len(raw_players) != 2:
        raise bad("bad_snapshot", "players must be a list of two")
    players = []
    for p in raw_players:
        if not isinstance(p, Mapping) or not isinstance(p.get("name"), str) or not p["name"]:
            raise bad("bad_snapshot", "each player needs a name")
        player = _player(p["name"])
        cue = p.get("cue_ball")
        if cue is not None and cue not in CUE_BALL_IDS:
            raise bad("bad_snapshot", f"bad cue ball {cue!r}")
        player["cue_ball"] = cue
        for key in ("score", "points_this_visit", "best_break"):
            value = p.get(key, 0)
            if isinstance(value, bool) or not isinstance(value, int):
                raise bad("bad_snapshot", f"player {key} must be an integer")
            player[key] = value
        connected = p.get("connected", True)
        if not isinstance(connected, bool):
            raise bad("bad_snapshot", "connected must be a boolean")
        player["connected"] = connected
        players.append(player)
    _check_players([players[0]["name"], players[1]["name"]])
    cues = [players[0]["cue_ball"], players[1]["cue_ball"]]
    if phase in ("opening_placement", "play", "extra_visits") and sorted(c or "" for c in cues) != ["white1", "white2"]:
        raise bad("bad_snapshot", "in this phase the players hold white1 and white2")
    turn = data.get("turn", 0)
    if turn not in (0, 1) or isinstance(turn, bool):
        raise bad("bad_snapshot", "turn must be 0 or 1")
    raw_balls = data.get("balls")
    if not isinstance(raw_balls, Mapping):
        raise bad("bad_snapshot", "balls must be an object")
    for key in raw_balls:
        if key not in BALL_IDS:
            raise bad("bad_snapshot", f"unknown ball {key!r}")
    balls: dict[str, Any] = {}
    for b in BALL_IDS:
        value = raw_balls.get(b)
        if value is None:
            balls[b] = None
            continue
        if (
            not isinstance(value, list | tuple)
            or len(value) != 2
            or any(isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v) for v in value)
        ):
            raise bad("bad_snapshot", f"ball {b} needs [x, y]")
        balls[b] = [float(value[0]) + 0.0, float(value[1]) + 0.0]
    shootout = data.get("shootout")
    if phase == "shootout" and shootout is None:
        shootout = {"stage": "shoot" if None not in cues else "lag"}
    if shootout is not None:
        shootout = {
            "stage": shootout.get("stage", "shoot"),
            "visits": list(shootout.get("visits", [0, 0])),
            "sudden_death": bool(shootout.get("sudden_death", False)),
            "answer_by": shootout.get("answer_by"),
            "potted": bool(shootout.get("potted", False)),
        }
        if shootout["stage"] not in SHOOTOUT_STAGES:
            raise bad("bad_snapshot", "bad shoot-out stage")
    lagging = phase in ("lag", "choose_break") or (
        shootout is not None and phase == "shootout" and shootout["stage"] != "shoot"
    )
    default_hand = [] if lagging else [b for b in CUE_BALL_IDS if balls[b] is None]
    in_hand = data.get("in_hand", default_hand)
    if not isinstance(in_hand, list) or any(b not in CUE_BALL_IDS for b in in_hand):
        raise bad("bad_snapshot", "in_hand lists cue balls")
    visit = _fresh_visit()
    raw_visit = data.get("visit") or {}
    if not isinstance(raw_visit, Mapping):
        raise bad("bad_snapshot", "visit must be an object")
    for key in visit:
        if key in raw_visit:
            visit[key] = raw_visit[key]
    clock = clock_mod.new_clock(None, None)
    raw_clock = data.get("clock") or {}
    if not isinstance(raw_clock, Mapping):
        raise bad("bad_snapshot", "clock must be an object")
    for key in clock:
        if key in raw_clock:
            clock[key] = raw_clock[key]
    lag = data.get("lag") or {"round": 1, "results": [None, None]}
    lag = copy.deepcopy(dict(lag))
    lag.setdefault("round", 1)
    lag.setdefault("results", [None, None])
    breaker = data.get("breaker")
    if breaker is None:
        for p in players:
            if p["cue_ball"] == "white1":
                breaker = p["name"]
    extra = data.get("extra_visits")
    if extra is None:
        extra = []
        if phase == "extra_visits":
            first = players[turn]["cue_ball"]
            second = "white2" if first == "white1" else "white1"
            extra = [first, second] * rs.extra_visits_each
            if first == "white2":
                extra = extra[: 2 * rs.extra_visits_each - 1]
    spotted = data.get("kaisa_spotted_at")
    return {
        "format": SNAPSHOT_FORMAT,
        "phase": phase,
        "players": players,
        "turn": turn,
        "in_hand": list(in_hand),
        "balls": balls,
        "visit": visit,
        "clock": clock,
        "winner": data.get("winner"),
        "finish_reason": data.get("finish_reason"),
        "ruleset": rs.as_dict(),
        "lag": lag,
        "breaker": breaker,
        "kaisa_spotted_at": None if spotted is None else [float(spotted[0]), float(spotted[1])],
        "extra_visits": list(extra),
        "shootout": shootout,
        "last_verdict": copy.deepcopy(data.get("last_verdict")),
        "moves": int(data.get("moves", 0)),
        "timeouts": [int(n) for n in (data.get("timeouts") or [0, 0])[:2]],
    }


__all__ = ["PHASES", "Match", "Outcome", "pocket_name", "table_for"]
