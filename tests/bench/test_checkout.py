"""The benchmarks run from a checkout as the docs name them: `python manage.py bench_physics` and
`python manage.py loadtest` (ARCHITECTURE.md 6) through manage.py's settings (bench.settings), and
`python -m bench.serve`, the product's server with the diagnostics switched on by their variables."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from tests.support.daphne import free_port, server_env

ROOT = Path(__file__).resolve().parents[2]


def manage(*args: str) -> subprocess.CompletedProcess[str]:
    """manage.py as a developer runs it: no DJANGO_SETTINGS_MODULE of pytest's in the environment."""
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


def test_manage_py_finds_the_benchmark_commands() -> None:
    done = manage("help", "--commands")
    assert done.returncode == 0, done.stderr
    commands = set(done.stdout.split())
    expected = {"bench_analysis", "bench_engine_pool", "bench_frames", "bench_inputs", "bench_physics"}
    assert expected | {"loadtest", "bot_ladder", "bot_match"} <= commands
    assert {"make_puzzles", "starter_puzzles", "kaisakaavio", "migrate"} <= commands  # the product's, as before


def test_bench_physics_prints_its_table() -> None:
    done = manage("bench_physics", "--shots", "3")
    assert done.returncode == 0, done.stderr
    assert "median" in done.stdout and "p95" in done.stdout, done.stdout


def test_loadtest_needs_a_server_to_measure() -> None:
    """A server that is not there: the command runs and says so, with a non-zero exit."""
    done = manage("loadtest", "--url", "http://127.0.0.1:9", "--matches", "1", "--spectators", "0", "--duration", "0.5")
    assert done.returncode != 0
    assert "loadtest" in done.stdout + done.stderr


def test_bench_serve_starts_the_diagnostics_it_is_asked_for(tmp_path: Path) -> None:
    """The GC census, asked for every 0.2 s, reports in the server's log: bench.serve wired it into the
    running reactor, where the product's server no longer does."""
    port, log = free_port(), tmp_path / "server.log"
    env = server_env(KAIZA_GC_CENSUS_S="0.2", KAIZA_LOOP_WATCHDOG_MS="100")
    cmd = [sys.executable, "-m", "bench.serve", "-b", "127.0.0.1", "-p", str(port), "kaiza_site.asgi:application"]
    with log.open("wb") as sink:
        server = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=sink, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while "GC census" not in log.read_text(errors="replace") and time.monotonic() < deadline:
            assert server.poll() is None, log.read_text(errors="replace")
            time.sleep(0.2)
        assert "GC census, the last 0.2 s" in log.read_text(errors="replace")
    finally:
        server.terminate()
        server.wait(timeout=20)
