"""The cup of `two_rounds_then_cup`: after the two opening rounds, everyone with a win goes on.

The qualifiers are ranked by their two games (wins, then Kaisa points, then the draw list: the program
draws a lot for the last tie, Kaiza takes the list, itself drawn) and seeded into a bracket of the next
power of two. Seats are filled by doubling: a bracket of two is 1 v 2; each doubling gives every seed
`s` the opponent `2n + 1 - s` beside it, so 1 and 2 meet only in the final and the seats nobody fills
(the lowest seeds of a short field) are byes of the top seeds. The first cup round is round 3; a loss
in the cup is out.
"""

from __future__ import annotations

from collections.abc import Iterator

from game.tournaments.pairing.double_loss_state import CUP_FIRST_ROUND, Game, Pairing, Record


def cup_seats(size: int) -> list[tuple[int, int]]:
    """The first cup round's games as pairs of 1-based seeds, in bracket order (size a power of 2)."""
    pairs = [(2, 1)]
    while len(pairs) * 2 < size:
        total = len(pairs) * 4 + 1
        pairs = [(total - seed, seed) for pair in pairs for seed in pair]
    return [(min(pair), max(pair)) for pair in pairs]


def cup_ranking(opening: dict[int, Record]) -> list[int]:
    """The qualifiers, best first, from the records of the two opening rounds: a win, then ranked by
    wins, points and the list."""
    qualified = [record for record in opening.values() if not record.out and record.wins > 0]
    qualified.sort(key=lambda r: (-r.wins, -r.points, r.position))
    return [record.entrant for record in qualified]


def bracket_size(entries: int) -> int:
    size = 2
    while size < entries:
        size *= 2
    return size


#: A seat whose player is not known yet (the game feeding it is still being played).
UNDECIDED = "undecided"


def _seeded_sides(ranking: list[int]) -> list[int | str | None]:
    """The first cup round's seats in bracket order, two by two (None: a bye); empty below two."""
    if len(ranking) < 2:
        return []
    sides: list[int | str | None] = []
    for high, low in cup_seats(bracket_size(len(ranking))):
        sides.append(ranking[high - 1] if high <= len(ranking) else None)
        sides.append(ranking[low - 1] if low <= len(ranking) else None)
    return sides


def cup_game(table: dict[int, Record], opening: dict[int, Record], games: tuple[Game, ...]) -> Pairing | None:
    """The first cup game in bracket order whose two players are known and not yet drawn; `opening`
    is the records after rounds 1 and 2 alone (the cup's seeding), `table` those of now."""
    for first, second, round_number, index in _bracket_pairs(opening, games):
        if index is None:
            return Pairing(first, second, round_number, table[first].games + 1, table[second].games + 1)
    return None


def cup_games_kept(opening: dict[int, Record], games: tuple[Game, ...]) -> set[int]:
    """The indices of the drawn cup games (round 3 on) that the bracket seeded from `opening` has:
    the walk of :func:`cup_game` through the games played. A game the seeding no longer gives (its
    seats changed, or a seat is fed by a game that is not kept) is not in it, so a correction of an
    opening game draws again exactly the cup games its new seeding moves, and nothing when the
    seeding stays (a points-only change that keeps the order)."""
    return {index for *_, index in _bracket_pairs(opening, games) if index is not None}


def _bracket_pairs(opening: dict[int, Record], games: tuple[Game, ...]) -> Iterator[tuple[int, int, int, int | None]]:
    """The one walk of the bracket seeded from `opening` through the games played, for the draw and
    for a correction alike: each pair whose two players are known, with its round and the index of
    its drawn game in `games` (None: not drawn yet, so it sends nobody on). A bye sends its player on;
    an undecided game sends on nobody known."""
    sides = _seeded_sides(cup_ranking(opening))
    round_number = CUP_FIRST_ROUND
    while len(sides) > 1:
        advancing: list[int | str | None] = []
        for first, second in zip(sides[::2], sides[1::2], strict=True):
            if first is None or second is None:
                advancing.append(first if second is None else second)
            elif isinstance(first, str) or isinstance(second, str):
                advancing.append(UNDECIDED)
            else:
                index = next(
                    (i for i, g in enumerate(games) if g.round == round_number and g.has(first) and g.has(second)),
                    None,
                )
                yield first, second, round_number, index
                winner = None if index is None else games[index].winner
                advancing.append(UNDECIDED if winner is None else winner)
        sides = advancing
        round_number += 1
