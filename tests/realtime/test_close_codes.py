"""Every close code our sockets send is one daphne can send: autobahn (daphne's websocket layer) lets a
server close only with 1000 or 3000-4999 and raises on any other, so a close with RFC 6455's 1011
never reached the client and logged a second traceback (the load benchmark, 2026-12-03)."""

from __future__ import annotations

from typing import Any

import pytest
from autobahn.twisted.websocket import WebSocketServerProtocol

from game.realtime import socket_lifecycle


class ClosingProtocol(WebSocketServerProtocol):  # type: ignore[misc]
    """Autobahn's own `sendClose` (its check of the code), the frame noted instead of written."""

    def __init__(self) -> None:
        self.closed_with: list[Any] = []

    def sendCloseFrame(self, code: Any = None, reasonUtf8: Any = None, isReply: bool = False) -> None:
        self.closed_with.append(code)


CODES = {name: value for name, value in vars(socket_lifecycle).items() if name.startswith("CLOSE_")}


def test_the_close_codes_are_all_found() -> None:
    assert {"CLOSE_NOT_FOUND", "CLOSE_FLOOD", "CLOSE_TOO_MANY", "CLOSE_SERVER_ERROR"} <= set(CODES)


@pytest.mark.parametrize("name", sorted(CODES))
def test_daphne_can_send_our_close_code(name: str) -> None:
    protocol = ClosingProtocol()
    protocol.sendClose(code=CODES[name], reason="why")
    assert protocol.closed_with == [CODES[name]]


def test_autobahn_still_refuses_1011() -> None:
    """The rule the codes above are held to (so the check above could fail)."""
    with pytest.raises(Exception, match="invalid close code 1011"):
        ClosingProtocol().sendClose(code=1011)
