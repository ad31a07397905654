"""`python manage.py bot_match`: the bot level sanity table (level A against level B over N matches).

A benchmark, not a test: it prints figures. Matches are played on the engine alone (no server, no
database) from the lag to the end by :func:`game.engine.bot.play.play_match` (``bot_ladder``'s loop
too), each bot seated first in half of them so the lag side does not favour one level. A full game to
60 between bots that miss a lot is long, so ``--target`` lowers the winning score and ``--max-moves``
caps a match (a capped match is decided on points and counted as such); both are printed with the
table so the figures say what they measured.
"""

from __future__ import annotations

import statistics
import time
from collections import defaultdict
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from game.engine.bot.levels import LEVELS
from game.engine.bot.play import LevelStats, play_match


class Command(BaseCommand):
    help = "Play bot level A against bot level B on the engine and print the sanity table."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--strong", type=int, default=5, choices=LEVELS, help="first level (default 5)")
        parser.add_argument("--weak", type=int, default=1, choices=LEVELS, help="second level (default 1)")
        parser.add_argument("--matches", type=int, default=20)
        parser.add_argument("--target", type=int, default=60, help="winning score (K-9.1 is 60)")
        parser.add_argument("--max-moves", type=int, default=400, help="cap per match, decided on points")
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args: Any, **options: Any) -> None:
        strong, weak = options["strong"], options["weak"]
        names = {strong: f"level{strong}", weak: f"level{weak}"}
        if strong == weak:
            names = {strong: f"level{strong}"}
        stats = LevelStats()
        wins: dict[int, int] = defaultdict(int)
        capped = draws = 0
        margins: list[int] = []
        started = time.perf_counter()
        for index in range(options["matches"]):
            a, b = (f"A:{names[strong]}", f"B:{names.get(weak, names[strong])}")
            levels = {a: strong, b: weak}
            seats = (a, b) if index % 2 == 0 else (b, a)
            result = play_match(
                levels,
                seats,
                target=options["target"],
                max_moves=options["max_moves"],
                seed=options["seed"] + index,
                stats=stats,
            )
            winner, scores, was_capped = result.winner, result.scores, result.capped
            capped += was_capped
            if winner is None:
                draws += 1
            else:
                wins[levels[winner]] += 1 if strong != weak else 0
                if strong == weak:
                    wins[strong] += winner == a
            margins.append(scores[a] - scores[b])
            self.stdout.write(
                f"match {index + 1:2d}: {a} {scores[a]:3d} - {scores[b]:3d} {b}{' (capped)' if was_capped else ''}"
            )
        elapsed = time.perf_counter() - started
        self.stdout.write("")
        self.stdout.write(
            f"Level {strong} vs level {weak}: {options['matches']} matches to {options['target']}, "
            f"cap {options['max_moves']} moves, seed {options['seed']}, {elapsed:.0f} s"
        )
        self.stdout.write(
            f"{'level':>5} {'wins':>5} {'shots':>6} {'pot %':>6} {'fouls':>6} {'pts/shot':>9} "
            f"{'think p50':>10} {'think max':>10}"
        )
        for level in sorted({strong, weak}, reverse=True):
            times = stats.times[level] or [0.0]
            shots = stats.shots[level] or 1
            self.stdout.write(
                f"{level:>5} {wins[level]:>5} {stats.shots[level]:>6} "
                f"{100 * stats.pots[level] / shots:>5.1f}% {stats.fouls[level]:>6} "
                f"{stats.points[level] / shots:>9.2f} {statistics.median(times):>9.2f}s {max(times):>9.2f}s"
            )
        self.stdout.write(f"draws {draws}, capped {capped}, mean margin (A - B) {statistics.mean(margins):+.1f}")
