"""Edge values, keyword by keyword: instances placed where a schema's keywords are most easily misread.

Random instances find a validator that reads JSON as Python does only by luck: ``1.0`` where an
integer is asked for, ``"7"`` where a number is, a string of astral characters at a length bound,
an object missing a required property three levels down. Here each keyword names the values at its
edges, and :func:`edge_instances` places them, one at a time, at every place of an instance that a
subschema using the keyword applies to, found by walking the schema as the instance would be.
"""

from __future__ import annotations

import json
import math
import unicodedata
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any
from urllib.parse import unquote

from toolreg._jsonschema.pointer import split

__all__ = ["EDGES", "TYPE_EDGES", "json_twins", "sites", "edge_instances"]

Path = tuple[str | int, ...]

ASTRAL = "😀"  # one code point; two UTF-16 units, four UTF-8 bytes
ACCENTED = "é"  # one code point; one UTF-16 unit, two UTF-8 bytes
COMBINING = "e\u0301"  # two code points, one character to the eye

# For each type, the values a validator most often takes for it, or for another; the most telling first.
TYPE_EDGES: dict[str, tuple[Any, ...]] = {
    "integer": (1.0, "1", True, -0.0, 1e300, 1.5, 2**64),
    "number": ("7", "-0.5", False, -0.0, 5e-324, 1.7976931348623157e308, 2**70),
    "string": ("7", ASTRAL, "", 7, None),
    "boolean": (0, 1, "true"),
    "null": (0, False, "", "null"),
    "array": ({}, [], "[]"),
    "object": ([], {}, "{}"),
}

# Strings on which ECMA-262 and Python's re part: an Arabic-Indic digit, a final newline, an astral character.
PATTERN_EDGES = ("\u0664", "a\n", ASTRAL, "")

# Arrays whose items are equal as JSON, or look so to Python.
UNIQUE_EDGES: tuple[list[Any], ...] = (
    [1, 1.0], [1, True], [0, False], [0.0, -0.0], [{"a": 1}, {"a": 1.0}], [[1], [True]], ["é", "e\u0301"],
)  # fmt: skip

# Names for objects of a given size, beside the schema's own.
SPARE_NAMES = ("a", "b", "c", "d", "e")


def json_twins(value: Any) -> list[Any]:
    """Values that JSON and Python judge differently beside ``value``: ``1.0`` for ``1`` (equal as
    JSON), ``True`` for ``1`` (not equal), ``"1"`` for ``1``, ``-0.0`` for ``0``, NFD for NFC."""
    if type(value) is bool:
        return [int(value), float(value)]
    if type(value) is int:
        twins: list[Any] = [float(value)] if abs(value) <= 2**53 else []
        twins += [bool(value)] if value in (0, 1) else []
        twins += [-0.0] if value == 0 else []
        return [*twins, str(value)]
    if type(value) is float:
        twins = [int(value)] if value.is_integer() else []
        twins += [bool(value)] if value in (0.0, 1.0) else []
        twins += [-value] if value == 0 else []
        return [*twins, repr(value)]
    if isinstance(value, str):
        decomposed = unicodedata.normalize("NFD", value)
        return [decomposed] if decomposed != value else []
    if isinstance(value, (list, dict)):
        return [_leaves_twinned(value, 0), _leaves_twinned(value, 1)]
    return []


def _leaves_twinned(value: Any, which: int) -> Any:
    """``value`` with each number, boolean and string replaced by its twin ``which``, if it has one."""
    if isinstance(value, list):
        return [_leaves_twinned(item, which) for item in value]
    if isinstance(value, dict):
        return {key: _leaves_twinned(item, which) for key, item in value.items()}
    twins = json_twins(value)
    return twins[which] if which < len(twins) else value


def _counts(bound: Any) -> Iterator[int]:
    """A bound less one, the bound, and one more, as counts."""
    if type(bound) is int:
        yield from (count for count in (bound - 1, bound, bound + 1) if count >= 0)


def _types(value: Any, schema: dict[str, Any], current: Any) -> Iterator[Any]:
    for name in [value] if isinstance(value, str) else value:
        yield from TYPE_EDGES.get(name, ())


def _enum(value: Any, schema: dict[str, Any], current: Any) -> Iterator[Any]:
    for allowed in value:
        yield from _const(allowed, schema, current)


def _const(value: Any, schema: dict[str, Any], current: Any) -> Iterator[Any]:
    yield value
    yield from json_twins(value)


def _bound(value: Any, schema: dict[str, Any], current: Any) -> Iterator[Any]:
    yield value
    yield from json_twins(value)
    if type(value) is int:
        yield from (value - 1, value + 1)
    elif type(value) is float:
        yield from (math.nextafter(value, -math.inf), math.nextafter(value, math.inf))


def _multiple(value: Any, schema: dict[str, Any], current: Any) -> Iterator[Any]:
    yield from (value * 3, value * 1.5, -0.0, 1e308)
    yield from json_twins(value * 3)


def _length(value: Any, schema: dict[str, Any], current: Any) -> Iterator[str]:
    for count in _counts(value):
        yield ASTRAL * count
        yield ACCENTED * count
        yield COMBINING * (count // 2) + "a" * (count % 2)


def _size(value: Any, schema: dict[str, Any], current: Any) -> Iterator[list[Any]]:
    item = current[0] if isinstance(current, list) and current else 1.0
    for count in _counts(value):
        yield [item] * count


def _unique(value: Any, schema: dict[str, Any], current: Any) -> Iterable[list[Any]]:
    return UNIQUE_EDGES if value is True else ()


def _required(value: Any, schema: dict[str, Any], current: Any) -> Iterator[dict[str, Any]]:
    """The object with each required name missing in turn, the others there; and the empty object."""
    complete = {**dict.fromkeys(value, 1), **(current if isinstance(current, dict) else {})}
    for name in value:
        yield {key: item for key, item in complete.items() if key != name}
    yield {}


def _count_of_properties(value: Any, schema: dict[str, Any], current: Any) -> Iterator[dict[str, Any]]:
    names = list(dict.fromkeys([*schema.get("properties", {}), *SPARE_NAMES]))
    for count in _counts(value):
        yield dict.fromkeys(names[:count], 1)


def _dependent_required(value: Any, schema: dict[str, Any], current: Any) -> Iterator[dict[str, Any]]:
    for name, needed in value.items():
        yield {name: 1}
        yield {name: 1, **dict.fromkeys(needed, 1)}


def _pattern(value: Any, schema: dict[str, Any], current: Any) -> Iterable[str]:
    return PATTERN_EDGES


# For each keyword with edges: (its value, the schema object holding it, the instance's value there,
# if any) to the values to try there.
EDGES: dict[str, Callable[[Any, dict[str, Any], Any], Iterable[Any]]] = {
    "type": _types,
    "enum": _enum,
    "const": _const,
    "minimum": _bound,
    "maximum": _bound,
    "exclusiveMinimum": _bound,
    "exclusiveMaximum": _bound,
    "multipleOf": _multiple,
    "minLength": _length,
    "maxLength": _length,
    "pattern": _pattern,
    "minItems": _size,
    "maxItems": _size,
    "uniqueItems": _unique,
    "required": _required,
    "minProperties": _count_of_properties,
    "maxProperties": _count_of_properties,
    "dependentRequired": _dependent_required,
}

# Subschemas that apply to the instance itself, and those that apply to a part of it.
_IN_PLACE_ONE = ("not", "if", "then", "else")
_IN_PLACE_LIST = ("allOf", "anyOf", "oneOf")
# How deep into the instance edges are placed, and how many references a walk follows.
MAX_DEPTH = 4
MAX_REFERENCES = 3


def sites(schema: Any) -> Iterator[tuple[Path, dict[str, Any]]]:
    """Each object schema of ``schema`` with the instance path it applies to, shallowest first,
    following local references; an object schema reached at several paths is given at each."""
    pending: deque[tuple[Path, Any, int]] = deque([((), schema, 0)])
    seen: set[tuple[int, Path]] = set()
    while pending:
        path, node, followed = pending.popleft()
        if not isinstance(node, dict) or len(path) > MAX_DEPTH or (id(node), path) in seen:
            continue
        seen.add((id(node), path))
        yield path, node
        properties = node.get("properties", {})
        pending += [(path + (name,), child, followed) for name, child in properties.items()]
        if "additionalProperties" in node and "patternProperties" not in node:
            extra = "zz" if "zz" not in properties else "zzz"
            pending.append((path + (extra,), node["additionalProperties"], followed))
        prefix = node.get("prefixItems", [])
        pending += [(path + (index,), child, followed) for index, child in enumerate(prefix)]
        if "items" in node:
            pending.append((path + (len(prefix),), node["items"], followed))
        if "contains" in node:
            pending.append((path + (0,), node["contains"], followed))
        pending += [(path, node[keyword], followed) for keyword in _IN_PLACE_ONE if keyword in node]
        for keyword in _IN_PLACE_LIST:
            pending += [(path, child, followed) for child in node.get(keyword, [])]
        pending += [(path, child, followed) for child in node.get("dependentSchemas", {}).values()]
        for keyword in ("$ref", "$dynamicRef"):
            target = _resolved(schema, node.get(keyword))
            if target is not None and followed < MAX_REFERENCES:
                pending.append((path, target, followed + 1))


def _resolved(root: Any, reference: Any) -> Any:
    """The subschema of ``root`` a local reference names (a pointer, an anchor, an ``$id``), or None."""
    if not isinstance(reference, str):
        return None
    if reference.startswith("#/"):
        node = root
        for token in split(unquote(reference[1:])):
            if isinstance(node, dict) and token in node:
                node = node[token]
            elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
                node = node[int(token)]
            else:
                return None
        return node
    wanted = ("$anchor", reference[1:]) if reference.startswith("#") else ("$id", reference)
    stack = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if node.get(wanted[0]) == wanted[1]:
                return node
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return None


_ABSENT = object()


def _value_at(instance: Any, path: Path) -> Any:
    for token in path:
        if isinstance(instance, list) and isinstance(token, int) and token < len(instance):
            instance = instance[token]
            continue
        if not (isinstance(instance, dict) and token in instance):
            return _ABSENT
        instance = instance[token]
    return instance


def _placed(instance: Any, path: Path, value: Any) -> Any:
    """``instance`` with ``value`` at ``path``, containers made or replaced on the way as needed."""
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(head, int):
        items = list(instance) if isinstance(instance, list) else []
        items += [None] * (head + 1 - len(items))
        items[head] = _placed(items[head], rest, value)
        return items
    members = dict(instance) if isinstance(instance, dict) else {}
    members[head] = _placed(members.get(head), rest, value)
    return members


def edge_instances(schema: Any, base: Any, limit: int) -> list[Any]:
    """Up to ``limit`` copies of ``base``, each with one edge value placed where a keyword applies.

    Each (place, keyword) gives its first edge before any gives its second, so that every keyword
    the schema uses is probed at its most telling value even when the limit cuts the list.
    """
    rounds: list[list[Any]] = []
    for path, site in sites(schema):
        current = _value_at(base, path)
        for keyword, value in site.items():
            edges_of = EDGES.get(keyword)
            if edges_of is not None:
                rounds.append([_placed(base, path, edge) for edge in edges_of(value, site, current)])
    chosen: dict[str, Any] = {}
    depth = 0
    while len(chosen) < limit and any(depth < len(edges) for edges in rounds):
        for edges in rounds:
            if depth < len(edges) and len(chosen) < limit:
                chosen.setdefault(json.dumps(edges[depth]), edges[depth])
        depth += 1
    return list(chosen.values())
