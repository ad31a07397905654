"""`python manage.py starter_puzzles`: (developers) make the starter puzzles a fresh install offers.

Plays seeded computer matches on the engine alone (game.engine.analysis.sample, every search bounded by
its counts, so the same seeds give the same shots on any machine), analyses every shot as the server
analyses a stored match, keeps the puzzles those analyses make (game.engine.analysis.puzzles: a robust
best shot worth clearly more than the one played) and writes them to game/puzzles/starter_puzzles.json,
which the site loads when it has no puzzle of its own (game.puzzles.services.puzzles_starter_ensure).

Run it again after a change to the physics or the rules: tests/puzzles check that every shipped puzzle
is still solved by its own best shot. About 30 s a match of 40 shots on a small machine.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from game.engine import ENGINE_VERSION
from game.engine.analysis.puzzles import puzzle_candidates
from game.engine.analysis.report import analyse_played
from game.engine.analysis.sample import sample_match
from game.puzzles.services import STARTER_FILE


def starter_set(seeds: list[int], shots: int, levels: tuple[int, int], wanted: int) -> list[dict[str, Any]]:
    """The puzzles of the computer matches on ``seeds`` (``shots`` shots each, ``levels`` playing), in
    order, at most ``wanted`` and no two of the same position."""
    found: list[dict[str, Any]] = []
    seen: set[str] = set()
    for seed in seeds:
        played = sample_match(seed=seed, shots=shots, levels=levels)
        analyses = [analyse_played(shot).as_dict() for shot in played]
        records = [{"snapshot": s.snapshot, "player": s.player, "call": s.call, "strike": s.strike} for s in played]
        for candidate in puzzle_candidates(records, analyses):
            key = json.dumps(candidate.snapshot["balls"], sort_keys=True)
            if key in seen:
                continue
            seen.add(key)
            found.append({**candidate.as_dict(), "source": {"seed": seed, "levels": list(levels)}})
            if len(found) >= wanted:
                return found
    return found


class Command(BaseCommand):
    help = "Make the starter puzzles from seeded computer matches and write them for the site to ship."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--seeds", type=int, nargs="+", default=[101, 102, 103, 104], help="one match a seed")
        parser.add_argument("--shots", type=int, default=40, help="shots analysed a match")
        parser.add_argument("--levels", type=int, nargs=2, default=[1, 2], help="the two computer levels")
        parser.add_argument("--puzzles", type=int, default=12, help="at most this many puzzles")
        parser.add_argument("--out", type=Path, default=STARTER_FILE)

    def handle(self, *args: Any, **options: Any) -> None:
        if options["puzzles"] < 1:
            raise CommandError("--puzzles must be at least 1")
        started = time.perf_counter()
        levels = (options["levels"][0], options["levels"][1])
        puzzles = starter_set(options["seeds"], options["shots"], levels, options["puzzles"])
        document = {
            "about": "Starter puzzles: made by `python manage.py starter_puzzles` from seeded computer matches.",
            "engine": ENGINE_VERSION,
            "puzzles": puzzles,
        }
        options["out"].write_text(json.dumps(document, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        self.stdout.write(
            f"{len(puzzles)} puzzles from seeds {options['seeds']} written to {options['out']} "
            f"in {time.perf_counter() - started:.0f} s"
        )
