"""Server clocks: the deadlines of running matches, fired once whatever the number of processes.

Each running match stores its earliest deadline in `Match.next_deadline` (indexed): the shot clock,
the disconnect grace, the K-11 warning and limit. Every server process polls for due matches about
once a second (`game.matches.clock_runner`): :func:`deadlines_due` lists the due matches and
:func:`deadline_fire` takes each in its own transaction with `SELECT … FOR UPDATE SKIP LOCKED`
(PostgreSQL): a match another process
(or a player's input) holds is skipped, and once fired its `next_deadline` has moved on, which the
locked re-check sees. SQLite has no row locks (one writer at a time anyway) and Django leaves the
clause out there: the same code runs.

A deadline acts through the same path as a player's input (`matches.inputs.commit_and_record`): the engine
applies it (`expire_shot_clock`, `abandon`, `tick`), a Shot row records it for the replay, the
versioned events are stored, and the caller publishes them.

- Shot clock (from the break on, counted from when the last shot's balls are at rest:
  `inputs.reset_shot_clock`): the player the rules wait for loses the visit (a timeout foul, no
  points), the third time in a row the match.
- Disconnect grace: the absent player loses; both absent, or before the break: aborted (K-9.3). A bot
  is always present, so a bot match ends when its human has gone past the grace.
- K-11: the warning (the last 5 minutes) and the limit are noted on time, announced by `notice`.
- Tournaments: a tournament whose start time has come begins, and a player who has not come
  to a tournament match 10 minutes after it was made loses it by forfeit
  (`game.tournaments.services.clocks`, a clock source polled here with the rest). A team match
  starts at once, so until both teams have come (a member of each on the page) its disconnect grace
  is held and the no-show clock alone decides (:func:`match_abandon` ends the match then).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_noop

from game.common.clock import game_now
from game.engine.rules import Match as EngineMatch
from game.engine.rules import RuleError
from game.engine.rules.match import TIMEOUTS_TO_LOSE
from game.matches.selectors.match_state import AnyUser, deadline_next, engine_names, seat_of
from game.matches.services.base import Applied, MatchError, lock
from game.matches.services.inputs import commit_and_record, inputs_so_far
from game.matches.services.presence import connected_seats, refresh_grace
from game.models import Match
from game.realtime.outbound import EventType

logger = logging.getLogger(__name__)

#: Matches one poll takes at most (the rest are due at the next poll, a second later).
BATCH = 50
#: When a deadline was due but nothing could act on it, look again this much later (never spin).
RETRY_AFTER = 1.0


def deadlines_fire_due(*, now: float | None = None, limit: int = BATCH) -> list[tuple[str, Applied]]:
    """Fire every deadline due at `now` (default: the game clock); returns (match id, events to
    publish) for the matches that changed. Safe to run in any number of processes at once. The same
    walk as every daphne process's poll (`poll_steps`), run here in one thread."""
    now = game_now() if now is None else now
    fired: list[tuple[str, Applied]] = []
    for step in poll_steps(deadlines_due(now=now, limit=limit), now):
        events, _pages = step()
        fired.extend(events)
    return fired


def poll_steps(due: list[str], now: float) -> list[Callable[[], ClockFired]]:
    """The one walk of a poll of the server clocks (it was written twice): each due match's
    deadlines (`due`, from :func:`deadlines_due`), then every registered clock source, each step a
    transaction of its own. `deadlines_fire_due` runs the steps in a row; the clock runner runs each
    in the database pool and publishes what it fired before the next, so a poll with many deadlines
    due never holds the sockets' database work for long."""
    matches = [functools.partial(_fire_one, match_id, now) for match_id in due]
    return [*matches, *(functools.partial(source, now) for source in CLOCK_SOURCES)]


def _fire_one(match_id: str, now: float) -> ClockFired:
    applied = deadline_fire(match_id=match_id, now=now)
    return ([(match_id, applied)] if applied is not None and applied.events else [], [])


#: What a clock source fired: (match id, events to publish) and the ids of the tournaments whose page
#: changed (game.realtime.fanout.tournament_publish).
ClockFired = tuple[list[tuple[str, Applied]], list[int]]

#: The other domains' clocks, polled with the matches' deadlines (registered in game.apps: a
#: tournament's start and its no-show forfeits). Each takes the game clock's `now` and fires what is
#: due once, whatever the number of processes polling.
CLOCK_SOURCES: list[Callable[[float], ClockFired]] = []


def clock_source_register(source: Callable[[float], ClockFired]) -> None:
    """Poll `source` with the matches' deadlines from now on (once, however often registered)."""
    if source not in CLOCK_SOURCES:
        CLOCK_SOURCES.append(source)


def deadlines_due(*, now: float, limit: int = BATCH) -> list[str]:
    """Ids of running matches with a deadline due at `now`, the most overdue first (a plain read)."""
    return list(
        Match.objects.filter(status=Match.Status.ACTIVE, next_deadline__lte=now)
        .order_by("next_deadline")
        .values_list("pk", flat=True)[:limit]
    )


def deadline_fire(*, match_id: str, now: float) -> Applied | None:
    """Fire one match's due deadlines in a transaction of its own; None when another process holds the
    match (SKIP LOCKED) or it is no longer due (fired already, or a player acted first)."""
    with transaction.atomic():
        match = (
            Match.objects.select_for_update(skip_locked=True)
            .filter(pk=match_id, status=Match.Status.ACTIVE, next_deadline__lte=now)
            .first()
        )
        if match is None:
            return None
        return deadlines_fire_match(match, now)


def deadlines_fire_match(match: Match, now: float) -> Applied:
    """Apply every deadline of this (locked, active) match that is due at `now`."""
    events: list[dict[str, Any]] = []
    if match.grace_deadline is not None and match.grace_seat is not None and now >= match.grace_deadline:
        connected = connected_seats(match, now)
        if match.grace_seat in connected:
            refresh_grace(match, now)
        else:
            events += match_abandon(match, now, seats=[seat for seat in (0, 1) if seat not in connected])
    if match.status == Match.Status.ACTIVE and match.shot_deadline is not None and now >= match.shot_deadline:
        pending = EngineMatch.from_snapshot(match.snapshot).pending()
        for name in dict.fromkeys(player for player, _ in pending):
            if match.status != Match.Status.ACTIVE:
                break
            events += _server_input(match, now, kind="timeout", name=name, payload={}, apply=_expire(name, now))
    if match.status == Match.Status.ACTIVE:
        events += _clock_tick(match, now)
    if match.status == Match.Status.ACTIVE:
        following = deadline_next(match)
        if following is not None and following <= now:
            following = now + RETRY_AFTER
        if following != match.next_deadline:
            match.next_deadline = following
            match.save(update_fields=["next_deadline", "grace_seat", "grace_deadline"])
    return Applied(events=events, lobby_changed=match.status != Match.Status.ACTIVE)


def match_abandon(match: Match, now: float, *, seats: list[int]) -> list[dict[str, Any]]:
    """The players (teams) of ``seats`` are gone (K-9.3): the engine ends the locked, active match
    (the other side wins; both gone, or nothing played yet: aborted), recorded as every server input
    is. The disconnect grace ends a match this way, and so does a tournament team match's no-show
    (game.tournaments.services.play)."""
    names = engine_names(match)
    absent = [str(names[seat]) for seat in seats]
    return _server_input(
        match,
        now,
        kind="abandon",
        name=absent[0],
        payload={"absent": absent},
        apply=lambda engine: ("finished", {}, engine.abandon(absent, now=now)),
    )


Apply = Callable[[EngineMatch], tuple[EventType | None, dict[str, Any], Any]]


def _expire(name: str, now: float) -> Apply:
    def apply(engine: EngineMatch) -> tuple[EventType | None, dict[str, Any], Any]:
        outcome = engine.expire_shot_clock(name, now=now)
        if outcome.verdict.get("aborted"):
            return "finished", {}, outcome
        return "timeout", {"player": name, "count": outcome.verdict.get("timeouts"), "limit": TIMEOUTS_TO_LOSE}, outcome

    return apply


def _clock_tick(match: Match, now: float) -> list[dict[str, Any]]:
    """Note the K-11 warning or limit once its time has come (the notices are made by commit_change)."""
    clock = (match.snapshot or {}).get("clock") or {}
    started = clock.get("started")
    if started is None or clock.get("limit") is None:
        return []
    warn_due = clock.get("warning") is not None and not clock.get("warned") and now >= started + clock["warning"]
    limit_due = not clock.get("expired") and now >= started + clock["limit"]
    if not (warn_due or limit_due):
        return []
    return _server_input(
        match, now, kind="tick", name="", payload={}, apply=lambda engine: (None, {}, engine.tick(now))
    )


def _server_input(
    match: Match, now: float, *, kind: str, name: str, payload: dict[str, Any], apply: Apply
) -> list[dict[str, Any]]:
    """Apply one server-made input to the locked match; nothing happens if the engine refuses it."""
    engine = EngineMatch.from_snapshot(match.snapshot)
    before = match.snapshot
    try:
        t, data, outcome = apply(engine)
    except RuleError as exc:
        logger.info("match %s: deadline %s for %r not applied (%s)", match.pk, kind, name, exc.code)
        return []
    if t is None:
        flags = ("warned", "expired")
        after_clock, before_clock = engine.snapshot().get("clock") or {}, (before or {}).get("clock") or {}
        if all(bool(after_clock.get(f)) == bool(before_clock.get(f)) for f in flags):
            return []
    seq, _ = inputs_so_far(match, None, None)
    return commit_and_record(
        match,
        engine,
        before,
        t,
        data,
        outcome,
        now,
        seq=seq,
        user=None,
        name=name,
        kind=kind,
        ack=None,
        payload=payload,
    )


def match_claim_timeout(*, match_id: str, user: AnyUser, ack: int | None = None) -> Applied:
    """Fire this match's due server deadlines now instead of at the next poll (the server's own clock
    fires them anyway, within about a second). Refused with `not_owed` when nothing is due: then it
    changes nothing."""
    with transaction.atomic():
        match = lock(match_id)
        if seat_of(match, user) is None:
            raise MatchError("spectator", gettext_noop("only the players of this match can do that"))
        if match.status != Match.Status.ACTIVE:
            raise MatchError("game_over", gettext_noop("the match is over"))
        applied = deadlines_fire_match(match, game_now())
        if not applied.events:
            raise MatchError(
                "not_owed", gettext_noop("neither the opponent's shot clock nor their disconnect grace has run out")
            )
    return applied
