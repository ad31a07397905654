"""What the tournament services share: the refusal, the permission checks, the locked row."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext_noop

from game.models import Membership
from game.models.tournaments import Tournament

MANAGER_ROLES = (Membership.Role.OWNER, Membership.Role.ADMIN)


class TournamentError(Exception):
    """A refused request, shown as its message (and `code` for callers and tests); nothing changed.
    `forbidden` marks a refusal for who asks (HTTP 403) rather than for what is asked (400).

    The words are English marked with `gettext_noop` (a count's with `ngettext_lazy` and a named
    number), with their placeholders in `params`; `message` is them in English, and the page that
    shows a refusal words it in its reader's language (`words()`, used by game/tournaments/views.py),
    as the match services' refusals are (docs/i18n.md). A form's refusal may hold several `parts`."""

    def __init__(
        self,
        code: str,
        message: str | Promise,
        params: Mapping[str, object] | None = None,
        *,
        forbidden: bool = False,
        more: Sequence[tuple[str | Promise, Mapping[str, object]]] = (),
    ) -> None:
        self.code = code
        self.parts: tuple[tuple[str | Promise, dict[str, object]], ...] = (
            (message, dict(params or {})),
            *((m, dict(p)) for m, p in more),
        )
        with translation.override(None):
            self.message = self.words(str)
        super().__init__(f"{code}: {self.message}")
        self.forbidden = forbidden

    def words(self, translate: Any) -> str:
        """The refusal through `translate` (gettext for a page; a counted part translates itself)."""
        shown = []
        for text, params in self.parts:
            if isinstance(text, str):
                said = translate(text)
                shown.append(said % params if params else said)
            else:  # ngettext_lazy with a named number: the params choose its form
                shown.append(str(text % params))
        return "; ".join(shown)


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
