"""The bracket of an elimination as boxes and lines to draw in SVG (the page draws, this places).

Winners' rounds are columns left to right, each slot centred between the two it comes from; the
losers' bracket sits below in its own columns; the grand final to the right. Every box says who plays
(a name, "bye", or nothing yet), who won and the score, and links to the match when there is one.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.utils.translation import gettext

from game.matches.selectors.match_result import TIME_MARK, WINNER_MARK
from game.models.tournaments import Tournament, TournamentEntry, TournamentPairing
from game.tournaments.pairing import knockout
from game.tournaments.selectors import tournaments as selectors

BOX_WIDTH, BOX_HEIGHT = 170, 44
COLUMN, ROW = 210, 56
MARGIN = 24
LOSERS_GAP = 48


def _box_label(slot: knockout.Slot, *, double: bool) -> str:
    """The words over a box, in the reader's language: the round, and in a double elimination which
    bracket (winners' or losers') it is in."""
    if slot.bracket == knockout.FINAL:
        return gettext("Final")
    if not double:
        return gettext("Round %(number)s") % {"number": slot.round}
    if slot.bracket == knockout.LOSERS:
        return gettext("Losers' round %(number)s") % {"number": slot.round}
    return gettext("Winners' round %(number)s") % {"number": slot.round}


def bracket_layout(*, tournament: Tournament) -> dict[str, Any] | None:
    """The boxes and lines of an elimination's bracket; None for another format, or before the draw."""
    if tournament.format not in selectors.ELIMINATIONS:
        return None
    entries = selectors.entries_in_seed_order(tournament=tournament)
    if len(entries) < 2 or not any(e.seed for e in entries):
        return None
    ids = [e.pk for e in entries]
    plan = knockout.sources(len(ids), double=selectors.is_double(tournament))
    centres, columns = _centres(plan)
    boxes = _boxes(tournament=tournament, plan=plan, ids=ids, centres=centres)
    height = max((y for _, y in centres.values()), default=0) + BOX_HEIGHT / 2 + MARGIN
    return {
        "width": MARGIN * 2 + (columns - 1) * COLUMN + BOX_WIDTH,
        "height": height,
        "box_width": BOX_WIDTH,
        "box_height": BOX_HEIGHT,
        "boxes": boxes,
        "lines": _lines(plan, centres),
    }


_Plan = dict[knockout.Slot, tuple[knockout.Source, knockout.Source]]
_Centres = dict[knockout.Slot, tuple[float, float]]


def _centres(plan: _Plan) -> tuple[_Centres, int]:
    """Each box's centre and the number of columns: the winners' rounds left to right, each slot centred
    in its share of the first round's height; the losers' rounds below them; the final to the right."""
    count = Counter((s.bracket, s.round) for s in plan)
    winners_height = count[knockout.WINNERS, 1] * ROW
    losers_first = count[knockout.LOSERS, 1]
    centres: _Centres = {}
    columns = 0
    for slot in plan:
        if slot.bracket not in (knockout.WINNERS, knockout.LOSERS):
            continue
        in_round = count[slot.bracket, slot.round]
        if slot.bracket == knockout.WINNERS:
            y = MARGIN + (slot.index + 0.5) * winners_height / in_round
        else:
            y = MARGIN + winners_height + LOSERS_GAP + (slot.index + 0.5) * losers_first * ROW / in_round
        centres[slot] = (MARGIN + (slot.round - 1) * COLUMN, y)
        columns = max(columns, slot.round)
    for slot in plan:
        if slot.bracket == knockout.FINAL:
            centres[slot] = (MARGIN + columns * COLUMN, MARGIN + winners_height / 2)
            columns += 1
    return centres, columns


def _boxes(*, tournament: Tournament, plan: _Plan, ids: list[int], centres: _Centres) -> list[dict[str, Any]]:
    """A box a slot: who plays each side, who won, the score with its mark, the label and the match."""
    names = dict(TournamentEntry.objects.filter(tournament=tournament).values_list("pk", "name"))
    winners = selectors.slot_winners(tournament=tournament)
    pairings = {p.slot: p for p in TournamentPairing.objects.filter(tournament=tournament).select_related("match")}
    double = tournament.format == Tournament.Format.DOUBLE_ELIMINATION
    boxes = []
    for slot, (x, y) in centres.items():
        sides, marks = _sides(slot, plan=plan, ids=ids, winners=winners, names=names)
        pairing = pairings.get(selectors.slot_name(slot))
        score, mark = _score(pairing)
        boxes.append(
            {
                "x": x,
                "y": y - BOX_HEIGHT / 2,
                "sides": [
                    {
                        "name": sides[i] or "",
                        "bye": sides[i] is None,
                        "won": marks[i],
                        "score": f"{score[i]}{mark if marks[i] else ''}" if score else "",
                        "y": y - BOX_HEIGHT / 2 + 17 + i * 20,
                    }
                    for i in (0, 1)
                ],
                "label": _box_label(slot, double=double),
                "url": f"/m/{pairing.match_id}/" if pairing is not None and pairing.match_id else None,
            }
        )
    return boxes


def _sides(
    slot: knockout.Slot, *, plan: _Plan, ids: list[int], winners: dict[knockout.Slot, int | None], names: dict[int, str]
) -> tuple[list[str | None], list[bool]]:
    """Each side's name ("" while it waits, None for a bye) and whether it won the slot."""
    sides: list[str | None] = []
    marks: list[bool] = []
    won = winners.get(slot)
    for source in plan[slot]:  # each side on its own: one may be known while the other waits
        try:
            entry = knockout.resolve(source, ids, plan, winners)
        except knockout.Pending:
            sides.append("")
            marks.append(False)
            continue
        sides.append(names.get(entry, "") if entry is not None else None)
        marks.append(entry is not None and slot in winners and won == entry)
    return sides, marks


def _score(pairing: TournamentPairing | None) -> tuple[tuple[int, int] | None, str]:
    """A played game's score, and the mark beside the winner's: KaisaKaavio's `v` (the shoot-out) or the
    time's mark."""
    if pairing is None or pairing.status != TournamentPairing.Status.DONE or pairing.how != "played":
        return None, ""
    marks_of = selectors.result_marks(pairing)
    mark = WINNER_MARK if marks_of["shootout"] else TIME_MARK if marks_of["on_time"] else ""
    return (pairing.first_score, pairing.second_score), mark


def _lines(plan: _Plan, centres: _Centres) -> list[str]:
    """An SVG path from each box to the box its winner goes on to."""
    lines = []
    for slot, (first_source, second_source) in plan.items():
        for source in (first_source, second_source):
            if source.kind != "winner" or source.slot not in centres or slot not in centres:
                continue
            (x1, y1), (x2, y2) = centres[source.slot], centres[slot]
            start, mid = x1 + BOX_WIDTH, (x1 + BOX_WIDTH + x2) / 2
            lines.append(f"M{start:.0f},{y1:.0f} H{mid:.0f} V{y2:.0f} H{x2:.0f}")
    return lines
