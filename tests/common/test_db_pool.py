"""PostgreSQL connections come from a pool of each process (KAIZA_DB_POOL, kaiza_site/settings.py).

Under ASGI every HTTP request runs in a thread of its own, so a persistent connection was never reused:
each page opened one (a PostgreSQL server process forked, about 10 ms) and closed it at the end. With
the pool the requests share a few. Counted on a real daphne process and PostgreSQL, by the server's own
tally of sessions opened (`pg_stat_database.sessions`); the same run without the pool shows the count
can fail.
"""

from __future__ import annotations

import time
import urllib.request
from collections.abc import Callable
from urllib.parse import urlparse

import pytest

from tests.support import services
from tests.support.daphne import DaphneServer

REQUESTS = 20


def sessions_opened(database: str) -> int:
    """Sessions PostgreSQL has opened to `database` (its statistics: flushed within about a second)."""
    import psycopg

    with psycopg.connect(services.postgres_admin_url(), autocommit=True) as conn:
        conn.execute("SELECT pg_stat_clear_snapshot()")
        row = conn.execute("SELECT sessions FROM pg_stat_database WHERE datname = %s", [database]).fetchone()
    return int(row[0]) if row else 0


def settled_sessions(database: str) -> int:
    """The session count once it stops moving (the statistics lag their sessions a little)."""
    last = sessions_opened(database)
    for _ in range(20):
        time.sleep(0.5)
        now = sessions_opened(database)
        if now == last:
            return now
        last = now
    return last


@pytest.mark.parametrize(("pool", "pooled"), [("16", True), ("0", False)], ids=["pool", "no-pool"])
def test_page_requests_share_the_pools_connections(
    daphne_factory: Callable[..., DaphneServer], postgres_database_url: str, redis_url: str, pool: str, pooled: bool
) -> None:
    server = daphne_factory(DATABASE_URL=postgres_database_url, REDIS_URL=redis_url, KAIZA_DB_POOL=pool)
    database = urlparse(postgres_database_url).path.lstrip("/")
    before = settled_sessions(database)
    for _ in range(REQUESTS):
        with urllib.request.urlopen(f"{server.url}/lobby/", timeout=10) as response:
            assert response.status == 200 and b"<html" in response.read()
    opened = settled_sessions(database) - before
    if pooled:
        assert opened <= 4, f"{opened} sessions for {REQUESTS} pages: the requests did not share the pool"
    else:
        assert opened >= REQUESTS, f"{opened} sessions for {REQUESTS} pages without a pool"
