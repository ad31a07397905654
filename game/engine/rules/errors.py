"""The one exception the rules raise for a refused input.

Every input the match refuses (a wrong player, a bad call, an illegal placement, a strike the physics
cannot play) raises :class:`RuleError` and leaves the match untouched, so the online layer can answer
``error {code, message}`` without special cases.
"""

from __future__ import annotations

from typing import Any

from game.engine.rules import words


class RuleError(ValueError):
    """A refused input: ``code`` is a short snake_case key for programs, ``message`` text for players.

    A refusal made by :func:`refuse` says its words only when someone reads ``message`` (or prints the
    error): the constraints try a few dozen calls per position to find the legal ones and most of the
    refused ones are never read (the words were about a fifth of the constraints' time, and the
    constraints up to a third of a placement's CPU on the server)."""

    def __init__(
        self, code: str, message: str | None = None, key: str | None = None, params: dict[str, Any] | None = None
    ) -> None:
        super().__init__(code)
        self.code = code
        self._message = message
        #: The refusal's key and params in the words' catalogues (None for malformed input, answered in
        #: English for developers): the online layer says it again in the reader's language.
        self.key = key
        self.params = params

    @property
    def message(self) -> str:
        if self._message is None:
            self._message = self.code if self.key is None else words.refusal(self.key, self.params)
        return self._message

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


def refuse(code: str, key: str | None = None, **params: Any) -> RuleError:
    """A RuleError whose message is made in :mod:`game.engine.rules.words` from ``key`` (default: the
    code) and ``params``, when it is first read: the one home of the words players read."""
    return RuleError(code, None, key or code, dict(params))
