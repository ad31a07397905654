"""Single and double elimination brackets, as slots fed by sources.

A bracket is a fixed structure once the field is known: each slot (bracket, round, index) takes its
two sides from a seed, or from the winner or the loser of an earlier slot. The field is padded to a
power of two with byes (None) that fall to the top seeds, in the standard order (1 v 8, 4 v 5, 2 v 7,
3 v 6 for eight), so the top two can only meet in the final. A side that is a bye gives the other side
the slot at once; a slot of two byes has no winner and no loser.

Double elimination adds the losers' bracket (L) and the grand final (F, one match: the winners'
champion has not lost yet, the losers' champion has, and a single final keeps the schedule bounded).
Losers' round 1 pairs the losers of winners' round 1; each even losers' round takes the losers of the
next winners' round in reverse order (so early opponents do not meet again at once); each odd round
after the first pairs the survivors. Tournament round `t` plays winners' round `t` and losers' round
`t - 1`, the final after both; :func:`schedule` lists the slots of each tournament round.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

WINNERS, LOSERS, FINAL = "W", "L", "F"


@dataclass(frozen=True, order=True)
class Slot:
    bracket: str
    round: int
    index: int


@dataclass(frozen=True)
class Source:
    """Where a side comes from: kind "seed" (position in seed order, 0-based), "winner" or "loser"."""

    kind: str
    seed: int = 0
    slot: Slot | None = None


class Pending(Exception):
    """A side depends on a slot with no result yet."""


def bracket_size(entries: int) -> int:
    size = 1
    while size < entries:
        size *= 2
    return size


def seed_order(size: int) -> list[int]:
    """Seed positions (1-based) in bracket order: 1, 8, 4, 5, 2, 7, 3, 6 for eight."""
    order = [1]
    while len(order) < size:
        total = len(order) * 2 + 1
        order = [seed for first in order for seed in (first, total - first)]
    return order


def winners_rounds(size: int) -> int:
    return max(size.bit_length() - 1, 1)


def sources(entries: int, *, double: bool) -> dict[Slot, tuple[Source, Source]]:
    """The whole bracket for a field of `entries`: each slot's two sources, ordered by slot."""
    size = bracket_size(max(entries, 2))
    rounds = winners_rounds(size)
    order = seed_order(size)
    plan: dict[Slot, tuple[Source, Source]] = {}
    for i in range(size // 2):
        plan[Slot(WINNERS, 1, i)] = (Source("seed", seed=order[2 * i] - 1), Source("seed", seed=order[2 * i + 1] - 1))
    for r in range(2, rounds + 1):
        for i in range(size >> r):
            plan[Slot(WINNERS, r, i)] = (
                Source("winner", slot=Slot(WINNERS, r - 1, 2 * i)),
                Source("winner", slot=Slot(WINNERS, r - 1, 2 * i + 1)),
            )
    if not double or rounds < 2:
        return plan
    for i in range(size // 4):
        plan[Slot(LOSERS, 1, i)] = (
            Source("loser", slot=Slot(WINNERS, 1, 2 * i)),
            Source("loser", slot=Slot(WINNERS, 1, 2 * i + 1)),
        )
    last = 1
    for j in range(1, rounds):
        count = size >> (j + 1)
        for i in range(count):
            plan[Slot(LOSERS, 2 * j, i)] = (
                Source("winner", slot=Slot(LOSERS, 2 * j - 1, i)),
                Source("loser", slot=Slot(WINNERS, j + 1, count - 1 - i)),
            )
        last = 2 * j
        if j < rounds - 1:
            for i in range(count // 2):
                plan[Slot(LOSERS, 2 * j + 1, i)] = (
                    Source("winner", slot=Slot(LOSERS, 2 * j, 2 * i)),
                    Source("winner", slot=Slot(LOSERS, 2 * j, 2 * i + 1)),
                )
    plan[Slot(FINAL, 1, 0)] = (
        Source("winner", slot=Slot(WINNERS, rounds, 0)),
        Source("winner", slot=Slot(LOSERS, last, 0)),
    )
    return dict(sorted(plan.items()))


def tournament_round_of(slot: Slot, entries: int) -> int:
    """Which tournament round (from 1) plays this slot."""
    if slot.bracket == WINNERS:
        return slot.round
    if slot.bracket == LOSERS:
        return slot.round + 1
    rounds = winners_rounds(bracket_size(max(entries, 2)))
    return max(rounds, 2 * (rounds - 1) + 1) + 1


def schedule(entries: int, *, double: bool) -> list[list[Slot]]:
    """The slots of each tournament round, in order."""
    by_round: dict[int, list[Slot]] = {}
    for slot in sources(entries, double=double):
        by_round.setdefault(tournament_round_of(slot, entries), []).append(slot)
    return [by_round[r] for r in sorted(by_round)]


def sides(
    slot: Slot, seeds: list[int], plan: Mapping[Slot, tuple[Source, Source]], winners: Mapping[Slot, int | None]
) -> tuple[int | None, int | None]:
    """The two entries of `slot` (None: a bye); raises Pending while a source has no result.
    `winners` maps the played slots to their winner."""
    first, second = plan[slot]
    return resolve(first, seeds, plan, winners), resolve(second, seeds, plan, winners)


def winner_of(
    slot: Slot, seeds: list[int], plan: Mapping[Slot, tuple[Source, Source]], winners: Mapping[Slot, int | None]
) -> int | None:
    a, b = sides(slot, seeds, plan, winners)
    if a is None or b is None:
        return a if b is None else b
    if slot not in winners:
        raise Pending(str(slot))
    return winners[slot]


def loser_of(
    slot: Slot, seeds: list[int], plan: Mapping[Slot, tuple[Source, Source]], winners: Mapping[Slot, int | None]
) -> int | None:
    a, b = sides(slot, seeds, plan, winners)
    if a is None or b is None:
        return None
    won = winner_of(slot, seeds, plan, winners)
    if won is None:  # neither came (a double forfeit): both are out, nobody drops to the losers' side
        return None
    return b if won == a else a


def resolve(
    source: Source, seeds: list[int], plan: Mapping[Slot, tuple[Source, Source]], winners: Mapping[Slot, int | None]
) -> int | None:
    if source.kind == "seed":
        return seeds[source.seed] if source.seed < len(seeds) else None
    assert source.slot is not None
    if source.kind == "winner":
        return winner_of(source.slot, seeds, plan, winners)
    return loser_of(source.slot, seeds, plan, winners)


def champion(seeds: list[int], winners: Mapping[Slot, int | None], *, double: bool) -> int | None:
    """The tournament's winner once the last slot is decided (None before)."""
    plan = sources(len(seeds), double=double)
    last = max(plan, key=lambda s: (tournament_round_of(s, len(seeds)), s))
    try:
        return winner_of(last, seeds, plan, winners)
    except Pending:
        return None


def _out_rounds(seeds: list[int], winners: Mapping[Slot, int | None], *, double: bool) -> dict[int, int]:
    """The tournament round each eliminated entry went out in (its last life lost, or the final)."""
    plan = sources(len(seeds), double=double)
    lives = 2 if double else 1
    losses = {entry: 0 for entry in seeds}
    out_in: dict[int, int] = {}
    for slot in sorted(plan, key=lambda s: (tournament_round_of(s, len(seeds)), s)):
        try:
            loser = loser_of(slot, seeds, plan, winners)
        except Pending:
            continue
        if loser is None:
            continue
        losses[loser] += 1
        if losses[loser] >= lives or slot.bracket == FINAL:
            out_in[loser] = tournament_round_of(slot, len(seeds))
    return out_in


def placing(seeds: list[int], winners: Mapping[Slot, int | None], *, double: bool) -> list[int]:
    """Entries from first to last: the champion, those still in (by seed), then the eliminated, the
    later their last defeat the higher (ties by seed)."""
    out_in = _out_rounds(seeds, winners, double=double)
    top = champion(seeds, winners, double=double)
    position = {entry: i for i, entry in enumerate(seeds)}
    return sorted(
        seeds,
        key=lambda e: (e != top, e in out_in, -out_in.get(e, 0), position[e]),
    )


def placing_ranks(seeds: list[int], winners: Mapping[Slot, int | None], *, double: bool) -> list[tuple[int, int]]:
    """:func:`placing` with each entry's final placing, shared by the entries that went out in the same
    round (the two losing semi-finalists are both 3rd, four quarter-finalists 5th), as a club's ranking
    series scores a knockout: the seed orders the list, never the placing."""
    out_in = _out_rounds(seeds, winners, double=double)
    top = champion(seeds, winners, double=double)
    ordered = placing(seeds, winners, double=double)
    ranks: list[tuple[int, int]] = []
    for i, entry in enumerate(ordered):
        key = (entry != top, entry in out_in, out_in.get(entry, 0))
        previous = ordered[i - 1] if i else None
        same = previous is not None and (previous != top, previous in out_in, out_in.get(previous, 0)) == key
        ranks.append((entry, ranks[-1][1] if same else i + 1))
    return ranks
