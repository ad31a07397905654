"""`bench/scripts/scaleout.sh`: server processes in CPU cgroups of their own, one run of
the load benchmark over them, everything cleaned up. The figures are benchmarks
(docs/benchmarks.md); these runs prove the tool: its processes are in their cgroups with the
quota asked for, the run's report comes out, and nothing is left behind."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from tests.support import services
from tests.support.daphne import free_ports

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "bench" / "scripts" / "scaleout.sh"
CGROOT = Path("/sys/fs/cgroup/cpu")


def run_scaleout(
    *args: str, env: dict[str, str] | None = None, timeout: float = 240
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(SCRIPT), *args],
        cwd=ROOT,
        env={**os.environ, "PY": sys.executable, **(env or {})},
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_scaleout_says_why_when_cgroups_are_not_writable(tmp_path: Path) -> None:
    missing = tmp_path / "no-cgroups-here"
    done = run_scaleout("2", "0.5", "1", env={"KAIZA_CGROUP_ROOT": str(missing)})
    assert done.returncode == 2, done.stdout + done.stderr
    assert f"cannot make the CPU cgroup {missing}/kaiza-scale-0" in done.stderr
    assert "cgroup v1's CPU controller" in done.stderr and "Nothing was started." in done.stderr
    assert not missing.exists()


def test_scaleout_refuses_arguments_it_cannot_use() -> None:
    done = run_scaleout("0", "0.5", "10")
    assert done.returncode == 2 and "need P >= 1" in done.stderr
    done = run_scaleout("1", "64000", "10")
    assert done.returncode == 2 and "QUOTA is in cores" in done.stderr
    done = run_scaleout("1", "0.5", "10", "--database", "x; DROP")
    assert done.returncode == 2 and "--database takes a plain name" in done.stderr
    done = run_scaleout("1", "0.5", "10", "--period-ms", "0.5")
    assert done.returncode == 2 and "--period-ms is 1 to 1000" in done.stderr


@pytest.mark.slow(28)
def test_scaleout_runs_two_processes_in_their_cgroups_and_cleans_up(tmp_path: Path) -> None:
    services.require(services.postgres_available(), "PostgreSQL is not reachable on 127.0.0.1:5432")
    services.require(services.redis_available(), "Redis is not reachable on 127.0.0.1:6379")
    services.require(os.access(CGROOT, os.W_OK), f"{CGROOT} (cgroup v1's CPU controller) is not writable")
    database = f"kaiza_scale_test_{uuid.uuid4().hex[:8]}"
    log = tmp_path / "scaleout.log"
    done = run_scaleout(
        "2", "0.5", "2", "1", "3",
        "--port", str(free_ports(2)), "--database", database, "--redis-db", "7", "--log", str(log),
        # Judged, generous for a busy test machine: the bars themselves are the benchmark's.
        "--loadtest-arg=--max-shot-p99=5000", "--loadtest-arg=--max-aim-p99=5000", "--loadtest-arg=--think=0.3",
    )  # fmt: skip
    out = done.stdout + done.stderr
    assert done.returncode == 0, out
    assert "scaleout: 2 process(es) x 0.5 cores" in out and "host timeit" in out
    assert "sockets spread by match" in out, out
    pids = re.findall(
        r"^server pid (\d+): RSS \d+ MB, peak RSS \d+ MB, CPU [\d.]+% of a core in the window$", out, re.M
    )
    assert len(pids) == 2, out
    throttled = re.findall(r"^cgroup (\d) \(0.5 cores\): \d+ of \d+ periods throttled", out, re.M)
    assert throttled == ["0", "1"], out
    assert done.stdout.rstrip().endswith("scaleout: 2 x 0.5 cores, 2 matches: OK"), out
    # Cleaned up: no cgroup, no database, no server left.
    assert not list(CGROOT.glob("kaiza-scale-*"))
    listed = subprocess.run(
        ["psql", "-h", "127.0.0.1", "-U", "postgres", "-Atc", "SELECT datname FROM pg_database", "postgres"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert database not in listed
    for pid in pids:
        assert not Path(f"/proc/{pid}").exists(), f"server {pid} still running"
    assert "Traceback" not in log.read_text(errors="replace")


def test_scaleout_puts_each_server_in_its_cgroup_with_the_quota(tmp_path: Path) -> None:
    """The cgroup of a process started through the script's `enter` is the one made with the quota
    (read back from /proc/<pid>/cgroup and cpu.cfs_quota_us), here with a sleeping child."""
    services.require(os.access(CGROOT, os.W_OK), f"{CGROOT} (cgroup v1's CPU controller) is not writable")
    from bench.scripts import scaleout

    index = 90 + os.getpid() % 9
    group = scaleout.make_cgroup(index, 0.25)
    try:
        assert (group / "cpu.cfs_quota_us").read_text().strip() == "25000"
        procs = group / "cgroup.procs"
        child = subprocess.Popen(["sleep", "5"], preexec_fn=lambda: procs.write_text(str(os.getpid())))
        try:
            lines = Path(f"/proc/{child.pid}/cgroup").read_text().splitlines()
            assert any(
                line.split(":")[1].split(",").count("cpu") and line.endswith(f"/kaiza-scale-{index}") for line in lines
            ), lines
        finally:
            child.kill()
            child.wait()
        assert "periods throttled" in scaleout.throttling(group)
        # A shorter period deals the same share in finer slices: 0.4 core of 20 ms is 8 ms each.
        scaleout.make_cgroup(index, 0.4, 20_000)
        assert (group / "cpu.cfs_period_us").read_text().strip() == "20000"
        assert (group / "cpu.cfs_quota_us").read_text().strip() == "8000"
    finally:
        scaleout.remove_cgroup(group)
    assert not group.exists()
