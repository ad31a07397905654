"""The bracket of an elimination as boxes and lines to draw in SVG (the page draws, this places).

Winners' rounds are columns left to right, each slot centred between the two it comes from; the
losers' bracket sits below in its own columns; the grand final to the right. Every box says who plays
(a name, "bye", or nothing yet), who won and the score, and links to the match when there is one.
"""

from __future__ import annotations

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
    if tournament.format not in selectors.ELIMINATIONS:
        return None
    entries = selectors.entries_in_seed_order(tournament=tournament)
    if len(entries) < 2 or not any(e.seed for e in entries):
        return None
    ids = [e.pk for e in entries]
    names = dict(TournamentEntry.objects.filter(tournament=tournament).values_list("pk", "name"))
    double = selectors.is_double(tournament)
    plan = knockout.sources(len(ids), double=double)
    winners = selectors.slot_winners(tournament=tournament)
    pairings = {p.slot: p for p in TournamentPairing.objects.filter(tournament=tournament).select_related("match")}
    first_round = sum(1 for s in plan if s.bracket == knockout.WINNERS and s.round == 1)
    winners_height = first_round * ROW
    losers_first = sum(1 for s in plan if s.bracket == knockout.LOSERS and s.round == 1)
    centres: dict[knockout.Slot, tuple[float, float]] = {}
    columns = 0
    x: float
    y: float
    for slot in plan:
        count = sum(1 for s in plan if s.bracket == slot.bracket and s.round == slot.round)
        if slot.bracket == knockout.WINNERS:
            x = MARGIN + (slot.round - 1) * COLUMN
            y = MARGIN + (slot.index + 0.5) * winners_height / count
            columns = max(columns, slot.round)
        elif slot.bracket == knockout.LOSERS:
            x = MARGIN + (slot.round - 1) * COLUMN
            y = MARGIN + winners_height + LOSERS_GAP + (slot.index + 0.5) * losers_first * ROW / count
            columns = max(columns, slot.round)
        else:
            continue
        centres[slot] = (x, y)
    for slot in plan:
        if slot.bracket == knockout.FINAL:
            centres[slot] = (MARGIN + columns * COLUMN, MARGIN + winners_height / 2)
            columns += 1
    boxes = []
    for slot, (x, y) in centres.items():
        sides: list[str | None] = []  # None: a bye
        marks = []
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
        pairing = pairings.get(selectors.slot_name(slot))
        score = None
        mark = ""  # beside the winner's score: KaisaKaavio's `v` (the shoot-out) or the time's mark
        if pairing is not None and pairing.status == TournamentPairing.Status.DONE and pairing.how == "played":
            score = (pairing.first_score, pairing.second_score)
            marks_of = selectors.result_marks(pairing)
            mark = WINNER_MARK if marks_of["shootout"] else TIME_MARK if marks_of["on_time"] else ""
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
                "label": _box_label(slot, double=tournament.format == Tournament.Format.DOUBLE_ELIMINATION),
                "url": f"/m/{pairing.match_id}/" if pairing is not None and pairing.match_id else None,
            }
        )
    lines = []
    for slot, (first_source, second_source) in plan.items():
        for source in (first_source, second_source):
            if source.kind != "winner" or source.slot not in centres or slot not in centres:
                continue
            (x1, y1), (x2, y2) = centres[source.slot], centres[slot]
            start, mid = x1 + BOX_WIDTH, (x1 + BOX_WIDTH + x2) / 2
            lines.append(f"M{start:.0f},{y1:.0f} H{mid:.0f} V{y2:.0f} H{x2:.0f}")
    height = max((y for _, y in centres.values()), default=0) + BOX_HEIGHT / 2 + MARGIN
    return {
        "width": MARGIN * 2 + (columns - 1) * COLUMN + BOX_WIDTH,
        "height": height,
        "box_width": BOX_WIDTH,
        "box_height": BOX_HEIGHT,
        "boxes": boxes,
        "lines": lines,
    }
