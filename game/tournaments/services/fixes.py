"""An admin's fixed result: a decided pairing's winner set again, with the reason and the
result before kept (TournamentResultFix); the tournament's winner follows, and a drawn format's draw
is fed the fixed result."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext_noop

from game.common.clock import game_now
from game.models.tournaments import Tournament, TournamentPairing, TournamentResultFix, TournamentRound
from game.tournaments.selectors import tournaments as selectors
from game.tournaments.selectors.draw import is_drawn
from game.tournaments.services import draw
from game.tournaments.services.base import TournamentError, lock_tournament, require_manager
from game.tournaments.services.play import draw_advance, pairing_decide, pairing_points, tournament_finish


@transaction.atomic
def tournament_result_fix(*, user: Any, pairing_id: int, winner_entry_id: int | None, reason: str) -> TournamentPairing:
    """An admin sets a decided pairing's result (None: a draw, round robin and Swiss only); the reason
    and the result before are kept (TournamentResultFix). A knockout result whose winner has already
    been paired on is refused: the bracket would no longer follow.

    A drawn format's fixed result feeds the draw again: it may give new games (a player back in) or
    end or reopen the tournament, and the placings follow. A new winner is refused once a game drawn
    after this one names either player (that game was drawn from the result: his own round, whether he
    was still in). Games drawn after it between other players stand as they were drawn, even where
    the result weighed in the choice of their opponents (the search reads the whole field)."""
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
    drawn = is_drawn(tournament)
    _check_fixable(tournament, pairing, winner_entry_id, drawn=drawn)
    before = _result_record(pairing)
    points = pairing_points(tournament, pairing, winner_entry_id)
    pairing_decide(
        pairing,
        winner=winner_entry_id,
        how=TournamentPairing.How.FIXED,
        points=points,
        scores=(pairing.first_score, pairing.second_score),
        result_code=pairing.result_code,
    )
    TournamentResultFix.objects.create(
        pairing=pairing, fixed_by=user, reason=reason, before=before, after=_result_record(pairing)
    )
    _after_the_fix(tournament, drawn=drawn)
    return pairing


def _check_fixable(
    tournament: Tournament, pairing: TournamentPairing, winner_entry_id: int | None, *, drawn: bool
) -> None:
    """The new winner is one of the two (or none, a draw, where the format has draws), and no later
    round or drawn game was made from the result it replaces."""
    elimination = tournament.format in selectors.ELIMINATIONS
    if winner_entry_id not in (pairing.first_id, pairing.second_id) and not (
        winner_entry_id is None and not (elimination or drawn)
    ):
        raise TournamentError("bad_value", gettext_noop("the winner must be one of the pairing's two entries"))
    later = TournamentRound.objects.filter(tournament=tournament, number__gt=pairing.round.number).exists()
    if elimination and later and winner_entry_id != pairing.winner_id:
        raise TournamentError(
            "next_round_started", gettext_noop("the winner has already been paired in the next round")
        )
    if drawn and winner_entry_id != pairing.winner_id and draw.draw_later_games_of(tournament, pairing):
        raise TournamentError(
            "drawn_on",
            gettext_noop("a later game of one of its players was drawn from this result: it cannot change"),
        )


def _after_the_fix(tournament: Tournament, *, drawn: bool) -> None:
    """A drawn event's draw goes on from the fixed result (reopened if it is no longer over); a
    finished event's placings are made again."""
    if drawn:
        if tournament.status == Tournament.Status.FINISHED and not draw.draw_is_over(tournament):
            draw.draw_reopen(tournament)
        elif tournament.status == Tournament.Status.FINISHED:
            tournament_finish(tournament)  # the placings may have changed
        draw_advance(tournament, game_now())
    elif tournament.status == Tournament.Status.FINISHED:
        tournament_finish(tournament)  # the winner may have changed


def _result_record(pairing: TournamentPairing) -> dict[str, Any]:
    return {
        "winner": pairing.winner_id,
        "how": pairing.how,
        "points": [pairing.first_points, pairing.second_points],
        "scores": [pairing.first_score, pairing.second_score],
    }
