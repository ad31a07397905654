"""The inputs a match accepts, one frozen dataclass each.

The facade (:class:`~game.engine.rules.match.Match`) turns its method arguments into one of these and
hands it to :func:`game.engine.rules.phases.apply`, which looks its type up in the current phase's
handler table. Adding an input is one dataclass here, one handler function in the phase module that
accepts it and one entry in that module's ``HANDLERS`` (docs/rules.md, "Adding an input").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from game.engine.rules.calls import Call
from game.engine.rules.strike import StrikeInput


@dataclass(frozen=True)
class Lag:
    """K-3.1 / K-11.2: play ``player``'s lag shot (``strike`` typed, or its dict form: parse_strike)."""

    player: str
    strike: StrikeInput | Mapping[str, Any]
    now: float | None = None


@dataclass(frozen=True)
class ChooseBreak:
    """K-3.2 / K-11.2: the lag winner breaks (``take``) or passes the break."""

    player: str
    take: object
    now: float | None = None


@dataclass(frozen=True)
class Place:
    """K-3.3 opening placement of white2, or K-7.1 ball in hand in the home."""

    player: str
    ball: object
    position: object
    now: float | None = None


@dataclass(frozen=True)
class Shoot:
    """A called shot (K-4) with the shooter's own white (``call`` and ``strike`` typed, or their dict
    forms: the phase parses them where it checks them, so a refusal's order stays the rules')."""

    player: str
    call: Call | Mapping[str, Any]
    strike: StrikeInput | Mapping[str, Any]
    now: float | None = None


@dataclass(frozen=True)
class TouchFoul:
    """K-8.2: the shooter touched a ball (an admin or referee action)."""

    player: str
    now: float | None = None


@dataclass(frozen=True)
class Forfeit:
    """K-9.3: ``loser`` resigned, was absent past the grace time, or ran out of time."""

    loser: str
    reason: object
    now: float | None = None


@dataclass(frozen=True)
class Tick:
    """K-11.1: the tournament clock advances to ``now``."""

    now: object


@dataclass(frozen=True)
class SetConnected:
    """Presence, kept by the online layer (not a game input: no verdict, no move counted)."""

    player: str
    connected: object


@dataclass(frozen=True)
class Abort:
    """Online: ``player`` ends the game before the first shot of the break (phases.online)."""

    player: str
    now: float | None = None


@dataclass(frozen=True)
class ExpireShotClock:
    """Online: the shot clock of ``player``, whom the rules wait for, ran out (phases.online)."""

    player: str
    now: float | None = None


@dataclass(frozen=True)
class Abandon:
    """Online: the ``absent`` players were gone past the disconnect grace (K-9.3, phases.online)."""

    absent: tuple[str, ...]
    now: float | None = None


Input = (
    Lag | ChooseBreak | Place | Shoot | TouchFoul | Forfeit | Tick | SetConnected | Abort | ExpireShotClock | Abandon
)
