"""Deliberately wrong validators: the conformance suite must flag every one of them."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote

import jsonschema
import jsonschema_rs
from jsonschema.exceptions import ValidationError as OracleError

import toolreg
from conformance._official import ONE_SCHEMA, SCHEMA_ARRAY, SCHEMA_OBJECT, keywords_used
from conformance._oracle import Finding, Oracles, adjusted, finding, non_finite_places, oracle_classes
from conformance._references import declared_anchors
from toolreg._jsonschema.pointer import escape, split, to_pointer


def _booleans_as_integers(value: Any) -> Any:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, list):
        return [_booleans_as_integers(item) for item in value]
    if isinstance(value, dict):
        return {key: _booleans_as_integers(item) for key, item in value.items()}
    return value


def booleans_as_integers(schema: Any, instance: Any) -> list[toolreg.ValidationError]:
    """Python's view: ``True`` is the integer 1."""
    return toolreg.validate(schema, _booleans_as_integers(instance))


def python_re_patterns(schema: Any, instance: Any) -> list[dict[str, str]]:
    """Stock jsonschema, whose ``pattern`` is Python's ``re``; non-JSON input is left to toolreg."""
    if next(non_finite_places(instance), None) is not None:
        return [error.to_dict() for error in toolreg.validate(schema, instance)]
    jsonschema.validators.validator_for(schema).check_schema(schema)
    return [
        {"path": to_pointer(error.absolute_path), "keyword": error.validator or "false"}
        for error in jsonschema.Draft202012Validator(schema).iter_errors(instance)
    ]


def first_error_only(schema: Any, instance: Any) -> list[toolreg.ValidationError]:
    """Stops at the first error, as fail-fast validators do."""
    return toolreg.validate(schema, instance)[:1]


def unescaped_pointers(schema: Any, instance: Any) -> list[dict[str, str]]:
    """Joins path tokens with '/' and forgets RFC 6901's ``~0`` and ``~1``."""
    return [
        {"path": error.path.replace("~1", "/").replace("~0", "~"), "keyword": error.keyword}
        for error in toolreg.validate(schema, instance)
    ]


def _value_at(instance: Any, pointer: str) -> Any:
    for token in split(pointer):
        instance = instance[int(token)] if isinstance(instance, list) else instance[token]
    return instance


_JSON_NUMBER = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?")


def numeric_strings_as_numbers(schema: Any, instance: Any) -> list[toolreg.ValidationError]:
    """Lax mode: ``"7"`` passes for a number (and ``"7"``, not ``"7.5"``, for an integer)."""
    kept = []
    for error in toolreg.validate(schema, instance):
        value = _value_at(instance, error.path) if error.keyword == "type" else None
        if isinstance(value, str) and _JSON_NUMBER.fullmatch(value):
            expected = error.facts["expected_type"]
            if "number" in expected or ("integer" in expected and float(value).is_integer()):
                continue
        kept.append(error)
    return kept


def required_at_the_child(schema: Any, instance: Any) -> list[dict[str, str]]:
    """Reports a missing property where it would have been, not at the object that lacks it."""
    return [
        {
            "path": f"{error.path}/{escape(error.facts['missing'])}"
            if error.keyword == "required"
            else error.path,
            "keyword": error.keyword,
        }
        for error in toolreg.validate(schema, instance)
    ]


def _oracle_changed(
    validators: dict[str, Any] | None = None, integer: Callable[[Any, Any], bool] | None = None
) -> Any:
    """The adjusted jsonschema oracle of the schema's dialect with one more change, to ``validators``
    or to what counts as an integer: a validator wrong in just that way."""
    changed = {
        dialect: jsonschema.validators.extend(
            oracle,
            validators=validators or {},
            type_checker=None if integer is None else oracle.TYPE_CHECKER.redefine("integer", integer),
        )
        for dialect, oracle in oracle_classes().items()
    }

    def validate(schema: Any, instance: Any) -> list[Finding]:
        if not jsonschema_rs.meta.is_valid(schema):
            # A validator checks the schema first: this one is wrong only in the way it was made.
            raise jsonschema.SchemaError("the schema is not valid against its meta-schema")
        if next(non_finite_places(instance), None) is not None:
            return Oracles(schema).findings(instance)
        dialect = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
        return [finding(error) for error in changed[dialect](adjusted(schema)).iter_errors(instance)]

    return validate


def _no_floats(checker: Any, instance: Any) -> bool:
    return type(instance) is int


def _utf16_length(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _utf16_min_length(validator: Any, bound: Any, instance: Any, schema: Any) -> Any:
    if validator.is_type(instance, "string") and _utf16_length(instance) < bound:
        yield OracleError(f"{instance!r} is too short")


def _utf16_max_length(validator: Any, bound: Any, instance: Any, schema: Any) -> Any:
    if validator.is_type(instance, "string") and _utf16_length(instance) > bound:
        yield OracleError(f"{instance!r} is too long")


# Python's view of integers: ``1.0`` is a float, so not an integer.
integral_floats_refused = _oracle_changed(integer=_no_floats)
integral_floats_refused.__name__ = "integral_floats_refused"

# JavaScript's view of length: an astral character such as "😀" counts two.
utf16_lengths = _oracle_changed(validators={"minLength": _utf16_min_length, "maxLength": _utf16_max_length})
utf16_lengths.__name__ = "utf16_lengths"


_LEGACY_ITEMS = jsonschema._legacy_keywords.items_draft6_draft7_draft201909


def _first_item_only(validator: Any, items: Any, instance: Any, schema: Any) -> Any:
    if isinstance(items, list):  # the array form of 2019-09 and draft-07, left right
        yield from jsonschema._legacy_keywords.items_draft6_draft7_draft201909(
            validator, items, instance, schema
        )
        return
    if not validator.is_type(instance, "array"):
        return
    prefix = len(schema.get("prefixItems", [])) if "prefixItems" in validator.VALIDATORS else 0
    if items is False and len(instance) > prefix:
        yield OracleError(f"expected at most {prefix} items")
    elif len(instance) > prefix:
        yield from validator.descend(instance[prefix], items, path=prefix)


# A loop that never went past its first turn: ``items`` holds only the first item it covers to its schema.
items_first_only = _oracle_changed(validators={"items": _first_item_only})
items_first_only.__name__ = "items_first_only"

# An off-by-one: ``exclusiveMinimum`` and ``exclusiveMaximum`` read as ``minimum`` and ``maximum``, so
# the bound itself passes.
exclusive_bounds_inclusive = _oracle_changed(
    validators={
        "exclusiveMinimum": jsonschema._keywords.minimum,
        "exclusiveMaximum": jsonschema._keywords.maximum,
    }
)
exclusive_bounds_inclusive.__name__ = "exclusive_bounds_inclusive"

# What a $ref's neighbours need in every dialect: they name or hold what references reach.
_KEPT_BESIDE_REF = frozenset({"$ref", "$schema", "$id", "$anchor", "$dynamicAnchor", "$defs", "definitions"})


def _subschemas_changed(schema: Any, change: Callable[[dict[str, Any]], dict[str, Any]]) -> Any:
    """``schema`` with ``change`` applied to each object schema in it, the innermost first."""
    if not isinstance(schema, dict):
        return schema
    changed: dict[str, Any] = {}
    for keyword, value in schema.items():
        if keyword in ONE_SCHEMA:
            changed[keyword] = _subschemas_changed(value, change)
        elif keyword in SCHEMA_ARRAY and isinstance(value, list):
            changed[keyword] = [_subschemas_changed(item, change) for item in value]
        elif keyword in SCHEMA_OBJECT and isinstance(value, dict):
            changed[keyword] = {name: _subschemas_changed(item, change) for name, item in value.items()}
        else:
            changed[keyword] = value
    return change(changed)


def _beside_ref_dropped(schema: dict[str, Any]) -> dict[str, Any]:
    if "$ref" not in schema:
        return schema
    return {keyword: value for keyword, value in schema.items() if keyword in _KEPT_BESIDE_REF}


def ref_siblings_ignored(schema: Any, instance: Any) -> list[toolreg.ValidationError]:
    """Reads ``$ref`` as draft-07 does, in every dialect: the assertions beside it are ignored."""
    return toolreg.validate(_subschemas_changed(schema, _beside_ref_dropped), instance)


def _has_empty_name(instance: Any) -> bool:
    if isinstance(instance, list):
        return any(_has_empty_name(item) for item in instance)
    if isinstance(instance, dict):
        return "" in instance or any(_has_empty_name(item) for item in instance.values())
    return False


def raises_on_empty_names(schema: Any, instance: Any) -> list[toolreg.ValidationError]:
    """Crashes on an object holding the property ``""``, as code that takes an empty key for a
    missing one and looks it up again would (``KeyError``)."""
    if _has_empty_name(instance):
        raise KeyError("")
    return toolreg.validate(schema, instance)


_ANCHOR_2020_12 = re.compile(r"[A-Za-z_][-A-Za-z0-9._]*")
_ANCHORS = ("$anchor", "$dynamicAnchor")


def _anchors_renamed(value: Any, names: dict[str, str]) -> Any:
    """``value`` with each anchor in ``names`` renamed, in its declaration and in the references to it."""
    if isinstance(value, list):
        return [_anchors_renamed(item, names) for item in value]
    if not isinstance(value, dict):
        return value
    renamed = {key: _anchors_renamed(item, names) for key, item in value.items()}
    for key in _ANCHORS:
        if renamed.get(key) in names:
            renamed[key] = names[renamed[key]]
    for key in ("$ref", "$dynamicRef"):
        target = renamed.get(key)
        if isinstance(target, str) and target.startswith("#") and unquote(target[1:]) in names:
            renamed[key] = "#" + names[unquote(target[1:])]
    return renamed


def anchors_read_as_2020_12(schema: Any, instance: Any) -> list[toolreg.ValidationError]:
    """Reads every anchor with 2020-12's grammar, whatever the dialect: in 2019-09, ``"_p"`` passes
    and ``"ns:x"`` is refused."""
    names = list(dict.fromkeys(declared_anchors(schema)))
    for name in names:
        if not _ANCHOR_2020_12.fullmatch(name):
            raise toolreg.SchemaError(f"{name!r} is not an anchor name", keyword="$anchor")
    # Renamed to names every dialect takes, so that toolreg's own grammar says nothing.
    renamed = _anchors_renamed(schema, {name: f"n{number}" for number, name in enumerate(names)})
    return toolreg.validate(renamed, instance)


_UNEVALUATED = frozenset({"unevaluatedProperties", "unevaluatedItems"})
# How deep an evaluator that cuts trees short looks.
CUT_AT_DEPTH = 6


def _pruned(instance: Any, depth: int) -> Any:
    """``instance`` with every array or object deeper than ``depth`` emptied."""
    if isinstance(instance, list):
        return [_pruned(item, depth - 1) for item in instance] if depth > 0 else []
    if isinstance(instance, dict):
        return {key: _pruned(item, depth - 1) for key, item in instance.items()} if depth > 0 else {}
    return instance


def unevaluated_cut_short(schema: Any, instance: Any) -> list[toolreg.ValidationError]:
    """Where the schema uses unevaluated*, looks no deeper than six levels into the instance, as an
    evaluator that gives up on a deep recursive tree (rather than run out of time) would."""
    if _UNEVALUATED & keywords_used(schema):
        instance = _pruned(instance, CUT_AT_DEPTH)
    return toolreg.validate(schema, instance)


def _dynamic_as_static(value: Any) -> Any:
    if isinstance(value, list):
        return [_dynamic_as_static(item) for item in value]
    if not isinstance(value, dict):
        return value
    static = {key: _dynamic_as_static(item) for key, item in value.items()}
    if "$dynamicRef" in static:
        static["$ref"] = static.pop("$dynamicRef")
    return static


def dynamic_scope_ignored_under_unevaluated(schema: Any, instance: Any) -> list[toolreg.ValidationError]:
    """Where the schema uses unevaluated*, resolves each ``$dynamicRef`` as a ``$ref``, as an evaluator
    that forgets the resources entered through ``$ref`` on the way to it would."""
    if _UNEVALUATED & keywords_used(schema):
        schema = _dynamic_as_static(schema)
    return toolreg.validate(schema, instance)
