"""Deliberately wrong validators: the conformance suite must flag every one of them."""

from __future__ import annotations

from typing import Any

import jsonschema

import toolreg
from conformance._oracle import non_finite_places
from toolreg._jsonschema.pointer import to_pointer


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
