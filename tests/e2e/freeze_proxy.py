"""A TCP proxy in front of daphne that can freeze its traffic: a silent network loss, as a browser sees
it when a Wi-Fi link stalls (no FIN, no RST: bytes simply stop moving both ways).

Bound to 127.0.0.1 on a free port; one thread accepts, one thread per connection pumps both directions.
While frozen nothing is read or written (new connections are accepted by the kernel and wait), so the
client's socket stays "open" and only its own liveness check can notice. Everything is bounded: the
number of connections, each thread's life, and `close()` ends them all.
"""

from __future__ import annotations

import select
import socket
import threading
import time
from types import TracebackType

MAX_CONNECTIONS = 64
MAX_LIFETIME_S = 600.0


class FreezeProxy:
    def __init__(self, upstream_port: int, upstream_host: str = "127.0.0.1") -> None:
        self.upstream = (upstream_host, upstream_port)
        self._listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(32)
        self._listener.settimeout(0.2)
        self.port = int(self._listener.getsockname()[1])
        self._running = threading.Event()
        self._thawed = threading.Event()
        self._thawed.set()
        self._threads: list[threading.Thread] = []
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self.connections = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> FreezeProxy:
        self._running.set()
        thread = threading.Thread(target=self._accept_loop, name="freeze-proxy-accept", daemon=True)
        thread.start()
        self._threads.append(thread)
        return self

    def freeze(self) -> None:
        """Stop moving bytes, both ways, on every connection (old and new)."""
        self._thawed.clear()

    def thaw(self) -> None:
        self._thawed.set()

    def close(self) -> None:
        self._running.clear()
        self._thawed.set()
        with self._lock:
            for sock in self._sockets:
                try:
                    sock.close()
                except OSError:
                    pass
        self._listener.close()
        for thread in self._threads:
            thread.join(timeout=5)

    def __enter__(self) -> FreezeProxy:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    # -- internals ------------------------------------------------------------------------------
    def _accept_loop(self) -> None:
        started = time.monotonic()
        while self._running.is_set() and time.monotonic() - started < MAX_LIFETIME_S:
            try:
                client, _ = self._listener.accept()
            except (TimeoutError, OSError):
                continue
            if self.connections >= MAX_CONNECTIONS:
                client.close()
                continue
            self.connections += 1
            thread = threading.Thread(target=self._pump, args=(client,), name="freeze-proxy-pump", daemon=True)
            thread.start()
            self._threads.append(thread)

    def _pump(self, client: socket.socket) -> None:
        # A new connection made while frozen waits, as a stalled link would make it wait.
        self._thawed.wait(timeout=MAX_LIFETIME_S)
        try:
            upstream = socket.create_connection(self.upstream, timeout=5)
        except OSError:
            client.close()
            return
        with self._lock:
            self._sockets += [client, upstream]
        pairs = {client: upstream, upstream: client}
        started = time.monotonic()
        try:
            while self._running.is_set() and time.monotonic() - started < MAX_LIFETIME_S:
                if not self._thawed.is_set():
                    self._thawed.wait(timeout=0.1)
                    continue
                readable, _, _ = select.select(list(pairs), [], [], 0.1)
                for sock in readable:
                    if not self._thawed.is_set():
                        break
                    data = sock.recv(65536)
                    if not data:
                        return
                    pairs[sock].sendall(data)
        except OSError:
            return
        finally:
            for sock in (client, upstream):
                try:
                    sock.close()
                except OSError:
                    pass
