"""Path converters for the parameters of the game's URLs: a parameter that cannot be valid is a 404
before any view or query sees it (an upper-case match id, a NUL in a player's name: PostgreSQL refuses
NUL in a query, which made `/players/%00/` a server error)."""

from __future__ import annotations

from django.urls import register_converter

#: What a match id in a URL may look like (the models' alphabet, and longer than new ids: older ids were
#: up to 16 characters).
MATCH_ID_PATTERN = "[a-z0-9]{1,16}"


class MatchIdConverter:
    regex = MATCH_ID_PATTERN

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


class NameConverter:
    """A display name in a URL: anything but a slash or a control character."""

    regex = r"[^/\x00-\x1f\x7f]+"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


def register() -> None:
    """Called once from game.apps.GameConfig.ready, before any URL pattern is read (the URL conf is
    loaded lazily, after the apps are ready): the wiring is explicit, not an import's side effect."""
    register_converter(MatchIdConverter, "matchid")
    register_converter(NameConverter, "name")
