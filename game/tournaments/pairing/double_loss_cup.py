"""The cup of `two_rounds_then_cup`, as the reference program (KaisaKaavio) draws it.

After the two opening rounds every player is ranked by his opening games: wins first, then Kaisa
points, then a lot (the program draws one per player; Kaiza's is the event's :attr:`Event.lots`).
The cup's size is the smallest power of two that holds everyone who can still be in (fewer than two
losses), known once every player has a result and the opening games still being played cannot
change it. Its seats are filled by rank, a player's seat only once his rank is final (no result
still to come can move anyone past him). Everyone ranked within the size has a seat, so a player
with two opening losses plays in the cup when there is room, as in the program; seats beyond the
field are empty, and once the opening is over a top seed facing an empty seat goes through without
a game (a walk-over, listed as a game with one player).

Seats by doubling: a cup of two is 1 v 2; each doubling gives every seat `s` of the smaller cup the
opponent `2n + 1 - s` beside it, so 1 and 2 can meet only in the final. The first cup round is round
3; the winner of seat pair `k` goes on to game `k // 2` of the next round (first seat if `k` is
even). A loss in the cup is out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from game.tournaments.pairing.double_loss_state import CUP_FIRST_ROUND, Game

#: What one win is worth against points in the opening's ranking (the program's weighting).
WIN_WEIGHT = 100_000


@dataclass(frozen=True)
class CupRow:
    """One game of the bracket: its round and seat number in the round, its players as far as known
    (None: not yet known, or an empty seat), and whether it is decided (played, or a walk-over)."""

    round: int
    slot: int
    first: int | None
    second: int | None
    decided: bool = False
    walkover: bool = False


def cup_seats(size: int) -> list[tuple[int, int]]:
    """The first cup round's games as pairs of 1-based ranks, in bracket order (size a power of 2)."""
    pairs = [(2, 1)]
    while len(pairs) * 2 < size:
        total = len(pairs) * 4 + 1
        pairs = [(total - seed, seed) for pair in pairs for seed in pair]
    return [(min(pair), max(pair)) for pair in pairs]


@dataclass
class _Standing:
    entrant: int
    played: int = 0
    wins: int = 0
    losses: int = 0
    points: int = 0
    open_games: int = 0
    lot: int = 0  # higher is better

    def score(self) -> tuple[int, int]:
        return self.wins * WIN_WEIGHT + self.points, self.lot

    def least(self) -> tuple[int, int]:
        return self.wins * WIN_WEIGHT + self.points, self.lot

    def most(self, game_points: int) -> tuple[int, int]:
        return self.wins * WIN_WEIGHT + self.points + self.open_games * (WIN_WEIGHT + game_points), self.lot


def _standings(opening: Sequence[Game], lots: Sequence[int]) -> list[_Standing]:
    rank_of_lot = {entrant: len(lots) - i for i, entrant in enumerate(lots)}
    standings: dict[int, _Standing] = {}
    for game in opening:
        for entrant in (game.first, game.second):
            if entrant is None:
                continue
            mine = standings.setdefault(entrant, _Standing(entrant, lot=rank_of_lot.get(entrant, 0)))
            if game.winner is None:
                mine.open_games += 1
                continue
            mine.played += 1
            mine.points += game.points_of(entrant)
            if game.winner == entrant:
                mine.wins += 1
            else:
                mine.losses += 1
    return list(standings.values())


def cup_size(opening: Sequence[Game], lots: Sequence[int]) -> int:
    """The cup's size once it is certain (0 before): everyone has a result, and however the opening
    games still being played end, the players in (fewer than two losses) fit the same power of two."""
    standings = _standings(opening, lots)
    if not standings or any(s.played == 0 for s in standings):
        return 0
    least = most = sum(1 for s in standings if s.played >= 2 and s.losses < 2)
    by_entrant = {s.entrant: s for s in standings}
    for game in opening:
        if game.winner is not None or game.second is None:
            continue
        fewest, more = _still_in_after(by_entrant[game.first], by_entrant[game.second])
        least, most = least + fewest, most + more
    return _power_of_two(least) if _power_of_two(least) == _power_of_two(most) else 0


def _still_in_after(one: _Standing, other: _Standing) -> tuple[int, int]:
    """How few and how many of a game's two players are still in after it, however it ends: both
    without a loss stay in, both with one loss leave one in, and one of each leaves one or both."""
    if one.losses == 0 and other.losses == 0:
        return 2, 2
    if one.losses == 1 and other.losses == 1:
        return 1, 1
    return 1, 2


def _power_of_two(count: int) -> int:
    size = 2
    while size < count:
        size *= 2
    return size


def cup_rows(opening: Sequence[Game], cup_games: Sequence[Game], lots: Sequence[int], game_points: int) -> list[CupRow]:
    """The bracket now, every game of every round in (round, seat) order; empty while the cup's
    size is not known. `opening`: the games of rounds 1-2 with their results; `cup_games`: the cup's
    games drawn so far (round and `slot` give their place); `game_points`: the most points a game
    still to play can add to a player's ranking."""
    size = cup_size(opening, lots)
    if not size:
        return []
    standings = _standings(opening, lots)
    rounds = _seated_rounds(size, standings, game_points)
    walkovers: set[tuple[int, int]] = set()
    if all(s.played >= 2 for s in standings):
        walkovers = _walk_overs(rounds)
    decided = set(walkovers)
    if all(g.winner is not None for g in opening):
        decided |= _played(rounds, cup_games)
    return [
        CupRow(CUP_FIRST_ROUND + level, slot, seat[0], seat[1], (level, slot) in decided, (level, slot) in walkovers)
        for level, games in enumerate(rounds)
        for slot, seat in enumerate(games)
    ]


def _seated_rounds(size: int, standings: list[_Standing], game_points: int) -> list[list[list[int | None]]]:
    """The cup's rounds, empty seats but the first round's, where each player whose place in the ranking
    no game still to play can change sits in the seat of his rank."""
    ranked = sorted(standings, key=lambda s: s.score(), reverse=True)
    final = {
        s.entrant
        for s in standings
        if all(o is s or o.least() > s.most(game_points) or o.most(game_points) < s.least() for o in standings)
    }
    rounds: list[list[list[int | None]]] = []
    games_in_round = size // 2
    while True:
        rounds.append([[None, None] for _ in range(games_in_round)])
        if games_in_round == 1:
            break
        games_in_round //= 2
    seats = cup_seats(size)
    for rank, standing in enumerate(ranked, start=1):
        if standing.entrant not in final:
            continue
        for slot, (high, low) in enumerate(seats):
            if rank in (high, low):
                rounds[0][slot][0 if rank == high else 1] = standing.entrant
    return rounds


def _walk_overs(rounds: list[list[list[int | None]]]) -> set[tuple[int, int]]:
    """The first round's seats with one player and no opponent: he goes through (once all have played
    their two games)."""
    walkovers: set[tuple[int, int]] = set()
    for slot, seat in enumerate(rounds[0]):
        if seat[0] is not None and seat[1] is None:
            walkovers.add((0, slot))
            _advance(rounds, 0, slot, seat[0])
    return walkovers


def _played(rounds: list[list[list[int | None]]], cup_games: Sequence[Game]) -> set[tuple[int, int]]:
    """The seats decided by a cup game played between the two players the bracket has there; each
    winner goes on to the next round."""
    decided: set[tuple[int, int]] = set()
    for game in sorted(cup_games, key=lambda g: (g.round, g.slot or 0)):
        level = game.round - CUP_FIRST_ROUND
        if game.winner is None or game.second is None or not 0 <= level < len(rounds):
            continue
        slot = game.slot or 0
        if slot >= len(rounds[level]):
            continue
        seat = rounds[level][slot]
        if seat[0] is None or seat[1] is None or {seat[0], seat[1]} != {game.first, game.second}:
            continue
        decided.add((level, slot))
        _advance(rounds, level, slot, game.winner)
    return decided


def _advance(rounds: list[list[list[int | None]]], level: int, slot: int, winner: int) -> None:
    if level + 1 < len(rounds):
        rounds[level + 1][slot // 2][slot % 2] = winner
