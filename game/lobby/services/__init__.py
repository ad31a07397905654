"""Writes of the lobby: quick pairing's seeks (`seeks`) and the challenges between players
(`challenges`). What other domains use of them is named here (tests/architecture)."""

from game.lobby.services.seeks import SEEK_TIME_LIMITS

__all__ = ["SEEK_TIME_LIMITS"]
