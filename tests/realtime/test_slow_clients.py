"""Slow clients are closed: a real daphne (kaiza_site.serve) closes a connection whose first
request, a page's or a websocket upgrade's, has not fully arrived `--http-header-timeout` seconds
after it opened, even while the client keeps trickling bytes (which restart Twisted's idle timeout)."""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import Callable

from tests.matches.test_daphne_play import Browser, create_match, socket_for
from tests.support.daphne import DaphneServer

#: The test's deadline, through the server's option (production: 10 s).
TIMEOUT = 1.0

HALF_PAGE = b"GET /lobby/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
HALF_UPGRADE = (
    b"GET /ws/match/abc/ HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    b"Sec-WebSocket-Version: 13\r\n"
)


def closed_after(server: DaphneServer, start: bytes, bound: float) -> float | None:
    """Send `start`, then one more header byte every 0.2 s; the seconds until the server closed the
    connection, or None if it was still open after `bound` seconds."""
    opened = time.monotonic()
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as conn:
        conn.sendall(start)
        conn.settimeout(0.2)
        trickle = iter(b"X-Slow: " + b"a" * 200)
        while time.monotonic() - opened < bound:
            try:
                if conn.recv(4096) == b"":
                    return time.monotonic() - opened
            except TimeoutError:
                try:
                    conn.sendall(bytes([next(trickle)]))
                except OSError:
                    return time.monotonic() - opened
            except OSError:  # reset: closed too
                return time.monotonic() - opened
    return None


async def test_slow_handshake_is_closed(daphne_factory: Callable[..., DaphneServer]) -> None:
    server = daphne_factory(server_args=["--http-header-timeout", str(TIMEOUT)])
    bound = TIMEOUT + 2.0  # the deadline plus a generous margin for a loaded machine
    page, upgrade = await asyncio.gather(
        asyncio.to_thread(closed_after, server, HALF_PAGE, bound),
        asyncio.to_thread(closed_after, server, HALF_UPGRADE, bound),
    )
    assert page is not None and TIMEOUT * 0.9 <= page <= bound, page
    assert upgrade is not None and TIMEOUT * 0.9 <= upgrade <= bound, upgrade
    # A request that arrived in time is not cut: a page, and a websocket that outlives the deadline.
    browser = Browser(server.url)
    match_id = create_match(browser)
    player = await socket_for("alice", server, match_id, browser)
    await asyncio.sleep(TIMEOUT + 0.5)
    await player.send("ping")
    assert (await player.until(lambda m: m["t"] == "pong", timeout=5))["t"] == "pong"
    await player.close()
