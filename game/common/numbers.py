"""A whole number as a person types it or a file gives it: the digits 0 to 9, an optional minus.

The one reader of typed numbers, for every domain: an event file's values (game/tournaments/values.py
names the field and the value in its refusal), the forms' number fields (game/common/forms.py:
`WholeNumberField`). Python's `int()`, and so Django's `IntegerField`, reads any script's decimal
digits ('٣' is 3, '３' is 3) and underscores ('1_000'), and `str.isdigit()` also takes '²', which
`int()` then refuses: none of them is a number a person meant to type here. A range is the caller's to
check; a number of thousands of digits is refused here, before Python refuses to read it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from django.utils.translation import gettext, gettext_noop

#: The digits a number may have (leading zeros aside): more is never a value Kaiza takes.
MOST_DIGITS = 18
_WHOLE = re.compile(r"[-\u2212]?[0-9]+", re.ASCII)

#: The characters of a refused value quoted back to the reader.
SHOWN = 40

#: The rules a refused number breaks, marked for translation and worded where they are shown.
ASCII_DIGITS = gettext_noop("a whole number is written with the digits 0 to 9")
TOO_MANY_DIGITS = gettext_noop("a number here has at most %(most)s digits")


class NotAWholeNumber(ValueError):
    """`text` is not a whole number: `rule` (English, marked) with its `params` says why."""

    def __init__(self, text: str, rule: str, params: Mapping[str, object] | None = None) -> None:
        super().__init__(f"{text!r}: {rule}")
        self.text = text
        self.rule = rule
        self.params: dict[str, object] = dict(params or {})

    def rule_words(self) -> str:
        """The rule in the active language."""
        said = gettext(self.rule)
        return said % self.params if self.params else said


def shown(value: object) -> str:
    """`value` quoted for a refusal, cut to SHOWN characters (a 5,000-digit score is not repeated)."""
    text = str(value)
    if len(text) > SHOWN:
        text = f"{text[:SHOWN]}… ({len(text):,} characters)"
    return f"'{text}'"


def whole_number(text: str | None) -> int | None:
    """`text` as a whole number written with the digits 0-9 and an optional minus ('-' or '−'), spaces
    around it ignored; None if blank. NotAWholeNumber for anything else."""
    if text and len(text) <= MOST_DIGITS and text.isascii() and text.isdigit():
        return int(text)  # the common case, read at once
    text = (text or "").strip()
    if not text:
        return None
    if not _WHOLE.fullmatch(text):
        raise NotAWholeNumber(text, ASCII_DIGITS)
    if len(text.lstrip("-\u2212").lstrip("0")) > MOST_DIGITS:
        raise NotAWholeNumber(text, TOO_MANY_DIGITS, {"most": MOST_DIGITS})
    return int(text.replace("\u2212", "-"))
