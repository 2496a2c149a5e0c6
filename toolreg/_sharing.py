"""The validators a registry's tools share: tools whose schemas are the same JSON text share one."""

from __future__ import annotations

import weakref
from typing import Generic, TypeVar

__all__ = ["Shared"]

Value = TypeVar("Value")

# What a key costs the map beyond its bytes: the bytes object, the map's slot and the reference.
ENTRY_BYTES = 200
# How much the keys added since the last sweep may cost past what the live ones cost then, before the
# dead references are swept out: a registry whose tools come and go holds at most about twice what it
# keeps alive, and this much more.
SWEEP_SLACK_BYTES = 1 << 20


class Shared(Generic[Value]):
    """Values by key (a schema's bytes), each held by a weak reference: a value no tool holds any more
    goes at once, and its key with the next sweep.

    A plain map of weak references, swept now and then, in place of ``weakref.WeakValueDictionary``,
    whose Python-level references and callbacks cost about a twentieth of registering a tool. The
    sweep is counted in bytes, a key's and ``ENTRY_BYTES``, so that the keys of large schemas swept
    late cost no more than small ones. Two threads that add the same key at once may each keep their
    own value: both are equal, and each tool is answered by the one it was given."""

    __slots__ = ("_references", "_added", "_allowance")

    def __init__(self) -> None:
        self._references: dict[bytes, weakref.ref[Value]] = {}
        self._added = 0  # the cost of the keys added since the last sweep
        self._allowance = SWEEP_SLACK_BYTES

    def get(self, key: bytes) -> Value | None:
        """The value kept for ``key``, or None where there is none or it has gone."""
        reference = self._references.get(key)
        return None if reference is None else reference()

    def setdefault(self, key: bytes, value: Value) -> Value:
        """The value kept for ``key``, or ``value``, kept from now on, where there is none alive."""
        kept = self.get(key)
        if kept is not None:
            return kept
        self._references[key] = weakref.ref(value)
        self._added += len(key) + ENTRY_BYTES
        if self._added > self._allowance:
            # From a copy of the items, taken whole: another thread adding meanwhile cannot break it
            # (what it adds to the old map is not shared, and answers alike).
            alive = {
                each: reference
                for each, reference in list(self._references.items())
                if reference() is not None
            }
            self._references = alive
            self._added = 0
            self._allowance = sum(len(each) + ENTRY_BYTES for each in alive) + SWEEP_SLACK_BYTES
        return value
