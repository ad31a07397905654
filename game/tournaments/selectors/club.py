"""What the pages of an event at the club read: each real table with the game on
it, the drawn games waiting for a table, the results entered, and the score sheets to print."""

from __future__ import annotations

from typing import Any

from django.db.models import F

from game.models.tournaments import Tournament, TournamentEntry, TournamentPairing
from game.tournaments.hooks import HOOKS
from game.tournaments.selectors.draw import drawn_pairings, ready_pairings
from game.tournaments.selectors.team_games import team_games
from game.tournaments.selectors.tournaments import pairing_score_line, result_marks, tournament_summary
from game.tournaments.selectors.venues import table_place, venues_view


def _game(
    pairing: TournamentPairing,
    names: dict[int, str],
    handicaps: dict[int, int] | None = None,
    teams: dict[int, dict[str, Any]] | None = None,
) -> dict[str, Any]:
    done = pairing.status == TournamentPairing.Status.DONE
    starts = handicaps or {}
    return {
        # A team game's three games and how its pairings were drawn (selectors/team_games.py).
        "team": (teams or {}).get(pairing.pk),
        "id": pairing.pk,
        "round": pairing.round.number,
        "table": pairing.table,
        "first": names.get(pairing.first_id, "?"),
        "second": names.get(pairing.second_id or 0, "?"),
        "first_entry": pairing.first_id,
        "second_entry": pairing.second_id,
        # The scores the two start at (their handicaps, the program's `Tasoitus`; 0: none).
        "first_handicap": starts.get(pairing.first_id, 0),
        "second_handicap": starts.get(pairing.second_id or 0, 0),
        "done": done,
        "winner": names.get(pairing.winner_id or 0) if done else None,
        "winner_entry": pairing.winner_id if done else None,
        "first_score": pairing.first_score,
        "second_score": pairing.second_score,
        "ended": pairing.result_code,
        "score_line": pairing_score_line(pairing) if done else "",
        **result_marks(pairing),
        # When it was given its table: the TV's clock of the game (epoch ms for the page's script).
        "table_at": pairing.table_at if not done else None,
        "table_at_ms": int(pairing.table_at.timestamp() * 1000) if pairing.table_at and not done else None,
    }


def tables_view(*, tournament: Tournament) -> dict[str, Any] | None:
    """Tables 1..N with the game being played on each (None: free) and, when it is scored at the
    table, its real game's board (`real`, None otherwise), the games waiting for a table in
    the program's list order (those whose players are free: a game drawn while a player's earlier
    game is still to be played is not waiting for a table yet), and the results entered, the latest
    first. None for an online tournament."""
    if not tournament.tables:
        return None
    names = dict(TournamentEntry.objects.filter(tournament=tournament).values_list("pk", "name"))
    handicaps = entry_handicaps(tournament=tournament)
    pairings = drawn_pairings(tournament=tournament)
    teams = team_games(tournament=tournament)
    playing = [p for p in pairings if p.status == TournamentPairing.Status.PLAYING]
    on_table = {p.table: _game(p, names, handicaps, teams) for p in playing if p.table is not None}
    # The games scored at the tables (game/realgames, through its hook): their live score, run and clock.
    real = HOOKS.real_games(pairing_ids=[game["id"] for game in on_table.values()]) if on_table else {}
    places = venues_view(tournament=tournament)  # at several places: each table is its place's
    return {
        "tables": [
            {"number": n, "game": game, "real": real.get(game["id"]) if game else None, "place": table_place(places, n)}
            for n, game in ((n, on_table.get(n)) for n in range(1, tournament.tables + 1))
        ],
        "waiting": [
            _game(p, names, handicaps, teams) for p in ready_pairings(tournament=tournament, pairings=pairings)
        ],
        "results": [
            _game(p, names, handicaps, teams) for p in reversed(pairings) if p.status == TournamentPairing.Status.DONE
        ],
    }


def entry_handicaps(*, tournament: Tournament) -> dict[int, int]:
    """The entries with a handicap: the score their games start at."""
    rows = TournamentEntry.objects.filter(tournament=tournament, handicap__gt=0).values_list("pk", "handicap")
    return dict(rows)


def latest_results(*, tournament: Tournament, most: int = 30) -> list[dict[str, Any]]:
    """The results entered or played, the latest first (at the club, online, any format): the TV's
    latest results. A bye is no result to show."""
    names = dict(TournamentEntry.objects.filter(tournament=tournament).values_list("pk", "name"))
    done = (
        TournamentPairing.objects.filter(
            tournament=tournament, status=TournamentPairing.Status.DONE, second__isnull=False
        )
        .select_related("round")
        .order_by(F("finished_at").desc(nulls_last=True), "-index", "-pk")
    )
    return [_game(p, names) for p in done[:most]]


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
