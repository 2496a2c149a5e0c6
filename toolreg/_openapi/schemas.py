"""An OpenAPI document's schemas as JSON Schema 2020-12, for one operation's arguments or result.

Each ``$ref`` names a place in the same document; its target is kept once under ``$defs`` (a name
for each target, unique in the document) and the reference rewritten to ``#/$defs/NAME``, so nested
and recursive schemas stay as they were written, never copied out. OpenAPI 3.0's own keywords are
rewritten: ``nullable: true`` adds ``"null"`` to the type, a boolean ``exclusiveMinimum`` or
``exclusiveMaximum`` takes the number of ``minimum`` or ``maximum``, ``example`` becomes ``examples``,
and ``xml`` and ``externalDocs`` go (they say nothing of what is valid); 3.1's schemas are 2020-12
already. A request's schemas leave out ``readOnly`` properties, a response's ``writeOnly`` ones.

Every rewritten schema remembers, for each of its schema objects, where in the document it came
from, so that a refusal found later (by the registry, in the rewritten schema) points into the
document. The walks are bounded by the registry's ``Limits``: depth, subschemas and references.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .._jsonschema.errors import ToolregError
from .._jsonschema.limits import Limits
from .._jsonschema.pointer import split, to_pointer, walk_tokens

__all__ = ["Tokens", "Refused", "Rewritten", "Document", "REQUEST", "RESPONSE", "DIALECT_2020_12"]

Tokens = tuple[str, ...]
# What a schema is read for: a request's arguments leave out what the server writes (readOnly), a
# response's result what only clients send (writeOnly).
REQUEST, RESPONSE = "request", "response"
DIALECT_2020_12 = "https://json-schema.org/draft/2020-12/schema"
# The longest chain of references to parameters, bodies or responses followed before giving up (a
# schema's references are kept as references, and need no chain).
MAX_HOPS = 32

# Where a schema holds other schemas: by name, in a list, or as one value.
_SCHEMA_MAPS = frozenset({"properties", "patternProperties", "dependentSchemas", "$defs", "definitions"})
_SCHEMA_LISTS = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})
_SCHEMA_VALUES = frozenset(
    {
        "items", "additionalProperties", "not", "if", "then", "else", "propertyNames", "contains",
        "unevaluatedItems", "unevaluatedProperties", "contentSchema", "additionalItems",
    }
)  # fmt: skip
# Identifiers would make a reference mean something other than a pointer into the document.
_IDENTIFIERS = frozenset(
    {"$id", "$anchor", "$dynamicRef", "$dynamicAnchor", "$recursiveRef", "$recursiveAnchor"}
)
_DROPPED = frozenset({"xml", "externalDocs"})
_DEF_NAME = re.compile(r"[^A-Za-z0-9_.-]+")

# Each rewrite said once per operation, with how often and where first (see Rewritten.notes).
NOTES = {
    "nullable": "nullable: true written as a type union with null",
    "exclusive": "a boolean exclusiveMinimum or exclusiveMaximum written as the number it qualifies",
    "example": "example written as examples",
    "dropped": "xml and externalDocs left out: they say nothing of what is valid",
    "readOnly": "readOnly properties left out: the server writes them",
    "writeOnly": "writeOnly properties left out: only clients send them",
    "siblings": "keywords beside a $ref left out, as OpenAPI 3.0 ignores them",
    "mapping": "discriminator's mapping left out: the $refs it names moved to $defs",
    "schema": "$schema (2020-12) left out",
}


class Refused(ToolregError, ValueError):
    """What stops one operation's import: why, and where in the document (its tokens)."""

    def __init__(self, reason: str, where: Tokens) -> None:
        super().__init__(f"{reason} (at {to_pointer(where)!r})")
        self.reason = reason
        self.where = where


@dataclass
class Rewritten:
    """One schema rewritten: the 2020-12 schema, the targets of the references it holds, where each of
    its schema objects came from (its own tokens, relative, to the document's), what was rewritten
    (each note's name, to the places), and how many schema objects it holds."""

    schema: Any
    refers: list[Tokens] = field(default_factory=list)
    origins: dict[Tokens, Tokens] = field(default_factory=dict)
    notes: dict[str, list[Tokens]] = field(default_factory=dict)
    size: int = 0


class Document:
    """An OpenAPI 3.x document's references and schemas, read for one registry's ``Limits``.

    ``legacy`` is OpenAPI 3.0, whose schemas are rewritten; 3.1's are 2020-12. Each reference target
    has one name under ``$defs`` for the whole document, and is rewritten once for requests and once
    for responses, however many operations use it.
    """

    def __init__(self, spec: dict[str, Any], *, legacy: bool, limits: Limits) -> None:
        self.spec = spec
        self.legacy = legacy
        self.limits = limits
        self._names: dict[Tokens, str] = {}
        self._taken: set[str] = set()
        self._rewritten: dict[tuple[Tokens, str], Rewritten | Refused] = {}

    # -- references ----------------------------------------------------------------------------------

    def target(self, ref: object, where: Tokens) -> Tokens:
        """The tokens a ``$ref`` at ``where`` points to, once it is known to lead somewhere."""
        if not isinstance(ref, str):
            raise Refused(f"a $ref is a string, not {type(ref).__name__}", where)
        if not ref.startswith("#"):
            raise Refused(
                f"the $ref {ref!r} names another document; only references within this one are followed",
                where,
            )
        try:
            tokens = tuple(split(_unquoted(ref[1:])))
        except ValueError:
            raise Refused(f"the $ref {ref!r} is not a JSON Pointer into this document", where) from None
        self.at(tokens, f"the $ref {ref!r} points nowhere", where)
        return tokens

    def at(self, tokens: Tokens, missing: str, where: Tokens) -> Any:
        """The value at ``tokens`` in the document, or a refusal saying ``missing`` at ``where``."""
        found, value = walk_tokens(self.spec, tokens)
        if not found:
            raise Refused(missing, where)
        return value

    def followed(self, value: Any, where: Tokens) -> tuple[Any, Tokens]:
        """A parameter, request body or response object with its references followed (at most
        ``MAX_HOPS``), and where it is."""
        for _ in range(MAX_HOPS):
            if not (isinstance(value, dict) and "$ref" in value):
                return value, where
            where = self.target(value["$ref"], where + ("$ref",))
            value = self.at(where, "unreachable", where)
        raise Refused(f"more than {MAX_HOPS} references in a row", where)

    def def_name(self, target: Tokens) -> str:
        """The name under ``$defs`` of a reference's target: its last token (``Pet`` for
        ``#/components/schemas/Pet``), made a plain word and unique in the document."""
        name = self._names.get(target)
        if name is None:
            stem = _DEF_NAME.sub("_", target[-1] if target else "root").strip("_")[:60] or "schema"
            name, number = stem, 1
            while name in self._taken:
                number += 1
                name = f"{stem}_{number}"
            self._names[target] = name
            self._taken.add(name)
        return name

    def flagged(self, schema: Any, flag: str, where: Tokens) -> bool:
        """Whether a property's schema says ``flag`` (``readOnly``) true, itself or through references."""
        for _ in range(MAX_HOPS):
            if not isinstance(schema, dict):
                return False
            if schema.get(flag) is True:
                return True
            if "$ref" not in schema:
                return False
            try:
                where = self.target(schema["$ref"], where)
            except Refused:
                return False  # the walk says why
            schema = self.at(where, "unreachable", where)
        return False

    # -- schemas -------------------------------------------------------------------------------------

    def rewrite(self, schema: Any, where: Tokens, mode: str) -> Rewritten:
        """``schema`` (found at ``where``) as 2020-12, its references pointing into ``$defs``."""
        walk = _Walk(self, mode)
        result = Rewritten(walk.schema(schema, where, (), 0))
        result.refers, result.origins, result.notes, result.size = (
            walk.refers, walk.origins, walk.notes, walk.size
        )  # fmt: skip
        return result

    def definitions(self, roots: list[Rewritten], mode: str, where: Tokens) -> dict[str, Rewritten]:
        """Every reference target the ``roots`` reach, through each other too, by name under ``$defs``;
        a refusal past the registry's limit on subschemas, counted with the roots'."""
        found: dict[str, Rewritten] = {}
        size = sum(root.size for root in roots)
        self._within(size, where)
        waiting = [target for root in roots for target in root.refers]
        while waiting:
            target = waiting.pop()
            name = self.def_name(target)
            if name in found:
                continue
            key = (target, mode)
            rewritten = self._rewritten.get(key)
            if rewritten is None:
                try:
                    rewritten = self.rewrite(self.at(target, "unreachable", target), target, mode)
                except Refused as refusal:
                    # Kept: every operation that refers to it is refused without walking it again.
                    self._rewritten[key] = refusal
                    raise
                self._rewritten[key] = rewritten
            elif isinstance(rewritten, Refused):
                raise Refused(rewritten.reason, rewritten.where)
            found[name] = rewritten
            size += rewritten.size
            self._within(size, where)
            waiting.extend(rewritten.refers)
        return dict(sorted(found.items()))

    def _within(self, size: int, where: Tokens) -> None:
        if size > self.limits.max_schema_size:
            raise Refused(
                f"its schemas and the ones they refer to hold more than {self.limits.max_schema_size} "
                "subschemas (Limits.max_schema_size)",
                where,
            )


class _Walk:
    """One schema's rewrite: the schema objects gone through, and what was found on the way."""

    def __init__(self, document: Document, mode: str) -> None:
        self.document = document
        self.mode = mode
        self.refers: list[Tokens] = []
        self.origins: dict[Tokens, Tokens] = {}
        self.notes: dict[str, list[Tokens]] = {}
        self.size = 0

    def note(self, kind: str, where: Tokens) -> None:
        self.notes.setdefault(kind, []).append(where)

    def schema(self, schema: Any, where: Tokens, out: Tokens, depth: int) -> Any:
        limits = self.document.limits
        self.size += 1
        if self.size > limits.max_schema_size:
            raise Refused(
                f"a schema holds more than {limits.max_schema_size} subschemas (Limits.max_schema_size)",
                where,
            )
        if depth > limits.max_schema_depth:
            raise Refused(
                f"a schema nests deeper than {limits.max_schema_depth} levels (Limits.max_schema_depth)",
                where,
            )
        if isinstance(schema, bool):
            return schema
        if not isinstance(schema, dict):
            raise Refused(f"a schema is an object, not {_kind(schema)}", where)
        self.origins[out] = where
        if "$ref" in schema:
            target = self.document.target(schema["$ref"], where + ("$ref",))
            self.refers.append(target)
            reference = f"#/$defs/{self.document.def_name(target)}"
            if self.document.legacy:
                if set(schema) - {"$ref", "description", "summary"}:
                    self.note("siblings", where)
                return {"$ref": reference}
        written: dict[str, Any] = {}
        for key, value in schema.items():
            inner, deeper = where + (key,), out + (key,)
            if key == "$ref":
                written[key] = reference
            elif key in _SCHEMA_MAPS and isinstance(value, dict):
                written[key] = self.schemas_by_name(key, value, inner, deeper, depth)
            elif key in _SCHEMA_LISTS and isinstance(value, list):
                written[key] = [
                    self.schema(item, inner + (str(index),), deeper + (str(index),), depth + 1)
                    for index, item in enumerate(value)
                ]
            elif key in _SCHEMA_VALUES and isinstance(value, (dict, bool)):
                written[key] = self.schema(value, inner, deeper, depth + 1)
            elif key in _IDENTIFIERS:
                raise Refused(
                    f"{key} is not read in an OpenAPI document's schemas: a $ref points into the document",
                    inner,
                )
            elif key == "$schema":
                if value != DIALECT_2020_12:
                    raise Refused(f"$schema {value!r} is not 2020-12, which OpenAPI 3.1 schemas are", inner)
                self.note("schema", inner)
            elif key in _DROPPED:
                self.note("dropped", inner)
            elif key == "example":
                if "examples" not in schema:
                    written["examples"] = [value]
                self.note("example", inner)
            elif key == "discriminator" and isinstance(value, dict) and "mapping" in value:
                written[key] = {name: item for name, item in value.items() if name != "mapping"}
                self.note("mapping", inner)
            else:
                written[key] = value
        kept, required = written.get("properties"), schema.get("required")
        if isinstance(kept, dict) and isinstance(required, list) and len(kept) < len(schema["properties"]):
            written["required"] = [
                name for name in required if name in kept or name not in schema["properties"]
            ]
        if self.document.legacy:
            return self.legacy(schema, written, where, out)
        return written

    def schemas_by_name(
        self, key: str, value: dict[str, Any], where: Tokens, out: Tokens, depth: int
    ) -> dict[str, Any]:
        kept = {}
        flag = "readOnly" if self.mode == REQUEST else "writeOnly"
        for name, item in value.items():
            inner = where + (str(name),)
            if key == "properties" and self.document.flagged(item, flag, inner):
                self.note(flag, inner)
                continue
            kept[name] = self.schema(item, inner, out + (str(name),), depth + 1)
        return kept

    def legacy(self, schema: dict[str, Any], written: dict[str, Any], where: Tokens, out: Tokens) -> Any:
        """OpenAPI 3.0's keywords as 2020-12 says them."""
        for bound, limit in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
            if isinstance(schema.get(bound), bool):
                exclusive = written.pop(bound)
                if exclusive and limit in written:
                    written[bound] = written.pop(limit)
                self.note("exclusive", where + (bound,))
        nullable = written.pop("nullable", None)
        if "nullable" not in schema or not isinstance(nullable, bool):
            if "nullable" in schema:
                raise Refused(f"nullable is true or false, not {_kind(nullable)}", where + ("nullable",))
            return written
        if not nullable:
            return written
        self.note("nullable", where + ("nullable",))
        declared = written.get("type")
        if isinstance(declared, str):
            written["type"] = [declared, "null"]
        elif isinstance(declared, list) and "null" not in declared:
            written["type"] = [*declared, "null"]
        if isinstance(written.get("enum"), list) and None not in written["enum"]:
            written["enum"] = [*written["enum"], None]
        if declared is None and set(written) & {"allOf", "anyOf", "oneOf", "not", "const", "enum"}:
            # What the keywords refuse, null among it, is taken too: the schema becomes one branch.
            self.origins.update(
                {out + ("anyOf", "1") + tokens[len(out) :]: origin for tokens, origin in self.moved(out)}
            )
            self.origins[out] = where
            return {"anyOf": [{"type": "null"}, written]}
        return written

    def moved(self, out: Tokens) -> Iterator[tuple[Tokens, Tokens]]:
        """The origins at or below ``out``, taken out of the map (they move under a new branch)."""
        below = [tokens for tokens in self.origins if tokens[: len(out)] == out]
        for tokens in below:
            yield tokens, self.origins.pop(tokens)


def _kind(value: object) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean", type(None): "null"}
    return names.get(type(value), "a number" if isinstance(value, (int, float)) else type(value).__name__)


def _unquoted(fragment: str) -> str:
    """A URI fragment's pointer with its percent-escapes read (``%7B`` is ``{``)."""
    if "%" not in fragment:
        return fragment
    from urllib.parse import unquote

    return unquote(fragment)
