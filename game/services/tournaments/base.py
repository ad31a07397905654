"""What the tournament services share: the refusal, the permission checks, the locked row."""

from __future__ import annotations

from typing import Any

from game.models import Membership
from game.tournament_models import Tournament

MANAGER_ROLES = (Membership.Role.OWNER, Membership.Role.ADMIN)


class TournamentError(Exception):
    """A refused request, shown as its message (and `code` for callers and tests); nothing changed.
    `forbidden` marks a refusal for who asks (HTTP 403) rather than for what is asked (400)."""

    def __init__(self, code: str, message: str, *, forbidden: bool = False) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.forbidden = forbidden


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
        raise TournamentError("not_allowed", "only the club's owner or an admin can do that", forbidden=True)


def lock_tournament(tournament_id: int) -> Tournament:
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise TournamentError("not_found", "there is no such tournament")
    return tournament
