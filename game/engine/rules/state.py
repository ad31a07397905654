"""The typed match state: what a game of Kaisa is at one moment, as frozen dataclasses.

Every input is a pure function from one :class:`MatchState` to the next (the phase modules in
:mod:`game.engine.rules.phases`), so a refused input cannot leave half a change behind and a test can
hold two states side by side. The dict form stored on the Match row and sent to clients is made and
read in :mod:`game.engine.rules.snapshot`; nothing else knows its keys.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from game.engine.balls import BALL_IDS, CUE_BALL_IDS
from game.engine.rules.clock import Clock
from game.engine.rules.errors import RuleError
from game.engine.rules.lag import LagResult
from game.engine.rules.ruleset import Ruleset
from game.engine.table import TableSpec, kaisa_table

Vec2 = tuple[float, float]
Balls = Mapping[str, Vec2 | None]


class Phase(StrEnum):
    """The phases of a game (the values are the snapshot's ``phase``)."""

    LAG = "lag"  # K-3.1
    CHOOSE_BREAK = "choose_break"  # K-3.2
    OPENING_PLACEMENT = "opening_placement"  # K-3.3
    PLAY = "play"
    EXTRA_VISITS = "extra_visits"  # K-11.1
    SHOOTOUT = "shootout"  # K-11.2 to K-11.4
    FINISHED = "finished"  # K-9


class ShootoutStage(StrEnum):
    """Where the shoot-out is: its own lag (K-11.2), the starter's choice, then the shots."""

    LAG = "lag"
    CHOOSE = "choose"
    SHOOT = "shoot"


SHOOTING_PHASES: tuple[Phase, ...] = (Phase.PLAY, Phase.EXTRA_VISITS, Phase.SHOOTOUT)


@dataclass(frozen=True)
class PlayerState:
    name: str
    cue_ball: str | None = None  # K-3.2: white1 for the breaker, white2 for the other; None before
    score: int = 0
    connected: bool = True
    points_this_visit: int = 0
    best_break: int = 0


@dataclass(frozen=True)
class Visit:
    """The visit in progress: what K-6.4, K-7.2 and K-3.4 need to remember between its shots."""

    shots: int = 0
    middle_kaisa: bool = False  # K-6.4: the last shot potted the kaisa directly into a middle pocket
    points: int = 0
    from_hand: bool = False  # K-7.2: the cue ball was placed in the home for this shot
    opening: bool = False  # K-3.4: the break


@dataclass(frozen=True)
class LagState:
    """K-3.1 (and K-11.2): the lag round, each player's result, the winner until he has chosen."""

    round: int = 1
    results: tuple[LagResult | None, LagResult | None] = (None, None)
    winner: str | None = None


@dataclass(frozen=True)
class Shootout:
    """K-11.2 to K-11.4."""

    stage: ShootoutStage = ShootoutStage.SHOOT
    visits: tuple[int, int] = (0, 0)
    sudden_death: bool = False
    answer_by: int | None = None  # K-11.4: the player who gets one visit to answer a pot
    potted: bool = False  # a kaisa was potted in the visit in progress


@dataclass(frozen=True)
class MatchState:
    """One game at one moment. Balls are ``(x, y)`` in metres or None when off the table."""

    phase: Phase
    players: tuple[PlayerState, PlayerState]
    turn: int
    balls: Balls
    ruleset: Ruleset = field(default_factory=Ruleset)
    in_hand: tuple[str, ...] = ()
    visit: Visit = field(default_factory=Visit)
    clock: Clock = field(default_factory=Clock)
    winner: str | None = None
    finish_reason: str | None = None
    lag: LagState = field(default_factory=LagState)
    breaker: str | None = None
    kaisa_spotted_at: Vec2 | None = None  # K-7.4: where the kaisa was spotted off the centre
    extra_visits: tuple[str, ...] = ()  # K-11.1: the cue balls of the extra visits still to come
    shootout: Shootout | None = None
    last_verdict: Mapping[str, Any] | None = None
    moves: int = 0
    timeouts: tuple[int, int] = (0, 0)  # online: consecutive shot-clock expiries per player
    # Team matches: the members of each side in their fixed rotation (``players`` are then the teams:
    # one cue ball and one score each) and, per team, the index of the member who plays its visit in
    # progress or its next one. None for a one-to-one match (a 1 vs 1 match is two teams of one).
    teams: tuple[tuple[str, ...], tuple[str, ...]] | None = None
    at_table: tuple[int, int] = (0, 0)

    # ------------------------------------------------------------------------------------ reading
    @property
    def names(self) -> tuple[str, str]:
        return (self.players[0].name, self.players[1].name)

    @property
    def shooter(self) -> PlayerState:
        return self.players[self.turn]

    def index_of(self, player: object) -> int:
        """The side of ``player`` (a player's name, or in a team match a team's or a member's name);
        RuleError for anyone else."""
        if not isinstance(player, str):
            raise RuleError("unknown_player", "the player must be a name")
        for i, p in enumerate(self.players):
            if p.name == player:
                return i
        team = self.team_of(player)
        if team is not None:
            return team
        raise RuleError("unknown_player", f"{player!r} does not play in this match")

    def team_of(self, member: str) -> int | None:
        """The team a member plays for (None if not a member, or in a one-to-one match)."""
        if self.teams is None:
            return None
        for i, members in enumerate(self.teams):
            if member in members:
                return i
        return None

    def actor(self, side: int) -> str:
        """Who acts for ``side`` now: the player, or in a team match the member whose visit it is or
        comes next (the rotation of :func:`game.engine.rules.phases.flow.next_visit`)."""
        if self.teams is None:
            return self.players[side].name
        return self.teams[side][self.at_table[side]]

    @property
    def member_names(self) -> tuple[str, ...]:
        """Everyone who plays: the two players, or every team member (team 0's first)."""
        if self.teams is None:
            return self.names
        return (*self.teams[0], *self.teams[1])

    def owners(self) -> dict[str, str]:
        """Cue ball id -> its owner's name (the words name a white by its owner)."""
        return {p.cue_ball: p.name for p in self.players if p.cue_ball is not None}

    @property
    def stage(self) -> ShootoutStage | None:
        return self.shootout.stage if self.phase == Phase.SHOOTOUT and self.shootout is not None else None

    # ----------------------------------------------------------------------------------- changing
    def evolve(self, **changes: Any) -> MatchState:
        return dataclasses.replace(self, **changes)

    def with_player(self, index: int, **changes: Any) -> MatchState:
        players = list(self.players)
        players[index] = dataclasses.replace(players[index], **changes)
        return dataclasses.replace(self, players=(players[0], players[1]))

    def with_balls(self, balls: Balls) -> MatchState:
        """New ball positions; the whites off the table are in hand."""
        full = {b: balls.get(b) for b in BALL_IDS}
        return dataclasses.replace(self, balls=full, in_hand=tuple(b for b in CUE_BALL_IDS if full[b] is None))


def r6(value: float) -> float:
    """Positions are kept to the micrometre (so snapshots are short and compare exactly)."""
    return round(float(value), 6) + 0.0


@functools.lru_cache(maxsize=8)
def table_for(ball_diameter: float) -> TableSpec:
    """The table a ruleset plays on (K-1.2 ``ball_diameter`` flag)."""
    return kaisa_table(ball_diameter=ball_diameter)


def table_of(state: MatchState) -> TableSpec:
    return table_for(state.ruleset.ball_diameter)
