"""Schemas as a comparison reads them: a *view*: every schema object that applies to one value
(the object itself, its ``$ref`` targets and ``allOf`` members, and the branches of ``anyOf``/``oneOf``
once one is chosen), with the facts the rules read from them.

Everything here is bounded: references followed at most :data:`MAX_HOPS` deep, :data:`MAX_PARTS`
schema objects to a view, :data:`MAX_ALTERNATIVES` choices of branches; past a bound, or where a
reference cannot be followed (another document, ``$dynamicRef``), the place is recorded as a *stop*:
the keyword and pointer a proof could not get past.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from .._jsonschema.errors import ToolregError
from .._jsonschema.pointer import escape
from .._jsonschema.regex import Pattern
from .._jsonschema.values import exact_number, is_integer, is_number, json_key
from .._jsonschema.vocabulary import DRAFT_2020

if TYPE_CHECKING:
    from .documents import Document

__all__ = [
    "MAX_HOPS",
    "MAX_PARTS",
    "MAX_ALTERNATIVES",
    "ALL_TYPES",
    "Bound",
    "Part",
    "Stop",
    "View",
    "type_atoms",
    "value_atoms",
    "alternatives",
    "unchosen",
    "choice_key",
]

MAX_HOPS = 32
MAX_PARTS = 64
MAX_ALTERNATIVES = 64
# The types as the comparison splits them: "number" is "integer" and "fraction" (a number that is no
# integer), so that integer narrowing to number and back read as sets.
ALL_TYPES = frozenset({"null", "boolean", "object", "array", "string", "integer", "fraction"})
TYPE_ORDER = ("object", "array", "string", "integer", "fraction", "boolean", "null")
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


@dataclass(frozen=True)
class View:
    """Every schema object that applies to one value, as a conjunction, and where expanding them stopped.

    ``choices`` records which branch of each ``anyOf``/``oneOf`` (by the keyword's pointer) this view
    took, so that branches are matched by content."""

    document: Document
    parts: tuple[Part, ...]
    stops: tuple[Stop, ...] = ()
    choices: tuple[tuple[str, int], ...] = field(default=())

    def plus(self, other: View, choice: tuple[str, int] | None = None) -> View:
        """This view and ``other`` together (``other`` from the same document)."""
        known = {part.pointer for part in self.parts if part.pointer is not None}
        added = tuple(part for part in other.parts if part.pointer is None or part.pointer not in known)
        choices = self.choices + ((choice,) if choice is not None else ())
        return View(self.document, self.parts + added, self.stops + other.stops, choices)

    def with_part(self, schema: dict[str, Any]) -> View:
        """This view with ``schema`` applied too (a schema object the comparison adds, with no pointer)."""
        return self.plus(View(self.document, (Part(schema, None),)))

    def values_of(self, keyword: str) -> Iterator[tuple[Any, Part]]:
        """Each value of ``keyword`` in the view's schema objects, with the object that holds it."""
        for part in self.parts:
            if isinstance(part.schema, dict) and keyword in part.schema:
                yield part.schema[keyword], part

    @property
    def refuses_all(self) -> bool:
        """Some schema object of the view is ``false``."""
        return any(part.schema is False for part in self.parts)

    @property
    def accepts_all(self) -> bool:
        """No part holds a keyword that asserts anything (annotations alone, or ``true``)."""
        return all(
            part.schema is True or (isinstance(part.schema, dict) and not _asserting(part.schema))
            for part in self.parts
        )

    # -- the facts rules read --------------------------------------------------------------------

    def types(self) -> frozenset[str]:
        """The type atoms a value may have: ``type`` of every part, and the atoms of an ``enum``."""
        allowed = set(ALL_TYPES)
        for value, _ in self.values_of("type"):
            names = value if isinstance(value, list) else [value]
            allowed &= frozenset().union(*(type_atoms(name) for name in names if isinstance(name, str)))
        listed = self.listed()
        if listed is not None:
            allowed &= {value_atoms(value) for value in listed}
        return frozenset(allowed)

    def type_order(self) -> list[str]:
        """The type atoms a value may have, in the order the schema lists them, then the comparison's."""
        allowed = self.types()
        order: list[str] = []
        for value, _ in self.values_of("type"):
            for name in value if isinstance(value, list) else [value]:
                atoms = ("integer", "fraction") if name == "number" else (name,)
                order.extend(atom for atom in atoms if atom in allowed and atom not in order)
        return order + [atom for atom in TYPE_ORDER if atom in allowed and atom not in order]

    def listed(self) -> list[Any] | None:
        """The values ``enum`` and ``const`` allow in every part, or None when no part lists any."""
        found: list[Any] | None = None
        for keyword in ("const", "enum"):
            for value, _ in self.values_of(keyword):
                values = [value] if keyword == "const" else value if isinstance(value, list) else []
                if found is None:
                    found = list(values)
                else:
                    keys = {json_key(item) for item in values}
                    found = [item for item in found if json_key(item) in keys]
        return found

    def lower(self) -> Bound | None:
        """The strictest lower bound on numbers: ``minimum`` and ``exclusiveMinimum``."""
        return _strictest(self, "minimum", "exclusiveMinimum", max)

    def upper(self) -> Bound | None:
        """The strictest upper bound on numbers: ``maximum`` and ``exclusiveMaximum``."""
        return _strictest(self, "maximum", "exclusiveMaximum", min)

    def multiples(self) -> list[Fraction]:
        """Every ``multipleOf``, as an exact number."""
        return [
            exact_number(value) for value, _ in self.values_of("multipleOf") if is_number(value) and value > 0
        ]

    def count(self, at_least: str, at_most: str) -> tuple[int, float]:
        """The strictest ``minLength``/``maxLength`` (or items, properties): the least and the most."""
        least = max((int(value) for value, _ in self.values_of(at_least) if is_integer(value)), default=0)
        most = min(
            (int(value) for value, _ in self.values_of(at_most) if is_integer(value)), default=math.inf
        )
        return least, most

    def patterns(self) -> list[tuple[str, Part]]:
        """Every ``pattern``, with the schema object that holds it."""
        return [(value, part) for value, part in self.values_of("pattern") if isinstance(value, str)]

    def required(self) -> list[str]:
        """The names every ``required`` lists, in the order written."""
        names: dict[str, None] = {}
        for value, _ in self.values_of("required"):
            if isinstance(value, list):
                names.update((name, None) for name in value if isinstance(name, str))
        return list(names)

    def declared(self) -> list[str]:
        """The names ``properties`` lists in this view's parts, in the order written."""
        names: dict[str, None] = {}
        for value, _ in self.values_of("properties"):
            if isinstance(value, dict):
                names.update((name, None) for name in value)
        return list(names)

    def unique(self) -> bool:
        """Whether ``uniqueItems`` holds."""
        return any(value is True for value, _ in self.values_of("uniqueItems"))

    def sends(self, name: str, closed: tuple[frozenset[str], tuple[str, ...]] | None) -> bool:
        """Whether a value may hold the name ``name``: no part closes it out, and (under the
        declared reading, ``closed``) the old schema declares it."""
        for part in self.parts:
            properties = part.get("properties")
            if isinstance(properties, dict) and name in properties:
                if properties[name] is False:
                    return False
                continue
            patterns = part.get("patternProperties")
            if isinstance(patterns, dict) and any(matches(pattern, name) for pattern in patterns):
                continue
            if part.get("additionalProperties") is False:
                return False
        if closed is not None:
            names, patterns_declared = closed
            return name in names or any(matches(pattern, name) for pattern in patterns_declared)
        return True

    def sends_others(self, closed: tuple[frozenset[str], tuple[str, ...]] | None) -> bool:
        """Whether a value may hold names no part declares."""
        return closed is None and all(part.get("additionalProperties") is not False for part in self.parts)

    def property(self, name: str) -> View:
        """The view of the value at ``name``: ``properties``, matching ``patternProperties``, or else
        ``additionalProperties``, of every part."""
        seeds: list[Part] = []
        for part in self.parts:
            properties = part.get("properties")
            named = isinstance(properties, dict) and name in properties
            if named:
                seeds.append(Part(properties[name], part.at("properties", name)))
            matched = False
            patterns = part.get("patternProperties")
            if isinstance(patterns, dict):
                for pattern, schema in patterns.items():
                    if matches(pattern, name):
                        matched = True
                        seeds.append(Part(schema, part.at("patternProperties", pattern)))
            if (
                not named
                and not matched
                and isinstance(part.schema, dict)
                and "additionalProperties" in part.schema
            ):
                seeds.append(Part(part.schema["additionalProperties"], part.at("additionalProperties")))
        return self.document.view(seeds)

    def item(self, index: int) -> View:
        """The view of the item at ``index``: ``prefixItems`` then ``items`` (2020-12), or an ``items``
        array then ``additionalItems`` (2019-09, draft-07)."""
        seeds = [
            seed for part in self.parts if (seed := item_part(part, index, self.document.dialect)) is not None
        ]
        return self.document.view(seeds)

    def prefix_length(self) -> int:
        """The longest list of first items' schemas among the view's objects."""
        return max((len(prefix_of(part, self.document.dialect)) for part in self.parts), default=0)

    def accepts(self, value: Any) -> bool | None:
        """Whether ``value`` fits every part, by the validator (None when it cannot say)."""
        answer: bool | None = True
        for part in self.parts:
            fits = self.document.accepts(part, value)
            if fits is False:
                return False
            if fits is None:
                answer = None
        return answer


def choice_key(part: Part, keyword: str) -> str:
    """What names one ``anyOf``/``oneOf`` keyword among a view's choices."""
    return part.at(keyword) or f"~{id(part.schema)}/{keyword}"


def unchosen(view: View) -> tuple[Part, str] | None:
    """The first ``anyOf``/``oneOf`` of ``view`` whose branch it has not chosen."""
    taken = {key for key, _ in view.choices}
    for part in view.parts:
        for keyword in ("anyOf", "oneOf"):
            if isinstance(part.get(keyword), list) and choice_key(part, keyword) not in taken:
                return part, keyword
    return None


def alternatives(view: View) -> tuple[list[View], list[Stop]]:
    """Every way to take one branch of each ``anyOf`` and ``oneOf`` in ``view`` (branches within
    branches too), first branches first, each with the branch's own schemas added; a branch that is
    ``false`` is left out. Past :data:`MAX_ALTERNATIVES` the rest are left out, and a stop says so."""
    done: list[View] = []
    pending = [view]
    while pending:
        current = pending.pop()
        choice = unchosen(current)
        if choice is None:
            if not current.refuses_all:
                done.append(current)
            continue
        part, keyword = choice
        key = choice_key(part, keyword)
        branches = [
            current.plus(current.document.view([Part(member, part.at(keyword, index))]), (key, index))
            for index, member in enumerate(part.schema[keyword])
        ]
        pending.extend(reversed(branches))
        if len(done) + len(pending) > MAX_ALTERNATIVES:
            reason = f"more than {MAX_ALTERNATIVES} ways to choose the branches"
            return done, [Stop(keyword, part.at(keyword), reason)]
    return done, []


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


def _strictest(view: View, inclusive: str, exclusive: str, pick: Any) -> Bound | None:
    bounds = [Bound(exact_number(value)) for value, _ in view.values_of(inclusive) if is_number(value)]
    bounds += [Bound(exact_number(value), True) for value, _ in view.values_of(exclusive) if is_number(value)]
    if not bounds:
        return None
    best = pick(bound.value for bound in bounds)
    return Bound(best, any(bound.exclusive for bound in bounds if bound.value == best))


# Keywords that assert nothing: annotations, and those read only beside another keyword.
_QUIET = frozenset(
    {
        "title", "description", "$comment", "default", "examples", "deprecated", "readOnly", "writeOnly",
        "$schema", "$id", "$anchor", "$dynamicAnchor", "$recursiveAnchor", "$vocabulary", "$defs",
        "definitions", "contentEncoding", "contentMediaType", "contentSchema", "example", "discriminator",
        "format", "then", "else", "minContains", "maxContains",
    }
)  # fmt: skip


def _asserting(schema: Any) -> bool:
    return isinstance(schema, dict) and any(
        keyword not in _QUIET and not keyword.startswith("x-") for keyword in schema
    )


def is_quiet(keyword: str) -> bool:
    """A keyword that asserts nothing on its own (an annotation; ``format`` is one, as the validator
    reads it by default)."""
    return keyword in _QUIET or keyword.startswith("x-")
