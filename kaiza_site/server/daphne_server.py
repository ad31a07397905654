"""Kaiza's daphne server (`python -m kaiza_site.serve`): the process's start-up, a direct frame path for
the game's sockets, close reasons, and a deadline for slow clients.

Takes daphne's own command line (`python -m kaiza_site.serve -b 127.0.0.1 -p 8000
kaiza_site.asgi:application`), through daphne's own hook for a server of one's own
(`CommandLineInterface.server_class`). `KaizaServer.run` runs kaiza_site.server.startup.start() (the
application is loaded by then, the reactor not yet running); a websocket's scope carries the
`kaiza.frames` extension (`DirectFrames`, added by `create_application`).

Why: every aim is relayed to the match's other sockets (six of them with five spectators), every event
to all seven, and the load benchmark showed a third of the event loop in the ASGI round of each of those
sends: Channels' send chain, the session middleware's wrapper, daphne's reply handling, then autobahn
framing the same text again for every socket. The hub hands one encoded text to all local sockets
(game.realtime.hub); with `DirectFrames` the text is framed once (autobahn's public `prepareMessage`, made for
this: one payload to many connections) and each socket gets the same bytes (`sendPreparedMessage`).
Under plain daphne, or Channels' test communicator, the extension is absent and the consumers send
through ASGI as before (game.realtime.socket_lifecycle.CleanCloseMixin.send_frame): nothing depends on it but
speed.

The server also sends a websocket close's reason, which daphne drops (its `serverClose` takes the code
alone): a socket refused at the handshake (game.realtime.socket_lifecycle.CleanCloseMixin.refuse, 4429) says
why in words the page shows (`KaizaServer.handle_reply`).

Slow clients: Twisted's only guard on a request still arriving is an idle timeout (60 s),
which every byte restarts, so a client trickling its headers (or its websocket upgrade, an HTTP
request too until its headers are in) held the connection for as long as it liked: 1,000 of each were
all still open after 87 s. `--http-header-timeout` (default 10 s; 0: off) gives a connection's first
request, line, headers and body, that long from the connection's start; a connection that has not
sent it by then is closed (`RequestDeadline`). `--http-idle-timeout` sets Twisted's idle timeout
(`HTTPFactory.timeOut`). Both go through public Twisted and daphne names only: the factory daphne
made (`Server.http_factory`, set before the reactor runs), its `buildProtocol`, the protocol's
`makeConnection` and `requestFactory` (which daphne itself sets), and `Request.requestReceived`.
Daphne's own `--websocket_connect_timeout` bounds the websocket handshake after the upgrade.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Sequence
from typing import Any

from daphne.cli import CommandLineInterface
from daphne.http_protocol import WebRequest
from daphne.server import Server
from django.core.exceptions import RequestAborted
from twisted.internet import reactor as _reactor

from kaiza_site.server import startup

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


#: The reactor daphne installed (Any: Twisted declares its methods on zope interfaces, which mypy misreads).
reactor: Any = _reactor

#: Seconds a connection has for its first request (line, headers, body), and Twisted's idle timeout.
HEADER_TIMEOUT = 10.0
IDLE_TIMEOUT = 60.0


class RequestDeadline:
    """One connection's deadline for its first request: closed if it has not fully arrived in time."""

    __slots__ = ("call", "seconds", "transport")

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.call: Any = None
        self.transport: Any = None

    def start(self, transport: Any) -> None:
        self.transport = transport
        self.call = reactor.callLater(self.seconds, self.expire)

    def met(self) -> None:
        if self.call is not None and self.call.active():
            self.call.cancel()
        self.call = None
        # The transport holds the protocol, whose request factory holds this deadline: let go of it,
        # or every connection is a cycle that only the cyclic GC frees.
        self.transport = None

    def expire(self) -> None:
        self.call = None
        transport, self.transport = self.transport, None
        if getattr(transport, "connected", False):
            # Nothing is owed to a request that never arrived: no response, no lingering close.
            transport.abortConnection()


class DeadlineRequest(WebRequest):
    """daphne's request, meeting its connection's deadline once it has fully arrived."""

    deadline: RequestDeadline | None = None

    def requestReceived(self, command: bytes, path: bytes, version: bytes) -> None:
        if self.deadline is not None:
            self.deadline.met()
        super().requestReceived(command, path, version)


def _deadline_request(deadline: RequestDeadline, *args: Any, **kwargs: Any) -> DeadlineRequest:
    request = DeadlineRequest(*args, **kwargs)
    request.deadline = deadline
    return request


logger = logging.getLogger(__name__)


def quiet_aborted_requests(loop: asyncio.AbstractEventLoop) -> None:
    """A request whose client went away is not an error of the server: one debug line, no traceback.

    Django's ASGI handler runs each request beside a task listening for the client's disconnect. When
    the client leaves first (a page that navigates on while its scripts still load), daphne cancels the
    request's application instance; the listener task then ends with Django's `RequestAborted`, and
    nobody is left to read it, so asyncio logs "Task exception was never retrieved" with a traceback
    (seen in a browser test's server log). asyncio's own hook for such reports, the loop's exception
    handler, drops exactly those and passes every other report on to the handler before it."""
    previous = loop.get_exception_handler()

    def handler(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if isinstance(context.get("exception"), RequestAborted):
            logger.debug("a client left before its request was answered: %s", context.get("message"))
            return
        if previous is not None:
            previous(loop, context)
        else:
            loop.default_exception_handler(context)

    loop.set_exception_handler(handler)


class KaizaServer(Server):
    """daphne's server; a websocket's application instance also gets its `DirectFrames`, and a slow
    client's connection is closed (the module docstring)."""

    header_timeout: float = HEADER_TIMEOUT
    idle_timeout: float = IDLE_TIMEOUT

    def run(self) -> None:
        startup.start()
        # daphne makes its HTTP factory and listens in run(), then runs the reactor: the factory is
        # there, and no connection accepted yet, when the reactor starts.
        reactor.callWhenRunning(self.guard_slow_clients)
        # Inside the running reactor (asyncio's loop under daphne's asyncio reactor).
        reactor.callWhenRunning(lambda: quiet_aborted_requests(asyncio.get_event_loop()))
        super().run()

    def guard_slow_clients(self) -> None:
        factory = self.http_factory
        if self.idle_timeout > 0:
            factory.timeOut = self.idle_timeout
        if self.header_timeout <= 0:
            return
        build = factory.buildProtocol
        seconds = self.header_timeout

        def build_protocol(addr: Any) -> Any:
            protocol = build(addr)
            if protocol is None:
                return None
            deadline = RequestDeadline(seconds)
            protocol.requestFactory = functools.partial(_deadline_request, deadline)
            make_connection = protocol.makeConnection

            def make(transport: Any) -> None:
                # Called once; then the protocol's own method again: kept on the protocol, this closure
                # (which holds the protocol) made each connection a cycle only the cyclic GC frees.
                del protocol.makeConnection
                deadline.start(transport)
                make_connection(transport)

            protocol.makeConnection = make
            return protocol

        factory.buildProtocol = build_protocol

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

    def __init__(self) -> None:
        super().__init__()
        self.parser.add_argument(
            "--http-header-timeout",
            type=float,
            default=HEADER_TIMEOUT,
            help="seconds a connection has to send its first request (line, headers, body); 0: no limit",
        )
        self.parser.add_argument(
            "--http-idle-timeout",
            type=float,
            default=IDLE_TIMEOUT,
            help="seconds an HTTP connection may stay silent (Twisted's idle timeout)",
        )

    def run(self, args: Sequence[str]) -> None:
        parsed = self.parser.parse_args(args)
        KaizaServer.header_timeout = parsed.http_header_timeout
        KaizaServer.idle_timeout = parsed.http_idle_timeout
        super().run(args)


def main() -> None:
    KaizaCommandLine.entrypoint()
