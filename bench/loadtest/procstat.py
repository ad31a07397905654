"""What the load benchmark reads of local server processes from /proc (Linux): memory and CPU time.

The figures are the server's own account, not the client's: the peak RSS judges the memory bar, and
the CPU a server used over the measured window says how close to its core it ran (a run can miss a
bar with the server at half a core when the machine, shared with the client, is full).
"""

from __future__ import annotations

import os
from pathlib import Path


def rss_of(pid: int) -> tuple[int | None, int | None]:
    """(current RSS, peak RSS) of a local process in kB, from /proc."""
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None, None
    values: dict[str, int] = {}
    for line in text.splitlines():
        if line.startswith(("VmRSS:", "VmHWM:")):
            key, value = line.split(":", 1)
            values[key] = int(value.split()[0])
    return values.get("VmRSS"), values.get("VmHWM")


def cpu_seconds(pid: int) -> float | None:
    """User plus system CPU time (s) a local process has used, all its threads; None if unreadable."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # Fields after the command name, which is in parentheses and may itself hold spaces or ")".
    fields = text[text.rindex(")") + 2 :].split()
    try:
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (IndexError, ValueError):
        return None
