"""What the generated code calls: the names its namespace starts with, and the functions behind them.

The writer (``writer``, ``kinds``) only ever writes these names into the source; ``namespace``
binds them, afresh for each module generated. Constants of the schema (property names, enum values,
compiled patterns, the reference checks) are added to it under fresh names as the code is written
(see ``source.Source.constant``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from ..errors import ValidationError, deferred_error
from ..findings import Failed, Findings, OverBudget, Place, Verdict, spent
from ..pointer import InstanceKey
from ..room import with_room

__all__ = ["namespace", "NotPlainJSON", "Refusing", "long_text", "passes", "plain_json"]

_SCALARS = frozenset({str, int, bool, type(None)})


class NotPlainJSON(Exception):
    """Raised by generated code on a value it cannot vouch for; the reference walk takes over."""


def long_text() -> bool:
    """Where the generated code counts no steps: a text whose search would cost more of them than the
    work bound took a search to (see ``regex.UNCOUNTED_STEPS``); the reference walk answers."""
    raise NotPlainJSON


def plain_json(
    value: Any, levels: int, findings: Findings | None = None, allowance: list[int] | None = None
) -> bool:
    """True when ``value`` is JSON made of exact built-in types, finite floats and string keys,
    with containers nested at most ``levels`` deep.

    With ``findings``, its memo holds how deep each array and object found plain nests, so that none
    is walked again: at each level of a recursive schema, or for each of many subschemas applied to
    it in place, that would cost the size of the value each time. With ``allowance`` (the generated
    code's first walk, see ``room``), each array and object walked spends its length from
    ``allowance[0]``, and past it the answer is False, as for a value nested too deep: the entry then
    walks the value again with room, where a reference check it is handed to may loop over it.
    """
    if findings is not None:
        return _plain_depth(value, levels, findings.memo().plain, allowance) >= 0
    kind = type(value)
    if kind in _SCALARS:
        return True
    if kind is float:
        return bool(value - value == 0)  # False for NaN and the infinities
    if levels <= 0:
        return False
    if kind is dict:
        if not all(type(key) is str for key in value):
            return False
        items: Any = value.values()
    elif kind is list:
        items = value
    else:
        return False
    if allowance is not None:
        allowance[0] -= len(value)
        if allowance[0] < 0:
            return False
    # Scalars are tested here rather than in a call each: an array of a million numbers is one loop.
    for item in items:
        kind = type(item)
        if kind in _SCALARS:
            continue
        if kind is float:
            if item - item != 0:
                return False
        elif not plain_json(item, levels - 1, None, allowance):
            return False
    return True


def _plain_depth(value: Any, levels: int, known: dict[int, int], allowance: list[int] | None) -> int:
    """How deep ``value`` nests (0 for a scalar) if it is plain JSON within ``levels`` (and, walked
    first, within ``allowance``: see plain_json), else -1."""
    kind = type(value)
    if kind in _SCALARS:
        return 0
    if kind is float:
        return 0 if value - value == 0 else -1
    if levels <= 0:
        return -1
    depth = known.get(id(value))
    if depth is not None:
        return depth if depth <= levels else -1
    if kind is dict:
        if not all(type(key) is str for key in value):
            return -1
        items: Any = value.values()
    elif kind is list:
        items = value
    else:
        return -1
    if allowance is not None:
        allowance[0] -= len(value)
        if allowance[0] < 0:
            return -1
    deepest = 0
    for item in items:
        below = _plain_depth(item, levels - 1, known, allowance)
        if below < 0:
            return -1
        deepest = max(deepest, below)
    known[id(value)] = deepest + 1
    return deepest + 1


class Refusing(list[ValidationError]):
    """The errors of a yes/no answer whose schema counts no steps (a Verdict needs a budget): the
    reference checks it calls stop at their first error, which raises Failed."""

    __slots__ = ()

    def append(self, error: ValidationError) -> None:
        raise Failed


def passes(
    function: Callable[..., bool], value: Any, path: Place, errors: Any, depth: int, allowance: list[int]
) -> bool:
    """Whether ``value`` passes a branch's generated function in a yes/no answer, which returns
    False at its first failure, or raises Failed from a reference check it calls."""
    try:
        return function(value, path, errors, depth, allowance)
    except Failed:
        return False


def namespace() -> dict[str, Any]:
    """Every name the writer writes that it did not make itself, bound to what it stands for now.
    (The front's own names, OK, otherwise and limits, are added where a front is written.)"""
    return {
        "NotPlainJSON": NotPlainJSON,
        "plain": plain_json,
        "K": InstanceKey,
        "Findings": Findings,
        "OverBudget": OverBudget,
        "spent": spent,
        "Verdict": Verdict,
        "Failed": Failed,
        "Refusing": Refusing,
        "passes": passes,
        "with_room": with_room,
        "partial": functools.partial,
        "E": deferred_error,
        "long_text": long_text,
    }
