"""The Berkeley Function Calling Leaderboard's parameter dialect, read as standard JSON Schema."""

from __future__ import annotations

import re
from typing import Any

from ._jsonschema.errors import SchemaError
from ._jsonschema.pointer import to_pointer
from ._jsonschema.values import NotJSON, snapshot
from ._jsonschema.vocabulary import keywords

__all__ = ["normalize_bfcl"]

# The leaderboard's type names, and the JSON Schema types they stand for; None means "any value".
_BFCL_TYPES: dict[str, str | None] = {
    "dict": "object", "object": "object", "hashmap": "object", "map": "object",
    "float": "number", "double": "number", "number": "number",
    "int": "integer", "integer": "integer", "long": "integer", "short": "integer",
    "str": "string", "string": "string", "char": "string",
    "bool": "boolean", "boolean": "boolean",
    "list": "array", "array": "array", "arraylist": "array", "tuple": "array",
    "any": None, "null": "null",
}  # fmt: skip
_GENERIC = re.compile(r"(list|array|tuple)\[(.+)\]")


def normalize_bfcl(parameters: Any) -> dict[str, Any]:
    """The Berkeley Function Calling Leaderboard's parameter dialect as standard JSON Schema.

    ``"dict"`` becomes ``"object"``, ``"float"`` ``"number"``, ``"tuple"`` and ``List[str]`` arrays,
    ``"any"`` no type at all, Java and xLAM names (``String``, ``HashMap``, ``"int, optional"``)
    their JSON types; the non-standard ``optional`` flag is dropped (``required`` says it), and a
    bare map of parameters becomes an object schema. A type it cannot map is a SchemaError.
    """
    if not isinstance(parameters, dict):
        raise SchemaError(f"parameters must be an object, not {type(parameters).__name__}")
    try:
        schema = snapshot(parameters, 128)
    except NotJSON as error:
        path = to_pointer(error.problem[0]) if error.problem else ""
        raise SchemaError(
            f"parameters must be JSON nested at most 128 levels: {error}", schema_path=path
        ) from None
    bare = schema and "type" not in schema and "properties" not in schema
    if bare and all(isinstance(item, dict) and "type" in item for item in schema.values()):
        schema = {"type": "object", "properties": schema}
    return _normalize(schema, ())  # type: ignore[no-any-return]


_HOLDS = {name: row.holds for name, row in keywords().items()}


def _normalize(schema: Any, location: tuple[str | int, ...]) -> Any:
    if not isinstance(schema, dict):
        return schema
    normalized: dict[str, Any] = {}
    for keyword, value in schema.items():
        if keyword == "optional":
            continue
        if keyword == "type":
            normalized.update(_type_of(value, location + ("type",)))
            continue
        # Where the subschemas are, as the vocabulary says; the leaderboard's tuples (an "items"
        # array) are moved to prefixItems below.
        holds = _HOLDS.get(keyword, "")
        if holds == "map" and isinstance(value, dict):
            normalized[keyword] = {
                name: _normalize(item, location + (keyword, name)) for name, item in value.items()
            }
        elif holds == "schema" and isinstance(value, dict):
            normalized[keyword] = _normalize(value, location + (keyword,))
        elif holds == "list" and isinstance(value, list):
            normalized[keyword] = [
                _normalize(item, location + (keyword, index)) for index, item in enumerate(value)
            ]
        else:
            normalized[keyword] = value
    if normalized.get("type") == "array" and "items" in normalized and isinstance(normalized["items"], list):
        normalized["prefixItems"] = normalized.pop("items")
    return normalized


def _type_of(value: Any, location: tuple[str | int, ...]) -> dict[str, Any]:
    if isinstance(value, list):
        for index, item in enumerate(value):
            if not isinstance(item, str):  # a list of type names, not of lists
                raise SchemaError(
                    f"'type' must be a type name or a list of them, not a list holding {item!r}",
                    schema_path=to_pointer(location + (index,)),
                    keyword="type",
                )
        mapped = [_type_of(item, location) for item in value]
        if any("type" not in item for item in mapped):
            return {}
        return {"type": list(dict.fromkeys(item["type"] for item in mapped))}
    if not isinstance(value, str):
        raise SchemaError(
            f"'type' must be a type name, not {value!r}", schema_path=to_pointer(location), keyword="type"
        )
    name = value.split(",")[0].strip().lower()  # xLAM's "int, optional"
    generic = _GENERIC.fullmatch(name)
    if generic:
        inner = _type_of(generic.group(2), location)
        return {"type": "array", "items": inner} if inner else {"type": "array"}
    if name not in _BFCL_TYPES:
        raise SchemaError(
            f"cannot map the type {value!r} to JSON Schema; known: {', '.join(sorted(_BFCL_TYPES))}",
            schema_path=to_pointer(location),
            keyword="type",
        )
    json_type = _BFCL_TYPES[name]
    return {} if json_type is None else {"type": json_type}
