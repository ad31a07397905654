"""Write-through for daphne's TCP connections: send at once when nothing is queued.

Twisted's `FileDescriptor.write` never writes in the caller: it queues the bytes, registers the socket
for writability (an `epoll_ctl`), waits for the next loop turn to learn it is writable, sends, then
unregisters (a second `epoll_ctl`). A websocket frame to a spectator thus cost two system calls and a
loop turn besides the `send` itself, and each of those calls released and re-took the GIL. Under the
load benchmark (700 sockets, about 6500 frames a second) py-spy put a third of daphne's event-loop
time in `epoll_ctl`, `epoll_wait` and `doWrite`.

asyncio's own transports write first and queue only what the kernel did not take; this does the same
for plain (non-TLS) Twisted TCP connections. The rules that keep Twisted's semantics intact:

- only when Twisted holds no queued bytes for the connection (so the order of bytes never changes) and
  the connection is open for writing;
- whatever `send` did not take, and any error, goes to Twisted's own `write`: it queues the rest and
  its `doWrite` reports a broken connection the way it always has (the producer pause and the
  `bufferSize` accounting see every queued byte);
- TLS connections (which daphne serves only when told to) keep Twisted's path.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: Twisted's private fields this reads (tests/realtime/test_library_contracts.py checks they exist).
TWISTED_FIELDS = ("TLS", "connected", "_writeDisconnected", "dataBuffer", "_tempDataBuffer", "socket")

_installed = False


def writing_through(queued_write: Callable[[Any, bytes], None]) -> Callable[[Any, bytes], None]:
    """`Connection.write` sending at once when nothing is queued, else Twisted's own `queued_write`."""

    def write(self: Any, data: bytes) -> None:
        if (
            data
            and not self.TLS
            and self.connected
            and not self._writeDisconnected
            and not self.dataBuffer
            and not self._tempDataBuffer
            and type(data) is bytes
        ):
            try:
                sent = self.socket.send(data)
            except BlockingIOError:
                sent = 0
            except OSError:
                sent = 0  # Twisted's doWrite meets the same error and closes the connection its way
            if sent >= len(data):
                return
            data = data[sent:]
        queued_write(self, data)

    write.__doc__ = __doc__
    return write


def install() -> bool:
    """Patch `twisted.internet.tcp.Connection.write`, once per process (kaiza_site.server.startup).
    Returns whether it is in place (False without Twisted, as under another server)."""
    global _installed
    if _installed:
        return True
    try:
        from twisted.internet import tcp
    except ImportError:  # pragma: no cover - Twisted is a dependency of daphne
        return False
    # The one deliberate patch this module is for.
    tcp.Connection.write = writing_through(tcp.Connection.write)  # type: ignore[method-assign]
    _installed = True
    return True
