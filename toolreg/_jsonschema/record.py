"""Frozen records written without ``dataclasses``, which imports ``inspect`` and with it a fifth of
what ``import toolreg`` would otherwise cost."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, NoReturn

__all__ = ["Record", "fill"]


class Record:
    """A record whose fields are its class's ``__slots__``, in that order, each set once by its
    ``__init__`` (through :func:`fill`) and read-only after: equal to a record of the same class whose
    fields are equal, hashed by its fields, shown as ``Name(field=value, ...)`` and copied or pickled
    through its constructor, as a frozen dataclass would be."""

    __slots__: tuple[str, ...] = ()
    # Each field's slot setter, in order: calling them is a third faster than object.__setattr__ by
    # name, which a table of fifty keyword rows built at import notices.
    _setters: ClassVar[tuple[Callable[[Any, Any], None], ...]] = ()

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        cls._setters = tuple(vars(cls)[name].__set__ for name in cls.__slots__)

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Record) or other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{type(self).__qualname__}({shown})"

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[type[Record], tuple[Any, ...]]:
        # The default reduction would restore each slot by assignment, which __setattr__ refuses.
        return type(self), self._values()


def fill(record: Record, *values: Any) -> None:
    """Sets ``record``'s fields, in the order of its ``__slots__``, to ``values``: for ``__init__`` alone."""
    for setter, value in zip(record._setters, values, strict=True):
        setter(record, value)
