"""An input while the database fails under it is answered: a database that refuses connections
(every connection of the site's database terminated, new ones refused for a while) answers the player
with an `error` carrying the input's ack, said in words; once it is back the client's resend with the
same ack is applied, exactly once. Real daphne, real PostgreSQL (pg_terminate_backend), no mock."""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import urlparse

import psycopg
import pytest

from tests.matches.test_bot_runner import play_computer
from tests.realtime.test_realtime_faults import match_socket, seated_match
from tests.support import services
from tests.support.daphne import DaphneServer
from tests.support.play_support import LAG_WINNING, connect_websocket, next_ack

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

    # Sent again as the client does while the answer is `unavailable` (the pool may take a moment to
    # have a connection again).
    refused_after = 0
    for _attempt in range(30):
        await alice.send("lag", {"strike": LAG_WINNING}, ack=ack, v=v)
        answer = await alice.until(lambda m: m.get("v") == v + 1 or answered(m), timeout=STUCK)
        if not answered(answer):
            break
        assert answer["d"]["code"] == "unavailable", answer
        refused_after += 1
        await asyncio.sleep(1.0)
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
    assert len(failures) == 2 + refused_after, failures  # each refusal in a line, nothing else


def log_lines(server: DaphneServer, *phrases: str) -> list[str]:
    assert server.log_path is not None
    text = server.log_path.read_text() if server.log_path.exists() else ""
    return [line for line in text.splitlines() if any(phrase in line for phrase in phrases)]


async def until_logged(server: DaphneServer, *phrases: str) -> list[str]:
    """The server's log lines with any of ``phrases``, once there is one (a failure's guard: STUCK)."""
    for _ in range(int(STUCK * 20)):
        found = log_lines(server, *phrases)
        if found:
            return found
        await asyncio.sleep(0.05)
    raise AssertionError(f"the server never logged any of {phrases}")


#: What the runner logs when the database fails under the computer's move, and the wait it announces.
TRYING_AGAIN = re.compile(r"under the computer's move in match \S+ \(.*\): trying again in (\d+) s \((\d+) of")


@pytest.mark.slow(60)
async def test_bot_move_is_tried_again_after_a_database_outage(
    daphne_factory: Callable[..., DaphneServer], postgres_database_url: str
) -> None:
    """A person plays the computer in a match without a shot clock (nothing but the computer can move
    it on). The database goes away while the computer's lag is on its way to it (its aim shown, the
    move being stored): the runner says so in a line and waits it out on the game clock. Once the
    database is back, the test moves the game clock past each wait the runner announces (no real wait)
    and the computer's lag comes to the person's same socket, once; it is stored once. No reconnect and
    no other input wakes the computer: before, it logged the failure and stopped for good."""
    # Four database threads: the move's call waits for no other call's wait for a connection (10 s).
    server = daphne_factory(DATABASE_URL=postgres_database_url, KAIZA_BOT_PACE="3", KAIZA_DB_THREADS="4")
    match_id, session = play_computer(server, 1)
    me = await connect_websocket("person", f"{server.ws_url}/ws/match/{match_id}/", session.header(), server.url)
    mine = me.versioned[-1]["d"]["you"]["name"]
    computer = next(p["name"] for p in (me.state or {})["players"] if p["name"] != mine)
    if me.pending()[0][0] == mine:  # the lag listed first is the one made first (game.matches.bot_runner)
        await me.send("lag", {"strike": LAG_WINNING}, ack=next_ack(), v=me.v)
    await me.until(lambda m: m["t"] == "aim" and m["d"]["player"] == computer, timeout=STUCK)

    def its_lag(m: dict[str, Any]) -> bool:
        return m["t"] == "shot" and m["d"]["player"] == computer and m["d"]["kind"] == "lag"

    with outage(postgres_database_url):  # the aim is spread over 3 s: the move is stored after it
        said = await until_logged(server, "under the computer's move", "the computer player failed")
        assert TRYING_AGAIN.search(said[0]), said
        assert not any(its_lag(m) for m in me.inbox), me.inbox[-3:]
    tries = 0
    while not any(its_lag(m) for m in me.versioned):
        # Each try that meets the pool still reconnecting announces its own wait: moved past in turn.
        announced = [found for line in log_lines(server, "trying again") if (found := TRYING_AGAIN.search(line))]
        assert len(announced) > tries, "no new try announced"
        tries = len(announced)
        server.advance_clock(float(announced[-1].group(1)))
        with contextlib.suppress(AssertionError):
            await me.until(its_lag, timeout=20.0)
    lag = next(m for m in me.versioned if its_lag(m))
    assert lag["d"]["ack"] is not None
    await me.drain()
    assert [m["v"] for m in me.versioned if its_lag(m)] == [lag["v"]]
    with psycopg.connect(postgres_database_url) as conn:
        row = conn.execute(
            "SELECT count(*) FROM game_shot WHERE match_id = %s AND player_name = %s AND kind = 'lag'",
            (match_id, computer),
        ).fetchone()
    assert row is not None and row[0] == 1
    await me.close()


def seat_rows(url: str, match_id: str) -> tuple[set[int], int | None, str]:
    """The seats with a connection row, the seat whose disconnect grace runs, and the match's status."""
    with psycopg.connect(url) as conn:
        seats = {
            row[0]
            for row in conn.execute(
                "SELECT seat FROM game_matchconnection WHERE match_id = %s AND seat IS NOT NULL", (match_id,)
            )
        }
        match = conn.execute("SELECT grace_seat, status FROM game_match WHERE id = %s", (match_id,)).fetchone()
    assert match is not None
    return seats, match[0], match[1]


async def until_true(check: Callable[[], bool], what: str) -> None:
    for _ in range(int(STUCK * 10)):
        if check():
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"never: {what}")


@pytest.mark.slow(20)
async def test_a_players_row_is_written_after_a_database_outage_at_connect(
    daphne_factory: Callable[..., DaphneServer], postgres_database_url: str
) -> None:
    """K-9.3: the database fails while Bob's socket is being recorded (his snapshot came; his row was
    waiting for the match's lock when every connection was cut). The server says so in a line and
    writes the row again once the database is back: his seat counts as there, Alice's grace claim on
    it stops, and when the game clock passes the grace the match goes on. Before, the row was never
    written: the grace ran out under a player who was playing, and the match was aborted."""
    url = postgres_database_url
    server = daphne_factory(DATABASE_URL=url)
    alice_browser, bob_browser, match_id = seated_match(server)
    alice = await match_socket("alice", server, match_id, alice_browser)
    await until_true(lambda: seat_rows(url, match_id)[:2] == ({0}, 1), "alice's row, the grace on bob's seat")

    holder = psycopg.connect(url)  # holds the match row, so Bob's row waits for it
    holder.execute("SELECT id FROM game_match WHERE id = %s FOR UPDATE", (match_id,))
    try:
        bob = await match_socket("bob", server, match_id, bob_browser)

        def waiting_for_the_lock() -> bool:
            with psycopg.connect(services.postgres_admin_url(), autocommit=True) as admin:
                row = admin.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND wait_event_type = 'Lock'",
                    (database_name(url),),
                ).fetchone()
            return row is not None and row[0] > 0

        await until_true(waiting_for_the_lock, "bob's row waiting for the match's lock")
        with outage(url):
            said = await until_logged(server, "under a player's connection row")
            assert "trying again in 1 s (1)" in said[0], said
    finally:
        with contextlib.suppress(psycopg.Error):
            holder.close()

    await until_true(lambda: seat_rows(url, match_id)[:2] == ({0, 1}, None), "bob's row, the grace stopped")
    server.advance_clock(61.0)  # past the disconnect grace (60 s): nothing is due
    seen = await alice.drain(quiet=2.0)
    assert not [m for m in seen if m["t"] == "finished"], seen
    assert seat_rows(url, match_id) == ({0, 1}, None, "active")
    for player in (alice, bob):
        await player.close()


def healthz(server: DaphneServer) -> int:
    """The status /healthz answers with (0: no answer within 2 s, as a probe gives up)."""
    try:
        with urllib.request.urlopen(f"{server.url}/healthz", timeout=2) as response:
            return int(response.status)
    except urllib.error.HTTPError as refused:
        return int(refused.code)
    except OSError:
        return 0


#: How long the database stays away in the test below: past psycopg_pool's fifth try (at 31 s, the
#: sixth at 63 s with its default backoff), so a pool left at its default stays down 28 s more.
LONG_OUTAGE = 35.0


@pytest.mark.slow(55)
def test_the_site_answers_soon_after_a_long_outage(
    daphne_factory: Callable[..., DaphneServer], postgres_database_url: str
) -> None:
    """The database is away for 35 s while a probe asks every second: the server's pool keeps trying to
    reconnect meanwhile, at growing intervals. Once the database is back the site answers again within
    seconds. With psycopg_pool's defaults it waited for the pool's next try, as long again as the
    outage had lasted, and every request and input meanwhile was refused."""
    server = daphne_factory(DATABASE_URL=postgres_database_url)
    assert healthz(server) == 200
    with outage(postgres_database_url):
        started = time.monotonic()
        while time.monotonic() - started < LONG_OUTAGE:
            assert healthz(server) != 200
            time.sleep(1.0)
    back = time.monotonic()
    while healthz(server) != 200:
        assert time.monotonic() - back < 15.0, "the site still refuses 15 s after the database came back"
        time.sleep(0.5)
