"""The strict schema check: every keyword is supported, an annotation, or refused with a pointer."""

from __future__ import annotations

import difflib
from typing import Any

from ._errors import SchemaError, ValidationError
from ._json import find_non_json
from ._keywords import KEYWORDS, Check, Path, Site
from ._pointer import to_pointer

__all__ = ["check_schema", "compile_schema", "ANNOTATIONS"]

DIALECTS = frozenset(
    {
        "https://json-schema.org/draft/2020-12/schema",
        "https://json-schema.org/draft/2020-12/schema#",
        "http://json-schema.org/draft-07/schema",
        "http://json-schema.org/draft-07/schema#",
    }
)

# Annotation keywords carry no assertion; each maps to a check of its value's shape.
ANNOTATIONS: dict[str, tuple[str, Any]] = {
    "title": ("a string", lambda v: isinstance(v, str)),
    "description": ("a string", lambda v: isinstance(v, str)),
    "$comment": ("a string", lambda v: isinstance(v, str)),
    "format": ("a string", lambda v: isinstance(v, str)),
    "default": ("any JSON value", lambda v: True),
    "examples": ("an array", lambda v: isinstance(v, list)),
    "deprecated": ("a boolean", lambda v: isinstance(v, bool)),
    "readOnly": ("a boolean", lambda v: isinstance(v, bool)),
    "writeOnly": ("a boolean", lambda v: isinstance(v, bool)),
    "$schema": ("the 2020-12 or draft-07 meta-schema URI", lambda v: v in DIALECTS),
}

# JSON Schema keywords (2020-12 and older drafts) that toolreg knows but does not support yet.
KNOWN_UNSUPPORTED = frozenset(
    (
        "$id",
        "$anchor",
        "$dynamicRef",
        "$dynamicAnchor",
        "$recursiveRef",
        "$recursiveAnchor",
        "$vocabulary",
        "$ref",
        "$defs",
        "definitions",
        "allOf",
        "anyOf",
        "oneOf",
        "not",
        "if",
        "then",
        "else",
        "dependentSchemas",
        "dependentRequired",
        "dependencies",
        "prefixItems",
        "additionalItems",
        "contains",
        "minContains",
        "maxContains",
        "patternProperties",
        "additionalProperties",
        "propertyNames",
        "unevaluatedItems",
        "unevaluatedProperties",
        "const",
        "multipleOf",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "minItems",
        "maxItems",
        "uniqueItems",
        "minProperties",
        "maxProperties",
        "contentEncoding",
        "contentMediaType",
        "contentSchema",
    )
)

# Forms from other dialects, with how to say the same in 2020-12.
REWRITES = {
    "nullable": "'nullable' is OpenAPI, not JSON Schema; add \"null\" to a type list instead",
}


def _compile(schema: Any, location: Path) -> Check:
    if schema is True:
        return _accept
    if schema is False:
        pointer = to_pointer(location)

        def reject(instance: Any, path: Path, errors: list[ValidationError]) -> None:
            errors.append(ValidationError(to_pointer(path), pointer, "false", "no value is allowed here"))

        return reject
    if not isinstance(schema, dict):
        raise SchemaError("a schema must be an object or a boolean", schema_path=to_pointer(location))
    for keyword, value in schema.items():
        _admit(keyword, value, location)
    checks = [
        build(schema[keyword], Site(keyword, location + (keyword,), schema, _compile))
        for keyword, build in KEYWORDS.items()
        if keyword in schema
    ]
    if not checks:
        return _accept
    if len(checks) == 1:
        return checks[0]

    def check_all(instance: Any, path: Path, errors: list[ValidationError]) -> None:
        for check in checks:
            check(instance, path, errors)

    return check_all


def _accept(instance: Any, path: Path, errors: list[ValidationError]) -> None:
    return None


def _admit(keyword: str, value: Any, location: Path) -> None:
    """Refuse a keyword that is neither supported nor a well-formed annotation."""
    pointer = to_pointer(location + (keyword,))
    if keyword in KEYWORDS:
        return
    if keyword in ANNOTATIONS:
        shape, fits = ANNOTATIONS[keyword]
        if not fits(value):
            raise SchemaError(f"{keyword!r} must be {shape}", schema_path=pointer, keyword=keyword)
        return
    if keyword in REWRITES:
        raise SchemaError(REWRITES[keyword], schema_path=pointer, keyword=keyword)
    if keyword in KNOWN_UNSUPPORTED:
        raise SchemaError(
            f"the keyword {keyword!r} is not supported by toolreg", schema_path=pointer, keyword=keyword
        )
    nearest = difflib.get_close_matches(keyword, [*KEYWORDS, *ANNOTATIONS], n=1, cutoff=0.6)
    hint = f"; did you mean {nearest[0]!r}?" if nearest else ""
    raise SchemaError(f"unknown keyword {keyword!r}{hint}", schema_path=pointer, keyword=keyword)


def compile_schema(schema: Any) -> Check:
    """Check ``schema`` and turn it into one check function; raises SchemaError."""
    problems = find_non_json(schema)
    if problems:
        path, reason = problems[0]
        raise SchemaError(f"a schema must be JSON, but holds {reason}", schema_path=to_pointer(path))
    return _compile(schema, ())


def check_schema(schema: Any) -> None:
    """Raise SchemaError, naming the keyword and its pointer, unless toolreg supports ``schema``."""
    compile_schema(schema)
