"""OpenAI's strict form of a tool's schema, and its inverse: the nulls a strict call sends, read as absent.

Strict mode (Structured Outputs) takes a subset of JSON Schema: closed objects listing every property
as required, with an optional property made nullable instead. So a model following the strict form
sends ``null`` for what it would leave out, and :func:`absent_nulls` reads the call back: each null
given for an optional property is dropped, wherever the schema names one (through ``$ref``,
``allOf``, ``anyOf`` and ``oneOf`` branches, items and nested objects). :func:`strict_form` refuses
what would make that reading ambiguous, so for every tool it accepts and every valid call, the call
as a strict model writes it is read back as the call itself.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

from .._errors import ExportError
from .._jsonschema.errors import ToolregError, ValidationError
from .._jsonschema.limits import DEFAULT_LIMITS, WORK_PER_VALUE, Limits, budget
from .._jsonschema.pointer import split, to_pointer, walk_tokens
from .._jsonschema.values import survey
from .._jsonschema.vocabulary import keywords

__all__ = ["strict_form", "absent_nulls", "admits_null", "NullsPastBudget", "SUPPORTED_FORMATS"]

# What strict mode accepts. Checked on 2026-12-03 against OpenAI's "Supported schemas" (Structured
# Outputs guide), as digested in February 2026: types, enum, const, anyOf (not at the root),
# $ref/$defs; string pattern and format; number multipleOf, minimum, maximum and the exclusive bounds;
# array minItems and maxItems; objects closed, every property required; at most 10 levels.
# Annotations it does not take are dropped from the exported copy; anything else is a blocker. Each
# keyword's row says whether strict mode takes it (its export group's ``openai_strict``; a row without
# one is left out); of the annotations, it takes these two.
_STRICT_KEYWORDS = frozenset(
    name for name, row in keywords().items() if row.export is not None and row.export.openai_strict
) | {
    "description",
    "title",
}
_DROPPED = frozenset(
    {"$schema", "$comment", "default", "examples", "deprecated", "readOnly", "writeOnly", "example",
     "discriminator", "contentEncoding", "contentMediaType", "contentSchema"}
)  # fmt: skip
# The formats strict mode takes; requests with any other are refused (HTTP 400).
SUPPORTED_FORMATS = frozenset(
    {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
)
# A schema strict mode can send a value for names one of these (or is an object, given a type here).
_TYPED_BY = ("type", "anyOf", "$ref", "enum", "const")
_HOLDS = {name: row.holds for name, row in keywords().items() if name in _STRICT_KEYWORDS}
_STRICT_MAX_DEPTH = 10
_MISSING = object()
_Location = tuple[str | int, ...]


# -- the strict form ---------------------------------------------------------------------------------


@dataclass
class _Conversion:
    """One conversion: the schema's root, whether to leave out what strict mode cannot say, what was
    left out, the blockers found, and where optional properties were made nullable."""

    root: Any
    omit: bool
    omitted: list[str] = field(default_factory=list)
    blockers: list[tuple[str, str]] = field(default_factory=list)
    nullable: set[str] = field(default_factory=set)
    removed: set[_Location] = field(default_factory=set)

    def block(self, location: _Location, reason: str) -> None:
        self.blockers.append((to_pointer(location), reason))

    def unsupported(self, location: _Location, keyword: str, value: Any, reason: str) -> None:
        """A keyword strict mode cannot say: left out and listed with ``omit``, else a blocker."""
        if self.omit:
            self.omitted.append(f"{to_pointer(location[:-1]) or '/'}: {keyword} {_shown(value)}")
        else:
            self.block(location, reason)


def strict_form(schema: Any, name: str, *, omit: bool) -> tuple[dict[str, Any], list[str]]:
    """The schema in OpenAI's strict form and what was left out of it, or an ExportError naming every
    blocker at once (the first one's pointer as its ``schema_path``).

    Every object is closed and lists every property as required; a property that was optional
    becomes nullable instead (``"type": ["string", "null"]``, or an ``anyOf`` with
    ``{"type": "null"}``), so a harness reads ``null`` as "not given" (:func:`absent_nulls`). Blockers:
    a keyword strict mode does not take, a ``format`` other than :data:`SUPPORTED_FORMATS`, a schema
    with no type, an object open to properties it does not name, a ``false`` schema, an ``anyOf`` at
    the root, nesting past 10 levels, and an optional property whose ``null`` could not be told from
    its absence (one that accepts null itself without ``"default": null``, or one that another branch
    requires). With ``omit``, a keyword strict mode cannot express is left out (the registry still
    checks it), ``oneOf`` is written as ``anyOf``, an object with named properties is closed, and an
    optional property that cannot be expressed at all (no type, a map, ``false``) is left out whole;
    each is listed, as ``pointer: what``. What cannot be left out soundly stays a blocker: a map (an
    object of properties it does not name, which closing would empty), a required property that
    cannot be expressed, an ``anyOf`` at the root, nesting past 10 levels.
    """
    walk = _Conversion(schema, omit)
    for union in ("anyOf", "oneOf") if isinstance(schema, dict) else ():
        if union in schema:  # (a oneOf would be written as an anyOf)
            walk.block((union,), f"OpenAI strict mode forbids {union} at the root")
    converted: dict[str, Any] = _strict(schema, (), 0, walk)
    for location, reason in _ambiguities(schema, walk.removed):
        if omit and reason.endswith(_NO_DEFAULT):
            walk.omitted.append(f"{to_pointer(location)}: null is read as leaving it out")
        else:
            walk.block(location, reason)
    if not walk.blockers:
        for location, reason in _dangling(converted, walk.nullable):
            walk.block(location, reason)
    if walk.blockers:
        listed = "; ".join(f"{reason} (at {pointer!r})" for pointer, reason in walk.blockers)
        count = f"{len(walk.blockers)} blocker{'s' if len(walk.blockers) > 1 else ''}"
        raise ExportError(
            f"{name}: OpenAI strict mode cannot take this schema ({count}): {listed}",
            schema_path=walk.blockers[0][0],
        )
    return converted, walk.omitted


def _strict(schema: Any, location: _Location, depth: int, walk: _Conversion) -> Any:
    if schema is False:
        walk.block(location, "OpenAI strict mode takes no 'false' schema")
        return {}
    if not isinstance(schema, dict):
        schema = {}  # true: any value, which strict mode cannot send
    if depth > _STRICT_MAX_DEPTH:
        walk.block(location, f"OpenAI strict mode allows {_STRICT_MAX_DEPTH} levels of nesting")
        return {}
    schema = _merged(schema)
    before = len(walk.blockers)
    converted: dict[str, Any] = {}
    for keyword, value in schema.items():
        here = location + (keyword,)
        if keyword in _DROPPED or keyword.startswith("x-") or keyword in ("properties", "required"):
            continue
        if keyword == "additionalProperties":
            continue  # settled with the properties, below
        if keyword == "oneOf" and walk.omit:
            walk.omitted.append(f"{to_pointer(location) or '/'}: oneOf written as anyOf")
            keyword, here = "anyOf", location + ("oneOf",)
        elif keyword == "format" and value not in SUPPORTED_FORMATS:
            formats = ", ".join(sorted(SUPPORTED_FORMATS))
            walk.unsupported(here, keyword, value, f"OpenAI strict mode takes only the formats {formats}")
            continue
        elif keyword not in _STRICT_KEYWORDS:
            walk.unsupported(here, keyword, value, f"OpenAI strict mode does not support {keyword!r}")
            continue
        # Where the subschemas are, as the vocabulary says: each is converted in turn.
        holds = _HOLDS.get(keyword, "")
        if holds == "map" and isinstance(value, dict):
            converted[keyword] = {
                key: _strict(item, here + (key,), depth + 1, walk) for key, item in value.items()
            }
        elif holds == "list" and isinstance(value, list):
            converted[keyword] = [
                _strict(item, here + (index,), depth + 1, walk) for index, item in enumerate(value)
            ]
        elif holds in ("schema", "schema-or-list"):
            converted[keyword] = _strict(value, here, depth + 1, walk)
        else:
            converted[keyword] = copy.deepcopy(value)
    if "properties" in schema or "object" in _types(schema) or not location:
        _closed_object(schema, converted, location, depth, walk)
    if not any(keyword in converted for keyword in _TYPED_BY) and len(walk.blockers) == before:
        # (A keyword blocked above may be what typed it: that blocker says enough.)
        walk.block(location, "OpenAI strict mode needs a type for every schema, and this one has none")
    return converted


def _merged(schema: dict[str, Any]) -> dict[str, Any]:
    """An ``allOf`` of one branch (as pydantic wrote a described ``$ref``) merged into its schema, when
    they share no keyword: the same schema, which strict mode can take."""
    branches = schema.get("allOf")
    if not (isinstance(branches, list) and len(branches) == 1 and isinstance(branches[0], dict)):
        return schema
    rest = {key: value for key, value in schema.items() if key != "allOf"}
    if rest.keys() & branches[0].keys():
        return schema
    return {**rest, **branches[0]}


def _closed_object(
    schema: dict[str, Any], converted: dict[str, Any], location: _Location, depth: int, walk: _Conversion
) -> None:
    """Close an object, every property required and the optional ones nullable; leave out, with
    ``omit``, an optional property strict mode cannot express."""
    given = schema.get("properties")
    given = given if isinstance(given, dict) else {}
    required = {name for name in schema.get("required", ()) if isinstance(name, str)}
    properties: dict[str, Any] = {}
    for key, item in given.items():
        here = location + ("properties", key)
        before = len(walk.blockers)
        written = _strict(item, here, depth + 1, walk)
        if len(walk.blockers) > before and walk.omit and key not in required:
            reason = walk.blockers[before][1]
            del walk.blockers[before:]
            walk.removed.add(here)
            walk.omitted.append(f"{to_pointer(here)}: left out ({reason})")
            continue
        if key not in required:
            written = _nullable(written, item, walk.root)
            walk.nullable.add(to_pointer(here))
        properties[key] = written
    extra = schema.get("additionalProperties", _MISSING)
    here = location + ("additionalProperties",)
    # (An object at the root with no properties, a tool without parameters, is closed as it is.)
    if extra is not False and (extra is not _MISSING or given or location):
        if not given:
            # Closing it would leave it no key at all: what it holds cannot be sent.
            walk.block(
                here if extra is not _MISSING else location,
                "OpenAI strict mode needs closed objects, and this one is a map of properties it does "
                "not name, which closing would empty",
            )
        elif extra is not _MISSING:
            walk.unsupported(
                here,
                "additionalProperties",
                extra,
                "OpenAI strict mode needs closed objects, but 'additionalProperties' allows more",
            )
        elif schema.get("unevaluatedProperties") is not False:  # (that keyword says for itself)
            # Open to other names by default: a valid call may send them, a strict model never could.
            if walk.omit:
                walk.omitted.append(f"{to_pointer(location) or '/'}: other property names")
            else:
                walk.block(
                    location,
                    "OpenAI strict mode needs closed objects, and this one allows properties it does not "
                    'name (it has no "additionalProperties": false)',
                )
    converted["properties"] = properties
    converted["required"] = list(properties)
    converted["additionalProperties"] = False
    if "type" not in converted and "anyOf" not in converted and "$ref" not in converted:
        converted["type"] = "object"


def _nullable(converted: dict[str, Any], original: Any, root: Any) -> dict[str, Any]:
    """An optional property's strict form: as it is if it accepts null already, else made nullable."""
    if admits_null(original, root):
        return converted
    if "type" in converted and "enum" not in converted and "const" not in converted:
        declared = converted["type"]
        names: Iterable[str] = [declared] if isinstance(declared, str) else declared
        return {**converted, "type": list(dict.fromkeys([*names, "null"]))}
    return {"anyOf": [converted, {"type": "null"}]}


def _dangling(root: dict[str, Any], nullable: set[str]) -> Iterator[tuple[_Location, str]]:
    """Each ``$ref`` of the strict form that no longer means what it meant: one that points at
    nothing, or at or into an optional property made nullable (a ``$ref`` there would accept
    ``null``, and a pointer into its ``anyOf`` wrapper names another schema)."""
    stack: list[tuple[Any, _Location]] = [(root, ())]
    while stack:
        node, here = stack.pop()
        if isinstance(node, list):
            stack.extend((item, here + (index,)) for index, item in enumerate(node))
        elif isinstance(node, dict):
            ref = node.get("$ref")
            target = unquote(ref[1:]) if isinstance(ref, str) else ""
            moved = any(target == pointer or target.startswith(pointer + "/") for pointer in nullable)
            if isinstance(ref, str) and (moved or _resolve(root, ref) is _MISSING):
                yield (
                    here + ("$ref",),
                    (
                        f"in OpenAI's strict form '$ref' {ref!r} would point at an optional property made "
                        "nullable, or at nothing; refer to a schema under $defs instead"
                    ),
                )
            stack.extend((item, here + (key,)) for key, item in node.items() if key != "$ref")


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= 60 else text[:59] + "…"


def _types(schema: dict[str, Any]) -> set[str]:
    declared = schema.get("type")
    return {declared} if isinstance(declared, str) else set(declared if isinstance(declared, list) else ())


# -- reading nulls as absent -----------------------------------------------------------------------------

_NO_DEFAULT = 'accepts null itself; make it required, or give it "default": null'


def absent_nulls(schema: Any, args: Any, limits: Limits = DEFAULT_LIMITS) -> Any:
    """``args`` with each ``null`` given for an optional property left out, wherever the schema names
    one: what a call made through OpenAI's strict form means by it. A property counts as optional
    where some schema that may apply there names it and none requires it. ``args`` itself is not
    changed; nothing deeper than ``limits.max_depth`` is read (validation then answers for it).

    It works within the budget a validation of ``args`` has (``limits.max_work`` and 50 for each of
    its values): a step for each schema found that may apply at a place, and for each property or
    item, one for each schema naming the property or applying to its value. Past it,
    :class:`NullsPastBudget`, carrying the ``limit`` error to answer with: a union of 1,000 objects
    with open properties over 100,000 properties would take a hundred million lookups.
    """
    if limits.max_depth <= 0 or not isinstance(args, (dict, list)):
        return args
    reading = _Reading(schema, limits, survey(args, limits.max_depth)[1])
    return _absent(reading, reading.places([((), schema)]), args, limits.max_depth)


class NullsPastBudget(ToolregError, ValueError):
    """Reading a call's nulls as absent would take past its work budget; ``error`` is the one
    ``limit`` error that answers the call, as a validation past its budget is answered."""

    def __init__(self, limits: Limits, values: int) -> None:
        steps = budget(limits, values)
        message = (
            f"needs more than {steps} steps of work to read its nulls as absent "
            f"(max_work {limits.max_work}, and {WORK_PER_VALUE} for each of its {values} values)"
        )
        super().__init__(message)
        self.error = ValidationError("", "", "limit", message, {"limit": steps})


class _Places:
    """The schemas that may apply at one set of places, and what is read of them once however many
    values stand there: the schemas naming each property, those giving the other names a schema
    (additionalProperties), whether a null of a property may be left out, and the places below each
    property and each item."""

    __slots__ = ("applying", "naming", "others", "optional", "below", "items", "prefix")

    def __init__(self, applying: list[tuple[_Location, dict[str, Any]]]) -> None:
        self.applying = applying
        self.naming: dict[Any, list[tuple[_Location, dict[str, Any]]]] = {}
        for here, schema in applying:
            for name in _property_names(schema):
                self.naming.setdefault(name, []).append((here, schema))
        self.others = [
            (here, schema)
            for here, schema in applying
            if isinstance(schema.get("additionalProperties"), dict)
        ]
        self.optional: dict[Any, bool] = {}
        self.below: dict[Any, _Places] = {}
        self.items: dict[int, _Places] = {}
        # Past the longest prefixItems (or tuple items), every index has the same places below.
        self.prefix = max((len(_prefix_of(schema)) for _, schema in applying), default=0)


def _prefix_of(schema: dict[str, Any]) -> list[Any]:
    prefix = schema.get("items") if isinstance(schema.get("items"), list) else schema.get("prefixItems")
    return prefix if isinstance(prefix, list) else []


# Where the places below a property none of the schemas names are kept (no name is this object).
_UNNAMED = object()


class _Reading:
    """One reading of a call: the schema, what is read of each set of places (by their locations),
    and the steps left of its budget."""

    __slots__ = ("root", "known", "left", "over")

    def __init__(self, root: Any, limits: Limits, values: int) -> None:
        self.root = root
        self.known: dict[tuple[_Location, ...], _Places] = {}
        self.left = budget(limits, values)
        self.over = (limits, values)

    def spend(self, steps: int) -> None:
        self.left -= steps
        if self.left < 0:
            raise NullsPastBudget(*self.over)

    def places(self, places: list[tuple[_Location, Any]]) -> _Places:
        """What applies at ``places``, read once for each set of them."""
        self.spend(len(places))
        key = tuple(location for location, _ in places)
        found = self.known.get(key)
        if found is None:
            applying = _applying(self.root, places)
            self.spend(len(applying))
            found = self.known[key] = _Places(applying)
        return found

    def optional(self, at: _Places, name: Any) -> bool:
        """Whether a null given for ``name`` there means it was left out: some schema names it and
        none requires it."""
        if name not in at.naming:
            return False
        found = at.optional.get(name)
        if found is None:
            named = at.naming[name]
            self.spend(len(named))
            required = any(name in _required(schema) for _, schema in named)
            found = at.optional[name] = bool(named) and not required
        return found

    def below(self, at: _Places, name: Any) -> _Places:
        """The places of the value of the property ``name``: where a schema names it, else its
        additionalProperties (the same for every name none names)."""
        key = name if name in at.naming else _UNNAMED
        found = at.below.get(key)
        if found is None:
            named = at.naming.get(name, [])
            self.spend(len(named) + len(at.others))
            places = [(here + ("properties", name), schema["properties"][name]) for here, schema in named]
            places += [
                (here + ("additionalProperties",), schema["additionalProperties"])
                for here, schema in at.others
                if not _named(schema, name)
            ]
            found = at.below[key] = self.places(places)
        return found

    def item(self, at: _Places, index: int) -> _Places:
        """The places of the item at ``index``."""
        shared = min(index, at.prefix)
        found = at.items.get(shared)
        if found is None:
            self.spend(len(at.applying))
            found = at.items[shared] = self.places(_at_index(at.applying, index))
        return found


def _absent(reading: _Reading, at: _Places, value: Any, depth_left: int) -> Any:
    deeper = depth_left > 1  # else the values below are given back as they are
    if isinstance(value, dict):
        kept: dict[Any, Any] = {}
        for name, item in value.items():
            reading.spend(1)
            if item is None and reading.optional(at, name):
                continue
            if deeper and isinstance(item, (dict, list)):
                item = _absent(reading, reading.below(at, name), item, depth_left - 1)
            kept[name] = item
        return kept
    result = []
    for index, item in enumerate(value):
        reading.spend(1)
        if deeper and isinstance(item, (dict, list)):
            item = _absent(reading, reading.item(at, index), item, depth_left - 1)
        result.append(item)
    return result


def _applying(root: Any, places: list[tuple[_Location, Any]]) -> list[tuple[_Location, dict[str, Any]]]:
    """Every schema that may apply where ``places`` do: each, the targets of their local ``$ref``s and
    the branches of their ``allOf``, ``anyOf`` and ``oneOf``, each once."""
    found: dict[_Location, dict[str, Any]] = {}
    stack = list(reversed(places))
    while stack:
        location, schema = stack.pop()
        if location in found or not isinstance(schema, dict):
            continue
        found[location] = schema
        ref = schema.get("$ref")
        if isinstance(ref, str) and ref.startswith("#"):
            target = _resolve(root, ref)
            if target is not _MISSING:
                stack.append((_ref_location(ref), target))
        for keyword in ("allOf", "anyOf", "oneOf"):
            branches = schema.get(keyword)
            if isinstance(branches, list):
                stack.extend((location + (keyword, index), branch) for index, branch in enumerate(branches))
    return list(found.items())


def _property_names(schema: dict[str, Any]) -> list[str]:
    properties = schema.get("properties")
    return list(properties) if isinstance(properties, dict) else []


def _named(schema: dict[str, Any], name: Any) -> bool:
    properties = schema.get("properties")
    return isinstance(properties, dict) and name in properties


def _required(schema: dict[str, Any]) -> list[Any]:
    required = schema.get("required")
    return required if isinstance(required, list) else []


def _below(applying: list[tuple[_Location, dict[str, Any]]], name: str) -> list[tuple[_Location, Any]]:
    """The schemas of the property ``name`` in each applying schema: where it names it, else its
    ``additionalProperties``."""
    places: list[tuple[_Location, Any]] = []
    for location, schema in applying:
        if _named(schema, name):
            places.append((location + ("properties", name), schema["properties"][name]))
        elif isinstance(schema.get("additionalProperties"), dict):
            places.append((location + ("additionalProperties",), schema["additionalProperties"]))
    return places


def _at_index(applying: list[tuple[_Location, dict[str, Any]]], index: int) -> list[tuple[_Location, Any]]:
    places: list[tuple[_Location, Any]] = []
    for location, schema in applying:
        prefix, items = schema.get("prefixItems"), schema.get("items")
        if isinstance(items, list):  # the tuple form of drafts before 2020-12
            prefix, items = items, schema.get("additionalItems")
            prefix_key, items_key = "items", "additionalItems"
        else:
            prefix_key, items_key = "prefixItems", "items"
        if isinstance(prefix, list) and index < len(prefix):
            places.append((location + (prefix_key, index), prefix[index]))
        elif isinstance(items, dict):
            places.append((location + (items_key,), items))
    return places


def admits_null(schema: Any, root: Any, seen: frozenset[str] = frozenset()) -> bool:
    """Whether ``schema`` may accept ``null``: exactly, for what strict mode takes (type, enum, const,
    anyOf, ``$ref``); for other keywords, "may" (``not``, ``if`` and the like count as accepting)."""
    if schema is True or schema == {}:
        return True
    if not isinstance(schema, dict):
        return False
    if "type" in schema and "null" not in _types(schema):
        return False
    if "enum" in schema and not (isinstance(schema["enum"], list) and None in schema["enum"]):
        return False
    if "const" in schema and schema["const"] is not None:
        return False
    for keyword, every in (("anyOf", False), ("oneOf", False), ("allOf", True)):
        branches = schema.get(keyword)
        if isinstance(branches, list):
            answers = (admits_null(branch, root, seen) for branch in branches)
            if not (all(answers) if every else any(answers)):
                return False
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#") and ref not in seen:
        target = _resolve(root, ref)
        if target is not _MISSING and not admits_null(target, root, seen | {ref}):
            return False
    return True


def _ambiguities(root: Any, removed: set[_Location]) -> Iterator[tuple[_Location, str]]:
    """Each optional property whose ``null`` in a strict call could not be read back for sure: one
    that accepts null itself (unless its default is null, when leaving it out means the same), or one
    that a schema applying at the same place requires. Found by walking the places a value can be
    (``absent_nulls`` reads calls by the same places), each set of schemas once."""
    seen: set[tuple[_Location, ...]] = set()
    stack: list[list[tuple[_Location, Any]]] = [[((), root)]]
    while stack and len(seen) < 10_000:
        places = stack.pop()
        key = tuple(location for location, _ in places)
        if key in seen:
            continue
        seen.add(key)
        applying = _applying(root, places)
        names = dict.fromkeys(name for _, schema in applying for name in _property_names(schema))
        for name in names:
            naming = [(here, schema) for here, schema in applying if _named(schema, name)]
            kept = [(here, schema) for here, schema in naming if here + ("properties", name) not in removed]
            if not kept:
                continue
            optional = [(here, schema) for here, schema in kept if name not in _required(schema)]
            first = kept[0][0] + ("properties", name)
            if optional and len(optional) < len(kept):
                yield (
                    first,
                    (
                        f"property {name!r} is optional in one schema that may apply and required in "
                        "another, so a null for it could not be read back"
                    ),
                )
            elif optional:
                for here, schema in optional:
                    item = schema["properties"][name]
                    default = item.get("default", _MISSING) if isinstance(item, dict) else _MISSING
                    if default is not None and admits_null(item, root):
                        yield here + ("properties", name), f"optional property {name!r} {_NO_DEFAULT}"
                        break
            stack.append(_below(kept, name))
        for index in range(_longest_prefix(applying) + 1):
            below = _at_index(applying, index)
            if below:
                stack.append(below)


def _longest_prefix(applying: list[tuple[_Location, dict[str, Any]]]) -> int:
    lengths = [len(schema.get(key) or ()) for _, schema in applying for key in ("prefixItems", "items")
               if isinstance(schema.get(key), list)]  # fmt: skip
    return max(lengths, default=0)


def _resolve(root: Any, ref: str) -> Any:
    """The schema a local ``$ref`` (``#`` and a JSON Pointer) names in ``root``, or ``_MISSING``."""
    try:
        tokens = split(unquote(ref[1:])) if ref.startswith("#") else None
    except ValueError:  # "#name": an anchor, not a pointer
        tokens = None
    if tokens is None:
        return _MISSING
    found, target = walk_tokens(root, tokens)
    return target if found else _MISSING


def _ref_location(ref: str) -> _Location:
    """The location a local ``$ref`` that resolves names (see :func:`_resolve`)."""
    return tuple(split(unquote(ref[1:])))
