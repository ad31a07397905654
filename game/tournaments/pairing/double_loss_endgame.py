"""The careful search of a double-loss draw's end game: the rest of the event scored whole.

At :data:`CAREFUL_FIELD` players still in, or fewer, each pairing the seeker (or, at
:data:`PASS_OVER_FIELD` or fewer, the next one) may take is scored by the worst way the rest of the
event can go: a two-round gap :data:`ROUND_GAP`, a rematch :data:`REMATCH` (:data:`DOUBLE_REMATCH`
for a third meeting) plus 10 for every player in beyond 3, a lagging player left alone at the foot
:data:`LAGGARD` plus 2 for every player beyond 3, passing the seeker over :data:`PASS_OVER`.
:func:`best_pairing` is the entry; :mod:`game.tournaments.pairing.double_loss_search` builds the
state and decides when to call it. Pure: positions and bytes in, a pairing out.
"""

from __future__ import annotations

#: At this many players still in, or fewer, the careful search scores the rest of the event.
CAREFUL_FIELD = 7
#: At this many or fewer the careful search may pass the seeker over (once).
PASS_OVER_FIELD = 6
#: The careful search's costs.
ROUND_GAP, DOUBLE_REMATCH, REMATCH, LAGGARD, PASS_OVER = 1023, 500, 100, 20, 1
#: "No knockout": the first single-loss round of a plain double-loss event.
NO_KNOCKOUT = 999

#: A careful-search state, compact: the field's size n, each player's games (list order), each
#: one's losses, then the head-to-head count of every pair i < j in row order (three and more alike:
#: the costs see one and two meetings only).
State = bytes
#: Pair and row tables per field size (index of pair i, j; what is kept when a player leaves).
_PAIRS: dict[int, list[list[int]]] = {}
_KEEP: dict[int, list[tuple[list[int], list[int]]]] = {}


def pair_tables(size: int) -> tuple[list[list[int]], list[tuple[list[int], list[int]]]]:
    """Per field size: the index of each pair i < j, and what is kept of the pairs when a player leaves."""
    if size not in _PAIRS:
        pairs = [[0] * size for _ in range(size)]
        index = 0
        for i in range(size):
            for j in range(i + 1, size):
                pairs[i][j] = pairs[j][i] = index
                index += 1
        keep = []
        for leaving in range(size):
            rows = [k for k in range(size) if k != leaving]
            keep.append((rows, [pairs[a][b] for n, a in enumerate(rows) for b in rows[n + 1 :]]))
        _PAIRS[size], _KEEP[size] = pairs, keep
    return _PAIRS[size], _KEEP[size]


#: No bound: the exact figure is wanted.
UNBOUNDED = 1 << 30
#: The careful search remembers each state's best pairing (exact), or a floor under it (what an
#: earlier search bounded by that figure learned); a state's answer never depends on what it holds.
_EXACT: dict[tuple[State, int], tuple[int, int, int] | None] = {}
_FLOOR: dict[tuple[State, int], int] = {}
#: Beyond this many states the memory is emptied (a few hundred MB at most).
MOST_REMEMBERED = 1_500_000


def _best(state: State, single_loss_from: int, limit: int = UNBOUNDED) -> tuple[int, int, int] | None:
    """The cheapest pairing of `state`: (cost, seeker, opponent) by row, or None if there is none.
    Exact when it costs less than `limit`; otherwise any (cost >= limit, -1, -1). Ties keep the first
    found, so a pairing that cannot cost less than the best so far is scored only far enough to know
    it (or not at all): the answer is the same as scoring every pairing in full."""
    key = (state, single_loss_from)
    if key in _EXACT:
        return _EXACT[key]
    floor = _FLOOR.get(key, 0)
    if floor >= limit:
        return floor, -1, -1
    if len(_EXACT) + len(_FLOOR) > MOST_REMEMBERED:
        _EXACT.clear()
        _FLOOR.clear()
    size = state[0]
    order = sorted(range(size), key=lambda i: (state[1 + i], i))
    fewest = state[1 + order[0]]
    passes = min(size - 1, 2) if size <= PASS_OVER_FIELD else 1
    pairs, _ = pair_tables(size)
    meetings = 1 + 2 * size
    best: tuple[int, int, int] | None = None
    bounded = False  # a pairing scored only to its bound: the best may be unknown past `limit`
    for i in range(passes):
        if best is not None and best[0] <= 0:
            continue
        seeker = order[i]
        games = state[1 + seeker]
        if games > fewest + 1:
            break
        for opponent in order[i + 1 :]:
            theirs = state[1 + opponent]
            if not games <= theirs <= games + 1:
                continue
            if theirs > fewest + 1:
                break
            threshold = best[0] if best is not None else limit
            if threshold <= ROUND_GAP:
                floor_cost = _now_cost(state, size, seeker, opponent, state[meetings + pairs[seeker][opponent]])
                if min(ROUND_GAP, floor_cost + i * PASS_OVER) >= threshold:
                    bounded = bounded or best is None
                    continue
            pair_limit = threshold - i * PASS_OVER if threshold <= ROUND_GAP else UNBOUNDED
            cost = min(ROUND_GAP, _pair_cost(state, seeker, opponent, single_loss_from, pair_limit) + i * PASS_OVER)
            if cost < threshold:
                best = (cost, seeker, opponent)
            elif best is None:
                bounded = True
            if cost <= 0:
                break
    if best is None and bounded:
        _FLOOR[key] = max(floor, limit)
        return limit, -1, -1
    _EXACT[key] = best
    return best


def _now_cost(state: State, size: int, one: int, other: int, met: int) -> int:
    """What `one` v `other` costs before its result: a round gap, a rematch, a laggard left."""
    mine, theirs = state[1 + one], state[1 + other]
    if abs(mine - theirs) > 1:
        return ROUND_GAP
    if size < 3:
        return 0
    cost = 0
    if met == 2:
        cost += DOUBLE_REMATCH + (size - 3) * 10
    elif met == 1:
        cost += REMATCH + (size - 3) * 10
    if mine != theirs:
        behind = min(mine, theirs)
        if any(state[1 + k] == behind for k in range(size) if k not in (one, other)):
            cost += LAGGARD + (size - 3) * 2
    return cost


def _pair_cost(state: State, one: int, other: int, single_loss_from: int, limit: int = ROUND_GAP + 1) -> int:
    """The cost of `one` v `other` now and the worse of the two ways it can end. Once the first way
    reaches `limit` (what the caller can use), that figure is returned unfinished."""
    size = state[0]
    pairs, _ = pair_tables(size)
    if abs(state[1 + one] - state[1 + other]) > 1:
        return ROUND_GAP
    if size < 3:
        return 0
    cost = _now_cost(state, size, one, other, state[1 + 2 * size + pairs[one][other]])
    worst = 0
    for winner, loser in ((one, other), (other, one)):
        after = _after(state, winner, loser, single_loss_from)
        worst = max(worst, _situation_cost(after, cost, single_loss_from, limit))
        if worst >= ROUND_GAP or worst >= limit:
            break
    return worst


def _after(state: State, winner: int, loser: int, single_loss_from: int) -> State:
    """The state once `winner` has beaten `loser`; a loser who is out leaves it."""
    size = state[0]
    pairs, keep = pair_tables(size)
    new = bytearray(state)
    new[1 + winner] += 1
    new[1 + loser] += 1
    new[1 + size + loser] += 1
    meeting = 1 + 2 * size + pairs[winner][loser]
    new[meeting] = min(3, new[meeting] + 1)
    if new[1 + size + loser] > 1 or new[1 + loser] >= single_loss_from:
        rows, kept = keep[loser]
        base = 1 + 2 * size
        new = bytearray(
            [size - 1, *(new[1 + k] for k in rows), *(new[1 + size + k] for k in rows), *(new[base + m] for m in kept)]
        )
        size -= 1
    if single_loss_from >= NO_KNOCKOUT and size:
        floor = min(new[1 : 1 + size])
        if floor:
            for k in range(1, 1 + size):
                new[k] -= floor
    return bytes(new)


def _situation_cost(state: State, so_far: int, single_loss_from: int, limit: int = UNBOUNDED) -> int:
    """The cost of going on from `state` after `so_far` (exact below `limit`, else a figure at or
    above it). The program adds `so_far` once more when it searches a field of three or more; the
    figures here follow it."""
    size = state[0]
    if size == 2:
        return min(ROUND_GAP, so_far + _pair_cost(state, 0, 1, single_loss_from))
    if size < 2:
        return min(ROUND_GAP, so_far)
    below = limit - 2 * so_far if limit <= ROUND_GAP else UNBOUNDED
    if below <= 0:
        return max(limit, min(ROUND_GAP, so_far))
    best = _best(state, single_loss_from, below)
    if best is None:
        return ROUND_GAP
    if best[1] < 0:
        return max(limit, min(ROUND_GAP, so_far))
    return min(ROUND_GAP, so_far + min(ROUND_GAP, best[0] + so_far))


def best_pairing(state: State, single_loss_from: int) -> tuple[int, int, int] | None:
    """The cheapest pairing of `state` (cost, seeker row, opponent row), or None if there is none."""
    return _best(state, single_loss_from)
