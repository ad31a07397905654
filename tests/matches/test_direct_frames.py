"""The direct frame path of `python -m kaiza_site.serve` (kaiza_site.server.daphne_server.DirectFrames): the bytes a
socket gets are exactly the RFC 6455 text frame of the message, for short, medium (16-bit length) and
long (64-bit length) texts and for text that is not ASCII; one text sent to many sockets is framed
once; a socket that is not open gets nothing and the caller is told so (it then sends through ASGI).

A real autobahn server protocol on Twisted's in-memory transport, opened by a real handshake: the
same objects daphne gives the consumers. The path end to end (daphne, consumers, hub) runs in every
test that starts a server (tests/support/daphne.py starts `kaiza_site.serve`), the load test's smoke
run among them.
"""

from __future__ import annotations

import base64
import struct

import pytest
from autobahn.twisted.websocket import WebSocketServerFactory, WebSocketServerProtocol
from twisted.internet.testing import StringTransport

from kaiza_site.server import daphne_server as serve
from kaiza_site.server.daphne_server import DirectFrames, KaizaCommandLine, KaizaServer


def open_protocol() -> tuple[WebSocketServerProtocol, StringTransport]:
    factory = WebSocketServerFactory("ws://127.0.0.1:8000")
    factory.protocol = WebSocketServerProtocol
    protocol = factory.buildProtocol(None)
    transport = StringTransport()
    protocol.makeConnection(transport)
    key = base64.b64encode(b"0123456789abcdef").decode()
    protocol.dataReceived(
        (
            "GET / HTTP/1.1\r\nHost: 127.0.0.1:8000\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    assert protocol.state == protocol.STATE_OPEN, "the handshake did not open the socket"
    assert transport.value().startswith(b"HTTP/1.1 101")
    transport.clear()
    return protocol, transport


def read_frames(data: bytes) -> list[tuple[int, bytes]]:
    """(opcode, payload) of each frame in `data`, an unmasked server stream (RFC 6455 section 5.2)."""
    frames = []
    while data:
        first, second = data[0], data[1]
        assert first & 0x80, "FIN set: one frame per message"
        assert not second & 0x80, "a server never masks"
        length, offset = second & 0x7F, 2
        if length == 126:
            (length,) = struct.unpack("!H", data[2:4])
            offset = 4
        elif length == 127:
            (length,) = struct.unpack("!Q", data[2:10])
            offset = 10
        frames.append((first & 0x0F, data[offset : offset + length]))
        data = data[offset + length :]
    return frames


@pytest.mark.parametrize("length", [5, 200, 70_000])
def test_a_direct_frame_is_the_text_frame_of_the_message(length: int) -> None:
    protocol, transport = open_protocol()
    text = ("Кайза ok " * (length // 9 + 1))[:length]
    assert DirectFrames(protocol).send_text(text) is True
    assert read_frames(transport.value()) == [(1, text.encode("utf-8"))]


def test_one_text_to_many_sockets_is_framed_once() -> None:
    (first, first_out), (second, second_out) = open_protocol(), open_protocol()
    text = '{"t":"aim","d":{"angle":0.5}}'
    prepared = []
    original = first.factory.prepareMessage

    def counting(payload: bytes, *args: object, **kwargs: object) -> object:
        prepared.append(payload)
        return original(payload, *args, **kwargs)

    first.factory.prepareMessage = counting  # type: ignore[method-assign]
    second.factory.prepareMessage = counting  # type: ignore[method-assign]
    assert DirectFrames(first).send_text(text) and DirectFrames(second).send_text(text)
    assert prepared == [text.encode()]
    assert first_out.value() == second_out.value() == short_text_frame(text)
    # A new text (even equal in content) is a new message: framed again, never a stale one.
    other = "".join(['{"t":"aim","d":{"angle":', "0.6}}"])
    DirectFrames(first).send_text(other)
    assert prepared == [text.encode(), other.encode()]
    assert read_frames(first_out.value())[-1] == (1, other.encode())


def short_text_frame(text: str) -> bytes:
    payload = text.encode()
    assert len(payload) < 126
    return bytes([0x81, len(payload)]) + payload


def test_a_socket_that_is_not_open_gets_nothing_and_the_caller_is_told() -> None:
    protocol, transport = open_protocol()
    protocol.sendClose(code=1000)
    transport.clear()
    assert protocol.state != protocol.STATE_OPEN
    assert DirectFrames(protocol).send_text("hello") is False
    assert transport.value() == b""


def test_the_server_gives_websockets_the_extension_and_takes_daphnes_command_line() -> None:
    assert KaizaCommandLine.server_class is KaizaServer
    server = KaizaServer.__new__(KaizaServer)
    made: list[dict[str, object]] = []

    def fake_create(self: object, protocol: object, scope: dict[str, object]) -> str:
        made.append(scope)
        return "queue"

    original = serve.Server.create_application
    serve.Server.create_application = fake_create  # type: ignore[method-assign]
    try:
        marker = object()
        assert server.create_application(marker, {"type": "websocket", "extensions": {"other": {}}}) == "queue"
        assert server.create_application(marker, {"type": "http"}) == "queue"
    finally:
        serve.Server.create_application = original  # type: ignore[method-assign]
    frames = made[0]["extensions"][serve.EXTENSION]  # type: ignore[index]
    assert isinstance(frames, DirectFrames) and frames.protocol is marker
    assert made[0]["extensions"]["other"] == {}  # type: ignore[index]
    assert "extensions" not in made[1]
