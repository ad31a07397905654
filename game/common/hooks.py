"""Typed hook slots: how a lower package calls a function a higher one provides, without importing it.

A registry is a class whose attributes are `Slot`s, each annotated with the function's type (a
`typing.Protocol` or a precise `Callable`): mypy checks what `game.apps` registers against it and
what callers pass to it. A slot read before anything was registered says which one, instead of an
`AttributeError` far from the cause.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar, overload

__all__ = ["Slot", "missing"]

F = TypeVar("F")


class Slot(Generic[F]):
    """One named function of a registry: set once by the wiring (game/apps.py), read by the package."""

    name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name
        self.owner = owner.__name__

    @overload
    def __get__(self, instance: None, owner: type) -> Slot[F]: ...

    @overload
    def __get__(self, instance: object, owner: type) -> F: ...

    def __get__(self, instance: object | None, owner: type) -> Slot[F] | F:
        if instance is None:
            return self
        try:
            found: F = instance.__dict__[self.name]
        except KeyError:
            raise RuntimeError(f"hook {self.owner}.{self.name} is not registered (game.apps registers it)") from None
        return found

    def __set__(self, instance: object, function: F) -> None:
        instance.__dict__[self.name] = function


def missing(registry: object) -> list[str]:
    """The slots of `registry` nobody registered (none once the app is ready)."""
    slots = [name for name, value in vars(type(registry)).items() if isinstance(value, Slot)]
    registered: dict[str, Any] = vars(registry)
    return [name for name in slots if name not in registered]
