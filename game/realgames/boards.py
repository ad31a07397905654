"""What the pages that follow real games read: the game on a table, an event's games by table, each as
a board (the one snapshot, `real_game_view`, with its version and its JSON for the page's script).

Reads only: a table with no game yet shows none (the scorer's socket makes an event's game when its
table is opened, `services.game_for_table`; a page that follows must not write).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Case, IntegerField, QuerySet, Value, When

from game.common import json_text
from game.models.realgames import RealGame, ScoringTable
from game.models.tournaments import Tournament
from game.realgames.selectors import real_game_view
from game.tournaments.visibility import tournament_visible

#: The most tables one overlay lays out (two rows of four at the bottom of the frame).
OVERLAY_TABLES = 8


def _games() -> QuerySet[RealGame]:
    """Real games with what their view reads, the one being played first, then the newest."""
    unfinished = Case(
        When(status=RealGame.Status.FINISHED, then=Value(1)), default=Value(0), output_field=IntegerField()
    )
    return (
        RealGame.objects.select_related("table", "pairing__tournament", "pairing__round")
        .annotate(finished_last=unfinished)
        .order_by("finished_last", "-pk")
    )


def visible(*, game: RealGame, user: Any, session: Any) -> bool:
    """Whether this visitor may see the game: a free game always, an event's as the event
    (game/tournaments/visibility.py: a hidden event's games are not shown, not even on its table)."""
    return game.pairing is None or tournament_visible(tournament=game.pairing.tournament, user=user, session=session)


def board(game: RealGame, *, spectators: int = 0) -> dict[str, Any]:
    """A game as a page lays it out: its view, its version, and the view as JSON (the script's start)."""
    view = real_game_view(game, spectators=spectators)
    return {"game": view, "version": game.version, "json": json_text.encode(view)}


def real_game_for_page(*, game_id: int) -> RealGame | None:
    return _games().filter(pk=game_id).first()


def table_game(*, table: ScoringTable) -> RealGame | None:
    """The game a table's overlay shows: the one being played (or waiting to start) on it, else the
    last one played there."""
    return _games().filter(table=table).first()


def table_boards(*, table: ScoringTable, user: Any, session: Any) -> list[dict[str, Any]]:
    game = table_game(table=table)
    return [] if game is None or not visible(game=game, user=user, session=session) else [board(game)]


def event_tables(*, tournament: Tournament, numbers: list[int] | None = None) -> list[ScoringTable]:
    """The club's scoring tables an event is played on (its tables 1..N), or those of `numbers`."""
    wanted = numbers or list(range(1, (tournament.tables or 0) + 1))
    tables = ScoringTable.objects.filter(club_id=tournament.club_id, number__in=wanted[:OVERLAY_TABLES])
    return list(tables.order_by("number"))


def event_games(*, tournament: Tournament, numbers: list[int] | None = None) -> list[RealGame]:
    """Each table's game of the event (the one being played, else the last played), by table number."""
    tables = event_tables(tournament=tournament, numbers=numbers)
    games = _games().filter(pairing__tournament=tournament, table__in=tables)
    first: dict[int, RealGame] = {}
    for game in games:
        if game.table is not None:
            first.setdefault(game.table.number, game)
    return [first[number] for number in sorted(first)]


def event_boards(*, tournament: Tournament, numbers: list[int] | None = None) -> list[dict[str, Any]]:
    return [board(game) for game in event_games(tournament=tournament, numbers=numbers)]


def real_games_of_pairings(*, pairing_ids: list[int]) -> dict[int, dict[str, Any]]:
    """The real games of these pairings by pairing: what an event's live and TV pages show of each
    table's game (the tournaments' hook `real_games`)."""
    games = _games().filter(pairing_id__in=pairing_ids)
    return {game.pairing_id: board(game) for game in games if game.pairing_id is not None}
