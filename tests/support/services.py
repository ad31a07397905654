"""Where the real services of the test suite are, and whether they answer.

One place decides what happens when a service is missing: on a user's bare machine the tests that need
it are skipped with the reason; when `CI` is set they fail, so a CI run can never go green by skipping.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import tempfile
import uuid
from pathlib import Path
from urllib.parse import urlparse

import pytest

DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/3"
DEFAULT_POSTGRES_ADMIN_URL = "postgres://postgres@127.0.0.1:5432/postgres"
CHROMIUM_PATH = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
#: Playwright's own --disable-features list (playwright 1.65.2, pinned in pyproject.toml). Chromium
#: keeps only the last --disable-features switch of its command line, and Playwright puts the caller's
#: switches after its own: a switch of ours must repeat Playwright's features or it drops them
#: (HTTPS upgrades, paint holding, ...). tests/e2e/test_browser_switches.py checks this list against
#: the switch Playwright really passes, so an upgrade that changes it fails there, not silently.
PLAYWRIGHT_DISABLED_FEATURES = (
    "AvoidUnnecessaryBeforeUnloadCheckSync",
    "DestroyProfileOnBrowserClose",
    "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable",
    "LensOverlay",
    "MediaRouter",
    "PaintHolding",
    "ThirdPartyStoragePartitioning",
    "AvoidCorsURLLoaderRestartOnRedirect",
    "TcpPortRandomizationWin",
    "OptimizationHints",
    "NetworkTimeServiceQuerying",
    "AimEnabled",
    "PreconnectToSearch",
    "msForceBrowserSignIn",
    "msEdgeUpdateLaunchServicesPreferredVersion",
)
#: Debian's Chromium (156) draws the address bar's suggestion popup of every window as pages of its own
#: (the WebUI omnibox popup: two more renderer processes per browser context, even headless, where there
#: is no address bar): about 1.2 s of CPU for each context a test opens (eight contexts: 15.2 CPU-s with
#: the popup, 5.4 without, on this 2-core host), and the page tests open hundreds.
KAIZA_DISABLED_FEATURES = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "WebUIOmniboxFullPopup")
#: How often a test's `page.wait_for_function` asks its question, in ms. Playwright's default asks on
#: every animation frame, which keeps a page that has nothing to draw producing frames, sixty a second,
#: for as long as a test waits on it: three match pages waiting on each other's shots spent about 8%
#: more CPU-seconds so (five match tests, one process, timeit 47 ms: 84-86 CPU-s against 77-79 at
#: 50 ms). tests/architecture/test_suite_waits.py checks every call passes it.
PAGE_POLL_MS = 50
#: The guide's switches, and the features above.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-features=" + ",".join((*PLAYWRIGHT_DISABLED_FEATURES, *KAIZA_DISABLED_FEATURES)),
]


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in {"", "0", "false", "no"}


def require(available: bool, reason: str) -> None:
    """Skip (bare machine) or fail (CI) when a real service a test needs is not there."""
    if available:
        return
    if in_ci():
        pytest.fail(f"{reason} (CI is set, so this is a failure, not a skip)", pytrace=False)
    pytest.skip(reason)


def tcp_open(url: str, default_port: int, timeout: float = 1.0) -> bool:
    parsed = urlparse(url)
    host = parsed.hostname or "127.0.0.1"
    port = parsed.port or default_port
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def redis_url() -> str:
    return os.environ.get("TEST_REDIS_URL", DEFAULT_REDIS_URL)


def redis_available() -> bool:
    url = redis_url()
    if not tcp_open(url, 6379):
        return False
    try:
        import redis

        client = redis.Redis.from_url(url, socket_timeout=2)
        ok = bool(client.ping())
        client.close()
        return ok
    except Exception:
        return False


def postgres_admin_url() -> str:
    return os.environ.get("TEST_POSTGRES_ADMIN_URL", DEFAULT_POSTGRES_ADMIN_URL)


def postgres_available() -> bool:
    url = postgres_admin_url()
    if not tcp_open(url, 5432):
        return False
    try:
        import psycopg

        with psycopg.connect(url, connect_timeout=3) as conn:
            conn.execute("SELECT 1")
        return True
    except Exception:
        return False


def postgres_create_database(template: str | None = None, name: str | None = None) -> str:
    """A fresh database for a test that runs its own server processes, empty or a copy of the
    database at `template` (a URL; nobody may be connected to it); returns its URL."""
    import psycopg

    name = name or f"kaiza_t_{uuid.uuid4().hex[:12]}"
    copy = f' TEMPLATE "{urlparse(template).path.lstrip("/")}"' if template else ""
    with psycopg.connect(postgres_admin_url(), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"{copy}')
    parsed = urlparse(postgres_admin_url())
    return parsed._replace(path=f"/{name}").geturl()


def postgres_drop_database(url: str) -> None:
    import psycopg

    name = urlparse(url).path.lstrip("/")
    with psycopg.connect(postgres_admin_url(), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


#: The file in a run's directory that names its migrated PostgreSQL template (a database URL).
POSTGRES_TEMPLATE_MARKER = "postgres-template"


def run_dir(run: str) -> Path:
    """The directory a test run's processes share (the migrated templates, `tests/conftest.py`)."""
    return Path(tempfile.gettempdir()) / f"kaiza-test-{run}"


def drop_run_templates(run: str) -> None:
    """Remove what a test run shared: its PostgreSQL template, if one was made, and its directory.
    Called by whoever named the run: `scripts/run_tests.py` for both steps of `make test`, else the
    pytest controller (tests/conftest.py)."""
    shared = run_dir(run)
    marker = shared / POSTGRES_TEMPLATE_MARKER
    if marker.exists():
        with contextlib.suppress(Exception):  # the service went away meanwhile: nothing left to drop
            postgres_drop_database(marker.read_text())
    shutil.rmtree(shared, ignore_errors=True)


def chromium_available() -> bool:
    if not (os.path.exists(CHROMIUM_PATH) or shutil.which("chromium")):
        return False
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return False
    return True
