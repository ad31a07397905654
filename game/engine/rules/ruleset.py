"""The ruleset: every number and club option of kaisa-rules.md as one frozen dataclass.

Flags named in the rules file (``ball_diameter``, ``kaisa_carom_base``, ``kaisa_bank_bonus``,
``touch_penalty``, ``plain_white_at_59_passes``) and all the constants the rules read live here, so a
club variant is one ``Ruleset(...)`` and no number is scattered through the code. The ruleset is stored
in every snapshot so a stored match is judged by the rules it started with.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Any

from game.engine.rules.errors import RuleError


@dataclass(frozen=True)
class Ruleset:
    """Constants and flags; the comment after each field names its rule."""

    ball_diameter: float = 0.068  # K-1.2 flag (0.067 is the post-2016 size)
    target_score: int = 60  # K-9.1
    carom_white: int = 2  # K-5.2 opponent's white
    carom_red: int = 3  # K-5.2
    carom_kaisa: int = 6  # K-5.2
    white_plain: int = 2  # K-5.3 opponent's white, no carom
    white_carom_base: int = 1  # K-5.3 opponent's white with caroms: 1 + S
    red_base: int = 3  # K-5.3
    kaisa_plain: int = 6  # K-5.3
    kaisa_carom_base: int = 9  # K-5.3 flag: 9, or 6 for plain addition
    kaisa_bank_bonus: int = 0  # K-5.5 flag: 6 makes a banked kaisa 12
    touch_penalty: int = 0  # K-8.2 flag
    no_hit_penalty: int = 2  # K-8.1 own cue ball pocketed without hitting a ball
    plain_white_at_59_passes: bool = True  # K-9.2 flag
    plain_white_pass_score: int = 59  # K-9.2: from this score before the shot a plain white passes
    lag_tie_tolerance: float = 0.001  # K-3.1: equal distance within 1 mm
    corridor_width: float = 2.0  # K-3.3: opening corridor width in ball diameters
    time_limit: float = 3900.0  # K-11.1: 60 + 5 minutes, seconds
    time_warning: float = 3600.0  # K-11.1: the warning at 60 minutes
    extra_visits_each: int = 2  # K-11.1
    shootout_visits: int = 10  # K-11.4 visits each
    shootout_pot_points: int = 6  # K-11.3
    shootout_penalty: int = 6  # K-11.3

    def as_dict(self) -> dict[str, Any]:
        # Every field is a number or a flag: a flat dict in field order is what `asdict` gives, without
        # its deep copy (this runs for every snapshot the server writes).
        return {name: getattr(self, name) for name in _FIELD_NAMES}

    @classmethod
    def from_dict(cls, data: object) -> Ruleset:
        """Build a ruleset from a snapshot's ``ruleset``; missing fields default, junk is refused.

        Every snapshot read builds one (once per input on the server) and a site has few distinct
        rulesets, so a valid one is kept by its items: the same items give the same frozen ruleset. The
        key is each value's ``repr``, which tells ``True``, ``1`` and ``1.0`` apart, and ``-0.0`` from
        ``0.0`` (equal, yet written back differently: a snapshot must read back bit for bit)."""
        if data is None:
            return cls()
        if isinstance(data, Ruleset):
            return data
        if not isinstance(data, dict):
            raise RuleError("bad_ruleset", "the ruleset must be an object")
        try:
            key = tuple((name, repr(value)) for name, value in sorted(data.items()))
        except TypeError:  # names that do not sort: refused by the full check
            return cls._checked(data)
        ruleset = _BUILT.get(key)
        if ruleset is None:
            ruleset = cls._checked(data)
            if len(_BUILT) < _BUILT_LIMIT:
                _BUILT[key] = ruleset
        return ruleset

    @classmethod
    def _checked(cls, data: dict[Any, Any]) -> Ruleset:
        known = {f.name: f for f in fields(cls)}
        values: dict[str, Any] = {}
        for key in sorted(data):
            if key not in known:
                raise RuleError("bad_ruleset", f"unknown ruleset field {key!r}")
            values[key] = _field_value(key, getattr(cls, key), data[key])
        ruleset = cls(**values)
        if not 0.05 <= ruleset.ball_diameter <= 0.08:
            raise RuleError("bad_ruleset", "ball_diameter must be between 0.05 and 0.08 m")
        if ruleset.time_warning > ruleset.time_limit or ruleset.time_limit <= 0:
            raise RuleError("bad_ruleset", "time_warning must not come after a positive time_limit")
        if ruleset.extra_visits_each < 0 or ruleset.shootout_visits < 1 or ruleset.target_score < 1:
            raise RuleError("bad_ruleset", "extra visits are 0 or more, shoot-out visits and the target 1 or more")
        return ruleset


def _field_value(key: str, default: object, value: object) -> object:
    """A ruleset field's value, of its default's type: a boolean, an integer, or a finite number (as a
    float)."""
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise RuleError("bad_ruleset", f"ruleset field {key} must be true or false")
        return value
    if isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise RuleError("bad_ruleset", f"ruleset field {key} must be an integer")
        return value
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise RuleError("bad_ruleset", f"ruleset field {key} must be a finite number")
    return float(value)


#: The ruleset's field names in order (`Ruleset.as_dict`).
_FIELD_NAMES = tuple(f.name for f in fields(Ruleset))


#: Valid rulesets by their items' reprs (`Ruleset.from_dict`); at most `_BUILT_LIMIT`, never evicted, so
#: hand-written positions with odd rulesets cannot grow it.
_BUILT: dict[tuple[tuple[str, str], ...], Ruleset] = {}
_BUILT_LIMIT = 64
