"""The shot clock counts only the shooter's own time: it starts when the last ball of the shot before
it is at rest (the shot's duration, known to the server), on the game clock, through the services
every input takes. A 15 s clock after a break that rolls for seconds still gives the next player 15 s."""

from __future__ import annotations

import time
from typing import Any

import pytest

from game.accounts.services import user_signup
from game.common import clock
from game.common.clock import game_now
from game.matches.selectors.match_state import engine_names, time_up_shot_clock
from game.matches.services import match_create, match_input, match_join
from game.matches.services.deadlines import deadlines_fire_due
from game.models import Match
from tests.support import inputs
from tests.support.play_support import (
    BREAK_ANGLE,
    BREAK_CALL,
    BREAK_CUE,
    LAG_LOSING,
    LAG_WINNING,
    WHITE2_OPENING,
    fast_password_hasher,
)

pytestmark = pytest.mark.django_db
__all__ = ["fast_password_hasher"]  # autouse fixture

SHOT_CLOCK = 15


def _broken_match() -> tuple[Match, dict[str, Any], float]:
    """A match with a 15 s shot clock, played to just after the break: the row, the break's `shot`
    event and the game time the break was played at."""
    suffix = str(time.monotonic_ns())[-6:]
    alice = user_signup(username=f"alice{suffix}", password="pw-alice-12345")
    bob = user_signup(username=f"bob{suffix}", password="pw-bob-12345")
    match, _ = match_create(user=alice, rated=False, time_limit=None, shot_clock=SHOT_CLOCK)
    match_join(match_id=match.id, user=bob)
    match_input(match_id=match.id, user=alice, message=inputs.lag(LAG_WINNING))
    match_input(match_id=match.id, user=bob, message=inputs.lag(LAG_LOSING))
    match_input(match_id=match.id, user=alice, message=inputs.choose_break(True))
    match_input(match_id=match.id, user=bob, message=inputs.place("white2", WHITE2_OPENING[0], WHITE2_OPENING[1]))
    match_input(match_id=match.id, user=alice, message=inputs.place("white1", BREAK_CUE[0], BREAK_CUE[1]))
    assert Match.objects.get(pk=match.id).shot_deadline is None  # before the break nothing is at stake
    before = game_now()
    strike = {"angle": BREAK_ANGLE, "speed": 2.5, "side": 0.0, "height": 0.0}
    applied = match_input(match_id=match.id, user=alice, message=inputs.shoot(BREAK_CALL, strike))
    shot = next(e for e in applied.events if e["t"] == "shot")
    return Match.objects.get(pk=match.id), shot, before


def _rolling_time(segments: dict[str, Any]) -> float:
    """When the last ball of a shot comes to rest, read from its motion segments (ARCHITECTURE 4)."""
    last = 0.0
    for track in segments.values():
        for piece in track:
            last = max(last, float(piece[1]) if piece[0] == "pocket" else float(piece[0]))
    return last


def test_shot_clock_starts_when_the_balls_stop() -> None:
    match, shot, before = _broken_match()
    rolling = _rolling_time(shot["d"]["segments"])
    assert rolling > 2.0, "the break rolls for seconds: the clock must not eat them"
    deadline = match.shot_deadline
    assert deadline is not None
    # The deadline is the shot's time, plus its rolling time, plus the whole clock; the client gets it.
    assert before + rolling + SHOT_CLOCK <= deadline <= game_now() + rolling + SHOT_CLOCK + 0.5
    assert shot["d"]["clock"]["shot_deadline"] == deadline
    assert shot["d"]["clock"]["shot_clock"] == SHOT_CLOCK
    assert match.next_deadline == deadline
    names = engine_names(match)
    assert match.snapshot["turn"] == 0 and match.snapshot["players"][0]["name"] == names[0]

    # 14 s after the balls stopped (the clock's whole time minus a second) nothing is due yet...
    clock.advance(deadline - 1 - game_now())
    assert deadlines_fire_due() == []
    # ...and 2 s later the shooter has used his 15 s: the visit passes (K-6.1), once.
    clock.advance(2)
    fired = deadlines_fire_due()
    assert [e["t"] for _, applied in fired for e in applied.events] == ["timeout"]
    timeout = fired[0][1].events[0]
    assert timeout["d"]["player"] == names[0]
    after = Match.objects.get(pk=match.id)
    assert after.snapshot["turn"] == 1
    # A timeout moves no ball: the next clock runs from now, with nothing rolling.
    assert after.shot_deadline == pytest.approx(game_now() + SHOT_CLOCK, abs=0.5)
    assert deadlines_fire_due() == []


def test_the_time_up_visit_clock_waits_for_the_balls_too(settings: Any) -> None:
    """K-11.1: in a match without a shot clock, the time-up's visit clock (time_up_shot_clock()) starts when
    the time is up, or, when the last shot's balls are still rolling then, once they stop."""
    settings.KAIZA_DISCONNECT_GRACE = 600  # nobody has a socket open here: no one is gone in this minute
    suffix = str(time.monotonic_ns())[-6:]
    alice = user_signup(username=f"ann{suffix}", password="pw-alice-12345")
    bob = user_signup(username=f"bea{suffix}", password="pw-bob-12345")
    match, _ = match_create(user=alice, rated=False, time_limit=60, shot_clock=None)
    match_join(match_id=match.id, user=bob)
    match_input(match_id=match.id, user=alice, message=inputs.lag(LAG_WINNING))
    match_input(match_id=match.id, user=bob, message=inputs.lag(LAG_LOSING))
    match_input(match_id=match.id, user=alice, message=inputs.choose_break(True))
    match_input(match_id=match.id, user=bob, message=inputs.place("white2", WHITE2_OPENING[0], WHITE2_OPENING[1]))
    match_input(match_id=match.id, user=alice, message=inputs.place("white1", BREAK_CUE[0], BREAK_CUE[1]))
    started = Match.objects.get(pk=match.id).snapshot["clock"]["started"]
    clock.advance(started + 59 - game_now())  # the break, a second before the time is up
    shot_at = game_now()
    strike = {"angle": BREAK_ANGLE, "speed": 2.5, "side": 0.0, "height": 0.0}
    applied = match_input(match_id=match.id, user=alice, message=inputs.shoot(BREAK_CALL, strike))
    rolling = _rolling_time(next(e for e in applied.events if e["t"] == "shot")["d"]["segments"])
    assert rolling > 2.0 and Match.objects.get(pk=match.id).shot_deadline is None
    clock.advance(1.5)  # the time is up while the balls still roll
    fired = deadlines_fire_due()
    assert "time_up" in [e["d"].get("kind") for _, applied in fired for e in applied.events]
    deadline = Match.objects.get(pk=match.id).shot_deadline
    assert deadline == pytest.approx(shot_at + rolling + time_up_shot_clock(), abs=0.5)
