"""Deliberately wrong validators: the conformance suite must flag every one of them."""

from __future__ import annotations

import re
from typing import Any

import jsonschema
from jsonschema.exceptions import ValidationError as OracleError

import toolreg
from conformance._oracle import Finding, Oracle, Oracles, finding, locate_false_subschemas, non_finite_places
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


def _oracle_changed(**changes: Any) -> Any:
    """The adjusted jsonschema oracle with one more change: a validator wrong in just that way."""
    changed = jsonschema.validators.extend(Oracle, **changes)

    def validate(schema: Any, instance: Any) -> list[Finding]:
        if next(non_finite_places(instance), None) is not None:
            return Oracles(schema).findings(instance)
        return [finding(error) for error in changed(locate_false_subschemas(schema)).iter_errors(instance)]

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
integral_floats_refused = _oracle_changed(type_checker=Oracle.TYPE_CHECKER.redefine("integer", _no_floats))
integral_floats_refused.__name__ = "integral_floats_refused"

# JavaScript's view of length: an astral character such as "😀" counts two.
utf16_lengths = _oracle_changed(validators={"minLength": _utf16_min_length, "maxLength": _utf16_max_length})
utf16_lengths.__name__ = "utf16_lengths"
