"""Django code a browser test runs on its server's database, in one process per server environment.

A page test sets up what its pages show (a tournament, a finished match, a club) and moves things the
pages cannot (a no-show's deadline) with short snippets of Django code on the server's own database.
Each snippet used to start a Python process of its own: `django.setup()` and the models cost about a
second of CPU each time, and the tournament tests run a dozen snippets apiece. A `DjangoShell` starts
once per environment and runs every snippet of it in turn (a fresh namespace each, the database
connections closed after each, so the next snippet and the server see the same committed rows as a
new process would). `stop_all()` (tests.support.daphne) ends the shells with the servers, before a
test's database is dropped.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

PROJECT_DIR = Path(__file__).resolve().parents[2]

#: The child's loop: one JSON request a line on stdin, one JSON answer a line on its own copy of stdout
#: (a snippet's prints go to stderr, not into the answers).
CHILD = r"""
import json, os, sys, traceback
answers = os.fdopen(os.dup(1), "w")
os.dup2(2, 1)
import django
django.setup()
from django.db import connections
for line in sys.stdin:
    request = json.loads(line)
    namespace = {"__name__": "__snippet__"}
    try:
        if request["factories"]:
            exec("from tests.support.community_factories import *", namespace)
        exec(request["code"], namespace)
        answer = {"result": namespace["result"]}
    except BaseException:
        answer = {"error": traceback.format_exc()}
    finally:
        connections.close_all()
    answers.write(json.dumps(answer) + "\n")
    answers.flush()
"""

_shells: dict[tuple[tuple[str, str], ...], DjangoShell] = {}


class DjangoShell:
    """One child process running snippets for one environment (see the module docstring)."""

    def __init__(self, env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", CHILD],
            cwd=PROJECT_DIR,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=None,  # the test's own output: a snippet's prints and warnings show with a failure
            text=True,
        )

    def run(self, code: str, factories: bool) -> Any:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps({"code": code, "factories": factories}) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"the Django shell exited with {self.process.wait(10)} before it answered")
        answer = json.loads(line)
        if "error" in answer:
            raise AssertionError(f"the snippet failed:\n{code}\n{answer['error']}")
        return answer["result"]

    def close(self) -> None:
        if self.process.poll() is None:
            assert self.process.stdin is not None
            self.process.stdin.close()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        if self.process.stdout is not None:
            self.process.stdout.close()


def django_run(env: dict[str, str], code: str, *, factories: bool = False) -> Any:
    """Runs `code` (which sets `result`, JSON-serialisable) with Django set up on the environment's
    database, and returns result; `factories` first imports tests.support.community_factories."""
    key = tuple(sorted(env.items()))
    shell = _shells.get(key)
    if shell is None or shell.process.poll() is not None:
        shell = _shells[key] = DjangoShell(env)
    return shell.run(code, factories)


def close_all() -> None:
    """Ends every shell (their database connections with them)."""
    while _shells:
        _shells.popitem()[1].close()
