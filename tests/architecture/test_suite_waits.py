"""The page tests' waits (tests/support/services.py `PAGE_POLL_MS`)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _waits_without_polling(path: Path) -> list[int]:
    """The lines of `path` that call `wait_for_function` without a `polling=` argument."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "wait_for_function"
        and not any(keyword.arg == "polling" for keyword in node.keywords)
    ]


def test_page_waits_ask_on_a_timer(tmp_path: Path) -> None:
    """A page test's waits pass `polling=PAGE_POLL_MS` (tests/support/services.py): Playwright's
    default asks on every animation frame and keeps an idle page drawing while a test waits on it."""
    unpolled = {
        str(path.relative_to(ROOT)): lines
        for path in sorted((ROOT / "tests").rglob("*.py"))
        if (lines := _waits_without_polling(path))
    }
    assert unpolled == {}
    # The check itself finds a call that forgets it, written on one line or over several.
    sample = tmp_path / "sample.py"
    sample.write_text('page.wait_for_function("() => 1")\npage.wait_for_function(\n    "() => 1", polling=50\n)\n')
    assert _waits_without_polling(sample) == [1]
