"""Quick pairing's side of the server clocks: pair the seeks that fit now, widen the windows of those
still waiting, and tell their sockets (game/lobby/services/seeks.py holds the queue and the numbers).

Called by every daphne process's clock loop (game/matches/clock_runner.py) about once a second, and by the
lobby socket right after a seek is queued, so a partner already waiting is paired at once. The sockets
are told through the channel layer by their channel names, so a seeker on another process hears too.
"""

from __future__ import annotations

from channels.layers import get_channel_layer

from game.common.clock import game_now
from game.common.db import db_async
from game.lobby.services.seeks import Paired, Widened, seeks_pair, seeks_widen
from game.realtime import fanout as realtime
from game.realtime import outbound


async def announce(paired: list[Paired], widened: list[Widened]) -> None:
    """Publish each new match's `started` event and send each seeker `paired` or `seeking`."""
    layer = get_channel_layer()
    if layer is None:
        return
    for pair in paired:
        await realtime.after_commit(pair.match_id, pair.events)
        for channel in pair.channels:
            message = outbound.Paired(pair.match_id, pair.url)
            await layer.send(channel, {"type": "seek.notice", "text": outbound.dumps(message), "ends": True})
    for widen in widened:
        text = outbound.dumps(outbound.Seeking.of(widen.info))
        await layer.send(widen.channel_name, {"type": "seek.notice", "text": text})


async def pair_and_widen(now: float | None = None) -> int:
    """One tick: pair, then widen what still waits; the number of matches made."""
    now = game_now() if now is None else now
    paired = await db_async(seeks_pair)(now=now)
    widened = await db_async(seeks_widen)(now=now)
    await announce(paired, widened)
    return len(paired)
