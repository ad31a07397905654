"""Real daphne processes: three of them sharing Redis and PostgreSQL, and one restarted mid-match.

Players come in through HTTP like browsers do (guest sessions from the lobby and the join button),
then play over real websockets (`websockets` client) with the session cookie.
"""

from __future__ import annotations

import http.cookiejar
import json
import re
import sqlite3
import urllib.parse
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from game.engine.rules import Match as EngineMatch
from tests.support.daphne import DaphneServer
from tests.support.play_support import (
    BREAK_CALL,
    Player,
    connect_websocket,
    near_end_snapshot,
    near_end_strike,
    next_ack,
    play_opening,
)


class Browser:
    """Just enough of a browser: a cookie jar, CSRF tokens from forms, redirects followed."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def get(self, path: str) -> tuple[str, str]:
        with self.opener.open(self.base_url + path, timeout=15) as response:
            return response.geturl(), response.read().decode()

    def post(self, path: str, fields: dict[str, str]) -> str:
        token = next((c.value for c in self.jar if c.name == "csrftoken"), None)
        assert token, "GET a page with a form first"
        body = urllib.parse.urlencode({**fields, "csrfmiddlewaretoken": token}).encode()
        request = urllib.request.Request(self.base_url + path, data=body, headers={"Referer": self.base_url + path})
        with self.opener.open(request, timeout=15) as response:
            return response.geturl()

    def cookie_header(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.jar)


def create_match(browser: Browser) -> str:
    browser.get("/lobby/")
    url = browser.post("/lobby/create/", {"opponent": "human"})
    found = re.search(r"/m/([a-z0-9]+)/$", url)
    assert found, url
    return found.group(1)


def join_match(browser: Browser, match_id: str) -> None:
    _url, html = browser.get(f"/m/{match_id}/")
    assert "kaiza-match" in html
    assert browser.post(f"/m/{match_id}/join/", {}).endswith(f"/m/{match_id}/")


async def socket_for(name: str, server: DaphneServer, match_id: str, browser: Browser | None) -> Player:
    return await connect_websocket(
        name, f"{server.ws_url}/ws/match/{match_id}/", browser.cookie_header() if browser else None, server.url
    )


async def finish_with_near_end(
    players: tuple[Player, ...], set_position: Callable[[dict[str, Any]], None], v: int
) -> int:
    names = [p["name"] for p in players[0].state["players"]]
    set_position(EngineMatch.from_snapshot(near_end_snapshot(names)).snapshot())
    await players[0].send("shoot", {"call": BREAK_CALL, "strike": near_end_strike()}, ack=next_ack(), v=v)
    for p in players:
        await p.until_version(v + 2)
        assert p.versioned[-1]["t"] == "finished"
        assert p.versioned[-1]["d"]["winner"] == names[0]
    return v + 2


async def test_scale_out_two_processes(
    daphne_factory: Callable[..., DaphneServer], postgres_database_url: str, redis_url: str
) -> None:
    env = {"DATABASE_URL": postgres_database_url, "REDIS_URL": redis_url}
    first, second, third = daphne_factory(**env), daphne_factory(**env), daphne_factory(**env)
    alice_browser, bob_browser = Browser(first.url), Browser(second.url)
    match_id = create_match(alice_browser)
    join_match(bob_browser, match_id)
    alice = await socket_for("alice", first, match_id, alice_browser)
    bob = await socket_for("bob", second, match_id, bob_browser)
    # The spectator on a third process, which only watches: it never publishes, so only its hub's
    # announcements tell the others to send the aims through Redis.
    spectator = await socket_for("spectator", third, match_id, None)
    everyone = (alice, bob, spectator)
    assert alice.versioned[0]["d"]["you"]["role"] == "player" and bob.versioned[0]["d"]["you"]["seat"] == 1
    assert spectator.versioned[0]["d"]["you"]["role"] == "spectator"

    v = await play_opening(alice, bob, (spectator,))

    # Presence is shared across the processes: both players and the spectator are seen from process 1
    # (presence relays are coalesced and rows written in the background: wait for it to settle).
    def settled(m: dict[str, Any]) -> bool:
        return m["t"] == "presence" and m["d"]["spectators"] == 1

    seen = [m for m in alice.inbox if m["t"] == "presence"]
    presence = seen[-1] if seen and settled(seen[-1]) else await alice.until(settled)
    assert [p["connected"] for p in presence["d"]["players"]] == [True, True]

    # Aims cross the processes: each process's hub has announced the match to the other's (game.realtime.hub;
    # an aim stays in its process only while no other process serves the match).
    names = [p["name"] for p in alice.state["players"]]
    acting = alice.pending()[0][0]
    aimer, watchers = (alice, (bob, spectator)) if acting == names[0] else (bob, (alice, spectator))
    await aimer.send("aim", {"angle": 0.25, "speed": 1.0, "side": 0.0, "height": 0.0})
    for p in watchers:
        relayed = await p.until(lambda m: m["t"] == "aim")
        assert relayed["d"]["angle"] == 0.25 and relayed["d"]["player"] == acting

    import psycopg

    def set_position(snapshot: dict[str, Any]) -> None:
        with psycopg.connect(postgres_database_url) as conn:
            conn.execute("UPDATE game_match SET snapshot = %s WHERE id = %s", (json.dumps(snapshot), match_id))

    v = await finish_with_near_end(everyone, set_position, v)
    histories = [[(m["v"], m["t"]) for m in p.versioned[1:]] for p in everyone]
    assert histories[0] == histories[1] == histories[2]
    assert [version for version, _ in histories[0]] == list(range(2, v + 1))
    with psycopg.connect(postgres_database_url) as conn:
        kinds = [
            row[0] for row in conn.execute("SELECT kind FROM game_shot WHERE match_id = %s ORDER BY seq", (match_id,))
        ]
        status = conn.execute("SELECT status, version FROM game_match WHERE id = %s", (match_id,)).fetchone()
    assert kinds == ["lag", "lag", "choose_break", "place", "place", "shoot", "shoot"]
    assert status == ("finished", v)
    for p in everyone:
        await p.close()


async def test_restart_loses_nothing(daphne_factory: Callable[..., DaphneServer], tmp_path: Path) -> None:
    server = daphne_factory()
    database = tmp_path / "db.sqlite3"
    alice_browser, bob_browser = Browser(server.url), Browser(server.url)
    match_id = create_match(alice_browser)
    join_match(bob_browser, match_id)
    alice = await socket_for("alice", server, match_id, alice_browser)
    bob = await socket_for("bob", server, match_id, bob_browser)

    # The lag, then the server goes down right after bob's lag was applied.
    v = alice.v
    assert v is not None
    await alice.send("lag", {"strike": {"angle": 0.0, "speed": 1.7}}, ack=next_ack(), v=v)
    await bob.until_version(v + 1)
    bob_lag_ack = next_ack()
    await bob.send("lag", {"strike": {"angle": 0.0, "speed": 1.5}}, ack=bob_lag_ack, v=v + 1)
    await alice.until_version(v + 2)
    seen_before = {p.name: list(p.versioned) for p in (alice, bob)}
    server.stop()
    server.start()

    # Reconnect: a full snapshot, then hello from the last version each had: nothing missing.
    alice_again = await socket_for("alice", server, match_id, alice_browser)
    bob_again = await socket_for("bob", server, match_id, bob_browser)
    assert alice_again.v == v + 2 and bob_again.v == v + 2
    assert alice_again.state["phase"] == "choose_break"
    await bob_again.hello(v + 1)
    caught_up = await bob_again.until(lambda m: m.get("v") == v + 2)
    assert caught_up == seen_before["alice"][-1]  # the very event alice saw live
    # bob resends his lag as a client unsure it arrived: answered from storage, not played again.
    await bob_again.send("lag", {"strike": {"angle": 0.0, "speed": 1.5}}, ack=bob_lag_ack, v=v + 1)
    repeat = await bob_again.until(lambda m: m.get("repeat"))
    assert repeat["v"] == v + 2 and repeat["d"]["ack"] == bob_lag_ack

    alice, bob = alice_again, bob_again
    v = v + 2
    await alice.send("choose_break", {"take": True}, ack=next_ack(), v=v)
    v += 1
    await bob.until_version(v)
    await bob.send("place", {"ball": "white2", "x": 1.6, "y": 1.25}, ack=next_ack(), v=v)
    v += 1
    await alice.until_version(v)

    def set_position(snapshot: dict[str, Any]) -> None:
        with sqlite3.connect(database) as conn:
            conn.execute("UPDATE game_match SET snapshot = ? WHERE id = ?", (json.dumps(snapshot), match_id))

    v = await finish_with_near_end((alice, bob), set_position, v)
    with sqlite3.connect(database) as conn:
        shots = conn.execute(
            "SELECT version, kind FROM game_shot WHERE match_id = ? ORDER BY seq", (match_id,)
        ).fetchall()
        events = [
            row[0]
            for row in conn.execute(
                "SELECT version FROM game_matchevent WHERE match_id = ? ORDER BY version", (match_id,)
            )
        ]
    assert [kind for _, kind in shots] == ["lag", "lag", "choose_break", "place", "shoot"]
    assert events == list(range(1, v + 1))
    # Every shot is accounted for: what the players saw before and after the restart is the whole history.
    seen = {m["v"] for m in seen_before["alice"]} | {m["v"] for m in alice.versioned}
    assert seen >= set(range(1, v + 1))
    for p in (alice, bob):
        await p.close()
