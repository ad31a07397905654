"""`python -m kaiza_site.serve`: daphne, with a direct frame path for the game's sockets.

Takes daphne's own command line (`python -m kaiza_site.serve -b 127.0.0.1 -p 8000
kaiza_site.asgi:application`); the one difference is that a websocket's scope carries the
`kaiza.frames` extension (`DirectFrames`), through daphne's own hook for it (`CommandLineInterface
.server_class`, a `Server` whose `create_application` adds it).

Why: every aim is relayed to the match's other sockets (six of them with five spectators), every event
to all seven, and the load benchmark showed a third of the event loop in the ASGI round of each of those
sends: Channels' send chain, the session middleware's wrapper, daphne's reply handling, then autobahn
framing the same text again for every socket. The hub hands one encoded text to all local sockets
(game.hub); with `DirectFrames` the text is framed once (autobahn's public `prepareMessage`, made for
this: one payload to many connections) and each socket gets the same bytes (`sendPreparedMessage`).
Under plain daphne, or Channels' test communicator, the extension is absent and the consumers send
through ASGI as before (game.socket_lifecycle.CleanCloseMixin.send_frame): nothing depends on it but
speed.

The server also sends a websocket close's reason, which daphne drops (its `serverClose` takes the code
alone): a socket refused at the handshake (game.socket_lifecycle.CleanCloseMixin.refuse, 4429) says
why in words the page shows (`KaizaServer.handle_reply`).
"""

from __future__ import annotations

from typing import Any

from daphne.cli import CommandLineInterface
from daphne.server import Server

#: The scope extension's name.
EXTENSION = "kaiza.frames"

# The last text framed and its prepared message: the hub sends one str object to all the sockets of a
# match in a row, so one entry is enough (compared by identity: the entry keeps the str alive).
_last_text: str | None = None
_last_prepared: Any = None


class DirectFrames:
    """One socket's direct path for text frames (see the module docstring)."""

    __slots__ = ("protocol",)

    def __init__(self, protocol: Any) -> None:
        self.protocol = protocol

    def send_text(self, text: str) -> bool:
        """Send `text` as one frame now; False (nothing sent) when the socket is no longer open, as
        daphne drops a reply to a closed socket."""
        global _last_text, _last_prepared
        protocol = self.protocol
        if protocol.state != protocol.STATE_OPEN:
            return False
        if text is not _last_text:
            _last_prepared = protocol.factory.prepareMessage(text.encode("utf-8"))
            _last_text = text
        if protocol.send_queue or protocol.websocket_extensions_in_use:
            protocol.sendPreparedMessage(_last_prepared)  # autobahn's own queue or compression: its way
        else:
            # What sendPreparedMessage does in this case, less the debug log line whose arguments
            # autobahn formats for every frame even with debug logging off (a third of its cost).
            protocol.transport.write(_last_prepared.payloadHybi)
        return True


class KaizaServer(Server):
    """daphne's server; a websocket's application instance also gets its `DirectFrames`."""

    def create_application(self, protocol: Any, scope: dict[str, Any]) -> Any:
        if scope.get("type") == "websocket":
            scope["extensions"] = {**(scope.get("extensions") or {}), EXTENSION: DirectFrames(protocol)}
        return super().create_application(protocol, scope)

    async def handle_reply(self, protocol: Any, message: dict[str, Any]) -> None:
        """daphne's, but a `websocket.close` with a `reason` on an open socket is sent with it (RFC 6455
        close frame: the code, then the reason; autobahn cuts it to 123 bytes of UTF-8)."""
        reason = message.get("reason") if message.get("type") == "websocket.close" else None
        connection = self.connections.get(protocol)
        if reason and connection is not None and not connection.get("disconnected"):
            if getattr(protocol, "state", None) == getattr(protocol, "STATE_OPEN", object()):
                protocol.sendClose(code=int(message.get("code") or 1000), reason=str(reason))
                return
        await super().handle_reply(protocol, message)


class KaizaCommandLine(CommandLineInterface):
    server_class = KaizaServer


def main() -> None:
    KaizaCommandLine.entrypoint()


if __name__ == "__main__":
    main()
