"""The shared input path (ARCHITECTURE.md section 1, "one authority"): every player input, and every
server clock through game.matches.services.deadlines, changes a match the same way, whichever daphne process
received it: one transaction, the Match row locked (select_for_update; SQLite serialises writers
instead), the version the client saw checked, the engine rebuilt from the stored snapshot, the input
applied, and the new snapshot, a Shot row (what was sent and what came of it) and a MatchEvent row (the
exact broadcast, for catch-up) saved with the version raised by one. The caller publishes the returned
events only after the commit, so no socket ever sees a change that was rolled back.

A repeated `ack` from the same player is answered from the stored Shot/MatchEvent and never applied
again: that is what makes a resend after a dropped connection, or a second tab, safe.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from typing import Any, NamedTuple, assert_never

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext_noop

from game.common.clock import game_now
from game.engine.rules import Match as EngineMatch
from game.engine.rules import Outcome, RuleError, words
from game.matches.selectors.history import notice_params
from game.matches.selectors.match_result import match_result
from game.matches.selectors.match_state import (
    AnyUser,
    clock_info,
    deadline_next,
    engine_names,
    player_name,
    rolling_left,
    seat_of,
    seat_users,
    shot_clock_seconds,
    snapshot_hash,
    state_of,
)
from game.matches.services.base import Applied, MatchError, store_event
from game.matches.services.presence import refresh_grace
from game.matches.services.results import results_record
from game.matches.services.rows import batched_writes, insert_row, lock_for_input, update_row
from game.matches.services.versions import lag_made_in_this_round
from game.models import Match, MatchEvent, MatchResult, Shot
from game.realtime import outbound, protocol
from game.realtime.outbound import EventType
from game.signals import match_finished


def reset_shot_clock(match: Match, now: float, engine: EngineMatch | None = None, *, motion: float = 0.0) -> None:
    """Start the shot clock for whoever must act now. It runs only once the break has been played:
    before it nothing is at stake, a page may still be loading, and either player may `abort` a
    match that does not get going (as lichess does with a game whose first move never comes).
    `motion`: how long the balls of the input just applied roll (the shot's duration, known here):
    the clock counts only the shooter's own time, from the moment the last ball is at rest (a break
    rolls for up to 9 s, more than half of a 15 s clock). Every per-visit deadline goes through here,
    K-11's visit clock once the time is up too.
    `engine`: the engine at `match.snapshot` when the caller has it (saves rebuilding it)."""
    seconds = shot_clock_seconds(match)
    active = match.status == Match.Status.ACTIVE and seconds and not _before_the_break(match.snapshot, engine)
    match.shot_deadline = now + max(0.0, float(motion)) + float(seconds) if active and seconds else None


def rolling_on_screen(shot: Any) -> float:
    """Seconds the balls of ``shot`` (a physics Shot, or None) roll on the players' screens: its
    duration, shown faster only on a test server (settings.KAIZA_ANIMATION_RATE, 1 in production)."""
    if shot is None:
        return 0.0
    return float(shot.duration) / float(settings.KAIZA_ANIMATION_RATE)


def _before_the_break(snapshot: dict[str, Any], engine: EngineMatch | None = None) -> bool:
    if engine is not None:
        return engine.abortable
    try:
        return EngineMatch.from_snapshot(snapshot).abortable
    except RuleError:
        return False


def inputs_so_far(match: Match, user: AnyUser | None, ack: int | None) -> tuple[int, int | None]:
    """(the next input's seq, the version of the input this player already sent with `ack`, if any),
    in one query: each round trip of an input is one more wait for the GIL under load."""
    if ack is None:
        top = Shot.objects.filter(match=match).aggregate(top=Max("seq"))["top"]
        return (top or 0) + 1, None
    found = Shot.objects.filter(match=match).aggregate(
        top=Max("seq"), stored=Max("version", filter=Q(player=user, ack=ack))
    )
    return (found["top"] or 0) + 1, found["stored"]


def _answered_from_storage(match: Match, version: int) -> Applied:
    """An input sent again with an ack this player already used in this match: the event it made, not
    applied twice. When the match is over, the lobby is told again: the first telling may have been
    lost with the answer (a database failure after the commit), and the lobby kept listing the match."""
    stored = MatchEvent.objects.filter(match=match, version=version).first()
    reply = [] if stored is None else [outbound.stored(stored.type, stored.data, stored.version)]
    return Applied(reply=reply, lobby_changed=match.status != Match.Status.ACTIVE)


def finish_from_engine(
    match: Match, snapshot: dict[str, Any], now: float, how: str, state: dict[str, Any] | None = None
) -> dict[str, Any]:
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
    # The one place every match ends: whoever builds on matches (a tournament's pairing) hears it here,
    # in this transaction (game.signals; the receivers: game.apps).
    match_finished.send(sender=Match, match=match)
    unrated = None
    if match.rated and not rating_changes:  # results_record stored why (rating_eligibility)
        unrated = MatchResult.objects.filter(match=match).values_list("unrated_reason", flat=True).first() or None
    result = match_result(match=match, snapshot=snapshot, names=names, rating_changes=rating_changes, unrated=unrated)
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
    t: outbound.EventType | None,
    data: dict[str, Any],
    outcome: Any,
    now: float,
    *,
    kind: str,
    ack: int | None,
    connected: set[int] | None = None,
) -> tuple[list[dict[str, Any]], dict[str, Any] | None, Any]:
    """Store what an applied input (a player's or a server clock's) did, on the locked row: the
    event `t` (none for a bare clock tick), any K-11 notices it caused, `finished` when it ended the
    match, the new snapshot, deadlines and version. Returns (events, verdict, segments).
    `connected`: the seats that are there, when the caller read them with the row (`rows`)."""
    snapshot = engine.snapshot()
    verdict = getattr(outcome, "verdict", None)
    shot = getattr(outcome, "shot", None)
    segments = shot.segments if shot is not None else None
    finished = snapshot.get("phase") == "finished"
    match.snapshot = snapshot
    state = state_of(snapshot, engine)  # once per change: every event of this change carries the same state
    events: list[dict[str, Any]] = []
    if t is not None and t != "finished":
        reset_shot_clock(match, now, engine, motion=rolling_on_screen(shot))
        refresh_grace(match, now, connected)
        data = {**data, "ack": ack, "verdict": verdict, "state": state}
        if segments is not None:
            data["segments"] = segments
        data["clock"] = clock_info(match, snapshot, now)
        events.append(store_event(match, t, data))
    if finished:
        finished_data = finish_from_engine(match, snapshot, now, how_it_ended(kind, before, verdict), state)
        if t == "finished":
            finished_data["ack"] = ack
            finished_data["verdict"] = verdict
        events.append(store_event(match, "finished", finished_data))
    else:
        if t is None and match.shot_deadline is None:
            # A bare K-11 tick: the time-up visit clock starts on time, or once the last shot's balls stop.
            reset_shot_clock(match, now, engine, motion=rolling_left(match, now))
        for notice, params in notice_params(before, snapshot):
            events.append(
                store_event(
                    match,
                    "notice",
                    {
                        "kind": notice,
                        "text": words.text(notice, params),
                        "params": params,
                        "state": state,
                        "clock": clock_info(match, snapshot, now),
                    },
                )
            )
        match.next_deadline = deadline_next(match, snapshot)
    if finished:
        match.save()
    else:
        # What an input changes on a running match, and nothing else (one statement by hand: `rows`).
        match.updated_at = timezone.now()
        update_row(Match, match.pk, {name: getattr(match, name) for name in INPUT_FIELDS})
    return events, verdict, segments


#: The Match columns an input changes while the match runs (commit_change saves only these; the end of
#: a match saves the whole row): the snapshot, the version (store_event), the shot clock
#: (reset_shot_clock), the disconnect grace (refresh_grace) and the next server deadline.
INPUT_FIELDS = ("snapshot", "version", "shot_deadline", "grace_seat", "grace_deadline", "next_deadline", "updated_at")


def commit_and_record(
    match: Match,
    engine: EngineMatch,
    before: dict[str, Any],
    t: outbound.EventType | None,
    data: dict[str, Any],
    outcome: Any,
    now: float,
    *,
    seq: int,
    user: AnyUser | None,
    name: str,
    kind: str,
    ack: int | None,
    payload: dict[str, Any],
    connected: set[int] | None = None,
) -> list[dict[str, Any]]:
    """The end of every input, a player's or a server clock's: store the change (`commit_change`) and,
    when it made events, the Shot row that replays it (`record_input`). Returns the events.
    The writes go out in one round trip (`batched_writes`), except when the change ends the match:
    that saves through the ORM (the whole row, the results), which reads each statement's outcome."""
    with batched_writes() if engine.phase != "finished" else nullcontext():
        events, verdict, segments = commit_change(
            match, engine, before, t, data, outcome, now, kind=kind, ack=ack, connected=connected
        )
        if events:
            record_input(
                match,
                seq=seq,
                version=events[0]["v"],
                user=user,
                name=name,
                kind=kind,
                ack=ack,
                payload=payload,
                now=now,
                verdict=None if kind == "tick" else verdict,
                segments=segments,
            )
    return events


def record_input(
    match: Match,
    *,
    seq: int,
    version: int,
    user: AnyUser | None,
    name: str,
    kind: str,
    ack: int | None,
    payload: dict[str, Any],
    now: float,
    verdict: dict[str, Any] | None,
    segments: Any,
) -> None:
    """The Shot row of one input: enough to replay the match (selectors/replays.py)."""
    insert_row(
        Shot,
        {
            "match": match.pk,
            "seq": seq,
            "version": version,
            "player": user.pk if user is not None and user.is_authenticated else None,
            "player_name": name,
            "kind": kind,
            "ack": ack,
            "input": {**payload, "now": now},
            "call": payload.get("call"),
            "verdict": verdict,
            "segments": segments,
            "points": int((verdict or {}).get("points", 0) or 0) - int((verdict or {}).get("penalty", 0) or 0),
            "snapshot_hash": snapshot_hash(match.snapshot),
            "created_at": timezone.now(),
        },
    )


#: A refused `stale` input, in words a player reads (the page shows it; it catches up by itself).
STALE = gettext_noop("The table changed before your move arrived: look again and play.")


@contextmanager
def _duplicate_refused() -> Iterator[None]:
    """A unique (match, player, ack) or (match, seq) clash means another process stored this input
    first. The row lock forbids it; if it happens anyway, the transaction inside has been rolled back
    and the client hears `duplicate`. (No savepoint for it: two round trips on every input.)"""
    try:
        yield
    except IntegrityError as exc:
        raise MatchError("duplicate", gettext_noop("this input was already received")) from exc


#: The inputs of a player this path applies (the server's clocks come through `commit_and_record`).
PlayerInput = protocol.Lag | protocol.ChooseBreak | protocol.Place | protocol.Shoot | protocol.Resign | protocol.Abort


class Played(NamedTuple):
    """One input applied to the engine: the Shot row's `kind` and `payload` (what was sent), the event
    type and data (without state/clock, added by commit_change) and the engine Outcome."""

    kind: str
    payload: dict[str, Any]
    t: EventType
    data: dict[str, Any]
    outcome: Outcome


def play(engine: EngineMatch, name: str, now: float, message: PlayerInput) -> Played:
    """Apply one typed input to the engine (RuleError if the rules refuse it). The values the edge parsed
    (Call, StrikeInput) go to the engine as they are; their dict forms are what is stored and sent."""
    match message:
        case protocol.Shoot(call=call, strike=strike):
            sent: dict[str, Any] = {"call": call.as_dict(), "strike": strike.as_dict()}
            outcome = engine.shoot(name, call=call, strike=strike, now=now)
            return Played("shoot", sent, "shot", {"kind": "shot", "player": name, **sent}, outcome)
        case protocol.Lag(strike=strike):
            sent = {"strike": strike.as_dict()}
            outcome = engine.lag(name, strike, now=now)
            return Played("lag", sent, "shot", {"kind": "lag", "player": name, "call": None, **sent}, outcome)
        case protocol.Place(ball=ball, x=x, y=y):
            outcome = engine.place(name, ball, (x, y), now=now)
            placed = engine.snapshot()["balls"].get(ball) or [x, y]
            data = {"player": name, "ball": ball, "x": placed[0], "y": placed[1]}
            return Played("place", {"ball": ball, "x": x, "y": y}, "placed", data, outcome)
        case protocol.ChooseBreak(take=take):
            outcome = engine.choose_break(name, take, now=now)
            return Played("choose_break", {"take": take}, "choice", {"player": name, "take": take}, outcome)
        case protocol.Resign():
            return Played("resign", {}, "finished", {}, engine.resign(name, now=now))
        case protocol.Abort():
            return Played("abort", {}, "finished", {}, engine.abort(name, now=now))
    assert_never(message)


def apply_input(*, match_id: str, user: AnyUser, message: PlayerInput) -> Applied:
    """The one path every player input takes (see the module docstring); `play` applies it to the engine."""
    ack = message.ack
    expected_version = getattr(message, "v", None)
    with _duplicate_refused(), transaction.atomic():
        locked = lock_for_input(match_id, user, ack)
        if locked is None:
            raise MatchError("not_found", gettext_noop("there is no such match"))
        match, seq, stored_version = locked.match, locked.next_seq, locked.stored_version
        seat = seat_of(match, user)
        if seat is None:
            raise MatchError("spectator", gettext_noop("only the players of this match can do that"))
        if stored_version is not None:
            return _answered_from_storage(match, stored_version)
        if match.status == Match.Status.OPEN:
            raise MatchError("not_started", gettext_noop("the match waits for an opponent"))
        if match.status != Match.Status.ACTIVE:
            raise MatchError("game_over", gettext_noop("the match is over"))
        name = player_name(match, user)
        assert name is not None
        if expected_version is not None and expected_version != match.version:
            # Both players lag at once: the other's strike in between does not make a lag stale.
            if not isinstance(message, protocol.Lag) or not lag_made_in_this_round(match, expected_version, name):
                raise MatchError("stale", STALE)
            # The lock statement's subqueries may predate the input it waited for (PostgreSQL reads
            # them at the statement's start): the seq and the ack's answer again, now under the lock.
            seq, stored_version = inputs_so_far(match, user, ack)
            if stored_version is not None:
                return _answered_from_storage(match, stored_version)
        engine = EngineMatch.from_snapshot(match.snapshot)
        before = match.snapshot
        now = game_now()
        try:
            played = play(engine, name, now, message)
        except RuleError as exc:
            raise MatchError(exc.code, exc.message, exc.params, key=exc.key) from exc
        events = commit_and_record(
            match,
            engine,
            before,
            played.t,
            played.data,
            played.outcome,
            now,
            seq=seq,
            user=user,
            name=name,
            kind=played.kind,
            ack=ack,
            payload=played.payload,
            connected=locked.connected,
        )
        return Applied(events=events, lobby_changed=match.status != Match.Status.ACTIVE)
