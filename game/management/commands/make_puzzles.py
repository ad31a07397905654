"""`python manage.py make_puzzles --matches N`: shot puzzles from the last N finished rated
matches.

Each match is analysed in this process with the pure analysis (game.engine.analysis.analyse_match,
``--samples`` noisy strikes a shot: fewer is faster and rougher) and its puzzles stored by
game.puzzles.services.puzzles_from_analysis, the same service the stored match analysis calls when an
analysis is done. A match that has puzzles already is skipped, so running it twice adds nothing.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from game.engine.analysis import DEFAULT_SAMPLES, analyse_match, played_shots
from game.engine.analysis.puzzles import MIN_GAIN, MIN_SUCCESS
from game.matches.selectors.replays import match_replay_record, replay_shots
from game.models import Match, Puzzle
from game.puzzles.services import puzzles_from_analysis


class Command(BaseCommand):
    help = "Analyse the last N finished rated matches and store their shot puzzles."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--matches", type=int, default=10, help="how many matches, the latest first")
        parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES, help="noisy strikes per shot valued")
        parser.add_argument("--min-success", type=float, default=MIN_SUCCESS, help="the best shot's least success")
        parser.add_argument("--min-gain", type=float, default=MIN_GAIN, help="least expected points over the played")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["matches"] < 1 or options["samples"] < 1:
            raise CommandError("--matches and --samples must be at least 1")
        if not 0.0 <= options["min_success"] <= 1.0 or options["min_gain"] < 0:
            raise CommandError("--min-success is from 0 to 1 and --min-gain at least 0")
        matches = Match.objects.filter(status=Match.Status.FINISHED, rated=True).order_by("-finished_at")
        made = 0
        for match in matches[: options["matches"]]:
            if Puzzle.objects.filter(match=match).exists():
                self.stdout.write(f"match {match.pk}: has its puzzles already")
                continue
            started = time.perf_counter()
            shots = replay_shots(record=match_replay_record(match=match))
            if not shots:
                self.stdout.write(f"match {match.pk}: no shots")
                continue
            analysis = analyse_match(played_shots(shots), samples=options["samples"])
            puzzles = puzzles_from_analysis(
                match, analysis, shots=shots, min_success=options["min_success"], min_gain=options["min_gain"]
            )
            made += len(puzzles)
            self.stdout.write(
                f"match {match.pk}: {len(shots)} shots analysed in {time.perf_counter() - started:.1f} s, "
                f"{len(puzzles)} puzzles"
            )
        self.stdout.write(f"puzzles made: {made}")
