"""How KaisaKaavio shares the draw list of an event played at several places among them (its draw
window, `ArvontaPopup.LaskePelaajaMaarat`, then `Kilpailu.AsetaPelipaikatPelaajille`).

Each place is given its share of the players by its share of the tables, rounded (half to even, in
single precision, as the program's arithmetic does), and the host's place (the first) takes what
rounding leaves over. The list is then cut into runs: the host's first players, then each other place
in turn from the next player. The program's run for each place after the first is one player longer
than its share (its last id is its first plus its share), so such a place may take one more player
and the last place fewer; Kaiza cuts the list as the program does, so its draws and files agree.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence


def _single(value: float) -> float:
    return float(struct.unpack("f", struct.pack("f", value))[0])


def venue_shares(tables: Sequence[int], players: int) -> list[int]:
    """Each place's share of `players` by its tables (the host's first, with what rounding leaves)."""
    total = sum(tables)
    shares = [round(_single(_single(_single(t) / _single(total)) * _single(players))) for t in tables]
    shares[0] += players - sum(shares)
    return shares


def venue_runs(listing: Sequence[int], shares: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """The list cut into each place's players, as the program cuts it by ids: the host's first
    `shares[0]`, then each other place from the next player, `share + 1` of them."""
    runs = [tuple(listing[: shares[0]])]
    last = shares[0]
    for share in shares[1:]:
        runs.append(tuple(listing[last : last + share + 1]))
        last += share + 1
    return tuple(runs)
