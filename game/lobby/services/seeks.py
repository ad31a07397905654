"""Quick pairing: a queue of seeks, matched by rating within a window that widens with the wait.

The queue is the `Seek` table, so every server process sees it: a seek is written by the lobby socket
that asked (game.lobby.consumer.LobbyConsumer), paired at once if a partner waits, and otherwise by the
server clocks' tick (game/matches/clock_runner.py), which also widens the windows and tells the seekers.
Pairing locks the whole queue `FOR UPDATE` in one order, so two processes ticking together never pair
one seek twice, nor split the queue and miss a pair (the second waits for the first).

The numbers live here and only here (the lobby shows the window the server announces):

- Two seeks pair only with the same choices: rated or casual, and the same time limit (none, or the
  K-11 classic of 65 minutes).
- Each seek's window is ``WINDOW_START`` rating points either way, widened by ``WINDOW_STEP`` every
  ``WINDOW_EVERY`` seconds of waiting, up to ``WINDOW_MAX``. Two seeks pair when their ratings differ by
  no more than the narrower of their two windows, so nobody is paired outside what he accepted.
- Deterministic: the oldest seek (then the lowest id) is served first, with the oldest fitting partner;
  the older seek takes seat 0 (it lags first, K-2).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext_noop

from game.accounts.services import profile_ensure
from game.common.clock import game_now
from game.matches.services import MatchError, start
from game.models import Match, Seek, TeamSeat
from game.models.tournaments import DEFAULT_TIME_LIMIT

#: The time limits a seek may choose (seconds; None: no limit): none, or K-11's 60 + 5 minutes.
SEEK_TIME_LIMITS: tuple[int | None, ...] = (None, DEFAULT_TIME_LIMIT)
#: The rating window: ± this many points at first...
WINDOW_START = 100
#: ...widened by this many...
WINDOW_STEP = 50
#: ...every this many seconds of waiting...
WINDOW_EVERY = 5.0
#: ...up to this many.
WINDOW_MAX = 800


def seek_window(waited: float) -> int:
    """The rating window (± points) of a seek that has waited ``waited`` seconds."""
    steps = int(max(0.0, waited) // WINDOW_EVERY)
    return min(WINDOW_MAX, WINDOW_START + WINDOW_STEP * steps)


@dataclass(frozen=True)
class Paired:
    """A match made from two seeks: the sockets to tell (oldest seek first) and the events to publish."""

    match_id: str
    url: str
    channels: tuple[str, str]
    events: list[dict[str, Any]]


@dataclass(frozen=True)
class Widened:
    """A waiting seek whose window grew: the socket to tell, and what to tell it."""

    channel_name: str
    info: dict[str, Any]


def seek_info(seek: Seek, now: float) -> dict[str, Any]:
    """The `seeking` message's data: the choices, seconds waited and the current window."""
    waited = max(0.0, now - seek.since)
    return {
        "rated": seek.rated,
        "time_limit": seek.time_limit,
        "waited": round(waited, 1),
        "window": seek_window(waited),
    }


def seek_start(*, user: Any, channel_name: str, rated: bool, time_limit: int | None, now: float) -> Seek:
    """Queue ``user``'s seek for the socket ``channel_name``. Refused (nothing stored) for a visitor
    without an account, a rated seek by a guest, a time limit not offered, or a player in a live match.
    A user seeking again (another tab) replaces his earlier seek."""
    if user is None or not user.is_authenticated or not isinstance(user, User):
        raise MatchError("not_signed_in", gettext_noop("sign up, log in or play a game as a guest to seek"))
    if time_limit not in SEEK_TIME_LIMITS:
        raise MatchError("bad_value", gettext_noop("choose no time limit or the K-11 limit of 65 minutes"))
    profile = profile_ensure(user=user)
    if rated and profile.is_guest:
        raise MatchError("needs_account", gettext_noop("rated matches need a registered account"))
    if profile.is_bot:
        raise MatchError("bot_opponent", gettext_noop("the computer does not seek"))
    live = Match.objects.filter(
        Q(player1=user) | Q(player2=user) | Q(pk__in=TeamSeat.objects.filter(user=user).values("match_id")),
        status=Match.Status.ACTIVE,
    )
    if live.exists():
        raise MatchError("in_a_match", gettext_noop("finish or resign your live match before seeking another"))
    with transaction.atomic():
        Seek.objects.filter(Q(user=user) | Q(channel_name=channel_name)).delete()
        return Seek.objects.create(
            user=user,
            channel_name=channel_name,
            rated=bool(rated),
            time_limit=time_limit,
            rating=profile.rating,
            since=now,
            window=seek_window(0.0),
        )


def seek_cancel(*, channel_name: str) -> bool:
    """End the seek of this socket (cancelled, or the socket closed); False if there was none."""
    deleted, _ = Seek.objects.filter(channel_name=channel_name).delete()
    return deleted > 0


def _fits(a: Seek, b: Seek, now: float) -> bool:
    if a.user_id == b.user_id or a.rated != b.rated or a.time_limit != b.time_limit:
        return False
    window = min(seek_window(now - a.since), seek_window(now - b.since))
    return abs(a.rating - b.rating) <= window


def seeks_pair(*, now: float | None = None) -> list[Paired]:
    """Pair every seek that has a fitting partner now; each pair becomes a started match (both seated,
    the older seek in seat 0) and both seeks are gone. The whole queue is locked in one order (no
    SKIP LOCKED): two processes ticking at once would otherwise split the queue between them and each
    miss the pairs that straddle the split; the second tick waits the first's few milliseconds and
    finds the paired rows gone."""
    now = game_now() if now is None else now
    made: list[Paired] = []
    with transaction.atomic():
        queue = list(Seek.objects.select_for_update().order_by("since", "pk"))
        taken: list[int] = []
        for i, first in enumerate(queue):
            if first.pk in taken:
                continue
            partner = next((s for s in queue[i + 1 :] if s.pk not in taken and _fits(first, s, now)), None)
            if partner is None:
                continue
            taken += [first.pk, partner.pk]
            match = Match.objects.create(
                created_by=first.user,
                player1=first.user,
                player2=partner.user,
                rated=first.rated,
                time_limit=first.time_limit,
            )
            events = [start(match, now)]
            match.save()
            made.append(Paired(match.pk, f"/m/{match.pk}/", (first.channel_name, partner.channel_name), events))
        if taken:
            Seek.objects.filter(pk__in=taken).delete()
    return made


def seeks_widen(*, now: float | None = None) -> list[Widened]:
    """The waiting seeks whose window grew since it was last announced, now announced (stored).

    A window only grows: a tick that reads an earlier ``now`` than one already applied (the seek's own
    tick as it is queued, racing the clock loop's, or another process's clock a little behind) leaves
    it as it is, so a seeker is never told a narrower window and then the wider one again."""
    now = game_now() if now is None else now
    widened: list[Widened] = []
    with transaction.atomic():
        for seek in Seek.objects.select_for_update(skip_locked=True).order_by("since", "pk"):
            window = seek_window(now - seek.since)
            if window > seek.window:
                seek.window = window
                seek.save(update_fields=["window"])
                widened.append(Widened(seek.channel_name, seek_info(seek, now)))
    return widened
