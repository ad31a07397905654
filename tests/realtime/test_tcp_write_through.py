"""`kaiza_site.server.write_through`: daphne's sockets write at once, and Twisted's guarantees still hold.

The server is a real Twisted process on the asyncio reactor (tests/support/twisted_writer.py); the
client here is a plain socket. The daphne-based tests (scale-out, restart, the load smoke run) run with
the patch as well: the server's start-up (kaiza_site.server.startup) installs it.
"""

from __future__ import annotations

import hashlib
import json
import socket
import struct
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

WRITER = Path(__file__).resolve().parents[1] / "support" / "twisted_writer.py"


def start(mode: str, patch: bool) -> tuple[subprocess.Popen[str], int]:
    process = subprocess.Popen(
        [sys.executable, str(WRITER), mode, "1" if patch else "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    if not line.startswith("port "):
        process.kill()
        raise AssertionError(f"writer did not start: {line!r} {process.stderr.read() if process.stderr else ''}")
    return process, int(line.split()[1])


def finish(process: subprocess.Popen[str]) -> dict[str, Any]:
    out, err = process.communicate(timeout=60)
    assert process.returncode == 0, err
    assert "Traceback" not in err, err
    return json.loads(out.strip().splitlines()[-1])


def read_stream(port: int, pause: float) -> tuple[str, int]:
    """Connect, leave the data unread for `pause` s (the server's burst fills the socket buffers), then
    read to the end; the digest and size of what arrived."""
    digest, size = hashlib.sha256(), 0
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        time.sleep(pause)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            data = sock.recv(1 << 20)
            if not data:
                break
            digest.update(data)
            size += len(data)
    return digest.hexdigest(), size


@pytest.mark.parametrize("patch", [True, False], ids=["write-through", "twisted"])
def test_every_byte_arrives_in_order(patch: bool) -> None:
    """A 20+ MB burst against a client that is not reading (partial sends, then Twisted's queue), then
    small writes with the queue empty: the client gets exactly the bytes written, in order."""
    process, port = start("stream", patch)
    try:
        digest, size = read_stream(port, pause=0.3)
    finally:
        report = finish(process)
    assert size == report["size"]
    assert digest == report["digest"]
    assert report["lost"] == "ConnectionDone"  # loseConnection after the last byte was sent


def test_small_writes_skip_the_writer_registration() -> None:
    """With the queue empty a write goes straight to the socket: no epoll registration per write, which
    is what the load benchmark measured. Twisted's path registers a writer for every write."""
    patched, port = start("stream", True)
    try:
        read_stream(port, pause=0.3)
    finally:
        with_patch = finish(patched)
    plain, port = start("stream", False)
    try:
        read_stream(port, pause=0.3)
    finally:
        without = finish(plain)
    trickle = 200
    assert without["writers_after_trickle"] - without["writers_before_trickle"] == trickle
    assert with_patch["writers_after_trickle"] - with_patch["writers_before_trickle"] <= 2
    # The burst did overflow the socket: the patched server queued (and registered) too.
    assert with_patch["writers_after_burst"] > 0


@pytest.mark.parametrize("patch", [True, False], ids=["write-through", "twisted"])
def test_writes_to_a_reset_connection_lose_it_cleanly(patch: bool) -> None:
    """The peer resets the connection; later writes raise nothing and the protocol hears
    connectionLost, the way Twisted reports it without the patch."""
    process, port = start("reset", patch)
    try:
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.close()  # RST instead of FIN
    finally:
        report = finish(process)
    assert report["write_raised"] is False
    assert report["lost"] in ("ConnectionLost", "ConnectionDone")
