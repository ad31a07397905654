"""The product ships no benchmarks: the wheel holds no module of the load client, the benchmark and bot
commands or the server diagnostics, and the production server imports none of them. They live in bench/,
a checkout's tools (docs/decisions/bench-outside-the-product.md)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Iterable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: A module whose path has one of these parts (a package or a file, less its .py) is a benchmark's or a
#: diagnostic's, wherever it would land; so is one whose name starts with "bench_".
BENCHMARK_PARTS = frozenset({"bench", "loadtest", "gccensus", "loopwatch", "scaleout", "bot_ladder", "bot_match"})
#: The production server's modules: what daphne runs in production.
SERVER_MODULES = ("kaiza_site.asgi", "kaiza_site.serve")
#: Not copied into the wheel's build: environments, caches, build output.
NOT_SOURCE = shutil.ignore_patterns(
    ".git", ".venv", "node_modules", "build", "dist", "*.egg-info", "__pycache__", "test-artifacts", "*.sqlite3"
)


def benchmark_modules(names: Iterable[str]) -> list[str]:
    """The names (paths `a/b.py` or dotted `a.b`) that are benchmark or diagnostic modules."""
    found = []
    for name in names:
        parts = name.removesuffix(".py").replace("/", ".").split(".")
        if any(part in BENCHMARK_PARTS or part.startswith("bench_") for part in parts):
            found.append(name)
    return sorted(found)


def wheel_names(tmp_path: Path) -> list[str]:
    """The files of the wheel built from a copy of this checkout (bench/ and tests/ included in the
    copy, as in a checkout), built as a release is: uv (the installer `make install` pins) running the
    pyproject.toml's build backend in an isolated environment."""
    source, out = tmp_path / "source", tmp_path / "wheel"
    shutil.copytree(ROOT, source, ignore=NOT_SOURCE)
    done = subprocess.run(
        [sys.executable, "-m", "uv", "build", "--wheel", "--quiet", "--out-dir", str(out), str(source)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    (wheel,) = out.glob("kaiza-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        return archive.namelist()


def modules_after_importing(modules: Iterable[str]) -> list[str]:
    """Every module loaded by a fresh interpreter that imports `modules` from this checkout (where bench/
    is importable) with the settings the server starts with."""
    code = f"import sys; import {', '.join(modules)}; print('\\n'.join(sorted(sys.modules)))"
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


@pytest.mark.slow(18)
def test_product_ships_no_benchmarks(tmp_path: Path) -> None:
    names = wheel_names(tmp_path)
    assert any(name.startswith("game/engine/physics/") for name in names), "the wheel holds the product"
    tops = {name.split("/")[0] for name in names}
    assert {top for top in tops if not top.endswith(".dist-info")} == {"game", "kaiza_site"}
    assert benchmark_modules(names) == []
    loaded = modules_after_importing(SERVER_MODULES)
    assert "kaiza_site.serve" in loaded and "game.routing" in loaded
    assert benchmark_modules(loaded) == []


def test_the_benchmark_checks_find_what_they_ban() -> None:
    """Neither check is vacuous: a benchmark module is named as one wherever it lands, the product's
    own modules are not, and a server that imported a diagnostic would be caught."""
    planted = [
        "game/loadtest/client.py",
        "kaiza_site/loopwatch.py",
        "kaiza_site/gccensus.py",
        "game/management/commands/bench_physics.py",
        "game/management/commands/loadtest.py",
        "game/management/commands/bot_ladder.py",
        "game/engine/bench.py",
        "bench/serve.py",
        "bench.diagnostics.loopwatch",
    ]
    product = [
        "game/engine/physics/params.py",
        "game/engine/bot/play.py",
        "game/management/commands/make_puzzles.py",
        "game/management/commands/kaisakaavio.py",
        "kaiza_site/serve.py",
        "game.matches.bot_runner",
    ]
    assert benchmark_modules(planted + product) == sorted(planted)
    assert "bench.diagnostics.loopwatch" in benchmark_modules(
        modules_after_importing(["kaiza_site.serve", "bench.diagnostics.loopwatch"])
    )
