"""Rematch: after the finish, a new match between the same two players with the same settings.

The seats are swapped (the old seat 1 lags from seat 0's side now) and the new match starts at once:
both players are seated, so nobody else can take a seat, and the invited player only has to open
the link that the `rematch` message carries. One who never comes is handled by the server clocks:
his disconnect grace runs out before the break and the match ends aborted, moving no rating.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext_noop

from game.common.clock import game_now
from game.matches.selectors.match_state import AnyUser, engine_names, seat_of
from game.matches.services.base import MatchError, lock
from game.matches.services.lifecycle import start
from game.models import Match, MatchConnection, Profile, TeamSeat


def _opponent_here(match: Match, seat: int) -> bool:
    """Has anyone of the other side (the other player, or a member of the other team) a socket open on
    the match page?"""
    others: list[int | None]
    if match.team_size:
        others = list(TeamSeat.objects.filter(match=match, team=1 - seat).values_list("user_id", flat=True))
    else:
        others = [match.player2_id if seat == 0 else match.player1_id]
    return MatchConnection.objects.filter(match=match, user_id__in=others).exists()


@dataclass
class Rematch:
    """The new match, the events to publish on it, and the `rematch` message's data for the old one."""

    match: Match
    events: list[dict[str, Any]]
    offer: dict[str, Any]


def match_rematch(*, match_id: str, user: AnyUser, opponent_must_be_here: bool = False) -> Rematch:
    """A player of a finished match asks for a rematch; a second request gives the same new match.

    With ``opponent_must_be_here`` (the match socket's request) a first request is refused while no
    opponent has the match page open (no MatchConnection row of theirs): the new match would start
    at once and then only run out his disconnect grace, so the asker is told plainly instead."""
    with transaction.atomic():
        old = lock(match_id)
        seat = seat_of(old, user)
        if seat is None or not isinstance(user, User):  # a seated user is never anonymous
            raise MatchError("spectator", "only the players of this match can ask for a rematch")
        if old.status not in (Match.Status.FINISHED, Match.Status.ABORTED) or old.player2_id is None:
            raise MatchError("not_finished", "a rematch can be asked for once the match is over")
        if Profile.objects.filter(user_id__in=[old.player1_id, old.player2_id], is_bot=True).exists():
            raise MatchError("bot_opponent", "against the computer, start a new game from the lobby")
        name = engine_names(old)[seat]
        events: list[dict[str, Any]] = []
        new = Match.objects.select_for_update().filter(pk=old.rematch_id).first() if old.rematch_id else None
        if new is None and opponent_must_be_here and not _opponent_here(old, seat):
            raise MatchError(
                "opponent_left", gettext_noop("your opponent has left: challenge them again from the lobby")
            )
        if new is None:
            new = Match.objects.create(
                created_by=user,
                player1=old.player2,
                player2=old.player1,
                rated=old.rated,
                time_limit=old.time_limit,
                shot_clock=old.shot_clock,
                club=old.club,
                ruleset=old.ruleset,
                team_size=old.team_size,
            )
            if old.team_size:  # the teams swap sides, each keeping its order; a rematch is casual
                new.rated = False
                TeamSeat.objects.bulk_create(
                    TeamSeat(match=new, user_id=s.user_id, team=1 - s.team, order=s.order)
                    for s in TeamSeat.objects.filter(match=old)
                )
            events.append(start(new, game_now()))
            new.save()
            old.rematch = new
            old.save(update_fields=["rematch"])
    offer = {"from": name, "match_id": new.pk, "url": f"/m/{new.pk}/"}
    return Rematch(match=new, events=events, offer=offer)
