"""One side's schema document as the comparison reads it: its dialect (``$schema``, default 2020-12, as
the validator reads it), where its references lead, the names callers may send under the declared
reading, and a check of any value against any of its schema objects by the validator itself.

References are followed inside the document only (``#/...`` pointers and anchors), at most
``schemas.MAX_HOPS`` deep; a document whose subschemas set bases of their own (``$id``) has its
references left unfollowed, each a stop of the proofs that meet it.

The document's *views* are here too (:class:`View`): every schema object that applies to one value
(the object itself, its ``$ref`` targets and ``allOf`` members, and the branches of ``anyOf``/``oneOf``
once one is chosen), with the facts the rules read from them. A document makes its views and a view
asks its document for the views below it, so the two share this module; the pieces both are made of
are in ``schemas``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any
from urllib.parse import unquote

from .._jsonschema.errors import ToolregError, ValidationError
from .._jsonschema.pointer import escape, split, walk_tokens
from .._jsonschema.validator import Validator
from .._jsonschema.values import exact_number, is_integer, is_number, json_key
from .._jsonschema.vocabulary import DEFAULT_DIALECT, DIALECTS, DRAFT_7
from .schemas import (
    ALL_TYPES,
    MAX_ALTERNATIVES,
    MAX_HOPS,
    MAX_PARTS,
    Bound,
    Part,
    Stop,
    is_quiet,
    item_part,
    matches,
    prefix_of,
    type_atoms,
    value_atoms,
)

__all__ = ["Document", "Declared", "declared_only", "View", "alternatives", "unchosen", "choice_key"]

# The names a caller may send under the declared reading: names, and patterns; None for any.
Declared = tuple[frozenset[str], tuple[str, ...]] | None
_IN_PLACE_LISTS = ("allOf", "anyOf", "oneOf")
_IN_PLACE_ONE = ("if", "then", "else")
_REFERENCES = ("$ref", "$dynamicRef", "$recursiveRef")
# The comparison's order of type atoms, after those a schema lists (see View.type_order).
TYPE_ORDER = ("object", "array", "string", "integer", "fraction", "boolean", "null")


class Document:
    """One side's schema document: the root, its dialect (``$schema``, default 2020-12, as the
    validator reads it), where its references lead, and whether a value fits one of its schema
    objects (each such check compiled once, by the validator itself)."""

    _URI = "urn:toolreg-diff:document"

    def __init__(self, root: Any, validator: Validator | None = None) -> None:
        self.root = root
        declared = root.get("$schema") if isinstance(root, dict) else None
        self.declared = declared if isinstance(declared, str) else None
        self.dialect = DIALECTS.get(self.declared or "", DEFAULT_DIALECT)
        self._anchors: dict[str, str] | None = None
        self._nested_ids = False
        self._checks: dict[str, Validator | None] = {}
        self._validator = validator
        # JSON keys and reference-freedom of values of this document, by identity (each value kept
        # beside its answer, so an identity is never reused while it is cached).
        self._keys: dict[int, tuple[Any, Any]] = {}
        self._contained: dict[int, tuple[Any, bool]] = {}

    # -- references ---------------------------------------------------------------------------------

    def at(self, pointer: str) -> tuple[bool, Any]:
        """The value at ``pointer``, and whether there is one."""
        try:
            tokens = split(pointer)
        except ValueError:
            return False, None
        return walk_tokens(self.root, tokens)

    def target(self, reference: Any) -> Part | None:
        """The schema object a ``$ref`` names inside this document, or None where it cannot be followed
        (another document, an anchor not found, a document with resources of its own)."""
        if not isinstance(reference, str):
            return None
        self._index()
        if self._nested_ids:
            return None
        base = self.root.get("$id") if isinstance(self.root, dict) else None
        if isinstance(base, str) and base and reference.startswith(base.split("#")[0] + "#"):
            reference = reference[len(base.split("#")[0]) :]
        if not reference.startswith("#"):
            return None
        fragment = unquote(reference[1:])
        if fragment and not fragment.startswith("/"):
            assert self._anchors is not None
            pointer = self._anchors.get(fragment)
            if pointer is None:
                return None
        else:
            pointer = fragment
        found, value = self.at(pointer)
        return Part(value, pointer) if found and isinstance(value, (dict, bool)) else None

    def _index(self) -> None:
        """Anchors by name, and whether some schema object below the root sets a base of its own."""
        if self._anchors is not None:
            return
        self._anchors = {}
        stack: list[tuple[Any, str]] = [(self.root, "")]
        seen = 0
        while stack and seen < 100_000:
            value, pointer = stack.pop()
            seen += 1
            if isinstance(value, dict):
                anchor = value.get("$anchor")
                if isinstance(anchor, str):
                    self._anchors.setdefault(anchor, pointer)
                identifier = value.get("$id")
                if isinstance(identifier, str) and pointer:
                    if identifier.startswith("#"):  # draft-07 writes an anchor as an $id
                        self._anchors.setdefault(identifier[1:], pointer)
                    else:
                        self._nested_ids = True
                stack.extend((item, f"{pointer}/{escape(key)}") for key, item in value.items())
            elif isinstance(value, list):
                stack.extend((item, f"{pointer}/{index}") for index, item in enumerate(value))

    # -- checks ---------------------------------------------------------------------------------------

    def key(self, value: Any) -> Any:
        """``json_key(value)``, kept for a value of this document."""
        if not isinstance(value, (dict, list)):
            return json_key(value)
        found = self._keys.get(id(value))
        if found is None or found[0] is not value:
            if isinstance(value, dict):
                key: Any = ("object", frozenset((name, self.key(item)) for name, item in value.items()))
            else:
                key = ("array", tuple(self.key(item) for item in value))
            found = self._keys[id(value)] = (value, key)
        return found[1]

    def contained(self, value: Any) -> bool:
        """Whether ``value`` holds no reference (so equal values mean the same in any document)."""
        found = self._contained.get(id(value))
        if found is None or found[0] is not value:
            if isinstance(value, dict):
                answer = not any(keyword in value for keyword in _REFERENCES) and all(
                    self.contained(item) for item in value.values()
                )
            elif isinstance(value, list):
                answer = all(self.contained(item) for item in value)
            else:
                answer = True
            found = self._contained[id(value)] = (value, answer)
        return found[1]

    @property
    def validator(self) -> Validator:
        """The validator of the whole document (it was checked before the comparison)."""
        if self._validator is None:
            self._validator = Validator(self.root)
        return self._validator

    def errors(self, part: Part, value: Any) -> list[ValidationError] | None:
        """The validator's errors for ``value`` against the schema object ``part`` (with its
        references), each ``schema_path`` a pointer into this document; None when that cannot be
        asked."""
        if isinstance(part.schema, bool):
            return [] if part.schema else [ValidationError("", part.pointer or "", "false", "false")]
        if part.pointer is None:
            key = "~" + json.dumps(part.schema, sort_keys=True)
            wrapper: Any = dict(part.schema)
        else:
            key = part.pointer
            wrapper = {"$ref": f"{self._URI}#{part.pointer}"}
        if key not in self._checks:
            if self.declared is not None:
                wrapper = {"$schema": self.declared, **wrapper}
            try:
                self._checks[key] = Validator(wrapper, documents={self._URI: self.root})
            except (ToolregError, RecursionError, ValueError):
                self._checks[key] = None
        check = self._checks[key]
        if check is None:
            return None
        prefix = self._URI + "#"
        return [
            ValidationError(
                error.path,
                error.schema_path.removeprefix(prefix),
                error.keyword,
                error.message,
                dict(error.facts),
            )
            for error in check.validate_reference(value)
        ]

    def accepts(self, part: Part, value: Any) -> bool | None:
        """Whether ``value`` fits the schema object ``part`` (with its references), by the validator;
        None when that cannot be asked."""
        errors = self.errors(part, value)
        return None if errors is None else not errors

    def view(self, seeds: Iterable[Part]) -> View:
        """The view of the schema objects ``seeds`` and of every one they apply in place."""
        parts: list[Part] = []
        stops: list[Stop] = []
        seen: set[str] = set()
        queue: list[tuple[Part, int]] = [(seed, 0) for seed in seeds]
        while queue:
            part, hops = queue.pop(0)
            if part.pointer is not None:
                if part.pointer in seen:
                    continue
                seen.add(part.pointer)
            if len(parts) >= MAX_PARTS:
                stops.append(Stop("allOf", part.pointer, f"more than {MAX_PARTS} schemas apply to one value"))
                break
            schema = part.schema
            if not isinstance(schema, dict):
                parts.append(part)
                continue
            if "$ref" in schema:
                target = self.target(schema["$ref"])
                if target is None:
                    stops.append(Stop("$ref", part.at("$ref"), "a reference the comparison does not follow"))
                elif hops >= MAX_HOPS:
                    stops.append(Stop("$ref", part.at("$ref"), f"more than {MAX_HOPS} references deep"))
                else:
                    queue.append((target, hops + 1))
                if self.dialect == DRAFT_7:  # its siblings are ignored
                    continue
            for keyword in ("$dynamicRef", "$recursiveRef"):
                if keyword in schema:
                    stops.append(Stop(keyword, part.at(keyword), "a dynamic reference"))
            members = schema.get("allOf")
            if isinstance(members, list):
                queue.extend(
                    (Part(member, part.at("allOf", index)), hops) for index, member in enumerate(members)
                )
            parts.append(part)
        return View(self, tuple(parts), tuple(stops))

    def declared_names(self, parts: Iterable[Part]) -> tuple[frozenset[str], tuple[str, ...]] | None:
        """The names a caller may send under the declared reading: every ``properties`` name and
        ``patternProperties`` pattern of the schema objects applied in place, any branch included;
        None when none declares any (a free-form object)."""
        names: set[str] = set()
        patterns: list[str] = []
        declares = False
        for part in self._in_place(parts):
            properties, matched = part.get("properties"), part.get("patternProperties")
            if isinstance(properties, dict):
                declares = True
                names.update(properties)
            if isinstance(matched, dict):
                declares = True
                patterns.extend(matched)
        return (frozenset(names), tuple(patterns)) if declares else None

    def _in_place(self, parts: Iterable[Part]) -> Iterator[Part]:
        queue = list(parts)
        seen: set[str | None] = set()
        while queue and len(seen) < MAX_PARTS * 4:
            part = queue.pop()
            if part.pointer is not None and part.pointer in seen:
                continue
            seen.add(part.pointer)
            yield part
            if not isinstance(part.schema, dict):
                continue
            target = self.target(part.schema["$ref"]) if "$ref" in part.schema else None
            if target is not None:
                queue.append(target)
            for keyword in _IN_PLACE_LISTS:
                members = part.get(keyword)
                if isinstance(members, list):
                    queue.extend(
                        Part(member, part.at(keyword, index)) for index, member in enumerate(members)
                    )
            for keyword in _IN_PLACE_ONE:
                if keyword in part.schema:
                    queue.append(Part(part.schema[keyword], part.at(keyword)))
            for keyword in ("dependentSchemas", "dependencies"):
                dependent = part.get(keyword)
                if isinstance(dependent, dict):
                    queue.extend(
                        Part(value, part.at(keyword, name))
                        for name, value in dependent.items()
                        if isinstance(value, (dict, bool))
                    )


def declared_only(instance: Any, document: Document, budget: int = 10_000) -> bool:
    """Whether every object in ``instance`` holds only names its schema declares (the declared
    reading of a caller), read as :meth:`Document.declared_names` does; a free-form object may hold
    any. The walk is bounded by ``budget`` values, past which the answer is False."""
    stack: list[tuple[Any, list[Part]]] = [(instance, [Part(document.root, "")])]
    while stack:
        budget -= 1
        if budget < 0:
            return False
        value, parts = stack.pop()
        everything = list(document._in_place(parts))
        if isinstance(value, dict):
            declared = document.declared_names(parts)
            for name, item in value.items():
                if declared is not None:
                    names, patterns = declared
                    if name not in names and not any(matches(pattern, name) for pattern in patterns):
                        return False
                children = [child for part in everything if (child := _child_part(part, name)) is not None]
                stack.append((item, children))
        elif isinstance(value, list):
            for index, item in enumerate(value):
                children = [
                    child
                    for part in everything
                    if (child := item_part(part, index, document.dialect)) is not None
                ]
                stack.append((item, children))
    return True


def _child_part(part: Part, name: str) -> Part | None:
    properties = part.get("properties")
    if isinstance(properties, dict) and name in properties:
        return Part(properties[name], part.at("properties", name))
    patterns = part.get("patternProperties")
    if isinstance(patterns, dict):
        for pattern, schema in patterns.items():
            if matches(pattern, name):
                return Part(schema, part.at("patternProperties", pattern))
    if "additionalProperties" in (part.schema if isinstance(part.schema, dict) else {}):
        return Part(part.schema["additionalProperties"], part.at("additionalProperties"))
    return None


# -- views ---------------------------------------------------------------------------------------------


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


def _strictest(view: View, inclusive: str, exclusive: str, pick: Any) -> Bound | None:
    bounds = [Bound(exact_number(value)) for value, _ in view.values_of(inclusive) if is_number(value)]
    bounds += [Bound(exact_number(value), True) for value, _ in view.values_of(exclusive) if is_number(value)]
    if not bounds:
        return None
    best = pick(bound.value for bound in bounds)
    return Bound(best, any(bound.exclusive for bound in bounds if bound.value == best))


def _asserting(schema: Any) -> bool:
    return isinstance(schema, dict) and any(not is_quiet(keyword) for keyword in schema)
