"""`make check` stays the fast inner loop by design: its command loads the plugin that keeps only the
tests needing no database, browser, service or server (tests/support/check.py), over paths that exist
and leave out the end-to-end folder; and the plugin knows every marker and server fixture the suite
has, so a new kind of slow test cannot slip into the fast set unclassified.
"""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

from scripts.run_tests import CHECK_PATHS, CHECK_PLUGIN, services_modules
from tests.support.check import FAST_MARKERS, SLOW_FIXTURES, SLOW_MARKERS, is_fast

ROOT = Path(__file__).resolve().parents[2]
#: The suite's own fixtures that start a browser or a server, or reach a real service.
SERVER_FIXTURES = {
    "chromium",
    "daphne_factory",
    "live_server_url",
    "redis_url",
    "redis_channel_layer",
    "postgres_database_url",
}


def _registered_markers() -> set[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return {re.split(r"[:(]", line)[0].strip() for line in config["tool"]["pytest"]["ini_options"]["markers"]}


def _conftest_fixtures() -> set[str]:
    tree = ast.parse((ROOT / "tests" / "conftest.py").read_text(encoding="utf-8"))
    return {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}


def test_the_fast_set_stays_fast() -> None:
    assert CHECK_PLUGIN == "tests.support.check"
    assert {"tests/engine", "tests/rules", "tests/architecture"} <= set(CHECK_PATHS)
    assert [path for path in CHECK_PATHS if not (ROOT / path).exists()] == []
    assert [path for path in CHECK_PATHS if path.startswith(("tests/e2e", "tests/js"))] == []
    # Each registered marker is sorted into the fast set or out of it; the browser, service and slow
    # ones out.
    markers = _registered_markers()
    assert {"browser", "services", "slow"} <= markers
    assert markers - SLOW_MARKERS - FAST_MARKERS == set(), "a new marker: add it to tests/support/check.py"
    # The server fixtures keep their names, so the plugin still sees them.
    assert SERVER_FIXTURES <= _conftest_fixtures()
    assert SERVER_FIXTURES <= SLOW_FIXTURES


def test_the_plugin_keeps_only_tests_that_need_nothing_slow() -> None:
    assert is_fast({"parametrize", "asyncio", "hypothesis"}, {"settings", "tmp_path", "monkeypatch"})
    for marker in (*SLOW_MARKERS, "django_db"):
        assert not is_fast({"parametrize", marker}, {"settings"}), marker
    for fixture in (*SLOW_FIXTURES, "db", "client"):
        assert not is_fast({"parametrize"}, {"settings", fixture}), fixture


def test_services_tests_are_marked_where_make_test_looks() -> None:
    """`make test`'s services step collects only the test modules that say `mark.services`: so the
    marker is written in a test module, never added by a conftest or a helper."""
    modules = services_modules()
    assert "tests/matches/test_match_socket.py" in modules
    elsewhere = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "tests").rglob("*.py")
        if not path.name.startswith("test_") and "mark.services" in path.read_text(encoding="utf-8")
    ]
    assert elsewhere == []
