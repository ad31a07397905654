"""An input while the database fails under it is answered: a database that refuses connections
(every connection of the site's database terminated, new ones refused for a while) answers the player
with an `error` carrying the input's ack, said in words; once it is back the client's resend with the
same ack is applied, exactly once. Real daphne, real PostgreSQL (pg_terminate_backend), no mock."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import urlparse

import psycopg
import pytest

from tests.realtime.test_realtime_faults import match_socket, seated_match
from tests.support import services
from tests.support.daphne import DaphneServer
from tests.support.play_support import LAG_WINNING, next_ack

pytestmark = pytest.mark.postgres

#: A failure's guard, never a measure: an answer that never comes fails the test instead of hanging it.
STUCK = 60.0


def database_name(url: str) -> str:
    return urlparse(url).path.lstrip("/")


def kill_connections(url: str) -> int:
    """Terminate every connection of the database at `url` (the server's pool and threads): how many."""
    with psycopg.connect(services.postgres_admin_url(), autocommit=True) as admin:
        rows = admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
            (database_name(url),),
        ).fetchall()
    return len(rows)


@contextlib.contextmanager
def outage(url: str) -> Iterator[None]:
    """The database unreachable for the server: new connections refused, the open ones terminated."""
    name = database_name(url)
    with psycopg.connect(services.postgres_admin_url(), autocommit=True) as admin:
        admin.execute(f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS false')
    try:
        kill_connections(url)
        yield
    finally:
        with psycopg.connect(services.postgres_admin_url(), autocommit=True) as admin:
            admin.execute(f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS true')


def refuses_connections(url: str) -> bool:
    """Whether the database at ``url`` refuses a new connection (the outage holds)."""
    try:
        psycopg.connect(url, connect_timeout=5).close()
    except psycopg.OperationalError:
        return True
    return False


def stored_inputs(url: str, match_id: str, ack: int) -> tuple[int, int]:
    with psycopg.connect(url) as conn:
        shots = conn.execute(
            "SELECT count(*) FROM game_shot WHERE match_id = %s AND ack = %s", (match_id, ack)
        ).fetchone()
        version = conn.execute("SELECT version FROM game_match WHERE id = %s", (match_id,)).fetchone()
    assert shots is not None and version is not None
    return int(shots[0]), int(version[0])


@pytest.mark.slow(45)
async def test_input_during_database_outage_is_answered(
    daphne_factory: Callable[..., DaphneServer], postgres_database_url: str
) -> None:
    """Alice lags while the database is down: first on a connection the outage killed (answered at
    once), then again, as her client resends it, while no connection can be made (answered when the
    pool's wait for one ends, 10 s). Both answers are `unavailable` errors with her ack, and the socket
    stays open. Once the database is back her resend is applied and both players see it once; one more
    resend is answered from storage, not applied again. The log says what failed, in lines, without a
    traceback (daphne_logs_clean)."""
    server = daphne_factory(DATABASE_URL=postgres_database_url)
    alice_browser, bob_browser, match_id = seated_match(server)
    alice = await match_socket("alice", server, match_id, alice_browser)
    bob = await match_socket("bob", server, match_id, bob_browser)
    v = alice.v
    assert v is not None
    ack = next_ack()

    def answered(m: dict[str, Any]) -> bool:
        return m["t"] == "error" and m["d"].get("ack") == ack

    with outage(postgres_database_url):
        for _attempt in ("a killed connection", "no connection to be had"):
            await alice.send("lag", {"strike": LAG_WINNING}, ack=ack, v=v)
            refused = await alice.until(answered, timeout=STUCK)
            assert refused["d"]["code"] == "unavailable", refused
            assert refused["d"]["message"] == "the server could not store that: it is sent again"
        assert refuses_connections(postgres_database_url)

    await alice.send("lag", {"strike": LAG_WINNING}, ack=ack, v=v)
    applied = await alice.until_version(v + 1, timeout=STUCK)
    assert applied["t"] == "shot" and applied["d"]["ack"] == ack and applied["d"]["kind"] == "lag"
    seen_by_bob = await bob.until_version(v + 1, timeout=STUCK)
    assert seen_by_bob["d"]["ack"] == ack
    await alice.send("lag", {"strike": LAG_WINNING}, ack=ack, v=v)
    again = await alice.until(lambda m: m.get("repeat") is True or m["t"] == "error", timeout=STUCK)
    assert again["t"] == "shot" and again["v"] == v + 1, again
    assert stored_inputs(postgres_database_url, match_id, ack) == (1, v + 1)
    assert alice.v == bob.v == v + 1  # no event twice, none after it (the Players check the order)
    for player in (alice, bob):
        await player.close()
    assert server.log_path is not None
    failures = [line for line in server.log_path.read_text().splitlines() if "the database failed under a Lag" in line]
    assert len(failures) == 2, failures
