"""The load client's malloc settings: its socket reads served from the heap, not from fresh mappings.

asyncio reads a socket into a new 256 KiB `bytes` (`_SelectorSocketTransport.max_size`), then shrinks it
to what arrived. glibc serves an allocation that large with its own `mmap` (above `M_MMAP_THRESHOLD`,
128 KiB to start with), so the shrink is an `mremap` and the free a `munmap`: three system calls and
a fresh page's fault beside every `recv`. glibc raises the threshold by itself only when it frees a
large mapped block, and these are freed small (shrunk first), so a process can stay on that path for
good. The load client against Kaiza did (strace over 5 s of the window at M = 150, one client process:
13,057 `recvfrom` and as many `mmap`, `mremap` and `munmap`; against bare daphne the same client had
raised its threshold early and made none), and paid for it in CPU the server's two cores share.

Fixed thresholds (glibc's `mallopt`, which also stops the dynamic adjustment) keep such buffers on the
heap, and a trim threshold above them keeps the heap's top from being returned and taken back with
each read. Linux with glibc only; elsewhere nothing changes.
"""

from __future__ import annotations

import ctypes
import ctypes.util

#: mallopt's parameter numbers (glibc's malloc.h).
M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
#: Above asyncio's 256 KiB read buffer, with room; the trim threshold well above that.
MMAP_THRESHOLD = 1 << 20
TRIM_THRESHOLD = 16 << 20


def keep_read_buffers_on_heap() -> bool:
    """Set the thresholds for this process; False where there is no glibc `mallopt` (or it refused)."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD))
