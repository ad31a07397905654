"""A server process killed and started again in its place (`loadtest --reconnect-storm`).

The load client runs on the servers' machine, so it can do what a crash and a supervisor do: read the
process's command line, environment, working directory, log and CPU cgroup from `/proc`, kill it
with SIGKILL (no shutdown handler runs: its connection rows stay behind, as after an OOM kill), and
start the same command again in the same cgroup, appending to the same log. Every socket it held then
reconnects at once, as the browsers do (`backoff_delay`: static/game/js/net.js's schedule).
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import websockets

#: Where cgroup v1's CPU controller is mounted (a process's cgroup path is relative to it).
CGROUP_CPU = Path("/sys/fs/cgroup/cpu")
#: static/game/js/net.js: BACKOFF_BASE_MS, BACKOFF_MAX_MS.
BACKOFF_BASE = 0.4
BACKOFF_MAX = 10.0


def backoff_delay(attempt: int, rng: random.Random) -> float:
    """The browser client's delay before reconnect attempt `attempt` (0-based): doubling, capped, ±25%."""
    return min(BACKOFF_MAX, BACKOFF_BASE * 2**attempt) * (0.75 + 0.5 * rng.random())


@dataclass
class ServerProcess:
    """What it takes to start a server process again as it was."""

    pid: int
    argv: list[str]
    env: dict[str, str]
    cwd: str
    log: str | None
    cgroup: Path | None

    @classmethod
    def read(cls, pid: int) -> ServerProcess:
        proc = Path(f"/proc/{pid}")
        try:
            argv = [a.decode() for a in (proc / "cmdline").read_bytes().split(b"\0") if a]
            pairs = [e.decode() for e in (proc / "environ").read_bytes().split(b"\0") if e]
            cwd = os.readlink(proc / "cwd")
        except OSError as exc:
            raise RuntimeError(f"server pid {pid} cannot be read from /proc ({exc.strerror})") from None
        env = dict(pair.split("=", 1) for pair in pairs if "=" in pair)
        log = None
        try:
            target = os.readlink(proc / "fd" / "1")
            if target.startswith("/") and Path(target).is_file():
                log = target
        except OSError:
            pass
        cgroup = None
        try:
            for line in (proc / "cgroup").read_text().splitlines():
                _, controllers, path = line.split(":", 2)
                if "cpu" in controllers.split(",") and path != "/":
                    cgroup = CGROUP_CPU / path.lstrip("/")
        except (OSError, ValueError):
            pass
        return cls(pid=pid, argv=argv, env=env, cwd=cwd, log=log, cgroup=cgroup)

    def serves(self, port: int) -> bool:
        """Whether its command line binds `port` (`-p PORT` or `--port PORT`, daphne's options)."""
        return any(a in ("-p", "--port") and b == str(port) for a, b in zip(self.argv, self.argv[1:], strict=False))

    def kill(self) -> None:
        """SIGKILL, and wait (bounded) until the process is dead: reaped, or a zombie its parent has not
        reaped yet. A zombie holds no port: waiting for its /proc entry to go (as this did) waited out
        the whole bound whenever the server was another process's child (bench/scripts/scaleout.py), and the
        restart came 10 s late."""
        os.kill(self.pid, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:  # our child only if we started it; otherwise its parent reaps it
                os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:
                pass
            if not is_alive(self.pid):
                return
            time.sleep(0.02)

    def start(self) -> subprocess.Popen[bytes]:
        """The same command again, in the same cgroup and log; returns once the process runs."""
        procs = self.cgroup / "cgroup.procs" if self.cgroup else None

        def enter() -> None:
            if procs is not None:
                procs.write_text(str(os.getpid()))

        if self.log is None:
            return self._popen(subprocess.DEVNULL, enter)
        with open(self.log, "ab") as sink:  # the child has its own copy of the descriptor
            return self._popen(sink, enter)

    def _popen(self, sink: Any, enter: Callable[[], None]) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            self.argv,
            cwd=self.cwd,
            env=self.env,
            stdout=sink,
            stderr=subprocess.STDOUT,
            preexec_fn=enter,
            start_new_session=True,
        )


def is_alive(pid: int) -> bool:
    """Whether `pid` still runs: its /proc entry is there and it is not a zombie (state Z) or dead (X)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    # The state follows the command's name in parentheses, which may itself hold spaces or ")".
    return stat.rpartition(")")[2].split()[0] not in ("Z", "X")


def wait_healthy(url: str, timeout: float = 60.0) -> bool:
    """Poll `url`/healthz until it answers 200 (bounded)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=2) as response:
                if response.status == 200:
                    return True
        except (OSError, urllib.error.URLError):
            time.sleep(0.05)
    return False


def retry_reason(exc: BaseException) -> str:
    """A failed reconnect attempt in a word or two: a refused connection, the handshake's HTTP status or
    close code, a timeout."""
    if isinstance(exc, ConnectionRefusedError):
        return "refused"
    if isinstance(exc, websockets.InvalidStatus):
        return f"http {exc.response.status_code}"
    if isinstance(exc, websockets.ConnectionClosed):
        return f"closed {exc.rcvd.code}" if exc.rcvd is not None else "closed"
    if isinstance(exc, TimeoutError):
        return "timeout"
    return type(exc).__name__
