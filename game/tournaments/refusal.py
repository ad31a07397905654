"""A refused request of the tournaments' domain, with its words: kept apart from the services so the
checks every way in shares (game/tournaments/values.py, the KaisaKaavio reader) raise it without
importing the services package."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils import translation
from django.utils.functional import Promise


class TournamentError(Exception):
    """A refused request, shown as its message (and `code` for callers and tests); nothing changed.
    `forbidden` marks a refusal for who asks (HTTP 403) rather than for what is asked (400).

    The words are English marked with `gettext_noop` (a count's with `ngettext_lazy` and a named
    number), with their placeholders in `params`; `message` is them in English, and the page that
    shows a refusal words it in its reader's language (`words()`, used by game/tournaments/views.py),
    as the match services' refusals are (docs/i18n.md). A form's refusal may hold several `parts`."""

    def __init__(
        self,
        code: str,
        message: str | Promise,
        params: Mapping[str, object] | None = None,
        *,
        forbidden: bool = False,
        more: Sequence[tuple[str | Promise, Mapping[str, object]]] = (),
    ) -> None:
        self.code = code
        self.parts: tuple[tuple[str | Promise, dict[str, object]], ...] = (
            (message, dict(params or {})),
            *((m, dict(p)) for m, p in more),
        )
        with translation.override(None):
            self.message = self.words(str)
        super().__init__(f"{code}: {self.message}")
        self.forbidden = forbidden

    def words(self, translate: Any) -> str:
        """The refusal through `translate` (gettext for a page; a counted part translates itself)."""
        return "; ".join(self.lines(translate))

    def lines(self, translate: Any) -> list[str]:
        """Each part worded on its own (a page may list them: a correction's games, one a line)."""
        shown = []
        for text, params in self.parts:
            if isinstance(text, str):
                said = translate(text)
                shown.append(said % params if params else said)
            else:  # ngettext_lazy with a named number: the params choose its form
                shown.append(str(text % params))
        return shown
