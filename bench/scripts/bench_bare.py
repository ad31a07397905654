"""Kaiza beside bare daphne, the same aim traffic, one session.

    .venv/bin/python bench/scripts/bench_bare.py                          # M = 100, kinds bare redis memory, twice
    .venv/bin/python bench/scripts/bench_bare.py --grid 40,60,80,100,120 --kinds bare,redis --repeat 2

Each run starts one server on its own port, runs `manage.py loadtest` against it (S spectators, D
seconds, think 3-8 s, judged against loadtest's bars) and stops it; the kinds are interleaved in each round and
their order turns from round to round, so a host's drift and the place in the order fall on all of
them alike:

- ``bare``: daphne serving `bench.loadtest.bare_relay` (no Django, no database, no channel layer),
  the load client in ``--bare`` mode;
- ``redis``: Kaiza as deployed (`bench.serve`: the product's server, its diagnostics off; PostgreSQL,
  the Redis channel layer, the users' message budgets in Redis);
- ``memory``: the same, the message budgets in the process's memory (for comparison).

Printed: the host's timeit, every run's worst rows, the server's and the load client's CPU in the window
(% of a core; the client's summed over its processes), and per kind the largest M of the grid whose every
run held the bars (walking the grid upwards, a kind stops at its first miss), and its ratio to bare
daphne's. Needs PostgreSQL (database kaiza_load, re-made each Kaiza run) and Redis (db 5, flushed)
on 127.0.0.1, and the ports free.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PY = sys.executable
DATABASE_URL = "postgres://postgres@127.0.0.1:5432/kaiza_load"
REDIS_URL = "redis://127.0.0.1:6379/5"
#: The load comes from one address: the per-address limits of a real site would refuse it (as in
#: docs/benchmarks.md's set-up); the users' own budgets stay as deployed.
KAIZA_ENV = {
    "DATABASE_URL": DATABASE_URL,
    "REDIS_URL": REDIS_URL,
    "DEBUG": "0",
    "SECRET_KEY": "bench-bare-0123456789-0123456789-0123456789-0123456789",
    "LOG_LEVEL": "WARNING",
    "KAIZA_RATE_LIMITS": json.dumps({k: {"ip": [100000, 60]} for k in ("guest_create", "match_create", "match_join")}),
    # A match's crowd (`loadtest --featured`) comes from the one address too.
    "KAIZA_SOCKET_LIMITS": json.dumps({"match": {"user": 4, "ip": 100000}, "process": {"ip": 100000}}),
    "KAIZA_MESSAGE_BUDGETS": json.dumps({"ip:aim": [100000, 100000], "ip:other": [100000, 100000]}),
}
PSQL = ("psql", "-q", "-h", "127.0.0.1", "-U", "postgres")
ROW = re.compile(r"^(shot round trip|aim relay): (\w+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)$")


def timeit() -> str:
    """The host's speed as `timeit` prints it, shortened to fit a column ("30.2 ms")."""
    out = subprocess.run([PY, "-m", "timeit", "sum(i*i for i in range(10**6))"], capture_output=True, text=True)
    return out.stdout.strip().split(": ")[-1].replace(" msec per loop", " ms").replace(" sec per loop", " s")


def wait_up(port: int, process: subprocess.Popen[bytes]) -> None:
    for _ in range(150):
        if process.poll() is not None:
            raise SystemExit(f"the server on port {port} exited with {process.returncode}")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2)
            return
        except urllib.error.HTTPError:
            return  # it answers (the bare relay answers 404)
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"nothing answered on port {port}")


def start(kind: str, port: int, log: Path) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    if kind == "bare":
        cmd = [PY, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "bench.loadtest.bare_relay:application"]
    else:
        env.update(KAIZA_ENV)
        if kind == "memory":
            env["KAIZA_BUDGET_REDIS_URL"] = ""
        subprocess.run(
            [*PSQL, "-c", "DROP DATABASE IF EXISTS kaiza_load", "-c", "CREATE DATABASE kaiza_load", "postgres"],
            check=True,
        )
        subprocess.run(["redis-cli", "-n", "5", "flushdb"], check=True, capture_output=True)
        subprocess.run([PY, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
        cmd = [PY, "-m", "bench.serve", "-b", "127.0.0.1", "-p", str(port), "kaiza_site.asgi:application"]
    with log.open("ab") as sink:
        process = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=sink, stderr=subprocess.STDOUT)
    wait_up(port, process)
    return process


def run_once(kind: str, m: int, args: argparse.Namespace, log: Path) -> dict[str, object]:
    port = args.port + (0 if kind == "bare" else 1)
    process = start(kind, port, log)
    try:
        cmd = [PY, "manage.py", "loadtest", "--url", f"http://127.0.0.1:{port}", "--matches", str(m)]
        cmd += ["--spectators", str(args.spectators), "--duration", str(args.duration), "--think", "3-8"]
        cmd += ["--server-pid", str(process.pid), "--procs", str(args.procs), "--stagger", str(args.stagger)]
        cmd += ["--bare"] if kind == "bare" else []
        cmd += args.loadtest_arg
        clean = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
        clean["DJANGO_SETTINGS_MODULE"] = "bench.settings"  # the loadtest command is in bench's app
        done = subprocess.run(cmd, cwd=ROOT, env=clean, capture_output=True, text=True)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    text = done.stdout + done.stderr
    with log.open("a") as sink:
        sink.write(f"=== {kind} M={m}\n{text}\n")
    rows = {f"{m_.group(1)[:4]} {m_.group(2)}": float(m_.group(6)) for m_ in map(ROW.match, text.splitlines()) if m_}
    cpu = re.search(r"^server pid \d+: .*CPU ([\d.]+)% of a core", text, re.M)
    client = re.search(r"^client process\(es\): CPU (.*) of a core", text, re.M)
    verdict = re.search(r"^result: (.*)$", text, re.M)
    return {
        "ok": done.returncode == 0,
        "shot": max((v for k, v in rows.items() if k.startswith("shot")), default=float("nan")),
        "aim": max((v for k, v in rows.items() if k.startswith("aim ")), default=float("nan")),
        "cpu": float(cpu.group(1)) if cpu else float("nan"),
        "client": sum(float(share) for share in re.findall(r"([\d.]+)%", client.group(1))) if client else float("nan"),
        "verdict": verdict.group(1) if verdict else text.strip().splitlines()[-1:],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--grid", default="100", help="the M values, ascending, comma-separated")
    parser.add_argument("--kinds", default="bare,redis,memory")
    parser.add_argument("--repeat", type=int, default=2, help="runs of each kind at each M")
    parser.add_argument("--spectators", type=int, default=5)
    parser.add_argument("--duration", type=float, default=20.0)
    parser.add_argument(
        "--stagger",
        type=float,
        default=0.0,
        help="seconds over which the matches start (loadtest --stagger; 0: all at the window's start)",
    )
    parser.add_argument(
        "--procs",
        type=int,
        default=1,
        help="load client processes (loadtest --procs): above M = 200 one client loop lags behind the server",
    )
    parser.add_argument(
        "--loadtest-arg",
        action="append",
        default=[],
        help="one more argument for every loadtest run, e.g. --loadtest-arg=--timeline (repeatable)",
    )
    parser.add_argument("--port", type=int, default=8102)
    parser.add_argument("--log", type=Path, default=Path("/tmp/bench_bare.log"))
    args = parser.parse_args()
    grid = [int(m) for m in args.grid.split(",")]
    kinds = args.kinds.split(",")
    if unknown := set(kinds) - {"bare", "redis", "memory"}:
        parser.error(f"unknown kinds {sorted(unknown)} (bare, redis, memory)")
    args.log.write_text("")
    print(f"host timeit {timeit()}; S = {args.spectators}, {args.duration:g} s a run; log {args.log}", flush=True)
    head = f"{'kind':<8}{'M':>5}{'timeit':>10}{'shot p99':>10}{'aim p99':>9}{'CPU %':>7}{'client %':>9}  verdict"
    print(head, flush=True)
    largest: dict[str, int] = dict.fromkeys(kinds, 0)
    alive = set(kinds)
    aims: dict[tuple[str, int], list[float]] = {}
    for m in grid:
        held = dict.fromkeys(alive, True)
        for round_ in range(args.repeat):
            # The order turns each round: whichever Kaiza run came second of a pair was the faster in 5
            # of 5 pairs, so every kind takes every place in turn.
            shift = round_ % len(kinds)
            for kind in kinds[shift:] + kinds[:shift]:
                if kind not in alive:
                    continue
                speed = timeit()
                result = run_once(kind, m, args, args.log)
                aims.setdefault((kind, m), []).append(float(result["aim"]))  # type: ignore[arg-type]
                held[kind] = held[kind] and bool(result["ok"])
                print(
                    f"{kind:<8}{m:>5}{speed:>10}{result['shot']:>10.1f}{result['aim']:>9.1f}{result['cpu']:>7.1f}"
                    f"{result['client']:>9.1f}  {result['verdict']}",
                    flush=True,
                )
        for kind, ok in held.items():
            if ok:
                largest[kind] = m
            else:
                alive.discard(kind)
        if not alive:
            break
    print("aim relay p99 (worst row), median of the runs, by M:")
    for m in grid:
        cells = []
        for kind in kinds:
            values = aims.get((kind, m), [])
            if values:
                cells.append(f"{kind} {statistics.median(values):.1f} ms")
        if cells:
            print(f"  M = {m}: " + ", ".join(cells))
    base = largest.get("bare", 0)
    for kind in kinds:
        ratio = f" ({largest[kind] / base:.2f}x bare daphne's)" if base and kind != "bare" else ""
        print(f"largest M within the bars: {kind} {largest[kind] or 'none of the grid'}{ratio}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
