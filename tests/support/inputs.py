"""A player's typed inputs (game.realtime.protocol's play messages) from the dict forms the tests keep,
through the engine's own parse (parse_call, parse_strike), for `match_input`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from game.engine.rules import parse_call, parse_strike
from game.realtime import protocol


def lag(strike: Mapping[str, Any], *, ack: int | None = None, v: int | None = None) -> protocol.Lag:
    return protocol.Lag(ack=ack, v=v, strike=parse_strike(strike))


def shoot(
    call: Mapping[str, Any], strike: Mapping[str, Any], *, ack: int | None = None, v: int | None = None
) -> protocol.Shoot:
    return protocol.Shoot(ack=ack, v=v, call=parse_call(call), strike=parse_strike(strike))


def place(ball: str, x: float, y: float, *, ack: int | None = None, v: int | None = None) -> protocol.Place:
    return protocol.Place(ack=ack, v=v, ball=ball, x=x, y=y)


def choose_break(take: bool, *, ack: int | None = None, v: int | None = None) -> protocol.ChooseBreak:
    return protocol.ChooseBreak(ack=ack, v=v, take=take)


def bot_move(move: Mapping[str, Any]) -> protocol.MatchInput:
    """A bot's move (game.engine.bot.choose_move) as its input."""
    action = move["action"]
    if action == "lag":
        return lag(move["strike"])
    if action == "choose_break":
        return choose_break(move["take"])
    if action == "place":
        return place(move["ball"], move["x"], move["y"])
    return shoot(move["call"], move["strike"])
