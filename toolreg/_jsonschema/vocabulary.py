"""The vocabulary: one row for each keyword toolreg knows, and the one walk over a schema's subschemas."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from . import keywords as k
from .keywords import Check, Site
from .pointer import Token

__all__ = [
    "Keyword",
    "VOCABULARY",
    "DIALECTS",
    "DEFAULT_DIALECT",
    "ANNOTATIONS",
    "REWRITES",
    "KNOWN_UNSUPPORTED",
    "VOCABULARIES",
    "keywords",
    "keyword_order",
    "vocabulary_uri",
    "dialects_of",
    "is_annotation",
    "subschemas",
]

DRAFT_7, DRAFT_2019, DRAFT_2020 = "draft-07", "2019-09", "2020-12"
DEFAULT_DIALECT = DRAFT_2020
_ALL = frozenset({DRAFT_7, DRAFT_2019, DRAFT_2020})
_SINCE_2019 = frozenset({DRAFT_2019, DRAFT_2020})
_BEFORE_2020 = frozenset({DRAFT_7, DRAFT_2019})

# What a schema's "$schema" may say, and the dialect each names. No "$schema" means 2020-12.
DIALECTS = {
    "https://json-schema.org/draft/2020-12/schema": DRAFT_2020,
    "https://json-schema.org/draft/2019-09/schema": DRAFT_2019,
    "http://json-schema.org/draft-07/schema": DRAFT_7,
    # Often written with https, which names the same draft.
    "https://json-schema.org/draft-07/schema": DRAFT_7,
}
DIALECTS.update({f"{uri}#": dialect for uri, dialect in list(DIALECTS.items())})


@dataclass(frozen=True)
class Keyword:
    """One keyword: the function that checks its value and builds its check, and what it is.

    ``instance_type`` is the JSON type it speaks to (``None``: every value); ``holds`` where its
    subschemas are: ``""`` none, ``"schema"`` its value, ``"list"`` each item, ``"map"`` each value
    that is a schema, ``"schema-or-list"`` either of the first two; ``in_place`` says whether they
    apply to the instance itself rather than to a part of it.
    """

    name: str
    build: Callable[[Any, Site], Check]
    instance_type: str | None = None
    holds: str = ""
    in_place: bool = False
    dialects: frozenset[str] = _ALL


# Rows run in this order, so errors come out in this order whatever the schema's key order.
VOCABULARY: tuple[Keyword, ...] = (
    Keyword("$id", k._id),
    Keyword("$anchor", k._anchor, dialects=_SINCE_2019),
    Keyword("$dynamicAnchor", k._anchor, dialects=frozenset({DRAFT_2020})),
    Keyword("$ref", k._ref, in_place=True),
    Keyword("$dynamicRef", k._dynamic_ref, in_place=True, dialects=frozenset({DRAFT_2020})),
    Keyword("$recursiveAnchor", k._recursive_anchor, dialects=frozenset({DRAFT_2019})),
    Keyword("$recursiveRef", k._recursive_ref, in_place=True, dialects=frozenset({DRAFT_2019})),
    Keyword("$vocabulary", k._vocabulary, dialects=_SINCE_2019),
    Keyword("type", k._type),
    Keyword("enum", k._enum),
    Keyword("const", k._const),
    Keyword("multipleOf", k._multiple_of, "number"),
    Keyword("minimum", k._minimum, "number"),
    Keyword("exclusiveMinimum", k._exclusive_minimum, "number"),
    Keyword("maximum", k._maximum, "number"),
    Keyword("exclusiveMaximum", k._exclusive_maximum, "number"),
    Keyword("minLength", k._min_length, "string"),
    Keyword("maxLength", k._max_length, "string"),
    Keyword("pattern", k._pattern, "string"),
    Keyword("format", k._format, "string"),
    Keyword("minItems", k._min_items, "array"),
    Keyword("maxItems", k._max_items, "array"),
    Keyword("uniqueItems", k._unique_items, "array"),
    Keyword("prefixItems", k._prefix_items, "array", "list", dialects=frozenset({DRAFT_2020})),
    Keyword("items", k._items, "array", "schema", dialects=frozenset({DRAFT_2020})),
    Keyword("items", k._legacy_items, "array", "schema-or-list", dialects=_BEFORE_2020),
    Keyword("additionalItems", k._additional_items, "array", "schema", dialects=_BEFORE_2020),
    Keyword("contains", k._contains, "array", "schema"),
    Keyword("minContains", k._contains_bound, "array", dialects=_SINCE_2019),
    Keyword("maxContains", k._contains_bound, "array", dialects=_SINCE_2019),
    Keyword("minProperties", k._min_properties, "object"),
    Keyword("maxProperties", k._max_properties, "object"),
    Keyword("required", k._required, "object"),
    Keyword("dependentRequired", k._dependent_required, "object", dialects=_SINCE_2019),
    Keyword("propertyNames", k._property_names, "object", "schema"),
    Keyword("properties", k._properties, "object", "map"),
    Keyword("patternProperties", k._pattern_properties, "object", "map"),
    Keyword("additionalProperties", k._additional_properties, "object", "schema"),
    Keyword("dependentSchemas", k._dependent_schemas, "object", "map", True, _SINCE_2019),
    Keyword("dependencies", k._dependencies, "object", "map", True, frozenset({DRAFT_7})),
    Keyword("allOf", k._all_of, holds="list", in_place=True),
    Keyword("anyOf", k._any_of, holds="list", in_place=True),
    Keyword("oneOf", k._one_of, holds="list", in_place=True),
    Keyword("not", k._not, holds="schema", in_place=True),
    Keyword("if", k._if, holds="schema", in_place=True),
    Keyword("then", k._then_else, holds="schema", in_place=True),
    Keyword("else", k._then_else, holds="schema", in_place=True),
    Keyword("unevaluatedItems", k._unevaluated_items, "array", "schema", dialects=_SINCE_2019),
    Keyword("unevaluatedProperties", k._unevaluated_properties, "object", "schema", dialects=_SINCE_2019),
    Keyword("$defs", k._definitions, holds="map", dialects=_SINCE_2019),
    Keyword("definitions", k._definitions, holds="map"),
)

_BY_DIALECT = {
    dialect: {row.name: row for row in VOCABULARY if dialect in row.dialects} for dialect in sorted(_ALL)
}


# The rows that hold subschemas, for the walker.
_HOLDING = {
    dialect: tuple(row for row in rows.values() if row.holds) for dialect, rows in _BY_DIALECT.items()
}


def keywords(dialect: str = DEFAULT_DIALECT) -> dict[str, Keyword]:
    """The keywords of one dialect, by name, in the table's order."""
    return _BY_DIALECT[dialect]


_ORDER = {dialect: {name: index for index, name in enumerate(rows)} for dialect, rows in _BY_DIALECT.items()}


def keyword_order(dialect: str = DEFAULT_DIALECT) -> dict[str, int]:
    """Each keyword of one dialect by its place in the table, which is the order its errors come in."""
    return _ORDER[dialect]


def dialects_of(keyword: str) -> frozenset[str]:
    """The dialects that have ``keyword``; empty for a keyword outside the table."""
    return frozenset(dialect for dialect, rows in _BY_DIALECT.items() if keyword in rows)


def _string(value: Any) -> bool:
    return isinstance(value, str)


def _discriminator(value: Any) -> bool:
    # OpenAPI's shape, as pydantic emits it: the tag's property name, and perhaps tag -> $ref.
    mapping = value.get("mapping", {}) if isinstance(value, dict) else None
    return (
        isinstance(value, dict)
        and isinstance(value.get("propertyName"), str)
        and set(value) <= {"propertyName", "mapping"}
        and isinstance(mapping, dict)
        and all(isinstance(target, str) for target in mapping.values())
    )


# Annotation keywords carry no assertion; each maps to what its value must be, and a test of it.
ANNOTATIONS: dict[str, tuple[str, Callable[[Any], bool]]] = {
    "title": ("a string", _string),
    "description": ("a string", _string),
    "$comment": ("a string", _string),
    "default": ("any JSON value", lambda value: True),
    "examples": ("an array", lambda value: isinstance(value, list)),
    "deprecated": ("a boolean", lambda value: isinstance(value, bool)),
    "readOnly": ("a boolean", lambda value: isinstance(value, bool)),
    "writeOnly": ("a boolean", lambda value: isinstance(value, bool)),
    # Which meta-schema, and so which dialect: the schema walk reads it (see _schema).
    "$schema": ("a string holding the URI of a meta-schema", _string),
    "contentEncoding": ("a string", _string),
    "contentMediaType": ("a string", _string),
    "contentSchema": ("a schema", lambda value: isinstance(value, (dict, bool))),
    # Not JSON Schema, but emitted widely: OpenAPI's example, pydantic's discriminator.
    "example": ("any JSON value", lambda value: True),
    "discriminator": (
        "an object with a 'propertyName' string and perhaps a 'mapping' of strings",
        _discriminator,
    ),
}


def is_annotation(keyword: str) -> bool:
    """An annotation of the table, or an extension (``x-…``, as OpenAPI and MCP name theirs)."""
    return keyword in ANNOTATIONS or keyword.startswith("x-")


# JSON Schema keywords that toolreg knows but does not support.
KNOWN_UNSUPPORTED: frozenset[str] = frozenset()

# Forms from elsewhere, and features toolreg leaves out, with what to write instead.
REWRITES = {
    "nullable": "'nullable' is OpenAPI, not JSON Schema; add \"null\" to a type list instead",
    "additionalItems": "'additionalItems' is 2019-09 and draft-07 (declare one of them in '$schema' to "
    "use it); in 2020-12 'items' applies after 'prefixItems'",
    "dependencies": "'dependencies' is draft-07 (declare it in '$schema' to use it); 2020-12 splits it "
    "into 'dependentRequired' and 'dependentSchemas'",
    "prefixItems": "'prefixItems' is 2020-12; in the dialect this schema declares, 'items' takes the "
    "array of schemas",
    "$defs": "'$defs' is 2019-09 and 2020-12; draft-07, which this schema declares, keeps schemas in "
    "'definitions'",
    "$recursiveRef": "'$recursiveRef' is 2019-09 (declare it in '$schema' to use it); 2020-12 has "
    "'$dynamicRef' instead",
    "$recursiveAnchor": "'$recursiveAnchor' is 2019-09 (declare it in '$schema' to use it); 2020-12 has "
    "'$dynamicAnchor' instead",
}


# The vocabularies of 2020-12 by the last segment of their URI, and the keywords of each: a custom
# meta-schema's "$vocabulary" may leave some out. 2019-09 has "unevaluated" inside "applicator" and one
# "format" vocabulary; draft-07 has none.
VOCABULARIES: dict[str, frozenset[str]] = {
    "core": frozenset(
        ("$id", "$schema", "$ref", "$anchor", "$dynamicRef", "$dynamicAnchor", "$recursiveRef",
         "$recursiveAnchor", "$vocabulary", "$comment", "$defs")
    ),
    "applicator": frozenset(
        ("prefixItems", "items", "additionalItems", "contains", "additionalProperties", "properties",
         "patternProperties", "dependentSchemas", "propertyNames", "if", "then", "else", "allOf", "anyOf",
         "oneOf", "not")
    ),
    "unevaluated": frozenset(("unevaluatedItems", "unevaluatedProperties")),
    "validation": frozenset(
        ("type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum",
         "exclusiveMinimum", "maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems",
         "maxContains", "minContains", "maxProperties", "minProperties", "required", "dependentRequired")
    ),
    "meta-data": frozenset(
        ("title", "description", "default", "deprecated", "readOnly", "writeOnly", "examples")
    ),
    "format-annotation": frozenset(("format",)),
    "format-assertion": frozenset(("format",)),
    "content": frozenset(("contentEncoding", "contentMediaType", "contentSchema")),
}  # fmt: skip
_VOCABULARY_NAMES = {
    DRAFT_2020: tuple(VOCABULARIES),
    DRAFT_2019: ("core", "applicator", "validation", "meta-data", "format", "content"),
}


def vocabulary_uri(dialect: str) -> dict[str, tuple[str, ...]]:
    """Each vocabulary URI of ``dialect`` and the names in :data:`VOCABULARIES` it stands for."""
    names = _VOCABULARY_NAMES.get(dialect, ())
    stands_for = {"applicator": ("applicator", "unevaluated"), "format": ("format-annotation",)}
    return {
        f"https://json-schema.org/draft/{dialect}/vocab/{name}": (
            stands_for.get(name, (name,)) if dialect == DRAFT_2019 else (name,)
        )
        for name in names
    }


def subschemas(schema: Any, dialect: str = DEFAULT_DIALECT) -> Iterator[tuple[tuple[Token, ...], Any]]:
    """Each subschema directly below ``schema``, with the tokens that lead to it, in table order."""
    if not isinstance(schema, dict):
        return
    for row in _HOLDING[dialect]:
        name = row.name
        if name not in schema:
            continue
        value = schema[name]
        if row.holds == "schema" or (row.holds == "schema-or-list" and not isinstance(value, list)):
            yield (name,), value
        elif row.holds in ("list", "schema-or-list") and isinstance(value, list):
            for index, item in enumerate(value):
                yield (name, index), item
        elif row.holds == "map" and isinstance(value, dict):
            for key, item in value.items():
                if isinstance(item, (dict, bool)):
                    yield (name, key), item
