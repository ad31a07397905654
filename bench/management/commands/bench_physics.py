"""``python manage.py bench_physics``: the physics benchmark of ARCHITECTURE.md 6 (a thin wrapper around
``bench.physics``, which also runs without Django as ``python -m bench.physics``)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from bench import physics


class Command(BaseCommand):
    help = "Time the physics over a fixed seeded set of Kaisa shots (median, p95, max ms; events per shot)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--shots", type=int, default=physics.DEFAULT_SHOTS)
        parser.add_argument("--seed", type=int, default=physics.DEFAULT_SEED)

    def handle(self, *args: Any, **options: Any) -> None:
        physics.run(options["shots"], options["seed"], out=self.stdout)
