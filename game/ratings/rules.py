"""Every threshold of rating integrity in one place, each with the reason for it.

`game/ratings/selectors.py` decides with them, `game/ratings/services.py` caps with them, the
admin's farm flag uses `farm_shots`, and the ratings page (`/ratings/`) states them in words. A site may
override any of them in `settings.KAIZA_RATING_RULES` (a dict of field name -> value; tests do not need
to: they make their accounts established with `tests/support/community_factories.establish`).

Why these numbers (tried as an attacker): a farm of fresh accounts, each playing its own two
shots of a rated match and resigning, took a main account from 1500 to 1886 in five minutes. Shots cost
nothing; time and finished games are what a throwaway lacks. So a result moves ratings only between two
*established* accounts, and what an established account can still win from opponents whose rating is
not yet known (provisional, Glicko-2 deviation above `glicko2.PROVISIONAL_DEVIATION`) is capped per day.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from datetime import timedelta

from django.conf import settings

__all__ = ["RatingRules", "rating_rules"]


@dataclass(frozen=True)
class RatingRules:
    """The thresholds; the defaults are Kaiza's. Read them through `rating_rules()`."""

    min_shots: int = 2
    """A rated match's loser must have played this many shots of their own, unless the match ended by
    play (the target or the time limit): a resignation at the first move proves nothing."""

    pair_daily_limit: int = 3
    """Rated results between the same two players in `pair_window`: more are kept unrated, so two
    friends cannot trade wins all evening."""

    pair_window: timedelta = timedelta(hours=24)
    """The window of `pair_daily_limit`."""

    established_age: timedelta = timedelta(days=3)
    """An account younger than this (since it was made: a guest's account counts from the guest's first
    visit, the same user row) moves no rating and is moved by none. Making accounts is free; waiting
    three days for each is what a farm cannot do in a minute."""

    established_games: int = 3
    """Finished games (casual, against the computer or rated) an account must have played, each with
    at least `established_own_shots` shots of its own, before its results are rated: an account that has
    never really played cannot lose on purpose and count."""

    established_own_shots: int = 5
    """Shots of one's own that make a finished game count towards `established_games`: a real game, not
    two strokes and a resignation (the farm's pattern)."""

    provisional_gain_cap: float = 50.0
    """Rating points an account may gain in `provisional_gain_window` from results against opponents
    whose rating is provisional (not yet known: a new account's, or one that has not played for a long
    time). An established throwaway is provisional; without the cap each would give its winner over a
    hundred points (1500 -> 1662 for the first). Losses are not capped; gains against known ratings are
    not capped."""

    provisional_gain_window: timedelta = timedelta(hours=24)
    """The window of `provisional_gain_cap`."""

    farm_shots: int = 3
    """The admin's "resign farming" flag: an account whose rated losses are all resignations (or
    forfeits) before this many shots of its own is flagged, with the players who won against it."""

    @property
    def established_days(self) -> int:
        """`established_age` in whole days, for the words on the ratings page."""
        return max(1, round(self.established_age / timedelta(days=1)))


def rating_rules() -> RatingRules:
    """Kaiza's thresholds with `settings.KAIZA_RATING_RULES`'s overrides (unknown names are an error
    at the first use, not silently ignored)."""
    overrides = dict(getattr(settings, "KAIZA_RATING_RULES", {}) or {})
    known = {f.name for f in fields(RatingRules)}
    unknown = sorted(set(overrides) - known)
    if unknown:
        raise ValueError(f"KAIZA_RATING_RULES: unknown rating rules {unknown}")
    return RatingRules(**overrides)
