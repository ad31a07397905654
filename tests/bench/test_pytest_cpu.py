"""bench.pytest_cpu counts a test's CPU with what it starts (docs/testing.md, where the time goes)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench.pytest_cpu import CPUACCT

ROOT = Path(__file__).resolve().parents[2]

BURNS_IN_A_CHILD = """
import subprocess, sys

def test_burns_in_a_child():
    subprocess.run([sys.executable, "-c", "sum(i * i for i in range(4 * 10**6))"], check=True)

def test_idle():
    pass
"""


def test_a_tests_cpu_includes_the_processes_it_starts(tmp_path: Path) -> None:
    if not os.access(CPUACCT, os.W_OK):
        pytest.skip(f"no writable cgroup-v1 cpuacct hierarchy at {CPUACCT} (root on cgroup v1 is needed)")
    (tmp_path / "test_burn.py").write_text(BURNS_IN_A_CHILD)
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    env = {**os.environ, "KAIZA_TEST_CPU_DIR": str(tmp_path / "cpu"), "PYTHONPATH": str(ROOT)}
    env.pop("PYTEST_XDIST_WORKER", None)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "bench.pytest_cpu", "-p", "no:django", "-p", "no:cacheprovider"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    rows = [line.split("\t") for path in (tmp_path / "cpu").glob("*.tsv") for line in path.read_text().splitlines()]
    cost = {node: (float(group), float(own)) for node, group, _wall, own in rows}
    burned, idle = cost["test_burn.py::test_burns_in_a_child"], cost["test_burn.py::test_idle"]
    # The child's CPU is the group's, not the pytest process's own; an idle test costs next to nothing.
    assert burned[0] > burned[1] + 0.1, burned
    assert idle[0] < burned[0] / 4, (idle, burned)
