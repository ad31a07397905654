"""Challenges from a player's profile: a match reserved for one invited player.

A challenge is an open match (status OPEN) whose `challenged` field names the only user who may take
the seat: he accepts (`challenge_accept`, which is `match_join`: the match starts) or declines
(`challenge_decline`: the match ends aborted, nothing counted). It stays out of the lobby's open list
and is announced to the invited player in the site's header and on the home page
(game/lobby/selectors.py). The choices are quick pairing's (game/lobby/services/seeks.py): casual or
rated, no time limit or K-11's 65 minutes.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from game.lobby.services.seeks import SEEK_TIME_LIMITS
from game.matches.services import Applied, MatchError, lock, match_create, match_join, store_event
from game.models import Match, Profile


def challenge_create(*, user: User, opponent_name: str, rated: bool, time_limit: int | None) -> Match:
    """``user`` challenges the player shown as ``opponent_name``; refused (nothing made) for oneself,
    the computer, an unknown name, a time limit not offered, or a rated challenge with a guest."""
    opponent = Profile.objects.select_related("user").filter(display_name=opponent_name).first()
    if opponent is None or opponent.is_bot:
        raise MatchError("bad_opponent", gettext_noop("there is no such player to challenge"))
    if opponent.user_id == user.pk:
        raise MatchError("bad_opponent", gettext_noop("you cannot challenge yourself"))
    if time_limit not in SEEK_TIME_LIMITS:
        raise MatchError("bad_value", gettext_noop("choose no time limit or the K-11 limit of 65 minutes"))
    if rated and opponent.is_guest:
        raise MatchError("needs_account", gettext_noop("rated matches need a registered account"))
    with transaction.atomic():
        match, _ = match_create(user=user, rated=rated, time_limit=time_limit, shot_clock=None)
        match.challenged = opponent.user
        match.save(update_fields=["challenged"])
    return match


def challenge_accept(*, match_id: str, user: User) -> Applied:
    """The challenged player takes the seat: the match starts (match_join refuses anyone else)."""
    return match_join(match_id=match_id, user=user)


def challenge_decline(*, match_id: str, user: Any) -> Applied:
    """The challenged player says no: the match ends aborted before the start, nothing is counted."""
    with transaction.atomic():
        match = lock(match_id)
        if match.challenged_id is None or match.challenged_id != getattr(user, "pk", None):
            raise MatchError("not_allowed", gettext_noop("only the challenged player can decline"))
        if match.status != Match.Status.OPEN:
            raise MatchError("not_open", gettext_noop("this challenge is no longer open"))
        match.status = Match.Status.ABORTED
        match.finished_at = timezone.now()
        match.result_reason = "challenge declined"
        event = store_event(
            match,
            "finished",
            {"winner": None, "reason": match.result_reason, "rating_changes": [], "state": None, "clock": None},
        )
        match.save()
    return Applied(events=[event], lobby_changed=False)
