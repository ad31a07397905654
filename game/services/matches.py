"""Match writes: the only code that changes a match (ARCHITECTURE.md section 1, "one authority").

Every input runs the same way, whichever daphne process received it: one transaction, the Match row
locked (select_for_update; SQLite serialises writers instead), the version the client saw checked,
the engine rebuilt from the stored snapshot, the input applied, and the new snapshot, a Shot row (what
was sent and what came of it) and a MatchEvent row (the exact broadcast, for catch-up) saved with the
version raised by one. The caller publishes the returned events only after the commit, so no socket
ever sees a change that was rolled back.

A repeated `ack` from the same player is answered from the stored Shot/MatchEvent and never applied
again: that is what makes a resend after a dropped connection, or a second tab, safe.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import IntegrityError, transaction
from django.db.models import Max, Q
from django.utils import timezone

from game.engine.rules import Match as EngineMatch
from game.engine.rules import RuleError
from game.engine.rules.match import TIMEOUTS_TO_LOSE
from game.models import Club, Match, MatchConnection, MatchEvent, MatchResult, Membership, Profile, Shot
from game.selectors.history import history_entry, phase_notices
from game.selectors.match_result import match_result
from game.services.accounts import bot_user_for_level, profile_ensure
from game.services.results import results_record

logger = logging.getLogger(__name__)

#: Seconds a player may be away before the opponent can claim the game (K-9.3).
DISCONNECT_GRACE = float(getattr(settings, "KAIZA_DISCONNECT_GRACE", 60.0))
#: A connection row not touched for this long no longer counts (its process died).
#: Each process's heartbeat touches its sockets' rows every 10 s (game.presence), so 30 s is three
#: missed heartbeats.
CONNECTION_STALE_AFTER = float(getattr(settings, "KAIZA_CONNECTION_STALE_AFTER", 30.0))
TIME_LIMIT_RANGE = (60, 4 * 3600)
SHOT_CLOCK_RANGE = (5, 600)

AnyUser = AbstractBaseUser | AnonymousUser


class MatchError(Exception):
    """A refused input, answered as `error {code, message}`; nothing was changed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


@dataclass
class Applied:
    """What a service did: `events` go to the whole match group (after commit); `reply` only to the
    caller (the stored answer to a repeated ack)."""

    events: list[dict[str, Any]] = field(default_factory=list)
    reply: list[dict[str, Any]] = field(default_factory=list)
    lobby_changed: bool = False


# --- helpers ---------------------------------------------------------------------------------------


def snapshot_hash(snapshot: dict[str, Any]) -> str:
    """sha256 of the canonical JSON: replays and audits compare positions by this."""
    canonical = json.dumps(snapshot, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def state_of(snapshot: dict[str, Any]) -> dict[str, Any] | None:
    """The `state` clients get: the engine snapshot plus who may act now (`pending`), whether either
    player may still `abort`, and what each seated player may do now (`constraints`, the engine's
    ``Match.constraints``: actions, legal calls with the reasons for the refused ones, the placement
    region, the strike limits). The client draws legality from these and never re-implements a rule.

    The constraints cost about a millisecond per state (``scripts/bench_constraints.py``): callers that
    send one state to several places compute it once per change, and readers that need only who is to
    act use :func:`pending_of`."""
    if not snapshot:
        return None
    try:
        engine = EngineMatch.from_snapshot(snapshot)
        pending, abortable = engine.pending(), engine.abortable and engine.phase != "finished"
        constraints: dict[str, Any] | None = {name: engine.constraints(name) for name in engine.players}
    except RuleError:
        pending, abortable, constraints = [], False, None
    return {
        **snapshot,
        "pending": [[name, action] for name, action in pending],
        "abortable": abortable,
        "constraints": constraints,
    }


def pending_of(snapshot: dict[str, Any]) -> list[tuple[str, str]]:
    """Who may act now (the `pending` of :func:`state_of`), without the cost of the constraints."""
    if not snapshot:
        return []
    try:
        return EngineMatch.from_snapshot(snapshot).pending()
    except RuleError:
        return []


def seat_of(match: Match, user: AnyUser) -> int | None:
    if user is None or not user.is_authenticated:
        return None
    if match.player1_id == user.pk:
        return 0
    if match.player2_id == user.pk:
        return 1
    return None


def seat_users(match: Match) -> list[Any]:
    return [match.player1, match.player2]


def engine_names(match: Match) -> list[str | None]:
    """Names as the engine knows them: from the snapshot once started (a guest who signs up mid-match
    and picks a new display name keeps the old one in this match), else the current display names."""
    players = (match.snapshot or {}).get("players")
    if players and len(players) == 2:
        return [players[0]["name"], players[1]["name"]]
    return [profile_ensure(user=u).display_name if u is not None else None for u in seat_users(match)]


def clock_info(match: Match, snapshot: dict[str, Any] | None = None, now: float | None = None) -> dict[str, Any]:
    """The deadlines a client shows: shot clock, disconnect grace, K-11 match limit (epoch seconds),
    with the server's `now` so a client can correct for its own clock's skew."""
    snapshot = match.snapshot if snapshot is None else snapshot
    clock = (snapshot or {}).get("clock") or {}
    match_deadline = None
    if clock.get("limit") is not None and clock.get("started") is not None:
        match_deadline = float(clock["started"]) + float(clock["limit"])
    warning_at = None
    if clock.get("warning") is not None and clock.get("started") is not None:
        warning_at = float(clock["started"]) + float(clock["warning"])
    names = engine_names(match)
    counts = (snapshot or {}).get("timeouts") or [0, 0]
    return {
        "shot_deadline": match.shot_deadline,
        "grace_deadline": match.grace_deadline,
        "grace_player": names[match.grace_seat] if match.grace_seat is not None else None,
        "match_deadline": match_deadline,
        "warning_at": warning_at,
        "shot_clock": shot_clock_seconds(match, snapshot),
        "timeouts": {name: int(n) for name, n in zip(names, counts, strict=False) if name is not None},
        "timeout_limit": TIMEOUTS_TO_LOSE,
        "grace": DISCONNECT_GRACE,
        "now": time.time() if now is None else now,
    }


def deadline_next(match: Match, snapshot: dict[str, Any] | None = None) -> float | None:
    """The earliest server-side deadline of a running match (what the deadline poller looks for):
    the shot clock, the disconnect grace, and the K-11 warning and limit until they are noted."""
    if match.status != Match.Status.ACTIVE:
        return None
    snapshot = match.snapshot if snapshot is None else snapshot
    clock = (snapshot or {}).get("clock") or {}
    due = [d for d in (match.shot_deadline, match.grace_deadline) if d is not None]
    started = clock.get("started")
    if started is not None:
        if clock.get("warning") is not None and not clock.get("warned"):
            due.append(float(started) + float(clock["warning"]))
        if clock.get("limit") is not None and not clock.get("expired"):
            due.append(float(started) + float(clock["limit"]))
    return min(due) if due else None


def _connected_seats(match: Match, now: float) -> set[int]:
    """Seats with a live socket (in any process), bots always being there."""
    # Staleness is about real sockets, so it is measured on the real clock (the deadline service may
    # be given another `now`).
    seats = set(
        MatchConnection.objects.filter(
            match=match, seat__isnull=False, seen_at__gte=time.time() - CONNECTION_STALE_AFTER
        ).values_list("seat", flat=True)
    )
    if len(seats) == 2:
        return seats
    # Only when a seat has no socket: is its player a bot? One query by id, without loading the users
    # (this runs on every input; the common case above costs one query).
    ids = [match.player1_id, match.player2_id]
    bots = set(Profile.objects.filter(user_id__in=[i for i in ids if i is not None], is_bot=True)
               .values_list("user_id", flat=True))
    seats.update(seat for seat, user_id in enumerate(ids) if user_id is not None and user_id in bots)
    return seats


def _refresh_grace(match: Match, now: float) -> bool:
    """Start the disconnect grace for an absent player, or stop it when they are back; True if changed."""
    before = (match.grace_seat, match.grace_deadline)
    if match.status != Match.Status.ACTIVE:
        match.grace_seat, match.grace_deadline = None, None
    else:
        connected = _connected_seats(match, now)
        if match.grace_seat is not None and match.grace_seat in connected:
            match.grace_seat, match.grace_deadline = None, None
        if match.grace_seat is None:
            for seat in (0, 1):
                if seat not in connected:
                    match.grace_seat, match.grace_deadline = seat, now + DISCONNECT_GRACE
                    break
    return before != (match.grace_seat, match.grace_deadline)


#: Seconds a visit may take once the K-11 time is up, in a match created without a shot clock: the
#: extra visits and the shoot-out then always come to an end, even with a player who stops playing.
TIME_UP_SHOT_CLOCK = 60


def shot_clock_seconds(match: Match, snapshot: dict[str, Any] | None = None) -> int | None:
    """The shot clock that applies now: the match's own, or TIME_UP_SHOT_CLOCK once its time is up."""
    if match.shot_clock:
        return int(match.shot_clock)
    snapshot = (match.snapshot if snapshot is None else snapshot) or {}
    clock = snapshot.get("clock") or {}
    time_up = bool(clock.get("expired")) or snapshot.get("phase") in ("extra_visits", "shootout")
    return TIME_UP_SHOT_CLOCK if time_up else None


def _reset_shot_clock(match: Match, now: float) -> None:
    """Start the shot clock for whoever must act now. It runs only once the break has been played:
    before it nothing is at stake, a page may still be loading, and either player may `abort` a
    match that does not get going (as lichess does with a game whose first move never comes)."""
    seconds = shot_clock_seconds(match)
    active = match.status == Match.Status.ACTIVE and seconds and not _before_the_break(match.snapshot)
    match.shot_deadline = now + float(seconds) if active and seconds else None


def _before_the_break(snapshot: dict[str, Any]) -> bool:
    try:
        return EngineMatch.from_snapshot(snapshot).abortable
    except RuleError:
        return False


def _lock(match_id: str) -> Match:
    match = Match.objects.select_for_update().filter(pk=match_id).first()
    if match is None:
        raise MatchError("not_found", "there is no such match")
    return match


def _store_event(match: Match, t: str, d: dict[str, Any]) -> dict[str, Any]:
    """Raise the version and keep the broadcast for catch-up; returns the `{t, v, d}` event."""
    match.version += 1
    entry = history_entry(t, match.version, d)
    if entry is not None:
        d = {**d, "entry": entry}
    MatchEvent.objects.create(match=match, version=match.version, type=t, data=d, entry=entry)
    return {"t": t, "v": match.version, "d": d}


def _inputs_so_far(match: Match, user: AnyUser, ack: int | None) -> tuple[int, int | None]:
    """(the next input's seq, the version of the input this player already sent with `ack`, if any),
    in one query: each round trip of an input is one more wait for the GIL under load."""
    if ack is None:
        top = Shot.objects.filter(match=match).aggregate(top=Max("seq"))["top"]
        return (top or 0) + 1, None
    found = Shot.objects.filter(match=match).aggregate(
        top=Max("seq"), stored=Max("version", filter=Q(player=user, ack=ack))
    )
    return (found["top"] or 0) + 1, found["stored"]


def _stored_reply(match: Match, version: int) -> list[dict[str, Any]]:
    """The stored answer to an ack this player already used in this match: the event it made."""
    stored = MatchEvent.objects.filter(match=match, version=version).first()
    return [] if stored is None else [{"t": stored.type, "v": stored.version, "d": stored.data}]


def _finish_from_engine(match: Match, snapshot: dict[str, Any], now: float, how: str,
                        state: dict[str, Any] | None = None) -> dict[str, Any]:
    """Close the row the engine just finished, record the result (ratings) in this transaction, and
    return the `finished` event's data (with the `result` players and spectators read)."""
    names = engine_names(match)
    winner_name = snapshot.get("winner")
    match.status = Match.Status.ABORTED if how == "aborted" else Match.Status.FINISHED
    match.result_code = how
    match.finished_at = timezone.now()
    match.winner = None
    for seat, user in enumerate(seat_users(match)):
        if names[seat] == winner_name:
            match.winner = user
    match.result_reason = str(snapshot.get("finish_reason") or "")[:200]
    match.shot_deadline = None
    match.grace_seat, match.grace_deadline = None, None
    match.next_deadline = None
    match.save()
    rating_changes = results_record(match=match)
    unrated = None
    if match.rated and not rating_changes:  # results_record stored why (rating_eligibility)
        unrated = MatchResult.objects.filter(match=match).values_list("unrated_reason", flat=True).first() or None
    result = match_result(match=match, snapshot=snapshot, names=names, rating_changes=rating_changes,
                          unrated=unrated)
    return {
        "winner": winner_name,
        "reason": match.result_reason,
        "rating_changes": rating_changes,
        "result": result,
        "state": state_of(snapshot) if state is None else state,
        "clock": clock_info(match, snapshot, now),
    }


def how_it_ended(kind: str, before: dict[str, Any], verdict: dict[str, Any] | None) -> str:
    """The result's `how` code for an input that finished the match (see match_result.HOW_CODES)."""
    if verdict is not None and verdict.get("aborted"):
        return "aborted"
    if kind in ("resign", "abort"):
        return {"resign": "resign", "abort": "aborted"}[kind]
    if kind == "timeout":
        return "shot_clock"
    if kind == "abandon":
        return "abandoned"
    phase = before.get("phase")
    if phase == "shootout":
        return "shootout"
    if phase == "extra_visits" or (before.get("clock") or {}).get("expired"):
        return "time_limit"
    return "target"


def commit_change(
    match: Match,
    engine: EngineMatch,
    before: dict[str, Any],
    t: str | None,
    data: dict[str, Any],
    outcome: Any,
    now: float,
    *,
    kind: str,
    ack: int | None,
) -> tuple[list[dict[str, Any]], dict[str, Any] | None, Any]:
    """Store what an applied input (a player's or a server clock's) did, on the locked row: the
    event `t` (none for a bare clock tick), any K-11 notices it caused, `finished` when it ended the
    match, the new snapshot, deadlines and version. Returns (events, verdict, segments)."""
    snapshot = engine.snapshot()
    verdict = getattr(outcome, "verdict", None)
    shot = getattr(outcome, "shot", None)
    segments = shot.segments if shot is not None else None
    finished = snapshot.get("phase") == "finished"
    match.snapshot = snapshot
    state = state_of(snapshot)  # once per change: every event of this change carries the same state
    events: list[dict[str, Any]] = []
    if t is not None and t != "finished":
        _reset_shot_clock(match, now)
        _refresh_grace(match, now)
        data = {**data, "ack": ack, "verdict": verdict, "state": state}
        if segments is not None:
            data["segments"] = segments
        data["clock"] = clock_info(match, snapshot, now)
        events.append(_store_event(match, t, data))
    if finished:
        finished_data = _finish_from_engine(match, snapshot, now, how_it_ended(kind, before, verdict), state)
        if t == "finished":
            finished_data["ack"] = ack
            finished_data["verdict"] = verdict
        events.append(_store_event(match, "finished", finished_data))
    else:
        if t is None and match.shot_deadline is None:
            _reset_shot_clock(match, now)  # a bare K-11 tick: the time-up shot clock starts on time
        for notice, text in phase_notices(before, snapshot):
            events.append(_store_event(match, "notice", {
                "kind": notice, "text": text, "state": state, "clock": clock_info(match, snapshot, now),
            }))
        match.next_deadline = deadline_next(match, snapshot)
    match.save()
    return events, verdict, segments


def record_input(match: Match, *, seq: int, version: int, user: AnyUser | None, name: str, kind: str,
                 ack: int | None, payload: dict[str, Any], now: float, verdict: dict[str, Any] | None,
                 segments: Any) -> None:
    """The Shot row of one input: enough to replay the match (selectors/replays.py)."""
    Shot.objects.create(
        match=match,
        seq=seq,
        version=version,
        player=user if user is not None and user.is_authenticated else None,
        player_name=name,
        kind=kind,
        ack=ack,
        input={**payload, "now": now},
        call=payload.get("call"),
        verdict=verdict,
        segments=segments,
        points=int((verdict or {}).get("points", 0) or 0) - int((verdict or {}).get("penalty", 0) or 0),
        snapshot_hash=snapshot_hash(match.snapshot),
    )


InputFn = Callable[[EngineMatch, str, float, Match], tuple[str, dict[str, Any], Any]]


@contextmanager
def _duplicate_refused() -> Iterator[None]:
    """A unique (match, player, ack) or (match, seq) clash means another process stored this input
    first. The row lock forbids it; if it happens anyway, the transaction inside has been rolled back
    and the client hears `duplicate`. (No savepoint for it: two round trips on every input.)"""
    try:
        yield
    except IntegrityError as exc:
        raise MatchError("duplicate", "this input was already received") from exc


def _apply_input(
    *,
    match_id: str,
    user: AnyUser,
    kind: str,
    ack: int | None,
    expected_version: int | None,
    payload: dict[str, Any],
    run: InputFn,
) -> Applied:
    """The one path every player input takes (see the module docstring).

    `run(engine, player_name, now, locked_match)` applies the input to the engine and returns the event type, the
    event data (without state/clock, added here) and the engine Outcome.
    """
    with _duplicate_refused(), transaction.atomic():
        match = _lock(match_id)
        seat = seat_of(match, user)
        if seat is None:
            raise MatchError("spectator", "only the players of this match can do that")
        seq, stored_version = _inputs_so_far(match, user, ack)
        if stored_version is not None:
            return Applied(reply=_stored_reply(match, stored_version))
        if match.status == Match.Status.OPEN:
            raise MatchError("not_started", "the match waits for an opponent")
        if match.status != Match.Status.ACTIVE:
            raise MatchError("game_over", "the match is over")
        if expected_version is not None and expected_version != match.version:
            raise MatchError(
                "stale", f"the match is at version {match.version}, not {expected_version}: send hello to catch up"
            )
        engine = EngineMatch.from_snapshot(match.snapshot)
        before = match.snapshot
        name = engine_names(match)[seat]
        assert name is not None
        now = time.time()
        try:
            t, data, outcome = run(engine, name, now, match)
        except RuleError as exc:
            raise MatchError(exc.code, exc.message) from exc
        events, verdict, segments = commit_change(match, engine, before, t, data, outcome, now, kind=kind, ack=ack)
        record_input(match, seq=seq, version=events[0]["v"], user=user, name=name, kind=kind, ack=ack,
                     payload=payload, now=now, verdict=verdict, segments=segments)
        return Applied(events=events, lobby_changed=match.status != Match.Status.ACTIVE)


# --- creating and joining --------------------------------------------------------------------------


def _check_range(name: str, value: int | None, low: int, high: int) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise MatchError("bad_value", f"{name} must be from {low} to {high} seconds")
    return value


def _start(match: Match, now: float) -> dict[str, Any]:
    """Both seats are taken: build the engine match (lag phase) and return the `started` event."""
    names = engine_names(match)
    engine = EngineMatch.new(
        players=(names[0], names[1]),
        ruleset=match.ruleset or None,
        time_limit=float(match.time_limit) if match.time_limit else None,
        now=now,
    )
    snapshot = engine.snapshot()
    match.snapshot = snapshot
    match.ruleset = snapshot["ruleset"]
    match.status = Match.Status.ACTIVE
    match.started_at = timezone.now()
    _reset_shot_clock(match, now)
    _refresh_grace(match, now)
    match.next_deadline = deadline_next(match, snapshot)
    from game.selectors.matches import match_info

    return _store_event(
        match, "started", {"match": match_info(match=match), "state": state_of(snapshot), "clock": clock_info(match)}
    )


def match_create(
    *,
    user: AbstractBaseUser,
    rated: bool,
    time_limit: int | None,
    shot_clock: int | None,
    club: Club | None = None,
    opponent_bot_level: int | None = None,
) -> tuple[Match, list[dict[str, Any]]]:
    """A new match with `user` in seat 0: open for an opponent, or started at once against a bot.

    Returns the match and the events to publish (the `started` event of a bot match)."""
    profile = profile_ensure(user=user)
    if rated and profile.is_guest:
        raise MatchError("needs_account", "rated matches need a registered account")
    if rated and opponent_bot_level is not None:
        # Ratings measure players against players: games against the computer would let anyone farm
        # points from a weak level (lichess does not rate games against its engine either).
        raise MatchError("bot_unrated", "games against the computer are casual")
    time_limit = _check_range("time_limit", time_limit, *TIME_LIMIT_RANGE)
    shot_clock = _check_range("shot_clock", shot_clock, *SHOT_CLOCK_RANGE)
    if club is not None and not Membership.objects.filter(
        club=club, user=user, status=Membership.Status.ACTIVE
    ).exists():
        raise MatchError("not_a_member", "only members can start a club match")
    events: list[dict[str, Any]] = []
    with transaction.atomic():
        match = Match.objects.create(
            created_by=user,
            player1=user,
            rated=bool(rated),
            time_limit=time_limit,
            shot_clock=shot_clock,
            club=club,
        )
        if opponent_bot_level is not None:
            bot = bot_user_for_level(level=opponent_bot_level)
            match = Match.objects.select_for_update().get(pk=match.pk)
            match.player2 = bot
            events.append(_start(match, time.time()))
            match.save()
    return match, events


def match_join(*, match_id: str, user: AbstractBaseUser) -> Applied:
    """Take the open seat; the match starts (lag phase) and everyone on the page hears `started`."""
    profile = profile_ensure(user=user)
    with transaction.atomic():
        match = _lock(match_id)
        if seat_of(match, user) is not None:
            raise MatchError("already_playing", "you already play in this match")
        if match.status != Match.Status.OPEN or match.player2_id is not None:
            raise MatchError("seat_taken", "this match has no open seat")
        if match.rated and profile.is_guest:
            raise MatchError("needs_account", "rated matches need a registered account")
        if match.club_id is not None and not Membership.objects.filter(
            club_id=match.club_id, user=user, status=Membership.Status.ACTIVE
        ).exists():
            raise MatchError("not_a_member", "only club members can join this club match")
        match.player2 = user
        event = _start(match, time.time())
        match.save()
    return Applied(events=[event], lobby_changed=True)


def match_cancel(*, match_id: str, user: AbstractBaseUser) -> Applied:
    """The creator withdraws a match nobody joined yet."""
    with transaction.atomic():
        match = _lock(match_id)
        if match.status != Match.Status.OPEN or match.player1_id != user.pk:
            raise MatchError("not_allowed", "only the creator can cancel a match still waiting for an opponent")
        match.status = Match.Status.ABORTED
        match.finished_at = timezone.now()
        match.result_reason = "cancelled before the start"
        event = _store_event(match, "finished", {
            "winner": None, "reason": match.result_reason, "rating_changes": [], "state": None, "clock": None,
        })
        match.save()
    return Applied(events=[event], lobby_changed=True)


# --- the inputs ------------------------------------------------------------------------------------


def match_lag(
    *, match_id: str, user: AnyUser, strike: dict[str, float], ack: int | None = None,
    expected_version: int | None = None,
) -> Applied:
    def run(engine: EngineMatch, name: str, now: float, match: Match) -> tuple[str, dict[str, Any], Any]:
        outcome = engine.lag(name, strike, now=now)
        return "shot", {"kind": "lag", "player": name, "call": None, "strike": strike}, outcome

    return _apply_input(match_id=match_id, user=user, kind="lag", ack=ack, expected_version=expected_version,
                        payload={"strike": strike}, run=run)


def match_choose_break(
    *, match_id: str, user: AnyUser, take: bool, ack: int | None = None, expected_version: int | None = None
) -> Applied:
    def run(engine: EngineMatch, name: str, now: float, match: Match) -> tuple[str, dict[str, Any], Any]:
        outcome = engine.choose_break(name, take, now=now)
        return "choice", {"player": name, "take": take}, outcome

    return _apply_input(match_id=match_id, user=user, kind="choose_break", ack=ack,
                        expected_version=expected_version, payload={"take": take}, run=run)


def match_place(
    *, match_id: str, user: AnyUser, ball: str, x: float, y: float, ack: int | None = None,
    expected_version: int | None = None,
) -> Applied:
    def run(engine: EngineMatch, name: str, now: float, match: Match) -> tuple[str, dict[str, Any], Any]:
        outcome = engine.place(name, ball, (x, y), now=now)
        placed = engine.snapshot()["balls"].get(ball) or [x, y]
        return "placed", {"player": name, "ball": ball, "x": placed[0], "y": placed[1]}, outcome

    return _apply_input(match_id=match_id, user=user, kind="place", ack=ack, expected_version=expected_version,
                        payload={"ball": ball, "x": x, "y": y}, run=run)


def match_shoot(
    *, match_id: str, user: AnyUser, call: dict[str, Any], strike: dict[str, float], ack: int | None = None,
    expected_version: int | None = None,
) -> Applied:
    def run(engine: EngineMatch, name: str, now: float, match: Match) -> tuple[str, dict[str, Any], Any]:
        outcome = engine.shoot(name, call=call, strike=strike, now=now)
        return "shot", {"kind": "shot", "player": name, "call": call, "strike": strike}, outcome

    return _apply_input(match_id=match_id, user=user, kind="shoot", ack=ack, expected_version=expected_version,
                        payload={"call": call, "strike": strike}, run=run)


def match_resign(*, match_id: str, user: AnyUser, ack: int | None = None) -> Applied:
    def run(engine: EngineMatch, name: str, now: float, match: Match) -> tuple[str, dict[str, Any], Any]:
        return "finished", {}, engine.resign(name, now=now)

    return _apply_input(match_id=match_id, user=user, kind="resign", ack=ack, expected_version=None,
                        payload={}, run=run)


def match_abort(*, match_id: str, user: AnyUser, ack: int | None = None) -> Applied:
    """Either player ends the match before the first shot of the break: aborted, no rating moves."""

    def run(engine: EngineMatch, name: str, now: float, match: Match) -> tuple[str, dict[str, Any], Any]:
        return "finished", {}, engine.abort(name, now=now)

    return _apply_input(match_id=match_id, user=user, kind="abort", ack=ack, expected_version=None,
                        payload={}, run=run)


def match_claim_timeout(*, match_id: str, user: AnyUser, ack: int | None = None) -> Applied:
    """Fire this match's due server deadlines now instead of at the next poll (the server's own clock
    fires them anyway, within about a second). Refused with `not_owed` when nothing is due: then it
    changes nothing."""
    from game.services.deadlines import deadlines_fire_match

    with transaction.atomic():
        match = _lock(match_id)
        if seat_of(match, user) is None:
            raise MatchError("spectator", "only the players of this match can do that")
        if match.status != Match.Status.ACTIVE:
            raise MatchError("game_over", "the match is over")
        applied = deadlines_fire_match(match, time.time())
        if not applied.events:
            raise MatchError("not_owed", "neither the opponent's shot clock nor their disconnect grace has run out")
    return applied


# --- connections (presence and the disconnect grace) -----------------------------------------------


def match_set_connected(
    *, match_id: str, channel_name: str, user: AnyUser, connected: bool, process: str = "", boot: str = ""
) -> dict[str, Any] | None:
    """Record a socket opening or closing (`process` and `boot` name the server process holding it:
    game.services.connections). Returns the new `clock` data when a player's coming or going changed
    the disconnect grace (to publish), else None."""
    now = time.time()
    with transaction.atomic():
        match = Match.objects.filter(pk=match_id).first()
        if match is None:
            return None
        seat = seat_of(match, user)
        if seat is not None and match.status == Match.Status.ACTIVE:
            match = _lock(match_id)
        if connected:
            MatchConnection.objects.update_or_create(
                channel_name=channel_name,
                defaults={
                    "match": match,
                    "user": user if user is not None and user.is_authenticated else None,
                    "seat": seat,
                    "seen_at": now,
                    "process": process,
                    "boot": boot,
                },
            )
        else:
            MatchConnection.objects.filter(channel_name=channel_name).delete()
        if seat is None or match.status != Match.Status.ACTIVE:
            return None
        if _refresh_grace(match, now):
            match.next_deadline = deadline_next(match)
            match.save(update_fields=["grace_seat", "grace_deadline", "next_deadline"])
            return clock_info(match, now=now)
    return None
