"""`python manage.py bench_inputs`: what one player input costs the database thread, by kind.

A benchmark, not a test: it prints figures. It plays ``--matches`` matches between guests through the
service the consumer calls (`match_input`: lag, break choice, placement, shot), the moves from
`quick_move` as the load client plays them, up to ``--inputs`` inputs each, on the configured database
(PostgreSQL for figures that mean anything), and prints per kind of input: the count, the statements
per input, and the wall and CPU time (this thread's, so the figure is the GIL time the input takes from
a daphne process's event loop) at p50 / p95, and the database server's CPU for it when PostgreSQL runs on
this machine (its backend process's run time, read from /proc: the other half of an input's cost on a
shared host, which no figure of this process shows). The capacity figures of docs/benchmarks.md read
their "per input" costs from here: the load benchmark only shows their sum, queued behind each other.
"""

from __future__ import annotations

import statistics
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import connection

from game.accounts.services import guest_create
from game.engine.bot import quick_move
from game.engine.bot.levels import NoMoveError
from game.matches import bot_runner
from game.matches import services as match_services
from game.matches.selectors.match_state import engine_names
from game.matches.services.lifecycle import match_create, match_join


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))]


def backend_cpu_reader() -> Callable[[], float] | None:
    """A reader of this connection's PostgreSQL backend's CPU seconds (Linux's schedstat of its
    process, nanosecond-grained), or None when the database is not a local PostgreSQL."""
    if connection.vendor != "postgresql":
        return None
    connection.ensure_connection()
    pid = connection.connection.info.backend_pid
    path = Path(f"/proc/{pid}/schedstat")

    def read() -> float:
        return int(path.read_text().split()[0]) / 1e9

    try:
        read()
    except (OSError, ValueError, IndexError):
        return None  # a database on another host, or a /proc this user may not read
    return read


def service_call(move: dict[str, Any], match_id: str, user: Any, ack: int, version: int) -> Any:
    """The service the consumer would call for `move` (match_input, with the typed input its frame parses to)."""
    message = bot_runner.move_input(move, version=version, ack=ack)
    return match_services.match_input(match_id=match_id, user=user, message=message)


class Command(BaseCommand):
    help = "Play inputs through the match services and print their cost per kind (statements, wall, CPU)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--matches", type=int, default=10)
        parser.add_argument("--inputs", type=int, default=40, help="inputs per match at most")
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args: Any, **options: Any) -> None:
        wall: dict[str, list[float]] = defaultdict(list)
        cpu: dict[str, list[float]] = defaultdict(list)
        statements: dict[str, list[int]] = defaultdict(list)
        database_cpu: dict[str, list[float]] = defaultdict(list)
        counter = {"n": 0}

        def count(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
            counter["n"] += 1
            return execute(sql, params, many, context)

        for index in range(options["matches"]):
            first, second = guest_create(), guest_create()
            match, _ = match_create(user=first, rated=False, time_limit=None, shot_clock=None)
            match_join(match_id=match.pk, user=second)
            match.refresh_from_db()
            users = dict(zip(engine_names(match), (first, second), strict=True))
            backend = backend_cpu_reader()  # read again per match: the pool may hand another connection
            ack = 0
            for number in range(options["inputs"]):
                match.refresh_from_db(fields=["snapshot", "version", "status"])
                if match.status != match.Status.ACTIVE:
                    break
                try:
                    move = quick_move(match.snapshot, seed=options["seed"] * 1_000_003 + index * 1000 + number)
                except NoMoveError:
                    break
                ack += 1
                user = users[move["player"]]
                counter["n"] = 0
                started_database = backend() if backend is not None else 0.0
                started, started_cpu = time.perf_counter(), time.thread_time()
                with connection.execute_wrapper(count):
                    service_call(move, match.pk, user, ack, match.version)
                wall[move["action"]].append(time.perf_counter() - started)
                cpu[move["action"]].append(time.thread_time() - started_cpu)
                if backend is not None:
                    database_cpu[move["action"]].append(backend() - started_database)
                statements[move["action"]].append(counter["n"])
        out = self.stdout.write
        out(
            f"bench_inputs: {options['matches']} matches, up to {options['inputs']} inputs each, on {connection.vendor}"
        )
        heads = ("wall p50", "wall p95", "cpu p50", "cpu p95", "db p50", "db mean")
        out(f"{'input':<14}{'n':>6}{'statements':>12}" + "".join(f"{head:>10}" for head in heads) + "  (ms)")
        for kind in ("lag", "choose_break", "place", "shoot"):
            if not wall[kind]:
                continue
            out(
                f"{kind:<14}{len(wall[kind]):>6}{statistics.mean(statements[kind]):>12.1f}"
                + "".join(
                    f"{1000 * percentile(values, q):>10.2f}" for values in (wall[kind], cpu[kind]) for q in (50, 95)
                )
                + (
                    f"{1000 * percentile(db, 50):>10.2f}{1000 * statistics.mean(db):>10.2f}"
                    if (db := database_cpu[kind])
                    else f"{'-':>10}{'-':>10}"
                )
            )
