"""A connection to kaiza_site.serve leaves no cycle behind once its first request has arrived
(docs/decisions/no-cyclic-garbage.md): the slow-client guard's closure on the protocol and its deadline's
hold on the transport made every HTTP connection, and so every websocket's upgrade, a cycle of ~15
objects (the channel, its transport, addresses, headers) that only the cyclic GC freed, and garbage is
what starts its collections, which stop the event loop. Found with bench.diagnostics.gccensus."""

from __future__ import annotations

from daphne.http_protocol import HTTPFactory
from twisted.internet import address
from twisted.internet.error import ConnectionDone
from twisted.internet.testing import StringTransport
from twisted.python import failure

from kaiza_site.server.daphne_server import KaizaServer, RequestDeadline
from tests.support.garbage import garbage_of


def guarded_factory() -> HTTPFactory:
    """daphne's HTTP factory with the guard `KaizaServer.run` installs (a 5 s first-request deadline)."""
    server = KaizaServer.__new__(KaizaServer)  # the guard needs only these of a running server
    server.http_factory = HTTPFactory(server)
    server.idle_timeout, server.header_timeout = 0, 5.0
    server.guard_slow_clients()
    return server.http_factory


def test_a_served_connection_is_freed_without_the_cyclic_gc() -> None:
    factory = guarded_factory()

    def serve_three_connections() -> None:
        for port in range(3):
            protocol = factory.buildProtocol(address.IPv4Address("TCP", "127.0.0.1", 40000 + port))
            transport = StringTransport()
            protocol.makeConnection(transport)
            assert "makeConnection" not in vars(protocol)  # the guard's wrapper is gone once used
            deadline = protocol.requestFactory.args[0]
            assert isinstance(deadline, RequestDeadline) and deadline.call.active()
            deadline.met()  # what the first request's arrival does (DeadlineRequest.requestReceived)
            assert deadline.transport is None and deadline.call is None
            # The end of a connection as twisted's TCP transport makes it: it lets go of its producer
            # (the channel) and tells the protocol; a StringTransport does only what it is told.
            transport.unregisterProducer()
            protocol.connectionLost(failure.Failure(ConnectionDone()))

    found = garbage_of(serve_three_connections)
    assert not found, found.most_common(8)


def test_an_expired_deadline_lets_go_of_its_transport() -> None:
    transport = StringTransport()
    deadline = RequestDeadline(5.0)
    deadline.transport = transport
    transport.connected = True
    deadline.expire()
    assert deadline.transport is None and transport.disconnecting  # aborted, and not held
