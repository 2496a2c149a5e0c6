"""Integral numbers handed to a handler as ``int`` where the tool's schema says integer.

JSON has one kind of number: ``3.0`` is an integer to JSON Schema, and passes ``"type": "integer"``,
but ``json.loads`` reads it as a Python ``float``, which a handler written for ``int`` may not take
(``range(3.0)`` raises TypeError). Where the schema says for sure that a value is an integer, the
handler gets ``3``.
"""

from __future__ import annotations

from typing import Any

__all__ = ["integral_as_int"]

_Path = tuple[str | int, ...]


def integral_as_int(schema: Any, args: Any) -> Any:
    """``args``, which ``schema`` accepts, with each integral ``float`` where the schema says integer
    made an ``int``: a new object where any is (``args`` itself is unchanged), else ``args``.

    A schema says integer at a value where its ``type`` is ``"integer"``, or a list holding
    ``"integer"`` and not ``"number"`` (under which ``3.0`` is a number as well). The schemas read are
    the ones that surely apply to a valid value: the root, each property's under ``properties``, an
    array's ``items`` (when no ``prefixItems`` takes the first ones), and every ``allOf`` branch. A
    schema object holding ``$ref`` is not read at all (in draft-07 its other keywords do not apply),
    nor are branches that may not apply (``anyOf``, ``oneOf``, ``if``).
    """
    found: set[_Path] = set()
    stack: list[tuple[Any, Any, _Path]] = [(schema, args, ())]
    while stack:
        here, value, path = stack.pop()
        if not isinstance(here, dict) or "$ref" in here:
            continue
        branches = here.get("allOf")
        if isinstance(branches, list):
            stack.extend((branch, value, path) for branch in branches)
        properties, items = here.get("properties"), here.get("items")
        if isinstance(value, float):
            if value.is_integer() and _says_integer(here.get("type")):
                found.add(path)
        elif isinstance(value, dict) and isinstance(properties, dict):
            stack.extend(
                (properties[name], value[name], (*path, name)) for name in properties if name in value
            )
        elif isinstance(value, list) and isinstance(items, dict) and "prefixItems" not in here:
            stack.extend((items, item, (*path, index)) for index, item in enumerate(value))
    return _replaced(args, found) if found else args


def _says_integer(declared: Any) -> bool:
    if declared == "integer":
        return True
    return isinstance(declared, list) and "integer" in declared and "number" not in declared


def _replaced(args: Any, paths: set[_Path]) -> Any:
    """``args`` with the float at each path as an int, each container on the way copied once."""
    if () in paths:
        return int(args)
    copies: dict[_Path, Any] = {(): _copy(args)}
    for path in paths:
        parent = copies[()]
        for length in range(1, len(path)):
            prefix = path[:length]
            if prefix not in copies:
                copies[prefix] = parent[path[length - 1]] = _copy(parent[path[length - 1]])
            parent = copies[prefix]
        parent[path[-1]] = int(parent[path[-1]])
    return copies[()]


def _copy(container: Any) -> Any:
    return dict(container) if isinstance(container, dict) else list(container)
