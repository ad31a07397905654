"""A user's websocket message budget holds across daphne processes (game/common/budgets.py).

The budget lives in Redis and each process spends it by lease: over t seconds a user's sockets on N
processes get at most burst + rate * t + N * lease messages (the slack stated in game/common/budgets.py).
"""

from __future__ import annotations

import asyncio
import json
import socket
import time
import uuid
from collections.abc import Callable
from typing import Any

import pytest

from game.common import budgets
from tests.matches.test_daphne_play import Browser, create_match, socket_for
from tests.support.daphne import DaphneServer
from tests.support.play_support import Player

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


def _finishes_without_waiting(coroutine: Any) -> Any:
    """The value of `coroutine` if it returns without suspending once (no await reached Redis), else
    fails: what the aim path's latency needs of a budget (game/common/budgets.py, "spent now and settled
    after")."""
    try:
        coroutine.send(None)
    except StopIteration as done:
        return done.value
    coroutine.close()
    pytest.fail("the budget waited for Redis")


@pytest.mark.services
async def test_first_messages_are_spent_now_and_settled_in_one_pipeline(settings, redis_url: str) -> None:
    """200 users' first messages at once (a match start): none waits, and their leases come from Redis
    in one round trip on one connection, not 200; what they spent is owed and repaid."""
    import redis as redis_sync

    settings.KAIZA_BUDGET_REDIS_URL = redis_url
    settings.KAIZA_BUDGET_PREFIX = f"kaiza-test-{uuid.uuid4().hex[:12]}"
    budget = budgets.SharedBudget("socket")
    stats = redis_sync.Redis.from_url(redis_url)
    keys = [f"user:{n}:aim" for n in range(200)]
    answers = [_finishes_without_waiting(budget.take(key, 90, 60)) for key in keys]
    assert answers == [True] * 200
    # Owed, one token each, and asked for together.
    assert {budget.leases[key].tokens for key in keys} == {-1}
    for _ in range(50):
        await asyncio.sleep(0.01)
        if all(budget.leases[key].pending is None for key in keys):
            break
    # The budget's own connections, by the name they give Redis: the server's count of connections
    # received also counts the other pytest workers' (4 where 2 were ours, CI once).
    name = f"{settings.KAIZA_BUDGET_PREFIX}:budget:socket"
    assert budget.client_name() == name
    connections = [client for client in stats.client_list() if client.get("name") == name]
    assert 1 <= len(connections) <= 2, connections  # ours (and none per user)
    lease = budgets.lease_size(90, 60)
    # Each grant repaid the debt and left a full lease in the process.
    assert {budget.leases[key].tokens for key in keys} == {lease}
    # Redis's bucket of each user lost the lease and the debt: 90 - 60 - 1 (plus refill since).
    left = float(stats.hget(f"{settings.KAIZA_BUDGET_PREFIX}:budget:socket:{keys[0]}", "tokens") or -1)
    assert 90 - lease - 1 <= left < 90 - lease, left
    for key in stats.scan_iter(f"{settings.KAIZA_BUDGET_PREFIX}*"):
        stats.delete(key)
    stats.close()


@pytest.mark.services
async def test_a_user_past_the_limit_on_one_process_gets_the_budget_and_one_lease(settings, redis_url: str) -> None:
    """Spending faster than Redis answers buys at most one lease of debt: a burst of 40 against a
    budget of 12 is allowed 12 and the lease, the rest refused."""
    settings.KAIZA_BUDGET_REDIS_URL = redis_url
    settings.KAIZA_BUDGET_PREFIX = f"kaiza-test-{uuid.uuid4().hex[:12]}"
    budget = budgets.SharedBudget("socket")
    answers = [await budget.take("user:7:other", BURST, RATE) for _ in range(40)]
    lease = budgets.lease_size(BURST, RATE)
    assert BURST <= answers.count(True) <= BURST + lease, answers
    assert answers[-10:] == [False] * 10
