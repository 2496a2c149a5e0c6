"""Schemas as real generators write them (pydantic, FastMCP, zod 4, the MCP TypeScript SDK) validate."""

import jsonschema
import pytest

import toolreg
from tests import accept_any

EMAIL = r"^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-\.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$"

# Each: a schema in the shape its generator writes, a call it accepts and calls it refuses.
GENERATED = {
    "pydantic discriminated union": (
        {
            "type": "object",
            "properties": {
                "pet": {
                    "oneOf": [{"$ref": "#/$defs/Cat"}, {"$ref": "#/$defs/Dog"}],
                    "discriminator": {
                        "propertyName": "pet_type",
                        "mapping": {"cat": "#/$defs/Cat", "dog": "#/$defs/Dog"},
                    },
                }
            },
            "required": ["pet"],
            "$defs": {
                "Cat": {
                    "type": "object",
                    "properties": {"pet_type": {"const": "cat"}, "meows": {"type": "integer"}},
                    "required": ["pet_type", "meows"],
                },
                "Dog": {
                    "type": "object",
                    "properties": {"pet_type": {"const": "dog"}, "barks": {"type": "number"}},
                    "required": ["pet_type", "barks"],
                },
            },
        },
        {"pet": {"pet_type": "cat", "meows": 3}},
        [{"pet": {"pet_type": "cat", "barks": 1.5}}, {"pet": {"pet_type": "bird"}}],
    ),
    "pydantic dict with constrained keys": (
        {
            "type": "object",
            "properties": {
                "scores": {
                    "type": "object",
                    "patternProperties": {"^[a-z]+$": {"type": "integer"}},
                    "additionalProperties": False,
                }
            },
        },
        {"scores": {"alice": 3, "bob": 4}},
        [{"scores": {"Alice": 3}}, {"scores": {"bob": "4"}}],
    ),
    "FastMCP wrapped output": (
        {
            "type": "object",
            "properties": {"result": {"type": "string"}},
            "required": ["result"],
            "x-fastmcp-wrap-result": True,
        },
        {"result": "ok"},
        [{"result": 1}, {}],
    ),
    "MCP TypeScript SDK v1 (draft-07)": (
        {
            "$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object",
            "properties": {
                "point": {
                    "type": "array",
                    "items": [{"type": "number"}, {"type": "number"}],
                    "additionalItems": False,
                },
                "when": {"$ref": "#/definitions/time", "type": "integer"},
            },
            "definitions": {"time": {"type": "string"}},
            "required": ["point"],
            "additionalProperties": False,
        },
        {"point": [1, 2], "when": "noon"},
        [{"point": [1, 2, 3]}, {"point": ["1", 2]}, {"point": [1], "extra": 1}],
    ),
    "zod 4 e-mail and loose record": (
        {
            "type": "object",
            "properties": {
                "to": {"type": "string", "format": "email", "pattern": EMAIL},
                "headers": {"type": "object", "patternProperties": {"^x-": {"type": "string"}}},
            },
            "required": ["to"],
        },
        {"to": "a.b@example.com", "headers": {"x-id": "1", "other": 2}},
        [{"to": "a..b@example.com"}, {"to": ".a@example.com"}, {"to": "a@b.c", "headers": {"x-id": 1}}],
    ),
    "content keywords and OpenAPI example": (
        {
            "type": "object",
            "properties": {
                "image": {"type": "string", "contentEncoding": "base64", "contentMediaType": "image/png"},
                "page": {"type": "integer", "minimum": 1, "example": 2},
            },
        },
        {"image": "iVBORw0KGgo=", "page": 2},
        [{"page": 0}, {"image": 5}],
    ),
    "conditional and dependent requirements": (
        {
            "type": "object",
            "properties": {
                "mode": {"enum": ["file", "url"]},
                "path": {"type": "string"},
                "url": {"type": "string"},
            },
            "if": {"properties": {"mode": {"const": "file"}}},
            "then": {"required": ["path"]},
            "else": {"required": ["url"]},
            "dependentRequired": {"path": ["mode"]},
        },
        {"mode": "file", "path": "/data/a"},
        [{"mode": "file"}, {"mode": "url"}, {"path": "/a", "url": "u"}],
    ),
}


@pytest.mark.parametrize("kind", sorted(GENERATED))
def test_generated_schemas_register_and_validate_as_jsonschema_does(kind):
    schema, good, bad = GENERATED[kind]
    registry = toolreg.ToolRegistry()
    registry.register("tool", schema, accept_any)
    assert registry.validate("tool", good) == []
    for call in bad:
        errors = registry.validate("tool", call)
        assert errors, call
        assert all(error.path.startswith("/") or error.path == "" for error in errors)
    # jsonschema, reading the same dialect, gives the same verdicts (these patterns mean the same in
    # Python's re, except the look-aheads, which it reads alike here).
    oracle = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)(schema)
    assert oracle.is_valid(good) and not any(oracle.is_valid(call) for call in bad)


def test_the_condition_is_named_in_the_errors_it_decides():
    schema, _, _ = GENERATED["conditional and dependent requirements"]
    errors = toolreg.validate(schema, {"mode": "url"})
    assert [(error.keyword, error.schema_path, error.facts["if_matched"]) for error in errors] == [
        ("required", "/else/required", False)
    ]
    assert errors[0].message == "missing required property \"url\" (as it does not match the 'if' schema)"
