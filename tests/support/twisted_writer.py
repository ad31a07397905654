"""A Twisted TCP server for `test_tcp_write_through`, run as its own process (a reactor per process).

Usage: ``python twisted_writer.py MODE PATCH`` with MODE ``stream`` or ``reset`` and PATCH ``1`` to install
`kaiza_site.server.write_through` (``0`` for Twisted's own path). It runs on the asyncio reactor, as daphne
does, prints ``port N``, serves one connection, then prints one JSON line of what happened and exits.

- ``stream``: a burst of `BURST` chunks of 1 B to 256 KiB written at once (far more than the socket
  buffers hold, so writes are partly sent and queued while the client does not read), then, once
  Twisted's buffer is empty, `TRICKLE` small writes 5 ms apart (each can go straight out).
- ``reset``: the client resets the connection; the server then writes (before its reactor has read
  the reset), and must see the connection
  lost through Twisted's usual path, without an exception escaping `write`.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import sys
import time
from pathlib import Path
from typing import ClassVar

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from twisted.internet import asyncioreactor

asyncioreactor.install(asyncio.new_event_loop())

from twisted.internet import protocol, reactor  # noqa: E402

BURST = 400
TRICKLE = 200
SEED = 7


def burst_chunks() -> list[bytes]:
    rng = random.Random(SEED)
    return [rng.randbytes(rng.choice((1, 17, 1000, 4096, 65536, 262144))) for _ in range(BURST)]


def trickle_chunks() -> list[bytes]:
    rng = random.Random(SEED + 1)
    return [rng.randbytes(rng.randint(1, 300)) for _ in range(TRICKLE)]


def expected_digest() -> tuple[str, int]:
    digest = hashlib.sha256()
    size = 0
    for chunk in burst_chunks() + trickle_chunks():
        digest.update(chunk)
        size += len(chunk)
    return digest.hexdigest(), size


class Counting:
    """Counts the reactor's writer registrations: each is a write Twisted had to queue."""

    add_writer = 0


class Writer(protocol.Protocol):
    mode = "stream"
    report: ClassVar[dict[str, object]] = {}

    def connectionMade(self) -> None:
        if self.mode == "stream":
            for chunk in burst_chunks():
                self.transport.write(chunk)
            self.report["writers_after_burst"] = Counting.add_writer
            self.trickle = trickle_chunks()
            reactor.callLater(0.01, self.drip)
        else:
            time.sleep(0.5)  # blocks the reactor: the client's reset arrives before it can be noticed
            self.write_after_reset()

    def drip(self) -> None:
        if self.transport.dataBuffer or self.transport._tempDataBuffer:
            reactor.callLater(0.005, self.drip)  # the burst is still being sent
            return
        if "writers_before_trickle" not in self.report:
            self.report["writers_before_trickle"] = Counting.add_writer
        if self.trickle:
            self.transport.write(self.trickle.pop(0))
            reactor.callLater(0.005, self.drip)
        else:
            self.report["writers_after_trickle"] = Counting.add_writer
            self.transport.loseConnection()

    def write_after_reset(self) -> None:
        try:
            for _ in range(50):
                self.transport.write(b"x" * 1000)
            self.report["write_raised"] = False
        except Exception as exc:  # the assertion is that this never happens
            self.report["write_raised"] = repr(exc)

    def connectionLost(self, reason: object) -> None:
        self.report["lost"] = type(getattr(reason, "value", reason)).__name__
        reactor.callLater(0, reactor.stop)


def main() -> None:
    mode, patch = sys.argv[1], sys.argv[2] == "1"
    if patch:
        from kaiza_site.server import write_through as tcp_write_through

        assert tcp_write_through.install()
    real_add_writer = reactor.addWriter

    def add_writer(writer: object) -> None:
        Counting.add_writer += 1
        real_add_writer(writer)

    reactor.addWriter = add_writer
    Writer.mode = mode
    factory = protocol.Factory.forProtocol(Writer)
    port = reactor.listenTCP(0, factory, interface="127.0.0.1")
    print(f"port {port.getHost().port}", flush=True)
    reactor.callLater(30, reactor.stop)  # bounded, whatever the client does
    reactor.run()
    digest, size = expected_digest()
    print(json.dumps({**Writer.report, "digest": digest, "size": size, "writes": BURST + TRICKLE}), flush=True)


if __name__ == "__main__":
    main()
