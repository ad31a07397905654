"""Rate limits for our own actions: over HTTP in the shared cache, over websockets per user.

HTTP actions (create a match, join one, create a club, become a guest) are counted per user and per
client address in Django's cache, in a sliding window (`window_take`): each window's count with
`cache.add` then `cache.incr`, which are atomic in Redis and in the local-memory cache alike, and the
previous window's count weighed by how much of it the sliding window still covers, so that a window's
edge does not double the limit. With `REDIS_URL` set the cache is Redis, so the limits
hold across every daphne process; without it each process counts alone (one-process deployments).
The limits themselves live in one place, `settings.KAIZA_RATE_LIMITS`; allauth's own (logins,
sign-ups, resets) are `settings.ACCOUNT_RATE_LIMITS`. A refused action raises `RateLimited`, which
`RateLimitMiddleware` answers with the site's 429 page (the same page allauth uses).

Websocket messages are limited per socket by the consumer's token buckets and, on top, per user
across all of that user's sockets by `socket_allows` (one call in the consumer), so opening more
sockets does not buy more messages, nor does reaching more processes: with `REDIS_URL` the buckets
are in Redis, spent by lease so that a message almost never waits for it (game.common.budgets, with the
stated slack), in memory otherwise. Chat messages have their own budget, `chat_allows`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from functools import wraps
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from game.common.budgets import SharedBudget, TokenBucket

__all__ = [
    "ADDRESS_KEY",
    "RateLimitMiddleware",
    "RateLimited",
    "TokenBucket",
    "asker_keys",
    "chat_allows",
    "client_address",
    "rate_limit_consume",
    "rate_limited",
    "reset_message_budgets",
    "socket_address",
    "socket_allows",
    "socket_give",
    "socket_owner",
    "socket_slots",
    "socket_take",
    "sockets_open",
    "too_many_requests",
]


class RateLimited(Exception):
    """An action refused because its limit is spent; answered with HTTP 429."""

    def __init__(self, action: str) -> None:
        super().__init__(action)
        self.action = action


def client_address(request: HttpRequest) -> str:
    """The client's address as allauth sees it (one definition for its limits and ours): REMOTE_ADDR,
    which daphne's --proxy-headers sets from the proxy's X-Forwarded-For (docs/deployment.md)."""
    from allauth.account.adapter import get_adapter

    return str(get_adapter().get_client_ip(request))


def window_take(key: str, limit: int, seconds: int, now: float | None = None) -> bool:
    """Count one hit of `key` and say whether it is within `limit` hits in any `seconds`.

    Fixed windows alone let twice the limit through across an edge: three guests at 9:59:59 and three
    more at 10:00:01 on a 3-in-10-minutes limit (CI met it once: five guests from one address were all
    let in). The estimate of the last `seconds` is this window's count plus the previous window's, weighed
    by the share of it the sliding window still covers (the approach of Cloudflare's limiter); `now` is
    the wall clock (rate limits are about real time), given by tests."""
    now = time.time() if now is None else now
    window, into = divmod(now, seconds)
    current = f"rl:{key}:{seconds}:{int(window)}"
    # add() is a no-op when the key exists; incr() is atomic in both backends.
    cache.add(current, 0, timeout=2 * seconds + 1)
    try:
        count = cache.incr(current)
    except ValueError:  # expired between add and incr: this is the window's first hit
        cache.add(current, 1, timeout=2 * seconds + 1)
        count = 1
    previous = cache.get(f"rl:{key}:{seconds}:{int(window) - 1}") or 0
    return count + round(previous * (1.0 - into / seconds)) <= limit


def rate_limit_consume(request: HttpRequest, action: str, *, user: Any = None) -> None:
    """Counts one `action` for the request's user (or `user`) and client address; raises
    `RateLimited` when any of its limits is spent. Anonymous requests count per address only."""
    limits: dict[str, tuple[int, int]] = settings.KAIZA_RATE_LIMITS.get(action, {})
    who = user if user is not None else getattr(request, "user", None)
    for per in sorted(limits):
        count, seconds = limits[per]
        if per == "user":
            if who is None or not who.is_authenticated:
                continue
            key = f"{action}:user:{who.pk}"
        elif per == "ip":
            key = f"{action}:ip:{client_address(request)}"
        else:
            raise ValueError(f"unknown rate limit scope {per!r} for {action}")
        if not window_take(key, count, seconds):
            raise RateLimited(action)


#: How :func:`asker_keys` names the address (its other keys name the person).
ADDRESS_KEY = "ip:"


def asker_keys(request: HttpRequest) -> list[str]:
    """Who is asking, for limits on work in flight rather than per minute (one engine question at a
    time, game.common.engine_pool.ask_engine): the person (their account, else their browser's
    session when it has one) and the client address. A visitor with neither an account nor a session
    is known by the address alone."""
    keys = [f"{ADDRESS_KEY}{client_address(request)}"]
    who = getattr(request, "user", None)
    if who is not None and who.is_authenticated:
        keys.append(f"user:{who.pk}")
    else:
        session = getattr(request, "session", None)
        if session is not None and session.session_key:
            keys.append(f"session:{session.session_key}")
    return keys


def rate_limited(action: str) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """View decorator: a POST counts one `action` before the view runs (GETs are free)."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method == "POST":
                rate_limit_consume(request, action)
            return view(request, *args, **kwargs)

        return wrapped

    return decorate


def too_many_requests(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """The site's 429 page: our limits answer with it (RateLimitMiddleware) and allauth's too
    (logins, sign-ups, resets: `handler429` in kaiza_site/urls.py)."""
    return render(request, "429.html", status=429)


class RateLimitMiddleware:
    """Turns `RateLimited` from any view into the site's 429 page."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, RateLimited):
            return too_many_requests(request)
        return None


# --- websockets: per-user message budgets, shared by every process through Redis (game/common/budgets.py) ---

#: (burst, refill per second) across all sockets of one user, or of one address for visitors without
#: an account, for `aim` and for every other message, in every process together (game.common.budgets: within
#: one second's refill per process). A user gets a little more burst than one socket
#: (MatchConsumer.player_limit / aim_limit) and the same refill; an address is shared by everyone
#: behind it (a club hall's spectators ping every 5 s), so it gets more. `KAIZA_MESSAGE_BUDGETS`
#: (settings) replaces entries, e.g. '{"user:other": [12, 0.5]}'.
MESSAGE_BUDGETS: dict[tuple[str, str], tuple[float, float]] = {
    ("user", "aim"): (90.0, 60.0),
    ("user", "other"): (30.0, 10.0),
    ("ip", "aim"): (120.0, 60.0),
    ("ip", "other"): (120.0, 40.0),
}
for _entry, (_burst, _rate) in getattr(settings, "KAIZA_MESSAGE_BUDGETS", {}).items():
    _per, _kind = _entry.split(":")
    MESSAGE_BUDGETS[(_per, _kind)] = (float(_burst), float(_rate))
#: The budgets of socket messages and of chat messages (each key names its user or address).
socket_budget = SharedBudget("socket")
chat_budget = SharedBudget("chat")


def socket_owner(scope: dict[str, Any]) -> tuple[str, str]:
    """Whose budget a socket's messages spend: ("user", "user:<pk>") or ("ip", "ip:<address>")."""
    user = scope.get("user")
    if user is not None and getattr(user, "is_authenticated", False):
        return "user", f"user:{user.pk}"
    client = scope.get("client") or ("?", 0)
    return "ip", f"ip:{client[0]}"


async def socket_allows(scope: dict[str, Any], *, aim: bool, who: tuple[str, str] | None = None) -> bool:
    """One message from this socket's user (or, anonymous, its address): False when the shared budget
    is spent, whichever of their sockets sends, on whichever process. `who`: the socket's
    `socket_owner`, when the caller keeps it (it cannot change while the socket lives; reading the
    scope's lazy user costs on every aim). Returns without waiting while this process holds a lease of
    the user's tokens (game.common.budgets), which is nearly always."""
    kind = "aim" if aim else "other"
    per, name = who if who is not None else socket_owner(scope)
    capacity, rate = MESSAGE_BUDGETS[(per, kind)]
    return await socket_budget.take(f"{name}:{kind}", capacity, rate)


#: Chat messages of one user, across their sockets and processes: (burst, refill per second). A burst
#: of quick phrases is fine; a stream is not (one message every 2 s once the burst is spent).
CHAT_LIMIT: tuple[float, float] = (5.0, 0.5)


def chat_allows(user_id: Any) -> bool:
    """One chat message from this user: False when their chat budget is spent (called from the chat
    service's database thread: one blocking Redis call with REDIS_URL, exact)."""
    return chat_budget.take_sync(str(user_id), *CHAT_LIMIT)


def reset_message_budgets() -> None:
    """Forget this process's socket and chat budgets (tests)."""
    socket_budget.clear()
    chat_budget.clear()


# --- sockets open at once -------------------------------------------------------------------------
#
# The caps are `settings.KAIZA_SOCKET_LIMITS` (why each number: there). They are counted in this
# process's memory, not in Redis: what they protect is the process (its file descriptors, its snapshot
# reads, its connection rows), a socket lives and dies in one process, and a count in memory cannot
# leak when a process is killed. A client that spreads sockets over N processes holds at most N times
# a cap, each process still protected; presence counts people, not sockets (game.realtime.presence
# `viewer_of`), so extra sockets pump no count anywhere. The check and the taking are one synchronous
# step: a burst of handshakes on one event loop cannot all pass a check before any is counted.

#: Open sockets per counter ("process:ip:<address>", "match:<id>:user:<pk>", "match:<id>:ip:<address>").
_open_sockets: dict[str, int] = {}


def socket_address(scope: dict[str, Any]) -> str | None:
    """The client's address as daphne put it in the scope (from X-Forwarded-For behind the proxy,
    --proxy-headers: docs/deployment.md); None when the server does not know it (a unix socket, a test's
    in-process communicator): such sockets are not counted per address."""
    client = scope.get("client")
    if not client or not client[0]:
        return None
    return str(client[0])


def socket_slots(scope: dict[str, Any], *, match_id: str | None) -> list[tuple[str, str, int]]:
    """The counters a new socket takes: (counter, what it caps, cap). Every socket counts for its
    address in the process; a match socket also for its user on that match (per address without an
    account)."""
    limits = settings.KAIZA_SOCKET_LIMITS
    address = socket_address(scope)
    slots: list[tuple[str, str, int]] = []
    if address is not None:
        slots.append((f"process:ip:{address}", "process", int(limits["process"]["ip"])))
    if match_id is not None:
        per, name = socket_owner(scope)
        if per == "user" or address is not None:
            slots.append((f"match:{match_id}:{name}", "match", int(limits["match"][per])))
    return slots


def socket_take(slots: Sequence[tuple[str, str, int]]) -> str | None:
    """Take one place in each of `slots`; None when taken, else which cap refused ("match" or
    "process") and nothing is taken."""
    for counter, kind, cap in slots:
        if _open_sockets.get(counter, 0) >= cap:
            return kind
    for counter, _kind, _cap in slots:
        _open_sockets[counter] = _open_sockets.get(counter, 0) + 1
    return None


def socket_give(slots: Sequence[tuple[str, str, int]]) -> None:
    """Give back the places `socket_take` took (once, when the socket ends)."""
    for counter, _kind, _cap in slots:
        left = _open_sockets.get(counter, 0) - 1
        if left > 0:
            _open_sockets[counter] = left
        else:
            _open_sockets.pop(counter, None)


def sockets_open(counter: str) -> int:
    """How many sockets hold `counter` now (for tests and the admin's curiosity)."""
    return _open_sockets.get(counter, 0)
