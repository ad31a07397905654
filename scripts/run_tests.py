"""The whole test suite, as `make test` runs it, and the lint (`make lint`).

0. the lint (`LINT`), beside step 1: mypy holds one core for about 9 s of a fresh clone, and before the
   suite the other stood idle; its verdict is printed as soon as it is known and a failure fails the run;
1. pytest with the embedded defaults (SQLite, in-memory channel layer), after one collection in a
   single process (`warm`): everything but the web tests (marked `services`) when PostgreSQL and Redis
   are there, everything on a bare machine;
2. the web tests against real PostgreSQL and the Redis channel layer (a bare machine: skipped, with
   the reason; with `CI` set, failed). They run once, on the backends production runs
   (docs/decisions/web-tests-once.md);
3. the JavaScript unit tests with `node --test`.
Steps 1 and 2 run on `KAIZA_TEST_WORKERS` pytest-xdist workers (default two a core, at most 8: 4 on
the 2-core reference machine; 0 runs in this process): with two, a third of the cores stood idle (vmstat: 33% idle over
step 1) while the browser tests waited on their pages, a shot rolling or a socket's round trip; with
four the cores are busy (8% idle) and step 1 took 488 s where two took 588 s (one session, timeit
44 ms, 1,627 tests, none failed). Each worker's tests keep their channel groups under a Redis prefix of their own
(tests/conftest.py), and pytest-django gives each worker its own PostgreSQL database (7.5 min in one
process, 2.8 min on two workers, timeit 62 ms).
On a bare machine step 2 skips with the reason; with `CI` set a missing service fails the run.

`--check` (`make check`) is the inner loop, in under a minute: the lint beside the tests of CHECK_PATHS
that need no browser, no service and no server of their own (tests/support/check.py deselects the
others), on a worker a core, then the JavaScript unit tests.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import uuid
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.support import services  # noqa: E402

#: ruff's rules, ruff's formatting, then mypy (configured in pyproject.toml: the engine strict, the rest
#: with django-stubs), each from this interpreter's environment, then tsc over the JS client (jsconfig.json;
#: `make install` puts the pinned TypeScript in node_modules); the first failure stops the lint.
LINT = (
    ("-m", "ruff", "check", "."),
    ("-m", "ruff", "format", "--check", "."),
    ("-m", "mypy", "game", "kaiza_site", "bench"),
    ("node", "node_modules/typescript/bin/tsc", "--noEmit", "-p", "jsconfig.json"),
)


#: `make check`'s tests: the engine, the rules, the architecture, and the unit tests of the other
#: domains (their parsers, words and pure helpers); of these the plugin keeps the tests that need no
#: database, browser, service or server (tests/architecture/test_check.py guards both).
CHECK_PATHS = (
    "tests/engine",
    "tests/rules",
    "tests/architecture",
    "tests/common/test_json_text.py",
    "tests/common/test_register_names.py",
    "tests/matches/test_direct_frames.py",
    "tests/matches/test_history_words.py",
    "tests/practice/test_practice.py",
    "tests/puzzles/test_puzzle_selection.py",
    "tests/ratings/test_ratings.py",
    "tests/realtime/test_aborted_requests.py",
    "tests/realtime/test_close_codes.py",
    "tests/realtime/test_outbound_messages.py",
    "tests/realtime/test_outbox.py",
    "tests/realtime/test_protocol_docs.py",
    "tests/realtime/test_protocol_fuzz.py",
    "tests/realtime/test_shared_reads.py",
    "tests/site/test_js_catalogue.py",
    "tests/site/test_rules_languages.py",
    "tests/site/test_rules_page.py",
    "tests/site/test_tutorial.py",
    "tests/tournaments/test_kaisakaavio_files.py",
    "tests/tournaments/test_kaisakaavio_forms.py",
)
CHECK_PLUGIN = "tests.support.check"


def lint(echo: Callable[[str], None]) -> int:
    """Run LINT in order, each command's output given to `echo`; the first non-zero exit code, or 0."""
    for args in LINT:
        cmd = [sys.executable, *args] if args[0] == "-m" else list(args)
        done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        echo(f"$ {' '.join(cmd)}\n{done.stdout}{done.stderr}")
        if done.returncode:
            return done.returncode
    return 0


class LintBeside(threading.Thread):
    """The lint in a thread of its own while the suite runs; a failure is printed the moment it is known
    (a developer may stop the suite then) and fails the run at its end."""

    def __init__(self) -> None:
        super().__init__(name="lint", daemon=True)
        self.output: list[str] = []
        self.code: int | None = None

    def run(self) -> None:
        self.code = lint(self.output.append)
        if self.code:
            said = "".join(self.output)
            print(f"{said}\nlint failed (above): the suite goes on; make test fails at its end", flush=True)

    def verdict(self) -> int:
        """Waits for the lint; prints what it said when it passed; 1 if it failed."""
        self.join()
        if self.code == 0:
            print("".join(self.output), end="", flush=True)
        return 1 if self.code else 0


def run(cmd: list[str], env: dict[str, str] | None = None) -> int:
    print("$", " ".join(cmd), flush=True)
    code = subprocess.call(cmd, cwd=ROOT, env=env)
    # pytest exits 5 when a marker selects nothing: not a failure of the suite.
    return 0 if code == 5 else code


def main(argv: list[str]) -> int:
    if argv == ["--lint"]:
        return lint(lambda text: print(text, end="", flush=True))
    linting = LintBeside()
    linting.start()
    # Bytecode is cached (__pycache__, and pytest's rewritten test modules) even where the environment
    # asks for none (PYTHONDONTWRITEBYTECODE, set on the reference machine): a run starts about two
    # hundred Python processes (workers, daphne servers, Django shells, load clients), and each compiled
    # the project again: 0.13 CPU-s a server, 2-3 s a worker's collection.
    base_env = {
        k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "PYTHONDONTWRITEBYTECODE"}
    }
    if argv[:1] == ["--check"]:
        return 1 if check(argv[1:], base_env) + linting.verdict() else 0
    failures = 0
    workers = os.environ.get("KAIZA_TEST_WORKERS", str(min(8, 2 * (os.cpu_count() or 1))))
    user_args = argv
    argv = ["-n", workers, "--dist", "worksteal", "--durations=25", *argv]
    # One run for both steps: the services step reuses the SQLite and PostgreSQL templates the first
    # step migrated (tests/conftest.py `_run_shared`); they are dropped here, at the end.
    run_name = base_env["KAIZA_TEST_RUN"] = uuid.uuid4().hex[:12]
    try:
        if workers != "0":
            warm(user_args, base_env)
        failures += steps(argv, base_env, user_args)
    finally:
        services.drop_run_templates(run_name)
    failures += linting.verdict()
    return 1 if failures else 0


def warm(user_args: list[str], env: dict[str, str]) -> None:
    """Collect the tests once, in one process, before the workers start: pytest rewrites each
    test module's asserts and caches the result beside it, and on a fresh clone the four workers of
    step 1 each rewrote all of them at once (10 CPU-s a worker cold, 3.3 warm; the lint takes the other
    core meanwhile). What it says is left to step 1, which collects the same tests again."""
    cmd = [sys.executable, "-m", "pytest", "--collect-only", "-qq", *user_args]
    subprocess.run(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def check(argv: list[str], base_env: dict[str, str]) -> int:
    """The fast set on a worker a core (its tests are busy on the CPU: more workers would only add
    start-ups), then the JavaScript unit tests; the number of steps that failed."""
    workers = os.environ.get("KAIZA_TEST_WORKERS", str(os.cpu_count() or 1))
    pytest_args = ["-n", workers, "-p", CHECK_PLUGIN, "--durations=10", *CHECK_PATHS, *argv]
    failures = int(run([sys.executable, "-m", "pytest", *pytest_args], env=base_env) != 0)
    return failures + js_tests()


def js_tests() -> int:
    """The JavaScript unit tests with `node --test`: 1 if they failed (or node is missing in CI)."""
    js_tests = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tests" / "js").glob("*.test.mjs"))
    if not js_tests:
        return 0
    node = shutil.which("node")
    if node is None:
        print("node is not installed: the JavaScript unit tests did not run", flush=True)
        return int(services.in_ci())
    return int(run([node, "--test", *js_tests]) != 0)


def services_modules() -> list[str]:
    """The test modules that mark tests `services` (`pytest.mark.services`, on a test, a class or the
    module's `pytestmark`: tests/architecture/test_check.py checks it is marked no other way)."""
    return sorted(
        str(path.relative_to(ROOT))
        for path in (ROOT / "tests").rglob("test_*.py")
        if "mark.services" in path.read_text(encoding="utf-8")
    )


def steps(argv: list[str], base_env: dict[str, str], user_args: list[str]) -> int:
    """Step 1 (the embedded defaults), step 2 (the `services` tests on PostgreSQL and Redis), step 3
    (node --test); the number of steps that failed. `user_args`: what the command line gave."""
    missing = []
    if not services.postgres_available():
        missing.append(f"PostgreSQL is not reachable at {services.postgres_admin_url()}")
    if not services.redis_available():
        missing.append(f"Redis is not reachable at {services.redis_url()}")
    # The web tests run once: in step 2 where PostgreSQL and Redis are, else here on SQLite (a marker
    # the command line gives comes later and wins, as in step 2).
    first = [] if missing else ["-m", "not services"]
    failures = 0
    failures += run([sys.executable, "-m", "pytest", *first, *argv], env=base_env) != 0

    matrix_env = dict(base_env)
    if missing:
        matrix_env["KAIZA_SERVICES_MISSING"] = "; ".join(missing)
    else:
        # A database name of this run's own: pytest-django creates and drops "test_<name>", so two
        # runs at once (two developers, or CI beside a developer) never drop each other's database.
        run_db = f"kaiza_run_{os.getpid()}"
        matrix_env["DATABASE_URL"] = urlparse(services.postgres_admin_url())._replace(path=f"/{run_db}").geturl()
        matrix_env["REDIS_URL"] = services.redis_url()
    # The whole run (no paths given): collect only the modules that mark tests `services`. Collecting
    # the whole suite on each worker to run a fifth of it cost 6.2 CPU-s a worker, these 3.4.
    paths = services_modules() if not [arg for arg in user_args if not arg.startswith("-")] else []
    failures += (
        run(
            [sys.executable, "-m", "pytest", "-m", "services", "-p", "no:cacheprovider", *argv, *paths],
            env=matrix_env,
        )
        != 0
    )

    return failures + js_tests()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
