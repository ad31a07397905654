"""An admin's fixed result (issue 18): a decided pairing's winner set again, with the reason and the
result before kept (TournamentResultFix); the tournament's winner follows. Apart from play.py, whose
helpers it uses to decide the pairing as play does."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext_noop

from game.selectors import tournaments as selectors
from game.services.tournaments.base import TournamentError, lock_tournament, require_manager
from game.services.tournaments.play import _decide, _finish, _points_for
from game.tournament_models import Tournament, TournamentPairing, TournamentResultFix, TournamentRound


@transaction.atomic
def tournament_result_fix(*, user: Any, pairing_id: int, winner_entry_id: int | None, reason: str) -> TournamentPairing:
    """An admin sets a decided pairing's result (None: a draw, round robin and Swiss only); the reason
    and the result before are kept (TournamentResultFix). A knockout result whose winner has already
    been paired on is refused: the bracket would no longer follow."""
    pairing = TournamentPairing.objects.select_for_update().filter(pk=pairing_id).select_related("round").first()
    if pairing is None:
        raise TournamentError("not_found", gettext_noop("there is no such pairing"))
    tournament = lock_tournament(pairing.tournament_id)
    require_manager(club_id=tournament.club_id, user=user)
    reason = (reason or "").strip()
    if not 3 <= len(reason) <= 300:
        raise TournamentError("reason_required", gettext_noop("give a reason (3 to 300 characters)"))
    if pairing.status != TournamentPairing.Status.DONE or pairing.second_id is None:
        raise TournamentError("not_finished", gettext_noop("only a played pairing's result can be fixed"))
    elimination = tournament.format in selectors.ELIMINATIONS
    if winner_entry_id not in (pairing.first_id, pairing.second_id) and not (
        winner_entry_id is None and not elimination
    ):
        raise TournamentError("bad_value", gettext_noop("the winner must be one of the pairing's two entries"))
    later = TournamentRound.objects.filter(tournament=tournament, number__gt=pairing.round.number).exists()
    if elimination and later and winner_entry_id != pairing.winner_id:
        raise TournamentError(
            "next_round_started", gettext_noop("the winner has already been paired in the next round")
        )
    before = _result_record(pairing)
    points = _points_for(tournament, pairing, winner_entry_id)
    _decide(
        pairing,
        winner=winner_entry_id,
        how=TournamentPairing.How.FIXED,
        points=points,
        scores=(pairing.first_score, pairing.second_score),
    )
    TournamentResultFix.objects.create(
        pairing=pairing, fixed_by=user, reason=reason, before=before, after=_result_record(pairing)
    )
    if tournament.status == Tournament.Status.FINISHED:
        _finish(tournament)  # the winner may have changed
    return pairing


def _result_record(pairing: TournamentPairing) -> dict[str, Any]:
    return {
        "winner": pairing.winner_id,
        "how": pairing.how,
        "points": [pairing.first_points, pairing.second_points],
        "scores": [pairing.first_score, pairing.second_score],
    }
