"""The validators a registry's tools share: tools whose schemas are the same JSON text share one."""

from __future__ import annotations

import weakref
from typing import Generic, TypeVar

__all__ = ["Shared"]

Value = TypeVar("Value")

# Dead references are swept out once the map has grown to twice what was alive at the last sweep, and
# this many more: a registry whose tools come and go keeps a map about the size of what it holds.
SWEEP_SLACK = 64


class Shared(Generic[Value]):
    """Values by key, each held by a weak reference: a value no tool holds any more goes at once.

    A plain map of weak references, swept now and then, in place of ``weakref.WeakValueDictionary``,
    whose Python-level references and callbacks cost about a twentieth of registering a tool.
    Two threads that add the same key at once may each keep their own value: both are equal, and
    each tool is answered by the one it was given."""

    __slots__ = ("_references", "_sweep_at")

    def __init__(self) -> None:
        self._references: dict[bytes, weakref.ref[Value]] = {}
        self._sweep_at = SWEEP_SLACK

    def get(self, key: bytes) -> Value | None:
        """The value kept for ``key``, or None where there is none or it has gone."""
        reference = self._references.get(key)
        return None if reference is None else reference()

    def setdefault(self, key: bytes, value: Value) -> Value:
        """The value kept for ``key``, or ``value``, kept from now on, where there is none alive."""
        references = self._references
        kept = self.get(key)
        if kept is not None:
            return kept
        references[key] = weakref.ref(value)
        if len(references) >= self._sweep_at:
            # From a copy of the items, taken whole: another thread adding meanwhile cannot break it
            # (what it adds to the old map is not shared, and answers alike).
            alive = {key: reference for key, reference in list(references.items()) if reference() is not None}
            self._references = alive
            self._sweep_at = 2 * len(alive) + SWEEP_SLACK
        return value

    def __len__(self) -> int:
        """How many keys are held, dead references not yet swept out included."""
        return len(self._references)
