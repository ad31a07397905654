"""tests/ mirrors game/ (ARCHITECTURE.md section 2): a domain package's tests live in the
folder of its name, so whoever changes a domain finds its tests beside each other."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: Packages of game/ that are not domains: Django's own folders, the models (tested through their
#: domains), the template tags (through the pages) and the load client (tests/site/test_loadtest.py).
NOT_DOMAINS = {"migrations", "management", "templates", "templatetags", "locale", "models", "loadtest", "__pycache__"}


def test_tests_mirror_the_domains() -> None:
    domains = sorted(
        p.name for p in (ROOT / "game").iterdir() if (p / "__init__.py").exists() and p.name not in NOT_DOMAINS
    )
    assert len(domains) >= 10, domains
    without = [d for d in domains if not list((ROOT / "tests" / d).glob("test_*.py"))]
    assert without == []
    flat = sorted(p.name for p in (ROOT / "tests").glob("test_*.py"))
    assert flat == [], "a test beside the folders: put it in its domain's"
