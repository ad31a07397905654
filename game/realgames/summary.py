"""What one real game says about its players, read from the scorer's state alone (no Django): each
player's runs (the points of each visit; KaisaKaavio's "pisimmät sarjat" are the two longest), points
per visit, fouls, and the whites left in hand for the coach.

The state is the engine's real-table state as stored on the game (game/engine/rules/real_table.py
``RealState.as_dict``): ``players`` with their score, start score, visits, highest run and fouls, and
``shots``, every tap applied in order with its verdict (``player``, ``points``, ``penalty``,
``turn_passes``, ``wins``, ``foul``). A run is what one visit made, as the engine counts it
(:func:`game.engine.rules.real_table.visit_runs`, the runs the draw's pairing keeps too); only runs above
0 are runs here, as the program counts them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from game.engine.rules.real_table import CUES, RealState, visit_runs

#: The fouls that leave the shooter's own white off the table until his next visit (K-7.1).
CUE_BALL_OFF = frozenset({"cue_ball_pocketed", "cue_ball_off_table"})


@dataclass(frozen=True)
class PlayerSummary:
    """One player's game: ``points`` scored in it (the score less the start score), ``runs`` longest
    first (each above 0)."""

    name: str
    score: int
    handicap: int
    visits: int
    fouls: int
    runs: tuple[int, ...]

    @property
    def points(self) -> int:
        return self.score - self.handicap

    @property
    def highest_run(self) -> int:
        return self.runs[0] if self.runs else 0

    @property
    def second_run(self) -> int | None:
        return self.runs[1] if len(self.runs) > 1 else None

    @property
    def points_per_visit(self) -> float | None:
        return round(self.points / self.visits, 2) if self.visits else None


@dataclass(frozen=True)
class GameSummary:
    players: tuple[PlayerSummary, PlayerSummary]
    #: The seat that won (None: not decided).
    winner: int | None


def _int(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _verdicts(state: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    shots = state.get("shots")
    if not isinstance(shots, Sequence):
        return []
    verdicts = [s.get("verdict") for s in shots if isinstance(s, Mapping)]
    return [v for v in verdicts if isinstance(v, Mapping) and v.get("player") in (0, 1)]


def game_summary(state: Mapping[str, Any]) -> GameSummary | None:
    """The game's summary, or None for a state that holds no two players (a game not set up)."""
    players = state.get("players")
    if not isinstance(players, Sequence) or len(players) != 2 or not all(isinstance(p, Mapping) for p in players):
        return None
    try:
        runs = visit_runs(RealState.from_dict(state))
    except (KeyError, TypeError, ValueError):
        return None
    summaries = tuple(
        PlayerSummary(
            name=str(p.get("name", "")),
            score=_int(p.get("score")),
            handicap=_int(p.get("handicap")),
            visits=_int(p.get("visits")),
            fouls=_int(p.get("fouls")),
            runs=tuple(r for r in runs[seat] if r > 0),
        )
        for seat, p in enumerate(players)
    )
    winner = state.get("winner")
    return GameSummary(players=(summaries[0], summaries[1]), winner=winner if winner in (0, 1) else None)


def whites_in_hand(state: Mapping[str, Any]) -> frozenset[str]:
    """The whites off the table now: a player whose last shot pocketed his own white (or put it off the
    table) places it in the home at the start of his next visit (K-7.1)."""
    last: dict[int, Mapping[str, Any]] = {}
    for verdict in _verdicts(state):
        last[int(verdict["player"])] = verdict
    return frozenset(CUES[seat] for seat, verdict in last.items() if verdict.get("foul") in CUE_BALL_OFF)


def turn_of(state: Mapping[str, Any]) -> int:
    turn = state.get("turn")
    return turn if turn in (0, 1) else 0
