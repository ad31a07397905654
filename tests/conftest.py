"""Fixtures shared by the whole suite: real Redis, real PostgreSQL, real daphne, real Chromium.

Whether a missing service skips or fails is decided in one place, `tests.support.services.require`:
skip with the reason on a bare machine, fail when `CI` is set.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import uuid
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest

from tests.support import services
from tests.support.daphne import DaphneServer, log_tracebacks, migrate, server_env, stop_all

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"

#: Databases of this worker that are migrated already (a SQLite path or a PostgreSQL URL).
MIGRATED: set[str] = set()


#: Seconds a `slow` test may take (the others: pyproject's `timeout`, 300 s). They play whole matches
#: on real clocks (a K-11 time limit, shoot-outs, reloads) and took 50-290 s beside the other worker's
#: browser on this 2-core machine; the limit is there to catch a hang, not to time them.
SLOW_TIMEOUT = 900


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Browser tests go last in each worker's share but in the first half of the shares, which begin
    with their slow browser tests beside the others' plain tests (`_dealt`): run back to back, a worker's page tests
    share one browser (`_BrowserKeeper`, which closes it before a plain test).

    The slow tests without a browser (9 s or more: load runs, two servers, a database outage, mostly
    waiting) lead the shares of the second half, longest first to the lightest: behind the slow page
    tests of a first-half share they began late, and a 35 s outage begun there ran alone at the end
    of the run for 25 s (a run of 414 s whose other workers were done at 385-398). The `slow` browser tests
    (15 s or more each) lead each worker's browser tests, dealt out by the
    seconds each took (`@pytest.mark.slow(seconds)`, as measured on four workers), longest first to
    the lightest share (a long test left unmarked landed last and ran alone while the others idled):
    pytest-xdist's worksteal hands each worker one contiguous share of this list at the start and
    can steal only tests not yet begun, so four of them in one file, one share, ran end to end on one
    worker while the other had run out of work.

    The services run of `make test` (scripts/run_tests.py) sets KAIZA_SERVICES_MISSING when
    PostgreSQL or Redis is not there: its tests then skip with that reason (the first step ran them on
    SQLite), or fail in CI."""
    for item in items:
        if item.get_closest_marker("slow") is not None:
            item.add_marker(pytest.mark.timeout(SLOW_TIMEOUT))
    items[:] = _dealt(items, int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")))
    missing = os.environ.get("KAIZA_SERVICES_MISSING")
    if not missing:
        return
    marker = pytest.mark.skip(reason=missing) if not services.in_ci() else None
    for item in items:
        if marker is not None:
            item.add_marker(marker)


def _seconds(item: pytest.Item) -> float:
    marker = item.get_closest_marker("slow")
    return float(marker.args[0]) if marker is not None and marker.args else 60.0


def _dealt(items: list[pytest.Item], workers: int) -> list[pytest.Item]:
    """`items` in `workers` shares of the sizes worksteal sends first (len // workers left), each share
    its slow tests without a browser, its other tests, then its turn of the slow browser tests, then its
    other browser tests; the first half of the shares (one of two or three) their turn of the slow
    browser tests first, and no slow test without a browser."""
    browser = [item for item in items if "chromium" in getattr(item, "fixturenames", ())]
    plain = [item for item in items if "chromium" not in getattr(item, "fixturenames", ())]
    slow = [item for item in browser if item.get_closest_marker("slow") is not None]
    quick = [item for item in browser if item.get_closest_marker("slow") is None]
    # The first half of the shares (one of two or three, two of four) begin with their slow page tests,
    # where there are any (the services step has none).
    first_half = max(1, workers // 2) if workers > 1 and slow else 0
    # Slow tests without a browser (a load run, two servers, the fuzzer) lead the other shares: one begun
    # last kept its worker busy alone after the others were done (the services step's tail).
    heads: list[list[pytest.Item]] = [[] for _ in range(first_half)]
    heads += _longest_first(
        [item for item in plain if item.get_closest_marker("slow") is not None], workers - first_half
    )
    plain = [item for item in plain if item.get_closest_marker("slow") is None]
    sizes, left = [], len(items)
    for share in range(workers):
        sizes.append(left // (workers - share))
        left -= sizes[-1]
    turns = _longest_first(slow, workers)
    dealt: list[pytest.Item] = []
    for share, size in enumerate(sizes):
        own = plain[: len(plain) // (workers - share)]
        del plain[: len(own)]
        head, turn = heads[share], turns[share]
        fill = max(0, size - len(head) - len(own) - len(turn)) if share < workers - 1 else len(quick)
        # The first half of the shares (one of two or three, two of four) begin with their slow browser
        # tests: the plain tests alone left the two cores a fifth idle in their first minutes (their sleeps,
        # and the load runs at the heads of the shares mostly wait; vmstat), and page tests beside them
        # fill that. Their heads then run later, beside other tests. A browser closes before a plain test
        # (`_BrowserKeeper`).
        pages_first = share < first_half
        dealt += [*turn, *head, *own, *quick[:fill]] if pages_first else [*head, *own, *turn, *quick[:fill]]
        del quick[:fill]
    assert len(dealt) == len(items), "every test dealt once"
    return dealt


def _longest_first(items: list[pytest.Item], workers: int) -> list[list[pytest.Item]]:
    """`items` in `workers` turns, longest first, each to the turn with the least so far (the seconds
    each took: `slow`'s argument)."""
    turns: list[list[pytest.Item]] = [[] for _ in range(workers)]
    load = [0.0] * workers
    for item in sorted(items, key=_seconds, reverse=True):
        share = load.index(min(load))
        turns[share].append(item)
        load[share] += _seconds(item)
    return turns


@pytest.fixture(scope="session")
def django_db_keepdb() -> bool:
    """Each worker's test database is made as a copy of the run's migrated template before pytest-django
    sets it up (`django_db_modify_db_settings`, which also removes it at the end): Django's keepdb path
    then finds every migration applied (0.1 s of CPU where migrating from scratch took 3.5 s, in each
    of four workers at the start of both steps of `make test`)."""
    return True


@pytest.fixture(scope="session")
def django_db_modify_db_settings(
    django_db_modify_db_settings_parallel_suffix: None,
    tmp_path_factory: pytest.TempPathFactory,
    request: pytest.FixtureRequest,
) -> Iterator[None]:
    """The test database of this worker, a copy of the run's migrated template (see django_db_keepdb),
    removed when the worker is done.

    SQLite tests run on a file, not pytest-django's shared-cache in-memory database: the sockets'
    background work (each process's 2 s heartbeat, coalesced presence reads) reads the database while a
    test writes, and shared-cache SQLite refuses that at once ("database table is locked") where a file
    waits its turn (the busy timeout of settings.py)."""
    from django.conf import settings

    database = settings.DATABASES["default"]
    if database["ENGINE"].endswith("sqlite3"):
        path = tmp_path_factory.mktemp("sqlite") / "test.sqlite3"
        shutil.copyfile(request.getfixturevalue("_sqlite_template"), path)
        database.setdefault("TEST", {})["NAME"] = str(path)
        yield
        return
    name = database.get("TEST", {}).get("NAME") or f"test_{database['NAME']}"
    database.setdefault("TEST", {})["NAME"] = name
    # Emptied by DELETE after each transactional test, not TRUNCATE (tests/support/pg_flush_by_delete).
    if database["ENGINE"] == "django.db.backends.postgresql":
        from django.db import connections

        database["ENGINE"] = "tests.support.pg_flush_by_delete"
        connections["default"].close()
        del connections["default"]  # made at start-up with Django's backend: made again with this one
    url = urlparse(services.postgres_admin_url())._replace(path=f"/{name}").geturl()
    template = request.getfixturevalue("_postgres_template")
    with _run_shared():  # one copy of the template at a time (postgres_database_url)
        services.postgres_drop_database(url)  # a leftover of a run that was killed
        services.postgres_create_database(template=template, name=name)
    yield
    from django.db import connections

    connections.close_all()
    services.postgres_drop_database(url)


@pytest.fixture(scope="session", autouse=True)
def _channel_groups_of_this_worker() -> Iterator[None]:
    """Under a Redis channel layer (the services run of `make test`) the tests of each pytest-xdist
    worker keep their groups under a prefix of their own: the lobby's broadcasts of one worker's test
    would otherwise reach the other worker's lobby sockets (a seek test that expects silence heard a
    stranger's seek). Servers a test starts have their own prefix already (tests.support.daphne)."""
    from channels.layers import channel_layers
    from django.conf import settings

    layer = settings.CHANNEL_LAYERS.get("default", {})
    if "prefix" in layer.get("CONFIG", {}):
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        prefix = layer["CONFIG"]["prefix"] = f"{layer['CONFIG']['prefix']}-{worker}-{os.getpid()}"
        channel_layers.backends.clear()
        yield
        import redis

        client = redis.Redis.from_url(layer["CONFIG"]["hosts"][0])
        for key in client.scan_iter(f"{prefix}*"):
            client.delete(key)
        client.close()
        return
    yield


@pytest.fixture(autouse=True)
def _services_missing_fail_in_ci() -> None:
    missing = os.environ.get("KAIZA_SERVICES_MISSING")
    if missing:
        services.require(False, missing)


@pytest.fixture(autouse=True)
def _english_between_tests() -> Iterator[None]:
    """Each test starts and ends in the default language: a test that activates Finnish or Russian
    and fails before it deactivates must not leave the next test (or worker) reading Russian."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _fresh_cache(settings: Any, request: pytest.FixtureRequest) -> None:
    """Each test counts rate limits (game/common/ratelimit.py, allauth's) in a cache of its own, so limits
    spent by one test never refuse another (and no test touches a shared Redis cache)."""
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": request.node.nodeid}
    }
    # The message budgets likewise (game/common/budgets.py): this process's memory, fresh for each test.
    from game.common import ratelimit

    settings.KAIZA_BUDGET_REDIS_URL = ""
    ratelimit.reset_message_budgets()


@pytest.fixture(autouse=True)
def _no_showcase(settings: Any) -> None:
    """No starter puzzles and no computer exhibition unless a test turns them on (settings.KAIZA_SHOWCASE):
    a page under test shows what the test made."""
    settings.KAIZA_SHOWCASE = False


@pytest.fixture(autouse=True)
def _wall_clock() -> Iterator[None]:
    """Each test starts on the wall clock, whatever the one before moved (game.common.clock)."""
    from game.common import clock

    clock.reset()
    yield
    clock.reset()


@pytest.fixture
def redis_url() -> str:
    services.require(services.redis_available(), f"Redis is not reachable at {services.redis_url()}")
    return services.redis_url()


@pytest.fixture
def redis_channel_layer(settings: Any, redis_url: str) -> Iterator[str]:
    """Switches this test's channel layer to real Redis (channels resets its layers on the change)."""
    import redis

    prefix = f"kaiza-test-{os.getpid()}"
    settings.CHANNEL_LAYERS = {
        "default": {
            # The production layer and capacity (settings.py), with a prefix of this test's own.
            "BACKEND": "game.realtime.channel_layer.KaizaRedisChannelLayer",
            "CONFIG": {"hosts": [redis_url], "prefix": prefix, "capacity": 1500, "expiry": 30},
        }
    }
    yield redis_url
    client = redis.Redis.from_url(redis_url)
    for key in client.scan_iter(f"{prefix}*"):
        client.delete(key)
    client.close()


#: Set by the controller that named the run (not given one): it drops the run's templates at its end.
_NAMED_HERE = "_kaiza_named_the_run"


def pytest_configure(config: pytest.Config) -> None:
    """The controller (or a run without workers) names the run unless it was given a name; its
    pytest-xdist workers inherit the name with its environment, and share the migrated templates under
    it (`_run_shared`). `scripts/run_tests.py` names one run for both steps of `make test`, so the
    services step reuses the templates of the first (it migrated PostgreSQL again, 4 s at its start
    while its four workers waited)."""
    if not hasattr(config, "workerinput") and not os.environ.get("KAIZA_TEST_RUN"):
        os.environ["KAIZA_TEST_RUN"] = uuid.uuid4().hex[:12]
        setattr(config, _NAMED_HERE, True)


def pytest_unconfigure(config: pytest.Config) -> None:
    """The controller that named the run drops its shared templates once every worker is done."""
    if getattr(config, _NAMED_HERE, False):
        services.drop_run_templates(os.environ["KAIZA_TEST_RUN"])


def _run_dir() -> Path:
    path = services.run_dir(os.environ["KAIZA_TEST_RUN"])
    path.mkdir(exist_ok=True)
    return path


@contextlib.contextmanager
def _run_shared() -> Iterator[Path]:
    """The run's shared directory, held by this process alone: the workers of one run migrate one
    template of each kind between them (the first to need it, the others wait and reuse it). A
    `migrate` costs 4-5 s of CPU, and four workers in two steps each made their own (50 s of CPU in a
    run of `make test`)."""
    shared = _run_dir()
    with open(shared / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield shared
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


@pytest.fixture(scope="session")
def _postgres_template() -> str:
    """A PostgreSQL database migrated once per run, the template of every test's own: a `CREATE
    DATABASE ... TEMPLATE` takes a fraction of a second, a `migrate` 5-9 s. Dropped by the controller
    at the end of the run (pytest_unconfigure)."""
    services.require(services.postgres_available(), f"PostgreSQL is not reachable at {services.postgres_admin_url()}")
    with _run_shared() as shared:
        marker = shared / services.POSTGRES_TEMPLATE_MARKER
        if not marker.exists():
            url = services.postgres_create_database(name=f"kaiza_tpl_{os.environ['KAIZA_TEST_RUN']}")
            try:
                migrate(server_env(DATABASE_URL=url))
            except BaseException:
                services.postgres_drop_database(url)
                raise
            marker.write_text(url)
        return marker.read_text()


@pytest.fixture
def postgres_database_url(request: pytest.FixtureRequest) -> Iterator[str]:
    """A fresh PostgreSQL database, migrated (a copy of the run's template), dropped afterwards,
    for tests that run their own servers."""
    services.require(services.postgres_available(), f"PostgreSQL is not reachable at {services.postgres_admin_url()}")
    template = request.getfixturevalue("_postgres_template")
    with _run_shared():  # one copy at a time: PostgreSQL copies a template nobody else is reading
        url = services.postgres_create_database(template=template)
    MIGRATED.add(url)
    try:
        yield url
    finally:
        stop_all()  # servers still running would log the dropped database's errors
        services.postgres_drop_database(url)
        MIGRATED.discard(url)


@pytest.fixture(scope="session")
def _sqlite_template() -> Path:
    """The embedded SQLite database migrated once per run: each server's database starts as a copy
    of it (milliseconds, where a `migrate` takes 5-9 s on this machine)."""
    with _run_shared() as shared:
        path = shared / "template.sqlite3"
        if not path.exists():
            partial = shared / f"template-{os.getpid()}.sqlite3"
            migrate(server_env(SQLITE_PATH=str(partial)))
            partial.rename(path)
        return path


@pytest.fixture
def daphne_logs_clean() -> Iterator[list[Path]]:
    """Fails the test if a daphne log it collects holds a traceback (read once the servers stopped:
    daphne_factory depends on this fixture, so it is torn down first). A clean server log is a
    standard of the project, and the way errors nobody answers for show up."""
    logs: list[Path] = []
    yield logs
    stop_all()
    found = [f"{path.name}:\n{excerpt}" for path in logs for excerpt in log_tracebacks(path)]
    if found:
        pytest.fail("traceback in a daphne log:\n" + "\n---\n".join(found[:5]), pytrace=False)


@pytest.fixture
def daphne_factory(
    tmp_path: Path, daphne_logs_clean: list[Path], request: pytest.FixtureRequest
) -> Iterator[Callable[..., DaphneServer]]:
    """Starts real daphne processes with the environment a test gives; stops them all at the end. Their
    logs are checked for tracebacks (daphne_logs_clean). A server's database is migrated before it
    starts: a new SQLite file is a copy of the worker's migrated template, a PostgreSQL database from
    `postgres_database_url` is one already."""
    started: list[DaphneServer] = []

    def start(server_args: Sequence[str] = (), **env_overrides: str) -> DaphneServer:
        env_overrides.setdefault("SQLITE_PATH", str(tmp_path / "db.sqlite3"))
        env = server_env(**env_overrides)
        key = env.get("DATABASE_URL") or env["SQLITE_PATH"]
        if key not in MIGRATED:
            if not env.get("DATABASE_URL") and not Path(key).exists():
                shutil.copyfile(request.getfixturevalue("_sqlite_template"), key)
            else:
                migrate(env)
            MIGRATED.add(key)
        server = DaphneServer(env=env, log_path=tmp_path / f"daphne-{len(started)}.log", args=list(server_args))
        started.append(server)
        daphne_logs_clean.append(server.log_path)
        return server.start()

    yield start
    for server in started:
        server.stop()


@pytest.fixture
def live_server_url(daphne_factory: Callable[..., DaphneServer]) -> str:
    """One daphne process with the embedded defaults (SQLite, in-memory layer), as `make run` has."""
    return daphne_factory().url


class _BrowserKeeper:
    """A worker's Chromium, kept while its page tests run one after another and closed before any other
    test. Each launch costs about 1.2 CPU-s on this host (Playwright's driver 0.35, the browser 0.6, its
    first context); one per test module launched it 49 times in tests/e2e's 56 tests on four workers,
    because the dealing (`_dealt`) interleaves the modules. It cannot simply live for the session:
    while Playwright's sync API is started, its event loop runs in this thread, and an asyncio test or an
    `async_to_sync` after it fails ("another loop is running"); half the workers begin with page tests
    and a stolen share can bring other tests after them, so `pytest_runtest_teardown` closes it first."""

    def __init__(self) -> None:
        self._playwright: Any = None
        self.browser: Any = None

    def get(self) -> Any:
        if self.browser is not None and not self.browser.is_connected():
            self.close()  # it crashed or a test closed it: the next test gets a new one
        if self.browser is None:
            from playwright.sync_api import sync_playwright

            self._playwright = sync_playwright().start()
            self.browser = self._playwright.chromium.launch(
                executable_path=services.CHROMIUM_PATH, args=services.CHROMIUM_ARGS, headless=True
            )
        return self.browser

    def close(self) -> None:
        from playwright.sync_api import Error as PlaywrightError

        browser, playwright, self.browser, self._playwright = self.browser, self._playwright, None, None
        if browser is not None:
            with contextlib.suppress(PlaywrightError):  # the browser went away with a failed test
                browser.close()
        if playwright is not None:
            playwright.stop()


_BROWSER = _BrowserKeeper()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """After a test's fixtures are torn down: the worker's Chromium goes unless the next test uses it."""
    yield
    if nextitem is None or "chromium" not in getattr(nextitem, "fixturenames", ()):
        _BROWSER.close()


@pytest.fixture
def _chromium_browser() -> Any:
    """A real headless Chromium through Playwright (Debian's browser; Playwright downloads none), shared
    by the page tests a worker runs back to back (`_BrowserKeeper`)."""
    services.require(
        services.chromium_available(),
        f"Chromium is not installed at {services.CHROMIUM_PATH} (apt-get install chromium) or Playwright is missing",
    )
    return _BROWSER.get()


@pytest.fixture
def chromium(_chromium_browser: Any) -> Iterator[Any]:
    """The worker's Chromium; the browser contexts a test opens are closed when it ends. A match page
    left open keeps drawing its clocks and, once the test's server is stopped, tries to reconnect: the
    pages of earlier tests would cost the later ones CPU on a 2-core host. (This fixture is set up
    after a test's servers when the test names it after them, so the pages close before the servers stop.)"""
    from playwright.sync_api import Error as PlaywrightError

    before = set(_chromium_browser.contexts)
    yield _chromium_browser
    for context in _chromium_browser.contexts:
        if context not in before:
            with contextlib.suppress(PlaywrightError):  # the browser went away with a failed test
                context.close()


@pytest.fixture
def artifacts_dir() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
