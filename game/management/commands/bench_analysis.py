"""`python manage.py bench_analysis`: the shot analysis of a fixed 40-shot match, timed (issue 29).

A benchmark, not a test: it prints figures. The match is made inside the command, without a database:
the first 40 shots of a bot match (levels 2 and 3) from a fixed seed, every search bounded by its
counts (:func:`game.engine.analysis.sample_match`), so it is the same match on every machine. Then
every shot is analysed in this one process (one worker's work, as the computer player's pool would do
it), and the last line reads ``analysis: N shots in S s``. The host's speed is printed with it (the same
statement as ``python -m timeit "sum(i*i for i in range(10**6))"``), since the figure is wall time.
"""

from __future__ import annotations

import time
import timeit
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from game.engine.analysis import DEFAULT_SAMPLES, STROKE_NOISE, analyse_match, sample_match
from game.engine.analysis.sample import SAMPLE_SEED, SAMPLE_SHOTS

#: The host speed probe, the statement of the README's timeit figure.
TIMEIT_STATEMENT = "sum(i*i for i in range(10**6))"


def host_speed_ms() -> float:
    """Best of 5 single runs of :data:`TIMEIT_STATEMENT`, in ms (``python -m timeit``'s figure)."""
    return 1000 * min(timeit.repeat(TIMEIT_STATEMENT, number=1, repeat=5))


class Command(BaseCommand):
    help = "Analyse a fixed bot-played match shot by shot and print the time it took."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--shots", type=int, default=SAMPLE_SHOTS, help="shots of the match (default 40)")
        parser.add_argument("--seed", type=int, default=SAMPLE_SEED, help="seed of the bot match")
        parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES, help="noisy strikes per shot valued")
        parser.add_argument("--progress", action="store_true", help="print shot k of N as it goes")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["shots"] < 1 or options["samples"] < 1:
            raise CommandError("--shots and --samples must be at least 1")
        self.stdout.write(f"host: timeit {TIMEIT_STATEMENT}: {host_speed_ms():.0f} ms (best of 5)")
        started = time.perf_counter()
        shots = sample_match(options["seed"], options["shots"])
        self.stdout.write(
            f"match: {len(shots)} shots played by the bots (seed {options['seed']}) in "
            f"{time.perf_counter() - started:.1f} s"
        )
        self.stdout.write(f"noise: {STROKE_NOISE.describe()}; {options['samples']} samples a strike")

        def progress(done: int, total: int) -> None:
            if options["progress"]:
                self.stdout.write(f"shot {done} of {total}")

        started = time.perf_counter()
        analysis = analyse_match(shots, progress=progress, samples=options["samples"])
        elapsed = time.perf_counter() - started
        for player in analysis.players:
            self.stdout.write(
                f"{player.player}: {player.shots} shots, {player.expected_points_per_shot:.2f} expected points "
                f"a shot, {player.points_lost:.1f} points lost, accuracy {player.accuracy:.0%} "
                f"(within {analysis.accuracy_margin:g} of the best)"
            )
        self.stdout.write(f"analysis: {len(shots)} shots in {elapsed:.1f} s")
