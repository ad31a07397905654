"""Runs the computer opponent inside the server: when a bot must act, think off the loop, then play.

The consumer schedules :func:`bot_turn_if_due` after every change it applies and on every connect, so
the bot is woken by exactly the events that can make it due. Why it is built this way:

- **The event loop stays free** (ARCHITECTURE.md section 1). A level-5 search is up to 1.5 s of pure
  Python: a thread would hold the GIL and stall every socket of the process, so the search runs in the
  server's engine pool (:mod:`game.common.engine_pool`, shared with the analysis board, which serves a
  move before any question or analysis waiting there). The worker
  function is :func:`game.engine.bot.choose_move`: a snapshot dict and a level in, a plain dict out.
- **One thinker per match.** An in-process set keyed by match id stops a second task for the same match
  (a connect and a shot can both schedule one); across processes the services' version check makes a
  stale move fail harmlessly (``MatchError("stale")``), and the bot stops there.
- **Like a human at the table.** The bot waits for the last shot to finish rolling on the players'
  screens (scaled by ``KAIZA_BOT_PACE``, 1.0 by default, 0 for tests and load runs), then shows its aim
  live with a few ``aim`` messages over about a second, then plays through the same services a player's
  socket uses, and publishes the events. It loops while it keeps the turn (its visit goes on).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import math
import time
from dataclasses import dataclass
from typing import Any

from django.conf import settings

from game.common.clock import game_now
from game.common.db import db_async
from game.common.engine_pool import Urgency, run_in_engine_pool
from game.common.knobs import setting_number
from game.engine.bot import choose_move
from game.engine.rules import Match as EngineMatch
from game.engine.rules import RuleError
from game.engine.strike_limits import STRIKE_LIMITS
from game.matches import services as match_services
from game.matches.selectors.match_state import engine_names, segments_duration
from game.models import Match, Profile, Shot
from game.realtime import fanout as realtime
from game.realtime import protocol
from game.realtime.hooks import HOOKS

logger = logging.getLogger(__name__)

#: Moves one wake-up plays before it hands the match to a fresh wake-up. A match between two computer
#: players is played by one loop (it takes whichever bot is due), and its many visits can pass any
#: fixed number: stopping there left the match stalled with no one to wake it (the tournament page
#: test's round robin of level-1 bots hung so). The hand-over keeps the match going while each task
#: stays short, and every move is still checked against the version by the services.
MAX_MOVES_PER_WAKE = 60
#: Aim messages shown before a shot, and the time they are spread over (s).
AIM_STEPS = 6
AIM_DURATION = 1.0
#: Longest wait for a worker's answer (s); the search itself stops at its level's budget.
THINK_TIMEOUT = 30.0
#: Longest wait for the previous shot's animation (s).
MAX_ANIMATION_WAIT = 12.0

_running: set[str] = set()
#: Matches known to have no computer player: both seats taken by people, which never changes once a
#: match is active. Consulted before any database read, since the consumer wakes the runner after
#: every change of every match (bounded: the oldest entries are dropped).
_no_bot: dict[str, None] = {}
NO_BOT_MEMORY = 10_000


def bot_pace() -> float:
    """1.0 plays at a human pace (wait for the animation, aim over a second); 0 plays at once."""
    return setting_number("KAIZA_BOT_PACE", 1.0, minimum=0.0)


@dataclass(frozen=True)
class Due:
    """A bot that must act now: who it is, at what level, on which position and version."""

    user_id: int
    level: int
    name: str
    action: str
    snapshot: dict[str, Any]
    version: int
    wait: float
    #: Both seats are computer players (game.matches.services.exhibition): nobody waits at the table.
    exhibition: bool = False


def _animation_left(match: Match, now: float) -> float:
    """Seconds the last shot still rolls on the players' screens (from its stored segments)."""
    last = Shot.objects.filter(match=match).order_by("-seq").only("segments", "created_at").first()
    if last is None or not last.segments:
        return 0.0
    ends = last.created_at.timestamp() + segments_duration(last.segments)
    return max(0.0, min(MAX_ANIMATION_WAIT, ends - now))


def _remember_no_bot(match_id: str) -> None:
    _no_bot[match_id] = None
    while len(_no_bot) > NO_BOT_MEMORY:
        del _no_bot[next(iter(_no_bot))]


def bot_due(match_id: str) -> Due | None:
    """The bot seated in this match that the rules wait for, if any (a read: no lock needed)."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None or match.status != Match.Status.ACTIVE or not match.snapshot:
        return None
    seats = [match.player1_id, match.player2_id]
    bots = {
        p.user_id: p.bot_level
        for p in Profile.objects.filter(user_id__in=[s for s in seats if s is not None], is_bot=True)
    }
    if not bots and None not in seats:
        _remember_no_bot(match_id)
        return None
    try:
        pending = EngineMatch.from_snapshot(match.snapshot).pending()
    except RuleError:
        return None
    if not pending:
        return None
    names = engine_names(match)
    for index, (name, action) in enumerate(pending):
        if name not in names or (action == "lag" and index > 0):
            # Both players may lag at once; the bot waits for the one listed first, so the two lags
            # are never made against the same version (the second would be refused as stale).
            continue
        user_id = seats[names.index(name)]
        level = bots.get(user_id) if user_id is not None else None
        if user_id is not None and level is not None:
            return Due(
                user_id=user_id,
                level=int(level) if 1 <= int(level) <= 5 else 3,
                name=name,
                action=action,
                snapshot=match.snapshot,
                version=match.version,
                wait=_animation_left(match, game_now()),
                exhibition=all(seat is not None and seat in bots for seat in seats),
            )
    return None


def play_move(match_id: str, due: Due, move: dict[str, Any]) -> match_services.Applied:
    """Apply the bot's move through the services, exactly as a player's socket would."""
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.get(pk=due.user_id)
    common: dict[str, Any] = {"match_id": match_id, "user": user, "expected_version": due.version}
    action = move["action"]
    if action == "lag":
        return match_services.match_lag(**common, strike=move["strike"])
    if action == "choose_break":
        return match_services.match_choose_break(**common, take=move["take"])
    if action == "place":
        return match_services.match_place(**common, ball=move["ball"], x=move["x"], y=move["y"])
    return match_services.match_shoot(**common, call=move["call"], strike=move["strike"])


def seed_for(match_id: str, version: int) -> int:
    """Same position, same move: a replayed or retried decision does not change."""
    return int.from_bytes(hashlib.sha256(f"{match_id}:{version}".encode()).digest()[:6], "big")


async def think(
    snapshot: dict[str, Any], level: int, player: str, seed: int, *, urgency: Urgency = Urgency.MOVE
) -> dict[str, Any]:
    """Run the search in the engine pool (the worker unpickles only game.engine.bot: no Django there),
    before any question or analysis waiting there: a person at the table waits for this move. Only an
    exhibition's moves (computer against computer) wait behind everything else."""
    return await run_in_engine_pool(
        choose_move, snapshot, level, player=player, seed=seed, timeout=THINK_TIMEOUT, urgency=urgency
    )


def aim_path(strike: dict[str, Any], seed: int, steps: int = AIM_STEPS) -> list[dict[str, float]]:
    """A short human-looking sweep onto the final aim: wide first, settling, speed drawn back last."""
    swing = 0.12 + (seed % 7) * 0.02
    direction = 1.0 if seed % 2 else -1.0
    path = []
    for i in range(steps):
        left = 1.0 - (i + 1) / steps
        angle = strike["angle"] + direction * swing * left * left * math.cos(2.5 * left)
        speed = min(STRIKE_LIMITS.max_speed, max(0.2, strike["speed"] * (0.5 + 0.5 * (i + 1) / steps)))
        path.append(
            {
                "angle": math.atan2(math.sin(angle), math.cos(angle)),
                "speed": round(speed, 4),
                "side": float(strike.get("side", 0.0)),
                "height": float(strike.get("height", 0.0)),
            }
        )
    return path


async def show_aim(match_id: str, player: str, strike: dict[str, Any], seed: int) -> None:
    """Publish the aim like a human's drag does, spread over about a second at pace 1."""
    pause = AIM_DURATION * bot_pace() / AIM_STEPS
    for step in aim_path(strike, seed):
        await realtime.relay(match_id, protocol.aim(player, protocol.StrikeInput(**step)))
        if pause:
            await asyncio.sleep(pause)


#: Seconds between two looks for live exhibitions nobody plays (game.matches.services.exhibition).
TEND_INTERVAL = 5.0
_tended = -math.inf


async def exhibitions_tend() -> None:
    """Each poll of the server's clocks, at most every TEND_INTERVAL: wake the computer players of a
    live exhibition that nobody plays yet, or any more (a restart), unless this process plays it."""
    global _tended
    if not settings.KAIZA_SHOWCASE or time.monotonic() - _tended < TEND_INTERVAL:
        return
    _tended = time.monotonic()
    for match_id in await db_async(match_services.exhibitions_to_wake)():
        if not playing(match_id):
            HOOKS.wake_bot(match_id)


def playing(match_id: str) -> bool:
    """Whether a wake-up of this process is playing the match now (one thinker per match)."""
    return match_id in _running


async def bot_turn_if_due(match_id: str) -> None:
    """If a computer player must act in this match, let it act (and keep acting while its turn lasts)."""
    if match_id in _running or match_id in _no_bot:
        return
    _running.add(match_id)
    more = False
    try:
        for _ in range(MAX_MOVES_PER_WAKE):
            due = await db_async(bot_due)(match_id)
            if due is None:
                return
            if due.wait and bot_pace():
                await asyncio.sleep(due.wait * bot_pace())
            seed = seed_for(match_id, due.version)
            urgency = Urgency.BACKGROUND if due.exhibition else Urgency.MOVE
            move = await think(due.snapshot, due.level, due.name, seed, urgency=urgency)
            if move["action"] in ("shoot", "lag"):
                await show_aim(match_id, due.name, move["strike"], seed)
            try:
                applied = await db_async(play_move)(match_id, due, move)
            except match_services.MatchError as exc:
                if exc.code != "stale":
                    logger.error("bot move refused in match %s: %s %s", match_id, exc.code, exc.message)
                return
            # Not woken again from here: this loop takes the bot's next move itself.
            await realtime.after_commit(match_id, applied.events, lobby=applied.lobby_changed, bot=False)
        more = True
    except Exception:
        logger.exception("the computer player failed in match %s", match_id)
    finally:
        _running.discard(match_id)
    if more:
        HOOKS.wake_bot(match_id)
