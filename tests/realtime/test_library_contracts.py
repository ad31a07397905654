"""Contracts of the library adaptations in kaiza_site/server/: each fails when a release of the library
changes what the adaptation relies on (the names, signatures and private fields it reads, and one
behaviour), so an upgrade is a failing test here and not a silent change under load. The real-server
tests cover each adaptation end to end (tests/realtime/test_tcp_write_through.py,
tests/matches/test_direct_frames.py, tests/realtime/test_socket_caps.py, tests/realtime/test_slow_clients.py,
tests/accounts/test_login_limits.py)."""

from __future__ import annotations

import inspect
import socket
from typing import Any

import pytest
from django.test import RequestFactory

from kaiza_site.server import allauth_login_key, channels_dispatch, write_through


def parameters(function: Any) -> list[str]:
    return list(inspect.signature(function).parameters)


# --- Twisted: kaiza_site.server.write_through -------------------------------------------------------


class RecordingReactor:
    """The reactor calls a Twisted connection makes when it queues (a stand-in for Twisted's reactor,
    which this process must not install: the daphne tests install the asyncio one)."""

    def __init__(self) -> None:
        self.writers: list[object] = []

    def addWriter(self, writer: object) -> None:
        self.writers.append(writer)

    def removeWriter(self, writer: object) -> None:
        pass


def test_twisted_connection_keeps_the_fields_write_through_reads() -> None:
    from twisted.internet import tcp

    assert len(parameters(tcp.Connection.write)) == 2  # (self, data): the bytes, nothing else
    assert parameters(tcp.Connection.__init__)[:3] == ["self", "skt", "protocol"]
    left, right = socket.socketpair()
    with left, right:
        connection = tcp.Connection(left, None, reactor=RecordingReactor())
        missing = [name for name in write_through.TWISTED_FIELDS if not hasattr(connection, name)]
        assert missing == []
        assert connection.TLS is False and connection._writeDisconnected is False
        assert connection.dataBuffer == b"" and connection._tempDataBuffer == []


def test_write_through_sends_at_once_and_leaves_the_rest_to_twisted() -> None:
    from twisted.internet import tcp

    write = write_through.writing_through(tcp.Connection.write)
    left, right = socket.socketpair()
    with left, right:
        reactor = RecordingReactor()
        connection = tcp.Connection(left, None, reactor=reactor)
        connection.connected = 1
        write(connection, b"frame")
        right.settimeout(2)
        assert right.recv(100) == b"frame" and reactor.writers == []  # sent in the caller, no writer
        # More than the socket buffers take: the rest is queued Twisted's way, and a writer registered.
        write(connection, b"x" * (16 << 20))
        assert reactor.writers == [connection]
        queued = len(connection.dataBuffer) + sum(map(len, connection._tempDataBuffer))
        assert 0 < queued < 16 << 20
        write(connection, b"after")  # something is queued: Twisted's path keeps the order
        assert connection._tempDataBuffer[-1] == b"after"


# --- daphne and autobahn: kaiza_site.server.daphne_server ----------------------------------------------


def test_daphne_keeps_the_hooks_the_server_overrides() -> None:
    from daphne.cli import CommandLineInterface
    from daphne.http_protocol import WebRequest
    from daphne.server import Server

    assert CommandLineInterface.server_class is Server
    assert parameters(CommandLineInterface.run) == ["self", "args"]
    assert parameters(Server.run) == ["self"]
    assert parameters(Server.create_application) == ["self", "protocol", "scope"]
    assert parameters(Server.handle_reply) == ["self", "protocol", "message"]
    assert inspect.iscoroutinefunction(Server.handle_reply)
    assert parameters(WebRequest.requestReceived) == ["self", "command", "path", "version"]
    # The slow-client guard wraps the HTTP factory daphne makes in run(), before the reactor runs.
    source = inspect.getsource(Server.run)
    assert "self.http_factory = " in source
    assert source.index("self.http_factory = ") < source.index("reactor.run(")
    assert "self.connections" in inspect.getsource(Server.handle_reply)
    cli = CommandLineInterface()
    assert cli.parser.parse_args(["x:y"]).application == "x:y"


def test_autobahn_frames_a_prepared_message_as_the_direct_path_writes_it() -> None:
    from autobahn.twisted.websocket import WebSocketServerFactory
    from autobahn.websocket import protocol
    from daphne.ws_protocol import WebSocketProtocol

    # The fields DirectFrames.send_text reads before it writes the prepared bytes itself.
    source = inspect.getsource(protocol)
    for field in ("state", "send_queue", "websocket_extensions_in_use"):
        assert f"self.{field} = " in source, field
    assert WebSocketProtocol.STATE_OPEN == 3
    assert parameters(WebSocketProtocol.sendPreparedMessage)[:2] == ["self", "preparedMsg"]
    assert parameters(WebSocketProtocol.sendClose)[:3] == ["self", "code", "reason"]
    prepared = WebSocketServerFactory().prepareMessage(b"hello")
    # An unmasked server text frame: FIN + text opcode, the length, the payload.
    assert prepared.payloadHybi == b"\x81\x05hello"


# --- Channels: kaiza_site.server.channels_dispatch ---------------------------------------------------


def test_channels_dispatch_is_the_handler_lookup_and_the_database_hop() -> None:
    """The mixin's dispatch is Channels' less the hop: it fails here if Channels' does more."""
    from channels.consumer import AsyncConsumer

    assert parameters(AsyncConsumer.dispatch) == ["self", "message"]
    calls = [
        line.strip()
        for line in inspect.getsource(AsyncConsumer.dispatch).splitlines()
        if line.strip().startswith(("await", "handler =", "raise"))
    ]
    assert calls == [
        "handler = getattr(self, get_handler_name(message), None)",
        "await aclose_old_connections()",
        "await handler(message)",
        'raise ValueError("No handler for message type %s" % message["type"])',
    ]


async def test_the_mixin_dispatches_by_type_as_channels_does() -> None:
    from channels.consumer import AsyncConsumer

    heard: list[dict[str, Any]] = []

    class Consumer(channels_dispatch.NoConnectionHopMixin, AsyncConsumer):
        async def websocket_receive(self, message: dict[str, Any]) -> None:
            heard.append(message)

    consumer = Consumer()
    await consumer.dispatch({"type": "websocket.receive", "text": "aim"})
    assert heard == [{"type": "websocket.receive", "text": "aim"}]
    with pytest.raises(ValueError, match=r"No handler for message type lobby\.update"):
        await consumer.dispatch({"type": "lobby.update"})


# --- allauth: kaiza_site.server.allauth_login_key --------------------------------------------------


def test_allauth_calls_the_private_key_method_where_it_counts_failures() -> None:
    from allauth.account.adapter import DefaultAccountAdapter

    method = getattr(DefaultAccountAdapter, allauth_login_key.PRIVATE_METHOD)
    assert parameters(method) == ["self", "request", "credentials"]
    for caller in allauth_login_key.CALLERS:
        assert allauth_login_key.PRIVATE_METHOD in inspect.getsource(getattr(DefaultAccountAdapter, caller))


@pytest.mark.django_db
def test_the_login_failure_key_names_the_address() -> None:
    from game.accounts.allauth_adapter import AccountAdapter

    keys: list[str] = []

    class Recording(AccountAdapter):
        def _get_login_attempts_cache_key(self, request: Any, **credentials: Any) -> str:
            key = super()._get_login_attempts_cache_key(request, **credentials)
            keys.append(key)
            return key

    request = RequestFactory().post("/accounts/login/", REMOTE_ADDR="203.0.113.9")
    Recording(request).pre_authenticate(request, username="Maija", password="wrong")
    assert len(keys) == 1 and keys[0].endswith(":maija@203.0.113.9")
