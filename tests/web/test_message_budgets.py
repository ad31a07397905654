"""A user's websocket message budget holds across daphne processes (issue 26, game/budgets.py).

The budget lives in Redis and each process spends it by lease: over t seconds a user's sockets on N
processes get at most burst + rate * t + N * lease messages (the slack stated in game/budgets.py).
"""

from __future__ import annotations

import asyncio
import json
import socket
import time
import uuid
from collections.abc import Callable

import pytest

from game import budgets
from tests.support.daphne import DaphneServer
from tests.web.play_support import Player
from tests.web.test_daphne_play import Browser, create_match, socket_for

#: The test's budget for a user's "other" messages (pings): a burst of 12, half a message a second.
BURST, RATE = 12, 0.5


async def ping_replies(player: Player, count: int) -> list[str]:
    """Send `count` pings at once; the reply to each: "pong" or the error's code."""
    for _ in range(count):
        await player.send("ping")
    replies: list[str] = []
    while len(replies) < count:
        message = await player.recv(10.0)
        if message["t"] == "pong":
            replies.append("pong")
        elif message["t"] == "error":
            replies.append(message["d"]["code"])
    return replies


@pytest.mark.services
@pytest.mark.slow(40)
async def test_budget_shared_across_two_processes(
    daphne_factory: Callable[..., DaphneServer], postgres_database_url: str, redis_url: str
) -> None:
    env = {
        "DATABASE_URL": postgres_database_url,
        "REDIS_URL": redis_url,
        # One key prefix for both (as one deployment's processes have): the budgets' keys are under it.
        "CACHE_KEY_PREFIX": f"kaiza-test-{uuid.uuid4().hex[:12]}",
        "KAIZA_MESSAGE_BUDGETS": json.dumps({"user:other": [BURST, RATE]}),
    }
    first, second = daphne_factory(**env), daphne_factory(**env)
    browser = Browser(first.url)
    match_id = create_match(browser)
    # Three sockets of the same user on each process: each socket alone may send 20 at once
    # (MatchConsumer.player_limit), so only the user's budget can refuse.
    sockets = [await socket_for(f"s{i}", (first, second)[i % 2], match_id, browser) for i in range(6)]
    started = time.monotonic()
    # One ping from each socket in turn, alternating processes: both processes spend from the one
    # budget (6 of its 12). Which process then wins the burst's race is up to the event loops (under
    # load the first may take all of the rest): only the sum is the budget's to hold.
    warm = [await ping_replies(player, 1) for player in sockets]
    assert warm == [["pong"]] * 6, warm
    replies = await asyncio.gather(*(ping_replies(player, 10) for player in sockets))
    elapsed = time.monotonic() - started
    allowed = [1 + r.count("pong") for r in replies]
    refused = [r.count("rate_limited") for r in replies]
    assert [a + b for a, b in zip(allowed, refused, strict=True)] == [11] * 6, replies
    per_process = [sum(allowed[0::2]), sum(allowed[1::2])]
    lease = budgets.lease_size(BURST, RATE)
    ceiling = BURST + RATE * elapsed + 2 * lease
    # Each process alone would have allowed its own burst of 12 (24 in all): now both together are
    # within one budget and the slack, and the budget is there to spend (at most one lease stranded
    # in each process).
    assert sum(allowed) <= ceiling, (per_process, elapsed, replies)
    assert sum(allowed) >= BURST - 2 * lease, (per_process, elapsed)
    assert min(per_process) >= 3, per_process
    for player in sockets:
        await player.close()


async def test_budget_counts_in_memory_when_redis_is_away(settings) -> None:
    """Redis unreachable: the process's own bucket answers (nothing raises, nothing waits long)."""
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings.KAIZA_BUDGET_REDIS_URL = f"redis://127.0.0.1:{port}/0"
    budget = budgets.SharedBudget("test")
    answers = [await budget.take("user:1:other", 3, 0.01) for _ in range(5)]
    assert answers == [True, True, True, False, False]
    assert budget.take_sync("user:1:chat", 2, 0.01) is True
    assert budget.down_until > time.monotonic()
