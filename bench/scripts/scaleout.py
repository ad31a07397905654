"""Capacity per CPU: P server processes, each in a CPU cgroup of QUOTA cores.

    bench/scripts/scaleout.sh P QUOTA M [S] [D]          # e.g. bench/scripts/scaleout.sh 2 0.5 100 5 20

On 2 cores the load client, PostgreSQL and Redis share the machine with the servers, so "two processes
at 1.8x one" cannot be read off the cores; given each server a cgroup v1 CPU quota of its own
(`/sys/fs/cgroup/cpu/kaiza-scale-<i>/cpu.cfs_quota_us`) and the comparison is per CPU: one process at
quota q against two at q each, while the client and the databases keep the rest of the machine.

Each match goes to one process, as docs/deployment.md routes `/ws/match/<id>/` (`loadtest --spread match`;
the pages round-robin). Printed: the host's timeit, the loadtest's report (every process's CPU over
the window and the verdict against loadtest's bars), each cgroup's throttling, and a last line
`scaleout: P x QUOTA cores, M matches: OK|FAILED`. Exits 0 when the run held the bars, 1 when not,
2 when it could not run (cgroups not writable, a service missing). It cleans up after itself: the
servers, the cgroups, the database (`--database`, kaiza_scale) and the Redis db (`--redis-db`, 6).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

# Run as a script (bench/scripts/scaleout.sh): the checkout's root on the path for the bench package.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.scripts.bench_bare import KAIZA_ENV, PSQL, PY, ROOT, timeit, wait_up

CGROOT = Path(os.environ.get("KAIZA_CGROUP_ROOT", "/sys/fs/cgroup/cpu"))
PERIOD_US = 100_000


def cgroup_path(index: int) -> Path:
    return CGROOT / f"kaiza-scale-{index}"


def make_cgroup(index: int, quota: float, period_us: int = PERIOD_US) -> Path:
    """A CPU cgroup of `quota` cores (cgroup v1: quota over period); a clear error where it cannot be.

    The period sets how the quota is dealt: a process that spends its share early in a period waits
    for the rest of it (60 ms of each 100 ms at 0.4 core), and near its quota those stalls, not its
    capacity, make the p99 latencies. A shorter period (`--period-ms`) deals the same share in finer
    slices."""
    path = cgroup_path(index)
    try:
        path.mkdir(exist_ok=True)
        (path / "cpu.cfs_period_us").write_text(str(period_us))
        (path / "cpu.cfs_quota_us").write_text(str(int(quota * period_us)))
    except OSError as exc:
        print(
            f"scaleout: cannot make the CPU cgroup {path} ({exc.strerror}): this needs cgroup v1's CPU "
            f"controller at {CGROOT}, writable (root). Nothing was started.",
            file=sys.stderr,
        )
        raise SystemExit(2) from None
    return path


def throttling(path: Path) -> str:
    """The cgroup's throttling over its life (cpu.stat): how often the quota held the process back."""
    try:
        stat = dict(line.split() for line in (path / "cpu.stat").read_text().splitlines())
    except (OSError, ValueError):
        return "cpu.stat not readable"
    return (
        f"{stat.get('nr_throttled', '?')} of {stat.get('nr_periods', '?')} periods throttled, "
        f"{int(stat.get('throttled_time', 0)) / 1e9:.1f} s held back"
    )


def remove_cgroup(path: Path) -> None:
    try:
        path.rmdir()
    except OSError as exc:
        print(f"scaleout: could not remove {path}: {exc.strerror}", file=sys.stderr)


def stop_pid(pid: int) -> None:
    """SIGTERM a process that is not our child (bounded wait, then SIGKILL)."""
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    for _ in range(200):
        if not Path(f"/proc/{pid}").exists():
            return
        time.sleep(0.1)
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


def parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("processes", type=int, help="server processes (P)")
    parser.add_argument("quota", type=float, help="cores of each process's cgroup (QUOTA), e.g. 0.5")
    parser.add_argument("matches", type=int, help="matches (M)")
    parser.add_argument("spectators", type=int, nargs="?", default=5, help="spectators a match (S)")
    parser.add_argument("duration", type=float, nargs="?", default=20.0, help="seconds measured (D)")
    parser.add_argument("--port", type=int, default=8111, help="the first server's port (the others follow)")
    parser.add_argument(
        "--period-ms", type=float, default=PERIOD_US / 1000, help="the cgroups' CFS period (ms, 1-1000; default 100)"
    )
    parser.add_argument("--log", type=Path, default=Path("/tmp/scaleout.log"))
    parser.add_argument("--database", default="kaiza_scale", help="the PostgreSQL database made and dropped")
    parser.add_argument("--redis-db", default="6", help="the Redis database flushed before and after")
    parser.add_argument("--loadtest-arg", action="append", default=[], help="passed on to loadtest (repeatable)")
    args = parser.parse_args()
    if not re.fullmatch(r"[a-z_][a-z0-9_]*", args.database) or not args.redis_db.isdigit():
        parser.error("--database takes a plain name (a-z, 0-9, _), --redis-db a number")
    if args.processes < 1 or args.matches < 1 or args.spectators < 0 or args.duration <= 0:
        parser.error("need P >= 1, M >= 1, S >= 0 and D > 0")
    if not 1 <= args.period_ms <= 1000:
        parser.error("--period-ms is 1 to 1000")
    cores = os.cpu_count() or 1
    if not 0.01 <= args.quota <= cores:
        parser.error(f"QUOTA is in cores, 0.01 to {cores}")
    return args


def main() -> int:
    args = parse()
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(KAIZA_ENV)
    env["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{args.database}"
    env["REDIS_URL"] = f"redis://127.0.0.1:6379/{args.redis_db}"
    groups: list[Path] = []
    servers: list[subprocess.Popen[bytes]] = []
    restarted: list[int] = []
    args.log.write_text("")
    try:
        for index in range(args.processes):
            groups.append(make_cgroup(index, args.quota, int(args.period_ms * 1000)))
        for check, what in ((["pg_isready", "-q", "-h", "127.0.0.1"], "PostgreSQL"), (["redis-cli", "ping"], "Redis")):
            if subprocess.run(check, capture_output=True).returncode != 0:
                print(f"scaleout: {what} is not reachable on 127.0.0.1", file=sys.stderr)
                return 2
        drop = f"DROP DATABASE IF EXISTS {args.database}"
        subprocess.run([*PSQL, "-c", drop, "-c", f"CREATE DATABASE {args.database}", "postgres"], check=True)
        subprocess.run(["redis-cli", "-n", args.redis_db, "flushdb"], check=True, capture_output=True)
        subprocess.run([PY, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
        ports = [args.port + i for i in range(args.processes)]
        for group, port in zip(groups, ports, strict=True):
            procs = group / "cgroup.procs"

            def enter(procs: Path = procs) -> None:  # in the child, before exec: its threads follow
                procs.write_text(str(os.getpid()))

            cmd = [PY, "-m", "bench.serve", "-b", "127.0.0.1", "-p", str(port), "kaiza_site.asgi:application"]
            with args.log.open("ab") as sink:
                servers.append(
                    subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=sink, stderr=subprocess.STDOUT, preexec_fn=enter)
                )
        for port, server in zip(ports, servers, strict=True):
            wait_up(port, server)
        print(
            f"scaleout: {args.processes} process(es) x {args.quota:g} cores (cgroups {CGROOT}/kaiza-scale-*, "
            f"period {args.period_ms:g} ms), "
            f"M = {args.matches}, S = {args.spectators}, {args.duration:g} s; host timeit {timeit()}",
            flush=True,
        )
        cmd = [PY, "manage.py", "loadtest", "--matches", str(args.matches), "--spectators", str(args.spectators)]
        cmd += ["--duration", str(args.duration), "--think", "3-8", "--spread", "match"]
        for port, server in zip(ports, servers, strict=True):
            cmd += ["--url", f"http://127.0.0.1:{port}", "--server-pid", str(server.pid)]
        cmd += args.loadtest_arg
        clean = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
        clean["DJANGO_SETTINGS_MODULE"] = "bench.settings"  # the loadtest command is in bench's app
        done = subprocess.run(cmd, cwd=ROOT, env=clean, capture_output=True, text=True)
        print(done.stdout + done.stderr, end="", flush=True)
        # `--reconnect-storm` started the first server again: that process is ours to stop too.
        for again in re.findall(r"started again as pid (\d+)", done.stdout):
            restarted.append(int(again))
        for index, group in enumerate(groups):
            print(f"cgroup {index} ({args.quota:g} cores): {throttling(group)}")
        held = done.returncode == 0 and re.search(r"^result: OK$", done.stdout, re.M) is not None
        print(
            f"scaleout: {args.processes} x {args.quota:g} cores, {args.matches} matches: {'OK' if held else 'FAILED'}"
        )
        return 0 if held else 1
    finally:
        for server in servers:
            server.send_signal(signal.SIGTERM)
        for server in servers:
            try:
                server.wait(20)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
        for pid in restarted:
            stop_pid(pid)
        for group in groups:
            remove_cgroup(group)
        subprocess.run([*PSQL, "-c", f"DROP DATABASE IF EXISTS {args.database}", "postgres"], capture_output=True)
        subprocess.run(["redis-cli", "-n", args.redis_db, "flushdb"], capture_output=True)


if __name__ == "__main__":
    sys.exit(main())
