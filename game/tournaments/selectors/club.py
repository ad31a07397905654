"""What the pages of an event at the club read (issue 28 item 3): each real table with the game on
it, the drawn games waiting for a table, the results entered, and the score sheets to print."""

from __future__ import annotations

from typing import Any

from game.models.tournaments import Tournament, TournamentEntry, TournamentPairing
from game.tournaments.selectors.tournaments import pairing_score_line, result_marks, tournament_summary


def _game(pairing: TournamentPairing, names: dict[int, str]) -> dict[str, Any]:
    done = pairing.status == TournamentPairing.Status.DONE
    return {
        "id": pairing.pk,
        "round": pairing.round.number,
        "table": pairing.table,
        "first": names.get(pairing.first_id, "?"),
        "second": names.get(pairing.second_id or 0, "?"),
        "first_entry": pairing.first_id,
        "second_entry": pairing.second_id,
        "done": done,
        "winner": names.get(pairing.winner_id or 0) if done else None,
        "winner_entry": pairing.winner_id if done else None,
        "first_score": pairing.first_score,
        "second_score": pairing.second_score,
        "ended": pairing.result_code,
        "score_line": pairing_score_line(pairing) if done else "",
        **result_marks(pairing),
    }


def tables_view(*, tournament: Tournament) -> dict[str, Any] | None:
    """Tables 1..N with the game being played on each (None: free), the games waiting for a table in
    draw order, and the results entered, the latest first. None for an online tournament."""
    if not tournament.tables:
        return None
    names = dict(TournamentEntry.objects.filter(tournament=tournament).values_list("pk", "name"))
    pairings = list(
        TournamentPairing.objects.filter(tournament=tournament).select_related("round").order_by("index", "pk")
    )
    playing = [p for p in pairings if p.status == TournamentPairing.Status.PLAYING]
    on_table = {p.table: _game(p, names) for p in playing if p.table is not None}
    return {
        "tables": [{"number": n, "game": on_table.get(n)} for n in range(1, tournament.tables + 1)],
        "waiting": [_game(p, names) for p in playing if p.table is None],
        "results": [_game(p, names) for p in reversed(pairings) if p.status == TournamentPairing.Status.DONE],
    }


def score_sheets(*, tournament: Tournament) -> list[dict[str, Any]]:
    """One sheet per game not yet ended, in draw order (those on a table first): the event, the
    table, the two players and the clock, for the director to print and lay on the table."""
    view = tables_view(tournament=tournament)
    if view is None:
        return []
    summary = tournament_summary(tournament=tournament)
    games = [t["game"] for t in view["tables"] if t["game"] is not None] + view["waiting"]
    return [{"game": game, "summary": summary} for game in games]


def walk_ins(*, tournament: Tournament) -> list[TournamentEntry]:
    """The entries with no account yet (a name only), which the director may join to one."""
    if not tournament.tables:
        return []
    return list(TournamentEntry.objects.filter(tournament=tournament, members__isnull=True).order_by("name"))
