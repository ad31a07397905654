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
- **A database outage is waited out.** When the database fails under the bot (its connections killed,
  the server restarting), nothing else would wake it in a match without a shot clock: no one else has
  the turn. So the runner tries again on the game clock (:data:`OUTAGE_BACKOFF`, from the server
  clocks' poll: :func:`outages_retry`), a bounded number of times. A move is stored with an ack, the
  version it was made against, so the move the failure interrupted is applied once: tried again first,
  it is either applied now or, when its commit went through before the answer was lost, answered from
  storage and published then.
- **Like a human at the table.** The bot waits for the last shot to finish rolling on the players'
  screens (scaled by ``KAIZA_BOT_PACE``, 1.0 by default, 0 for tests and load runs), then shows its aim
  live with a few ``aim`` messages over about a second, then plays through the same services a player's
  socket uses, and publishes the events. It loops while it keeps the turn (its visit goes on).
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import logging
import math
import time
from dataclasses import dataclass
from typing import Any

from django.conf import settings

from game.common.clock import game_now
from game.common.db import DATABASE_FAILURES, db_async
from game.common.engine_pool import Urgency, run_in_engine_pool
from game.engine.bot import choose_move
from game.engine.rules import Match as EngineMatch
from game.engine.rules import RuleError
from game.engine.strike_limits import STRIKE_LIMITS
from game.matches import services as match_services
from game.matches.selectors.match_state import engine_names, rolling_left
from game.models import Match, Profile
from game.realtime import fanout as realtime
from game.realtime import outbound, protocol
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

#: Seconds of the game clock before each new try after a database failure under the bot, and so how
#: many tries (2 minutes in all): a restart of the database is over well within them. After the last,
#: the bot waits for the next wake-up (a reconnect, an input, a deadline), as it did before any try.
OUTAGE_BACKOFF = (1.0, 2.0, 4.0, 8.0, 15.0, 30.0, 60.0)

_running: set[str] = set()
#: Matches known to have no computer player: both seats taken by people, which never changes once a
#: match is active. Consulted before any database read, since the consumer wakes the runner after
#: every change of every match (bounded: the oldest entries are dropped).
_no_bot: dict[str, None] = {}
NO_BOT_MEMORY = 10_000


def bot_pace() -> float:
    """1.0 plays at a human pace (wait for the animation, aim over a second); 0 plays at once."""
    return settings.KAIZA_BOT_PACE


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
                # The last shot still rolling on the players' screens (its motion as the pages show it).
                wait=min(MAX_ANIMATION_WAIT, rolling_left(match, game_now())),
                exhibition=all(seat is not None and seat in bots for seat in seats),
            )
    return None


def play_move(match_id: str, due: Due, move: dict[str, Any]) -> match_services.Applied:
    """Apply the bot's move through the services, exactly as a player's socket would. Its ack is the
    version it was made against (one move per version): the same move sent again is answered from
    storage, never applied twice. Versions stay far below every browser's acks (net.js: a tab's random
    id times 2^21), so no page takes the bot's ack in an event for one of its own inputs."""
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.get(pk=due.user_id)
    message = move_input(move, version=due.version, ack=due.version)
    return match_services.match_input(match_id=match_id, user=user, message=message)


#: What a bot's move (game.engine.bot.choose_move) carries beside the input's own fields.
MOVE_EXTRAS = ("action", "player", "expected")


def move_input(move: dict[str, Any], *, version: int, ack: int) -> protocol.MatchInput:
    """A bot's move as the typed input a player's frame parses to, through the same edge
    (game.realtime.protocol); MatchError if the edge refuses it."""
    data = {key: value for key, value in move.items() if key not in MOVE_EXTRAS}
    message = protocol.parse_fields(str(move["action"]), data, v=version)
    if isinstance(message, protocol.Invalid):
        raise match_services.MatchError(message.code, message.message)
    if not isinstance(message, protocol.Lag | protocol.ChooseBreak | protocol.Place | protocol.Shoot):
        raise match_services.MatchError("unknown_type", f"a bot cannot play {move['action']!r}")
    return dataclasses.replace(message, ack=ack)


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
        await realtime.relay(match_id, outbound.Aim(player, **step))
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


@dataclass
class Outage:
    """A match whose computer player the database failed under: the failures in a row, when (game
    clock) to try again, and the move that was being stored when it failed, if one was: it may have
    been stored, so it is sent again first, with its ack."""

    failures: int = 0
    retry_at: float = math.inf
    move: tuple[Due, dict[str, Any]] | None = None


_outages: dict[str, Outage] = {}


async def outages_retry() -> None:
    """Each poll of the server's clocks: wake the bots whose next try after a database failure is due
    by the game clock (so a test moves the clock instead of waiting)."""
    now = game_now()
    for match_id, outage in list(_outages.items()):
        if outage.retry_at <= now and not playing(match_id):
            outage.retry_at = math.inf  # this wake-up's outcome sets the next try, or ends the outage
            HOOKS.wake_bot(match_id)


def _wait_out(match_id: str, failure: BaseException) -> None:
    """A database failure under the bot: try again later on the game clock, or give up after the last
    try (the log says which, in a line: an outage is not a bug)."""
    outage = _outages.setdefault(match_id, Outage())
    outage.failures += 1
    said = f"{type(failure).__name__}: {' '.join(str(failure).split())}"
    if outage.failures > len(OUTAGE_BACKOFF):
        del _outages[match_id]
        logger.error(
            "the database failed under the computer's move in match %s %d times (%s): it waits for the next wake-up",
            match_id,
            outage.failures,
            said,
        )
        return
    wait = OUTAGE_BACKOFF[outage.failures - 1]
    outage.retry_at = game_now() + wait
    logger.warning(
        "the database failed under the computer's move in match %s (%s): trying again in %.0f s (%d of %d)",
        match_id,
        said,
        wait,
        outage.failures,
        len(OUTAGE_BACKOFF),
    )


async def _store(match_id: str, due: Due, move: dict[str, Any]) -> bool:
    """Apply the bot's move and publish it; False when the services refuse it (a stale move: the match
    moved on). A database failure is raised with the move kept, to be sent again first."""
    try:
        applied = await db_async(play_move)(match_id, due, move)
    except match_services.MatchError as exc:
        if exc.code != "stale":
            logger.error("bot move refused in match %s: %s %s", match_id, exc.code, exc.message)
        return False
    except DATABASE_FAILURES:
        _outages.setdefault(match_id, Outage()).move = (due, move)
        raise
    # A move sent again that had been stored is answered from storage: its event is published now (a
    # page that has it already ignores its version). Not woken again from here: the runner's loop
    # takes the bot's next move itself.
    events = applied.events or applied.reply
    await realtime.after_commit(match_id, events, lobby=applied.lobby_changed, bot=False)
    return True


async def _play(match_id: str) -> bool:
    """The bot's moves of one wake-up: first the move a database failure interrupted, if any, then each
    move due. True when the wake-up used up its moves with the bot still to play."""
    outage = _outages.get(match_id)
    if outage is not None and outage.move is not None:
        due, move = outage.move
        await _store(match_id, due, move)  # stored now, or before, or refused: what is due is read next
        outage.move = None
    for _ in range(MAX_MOVES_PER_WAKE):
        due = await db_async(bot_due)(match_id)
        if due is None:
            return False
        if due.wait and bot_pace():
            await asyncio.sleep(due.wait * bot_pace())
        seed = seed_for(match_id, due.version)
        urgency = Urgency.BACKGROUND if due.exhibition else Urgency.MOVE
        move = await think(due.snapshot, due.level, due.name, seed, urgency=urgency)
        if move["action"] in ("shoot", "lag"):
            await show_aim(match_id, due.name, move["strike"], seed)
        if not await _store(match_id, due, move):
            return False
    return True


async def bot_turn_if_due(match_id: str) -> None:
    """If a computer player must act in this match, let it act (and keep acting while its turn lasts).
    A database failure on the way is waited out (`_wait_out`)."""
    if match_id in _running or match_id in _no_bot:
        return
    _running.add(match_id)
    more = False
    try:
        more = await _play(match_id)
        _outages.pop(match_id, None)
    except DATABASE_FAILURES as failure:
        _wait_out(match_id, failure)
    except Exception:
        logger.exception("the computer player failed in match %s", match_id)
    finally:
        _running.discard(match_id)
    if more:
        HOOKS.wake_bot(match_id)
