"""`python manage.py bot_ladder --matches N --seed S`: each computer level against the next one up.

A benchmark, not a test: it prints figures. Every pair of neighbouring levels plays N
matches on the engine alone through the one bot match loop (:func:`game.engine.bot.play.play_match`,
``bot_match``'s too), match i on seed S + i, the seats and the break alternating (the higher level
breaks in the even matches whoever wins the lag, K-3.2). Per level it prints the win rate, points per
visit (points minus penalties, K-8.1), pot rate (shots whose call scored) and fouls per visit, over all
the matches it played, with its shots, visits and K-7.2 replays (shots from hand played again), and
in which of its own visits it first made a call (the median over its matches: how soon a game
against it sees a pot); the last lines read ``level K over level K-1: W% of N matches``, one per pair.

The levels search within their time budgets, so the figures depend a little on the host's speed: the
host's timeit is printed before and after them. ``--target`` and ``--max-moves`` shorten the matches (a capped
match is decided on points); ``--levels`` and ``--budget`` make a quick run (the test's).
"""

from __future__ import annotations

import itertools
import statistics
import time
from collections import defaultdict
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from bench.management.commands.bench_analysis import TIMEIT_STATEMENT, host_speed_ms
from game.engine.bot.levels import LEVELS
from game.engine.bot.play import LevelStats, play_match


def ladder_line(higher: int, lower: int, wins: int, matches: int) -> str:
    """The contract line of one pair of levels."""
    percent = round(100 * wins / matches) if matches else 0
    return f"level {higher} over level {lower}: {percent}% of {matches} matches"


def _first_pot(stats: LevelStats, level: int) -> str:
    """The median visit of a level's first made call ("visit 3"), with the matches it made none in."""
    firsts = stats.first_pots[level]
    median = f"{statistics.median(firsts):g}" if firsts else "-"
    return median if not stats.no_pot[level] else f"{median} ({stats.no_pot[level]} none)"


class Command(BaseCommand):
    help = "Play each computer level against the next one up and print the ladder."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--matches", type=int, default=20, help="matches per pair of levels (default 20)")
        parser.add_argument("--seed", type=int, default=1, help="match i of every pair plays on seed + i")
        parser.add_argument("--levels", type=int, nargs="+", choices=LEVELS, default=list(LEVELS))
        parser.add_argument("--target", type=int, default=60, help="winning score (K-9.1 is 60)")
        parser.add_argument("--max-moves", type=int, default=400, help="cap per match, decided on points")
        parser.add_argument("--budget", type=float, default=None, help="search seconds per move for every level")

    def handle(self, *args: Any, **options: Any) -> None:
        levels = sorted(set(options["levels"]))
        matches = options["matches"]
        if len(levels) < 2:
            raise CommandError("the ladder needs at least two levels")
        if matches < 1:
            raise CommandError("--matches must be at least 1")
        stats = LevelStats()
        played: dict[int, int] = defaultdict(int)
        won: dict[int, int] = defaultdict(int)
        pairs: list[tuple[int, int, int]] = []
        capped = 0
        self.stdout.write(f"host: timeit {TIMEIT_STATEMENT}: {host_speed_ms():.0f} ms (best of 5)")
        started = time.perf_counter()
        for lower, higher in itertools.pairwise(levels):
            high, low = f"level{higher}", f"level{lower}"
            wins = 0
            for index in range(matches):
                seats = (high, low) if index % 2 == 0 else (low, high)
                result = play_match(
                    {high: higher, low: lower},
                    seats,
                    target=options["target"],
                    max_moves=options["max_moves"],
                    seed=options["seed"] + index,
                    stats=stats,
                    breaker=high if index % 2 == 0 else low,
                    budget=options["budget"],
                )
                capped += result.capped
                played[higher] += 1
                played[lower] += 1
                if result.winner is not None:
                    won[higher if result.winner == high else lower] += 1
                wins += result.winner == high
                self.stdout.write(
                    f"{high} - {low} match {index + 1}: {result.scores[high]} - {result.scores[low]}"
                    f"{' (capped)' if result.capped else ''}"
                )
            pairs.append((higher, lower, wins))
        elapsed = time.perf_counter() - started
        self.stdout.write(f"host after: timeit {TIMEIT_STATEMENT}: {host_speed_ms():.0f} ms (best of 5)")
        self.stdout.write("")
        self.stdout.write(
            f"Ladder of levels {', '.join(map(str, levels))}: {matches} matches a pair to {options['target']}, "
            f"cap {options['max_moves']} moves, seed {options['seed']}, "
            f"budget {'per level' if options['budget'] is None else options['budget']}, "
            f"{capped} capped, {elapsed:.0f} s"
        )
        self.stdout.write(
            f"{'level':>5} {'matches':>7} {'win %':>6} {'pts/visit':>9} {'pot %':>6} {'fouls/visit':>11} "
            f"{'shots':>6} {'visits':>6} {'replays':>7} {'think p50':>9} {'1st pot':>11}"
        )
        for level in levels:
            shots = stats.shots[level] or 1
            visits = stats.visits[level] or 1
            self.stdout.write(
                f"{level:>5} {played[level]:>7} {100 * won[level] / (played[level] or 1):>5.0f}% "
                f"{stats.points[level] / visits:>9.2f} {100 * stats.pots[level] / shots:>5.1f}% "
                f"{stats.fouls[level] / visits:>11.2f} {stats.shots[level]:>6} {stats.visits[level]:>6} "
                f"{stats.replays[level]:>7} "
                f"{statistics.median(stats.times[level] or [0.0]):>8.2f}s "
                f"{_first_pot(stats, level):>11}"
            )
        for higher, lower, wins in pairs:
            self.stdout.write(ladder_line(higher, lower, wins, matches))
