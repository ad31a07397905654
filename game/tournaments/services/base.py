"""What the tournament services share: the refusal (game/tournaments/refusal.py), the permission checks,
the locked row."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_noop

from game.models import Membership
from game.models.tournaments import Tournament
from game.tournaments.refusal import TournamentError

__all__ = ["MANAGER_ROLES", "TournamentError", "is_manager", "is_member", "lock_tournament", "require_manager"]

MANAGER_ROLES = (Membership.Role.OWNER, Membership.Role.ADMIN)


def is_member(*, club_id: int, user: Any) -> bool:
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    return Membership.objects.filter(club_id=club_id, user=user, status=Membership.Status.ACTIVE).exists()


def is_manager(*, club_id: int, user: Any) -> bool:
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    return Membership.objects.filter(
        club_id=club_id, user=user, status=Membership.Status.ACTIVE, role__in=MANAGER_ROLES
    ).exists()


def require_manager(*, club_id: int, user: Any) -> None:
    if not is_manager(club_id=club_id, user=user):
        refusal = gettext_noop("only the club's owner or an admin can do that")
        raise TournamentError("not_allowed", refusal, forbidden=True)


def lock_tournament(tournament_id: int) -> Tournament:
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise TournamentError("not_found", gettext_noop("there is no such tournament"))
    return tournament
