"""The server clocks in real daphne processes: each process polls its due deadlines every second
from its start (game.matches.clock_runner, started from kaiza_site/asgi.py), and a deadline fires once
however many processes poll (FOR UPDATE SKIP LOCKED on PostgreSQL).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from game.engine.rules import Match as EngineMatch
from tests.matches.test_daphne_play import Browser, join_match, socket_for
from tests.support.daphne import DaphneServer
from tests.support.play_support import near_end_snapshot


def create_clocked_match(browser: Browser, shot_clock: int) -> str:
    browser.get("/lobby/")
    url = browser.post("/lobby/create/", {"opponent": "human", "shot_clock": str(shot_clock)})
    return url.rstrip("/").rsplit("/", 1)[-1]


@pytest.mark.slow(9)
async def test_deadline_fires_once_across_two_processes(
    daphne_factory: Callable[..., DaphneServer], postgres_database_url: str, redis_url: str, tmp_path: Path
) -> None:
    import psycopg

    env = {"DATABASE_URL": postgres_database_url, "REDIS_URL": redis_url}
    first, second = daphne_factory(**env), daphne_factory(**env)
    # Three matches fall due at the same moment, each watched from both processes.
    matches = []
    for _ in range(3):
        alice_browser, bob_browser = Browser(first.url), Browser(second.url)
        match_id = create_clocked_match(alice_browser, shot_clock=30)
        join_match(bob_browser, match_id)
        alice = await socket_for("alice", first, match_id, alice_browser)
        bob = await socket_for("bob", second, match_id, bob_browser)
        spectator = await socket_for("spectator", second, match_id, None)
        matches.append((match_id, (alice, bob, spectator)))

    due = time.time() + 1.5
    versions = {}
    with psycopg.connect(postgres_database_url) as conn:
        for match_id, (alice, _bob, _spectator) in matches:
            names = [p["name"] for p in alice.state["players"]]
            snapshot = EngineMatch.from_snapshot(near_end_snapshot(names, shooter_score=10, other_score=7)).snapshot()
            versions[match_id] = conn.execute(
                "UPDATE game_match SET snapshot = %s, shot_deadline = %s, next_deadline = %s WHERE id = %s "
                "RETURNING version",
                (json.dumps(snapshot), due, due, match_id),
            ).fetchone()[0]

    for match_id, sockets in matches:
        v = versions[match_id]
        for p in sockets:
            timeout = await p.until(lambda m: m["t"] == "timeout", timeout=15)
            assert timeout["v"] == v + 1 and timeout["d"]["count"] == 1
            assert timeout["d"]["player"] == p.state["players"][0]["name"]
    # Two more polls of each process: nothing else happens (the next deadline is 30 s away).
    await asyncio.sleep(2.5)
    for _match_id, sockets in matches:
        for p in sockets:
            later = [m for m in await p.drain(quiet=0.2) if "v" in m]
            assert later == [], later
    with psycopg.connect(postgres_database_url) as conn:
        for match_id, _sockets in matches:
            events = conn.execute(
                "SELECT type FROM game_matchevent WHERE match_id = %s AND version > %s", (match_id, versions[match_id])
            ).fetchall()
            shots = conn.execute(
                "SELECT kind FROM game_shot WHERE match_id = %s AND kind = 'timeout'", (match_id,)
            ).fetchall()
            status, version = conn.execute(
                "SELECT status, version FROM game_match WHERE id = %s", (match_id,)
            ).fetchone()
            assert events == [("timeout",)] and shots == [("timeout",)]
            assert (status, version) == ("active", versions[match_id] + 1)
    for _match_id, sockets in matches:
        for p in sockets:
            await p.close()
    for log in sorted(tmp_path.glob("daphne-*.log")):
        assert "Traceback" not in log.read_text(), log


async def test_a_process_with_no_sockets_fires_deadlines(
    daphne_factory: Callable[..., DaphneServer], tmp_path: Path
) -> None:
    """The poll runs from the process's start: an abandoned match (nobody connected) ends by itself."""
    import sqlite3

    server = daphne_factory()
    alice_browser, bob_browser = Browser(server.url), Browser(server.url)
    match_id = create_clocked_match(alice_browser, shot_clock=30)
    join_match(bob_browser, match_id)
    with sqlite3.connect(tmp_path / "db.sqlite3") as conn:
        conn.execute(
            "UPDATE game_match SET grace_deadline = ?, next_deadline = ? WHERE id = ?",
            (time.time() - 1, time.time() - 1, match_id),
        )
    deadline = time.monotonic() + 10
    status = None
    while time.monotonic() < deadline:
        with sqlite3.connect(tmp_path / "db.sqlite3") as conn:
            status, code = conn.execute(
                "SELECT status, result_code FROM game_match WHERE id = ?", (match_id,)
            ).fetchone()
        if status != "active":
            break
        await asyncio.sleep(0.2)
    assert (status, code) == ("aborted", "aborted")  # both away before the break: aborted
    for log in sorted(tmp_path.glob("daphne-*.log")):
        assert "Traceback" not in log.read_text(), log


async def test_real_clock_through_daphne(daphne_factory: Callable[..., DaphneServer], tmp_path: Path) -> None:
    """The one deadline of the suite on the wall clock, end to end: a server with the deployment's
    setting (no test clock: its endpoint is not there) fires a shot clock when the real time comes,
    not before, and every socket hears it once. Every other test moves the game clock instead
    (game/common/clock.py)."""
    import sqlite3
    import urllib.error
    import urllib.request

    server = daphne_factory(KAIZA_TEST_CLOCK="0")
    request = urllib.request.Request(f"{server.url}/test/clock/advance", data=b'{"seconds": 60}', method="POST")
    try:
        urllib.request.urlopen(request, timeout=10)
    except urllib.error.HTTPError as refused:
        assert refused.code == 404, refused.code
    else:
        raise AssertionError("the test clock endpoint answered on a production-like server")
    alice_browser, bob_browser = Browser(server.url), Browser(server.url)
    match_id = create_clocked_match(alice_browser, shot_clock=30)
    join_match(bob_browser, match_id)
    alice = await socket_for("alice", server, match_id, alice_browser)
    spectator = await socket_for("spectator", server, match_id, None)
    names = [p["name"] for p in alice.state["players"]]
    snapshot = EngineMatch.from_snapshot(near_end_snapshot(names, shooter_score=10, other_score=7)).snapshot()
    due = time.time() + 2.0
    with sqlite3.connect(tmp_path / "db.sqlite3") as conn:
        (version,) = conn.execute(
            "UPDATE game_match SET snapshot = ?, shot_deadline = ?, next_deadline = ? WHERE id = ? RETURNING version",
            (json.dumps(snapshot), due, due, match_id),
        ).fetchone()
    for p in (alice, spectator):
        timeout = await p.until(lambda m: m["t"] == "timeout", timeout=15)
        assert timeout["v"] == version + 1 and timeout["d"]["player"] == names[0]
    assert time.time() >= due  # not before its time
    await asyncio.sleep(1.5)  # another poll or two: nothing more
    for p in (alice, spectator):
        assert [m for m in await p.drain(quiet=0.2) if "v" in m] == []
        await p.close()
