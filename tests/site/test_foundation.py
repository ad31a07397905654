"""The foundation's promises: settings switch by environment, /healthz, the ping websocket through
the real channel layer (in-memory and Redis), and a real daphne process serving the home page."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest
from channels.testing import WebsocketCommunicator

from kaiza_site.asgi import application
from tests.support.daphne import DaphneServer, server_env

ROOT = Path(__file__).resolve().parents[2]
PROBE = (
    "import django, json; django.setup()\n"
    "from django.conf import settings\n"
    "from django.db import connection\n"
    "from channels.layers import get_channel_layer\n"
    "with connection.cursor() as c: c.execute('SELECT 1')\n"
    "print(json.dumps({'vendor': connection.vendor, 'layer': type(get_channel_layer()).__name__}))\n"
)


def probe_settings(**env: str) -> dict[str, str]:
    result = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=server_env(**env), capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_defaults_are_sqlite_and_in_memory(tmp_path: Path) -> None:
    found = probe_settings(SQLITE_PATH=str(tmp_path / "probe.sqlite3"))
    assert found == {"vendor": "sqlite", "layer": "InMemoryChannelLayer"}


def test_environment_switches_to_postgres_and_redis(postgres_database_url: str, redis_url: str) -> None:
    found = probe_settings(DATABASE_URL=postgres_database_url, REDIS_URL=redis_url)
    assert found == {"vendor": "postgresql", "layer": "KaizaRedisChannelLayer"}


@pytest.mark.django_db
@pytest.mark.services
def test_healthz_reports_database_and_channel_layer(client, admin_user) -> None:
    response = client.get("/healthz")
    # The public answer is one word: nothing about the stack.
    assert response.status_code == 200 and response.content == b"ok"
    client.force_login(admin_user)
    body = client.get("/healthz").json()
    assert body["status"] == "ok"
    assert body["checks"] == {"database": "ok", "channel_layer": "ok"}


@pytest.mark.django_db
def test_healthz_fails_when_the_channel_layer_is_down(client, settings, admin_user) -> None:
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": ["redis://127.0.0.1:1/0"]},
        }
    }
    response = client.get("/healthz")
    assert response.status_code == 503 and response.content == b"unavailable"
    client.force_login(admin_user)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["checks"]["channel_layer"].startswith("error")


async def ping_round_trip() -> dict:
    communicator = WebsocketCommunicator(application, "/ws/ping/", headers=[(b"origin", b"http://127.0.0.1:8000")])
    connected, _ = await communicator.connect()
    assert connected
    await communicator.send_json_to({"t": "ping", "d": {"n": 7}})
    reply = await communicator.receive_json_from(timeout=5)
    await communicator.send_json_to({"t": "nonsense"})
    error = await communicator.receive_json_from(timeout=5)
    await communicator.disconnect()
    return {"reply": reply, "error": error}


@pytest.mark.services
async def test_ping_websocket_answers() -> None:
    result = await ping_round_trip()
    assert result["reply"] == {"t": "pong", "d": {"n": 7}}
    assert result["error"]["t"] == "error"


async def test_ping_websocket_through_redis(redis_channel_layer: str) -> None:
    from channels.layers import get_channel_layer

    assert type(get_channel_layer()).__name__ == "KaizaRedisChannelLayer"
    result = await ping_round_trip()
    assert result["reply"] == {"t": "pong", "d": {"n": 7}}


async def test_websocket_from_a_foreign_origin_is_refused() -> None:
    communicator = WebsocketCommunicator(application, "/ws/ping/", headers=[(b"origin", b"http://evil.example")])
    connected, _ = await communicator.connect()
    assert not connected


def test_daphne_serves_the_home_page(daphne_factory: Callable[..., DaphneServer]) -> None:
    server = daphne_factory()
    with urllib.request.urlopen(server.url + "/", timeout=10) as response:
        html = response.read().decode()
    assert response.status == 200
    assert "Kaiza" in html
    assert 'action="/play/computer/"' in html, "the home page offers one-click play against the computer"
    with urllib.request.urlopen(server.url + "/static/game/css/site.css", timeout=10) as response:
        assert response.status == 200
