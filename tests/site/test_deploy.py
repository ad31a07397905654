"""Deployment: production settings from the environment pass `check --deploy`, a real
daphne behind a (simulated) TLS proxy sends HSTS, CSP and secure cookies, the websocket origin check
is exact, /healthz says one word, and error pages keep the site's layout."""

from __future__ import annotations

import secrets
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client, RequestFactory

from game.site.views.pages import server_error
from kaiza_site.asgi import application
from tests.support.daphne import DaphneServer, server_env

ROOT = Path(__file__).resolve().parents[2]


def production_env(**extra: str) -> dict[str, str]:
    """The environment docs/deployment.md gives a process behind nginx."""
    return {
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(60),
        "ALLOWED_HOSTS": "kaiza.example",
        "CSRF_TRUSTED_ORIGINS": "https://kaiza.example",
        "SECURE_HSTS_SECONDS": "31536000",
        "SECURE_HSTS_INCLUDE_SUBDOMAINS": "true",
        "SECURE_HSTS_PRELOAD": "true",
        "SECURE_SSL_REDIRECT": "true",
        "SESSION_COOKIE_SECURE": "true",
        "CSRF_COOKIE_SECURE": "true",
        "SECURE_PROXY_SSL_HEADER": "true",
        **extra,
    }


def test_check_deploy_is_clean() -> None:
    def check(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "manage.py", "check", "--deploy"],
            cwd=ROOT,
            env=server_env(**env),
            capture_output=True,
            text=True,
            timeout=120,
        )

    result = check(production_env())
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "WARNING" not in output and "System check identified no issues" in output, output
    # The same command without the HTTPS variables names each missing one: the test can fail.
    bare = check({"DEBUG": "false", "SECRET_KEY": secrets.token_urlsafe(60), "ALLOWED_HOSTS": "kaiza.example"})
    for code in ("W004", "W008", "W012", "W016"):
        assert code in bare.stdout + bare.stderr


def test_production_headers_behind_a_tls_proxy(daphne_factory: Callable[..., DaphneServer]) -> None:
    server = daphne_factory(**production_env(ALLOWED_HOSTS="kaiza.example,127.0.0.1"))

    def get(path: str, **headers: str) -> tuple[int, dict[str, str], str]:
        request = urllib.request.Request(server.url + path, headers={"Host": "kaiza.example", **headers})
        opener = urllib.request.build_opener(NoRedirect)
        try:
            with opener.open(request, timeout=10) as response:
                return response.status, {k.lower(): v for k, v in response.headers.items()}, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read().decode()

    status, headers, _ = get("/")
    assert status == 301 and headers["location"] == "https://kaiza.example/"
    status, headers, html = get("/", **{"X-Forwarded-Proto": "https"})
    assert status == 200 and "Kaiza" in html
    assert headers["strict-transport-security"] == "max-age=31536000; includeSubDomains; preload"
    csp = headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "style-src 'self'" in csp
    assert "Secure" in headers.get("set-cookie", ""), headers
    assert headers["x-frame-options"] == "DENY"
    # The health probe may speak plain HTTP and learns one word.
    status, _, body = get("/healthz")
    assert (status, body) == (200, "ok")
    # A missing page under DEBUG=false: the site's layout, not a bare "Not Found".
    status, _, html = get("/no/such/page/", **{"X-Forwarded-Proto": "https"})
    assert status == 404 and "Page not found" in html and 'class="site-header"' in html


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


@pytest.mark.django_db
def test_the_invite_link_is_https_behind_the_proxy(settings) -> None:
    settings.ALLOWED_HOSTS = ["testserver", "kaiza.example"]
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    client = Client()
    client.post("/lobby/create/", {"opponent": "human"})
    from game.models import Match

    match = Match.objects.get()
    page = client.get(f"/m/{match.id}/", HTTP_X_FORWARDED_PROTO="https", HTTP_HOST="kaiza.example")
    assert page.context["invite_url"] == f"https://kaiza.example/m/{match.id}/"


@pytest.mark.django_db
def test_error_pages_keep_the_site_layout(settings) -> None:
    settings.DEBUG = False
    page = Client().get("/no/such/page/")
    assert page.status_code == 404 and 'class="site-header"' in page.content.decode()
    assert "Page not found" in page.content.decode()
    response = server_error(RequestFactory().get("/"))
    assert response.status_code == 500
    text = response.content.decode()
    assert "Something broke on our side" in text and 'class="site-header"' in text


async def origin_accepted(
    origin: str | None,
    *,
    host: str = "127.0.0.1:8123",
    scheme: str = "ws",
    extra: list[tuple[bytes, bytes]] | None = None,
) -> bool:
    headers = [(b"host", host.encode())] + ([(b"origin", origin.encode())] if origin is not None else [])
    communicator = WebsocketCommunicator(application, "/ws/ping/", headers=headers + (extra or []))
    communicator.scope["scheme"] = scheme
    connected, _ = await communicator.connect(timeout=5)
    if connected:
        await communicator.disconnect()
    return connected


async def test_socket_origin_must_match_exactly(settings) -> None:
    settings.ALLOWED_HOSTS = ["127.0.0.1", "kaiza.example"]
    settings.CSRF_TRUSTED_ORIGINS = ["https://play.kaiza.example"]
    # Same origin as the request: scheme, host and port.
    assert await origin_accepted("http://127.0.0.1:8123")
    assert not await origin_accepted("http://127.0.0.1:9999")  # the finding
    assert not await origin_accepted("https://127.0.0.1:8123")
    assert not await origin_accepted("http://127.0.0.1")
    assert not await origin_accepted("http://evil.example:8123")
    assert not await origin_accepted("http://evil.example:8123", host="evil.example:8123")  # not an allowed host
    assert not await origin_accepted(None)
    assert not await origin_accepted("null")
    # A trusted origin, exactly.
    assert await origin_accepted("https://play.kaiza.example")
    assert await origin_accepted("https://play.kaiza.example:443")
    assert not await origin_accepted("http://play.kaiza.example")
    assert not await origin_accepted("https://play.kaiza.example:8443")
    # Over TLS, directly (wss) or through the proxy's header when SECURE_PROXY_SSL_HEADER is on.
    assert await origin_accepted("https://kaiza.example", host="kaiza.example", scheme="wss")
    assert not await origin_accepted("http://kaiza.example", host="kaiza.example", scheme="wss")
    forwarded = [(b"x-forwarded-proto", b"https")]
    assert not await origin_accepted("https://kaiza.example", host="kaiza.example", extra=forwarded)
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    assert await origin_accepted("https://kaiza.example", host="kaiza.example", extra=forwarded)
    assert not await origin_accepted("http://kaiza.example", host="kaiza.example", extra=forwarded)
