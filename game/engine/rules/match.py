"""The match: a thin facade over the typed state and the phase modules, behind the engine contract of
ARCHITECTURE section 3.

Design (why it looks like this):

- The state is a frozen :class:`~game.engine.rules.state.MatchState`; every input is a pure function
  ``apply(state, input, simulate) -> (state, outcome)`` in the module of the current phase
  (:mod:`game.engine.rules.phases`). The facade only swaps in the new state when the input was
  accepted, so a refused input (``RuleError``) leaves the match exactly as it was (K-4.3, K-10.3).
- The simulator is a constructor argument (the real physics by default): tests pass a scripted fake,
  nothing is patched.
- ``snapshot()`` / ``from_snapshot`` are the dict form of :mod:`game.engine.rules.snapshot`; a
  snapshot round-trips exactly and a replay of the same inputs gives the same bytes.
- The engine never reads a clock: inputs carry ``now`` (seconds) for the time limit (K-11).

Phases: ``lag`` -> ``choose_break`` -> ``opening_placement`` -> ``play`` (-> ``extra_visits`` ->
``shootout``) -> ``finished``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from game.engine.balls import BALL_IDS
from game.engine.rules import clock as clock_mod
from game.engine.rules import constraints as constraints_mod
from game.engine.rules import inputs
from game.engine.rules.calls import Call, parse_call
from game.engine.rules.errors import RuleError
from game.engine.rules.legality import require_shooter, validate_call
from game.engine.rules.names import POCKET_IDS
from game.engine.rules.phases import apply, online
from game.engine.rules.phases.flow import Outcome
from game.engine.rules.phases.online import TIMEOUTS_TO_LOSE
from game.engine.rules.ruleset import Ruleset
from game.engine.rules.simulator import Simulator, physics_simulator
from game.engine.rules.snapshot import check_teams, from_snapshot, to_snapshot
from game.engine.rules.state import (
    LagState,
    MatchState,
    Phase,
    PlayerState,
    ShootoutStage,
    Vec2,
    r6,
    table_for,
    table_of,
)
from game.engine.rules.strike import StrikeInput
from game.engine.rules.words import pocket_name
from game.engine.table import TableSpec

PHASES: tuple[str, ...] = tuple(str(p) for p in Phase)


def _start_balls(table: TableSpec) -> dict[str, Vec2 | None]:
    """K-2.8: kaisa on the centre spot, red1 on the front spot, red2 on the rear spot; whites off."""

    def spot(name: str) -> Vec2:
        x, y = table.spots[name]
        return (r6(x), r6(y))

    return {"white1": None, "white2": None, "red1": spot("front"), "red2": spot("rear"), "kaisa": spot("center")}


def _check_players(players: object) -> tuple[str, str]:
    if not isinstance(players, tuple | list) or len(players) != 2:
        raise RuleError("bad_players", "a match has exactly two players")
    a, b = players
    if not isinstance(a, str) or not isinstance(b, str) or not a or not b:
        raise RuleError("bad_players", "player names must be non-empty strings")
    if a == b:
        raise RuleError("bad_players", "the two players need different names")
    return a, b


class Match:
    """One game of Kaisa between two players. Build with :meth:`new` or :meth:`from_snapshot`."""

    def __init__(self, state: MatchState, simulate: Simulator = physics_simulator) -> None:
        self._state = state
        self._simulate = simulate

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
        teams: Sequence[Sequence[str]] | None = None,
        simulate: Simulator = physics_simulator,
    ) -> Match:
        """A match in phase ``lag``. ``players[0]`` is the first-joined player (lag side y < W/2).

        ``teams``: a team match: ``players`` then name the two teams (each shares one cue
        ball and one score) and ``teams[i]`` lists team i's members (2 to 4) in their fixed rotation;
        the first members lag (K-3.1), and a team whose visit ends hands its next visit to its next
        member. Fouls, ball in hand and the time limit apply to the team.

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
        sides = (PlayerState(names[0]), PlayerState(names[1]))
        state = MatchState(
            phase=Phase.LAG,
            players=sides,
            teams=None if teams is None else check_teams(teams, sides),
            turn=0,
            balls=_start_balls(table_for(rs.ball_diameter)),
            ruleset=rs,
            clock=clock_mod.new_clock(limit, warning),
            lag=LagState(),
        )
        if now is not None:
            state = state.evolve(clock=clock_mod.tick(state.clock, clock_mod.check_now(now)))
        return cls(state, simulate)

    @classmethod
    def from_snapshot(cls, data: Mapping[str, Any], *, simulate: Simulator = physics_simulator) -> Match:
        """A match from a snapshot or a hand-written position (phase, players, turn, balls suffice)."""
        try:
            return cls(from_snapshot(data), simulate)
        except RuleError:
            raise
        except Exception as exc:
            raise RuleError("bad_snapshot", f"the snapshot is malformed: {type(exc).__name__}") from exc

    def snapshot(self) -> dict[str, Any]:
        """JSON-ready state (ARCHITECTURE section 4); deterministic for the same history."""
        return to_snapshot(self._state)

    @property
    def state(self) -> MatchState:
        """The typed state (frozen: read it freely)."""
        return self._state

    # ----------------------------------------------------------------------------- read-only views
    @property
    def phase(self) -> str:
        return str(self._state.phase)

    @property
    def players(self) -> tuple[str, str]:
        return self._state.names

    @property
    def turn(self) -> int:
        return self._state.turn

    @property
    def current_player(self) -> str:
        """The side whose turn it is (in a team match, the team's name; see :attr:`at_table`)."""
        return self._state.shooter.name

    @property
    def at_table(self) -> str:
        """Who plays the visit now: the player, or in a team match the member whose visit it is."""
        return self._state.actor(self._state.turn)

    @property
    def teams(self) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
        """The members of each team in rotation order, or None for a one-to-one match."""
        return self._state.teams

    @property
    def scores(self) -> dict[str, int]:
        return {p.name: p.score for p in self._state.players}

    @property
    def winner(self) -> str | None:
        return self._state.winner

    @property
    def ruleset(self) -> Ruleset:
        return self._state.ruleset

    @property
    def table(self) -> TableSpec:
        return table_of(self._state)

    @property
    def balls(self) -> dict[str, Vec2 | None]:
        return {b: self._state.balls.get(b) for b in BALL_IDS}

    @property
    def in_hand(self) -> list[str]:
        return list(self._state.in_hand)

    @property
    def last_verdict(self) -> dict[str, Any] | None:
        verdict: dict[str, Any] | None = self.snapshot()["last_verdict"]
        return verdict

    def cue_ball_of(self, player: str) -> str | None:
        return self._state.players[self._state.index_of(player)].cue_ball

    def clock_status(self, now: float | None = None) -> dict[str, Any]:
        """Elapsed/remaining time at ``now`` without changing the match."""
        return clock_mod.status(self._state.clock, clock_mod.check_now(now))

    def pending(self) -> list[tuple[str, str]]:
        """Who may act now and how: pairs (player, action), action in lag/choose_break/place/shoot.

        With the shooter's cue ball in hand the action is "place"; once placed it is "shoot" (the
        ball may still be moved with another ``place`` before the shot).
        """
        return constraints_mod.pending(self._state)

    def constraints(self, player: str) -> dict[str, Any]:
        """What ``player`` may do now (ARCHITECTURE 3): actions, calls, placement, strike limits.
        Everything it allows the match accepts; everything else it refuses."""
        return constraints_mod.constraints(self._state, player)

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
        require_shooter(self._state, player)
        return validate_call(self._state, parse_call(call))

    # --------------------------------------------------------------------------------- the inputs
    def _run(self, inp: inputs.Input) -> Outcome:
        """Apply one input; the state changes only if it was accepted."""
        try:
            state, outcome = apply(self._state, inp, self._simulate)
        except RuleError:
            raise
        except Exception as exc:  # no other exception type may escape an input
            raise RuleError("internal_error", f"the input could not be handled: {type(exc).__name__}") from exc
        self._state = state
        return outcome

    def tick(self, now: float) -> Outcome:
        """Advance the tournament clock (records the K-11.1 warning); changes nothing else."""
        return self._run(inputs.Tick(now))

    def set_connected(self, player: str, connected: bool) -> None:
        """Presence, kept by the online layer (it decides absences: K-9.3 via :meth:`forfeit`)."""
        self._run(inputs.SetConnected(player, connected))

    def lag(self, player: str, strike: StrikeInput | Mapping[str, Any], *, now: float | None = None) -> Outcome:
        """K-3.1: play ``player``'s lag; once both have lagged the lag is decided (or re-lagged)."""
        return self._run(inputs.Lag(player, strike, now))

    def choose_break(self, player: str, take: bool, *, now: float | None = None) -> Outcome:
        """K-3.2 (and K-11.2 in the shoot-out): the lag winner breaks (``take``) or passes the break."""
        return self._run(inputs.ChooseBreak(player, take, now))

    def place(self, player: str, ball: str, position: Any, *, now: float | None = None) -> Outcome:
        """K-3.3 opening placement of white2, or K-7.1 ball in hand in the home."""
        return self._run(inputs.Place(player, ball, position, now))

    def shoot(
        self,
        player: str,
        call: Call | Mapping[str, Any],
        strike: StrikeInput | Mapping[str, Any],
        *,
        now: float | None = None,
    ) -> Outcome:
        """Play a called shot with the shooter's own white; the verdict says what happened. ``call`` and
        ``strike`` are the typed values (as the server's edge parses them) or their dict forms."""
        return self._run(inputs.Shoot(player, call, strike, now))

    def touch_foul(self, player: str, *, now: float | None = None) -> Outcome:
        """K-8.2: the shooter touched a ball (an admin or referee action): visit ends."""
        return self._run(inputs.TouchFoul(player, now))

    def forfeit(self, loser: str, reason: str = "forfeit", *, now: float | None = None) -> Outcome:
        """K-9.3: end the game for the opponent (absence past the grace time, shot clock, resignation)."""
        return self._run(inputs.Forfeit(loser, reason, now))

    def resign(self, player: str, *, now: float | None = None) -> Outcome:
        """K-9.3: resignation."""
        return self.forfeit(player, "resigned", now=now)

    # ------------------------------------------------------- online: abort, shot clock, abandonment
    @property
    def abortable(self) -> bool:
        """Before the first shot of the break (phases.online): either player may still abort."""
        return online.abortable(self._state)

    @property
    def timeouts(self) -> dict[str, int]:
        """Consecutive shot-clock expiries per player (reset by that player's next own input)."""
        return dict(zip(self._state.names, self._state.timeouts, strict=True))

    def abort(self, player: str, *, now: float | None = None) -> Outcome:
        """Either player ends the match before the break: no winner, nothing to count."""
        return self._run(inputs.Abort(player, now))

    def expire_shot_clock(self, player: str, *, now: float | None = None) -> Outcome:
        """The shot clock of ``player`` ran out: the visit passes (a timeout foul, no points lost);
        the third in a row loses; before the break the match is aborted (phases.online)."""
        return self._run(inputs.ExpireShotClock(player, now))

    def abandon(self, absent: Sequence[str], *, now: float | None = None) -> Outcome:
        """``absent`` were gone past the disconnect grace (K-9.3): the opponent wins; both gone, or
        nothing played yet: aborted."""
        return self._run(inputs.Abandon(tuple(absent), now))


__all__ = ["PHASES", "TIMEOUTS_TO_LOSE", "Match", "Outcome", "ShootoutStage", "pocket_name", "table_for"]
