"""Points for a fulfilled call (K-5) and the plain-white end rule (K-9.2).

The formula of K-5.3 is kept as a formula (base + sum of carom values) rather than a lookup table, so
the ``kaisa_carom_base`` flag and the carom values of the ruleset change every row at once; the tests
check it against every row of the inherited table.
"""

from __future__ import annotations

from collections.abc import Sequence

from game.engine.rules.names import ball_kind
from game.engine.rules.ruleset import Ruleset


def carom_value(ball: str, ruleset: Ruleset) -> int:
    """K-5.2: opponent's white 2, red 3, kaisa 6."""
    kind = ball_kind(ball)
    if kind == "white":
        return ruleset.carom_white
    if kind == "red":
        return ruleset.carom_red
    return ruleset.carom_kaisa


def first_hit_value(ball: str | None, ruleset: Ruleset) -> int:
    """K-8.1: the penalty for an own cue ball pocketed: the first ball hit's value, 2 if none."""
    if ball is None:
        return ruleset.no_hit_penalty
    return carom_value(ball, ruleset)


def call_points(
    ball: str, caroms: Sequence[str], ruleset: Ruleset, *, via: str | None = None, object_cushions: int = 0
) -> int:
    """K-5.3 to K-5.5: points for the called ``ball`` pocketed with the carom set ``caroms``.

    A called kiss or combination scores the ball's plain value only (K-5.4); a kaisa off cushions or by
    a combination scores its plain value plus ``kaisa_bank_bonus`` (K-5.5), caroms not added.
    """
    kind = ball_kind(ball)
    if via is not None:
        caroms = ()
    if kind == "kaisa" and (object_cushions > 0 or via is not None):
        return ruleset.kaisa_plain + ruleset.kaisa_bank_bonus
    carom_sum = sum(carom_value(b, ruleset) for b in caroms)
    if kind == "white":
        return ruleset.white_plain if not caroms else ruleset.white_carom_base + carom_sum
    if kind == "red":
        return ruleset.red_base + carom_sum
    return ruleset.kaisa_plain if not caroms else ruleset.kaisa_carom_base + carom_sum


def is_plain_white(ball: str, caroms: Sequence[str], via: str | None) -> bool:
    """K-9.2: the opponent's white potted with no carom (and no kiss or combination)."""
    return ball_kind(ball) == "white" and not caroms and via is None


def kaisa_bank_rule(ball: str, via: str | None, object_cushions: int) -> bool:
    """True when K-5.5 (not K-5.3) prices the shot."""
    return ball_kind(ball) == "kaisa" and (object_cushions > 0 or via is not None)
