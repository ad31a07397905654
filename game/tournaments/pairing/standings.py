"""Standings with the usual tie-breaks, from a list of results.

Round robin: points, then head-to-head (the points among the entries still level, as a small league of
their own), then the frames difference (Kaisa points made minus conceded), then seed. Swiss: points,
Buchholz (the sum of the opponents' points: whoever met stronger opponents ranks higher), median
Buchholz (the same without the best and the worst opponent), frames difference, seed. A bye counts its
point but has no opponent, so it adds nothing to Buchholz.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from game.tournaments.pairing.results import Result


@dataclass
class Row:
    entry: int
    rank: int = 0
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    points: float = 0.0
    frames_difference: int = 0
    buchholz: float = 0.0
    median_buchholz: float = 0.0
    head_to_head: float = 0.0
    opponents: list[int] = field(default_factory=list)


def _rows(entries: list[int], results: list[Result]) -> dict[int, Row]:
    rows = {entry: Row(entry) for entry in entries}
    for result in results:
        for entry in (result.first, result.second):
            if entry is None or entry not in rows:
                continue
            row = rows[entry]
            own = result.points_of(entry)
            other = result.opponent_of(entry)
            row.points += own
            row.frames_difference += result.score_difference_of(entry)
            if other is None:
                continue
            row.played += 1
            row.opponents.append(other)
            other_points = result.points_of(other)
            if own > other_points:
                row.won += 1
            elif own < other_points or own == 0:
                row.lost += 1
            else:
                row.drawn += 1
    return rows


def _ranked(rows: list[Row], keys: Mapping[int, tuple[float, ...]]) -> list[Row]:
    ordered = sorted(rows, key=lambda row: keys[row.entry])
    for i, row in enumerate(ordered):
        previous = ordered[i - 1] if i else None
        same = previous is not None and keys[previous.entry][:-1] == keys[row.entry][:-1]
        row.rank = previous.rank if same and previous is not None else i + 1
    return ordered


def round_robin_standings(entries: list[int], results: list[Result]) -> list[Row]:
    """Ranked rows; entries equal on every tie-break but seed share a rank."""
    rows = _rows(entries, results)
    by_points: dict[float, list[int]] = {}
    for entry in entries:
        by_points.setdefault(rows[entry].points, []).append(entry)
    for group in by_points.values():
        if len(group) < 2:
            continue
        for result in results:
            if result.second is not None and result.first in group and result.second in group:
                rows[result.first].head_to_head += result.first_points
                rows[result.second].head_to_head += result.second_points
    seed = {entry: i for i, entry in enumerate(entries)}
    keys = {
        e: (-rows[e].points, -rows[e].head_to_head, -float(rows[e].frames_difference), float(seed[e])) for e in entries
    }
    return _ranked([rows[e] for e in entries], keys)


def swiss_standings(entries: list[int], results: list[Result]) -> list[Row]:
    rows = _rows(entries, results)
    for row in rows.values():
        scores = sorted(rows[o].points for o in row.opponents if o in rows)
        row.buchholz = sum(scores)
        row.median_buchholz = sum(scores[1:-1]) if len(scores) > 2 else 0.0
    seed = {entry: i for i, entry in enumerate(entries)}
    keys = {
        e: (
            -rows[e].points,
            -rows[e].buchholz,
            -rows[e].median_buchholz,
            -float(rows[e].frames_difference),
            float(seed[e]),
        )
        for e in entries
    }
    return _ranked([rows[e] for e in entries], keys)
