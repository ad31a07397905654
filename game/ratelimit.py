"""Rate limits for our own actions: over HTTP in the shared cache, over websockets per user.

HTTP actions (create a match, join one, create a club, become a guest) are counted per user and per
client address in Django's cache, in fixed windows: `cache.add` then `cache.incr`, which are atomic
in Redis and in the local-memory cache alike. With `REDIS_URL` set the cache is Redis, so the limits
hold across every daphne process; without it each process counts alone (one-process deployments).
The limits themselves live in one place, `settings.KAIZA_RATE_LIMITS`; allauth's own (logins,
sign-ups, resets) are `settings.ACCOUNT_RATE_LIMITS`. A refused action raises `RateLimited`, which
`RateLimitMiddleware` answers with the site's 429 page (the same page allauth uses).

Websocket messages are limited per socket by the consumer's token buckets and, on top, per user
across all of that user's sockets in this process by `socket_allows` (one call in the consumer), so
opening more sockets does not buy more messages. It counts in memory: a message costs no round trip,
which the aim relay (up to 60 messages a second) could not afford.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from functools import wraps
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse

__all__ = [
    "RateLimitMiddleware",
    "RateLimited",
    "TokenBucket",
    "chat_allows",
    "client_address",
    "rate_limit_consume",
    "rate_limited",
    "socket_address",
    "socket_allows",
    "socket_give",
    "socket_owner",
    "socket_slots",
    "socket_take",
    "sockets_open",
]


class RateLimited(Exception):
    """An action refused because its limit is spent; answered with HTTP 429."""

    def __init__(self, action: str) -> None:
        super().__init__(action)
        self.action = action


def client_address(request: HttpRequest) -> str:
    """The client's address as allauth sees it (one definition for its limits and ours): REMOTE_ADDR,
    which daphne's --proxy-headers sets from the proxy's X-Forwarded-For (docs/deploy.md)."""
    from allauth.account.adapter import get_adapter

    return str(get_adapter().get_client_ip(request))


def _take(key: str, limit: int, seconds: int) -> bool:
    window = int(time.time() // seconds)
    cache_key = f"rl:{key}:{seconds}:{window}"
    # add() is a no-op when the key exists; incr() is atomic in both backends.
    cache.add(cache_key, 0, timeout=seconds + 1)
    try:
        count = cache.incr(cache_key)
    except ValueError:  # expired between add and incr: this is the window's first hit
        cache.add(cache_key, 1, timeout=seconds + 1)
        count = 1
    return count <= limit


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
        if not _take(key, count, seconds):
            raise RateLimited(action)


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


class RateLimitMiddleware:
    """Turns `RateLimited` from any view into the site's 429 page."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, RateLimited):
            from game.views.site import too_many_requests

            return too_many_requests(request)
        return None


# --- websockets ---------------------------------------------------------------------------------------


class TokenBucket:
    """`capacity` messages at once, refilled at `rate` per second."""

    def __init__(self, capacity: float, rate: float) -> None:
        self.capacity = capacity
        self.rate = rate
        self.tokens = capacity
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def idle(self, now: float) -> bool:
        """Full again: forgetting it changes nothing."""
        return self.tokens + (now - self.stamp) * self.rate >= self.capacity


#: (burst, refill per second) across all sockets in this process of one user, or of one address for
#: visitors without an account, for `aim` and for every other message. A user gets a little more burst
#: than one socket (MatchConsumer.player_limit / aim_limit) and the same refill; an address is shared
#: by everyone behind it (a club hall's spectators ping every 5 s), so it gets more.
SOCKET_LIMITS: dict[tuple[str, str], tuple[float, float]] = {
    ("user", "aim"): (90.0, 60.0),
    ("user", "other"): (30.0, 10.0),
    ("ip", "aim"): (120.0, 60.0),
    ("ip", "other"): (120.0, 40.0),
}
_PRUNE_AT = 5000
_socket_buckets: dict[tuple[str, str], TokenBucket] = {}


def socket_owner(scope: dict[str, Any]) -> tuple[str, str]:
    """Whose budget a socket's messages spend: ("user", "user:<pk>") or ("ip", "ip:<address>")."""
    user = scope.get("user")
    if user is not None and getattr(user, "is_authenticated", False):
        return "user", f"user:{user.pk}"
    client = scope.get("client") or ("?", 0)
    return "ip", f"ip:{client[0]}"


def socket_allows(scope: dict[str, Any], *, aim: bool, who: tuple[str, str] | None = None) -> bool:
    """One message from this socket's user (or, anonymous, its address): False when the shared budget
    is spent, whichever of their sockets sends. `who`: the socket's `socket_owner`, when the caller
    keeps it (it cannot change while the socket lives; reading the scope's lazy user costs on every
    aim)."""
    kind = "aim" if aim else "other"
    per, name = who if who is not None else socket_owner(scope)
    key = (name, kind)
    bucket = _socket_buckets.get(key)
    if bucket is None:
        if len(_socket_buckets) >= _PRUNE_AT:
            now = time.monotonic()
            for stale in [k for k, b in _socket_buckets.items() if b.idle(now)]:
                del _socket_buckets[stale]
        bucket = _socket_buckets[key] = TokenBucket(*SOCKET_LIMITS[(per, kind)])
    return bucket.take()


#: Chat messages of one user, across their sockets in this process: (burst, refill per second). A
#: burst of quick phrases is fine; a stream is not (one message every 2 s once the burst is spent).
CHAT_LIMIT: tuple[float, float] = (5.0, 0.5)
_chat_buckets: dict[str, TokenBucket] = {}


def chat_allows(user_id: Any) -> bool:
    """One chat message from this user: False when their chat budget is spent."""
    key = str(user_id)
    bucket = _chat_buckets.get(key)
    if bucket is None:
        if len(_chat_buckets) >= _PRUNE_AT:
            now = time.monotonic()
            for stale in [k for k, b in _chat_buckets.items() if b.idle(now)]:
                del _chat_buckets[stale]
        bucket = _chat_buckets[key] = TokenBucket(*CHAT_LIMIT)
    return bucket.take()


# --- sockets open at once (issue 26) -----------------------------------------------------------------
#
# The caps are `settings.KAIZA_SOCKET_LIMITS` (why each number: there). They are counted in this
# process's memory, not in Redis: what they protect is the process (its file descriptors, its snapshot
# reads, its connection rows), a socket lives and dies in one process, and a count in memory cannot
# leak when a process is killed. A client that spreads sockets over N processes holds at most N times
# a cap, each process still protected; presence counts people, not sockets (game.presence
# `viewer_of`), so extra sockets pump no count anywhere. The check and the taking are one synchronous
# step: a burst of handshakes on one event loop cannot all pass a check before any is counted.

#: Open sockets per counter ("process:ip:<address>", "match:<id>:user:<pk>", "match:<id>:ip:<address>").
_open_sockets: dict[str, int] = {}


def socket_address(scope: dict[str, Any]) -> str | None:
    """The client's address as daphne put it in the scope (from X-Forwarded-For behind the proxy,
    --proxy-headers: docs/deploy.md); None when the server does not know it (a unix socket, a test's
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
