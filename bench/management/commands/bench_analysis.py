"""`python manage.py bench_analysis`: the shot analysis of a fixed 40-shot match, timed.

A benchmark, not a test: it prints figures. The match is made inside the command, without a database:
the first 40 shots of a bot match (levels 2 and 3) from a fixed seed, every search bounded by its
counts (:func:`game.engine.analysis.sample_record`), so it is the same match on every machine, kept as
a stored match keeps it: its input record. Then it is analysed the way the server analyses a stored
match (:func:`game.matches.analysis_runner.analyse_record`, the code the server runs): the positions
replayed from the record, then one job a shot in the engine pool with **one** worker (the issue's bar:
60 s with one worker of the computer player's pool), each job the shot's analysis and the best shot's
exact motion. Only the database writes and the socket messages of the progress are left out (a few
milliseconds a shot). The last line reads ``analysis: N shots in S s``. The host's speed is printed
before and after it (the statement of ``python -m timeit "sum(i*i for i in range(10**6))"``), since the
figure is wall time on a host that may be shared.
"""

from __future__ import annotations

import asyncio
import time
import timeit
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.test.utils import override_settings

from game.common.engine_pool import engine_pool_close, engine_workers, run_in_engine_pool
from game.engine.analysis import ANALYSIS_SIMULATIONS, DEFAULT_SAMPLES, STROKE_NOISE, played_shots
from game.engine.analysis.sample import SAMPLE_SEED, SAMPLE_SHOTS, sample_record
from game.matches.analysis_runner import analyse_record

#: The host speed probe, as docs/benchmarks.md states it with every figure.
TIMEIT_STATEMENT = "sum(i*i for i in range(10**6))"
#: Longest wait for the pool's worker to start (s).
START_TIMEOUT = 60.0


def host_speed_ms() -> float:
    """Best of 5 single runs of :data:`TIMEIT_STATEMENT`, in ms (``python -m timeit``'s figure)."""
    return 1000 * min(timeit.repeat(TIMEIT_STATEMENT, number=1, repeat=5))


class Command(BaseCommand):
    help = "Analyse a fixed bot-played match shot by shot, as the server does, and print the time it took."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--shots", type=int, default=SAMPLE_SHOTS, help="shots of the match (default 40)")
        parser.add_argument("--seed", type=int, default=SAMPLE_SEED, help="seed of the bot match")
        parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES, help="noisy strikes per shot valued")
        parser.add_argument(
            "--simulations",
            type=int,
            default=ANALYSIS_SIMULATIONS,
            help=f"the best-shot search's budget in simulations (default {ANALYSIS_SIMULATIONS}, the server's)",
        )
        parser.add_argument("--progress", action="store_true", help="print shot k of N as it goes")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["shots"] < 1 or options["samples"] < 1 or options["simulations"] < 1:
            raise CommandError("--shots, --samples and --simulations must be at least 1")
        self.stdout.write(f"host: timeit {TIMEIT_STATEMENT}: {host_speed_ms():.0f} ms (best of 5)")
        started = time.perf_counter()
        record = sample_record(options["seed"], options["shots"])
        shots = sum(entry["kind"] == "shoot" for entry in record["inputs"])
        self.stdout.write(
            f"match: {shots} shots ({len(record['inputs'])} inputs) played by the bots (seed {options['seed']}) "
            f"in {time.perf_counter() - started:.1f} s"
        )
        self.stdout.write(
            f"noise: {STROKE_NOISE.describe()}; {options['samples']} samples a strike, "
            f"a search of {options['simulations']} simulations"
        )
        # One worker, as the bar says: a pool already made with another count is closed first, and the
        # command's own is closed after it (the setting back as it was).
        engine_pool_close()
        try:
            with override_settings(KAIZA_BOT_WORKERS=1):
                elapsed, report = asyncio.run(self._analyse(record, options))
        finally:
            engine_pool_close()
        for player in report["players"]:
            self.stdout.write(
                f"{player['player']}: {player['shots']} shots, {player['expected_points_per_shot']:.2f} expected "
                f"points a shot, {player['points_lost']:.1f} points lost, accuracy {player['accuracy']:.0%} "
                f"(within {report['accuracy_margin']:g} of the best)"
            )
        motions = sum(isinstance(shot.get("best_motion"), dict) for shot in report["shots"])
        self.stdout.write(f"motions: {motions} of {len(report['shots'])} best shots played exactly")
        self.stdout.write(f"host after: timeit {TIMEIT_STATEMENT}: {host_speed_ms():.0f} ms (best of 5)")
        self.stdout.write(f"analysis: {len(report['shots'])} shots in {elapsed:.1f} s")

    async def _analyse(self, record: dict[str, Any], options: dict[str, Any]) -> tuple[float, dict[str, Any]]:
        """The worker started (and the engine imported in it) before the clock starts, as in a server
        whose pool has run a bot's move or an earlier analysis; then the server's analysis, timed."""
        started = time.perf_counter()
        await run_in_engine_pool(played_shots, [], timeout=START_TIMEOUT)
        self.stdout.write(
            f"pool: {engine_workers()} worker, started in {time.perf_counter() - started:.1f} s (not counted)"
        )
        started = time.perf_counter()

        async def progress(done: int, total: int) -> None:
            if options["progress"] and done:
                self.stdout.write(f"shot {done} of {total} ({time.perf_counter() - started:.1f} s)")

        report, _shots = await analyse_record(
            record,
            list(record["new"]["players"]),
            samples=options["samples"],
            simulations=options["simulations"],
            progress=progress,
        )
        return time.perf_counter() - started, report
