"""`python manage.py bench_engine_pool`: the computer's moves and a newcomer's question during a flood
of "Ask the engine".

A benchmark, not a test: it prints figures. The flood is the one an attacker tried against a
production-like server: 30 addresses (as behind a proxy) asking 600 different practice positions,
each address at the limit per minute (``practice_ask``, 20 a minute: one question every 3 s), a
refused question asked again at its next turn. Every question goes through the server's own HTTP path
in this process (Django's ASGI handler: the middleware, the rate limits, the practice view, the engine
pool's admission and queue), from its own client address. Meanwhile a live match's computer player
makes its moves one after another, through the computer player's own search call
(`game.matches.bot_runner.think`, the only part of a bot's turn that uses the pool), on positions of a
fixed bot match; and from ``--newcomer-at`` s on, a new person (an address and a position never seen)
asks a question every ``--newcomer-every`` s. Printed: the bot's move time before the flood and during
it, and apart from the search what a move waits for a worker (a move's job that does no work, after
each move: the search itself shares the cores with the flood's questions), each newcomer's wait and
answer, what the flood got, and the host's speed (``python -m timeit``'s statement) before and after.
The bar: the moves keep their time, a newcomer is answered or refused within 5 s.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import random
import statistics
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

from django.core.asgi import get_asgi_application
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.test.utils import override_settings
from django.utils.crypto import get_random_string

from bench.management.commands.bench_analysis import TIMEIT_STATEMENT, host_speed_ms
from game.common.engine_pool import (
    Urgency,
    ask_queue_limit,
    engine_pool_close,
    engine_scheduler,
    engine_workers,
    run_in_engine_pool,
)
from game.engine.analysis import played_shots
from game.engine.analysis.expected import position_match
from game.engine.analysis.sample import SAMPLE_SEED, sample_record
from game.engine.balls import BALL_IDS
from game.engine.replay import record_shots
from game.engine.table import kaisa_table
from game.matches.bot_runner import seed_for, think
from game.practice.selectors.positions import position_code, read_position
from game.site.selectors.engine_board import forget_answers

ASK_PATH = "/practice/ask/"
#: Longest wait for one request or move (s): a failure's guard, far beyond any figure the bench prints.
STUCK = 120.0


async def asgi_post(
    app: Any, path: str, payload: object, *, address: str, headers: Sequence[tuple[str, str]] = ()
) -> tuple[int, dict[str, Any]]:
    """One JSON POST through the ASGI application from ``address`` (the scope's client, which daphne
    sets from the proxy's forwarded address): (status, the JSON answer). A CSRF cookie and its token
    go with it, as the practice page sends them."""
    body = json.dumps(payload).encode()
    token = get_random_string(32)
    cookies = [f"csrftoken={token}", *(value for name, value in headers if name == "cookie")]
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "client": (address, 40000),
        "server": ("testserver", 80),
        "headers": [
            (b"host", b"testserver"),
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"x-csrftoken", token.encode()),
            (b"cookie", "; ".join(cookies).encode()),
            *((name.encode(), value.encode()) for name, value in headers if name != "cookie"),
        ],
    }
    given = False
    never: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()

    async def receive() -> dict[str, Any]:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await never  # the client stays connected; Django stops listening once it has answered

    status = 0
    chunks: list[bytes] = []

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = int(message["status"])
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    await app(scope, receive, send)
    return status, json.loads(b"".join(chunks) or b"{}")


def flood_positions(count: int, seed: int) -> list[str]:
    """``count`` different practice positions the engine can be asked about (codes), from a seed."""
    table = kaisa_table()
    radius = table.ball_radius
    rng = random.Random(seed)
    codes: list[str] = []
    while len(codes) < count:
        balls: dict[str, tuple[float, float]] = {}
        for ball in BALL_IDS:
            for _ in range(100):
                at = (
                    rng.uniform(2 * radius, table.length - 2 * radius),
                    rng.uniform(2 * radius, table.width - 2 * radius),
                )
                if all((at[0] - x) ** 2 + (at[1] - y) ** 2 > (2.2 * radius) ** 2 for x, y in balls.values()):
                    balls[ball] = at
                    break
        if len(balls) < len(BALL_IDS):
            continue
        code = position_code(dict(balls))
        position = read_position(code)
        if isinstance(position, Exception):
            continue
        try:
            position_match(position.snapshot())
        except Exception:
            continue
        if code not in codes:
            codes.append(code)
    return codes


def figures(values: Sequence[float], unit: str = "s") -> str:
    """Count, median, p95 and max of durations in seconds, printed in ``unit`` (s or ms)."""
    if not values:
        return "none"
    scale, digits = (1000.0, 1) if unit == "ms" else (1.0, 2)
    ordered = sorted(value * scale for value in values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    median = statistics.median(ordered)
    return (
        f"n {len(ordered)}, median {median:.{digits}f} {unit}, p95 {p95:.{digits}f} {unit}, "
        f"max {ordered[-1]:.{digits}f} {unit}"
    )


class Command(BaseCommand):
    help = "Flood 'Ask the engine' from 30 addresses and print the computer's move time and a newcomer's wait."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--addresses", type=int, default=30)
        parser.add_argument("--positions", type=int, default=600, help="different positions the flood asks")
        parser.add_argument("--seconds", type=float, default=40.0, help="how long the flood runs")
        parser.add_argument("--level", type=int, default=3, help="the computer player's level")
        parser.add_argument("--moves", type=int, default=12, help="the bot's moves timed before the flood")
        parser.add_argument("--newcomer-at", type=float, default=10.0, help="s into the flood of the first")
        parser.add_argument("--newcomer-every", type=float, default=5.0)
        parser.add_argument("--workers", type=int, default=None, help="the pool's size (default: the setting's)")
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args: Any, **options: Any) -> None:
        if options["addresses"] < 1 or options["positions"] < options["addresses"] or options["seconds"] <= 0:
            raise CommandError("--addresses at least 1, --positions at least --addresses, --seconds above 0")
        self.stdout.write(f"host: timeit {TIMEIT_STATEMENT}: {host_speed_ms():.0f} ms (best of 5)")
        started = time.perf_counter()
        positions = flood_positions(options["positions"], options["seed"])
        shots = [shot for shot in played_shots(record_shots(sample_record(SAMPLE_SEED, 16))) if shot.snapshot]
        self.stdout.write(
            f"set-up: {len(positions)} positions, {len(shots)} positions of a bot match "
            f"({time.perf_counter() - started:.1f} s, not counted)"
        )
        engine_pool_close()
        forget_answers()
        overrides: dict[str, Any] = {}
        if options["workers"] is not None:
            overrides["KAIZA_BOT_WORKERS"] = options["workers"]
        try:
            with override_settings(**overrides):
                asyncio.run(self._bench(positions, shots, options))
        finally:
            engine_pool_close()
        self.stdout.write(f"host after: timeit {TIMEIT_STATEMENT}: {host_speed_ms():.0f} ms (best of 5)")

    async def _bench(self, positions: list[str], shots: list[Any], options: dict[str, Any]) -> None:
        app = get_asgi_application()
        # Django logs every refused request (a line per 503; set after the application, whose set-up
        # configures the logging again); the figures are what this prints.
        logging.getLogger("django.request").setLevel(logging.CRITICAL)
        workers = engine_workers()
        # Every worker started before the clock starts, as in a server that has served for a while.
        await asyncio.gather(
            *(
                run_in_engine_pool(time.sleep, 0.3, timeout=STUCK, urgency=Urgency.MOVE)
                for _ in range(engine_scheduler().workers)
            )
        )
        self.stdout.write(
            f"pool: {workers} workers ({engine_scheduler().work_slots} for questions and analyses), "
            f"{ask_queue_limit()} questions may wait beyond those answered"
        )
        level = options["level"]
        move_index = 0

        async def move() -> tuple[float, float]:
            """One bot move (its search in the pool, as the computer player makes it), and the wait of a
            move's job that does no work (os.getpid): what the move waits for a worker, apart from its
            search, which shares the machine's cores with the flood's questions."""
            nonlocal move_index
            shot = shots[move_index % len(shots)]
            move_index += 1
            began = time.perf_counter()
            await asyncio.wait_for(think(shot.snapshot, level, shot.player, seed_for("bench", move_index)), STUCK)
            searched = time.perf_counter()
            await run_in_engine_pool(os.getpid, timeout=STUCK, urgency=Urgency.MOVE)
            return searched - began, time.perf_counter() - searched

        quiet = [await move() for _ in range(options["moves"])]
        self.stdout.write(f"bot level {level}, pool idle:  {figures([m for m, _ in quiet])}")
        self.stdout.write(f"a move's wait for a worker, pool idle:  {figures([w for _, w in quiet], 'ms')}")

        stop = time.perf_counter() + options["seconds"]
        flood_began = time.perf_counter()
        answers: Counter[str] = Counter()
        waits: dict[str, list[float]] = {"answered": [], "refused": []}
        addresses = options["addresses"]
        shares = [positions[index::addresses] for index in range(addresses)]

        async def attacker(index: int) -> None:
            """One address at its limit per minute: a question every 3 s, the same one until answered."""
            address = f"10.66.{index // 250}.{index % 250 + 1}"
            mine = shares[index]
            turn = flood_began + 3.0 * index / addresses
            while mine and time.perf_counter() < stop:
                await asyncio.sleep(max(0.0, turn - time.perf_counter()))
                turn += 3.0
                began = time.perf_counter()
                status, reply = await asyncio.wait_for(
                    asgi_post(app, ASK_PATH, {"position": mine[0]}, address=address), STUCK
                )
                code = "answered" if status == 200 else str((reply.get("error") or {}).get("code") or status)
                answers[code] += 1
                waits["answered" if status == 200 else "refused"].append(time.perf_counter() - began)
                if status == 200:
                    mine.pop(0)

        newcomers: list[str] = []

        async def newcomer(index: int) -> None:
            position = flood_positions(1, options["seed"] + 1000 + index)[0]
            began = time.perf_counter()
            status, reply = await asyncio.wait_for(
                asgi_post(app, ASK_PATH, {"position": position}, address=f"10.77.0.{index + 1}"), STUCK
            )
            wait = time.perf_counter() - began
            said = "answered" if status == 200 else f"{status} {reply['error']['code']}: {reply['error']['message']}"
            newcomers.append(f"newcomer at {began - flood_began:4.1f} s: {wait:.2f} s, {said}")

        async def newcomers_arrive() -> None:
            at, index = options["newcomer_at"], 0
            while flood_began + at < stop:
                await asyncio.sleep(max(0.0, flood_began + at - time.perf_counter()))
                await newcomer(index)
                index, at = index + 1, at + options["newcomer_every"]

        flooded: list[tuple[float, float]] = []

        async def bot_plays() -> None:
            await asyncio.sleep(2.0)  # the queue full first
            while time.perf_counter() < stop:
                flooded.append(await move())
                await asyncio.sleep(0.5)  # the person's turn at the table, short

        await asyncio.gather(*(attacker(index) for index in range(addresses)), newcomers_arrive(), bot_plays())
        flood = ", ".join(f"{code} {count}" for code, count in answers.most_common())
        self.stdout.write(f"bot level {level}, during the flood: {figures([m for m, _ in flooded])}")
        self.stdout.write(f"a move's wait for a worker, during the flood: {figures([w for _, w in flooded], 'ms')}")
        for line in newcomers:
            self.stdout.write(line)
        self.stdout.write(
            f"flood: {addresses} addresses, {sum(answers.values())} questions in {options['seconds']:.0f} s: {flood}"
        )
        self.stdout.write(f"flood's answered questions: {figures(waits['answered'])}")
        self.stdout.write(f"flood's refused questions:  {figures(waits['refused'])}")
