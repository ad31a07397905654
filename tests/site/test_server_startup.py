"""Importing the application does nothing to the process: the server's start-up is one explicit call,
kaiza_site.server.startup.start(), made by `python -m kaiza_site.serve` (the tests' servers included,
tests/support/daphne.py) once the application is loaded."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.support.daphne import PROJECT_DIR, server_env

STATE = (
    "import gc, json, sys; from twisted.internet import tcp;"
    "print(json.dumps([gc.get_freeze_count() > 0, gc.get_threshold(), sys.getswitchinterval(),"
    " tcp.Connection.write.__module__]))"
)


def process_state(code: str) -> list[object]:
    out = subprocess.run(
        [sys.executable, "-c", f"{code}; {STATE}"],
        cwd=PROJECT_DIR,
        env=server_env(),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return list(json.loads(out.stdout.splitlines()[-1]))


def test_importing_the_application_tunes_nothing() -> None:
    frozen, thresholds, interval, write = process_state("import kaiza_site.asgi")
    assert frozen is False
    assert thresholds == [700, 10, 10]  # Python's
    assert interval == 0.005  # Python's
    assert write != "kaiza_site.server.write_through"


def test_start_tunes_the_process_once() -> None:
    code = "import kaiza_site.asgi; from kaiza_site.server import startup; startup.start(); startup.start()"
    frozen, thresholds, interval, write = process_state(code)
    assert frozen is True
    assert thresholds == [10000, 5, 1000]
    assert interval == 0.001
    assert write == "kaiza_site.server.write_through"
