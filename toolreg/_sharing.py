"""The validators a registry's tools share: tools whose schemas are the same JSON text share one."""

from __future__ import annotations

import functools
import weakref
from typing import Any, Generic, TypeVar

__all__ = ["WeakValues"]

Value = TypeVar("Value")


class _KeyedReference(weakref.ref):  # type: ignore[type-arg]
    """A weak reference that knows its key, set once made: a subclass with no Python ``__new__`` or
    ``__init__`` of its own, which are what make ``weakref.KeyedRef`` slow to create."""

    __slots__ = ("key",)
    key: bytes


class WeakValues(Generic[Value]):
    """Values by key (a schema's bytes), each held by a weak reference: a value no tool holds any more
    goes at once, and its key with it.

    ``weakref.WeakValueDictionary`` does the same with references and callbacks made in Python, which
    cost about a twentieth of registering a tool; here one callback serves every reference, and it
    reaches the map through a weak reference of its own, so that no loop of references keeps the map.
    Two threads that add the same key at once may each keep their own value: both are equal, and each
    tool is answered by the one it was given."""

    __slots__ = ("_references", "_forget", "__weakref__")

    def __init__(self) -> None:
        self._references: dict[bytes, _KeyedReference] = {}
        self._forget = functools.partial(_forget, weakref.ref(self))

    def get(self, key: bytes) -> Value | None:
        """The value kept for ``key``, or None where there is none or it has gone."""
        reference = self._references.get(key)
        return None if reference is None else reference()

    def setdefault(self, key: bytes, value: Value) -> Value:
        """The value kept for ``key``, or ``value``, kept from now on, where there is none alive."""
        kept = self.get(key)
        if kept is not None:
            return kept
        reference = _KeyedReference(value, self._forget)
        reference.key = key
        self._references[key] = reference
        return value


def _forget(values: weakref.ref[WeakValues[Any]], gone: _KeyedReference) -> None:
    """Take the key of a value that has gone out of its map, unless it stands for another by now.
    Called wherever the value's last holder let it go, under whatever lock that holder keeps: it takes
    none, and each of its steps on the map is one step of the dict's own."""
    held = values()
    if held is not None and held._references.get(gone.key) is gone:
        # Another thread may put a new value under the key between these two steps: it is then taken
        # out too, and the next tool with that schema compiles its own, which answers alike.
        held._references.pop(gone.key, None)
