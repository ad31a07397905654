"""ASGI entry point: HTTP goes to Django; websockets pass the origin check, then authentication,
then the URL routes of the game app (the Channels tutorial's order). Importing it builds the application
and nothing else: the server process's start-up is kaiza_site.server.startup.start().

The origin check is exact: a browser's Origin must be this site as the socket's request reached it
(same scheme, host and port, the host in ALLOWED_HOSTS) or one of CSRF_TRUSTED_ORIGINS, scheme, host
and port alike. Channels' AllowedHostsOriginValidator compares hosts only, so `http://host:9999`
passed for `https://host`.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.core.asgi import get_asgi_application

from kaiza_site.config import use_kaiza_settings

use_kaiza_settings()
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import WebsocketDenier  # noqa: E402
from django.conf import settings  # noqa: E402
from django.http.request import validate_host  # noqa: E402

from game.routing import websocket_urlpatterns  # noqa: E402
from kaiza_site.server.startup import start_clocks_if_needed  # noqa: E402

DEFAULT_PORTS = {"http": 80, "https": 443}
Origin = tuple[str, str, int]


def parse_origin(value: str) -> Origin | None:
    """(scheme, host, port) of an origin such as `https://kaiza.example` (port from the scheme when
    absent), or None for anything else (`null`, other schemes, garbage)."""
    try:
        parsed = urlsplit(value.strip())
        port = parsed.port
    except ValueError:
        return None
    scheme, host = parsed.scheme.lower(), (parsed.hostname or "").lower()
    if scheme not in DEFAULT_PORTS or not host:
        return None
    return scheme, host, port if port is not None else DEFAULT_PORTS[scheme]


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return value.decode("latin-1")
    return None


def _request_scheme(scope: dict[str, Any]) -> str:
    """https when the socket came over TLS, or the proxy says so (SECURE_PROXY_SSL_HEADER)."""
    if scope.get("scheme") == "wss":
        return "https"
    proxy_header = settings.SECURE_PROXY_SSL_HEADER
    if proxy_header:
        meta_name, expected = proxy_header
        header = meta_name.removeprefix("HTTP_").replace("_", "-").lower().encode()
        forwarded = _header(scope, header)
        if forwarded is not None and forwarded.split(",")[0].strip() == expected:
            return "https"
    return "http"


def origin_allowed(scope: dict[str, Any]) -> bool:
    origin = parse_origin(_header(scope, b"origin") or "")
    if origin is None:
        return False
    trusted = {parse_origin(entry) for entry in settings.CSRF_TRUSTED_ORIGINS}
    if origin in trusted:
        return True
    # Same origin: the Host the socket was opened on, in ALLOWED_HOSTS, with this request's scheme.
    host = _header(scope, b"host")
    if not host:
        return False
    scheme = _request_scheme(scope)
    own = parse_origin(f"{scheme}://{host}")
    return own is not None and own == origin and validate_host(own[1], settings.ALLOWED_HOSTS)


class ExactOriginValidator:
    """Refuses a websocket whose Origin is not exactly ours (see the module docstring)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket" and not origin_allowed(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.app(scope, receive, send)


router = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": ExactOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)


async def application(scope: dict[str, Any], receive: Any, send: Any) -> Any:
    """The site. The server's start-up is not here but in `python -m kaiza_site.serve`
    (kaiza_site.server.startup); under plain daphne the first connection starts the clocks and warns."""
    start_clocks_if_needed()
    return await router(scope, receive, send)
