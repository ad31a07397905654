"""A team event at the club (KaisaKaavio's `Joukkuekilpailu`): the director draws a team game's
pairings again, enters each of its three games, and corrects them.

The team game (a pairing between two teams) is decided once its three games are played, by the games
won (game/tournaments/pairing/team_games.py): the draw then draws on as after any result. A game's
result is checked as any game's at the club (club.py `board_winner`: the target, the time limit, the
shoot-out); a correction that changes the team game's winner draws the later games again as any
correction does (club.py `correction_make`: refused with those games until confirmed).

Every refusal is a TournamentError raised before anything is written or inside the transaction that
it rolls back, so a refused request changes nothing.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from game.common.clock import game_now
from game.models import ClubPlayer
from game.models.tournaments import (
    Tournament,
    TournamentBout,
    TournamentPairing,
    TournamentResultFix,
    TournamentResultKey,
)
from game.tournaments.pairing.team_games import TeamScore, team_score
from game.tournaments.services.base import TournamentError, require_manager
from game.tournaments.services.bouts import bouts_make, team_rosters
from game.tournaments.services.club import (
    AT_TARGET,
    BoardResult,
    Correction,
    board_winner,
    correction_make,
    correction_reason,
    locked_pairing,
    may_enter_result,
    result_key_seen,
    target_of,
)
from game.tournaments.services.corrections import Redrawn
from game.tournaments.services.play import draw_advance, pairing_decide, pairing_points
from game.tournaments.values import Words


def _locked_bout(bout_id: int) -> tuple[TournamentBout, TournamentPairing, Tournament]:
    pairing_id = TournamentBout.objects.filter(pk=bout_id).values_list("pairing_id", flat=True).first()
    if pairing_id is None:
        raise TournamentError("not_found", gettext_noop("there is no such game"))
    pairing, tournament = locked_pairing(pairing_id)
    bout = TournamentBout.objects.select_for_update().get(pk=bout_id)
    return bout, pairing, tournament


def _bouts(pairing: TournamentPairing) -> list[TournamentBout]:
    return list(TournamentBout.objects.filter(pairing=pairing).order_by("index"))


def bout_winner_side(*, tournament: Tournament, bout: TournamentBout, result: BoardResult) -> int:
    """The side (0: the first team's player, 1: the second's) `result` gives the game, checked as any
    game's at the club, each score named by its player; the shoot-out's winner is a player's id."""
    names = dict(
        ClubPlayer.objects.filter(pk__in=(bout.first_player_id, bout.second_player_id)).values_list("pk", "name")
    )
    sides = (bout.first_player_id, bout.second_player_id)
    fields = tuple(Words(gettext_noop("the score of %(name)s"), {"name": names.get(side, "?")}) for side in sides)
    winner = board_winner(sides=sides, fields=fields, result=result, target=target_of(tournament))
    return sides.index(winner)


def _store(bout: TournamentBout, side: int, result: BoardResult) -> None:
    bout.winner_side = side
    bout.first_score, bout.second_score = int(result.first_score or 0), int(result.second_score or 0)
    bout.result_code = result.ended
    bout.finished_at = bout.finished_at or timezone.now()
    bout.save()


def team_game_score(pairing: TournamentPairing) -> TeamScore:
    return team_score([b.winner_side for b in _bouts(pairing)])


def _decide_team_game(tournament: Tournament, pairing: TournamentPairing, score: TeamScore) -> None:
    """The team game by its games: the winner the team with more games won, its score the games won."""
    assert score.winner is not None and pairing.second_id is not None
    winner = (pairing.first_id, pairing.second_id)[score.winner]
    pairing_decide(
        pairing,
        winner=winner,
        how=TournamentPairing.How.PLAYED,
        points=pairing_points(tournament, pairing, winner),
        scores=(score.first_wins, score.second_wins),
        result_code=AT_TARGET,
    )


def _record(bout: TournamentBout, pairing: TournamentPairing) -> dict[str, Any]:
    """What the correction log keeps of a game: its number, the team whose player won, the scores."""
    winner = None if bout.winner_side is None else (pairing.first_id, pairing.second_id)[bout.winner_side]
    return {
        "game": bout.index + 1,
        "winner": winner,
        "how": bout.result_code,
        "scores": [bout.first_score, bout.second_score],
    }


@transaction.atomic
def tournament_bout_enter(*, user: Any, bout_id: int, result: BoardResult, key: str = "") -> TournamentBout:
    """A game of a team game has ended: its result is stored; with the third the team game is
    decided and the draw draws on (the table is free). Entered once (a form's `key` too); an entered
    game is corrected (:func:`tournament_bout_correct`)."""
    bout, pairing, tournament = _locked_bout(bout_id)
    if result_key_seen(key=key, pairing_id=pairing.pk):
        return bout
    if not may_enter_result(tournament=tournament, pairing=pairing, user=user):
        raise TournamentError(
            "not_allowed", gettext_noop("only the director enters this game's result"), forbidden=True
        )
    if bout.winner_side is not None or pairing.status == TournamentPairing.Status.DONE:
        raise TournamentError("already_entered", gettext_noop("this game's result is in: correct it instead"))
    if pairing.table is None:
        raise TournamentError("no_table", gettext_noop("this game is waiting for a table"))
    _store(bout, bout_winner_side(tournament=tournament, bout=bout, result=result), result)
    if key:  # the keys of the forms of a team game's games are its pairing's
        TournamentResultKey.objects.create(key=key, pairing=pairing)
    score = team_game_score(pairing)
    if score.decided:
        _decide_team_game(tournament, pairing, score)
        draw_advance(tournament, game_now())
    return bout


@transaction.atomic
def tournament_bout_correct(
    *, user: Any, bout_id: int, result: BoardResult, confirm: bool, reason: str = ""
) -> list[Redrawn]:
    """The director corrects a game of a team game. While the team game is still being played only
    the game changes; once it is decided its result follows its games, and a correction that changes
    which team won draws the later games again as any correction does (refused with them until
    `confirm`). The result before is kept (TournamentResultFix, naming the game)."""
    bout, pairing, tournament = _locked_bout(bout_id)
    require_manager(club_id=tournament.club_id, user=user)
    if bout.winner_side is None:
        raise TournamentError("not_finished", gettext_noop("this game has no result yet: enter it instead"))
    side = bout_winner_side(tournament=tournament, bout=bout, result=result)
    before = _record(bout, pairing)
    if pairing.status != TournamentPairing.Status.DONE:
        why = correction_reason(reason)
        _store(bout, side, result)
        TournamentResultFix.objects.create(
            pairing=pairing, fixed_by=user, reason=why, before=before, after=_record(bout, pairing)
        )
        return []
    winners = [b.winner_side if b.pk != bout.pk else side for b in _bouts(pairing)]
    score = team_score(winners)
    assert score.winner is not None and pairing.second_id is not None

    def decide() -> dict[str, Any]:
        _store(bout, side, result)
        _decide_team_game(tournament, pairing, score)
        return _record(bout, pairing)

    winner = (pairing.first_id, pairing.second_id)[score.winner]
    correction = Correction(
        user, tournament, pairing, winner, (score.first_wins, score.second_wins), decide, before, reason
    )
    return correction_make(correction, confirm=confirm)


@transaction.atomic
def tournament_bouts_draw_again(*, user: Any, pairing_id: int) -> list[TournamentBout]:
    """The director draws a team game's pairings again (the program's "Arvo uudelleen"), the next lot
    of the same draw number: until a game of it has a result."""
    pairing, tournament = locked_pairing(pairing_id)
    require_manager(club_id=tournament.club_id, user=user)
    bouts = _bouts(pairing)
    if tournament.kind != Tournament.Kind.CLUB_TEAMS or not bouts:
        raise TournamentError("not_team_game", gettext_noop("this is not a team game"))
    if pairing.status == TournamentPairing.Status.DONE or any(b.winner_side is not None for b in bouts):
        raise TournamentError(
            "already_played", gettext_noop("a game of this team game is played: its pairings can no longer be drawn")
        )
    again = max(b.drawn_again for b in bouts) + 1
    TournamentBout.objects.filter(pairing=pairing).delete()
    return bouts_make(tournament, pairing, team_rosters(tournament), again=again)
