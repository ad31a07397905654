"""What a piece of code leaves to the cyclic GC: the tests of it (docs/decisions/no-cyclic-garbage.md)
assert it is nothing, since garbage is what starts the collections that stop the event loop."""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Callable


def garbage_of(action: Callable[[], object]) -> Counter[str]:
    """The cyclic garbage `action()` leaves, by type name (empty when reference counting frees it all)."""
    gc.collect()
    was = gc.get_debug()
    gc.set_debug(was | gc.DEBUG_SAVEALL)  # what a collection finds is kept in gc.garbage, to be named
    try:
        action()
        gc.collect()
        found = Counter(type(obj).__name__ for obj in gc.garbage)
    finally:
        gc.set_debug(was)
        gc.garbage.clear()
        gc.collect()
    return found
