"""The pieces of a schema a comparison reads: a schema object at its pointer (:class:`Part`), a place a
proof could not get past (:class:`Stop`: its keyword and pointer), one end of a range (:class:`Bound`),
the types as the comparison splits them, the schema of an item, patterns, and the keywords that assert
nothing. The views made of them, with the documents they are read from, are in ``documents``.

The bounds of a view are here for everything that reads them: references followed at most
:data:`MAX_HOPS` deep, :data:`MAX_PARTS` schema objects to a view, :data:`MAX_ALTERNATIVES` choices of
branches; past a bound, or where a reference cannot be followed (another document, ``$dynamicRef``), the
place is recorded as a *stop*: the keyword and pointer a proof could not get past.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .._jsonschema.errors import ToolregError
from .._jsonschema.pointer import escape
from .._jsonschema.regex import Pattern
from .._jsonschema.values import is_integer, is_number
from .._jsonschema.vocabulary import DRAFT_2020

__all__ = [
    "MAX_HOPS",
    "MAX_PARTS",
    "MAX_ALTERNATIVES",
    "ALL_TYPES",
    "Bound",
    "Part",
    "Stop",
    "type_atoms",
    "value_atoms",
]

MAX_HOPS = 32
MAX_PARTS = 64
MAX_ALTERNATIVES = 64
# The types as the comparison splits them: "number" is "integer" and "fraction" (a number that is no
# integer), so that integer narrowing to number and back read as sets.
ALL_TYPES = frozenset({"null", "boolean", "object", "array", "string", "integer", "fraction"})
# The keywords through which another schema object applies to the same value, and so may declare
# names a caller sends (the branches included: a caller may take any of them).
_IN_PLACE_LISTS = ("allOf", "anyOf", "oneOf")
_REFERENCES = ("$ref", "$dynamicRef", "$recursiveRef")
_IN_PLACE_ONE = ("if", "then", "else")


def type_atoms(name: str) -> frozenset[str]:
    """The atoms of one ``type`` name: ``number`` is integers and fractions."""
    if name == "number":
        return frozenset({"integer", "fraction"})
    return frozenset({name}) if name in ALL_TYPES else frozenset()


def value_atoms(value: Any) -> str:
    """The atom of one JSON value."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if is_number(value):
        return "integer" if is_integer(value) else "fraction"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


@dataclass(frozen=True)
class Part:
    """One schema object applied to a value, and its pointer in its document (None for one the
    comparison adds, such as ``{"required": [name]}`` for "when the name is present")."""

    schema: Any
    pointer: str | None

    def get(self, keyword: str, default: Any = None) -> Any:
        """The value of ``keyword`` in this schema object, or ``default`` (a boolean schema holds none)."""
        return self.schema.get(keyword, default) if isinstance(self.schema, dict) else default

    def at(self, *tokens: str | int) -> str | None:
        """The pointer of a place inside this part."""
        if self.pointer is None:
            return None
        return self.pointer + "".join(f"/{escape(token)}" for token in tokens)


@dataclass(frozen=True)
class Stop:
    """Where a proof stopped: the keyword, its pointer, and why."""

    keyword: str
    pointer: str | None
    reason: str


@dataclass(frozen=True)
class Bound:
    """One end of a range of numbers or counts: the value, and whether it is left out."""

    value: Fraction
    exclusive: bool = False


def prefix_of(part: Part, dialect: str) -> list[Any]:
    """The schemas of the first items, one each, as the dialect spells them."""
    keyword = "prefixItems" if dialect == DRAFT_2020 else "items"
    value = part.get(keyword)
    return value if isinstance(value, list) else []


def item_part(part: Part, index: int, dialect: str) -> Part | None:
    """The schema object that applies to the item at ``index`` in one part, if any."""
    if not isinstance(part.schema, dict):
        return None
    prefix_keyword, rest_keyword = (
        ("prefixItems", "items") if dialect == DRAFT_2020 else ("items", "additionalItems")
    )
    prefix = part.schema.get(prefix_keyword)
    if isinstance(prefix, list):
        if index < len(prefix):
            return Part(prefix[index], part.at(prefix_keyword, index))
        rest = part.schema.get(rest_keyword)
        return None if rest is None else Part(rest, part.at(rest_keyword))
    if "items" in part.schema:  # one schema for every item
        return Part(part.schema["items"], part.at("items"))
    return None


_PATTERNS: dict[str, Pattern | None] = {}


def matches(source: str, text: str) -> bool:
    """Whether the ECMA-262 pattern ``source`` finds a match in ``text`` (False for one toolreg
    cannot run; the schemas were checked before, so that is rare)."""
    if source not in _PATTERNS:
        try:
            _PATTERNS[source] = Pattern(source)
        except (ToolregError, ValueError):
            _PATTERNS[source] = None
        if len(_PATTERNS) > 4096:
            _PATTERNS.pop(next(iter(_PATTERNS)))
    pattern = _PATTERNS.get(source)
    return pattern is not None and bool(pattern.search(text))


# Keywords that assert nothing: annotations, and those read only beside another keyword.
_QUIET = frozenset(
    {
        "title", "description", "$comment", "default", "examples", "deprecated", "readOnly", "writeOnly",
        "$schema", "$id", "$anchor", "$dynamicAnchor", "$recursiveAnchor", "$vocabulary", "$defs",
        "definitions", "contentEncoding", "contentMediaType", "contentSchema", "example", "discriminator",
        "format", "then", "else", "minContains", "maxContains",
    }
)  # fmt: skip


def is_quiet(keyword: str) -> bool:
    """A keyword that asserts nothing on its own (an annotation; ``format`` is one, as the validator
    reads it by default)."""
    return keyword in _QUIET or keyword.startswith("x-")
