"""Swiss system: a few rounds (about log2 of the field) in which entries meet others on the same score.

Each round the field is ranked by points (then seed), and paired from the top: each entry takes the
highest-ranked entry it has not met yet, backtracking when that leaves someone unpairable, so there is
no rematch while any pairing without one exists. With an odd field the lowest-ranked entry that has
not had a bye sits out with a win (one bye per entry at most). Within a game seat 0 (the lag side,
K-3.1) goes to whoever has had it less often, so seats stay balanced where that is free.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.tournaments.pairing.results import Game, Result


def swiss_round_count(entries: int) -> int:
    """ceil(log2(n)), at least one round."""
    return max(1, (max(entries, 2) - 1).bit_length())


def swiss_pairings(entries: list[int], results: list[Result]) -> list[Game]:
    """The next round's games for `entries` (seed order) after `results`; byes last."""
    tally = _tally(entries, results)
    seed = {entry: i for i, entry in enumerate(entries)}
    ranked = sorted(entries, key=lambda e: (-tally.points[e], seed[e]))
    bye: int | None = None
    if len(ranked) % 2:
        bye = _bye(ranked, tally)
        ranked = [e for e in ranked if e != bye]
    met, seat0 = tally.met, tally.seat0
    pairs = _pair(ranked, met, strict=True) or _pair(ranked, met, strict=False) or []
    games = [Game(a, b) if (seat0[a], seed[a]) <= (seat0[b], seed[b]) else Game(b, a) for a, b in pairs]
    if bye is not None:
        games.append(Game(bye, None))
    return games


@dataclass
class _Tally:
    """Each entry's points, opponents met, games in the first seat, and whether it had a bye."""

    points: dict[int, float]
    met: dict[int, list[int]]
    seat0: dict[int, int]
    had_bye: dict[int, bool]


def _tally(entries: list[int], results: list[Result]) -> _Tally:
    tally = _Tally(
        points={entry: 0.0 for entry in entries},
        met={entry: [] for entry in entries},
        seat0={entry: 0 for entry in entries},
        had_bye={entry: False for entry in entries},
    )
    for result in results:
        tally.points[result.first] = tally.points.get(result.first, 0.0) + result.first_points
        if result.second is None:
            tally.had_bye[result.first] = True
            continue
        tally.points[result.second] = tally.points.get(result.second, 0.0) + result.second_points
        tally.met.setdefault(result.first, []).append(result.second)
        tally.met.setdefault(result.second, []).append(result.first)
        tally.seat0[result.first] = tally.seat0.get(result.first, 0) + 1
    return tally


def _bye(ranked: list[int], tally: _Tally) -> int:
    """Who rests in an odd field: the lowest ranked without a bye yet whose rest leaves a pairing with
    no rematch (the lowest without a bye, if none does)."""
    candidates = [e for e in reversed(ranked) if not tally.had_bye[e]] or list(reversed(ranked))
    for candidate in candidates:
        rest = [e for e in ranked if e != candidate]
        if _pair(rest, tally.met, strict=True) is not None:
            return candidate
    return candidates[0]


def _pair(ranked: list[int], met: dict[int, list[int]], *, strict: bool) -> list[tuple[int, int]] | None:
    """Pair `ranked` top-down with backtracking; `strict` forbids rematches."""
    if not ranked:
        return []
    top, rest = ranked[0], ranked[1:]
    for i, opponent in enumerate(rest):
        if strict and opponent in met.get(top, []):
            continue
        remainder = _pair(rest[:i] + rest[i + 1 :], met, strict=strict)
        if remainder is not None:
            return [(top, opponent), *remainder]
    return None
