"""Real play's statistics written (game/models/realstats.py): each finished game's two lines (a club event's
game gives its runs to its pairing through the tournaments' result service, game/realgames/services.py).
Called for every save of a real game
(game.apps connects :func:`real_game_saved` to the model's post_save), so whichever service finishes a
game, or takes its end back, the lines follow in the same transaction."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from game.models.realgames import RealGame
from game.models.realstats import RealGameLine
from game.realgames.summary import GameSummary, game_summary


def real_game_saved(sender: type, instance: RealGame, **kwargs: Any) -> None:
    """post_save of a RealGame: its lines as its state now says."""
    real_game_lines_record(game=instance)


def _club_id(game: RealGame) -> int | None:
    table = game.table
    if table is not None:
        return int(table.club_id)
    if game.pairing_id is not None and game.pairing is not None:
        club_id = game.pairing.tournament.club_id
        return int(club_id) if club_id is not None else None
    for player in (game.first_player, game.second_player):
        if player is not None:
            return int(player.club_id)
    return None


def real_game_lines_record(*, game: RealGame) -> None:
    """The game's two lines if it is finished (replaced: the same game finished again after an undo
    writes them anew), none otherwise."""
    summary = game_summary(game.state) if game.status == RealGame.Status.FINISHED else None
    if summary is None or game.finished_at is None:
        RealGameLine.objects.filter(game=game).delete()
        return
    with transaction.atomic():
        _write_lines(game, summary)


def _write_lines(game: RealGame, summary: GameSummary) -> None:
    assert game.finished_at is not None
    started = game.started_at or game.finished_at
    seconds = max(0, int((game.finished_at - started).total_seconds()))
    club_id = _club_id(game)
    registers = (game.first_player_id, game.second_player_id)
    for seat, (player, register) in enumerate(zip(summary.players, registers, strict=True)):
        RealGameLine.objects.update_or_create(
            game=game,
            seat=seat,
            defaults={
                "club_id": club_id,
                "player_id": register,
                "name": player.name or (game.first_name, game.second_name)[seat],
                "finished_at": game.finished_at,
                "seconds": seconds,
                "score": player.score,
                "points": player.points,
                "visits": player.visits,
                "fouls": player.fouls,
                "highest_run": player.highest_run,
                "second_run": player.second_run,
                "won": summary.winner == seat,
            },
        )
