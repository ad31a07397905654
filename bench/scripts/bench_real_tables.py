"""Real tables, all scored at once: how long a scorer's tap takes to reach the live pages and the stream
overlays that follow its game, with every table of a big club night tapping on one server process.

    .venv/bin/python bench/scripts/bench_real_tables.py                 # 50 tables, 60 s, a tap every 10 s each
    .venv/bin/python bench/scripts/bench_real_tables.py --tables 50 --seconds 30 --interval 5 --db-threads 4

It starts one server process (`bench.serve`: the product's server, as deployed: PostgreSQL, the Redis
channel layer), makes a club with ``--tables`` scoring tables and a free game on each, and opens per
table what a club night has: the scorer's socket (the phone at the table, `ws/tables/<token>/`),
``--watchers`` live pages (`ws/realgame/<id>/`) and the table's stream overlay (`ws/realtable/<id>/`).
Each scorer taps every ``--interval`` seconds (10: twice a real table's pace, where a shot takes 15-30
s; the tables' first taps spread over one interval), a cycle of a pot, its undo and two misses, so the
games never end; the window is ``--seconds`` long. ``--db-threads`` sets the server's database threads
(`KAIZA_DB_THREADS`, 1 as deployed).

Printed: the host's timeit before and after, then per path the count and the latency p50 / p95 / p99 /
max in ms from the tap sent to its state received (each socket's receipt counted: the live pages', the
overlays', and the scorer's own ack), the server's CPU over the window, and the bar: the live pages'
and the overlays' p99 at most ``--bar`` ms (200), every tap acked and every state received
(``result: ok`` or ``result: FAILED`` with the reasons, exit 1). Both ends of a latency are
`time.perf_counter()` readings of this one client process. Needs PostgreSQL (database
kaiza_realtables, re-made each run) and Redis (db 9, flushed) on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import websockets
from websockets.typing import Origin

ROOT = Path(__file__).resolve().parents[2]
PY = sys.executable
DATABASE = "kaiza_realtables"
DATABASE_URL = f"postgres://postgres@127.0.0.1:5432/{DATABASE}"
REDIS_URL = "redis://127.0.0.1:6379/9"
#: Every socket of the night comes from this one address: the per-address caps of a real site would
#: refuse it (a club's sockets come from many phones and screens).
KAIZA_ENV = {
    "DATABASE_URL": DATABASE_URL,
    "REDIS_URL": REDIS_URL,
    "DEBUG": "0",
    "SECRET_KEY": "bench-real-tables-0123456789-0123456789-0123456789-0123",
    "LOG_LEVEL": "WARNING",
    "KAIZA_SOCKET_LIMITS": json.dumps({"match": {"user": 4, "ip": 100000}, "process": {"ip": 100000}}),
    "KAIZA_MESSAGE_BUDGETS": json.dumps({"ip:aim": [100000, 100000], "ip:other": [100000, 100000]}),
}
PSQL = ("psql", "-q", "-h", "127.0.0.1", "-U", "postgres")
#: The tables, their scorers' tokens and their games, made in the server's database.
SETUP = """
import json
from django.contrib.auth import get_user_model
from game.models import Club
from game.models.realgames import ScoringTable
from game.realgames import services
owner = get_user_model().objects.create_user(username="bench-director")
club = Club.objects.create(name="Bench club", slug="bench-club", created_by=owner)
made = []
for number in range(1, {tables} + 1):
    table = ScoringTable.objects.create(club=club, number=number, name=f"Table {{number}}")
    game = services.free_game(table=table, names=(f"Player {{2 * number - 1}}", f"Player {{2 * number}}"))
    made.append([table.pk, table.token, game.pk])
print("MADE " + json.dumps(made))
"""
#: A scorer's cycle: a pot, its undo, two misses (the score stays low, the game never ends).
POT = {"kind": "pot", "ball": "red", "pocket": "foot_left"}
MISS = {"kind": "miss", "ball": "red"}
CYCLE = ("tap", "undo", "miss", "miss")
PATHS = ("live page", "overlay", "scorer ack")


def connect(url: str) -> Any:
    """A websocket from a page of the server's own origin (the server refuses other origins)."""
    origin = "http://" + url.split("://", 1)[1].split("/", 1)[0]
    return websockets.connect(url, max_queue=None, open_timeout=60, origin=Origin(origin))


def timeit() -> str:
    out = subprocess.run([PY, "-m", "timeit", "sum(i*i for i in range(10**6))"], capture_output=True, text=True)
    return out.stdout.strip()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))] if ordered else float("nan")


@dataclass
class Night:
    """What the client saw: each tap's send time by (game, version), each socket's receipt times."""

    sent: dict[tuple[int, int], float] = field(default_factory=dict)
    key_sent: dict[str, float] = field(default_factory=dict)
    received: dict[str, list[tuple[int, int, float]]] = field(default_factory=lambda: defaultdict(list))
    acked: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    taps: int = 0


def state_of(text: str | bytes) -> tuple[int, int] | None:
    message = json.loads(text)
    if message.get("t") != "real_state":
        return None
    return int(message["d"]["game"]["id"]), int(message["d"]["version"])


async def opened(url: str, gate: asyncio.Semaphore) -> Any:
    """A socket opened a few at a time (a club's screens come on over minutes, not in one burst)."""
    async with gate:
        return await connect(url)


async def follow(url: str, path: str, night: Night, stop: asyncio.Event, ready: asyncio.Event, gate: Any) -> None:
    async with await opened(url, gate) as socket:
        ready.set()
        while not stop.is_set():
            try:
                text = await asyncio.wait_for(socket.recv(), timeout=0.5)
            except TimeoutError:
                continue
            seen = state_of(text)
            if seen is not None:
                night.received[path].append((*seen, time.perf_counter()))


async def score(
    url: str, game: int, night: Night, window: tuple[float, float], interval: float, gate: asyncio.Semaphore
) -> None:
    """One table's scorer: a tap every `interval` from its start in the window, each acked before the next."""
    start, end = window
    async with await opened(url, gate) as socket:
        await asyncio.sleep(max(0.0, start - time.perf_counter()))
        step = 0
        while time.perf_counter() < end:
            due = start + step * interval
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            kind = CYCLE[step % len(CYCLE)]
            key = uuid.uuid4().hex[:20]
            frame = (
                {"t": "undo", "d": {"key": key}}
                if kind == "undo"
                else {"t": "tap", "d": {"key": key, "tap": POT if kind == "tap" else MISS}}
            )
            sent = time.perf_counter()
            await socket.send(json.dumps(frame))
            night.taps += 1
            while True:
                try:
                    message = json.loads(await asyncio.wait_for(socket.recv(), timeout=10))
                except TimeoutError:
                    night.errors.append(f"game {game}: no ack in 10 s")
                    return
                if message.get("t") == "real_ack" and message["d"]["key"] == key:
                    night.acked.append(time.perf_counter() - sent)
                    night.sent[(game, int(message["d"]["version"]))] = sent
                    break
                if message.get("t") in ("real_refused", "error"):
                    night.errors.append(f"game {game}: {message}")
                    break
            step += 1


async def night_out(base: str, tables: list[list[Any]], args: argparse.Namespace) -> tuple[Night, float]:
    night = Night()
    stop = asyncio.Event()
    gate = asyncio.Semaphore(8)
    followers = []
    readies = []
    for table_id, _token, game in tables:
        for path, url in [("live page", f"{base}/ws/realgame/{game}/")] * args.watchers + [
            ("overlay", f"{base}/ws/realtable/{table_id}/")
        ]:
            ready = asyncio.Event()
            readies.append(ready)
            followers.append(asyncio.create_task(follow(url, path, night, stop, ready, gate)))
    await asyncio.wait_for(asyncio.gather(*(ready.wait() for ready in readies)), timeout=120)
    begin = time.perf_counter() + 5.0  # the scorers' sockets open meanwhile
    end = begin + args.seconds
    scorers = [
        score(
            f"{base}/ws/tables/{token}/",
            game,
            night,
            (begin + random.random() * args.interval, end),
            args.interval,
            gate,
        )
        for _table, token, game in tables
    ]
    await asyncio.gather(*scorers)
    await asyncio.sleep(2.0)  # the last states on their way
    stop.set()
    await asyncio.gather(*followers, return_exceptions=True)
    return night, end - begin


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_server(port: int, log: Path, db_threads: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, **KAIZA_ENV, "KAIZA_DB_THREADS": str(db_threads)}
    subprocess.run(
        [*PSQL, "-c", f"DROP DATABASE IF EXISTS {DATABASE}", "-c", f"CREATE DATABASE {DATABASE}", "postgres"],
        check=True,
    )
    subprocess.run(["redis-cli", "-n", "9", "flushdb"], check=True, capture_output=True)
    subprocess.run([PY, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
    cmd = [PY, "-m", "bench.serve", "-b", "127.0.0.1", "-p", str(port), "kaiza_site.asgi:application"]
    with log.open("ab") as sink:
        process = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=sink, stderr=subprocess.STDOUT)
    for _ in range(150):
        if process.poll() is not None:
            raise SystemExit(f"the server exited with {process.returncode} (its log: {log})")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2)
            return process
        except urllib.error.HTTPError:
            return process
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"nothing answered on port {port}")


def make_tables(count: int) -> list[list[Any]]:
    env = {**os.environ, **KAIZA_ENV}
    out = subprocess.run(
        [PY, "manage.py", "shell", "-c", SETUP.format(tables=count)],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    line = next(line for line in out.splitlines() if line.startswith("MADE "))
    return list(json.loads(line[5:]))


def latencies(night: Night) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {path: [] for path in PATHS}
    for path, seen in night.received.items():
        for game, version, at in seen:
            sent = night.sent.get((game, version))
            if sent is not None:
                out[path].append(1000 * (at - sent))
    out["scorer ack"] = [1000 * value for value in night.acked]
    return out


def report(night: Night, window: float, cpu: float, args: argparse.Namespace) -> list[str]:
    figures = latencies(night)
    print(
        f"{args.tables} tables, {args.watchers} live pages and an overlay each, "
        f"a tap every {args.interval} s each, {window:.0f} s"
    )
    print(
        f"taps: {night.taps} ({night.taps / window:.1f}/s), server CPU {100 * cpu / window:.0f} % of a core, "
        f"{args.db_threads} database thread(s)"
    )
    print(
        f"{'path':<12} {'count':>7} {'p50':>8} {'p95':>8} {'p99':>8} {'max':>8}  (ms, tap sent -> its state received)"
    )
    for path in PATHS:
        values = figures[path]
        cells = " ".join(f"{percentile(values, q):8.1f}" for q in (50, 95, 99, 100))
        print(f"{path:<12} {len(values):>7} {cells}")
    failures = list(night.errors[:5])
    expected = {"live page": len(night.sent) * args.watchers, "overlay": len(night.sent)}
    for path in ("live page", "overlay"):
        p99 = percentile(figures[path], 99)
        if not p99 <= args.bar:
            failures.append(f"{path} p99 {p99:.0f} ms over the bar of {args.bar:.0f} ms")
        if len(figures[path]) < expected[path]:
            failures.append(f"{path}: {expected[path] - len(figures[path])} states missed")
    if len(night.sent) < night.taps:
        failures.append(f"{night.taps - len(night.sent)} taps without an ack")
    return failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--interval", type=float, default=10.0, help="seconds between a table's taps")
    parser.add_argument("--watchers", type=int, default=2, help="live pages per game")
    parser.add_argument("--port", type=int, default=18950)
    parser.add_argument("--db-threads", type=int, default=1, help="the server's database threads (KAIZA_DB_THREADS)")
    parser.add_argument("--bar", type=float, default=200.0, help="p99 bar of the live pages and overlays, ms")
    args = parser.parse_args()
    print(f"host: timeit {timeit()}")
    log = ROOT / "test-artifacts" / "bench-real-tables.log"
    log.parent.mkdir(exist_ok=True)
    server = start_server(args.port, log, args.db_threads)
    try:
        tables = make_tables(args.tables)
        cpu_before = cpu_seconds(server.pid)
        night, window = asyncio.run(night_out(f"ws://127.0.0.1:{args.port}", tables, args))
        cpu = cpu_seconds(server.pid) - cpu_before
    finally:
        server.terminate()
        server.wait(timeout=20)
    failures = report(night, window, cpu, args)
    print(f"host after: timeit {timeit()}")
    print("result: ok" if not failures else "result: FAILED\n" + "\n".join(f"  {reason}" for reason in failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
