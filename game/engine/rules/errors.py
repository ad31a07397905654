"""The one exception the rules raise for a refused input.

Every input the match refuses (a wrong player, a bad call, an illegal placement, a strike the physics
cannot play) raises :class:`RuleError` and leaves the match untouched, so the online layer can answer
``error {code, message}`` without special cases.
"""

from __future__ import annotations

from typing import Any

from game.engine.rules import words


class RuleError(ValueError):
    """A refused input: ``code`` is a short snake_case key for programs, ``message`` text for players."""

    def __init__(self, code: str, message: str, key: str | None = None, params: dict[str, Any] | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        #: The refusal's key and params in the words' catalogues (None for malformed input, answered in
        #: English for developers): the online layer says it again in the reader's language.
        self.key = key
        self.params = params

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


def refuse(code: str, key: str | None = None, **params: Any) -> RuleError:
    """A RuleError whose message is made in :mod:`game.engine.rules.words` from ``key`` (default: the
    code) and ``params``: the one home of the words players read."""
    return RuleError(code, words.refusal(key or code, params), key or code, dict(params))
