"""Bot against bot on the engine alone, from the lag to the end: the one match loop of the benchmark
commands (``bot_match``, ``bot_ladder``) and of the analysis's sample match.

No server and no database: each move is :func:`~game.engine.bot.choose_move` on the snapshot, played
with :func:`~game.engine.bot.apply_move`. A whole game to 60 between bots that miss a lot is long, so
``target`` lowers the winning score and ``max_moves`` caps a match (a capped match is decided on points
and says so). The levels' searches stop at their time budgets, so the same seed gives the same match
only with a ``budget`` of ``math.inf`` (the search is then bounded by its counts alone).
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from game.engine.bot import apply_move, choose_move
from game.engine.rules import Match, Ruleset

#: Seeds of successive moves of one match: ``seed * MOVE_SEED_STRIDE + move number`` (bot_match's
#: numbers, kept so its figures stay comparable across the move of this loop).
MOVE_SEED_STRIDE = 100_003

#: Called after every shot with the snapshot before it, the shooter, the move and the outcome.
ShotHook = Callable[[Mapping[str, Any], str, Mapping[str, Any], Any], None]
#: Called after every move (lag, break choice, placement, shot) with the same four; what a stored
#: match's input record is made of (game.engine.analysis.sample.sample_record).
MoveHook = ShotHook


@dataclass
class LevelStats:
    """What the levels did over the matches one ``LevelStats`` was passed to, keyed by level.

    A **visit** (K-6.1) starts with a level's first shot of a match and with every shot after its
    own shot that passed the turn or was the opponent's; ``fouls`` counts shots with a penalty (K-8.1),
    ``replays`` the shots from hand the rules had played again (K-7.2: the cue ball did not cross the
    home line; they count as shots of the same visit) and ``points`` the points scored minus the
    penalties. ``first_pots`` holds, per match a level played, the number of its own visit in which
    it first made a call (how soon a game against it sees a pot); a match where it made none adds
    nothing, ``no_pot`` counts those.
    """

    shots: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    visits: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    pots: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    fouls: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    replays: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    points: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    times: dict[int, list[float]] = field(default_factory=lambda: defaultdict(list))
    first_pots: dict[int, list[int]] = field(default_factory=lambda: defaultdict(list))
    no_pot: dict[int, int] = field(default_factory=lambda: defaultdict(int))


@dataclass(frozen=True)
class MatchResult:
    """How one bot match ended: the winner (None on equal points at the cap), scores, and whether capped."""

    winner: str | None
    scores: dict[str, int]
    capped: bool


def play_match(
    levels: Mapping[str, int],
    seats: tuple[str, str],
    *,
    target: int,
    max_moves: int,
    seed: int,
    stats: LevelStats | None = None,
    breaker: str | None = None,
    budget: float | None = None,
    on_shot: ShotHook | None = None,
    max_shots: int | None = None,
    on_move: MoveHook | None = None,
) -> MatchResult:
    """One bot-against-bot match: ``levels`` maps each seat's name to its level, ``seats`` is the join
    order (the lag sides, K-3.1). ``breaker`` decides the K-3.2 choice (the lag winner breaks only if
    it is the breaker), so a series can alternate the break whoever wins the lag; None lets the lag
    winner break. ``budget`` overrides every level's search time; ``max_shots`` caps the shots like
    ``max_moves`` caps the moves; ``on_shot`` sees every shot, ``on_move`` every move."""
    match = Match.new(players=seats, ruleset=Ruleset(target_score=target))
    last_shooter: str | None = None
    visit_open = False
    shots = 0
    own_visits = dict.fromkeys(seats, 0)
    first_pot: dict[str, int] = {}
    for move_number in range(max_moves):
        if max_shots is not None and shots >= max_shots:
            break
        pending = match.pending()
        if not pending:
            _note_first_pots(stats, levels, seats, first_pot)
            return MatchResult(match.winner, match.scores, False)
        player, action = pending[0]
        snapshot = match.snapshot()
        started = time.perf_counter()
        move = choose_move(
            snapshot, levels[player], player=player, seed=seed * MOVE_SEED_STRIDE + move_number, budget=budget
        )
        elapsed = time.perf_counter() - started
        if action == "choose_break" and breaker is not None:
            move = {**move, "take": player == breaker}
        outcome = apply_move(match, move)
        if on_move is not None:
            on_move(snapshot, player, move, outcome)
        if action != "shoot":
            continue
        shots += 1
        verdict = outcome.verdict
        new_visit = not (visit_open and last_shooter == player)
        own_visits[player] += new_visit
        if verdict.get("scored") and player not in first_pot:
            first_pot[player] = own_visits[player]
        if stats is not None:
            level = levels[player]
            stats.visits[level] += new_visit
            stats.times[level].append(elapsed)
            stats.shots[level] += 1
            stats.pots[level] += bool(verdict.get("scored"))
            stats.fouls[level] += bool(verdict.get("penalty"))
            stats.replays[level] += bool(verdict.get("replay"))
            stats.points[level] += int(verdict.get("points", 0)) - int(verdict.get("penalty", 0))
        last_shooter, visit_open = player, not verdict.get("turn_passes", True)
        if on_shot is not None:
            on_shot(snapshot, player, move, outcome)
    _note_first_pots(stats, levels, seats, first_pot)
    scores = match.scores
    names = list(scores)
    if scores[names[0]] == scores[names[1]]:
        return MatchResult(None, scores, True)
    return MatchResult(max(names, key=lambda n: scores[n]), scores, True)


def _note_first_pots(
    stats: LevelStats | None, levels: Mapping[str, int], seats: tuple[str, str], first_pot: Mapping[str, int]
) -> None:
    """Each seat's first made call of one finished match into ``stats``."""
    if stats is None:
        return
    for seat in seats:
        if seat in first_pot:
            stats.first_pots[levels[seat]].append(first_pot[seat])
        else:
            stats.no_pot[levels[seat]] += 1
