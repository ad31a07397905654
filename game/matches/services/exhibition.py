"""The computer exhibition: when nobody plays, the Watch page still has a match to watch.

A fresh install (or a quiet hour) showed "Nobody is playing right now" and nothing else. When the Watch
page finds nothing live it asks for an exhibition (:func:`match_exhibition_ensure`): two computer
players (levels 2 and 3, whose searches take a few hundredths of a second a shot) play a casual match at
a human pace through the same services, clocks and fan-out as any match, driven by the bot runner
(`tend`, each poll of the server's clocks, wakes it in whichever process polls). It costs little and
is bounded:

- one at a time, and only while no other match is live (a real match is always the one shown);
- a K-11 time limit of 10 minutes, so it ends within a few more (extra visits and the shoot-out
  follow the rules) and the next starts only when someone looks at the Watch page again;
- only the last few finished exhibitions are kept (their replays); older ones are deleted.

The site setting ``KAIZA_SHOWCASE`` turns it off (test servers do, unless a test asks for it).
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from game.common.clock import game_now
from game.matches.hooks import HOOKS
from game.matches.services.lifecycle import start
from game.models import Match, Profile

#: The computer players of an exhibition (cheap searches, a game with pots in it).
EXHIBITION_LEVELS: tuple[int, int] = (2, 3)
#: Its K-11 time limit (s).
EXHIBITION_TIME_LIMIT = 600
#: Finished exhibitions kept for their replays.
EXHIBITIONS_KEPT = 5
#: A live exhibition unchanged this long has nobody playing it (a restart, or a process gone): the next
#: poll wakes its computer players again. Longer than a move's longest wait (the animation, then the
#: search), so a healthy exhibition is never woken twice.
STALLED_AFTER = datetime.timedelta(seconds=60)


def exhibitions() -> QuerySet[Match]:
    """Every match between two computer players."""
    return Match.objects.filter(player1__profile__is_bot=True, player2__profile__is_bot=True)


def exhibitions_to_wake() -> list[str]:
    """Ids of the live exhibitions nobody plays yet (just started) or any more (unchanged for
    :data:`STALLED_AFTER`)."""
    stalled = timezone.now() - STALLED_AFTER
    live = exhibitions().filter(status=Match.Status.ACTIVE)
    return list(live.filter(Q(version__lte=1) | Q(updated_at__lt=stalled)).values_list("pk", flat=True))


def match_exhibition_ensure() -> Match | None:
    """Start an exhibition when the site shows it and no match at all is live; the new match (its bots
    are woken by the server's poll), or None. Safe to call from any number of requests at once: the
    two computer players' rows are locked while it looks."""
    if not settings.KAIZA_SHOWCASE or Match.objects.filter(status=Match.Status.ACTIVE).exists():
        return None
    bots = [HOOKS.bot_user(level=level) for level in EXHIBITION_LEVELS]
    with transaction.atomic():
        list(Profile.objects.select_for_update().filter(user__in=bots).order_by("pk"))
        if Match.objects.filter(status=Match.Status.ACTIVE).exists():
            return None
        match = Match.objects.create(
            created_by=bots[0],
            player1=bots[0],
            player2=bots[1],
            rated=False,
            time_limit=EXHIBITION_TIME_LIMIT,
            shot_clock=None,
        )
        start(match, game_now())
        match.save()
        finished = exhibitions().exclude(status=Match.Status.ACTIVE).order_by("-created_at", "-pk")
        old = list(finished.values_list("pk", flat=True)[EXHIBITIONS_KEPT:])
        if old:
            Match.objects.filter(pk__in=old).delete()
    return match
