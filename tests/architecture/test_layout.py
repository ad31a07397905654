"""tests/ mirrors game/ (ARCHITECTURE.md section 2): a domain package's tests live in the
folder of its name, so whoever changes a domain finds its tests beside each other."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: Packages of game/ that are not domains: Django's own folders, the models (tested through their
#: domains) and the template tags (through the pages).
NOT_DOMAINS = {"migrations", "management", "templates", "templatetags", "locale", "models", "__pycache__"}


def test_tests_mirror_the_domains() -> None:
    domains = sorted(
        p.name for p in (ROOT / "game").iterdir() if (p / "__init__.py").exists() and p.name not in NOT_DOMAINS
    )
    assert len(domains) >= 10, domains
    without = [d for d in domains if not list((ROOT / "tests" / d).glob("test_*.py"))]
    assert without == []
    flat = sorted(p.name for p in (ROOT / "tests").glob("test_*.py"))
    assert flat == [], "a test beside the folders: put it in its domain's"


def test_the_benchmarks_keep_their_tests_apart() -> None:
    """bench/ is outside the product, and so are its tests: tests/bench/ holds them (the product's
    folders test the product)."""
    assert (ROOT / "bench" / "__init__.py").exists()
    assert list((ROOT / "tests" / "bench").glob("test_*.py"))
    assert not (ROOT / "game" / "loadtest").exists(), "the load client lives in bench/loadtest"
