"""The fast set of `make check` (scripts/run_tests.py --check), a pytest plugin: of the tests under the
paths it is given, it keeps those that need no database, no browser, no service and no server of their
own, and deselects the rest (they run in `make test`). A test is judged by what it declares, its markers
and the fixtures it asks for (directly or through other fixtures: pytest's closure), so a new page test
or database test leaves the fast set by being written the usual way.
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest

#: Markers of tests that wait on a browser, a real service or a long run. Every marker registered in
#: pyproject.toml is here or in FAST_MARKERS (tests/architecture/test_check.py).
SLOW_MARKERS = frozenset({"browser", "services", "slow", "redis", "postgres", "django_db"})
#: Registered markers a fast test may carry: none yet.
FAST_MARKERS: frozenset[str] = frozenset()
#: Fixtures that open the database, start a browser or a daphne server, or reach a real service
#: (pytest-django's and tests/conftest.py's).
SLOW_FIXTURES = frozenset(
    {
        "db",
        "transactional_db",
        "django_db_setup",
        "client",
        "admin_client",
        "chromium",
        "daphne_factory",
        "live_server_url",
        "redis_url",
        "redis_channel_layer",
        "postgres_database_url",
    }
)


def is_fast(markers: Iterable[str], fixtures: Iterable[str]) -> bool:
    """A test of the fast set: no slow marker and no slow fixture."""
    return not SLOW_MARKERS.intersection(markers) and not SLOW_FIXTURES.intersection(fixtures)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Runs before tests/conftest.py deals the tests out to the workers, so it deals the fast ones."""
    fast, slow = [], []
    for item in items:
        markers = {marker.name for marker in item.iter_markers()}
        (fast if is_fast(markers, getattr(item, "fixturenames", ())) else slow).append(item)
    if slow:
        config.hook.pytest_deselected(items=slow)
    items[:] = fast
