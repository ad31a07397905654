"""Real daphne server processes for tests: started, probed, stopped, restarted.

Each server binds 127.0.0.1 on a free port, runs with the environment the test gives it (database,
channel layer) and is waited for through /healthz with a bounded loop.
"""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from tests.support import django_shell

PROJECT_DIR = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


#: Where free_ports looks: below Linux's ephemeral range (32768-60999), so no socket another test opens
#: with port 0 is given one of them meanwhile.
PORT_RUNS = range(20000, 32000)


def free_ports(count: int) -> int:
    """The first of ``count`` consecutive ports that are free now, for a script that numbers its own
    servers from a base port (bench/scripts/scaleout.sh: base, base + 1, ...). free_port() checks one port
    only, and the next one up may be any socket's ephemeral port: a server once failed so in CI."""
    rng = random.Random(os.getpid() ^ time.monotonic_ns())
    for _ in range(200):
        base = rng.randrange(PORT_RUNS.start, PORT_RUNS.stop - count)
        socks = []
        try:
            for port in range(base, base + count):
                sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                socks.append(sock)
                sock.bind(("127.0.0.1", port))
            return base
        except OSError:
            continue
        finally:
            for sock in socks:
                sock.close()
    raise RuntimeError(f"no {count} consecutive free ports in {PORT_RUNS}")


#: How many times faster than real time the test servers' pages (and tests/e2e/harness.py's) roll shots,
#: unless a test asks for its own rate (one that watches a shot roll asks for 1): what a page test checks
#: of a shot (its path, its end, the score after it) is the same, in a fraction of the time and of the
#: renderer's frames, which are most of the browser tests' CPU. 4 -> 16: step 1 of make test 7:47 ->
#: 7:12 (a page test of six shots 34 -> 24 CPU-s); 16 -> 48: the browser tests alone 323-336 s (630-657
#: machine CPU-s) -> 300 s (585), every test passing; at 96 a test failed and nothing was gained (305 s).
#: KAIZA_ANIMATION_RATE in the environment overrides it for a run.
E2E_ANIMATION_RATE = float(os.environ.get("KAIZA_ANIMATION_RATE", "48"))


def server_env(**overrides: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in {"DATABASE_URL", "REDIS_URL"}}
    env.setdefault("SECRET_KEY", "kaiza-test-secret-key-for-server-processes-0123456789")
    env["DJANGO_SETTINGS_MODULE"] = "kaiza_site.settings"
    env["PYTHONUNBUFFERED"] = "1"
    # Served as in production, unless a test asks for Django's debug mode: with it on, the static files
    # went out with max-age=0, so every page a browser test loaded asked again for its 44 files (a
    # match page reloaded: 0.61 CPU-s with it, 0.40 without, server and Chromium together).
    env.setdefault("DEBUG", "false")
    # The game clock can be moved by the test (game/common/clock.py): no test waits for a deadline.
    env.setdefault("KAIZA_TEST_CLOCK", "1")
    # Shots roll E2E_ANIMATION_RATE times faster on the match pages (settings.KAIZA_ANIMATION_RATE).
    env.setdefault("KAIZA_ANIMATION_RATE", str(E2E_ANIMATION_RATE))
    # No starter puzzles and no computer exhibition unless a test asks (settings.KAIZA_SHOWCASE): the
    # pages under test show what the test made.
    env.setdefault("KAIZA_SHOWCASE", "0")
    # Rate-limit counts of this server's own (a server given REDIS_URL keeps them in the shared Redis).
    env.setdefault("CACHE_KEY_PREFIX", f"kaiza-test-{uuid.uuid4().hex[:12]}")
    # Channel groups of this test process's own (the servers of one test share them): servers of two
    # pytest-xdist workers on one Redis never hear each other's lobby or match broadcasts.
    env.setdefault("KAIZA_CHANNEL_PREFIX", f"asgi-test-{os.getpid()}")
    env.update(overrides)
    return env


def migrate(env: dict[str, str]) -> None:
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=PROJECT_DIR,
        env=env,
        check=True,
        timeout=180,
    )


#: Servers of this test process that are running: a fixture dropping a database stops them first.
RUNNING: list[DaphneServer] = []

#: What marks a traceback in a server log (Python's, and Twisted's "Unhandled error" reports).
TRACEBACK_MARKERS = ("Traceback (most recent call last)", "Unhandled Error", "Unhandled error in Deferred")


def stop_all() -> None:
    """Stops this test process's servers and ends its Django shells (their database connections would
    keep a PostgreSQL database from being dropped)."""
    for server in list(RUNNING):
        server.stop()
    django_shell.close_all()


def log_tracebacks(path: Path) -> list[str]:
    """The tracebacks in a server log, each with a few lines of what follows it."""
    if not path.exists():
        return []
    lines = path.read_text(errors="replace").splitlines()
    found = []
    for index, line in enumerate(lines):
        if any(marker in line for marker in TRACEBACK_MARKERS):
            found.append("\n".join(lines[max(0, index - 1) : index + 12]))
    return found


@dataclass
class DaphneServer:
    env: dict[str, str]
    port: int = field(default_factory=free_port)
    log_path: Path | None = None
    process: subprocess.Popen[bytes] | None = None
    #: Extra command-line options of `kaiza_site.serve` (e.g. a short `--http-header-timeout`).
    args: list[str] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> DaphneServer:
        log = open(self.log_path, "ab") if self.log_path else subprocess.DEVNULL
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "kaiza_site.serve",
                "-b",
                "127.0.0.1",
                "-p",
                str(self.port),
                *self.args,
                "kaiza_site.asgi:application",
            ],
            cwd=PROJECT_DIR,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        RUNNING.append(self)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"daphne exited with {self.process.returncode}; log: {self.log_path}")
            try:
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=2) as response:
                    if response.status == 200:
                        return self
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"daphne on port {self.port} did not become healthy in {timeout} s")

    def advance_clock(self, seconds: float) -> float:
        """Move this server's game clock `seconds` forward (the test-only endpoint,
        game/site/views/test_clock.py); returns its offset. Deadlines now due fire at the server's next
        poll, within a second, as they would have on the wall clock."""
        request = urllib.request.Request(
            f"{self.url}/test/clock/advance",
            data=json.dumps({"seconds": seconds}).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            return float(json.loads(response.read())["offset"])

    def stop(self, timeout: float = 10.0) -> None:
        if self in RUNNING:
            RUNNING.remove(self)
        if self.process is None or self.process.poll() is not None:
            self.process = None
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=timeout)
        self.process = None

    def kill(self) -> None:
        """An abrupt stop, as a crash or an OOM kill would do it."""
        if self in RUNNING:
            RUNNING.remove(self)
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        self.process = None
