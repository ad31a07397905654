"""The draw list of a double-loss event with its top 1–8 seeded ("Sijoitettu"), as the program places
them: spread over the list so the seeds meet as late as possible.

Positions are 1-based places in a list of `n`. Seed 1 goes second from the foot (n - 1), seed 2 to
the middle (n / 2, rounded down), seed 3 to the middle of the upper half (half of seed 2's place),
seed 4 between seeds 1 and 2, seed 5 between seeds 4 and 2, seed 6 to half of seed 3's place, seed 7
between seeds 2 and 3, seed 8 between seeds 1 and 4 (rounded up); "between" is the mean, rounded half
to even as the program's arithmetic does. Everyone else fills the free places in the order they were
drawn: :func:`shuffled` draws that order from a stored number, as the program draws its list at
random, so the same number and entries give the same list in any process (the number is the event's
`draw_seed`).

In a field of 8 or fewer the places can clash (two seeds on one place) or fall off the head of the
list (place 0). The program then lets two seeds share a number and lists them in its roster's order
(Kaiza: seed order), draws a seed at place 0 with the unseeded players, and gives those the free
places at random, so a place may stay empty; it then numbers the list again from 1 without a gap
(:func:`crowded_draw_list`).
"""

from __future__ import annotations

import hashlib
import math
import struct
from collections.abc import Sequence
from typing import TypeVar

from game.tournaments.pairing.double_loss_state import DrawError

MOST_SEEDS = 8


def wanted_places(size: int, seeds: int) -> list[int]:
    """The places the program computes for seeds 1..`seeds` in a list of `size`: in a small field
    two may be the same, and one may be 0 (off the head of the list)."""
    if not 0 <= seeds <= min(MOST_SEEDS, size):
        raise DrawError("seed_count", most=MOST_SEEDS, seeds=seeds)
    wanted: list[int] = []
    for formula in _FORMULAS[:seeds]:
        wanted.append(formula(size, wanted))
    return wanted


_FORMULAS = (
    lambda n, p: n - 1,
    lambda n, p: n // 2,
    lambda n, p: p[1] // 2,
    lambda n, p: round((p[1] + p[0]) / 2),
    lambda n, p: round((p[3] + p[1]) / 2),
    lambda n, p: p[2] // 2,
    lambda n, p: round((p[1] + p[2]) / 2),
    lambda n, p: math.ceil((p[0] + p[3]) / 2),
)


def is_crowded(size: int, seeds: int) -> bool:
    """Whether the program's places for the seeds clash or fall off the list (fields of 8 or fewer)."""
    wanted = wanted_places(size, seeds)
    return len(set(wanted)) != len(wanted) or any(place < 1 for place in wanted)


def seed_places(size: int, seeds: int) -> list[int]:
    """The 1-based places of seeds 1..`seeds` in a list of `size` whose places do not clash (see
    :func:`crowded_draw_list` for one whose do: there a place depends on the draw)."""
    if not 0 <= seeds <= min(MOST_SEEDS, size):
        raise DrawError("seed_count", most=MOST_SEEDS, seeds=seeds)
    taken: list[int] = []
    for place in wanted_places(size, seeds):
        taken.append(_nearest_free(place, size, taken))
    return taken


def _nearest_free(place: int, size: int, taken: list[int]) -> int:
    for distance in range(size + 1):
        for candidate in (place - distance, place + distance):
            if 1 <= candidate <= size and candidate not in taken:
                return candidate
    raise DrawError("no_seed_place")


def seeded_draw_list(seeded: Sequence[int], unseeded: Sequence[int], draw_seed: int | None = None) -> tuple[int, ...]:
    """The draw list: `seeded` in seed order (1 first), `unseeded` in the order they were drawn.
    `draw_seed` draws the free places of a crowded small field (:func:`crowded_draw_list`)."""
    size = len(seeded) + len(unseeded)
    if is_crowded(size, len(seeded)):
        return crowded_draw_list(seeded, unseeded, draw_seed)
    places = seed_places(size, len(seeded))
    slots: list[int | None] = [None] * size
    for entrant, place in zip(seeded, places, strict=True):
        slots[place - 1] = entrant
    others = iter(unseeded)
    return tuple(entrant if entrant is not None else next(others) for entrant in slots)


def crowded_draw_list(seeded: Sequence[int], unseeded: Sequence[int], draw_seed: int | None) -> tuple[int, ...]:
    """The list of a small field whose seeds' places clash, as the program makes it: each seed at
    the place computed for him (two may share one, listed in seed order), a seed whose place is 0
    drawn with the unseeded players, who take free places at random (`draw_seed` draws them; without
    one, the first free places in order), then the list read in place order."""
    size = len(seeded) + len(unseeded)
    wanted = wanted_places(size, len(seeded))
    placed = [(place, rank) for rank, place in enumerate(wanted) if place >= 1]
    drawn = [seeded[rank] for rank, place in enumerate(wanted) if place < 1] + list(unseeded)
    free = sorted(set(range(1, size + 1)) - {place for place, _ in placed})
    if draw_seed is not None:
        free = shuffled(free, draw_seed, "free places")
    standing = [(place, 0, rank, seeded[rank]) for place, rank in placed]
    standing += [(place, 1, order, entrant) for order, (place, entrant) in enumerate(zip(free, drawn, strict=False))]
    return tuple(entrant for *_, entrant in sorted(standing))


#: The championship's seeds (the program's `Sijoitetaan24Pelaajaa`): seed k stands at the k-th of
#: these marks on a scale of 0 to 23 laid over the list (0 the head, 23 the foot), so that seeds 1
#: and 2 are as far apart as they can be, then 1-4, and so on down to seed 24.
CHAMPIONSHIP_MARKS = (1, 13, 19, 7, 11, 23, 17, 5, 3, 15, 21, 9, 8, 18, 12, 0, 4, 16, 22, 6, 10, 20, 14, 2)
#: The fewest entrants the championship places its seeds for (fewer: all are drawn at random).
CHAMPIONSHIP_FIELD = len(CHAMPIONSHIP_MARKS)


def _single(value: float) -> float:
    """`value` rounded to a 32-bit float: the program computes a seed's place in single precision,
    and a place at a whole number may fall just below it."""
    return float(struct.unpack("f", struct.pack("f", value))[0])


def championship_places(size: int, seeds: int) -> list[int]:
    """The 1-based places of seeds 1..`seeds` of a championship in a list of `size` (none below
    :data:`CHAMPIONSHIP_FIELD` entrants): each at its mark scaled to the list, or, taken, the nearest
    free place (the upper one at equal distance)."""
    if not 0 <= seeds <= min(CHAMPIONSHIP_FIELD, size):
        raise DrawError("seed_count", most=CHAMPIONSHIP_FIELD, seeds=seeds)
    if size < CHAMPIONSHIP_FIELD:
        return []
    taken: list[int] = []
    for mark in CHAMPIONSHIP_MARKS[:seeds]:
        place = 1 + math.floor(_single(_single(mark / 23) * (size - 2)))
        taken.append(_nearest_free(place, size, taken))
    return taken


def championship_draw_list(seeded: Sequence[int], unseeded: Sequence[int]) -> tuple[int, ...]:
    """A championship's draw list: `seeded` in seed order at their places (or, in a field too small
    to place them, before the others: the caller shuffles such a field whole), `unseeded` in the
    order they were drawn."""
    size = len(seeded) + len(unseeded)
    places = championship_places(size, len(seeded))
    if not places:
        return (*seeded, *unseeded)
    slots: list[int | None] = [None] * size
    for entrant, place in zip(seeded, places, strict=True):
        slots[place - 1] = entrant
    others = iter(unseeded)
    return tuple(entrant if entrant is not None else next(others) for entrant in slots)


T = TypeVar("T")


def shuffled(items: Sequence[T], seed: int, purpose: str) -> list[T]:
    """`items` in an order drawn from `seed`: a Fisher-Yates shuffle whose every pick is made from
    SHA-256 of the seed, the purpose and the step, so it depends on nothing else (no process's hash
    order, no clock, no library's generator). Each order is as likely as any other (the 256-bit
    number's remainder is biased by less than 2 ** -240). `purpose` keeps two draws from one seed
    (the list, the cup's lots) apart."""
    order = list(items)
    for top in range(len(order) - 1, 0, -1):
        digest = hashlib.sha256(f"{seed}:{purpose}:{top}".encode()).digest()
        pick = int.from_bytes(digest, "big") % (top + 1)
        order[top], order[pick] = order[pick], order[top]
    return order
