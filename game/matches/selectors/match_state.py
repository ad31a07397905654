"""Pure reads of a match's state: what clients are sent (`state`, `clock`), who sits where, the names
the engine knows, the next server deadline. Services call these; nothing here writes or imports a
service (tests/architecture/test_layers.py checks it).

The timing constants that both reads and writes need live here, their one home: the disconnect grace
and the staleness of a presence row (game.matches.services.presence uses them to decide, the Watch
page and the match page to show who is there).
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User

from game.common.clock import game_now
from game.engine.rules import Match as EngineMatch
from game.engine.rules import RuleError
from game.engine.rules.match import TIMEOUTS_TO_LOSE
from game.engine.rules.ruleset import Ruleset
from game.engine.rules.state import table_for
from game.engine.table import TableSpec, kaisa_table
from game.matches.selectors.team_seats import team_lineup, team_name, team_place
from game.models import Match, Profile, Shot

# The three settings below are read at each call, not at import: a test's settings
# override, or a server given other values, is obeyed by the code already loaded.


def disconnect_grace() -> float:
    """Seconds a player may be away before the opponent can claim the game (K-9.3)."""
    return float(getattr(settings, "KAIZA_DISCONNECT_GRACE", 60.0))


def connection_stale_after() -> float:
    """A connection row not touched for this long no longer counts (its process died). Each process's
    heartbeat touches its sockets' rows every 10 s (game.realtime.presence): 30 s is three missed
    heartbeats."""
    return float(getattr(settings, "KAIZA_CONNECTION_STALE_AFTER", 30.0))


def time_up_shot_clock() -> int:
    """Seconds a visit may take once the K-11 time is up, in a match created without a shot clock: the
    extra visits and the shoot-out then always come to an end, even with a player who stops playing."""
    return int(getattr(settings, "KAIZA_TIME_UP_SHOT_CLOCK", 60))


AnyUser = User | AnonymousUser


def fresh_since() -> float:
    """The oldest `seen_at` of a connection row that still counts. Staleness is about real sockets, so
    it is measured on the real clock (a deadline service may be given another `now`)."""
    return time.time() - connection_stale_after()


def bot_seats(match: Match, seats: Iterable[int]) -> set[int]:
    """Which of `seats` a bot holds: one query by user id, without loading the users, and none when
    `seats` is empty (the presence reads ask only about seats no live socket holds)."""
    ids = {seat: user_id for seat, user_id in enumerate((match.player1_id, match.player2_id)) if user_id is not None}
    wanted = [seat for seat in seats if seat in ids]
    if not wanted:
        return set()
    bots = set(
        Profile.objects.filter(user_id__in=[ids[s] for s in wanted], is_bot=True).values_list("user_id", flat=True)
    )
    return {seat for seat in wanted if ids[seat] in bots}


def seats_present(live_seats: Iterable[int], bots: Iterable[int]) -> set[int]:
    """The seats that are there: the one rule, whoever reads its parts (the ORM in
    game.matches.services.presence and game.matches.selectors.matches, one SQL statement in
    game.matches.services.rows): a seat is there while a fresh connection row holds it
    (`fresh_since`) or while its player is a bot (`bot_seats`; a bot never leaves)."""
    return {*live_seats, *bots}


def snapshot_hash(snapshot: dict[str, Any]) -> str:
    """sha256 of the canonical JSON: replays and audits compare positions by this."""
    canonical = json.dumps(snapshot, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def match_table(*, match: Match) -> TableSpec:
    """The table the match is played on, its balls the size its ruleset says (the K-1.2 flag
    ``ball_diameter``): what its pages draw and aim on. The snapshot's ruleset once there is one, else
    the one the match was made with; a stored ruleset the engine refuses leaves the standard table, so
    the page still draws."""
    snapshot = match.snapshot or {}
    try:
        ruleset = Ruleset.from_dict(snapshot.get("ruleset") or match.ruleset or None)
    except RuleError:
        return kaisa_table()
    return table_for(ruleset.ball_diameter)


def state_of(snapshot: dict[str, Any], engine: EngineMatch | None = None) -> dict[str, Any] | None:
    """The `state` clients get: the engine snapshot plus who may act now (`pending`), whether either
    player may still `abort`, and what each seated player may do now (`constraints`, the engine's
    ``Match.constraints``: actions, legal calls with the reasons for the refused ones, the placement
    region, the strike limits). The client draws legality from these and never re-implements a rule.

    The constraints cost about a millisecond per state (``bench/scripts/bench_constraints.py``): callers that
    send one state to several places compute it once per change, and readers that need only who is to
    act use :func:`pending_of`. `engine`: the engine at `snapshot`, when the caller has it (the input
    path: it just applied the input), instead of one rebuilt from the snapshot."""
    if not snapshot:
        return None
    try:
        if engine is None:
            engine = EngineMatch.from_snapshot(snapshot)
        pending, abortable = engine.pending(), engine.abortable and engine.phase != "finished"
        # Every one who plays: the two players, or each team member (the client reads its own).
        constraints: dict[str, Any] | None = {name: engine.constraints(name) for name in engine.state.member_names}
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
    """The user's seat (0 or 1), in a team match his team; None for anyone else."""
    if user is None or not user.is_authenticated:
        return None
    if match.team_size:
        place = team_place(match, user)
        return None if place is None else place[0]
    if match.player1_id == user.pk:
        return 0
    if match.player2_id == user.pk:
        return 1
    return None


def player_name(match: Match, user: AnyUser) -> str | None:
    """The name the engine knows this user by: his seat's player, or in a team match himself as a
    member (the engine then checks it is his visit: ``not_your_visit``); None for a spectator."""
    if match.team_size:
        place = team_place(match, user)
        if place is None:
            return None
        lineup = team_lineup(match)
        team, order = place
        return lineup[team][order] if order < len(lineup[team]) else None
    seat = seat_of(match, user)
    return None if seat is None else engine_names(match)[seat]


def seat_users(match: Match) -> list[Any]:
    return [match.player1, match.player2]


def engine_names(match: Match, players: list[dict[str, Any]] | None = None) -> list[str | None]:
    """Names as the engine knows them: from the snapshot once started (a guest who signs up mid-match
    and picks a new display name keeps the old one in this match), else the current display names.
    `players`: the snapshot's `players`, when the caller read that key alone (the row without its state).

    A read: every seated user has a profile by then (match_create and match_join ensure it; bots are
    made with one), so a missing profile falls back to the username instead of creating one here."""
    if players is None:
        players = (match.snapshot or {}).get("players")
    if players and len(players) == 2:
        return [players[0]["name"], players[1]["name"]]
    names: list[str | None] = []
    for user in seat_users(match):
        if user is None:
            names.append(None)
            continue
        profile = Profile.objects.filter(user=user).first()
        name = profile.display_name if profile is not None else user.get_username()
        names.append(team_name(name, match.team_size) if match.team_size else name)
    return names


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
        "grace": disconnect_grace(),
        "now": game_now() if now is None else now,
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


def shot_clock_seconds(match: Match, snapshot: dict[str, Any] | None = None) -> int | None:
    """The shot clock that applies now: the match's own, or time_up_shot_clock() once its time is up."""
    if match.shot_clock:
        return int(match.shot_clock)
    snapshot = (match.snapshot if snapshot is None else snapshot) or {}
    clock = snapshot.get("clock") or {}
    time_up = bool(clock.get("expired")) or snapshot.get("phase") in ("extra_visits", "shootout")
    return time_up_shot_clock() if time_up else None


def segments_duration(segments: Any) -> float:
    """When the last ball of a shot's motion segments (ARCHITECTURE section 4) comes to rest, in seconds
    from the strike: the last segment's start, or a drop's time."""
    duration = 0.0
    for track in (segments or {}).values():
        for segment in track:
            if segment and isinstance(segment[0], int | float):
                duration = max(duration, float(segment[0]))
            elif len(segment) > 1 and isinstance(segment[1], int | float):
                duration = max(duration, float(segment[1]))
    return duration


def rolling_left(match: Match, now: float) -> float:
    """Seconds the balls of the match's last input still roll on the players' screens at game time
    ``now`` (0 when they are at rest): its recorded time plus its motion (shown faster only on a test
    server, settings.KAIZA_ANIMATION_RATE)."""
    last = Shot.objects.filter(match=match).order_by("-seq").only("segments", "input").first()
    if last is None or not last.segments:
        return 0.0
    at = (last.input or {}).get("now")
    if isinstance(at, bool) or not isinstance(at, int | float):
        return 0.0
    return max(0.0, float(at) + segments_duration(last.segments) / float(settings.KAIZA_ANIMATION_RATE) - now)


def match_scores(*, match: Match) -> tuple[int, int]:
    """Both seats' scores from the stored snapshot (0 when it has none yet)."""
    players = (match.snapshot or {}).get("players") or []
    scores = [0, 0]
    for i, player in enumerate(players[:2]):
        value = player.get("score") if isinstance(player, dict) else None
        scores[i] = int(value) if isinstance(value, int | float) else 0
    return scores[0], scores[1]
