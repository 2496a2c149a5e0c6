"""One side's schema document as the comparison reads it: its dialect (``$schema``, default 2020-12, as
the validator reads it), where its references lead, the names callers may send under the declared
reading, and a check of any value against any of its schema objects by the validator itself.

References are followed inside the document only (``#/...`` pointers and anchors), at most
``schemas.MAX_HOPS`` deep; a document whose subschemas set bases of their own (``$id``) has its
references left unfollowed, each a stop of the proofs that meet it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any
from urllib.parse import unquote

from .._jsonschema.errors import ToolregError, ValidationError
from .._jsonschema.pointer import escape, split, walk_tokens
from .._jsonschema.validator import Validator
from .._jsonschema.values import json_key
from .._jsonschema.vocabulary import DEFAULT_DIALECT, DIALECTS, DRAFT_7
from .schemas import MAX_HOPS, MAX_PARTS, Part, Stop, View, item_part, matches

__all__ = ["Document", "Declared", "declared_only"]

# The names a caller may send under the declared reading: names, and patterns; None for any.
Declared = tuple[frozenset[str], tuple[str, ...]] | None
_IN_PLACE_LISTS = ("allOf", "anyOf", "oneOf")
_IN_PLACE_ONE = ("if", "then", "else")
_REFERENCES = ("$ref", "$dynamicRef", "$recursiveRef")


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
