"""The engine must stay free of the framework (ARCHITECTURE.md section 2): it is imported by
benchmarks, the computer opponent's worker processes and tools that have no Django."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "game" / "engine"
FORBIDDEN = ("django", "channels", "asyncio", "daphne", "redis", "psycopg")


def imported_roots(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name.split(".")[0]) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module.split(".")[0]))
    return found


def test_engine_imports_nothing_of_the_framework() -> None:
    files = sorted(ENGINE.rglob("*.py"))
    assert files, "game/engine has no Python files"
    offenders = [
        f"{path.relative_to(ENGINE.parent.parent)}:{line} imports {root}"
        for path in files
        for line, root in imported_roots(path)
        if root in FORBIDDEN
    ]
    assert offenders == []


def test_scanner_catches_a_framework_import(tmp_path: Path) -> None:
    sample = tmp_path / "bad.py"
    sample.write_text("import os\nfrom django.db import models\nimport asyncio.tasks\n")
    assert [root for _, root in imported_roots(sample) if root in FORBIDDEN] == ["django", "asyncio"]


def test_engine_imports_without_django_installed_in_the_process() -> None:
    """Importing every engine module leaves django out of sys.modules."""
    code = (
        "import importlib, pkgutil, sys, game.engine as e\n"
        "for m in pkgutil.walk_packages(e.__path__, 'game.engine.'):\n"
        "    importlib.import_module(m.name)\n"
        "bad = sorted(n for n in sys.modules if n.split('.')[0] in ('django', 'channels', 'asyncio'))\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ENGINE.parent.parent, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == ""
