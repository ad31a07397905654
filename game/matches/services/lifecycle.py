"""A match's life outside the moves: created (open, or started at once against the computer), joined
and started, cancelled before anyone joined, resigned or aborted (these two go through the shared input
path, game.matches.services.inputs, like any move). How a match finishes is written by that input path
(`inputs.finish_from_engine`), since any input may end it.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from game.common.clock import game_now
from game.engine.rules import Match as EngineMatch
from game.engine.rules import RuleError
from game.matches.clock_presets import GAME_MINUTES, EventClock, EventClockError, event_clock_check
from game.matches.hooks import HOOKS
from game.matches.selectors.match_state import AnyUser, clock_info, deadline_next, engine_names, seat_of, state_of
from game.matches.selectors.matches import match_info
from game.matches.selectors.team_seats import team_lineup
from game.matches.services.base import Applied, MatchError, lock, store_event
from game.matches.services.inputs import apply_input, reset_shot_clock
from game.matches.services.presence import refresh_grace
from game.models import Club, Match, Membership
from game.realtime import protocol

TIME_LIMIT_RANGE = (GAME_MINUTES[0] * 60, GAME_MINUTES[1] * 60)
SHOT_CLOCK_RANGE = (5, 600)


def check_range(name: str, value: int | None, low: int, high: int) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise MatchError("bad_value", f"{name} must be from {low} to {high} seconds")
    return value


def clock_settings(clock: EventClock | None, time_limit: int | None) -> tuple[int | None, dict[str, Any]]:
    """A new match's `time_limit` and `ruleset` JSON from an event's clock: the clock's
    limit and numbers (checked here, at the edge), or `time_limit` alone with the K-11 defaults. A
    clock and a different `time_limit` both given are refused: one of them would be ignored."""
    if clock is None:
        return check_range("time_limit", time_limit, *TIME_LIMIT_RANGE), {}
    if time_limit is not None and time_limit != clock.time_limit:
        raise MatchError("bad_value", gettext_noop("give the time limit either as the clock or alone"))
    try:
        event_clock_check(clock)
    except EventClockError as exc:
        words, params = exc.problems[0]
        raise MatchError("bad_value", words, params) from exc
    return clock.time_limit, clock.ruleset()


def start(match: Match, now: float) -> dict[str, Any]:
    """Both seats are taken: build the engine match (lag phase) and return the `started` event."""
    first, second = engine_names(match)
    if first is None or second is None:
        raise MatchError("seat_open", gettext_noop("a match starts once both seats are taken"))
    teams = team_lineup(match) if match.team_size else None
    if teams is not None and any(len(members) != match.team_size for members in teams):
        raise MatchError("seat_open", gettext_noop("a team match starts once every place is taken"))
    try:
        engine = EngineMatch.new(
            players=(first, second),
            ruleset=match.ruleset or None,
            time_limit=float(match.time_limit) if match.time_limit else None,
            now=now,
            teams=teams,
        )
    except RuleError as exc:
        raise MatchError(exc.code, exc.message) from exc
    snapshot = engine.snapshot()
    match.snapshot = snapshot
    match.ruleset = snapshot["ruleset"]
    match.status = Match.Status.ACTIVE
    match.started_at = timezone.now()
    reset_shot_clock(match, now)
    refresh_grace(match, now)
    match.next_deadline = deadline_next(match, snapshot)
    return store_event(
        match, "started", {"match": match_info(match=match), "state": state_of(snapshot), "clock": clock_info(match)}
    )


def match_create(
    *,
    user: User,
    rated: bool,
    time_limit: int | None,
    shot_clock: int | None,
    club: Club | None = None,
    opponent_bot_level: int | None = None,
    clock: EventClock | None = None,
) -> tuple[Match, list[dict[str, Any]]]:
    """A new match with `user` in seat 0: open for an opponent, or started at once against a bot.
    `clock`: an event's clock and target (game/matches/clock_presets.py), else `time_limit` alone.

    Returns the match and the events to publish (the `started` event of a bot match)."""
    profile = HOOKS.profile_ensure(user=user)
    if rated and profile.is_guest:
        raise MatchError("needs_account", gettext_noop("rated matches need a registered account"))
    if rated and opponent_bot_level is not None:
        # Ratings measure players against players: games against the computer would let anyone farm
        # points from a weak level (lichess does not rate games against its engine either).
        raise MatchError("bot_unrated", gettext_noop("games against the computer are casual"))
    time_limit, ruleset = clock_settings(clock, time_limit)
    shot_clock = check_range("shot_clock", shot_clock, *SHOT_CLOCK_RANGE)
    if (
        club is not None
        and not Membership.objects.filter(club=club, user=user, status=Membership.Status.ACTIVE).exists()
    ):
        raise MatchError("not_a_member", gettext_noop("only members can start a club match"))
    events: list[dict[str, Any]] = []
    with transaction.atomic():
        match = Match.objects.create(
            created_by=user,
            player1=user,
            rated=bool(rated),
            time_limit=time_limit,
            shot_clock=shot_clock,
            club=club,
            ruleset=ruleset,
        )
        if opponent_bot_level is not None:
            bot = HOOKS.bot_user(level=opponent_bot_level)
            match = Match.objects.select_for_update().get(pk=match.pk)
            match.player2 = bot
            events.append(start(match, game_now()))
            match.save()
    return match, events


def match_join(*, match_id: str, user: User) -> Applied:
    """Take the open seat; the match starts (lag phase) and everyone on the page hears `started`."""
    profile = HOOKS.profile_ensure(user=user)
    with transaction.atomic():
        match = lock(match_id)
        if seat_of(match, user) is not None:
            raise MatchError("already_playing", gettext_noop("you already play in this match"))
        if match.team_size:
            raise MatchError("choose_team", gettext_noop("this is a team match: choose the team you join"))
        if match.status != Match.Status.OPEN or match.player2_id is not None:
            raise MatchError("seat_taken", gettext_noop("this match has no open seat"))
        reserved = HOOKS.reserved_player(match=match)
        if reserved is not None and reserved != user.pk:
            raise MatchError("reserved", gettext_noop("this tournament match is for its paired players only"))
        if match.challenged_id is not None and match.challenged_id != user.pk:
            raise MatchError("reserved", gettext_noop("this match is a challenge to another player"))
        if match.rated and profile.is_guest:
            raise MatchError("needs_account", gettext_noop("rated matches need a registered account"))
        if (
            match.club_id is not None
            and not Membership.objects.filter(
                club_id=match.club_id, user=user, status=Membership.Status.ACTIVE
            ).exists()
        ):
            raise MatchError("not_a_member", gettext_noop("only club members can join this club match"))
        match.player2 = user
        event = start(match, game_now())
        match.save()
    return Applied(events=[event], lobby_changed=True)


def match_cancel(*, match_id: str, user: User) -> Applied:
    """The creator withdraws a match nobody joined yet."""
    with transaction.atomic():
        match = lock(match_id)
        if match.status != Match.Status.OPEN or match.player1_id != user.pk:
            refusal = gettext_noop("only the creator can cancel a match still waiting for an opponent")
            raise MatchError("not_allowed", refusal)
        if HOOKS.reserved_player(match=match) is not None:
            refusal = gettext_noop("a tournament match is not cancelled: it is played or forfeited")
            raise MatchError("tournament_match", refusal)
        match.status = Match.Status.ABORTED
        match.finished_at = timezone.now()
        match.result_reason = "cancelled before the start"
        event = store_event(
            match,
            "finished",
            {
                "winner": None,
                "reason": match.result_reason,
                "rating_changes": [],
                "state": None,
                "clock": None,
            },
        )
        match.save()
    return Applied(events=[event], lobby_changed=True)


def match_resign(*, match_id: str, user: AnyUser, ack: int | None = None) -> Applied:
    return apply_input(match_id=match_id, user=user, message=protocol.Resign(ack=ack))


def match_abort(*, match_id: str, user: AnyUser, ack: int | None = None) -> Applied:
    """Either player ends the match before the first shot of the break: aborted, no rating moves."""
    return apply_input(match_id=match_id, user=user, message=protocol.Abort(ack=ack))
