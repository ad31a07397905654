"""The parts of a match's snapshot that only a new version changes, kept per process.

A socket that connects, and one that fell too far behind, gets the whole `snapshot`
(`match_snapshot_message`). Most of it moves only with the match's version: the state with its
constraints (about a millisecond each, `state_of`), the frame with the players' profiles, the history,
the stored result, the last shot. After a restart every socket of the process's matches asks at once
(700 in the benchmark's storm), and each built all of it again: six queries and a state each, on the
one core the restarted process has.

`SnapshotParts.get(match, build)` keeps those parts for the match's current version and hands them out
while the row it was given still says that version: every reader reads the match row first (one query,
always), so a part is never older than the version that reader sees, and an event committed after it
reaches the socket through the hub it joined before reading (the consumer's order), as before.
What is not tied to the version is never kept here: the clock (deadlines move without a new version,
and `now` is the reader's), the reader's own seat and name, and the chat, kept apart under the id of
the newest message the row's read saw (`chat_top`), so a new message is read at once.

The parts are shared by every reader and thread of the process: nobody changes them (the snapshot
built from them is new at its top level and sent as it is). Memory is bounded: the entries of the
`LIMIT` matches read most recently.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["LIMIT", "Parts", "SnapshotParts"]

#: Matches whose parts a process keeps (each a few to a few tens of kB: the state and the history).
LIMIT = 1000


@dataclass(frozen=True)
class Parts:
    """What one version of a match shows every reader alike."""

    state: Any
    info: dict[str, Any]
    history: dict[str, Any]
    result: dict[str, Any] | None
    #: The newest shot event's segments, player, verdict and time, or None (its window is checked on use).
    last_shot: dict[str, Any] | None
    #: The recent chat by the role that reads it, under the newest message id it was read at.
    chat: dict[tuple[str, int | None], list[dict[str, Any]]] = field(default_factory=dict)


class SnapshotParts:
    """The per-process store of `Parts`, keyed by match and valid for one version (the module docstring)."""

    def __init__(self, limit: int = LIMIT) -> None:
        self.limit = limit
        self._lock = threading.Lock()
        self._entries: OrderedDict[str, tuple[Hashable, Parts]] = OrderedDict()
        #: Reads answered from the store and reads that built the parts (the tests' and benchmarks' view).
        self.hits = 0
        self.builds = 0

    def get(self, match_id: str, key: Hashable, build: Callable[[], Parts]) -> Parts:
        """The parts for `key` (the match's version and whatever else the row says that they show),
        built once by `build` when the store has none for it."""
        with self._lock:
            entry = self._entries.get(match_id)
            if entry is not None and entry[0] == key:
                self._entries.move_to_end(match_id)
                self.hits += 1
                return entry[1]
        parts = build()  # outside the lock: it queries; two threads may both build, the later one stays
        with self._lock:
            self.builds += 1
            self._entries[match_id] = (key, parts)
            self._entries.move_to_end(match_id)
            while len(self._entries) > self.limit:
                self._entries.popitem(last=False)
        return parts

    def chat(self, parts: Parts, role: str, top: int | None, read: Callable[[], list[dict[str, Any]]]) -> list[Any]:
        """The chat `role` reads, read again only when a newer message (`top`) is there."""
        key = (role, top)
        with self._lock:
            found = parts.chat.get(key)
        if found is not None:
            return found
        lines = read()
        with self._lock:
            for stale in [k for k in parts.chat if k[1] != top]:  # an older top is never asked again
                del parts.chat[stale]
            parts.chat[key] = lines
        return lines

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
