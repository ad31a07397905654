"""How a double-loss draw picks its games once every result so far is known.

Rounds 1 and 2 (the opening) come from the draw list alone, before any result: round 1 pairs the list
in twos (with an odd field the last rests), round 2 gives each player the first one below him in the
list he has not met, the one who rested first; a field of 4k + 2 first plays a "twist" at the foot of
the list (5th-last v 2nd-last, 3rd-last v last) so the last two are not left to meet again.

From round 3 on a game is found for the *seeker*: the player still in with the fewest games, the
earlier in the list first. While more than :data:`CAREFUL_FIELD` are in, his opponent is the first
player (fewest games, then list order) he has not met, no more than one round apart, with whom the
rest of the round can still be paired without a rematch (a depth-first look-ahead in the same order).
At :data:`CAREFUL_FIELD` or fewer the end of the event is searched whole: every pairing the seeker (or,
at six or fewer, the next one) may take is scored by the worst way the rest can go, counting a
rematch (:data:`REMATCH`, more for a second), a round gap of two (:data:`ROUND_GAP`, never drawn
while anything else exists) and leaving a lagging player at the foot (:data:`LAGGARD`), and the
cheapest is drawn. This is how the reference program draws (KaisaKaavio, `HakuAlgoritmi.cs`), in
Kaiza's own terms; docs/double-loss-draw.md gives every rule with an example.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache

from game.tournaments.pairing.double_loss_state import DrawError, Pairing, Record

#: At this many players still in, or fewer, the rest of the event is searched whole.
CAREFUL_FIELD = 7
#: At this many or fewer the seeker may be passed over once (a cost of :data:`PASS_OVER` each).
PASS_OVER_FIELD = 6
#: The costs of an end-game pairing, in the order of their weight.
ROUND_GAP, DOUBLE_REMATCH, REMATCH, LAGGARD, PASS_OVER = 1023, 500, 100, 20, 1
#: The first round the search draws (rounds 1 and 2 are the opening).
FIRST_SEARCHED_ROUND = 3


def opening(entrants: Sequence[int]) -> list[Pairing]:
    """Rounds 1 and 2, in draw order, from the draw list alone."""
    games_of = dict.fromkeys(entrants, 0)
    position = {entrant: i for i, entrant in enumerate(entrants)}
    met: set[frozenset[int]] = set()
    plan: list[Pairing] = []

    def add(first: int, second: int, round_number: int) -> None:
        plan.append(Pairing(first, second, round_number, games_of[first] + 1, games_of[second] + 1))
        games_of[first] += 1
        games_of[second] += 1
        met.add(frozenset((first, second)))

    size = len(entrants)
    for i in range(0, size - 1, 2):
        add(entrants[i], entrants[i + 1], 1)
    if size % 4 == 2 and size >= 6:
        add(entrants[size - 5], entrants[size - 2], 2)
        add(entrants[size - 3], entrants[size - 1], 2)
    while True:
        short = sorted((e for e in entrants if games_of[e] < 2), key=lambda e: (games_of[e], position[e]))
        if len(short) < 2:
            break
        seeker = short[0]
        fresh = [e for e in short[1:] if frozenset((seeker, e)) not in met]
        if not fresh:
            raise DrawError(f"round 2 has no opponent left for {seeker} that he has not met")
        add(seeker, fresh[0], 2)
    return plan


def searched_game(table: dict[int, Record], single_loss_from: int) -> Pairing | None:
    """The next game from round 3 on, every result being known; None when the event is over."""
    alive = [record for record in table.values() if not record.out]
    if len(alive) < 2:
        return None
    if len(alive) <= CAREFUL_FIELD:
        try:
            pair = _end_game(alive, single_loss_from)
        except _TooLong:
            pair = _seeker_game(alive)
    else:
        pair = _seeker_game(alive)
    if pair is None:
        return None
    first, second = table[pair[0]], table[pair[1]]
    own = (first.games + 1, second.games + 1)
    return Pairing(first.entrant, second.entrant, max(own), *own)


def _order(record: Record) -> tuple[int, int]:
    return record.games, record.position


def _seeker_game(alive: list[Record]) -> tuple[int, int] | None:
    fewest = min(record.games for record in alive)
    at_fewest = sum(1 for record in alive if record.games == fewest)
    # one player alone at the back rests: the round drawn is the next one
    target = max(fewest + (2 if at_fewest == 1 else 1), FIRST_SEARCHED_ROUND)
    seekers = tuple(sorted((r for r in alive if r.games < target), key=_order))
    if not seekers:
        return None
    seeker = seekers[0]
    opponents = tuple(sorted((r for r in alive if r.games >= seeker.games and r is not seeker), key=_order))
    if not opponents:
        return None
    games = {record.entrant: record.games for record in alive}
    met = {record.entrant: frozenset(record.opponents) for record in alive}
    everyone = frozenset(games)

    @cache
    def completes(seeker_id: int, opponent_id: int, seeking: tuple[int, ...], offered: tuple[int, ...]) -> bool:
        """Can `seeker_id` take `opponent_id` and the rest of the round still be paired?"""
        if opponent_id in met[seeker_id] or abs(games[seeker_id] - games[opponent_id]) > 1:
            return False
        if len(seeking) == 2 and seeking[1] in met[seeking[0]]:
            return False  # the last two of the round have met: leave them apart
        paired = (seeker_id, opponent_id)
        rest = tuple(e for e in seeking if e not in paired)
        left = tuple(e for e in offered if e not in paired)
        if not rest:
            return True
        following = rest[0]
        left = tuple(e for e in left if e != following)
        if len(rest) == 1 and not left:
            return True  # he rests
        if any(completes(following, candidate, rest, left) for candidate in left):
            return True
        # no way on: fine only if every player is already past this game's round
        level = max(games[seeker_id], games[opponent_id])
        still = set(rest) | set(left)
        return all(games[e] + (0 if e in still else 1) > level for e in everyone)

    seeking = tuple(r.entrant for r in seekers)
    offered = tuple(r.entrant for r in opponents)
    if len(opponents) == 1:
        return seeker.entrant, opponents[0].entrant
    for candidate in offered:
        if completes(seeker.entrant, candidate, seeking, offered):
            return seeker.entrant, candidate
    # nothing keeps the round whole: the first he has not met, then the first in reach
    for record in opponents:
        if record.entrant not in met[seeker.entrant] and abs(record.games - seeker.games) <= 1:
            return seeker.entrant, record.entrant
    return seeker.entrant, opponents[0].entrant


#: A player in the end-game search: (games, list position, id, losses).
Player = tuple[int, int, int, int]
#: Head-to-head counts: ((lower id, higher id), games) pairs, sorted.
Meetings = tuple[tuple[tuple[int, int], int], ...]


def _end_game(alive: list[Record], single_loss_from: int) -> tuple[int, int] | None:
    players = tuple(sorted((r.games, r.position, r.entrant, r.losses) for r in alive))
    ids = {r.entrant for r in alive}
    counts: dict[tuple[int, int], int] = {}
    for record in alive:
        for other in record.opponents:
            if other in ids and record.entrant < other:
                key = (record.entrant, other)
                counts[key] = counts.get(key, 0) + 1
    search = _EndGame(single_loss_from)
    _, pair = search.best(players, tuple(sorted(counts.items())))
    return pair


class _TooLong(Exception):
    """The end-game search passed :data:`END_GAME_BUDGET` pairings: the seeker's rule decides."""


#: Pairings the end-game search may score before it gives up (a few seconds of Python; the samples'
#: end games take far fewer).
END_GAME_BUDGET = 200_000


class _EndGame:
    """The whole-event search: min over the pairings one may draw of the max over both results."""

    def __init__(self, single_loss_from: int) -> None:
        self.single_loss_from = single_loss_from
        self.best = lru_cache(maxsize=None)(self._best)
        self.scored = 0

    def _best(self, players: tuple[Player, ...], meetings: Meetings) -> tuple[int, tuple[int, int] | None]:
        fewest = players[0][0]
        passes = min(len(players) - 1, 2) if len(players) <= PASS_OVER_FIELD else 1
        best: int | None = None
        pair: tuple[int, int] | None = None
        for i in range(passes):
            if best is not None and best <= 0:
                break
            seeker = players[i]
            if seeker[0] > fewest + 1:
                break
            for opponent in players[i + 1 :]:
                if not seeker[0] <= opponent[0] <= seeker[0] + 1:
                    continue
                if opponent[0] > fewest + 1:
                    break
                cost = min(ROUND_GAP, self.pairing_cost(players, meetings, seeker, opponent) + i * PASS_OVER)
                if best is None or cost < best:
                    best, pair = cost, (seeker[2], opponent[2])
                if cost <= 0:
                    break
        return (ROUND_GAP if best is None else best), pair

    def pairing_cost(self, players: tuple[Player, ...], meetings: Meetings, one: Player, other: Player) -> int:
        self.scored += 1
        if self.scored > END_GAME_BUDGET:
            raise _TooLong
        if abs(one[0] - other[0]) > 1:
            return ROUND_GAP
        size = len(players)
        if size < 3:
            return 0
        key = (min(one[2], other[2]), max(one[2], other[2]))
        met = dict(meetings).get(key, 0)
        cost = 0
        if met:
            cost += (DOUBLE_REMATCH if met >= 2 else REMATCH) + (size - 3) * 10
        if one[0] != other[0]:
            behind = min(one[0], other[0])
            if any(p[0] == behind for p in players if p not in (one, other)):
                cost += LAGGARD + (size - 3) * 2
        after_meetings = tuple(sorted({**dict(meetings), key: met + 1}.items()))
        round_number = max(one[0], other[0]) + 1
        worst = 0
        for winner, loser in ((one, other), (other, one)):
            rest = [p for p in players if p not in (one, other)]
            rest.append((winner[0] + 1, winner[1], winner[2], winner[3]))
            kept = after_meetings
            if loser[3] + 1 < 2 and round_number < self.single_loss_from:
                rest.append((loser[0] + 1, loser[1], loser[2], loser[3] + 1))
            else:  # out: his meetings no longer matter, and the search reuses more states without them
                kept = tuple(item for item in after_meetings if loser[2] not in item[0])
            worst = max(worst, self.state_cost(tuple(sorted(rest)), kept, cost))
            if worst >= ROUND_GAP:
                break
        return worst

    def state_cost(self, players: tuple[Player, ...], meetings: Meetings, so_far: int) -> int:
        if len(players) < 2:
            return min(ROUND_GAP, so_far)
        if len(players) == 2:
            return min(ROUND_GAP, so_far + self.pairing_cost(players, meetings, players[0], players[1]))
        cost, _ = self.best(players, meetings)
        return min(ROUND_GAP, so_far + cost)
