"""The one reader of the server's numeric knobs that a deployment may set either in the Django settings
or in the environment (``KAIZA_BOT_WORKERS``, ``KAIZA_BOT_PACE``, ``KAIZA_ANALYSIS_SAMPLES``, ...).

Why one reader: the engine pool, the computer player and the match analysis each had their own copy of
"settings first, then the environment, a default when neither or when the value is not a number", and
the copies had drifted (one took ``"2.0"`` workers, another refused ``"2.0"`` samples). The settings win
because the tests set them (``settings.KAIZA_BOT_WORKERS = 1``); the environment is how a server's
process is told (``KAIZA_BOT_WORKERS=2 daphne ...``). A value that is not a number is logged and the
default used: a typo in a deployment's environment must not stop the server from starting.
"""

from __future__ import annotations

import logging
import math
import os

from django.conf import settings

logger = logging.getLogger(__name__)


def setting_number(name: str, default: float, *, minimum: float | None = None) -> float:
    """``settings.<name>``, else the environment's ``name``, as a number; ``default`` when neither is
    set or the value is not a finite number; never below ``minimum`` when one is given."""
    value = getattr(settings, name, None)
    if value is None:
        value = os.environ.get(name)
    number = default
    if value is not None:
        try:
            number = float(value)
        except (TypeError, ValueError):
            number = math.nan
        if not math.isfinite(number):
            logger.warning("%s=%r is not a number: %s is used", name, value, default)
            number = default
    return number if minimum is None else max(minimum, number)


def setting_int(name: str, default: int, *, minimum: int | None = None) -> int:
    """:func:`setting_number` as a whole number (a fraction is cut: ``"2.0"`` and ``"2.5"`` are 2)."""
    return int(setting_number(name, default, minimum=minimum))
