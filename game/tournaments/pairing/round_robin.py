"""Round robin by the circle method: everyone meets everyone once.

With an odd field a phantom entry (None) joins and whoever meets it has a bye that round. The first
entry stays put and the others turn one place per round; the fixed entry's seat alternates so no one
takes seat 0 (the lag side, K-3.1) every round.
"""

from __future__ import annotations

from game.tournaments.pairing.results import Game


def round_robin_rounds(entries: list[int]) -> list[list[Game]]:
    """Every round of a round robin of `entries` (seed order), each a list of games, byes last."""
    if len(entries) < 2:
        return []
    ring: list[int | None] = [*entries]
    if len(ring) % 2:
        ring.append(None)
    size = len(ring)
    rounds: list[list[Game]] = []
    for number in range(size - 1):
        games: list[Game] = []
        byes: list[Game] = []
        for i in range(size // 2):
            a, b = ring[i], ring[size - 1 - i]
            if i == 0 and number % 2:
                a, b = b, a
            if a is None or b is None:
                present = a if a is not None else b
                assert present is not None
                byes.append(Game(present, None))
            else:
                games.append(Game(a, b))
        rounds.append(games + byes)
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds
