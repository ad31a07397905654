"""Fan-out through the channel layer (Redis at scale): the only way events reach sockets live.

Services return events; whoever called a service publishes them here after the transaction committed
(consumers, views, the bot runner). Every process that has sockets in a match has its hub
(`game.realtime.hub`) in the match's group, so a change made in one daphne process reaches the sockets of all
of them. Each message is JSON-encoded once, here, and travels as text: the hubs hand the same text to
every local socket instead of encoding it once per socket.

Publishing never raises: the publishing process's own sockets get the message in memory, and should
the layer fail (Redis down), the other processes' sockets catch up from the database on the next
`beat` (game.realtime.hub). So a player whose input was stored is answered with its event, never with
`internal_error`.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from game.common.db import db_async
from game.realtime import hub, outbound
from game.realtime.hooks import HOOKS

LOBBY_GROUP = "lobby"


def match_group(match_id: str) -> str:
    return f"match.{match_id}"


def event_pending(item: dict[str, Any]) -> list[str] | None:
    """Who may act after a versioned event (the names in its state's `pending`); [] once nobody may
    (finished, or a snapshot without a state); None when the event does not say."""
    state = (item.get("d") or {}).get("state")
    if isinstance(state, dict):
        return [name for name, _ in state.get("pending", [])]
    if item.get("t") in ("finished", "snapshot"):
        return []
    return None


def event_message(match_id: str, item: dict[str, Any]) -> dict[str, Any]:
    """The group message of one versioned event: its encoded text plus what a socket needs to order
    it (`v`) and to check aims (`pending`) without decoding it."""
    return {
        "type": "match.event",
        "group": match_group(match_id),
        "v": item["v"],
        "pending": event_pending(item),
        "text": outbound.dumps(item),
    }


async def publish(match_id: str, events: list[dict[str, Any]]) -> None:
    """Broadcast versioned events `{t, v, d}` of one match, in version order."""
    layer = get_channel_layer()
    if layer is None:
        return
    for item in sorted(events, key=lambda e: e["v"]):
        await hub.publish(layer, event_message(match_id, item))
    if any(item.get("t") in TOURNAMENT_EVENTS for item in events):
        tournament_id = await _tournament_of(match_id)
        if tournament_id is not None:
            await tournament_publish(tournament_id, match_id=match_id, events=events)


async def relay(
    match_id: str, message: outbound.Message, exclude: str | None = None, audience: str | None = None
) -> None:
    """Broadcast an ephemeral, unversioned message (aim, presence, clock, chat); `exclude` is the
    channel name of a socket that must not get it back (the aimer); `audience` a role ("spectator")
    whose sockets alone get it (the spectators' chat), None for everyone. An aim is marked so each
    process's hub thins it for spectators (`hub.SPECTATOR_AIM_INTERVAL`)."""
    layer = get_channel_layer()
    if layer is None:
        return
    group = match_group(match_id)
    text = outbound.dumps(message)
    relayed: dict[str, Any] = {
        "type": "match.relay",
        "group": group,
        "text": text,
        "exclude": exclude,
        "audience": audience,
    }
    if isinstance(message, outbound.Aim):
        relayed["aim"] = True
    await hub.publish(layer, relayed)


async def lobby_publish(matches: list[dict[str, Any]] | None = None) -> None:
    """Push the current open-matches list to every lobby socket (computed once, here)."""
    layer = get_channel_layer()
    if layer is None:
        return
    if matches is None:
        matches = await db_async(HOOKS.lobby_matches)()
    text = outbound.dumps(outbound.Matches(matches))
    await hub.publish(layer, {"type": "match.relay", "group": LOBBY_GROUP, "text": text, "exclude": None})


#: Match events a tournament's live page hears of: a started or finished match changes the round, the
#: standings or both; a scored shot changes the score shown.
TOURNAMENT_EVENTS = ("started", "shot", "finished", "notice")
#: match id -> tournament id (None: not a tournament match). A match's pairing is made with the match,
#: before any event of it, so a cached answer stays true; bounded so it cannot grow without end.
_TOURNAMENT_OF: dict[str, int | None] = {}
_TOURNAMENT_CACHE_SIZE = 4096


def tournament_group(tournament_id: int) -> str:
    return f"tournament.{tournament_id}"


async def _tournament_of(match_id: str) -> int | None:
    if match_id not in _TOURNAMENT_OF:
        if len(_TOURNAMENT_OF) >= _TOURNAMENT_CACHE_SIZE:
            _TOURNAMENT_OF.clear()
        _TOURNAMENT_OF[match_id] = await db_async(HOOKS.tournament_of_match)(match_id=match_id)
    return _TOURNAMENT_OF[match_id]


async def tournament_publish(
    tournament_id: int, *, match_id: str | None = None, events: list[dict[str, Any]] | None = None
) -> None:
    """Tell a tournament's pages that it changed: `tournament {match, scores, status}`. The page shows
    a live score from it and reloads its standings and rounds when a match starts or ends."""
    layer = get_channel_layer()
    if layer is None:
        return
    last = sorted(events or [], key=lambda e: e["v"])[-1] if events else None
    state = ((last or {}).get("d") or {}).get("state") or {}
    scores = [p.get("score", 0) for p in state.get("players", [])] if isinstance(state, dict) else []
    message = outbound.Tournament(
        last["t"] if last else "round",
        match=match_id,
        scores=scores,
        reload=last is None or any(e.get("t") in ("started", "finished") for e in events or []),
    )
    text = outbound.dumps(message)
    await hub.publish(
        layer, {"type": "match.relay", "group": tournament_group(tournament_id), "text": text, "exclude": None}
    )


def tournament_publish_sync(tournament_id: int) -> None:
    """For views: a tournament changed (entries, a fixed result, a closed registration)."""
    async_to_sync(tournament_publish)(tournament_id)


# --- real games (game/realgames) ----------------------------------------------------------------------


def realgame_group(game_id: int) -> str:
    return f"realgame.{game_id}"


def realtable_group(table_id: int) -> str:
    """A table's scorers: they follow whatever game is on the table, the next one too."""
    return f"realtable.{table_id}"


def realgames_event_group(tournament_id: int) -> str:
    """Every real game of one event (its live and TV pages)."""
    return f"realgames.event.{tournament_id}"


async def realgame_publish(groups: list[str], message: outbound.Message) -> None:
    """One real game's message to the groups that follow it (encoded once)."""
    layer = get_channel_layer()
    if layer is None:
        return
    text = outbound.dumps(message)
    for group in groups:
        await hub.publish(layer, {"type": "match.relay", "group": group, "text": text, "exclude": None})


# --- the one duty after a commit ------------------------------------------------------------------------


async def after_commit(match_id: str, events: list[dict[str, Any]], *, lobby: bool = False, bot: bool = True) -> None:
    """What every caller does once a match's change committed (it was written nine times):
    publish its events, let the computer player act if it is now its turn (`bot`: the bot's own runner
    keeps its loop instead), and refresh the lobby when its list changed (`lobby`: a poll that fires
    many matches refreshes it once, after them)."""
    if events:
        await publish(match_id, events)
        if bot:
            HOOKS.wake_bot(match_id)
    if lobby:
        await lobby_publish()


def after_commit_sync(match_id: str, events: list[dict[str, Any]], *, lobby: bool = False) -> None:
    """`after_commit` for synchronous callers (HTTP views): publish, then refresh the lobby if it
    changed. The computer player is not woken from here: a view's thread has no event loop that
    outlives it, and the bot is woken by the page's socket when it connects and after every input."""
    if events:
        async_to_sync(publish)(match_id, events)
    if lobby:
        # Read in this thread, with the request's connection: no hop into the pool (game.common.db).
        async_to_sync(lobby_publish)(HOOKS.lobby_matches())
