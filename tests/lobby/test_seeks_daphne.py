"""Quick pairing across two real daphne processes on PostgreSQL and Redis: two seekers on
different processes, 120 rating points apart, are not paired at once (±100) but by a server clock
tick once their windows have widened (±150 after 5 s), and both hear `paired` with the same match."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest

from tests.matches.test_daphne_play import Browser
from tests.support.daphne import DaphneServer

PASSWORD = "kaisa-pw-2024"


def sign_up(browser: Browser, name: str) -> None:
    browser.get("/accounts/signup/")
    fields = {"username": name.lower(), "display_name": name, "password1": PASSWORD, "password2": PASSWORD}
    browser.post("/accounts/signup/", fields)


async def lobby(server: DaphneServer, browser: Browser) -> Any:
    import websockets

    socket = await websockets.connect(
        f"{server.ws_url}/ws/lobby/", additional_headers={"Cookie": browser.cookie_header()}, origin=server.url
    )
    assert json.loads(await asyncio.wait_for(socket.recv(), 10))["t"] == "matches"
    return socket


async def until(socket: Any, t: str, timeout: float = 20.0) -> dict[str, Any]:
    async def wait() -> dict[str, Any]:
        while True:
            message = json.loads(await socket.recv())
            if message["t"] == t:
                return message

    return await asyncio.wait_for(wait(), timeout)


@pytest.mark.slow(9)
async def test_seekers_on_two_processes_are_paired_by_the_clock_tick(
    daphne_factory: Callable[..., DaphneServer], postgres_database_url: str, redis_url: str
) -> None:
    import psycopg

    env = {"DATABASE_URL": postgres_database_url, "REDIS_URL": redis_url}
    first, second = daphne_factory(**env), daphne_factory(**env)
    ann, bob = Browser(first.url), Browser(second.url)
    sign_up(ann, "Ann")
    sign_up(bob, "Bob")
    with psycopg.connect(postgres_database_url) as conn:
        conn.execute("UPDATE game_profile SET rating = 1620 WHERE display_name = 'Bob'")

    ann_socket, bob_socket = await lobby(first, ann), await lobby(second, bob)
    await ann_socket.send(json.dumps({"t": "seek", "d": {"rated": False, "time_limit": None}}))
    assert (await until(ann_socket, "seeking"))["d"]["window"] == 100
    await bob_socket.send(json.dumps({"t": "seek", "d": {"rated": False, "time_limit": None}}))
    assert (await until(bob_socket, "seeking"))["d"]["window"] == 100
    with psycopg.connect(postgres_database_url) as conn:
        assert conn.execute("SELECT count(*) FROM game_seek").fetchone()[0] == 2  # 120 apart: not yet

    paired = [await until(ann_socket, "paired"), await until(bob_socket, "paired")]
    assert paired[0] == paired[1]
    match_id = paired[0]["d"]["match_id"]
    with psycopg.connect(postgres_database_url) as conn:
        assert conn.execute("SELECT count(*) FROM game_seek").fetchone()[0] == 0
        status, matches = conn.execute(
            "SELECT status, (SELECT count(*) FROM game_match) FROM game_match WHERE id = %s", (match_id,)
        ).fetchone()
    assert (status, matches) == ("active", 1)
    await ann_socket.close()
    await bob_socket.close()
