"""Each keyword's wording: its message, its masked message, and the same error from both paths."""

from __future__ import annotations

import gc
from typing import Any

import pytest

import toolreg
from toolreg._jsonschema.vocabulary import VOCABULARY, WORDS, keywords

D7 = "http://json-schema.org/draft-07/schema#"
TAGGED = {
    "oneOf": [
        {"properties": {"kind": {"const": "a"}}, "required": ["kind"]},
        {"properties": {"kind": {"const": "b"}}, "required": ["kind"]},
    ]
}

SAME = "the message itself"
# (keyword of the error, schema, instance, message, masked message, or SAME when masking changes nothing)
CASES: list[tuple[str, dict[str, Any], Any, str, str]] = [
    ("type", {"type": "integer"}, "42",
     "expected integer, got string; write 42 without the quotes", "expected integer, got string"),
    ("type", {"type": ["string", "null"]}, {"a": 1},
     "expected string or null, got object", "expected string or null, got object"),
    ("type", {"properties": {"n": {"type": "string"}}}, {"n": None},
     "expected string, got null; leave the property out rather than send null",
     "expected string, got null; leave the property out rather than send null"),
    ("enum", {"enum": ["a", "b"]}, "c", 'must be one of ["a", "b"]', 'must be one of ["a", "b"]'),
    ("const", {"const": 3}, 4, "must be 3", "must be 3"),
    ("multipleOf", {"multipleOf": 0.5}, 0.7, "must be a multiple of 0.5", "must be a multiple of 0.5"),
    ("minimum", {"minimum": 1}, 0, "must be at least 1, is 0", "must be at least 1"),
    ("exclusiveMinimum", {"exclusiveMinimum": 1}, 1,
     "must be greater than 1, is 1", "must be greater than 1"),
    ("maximum", {"maximum": 10}, 11.5, "must be at most 10, is 11.5", "must be at most 10"),
    ("exclusiveMaximum", {"exclusiveMaximum": 10}, 10, "must be less than 10, is 10", "must be less than 10"),
    ("minLength", {"minLength": 1}, "",
     "must be at least 1 character long, is 0", "must be at least 1 character long"),
    ("maxLength", {"maxLength": 3}, "abcd",
     "must be at most 3 characters long, is 4", "must be at most 3 characters long"),
    ("pattern", {"pattern": "^a"}, "b", 'must match the pattern "^a"', 'must match the pattern "^a"'),
    ("format", {"format": "date"}, "2020-13-01", "must be a valid date", "must be a valid date"),
    ("minItems", {"minItems": 2}, [1], "must have at least 2 items, has 1", "must have at least 2 items"),
    ("maxItems", {"maxItems": 1}, [1, 2], "must have at most 1 item, has 2", "must have at most 1 item"),
    ("uniqueItems", {"uniqueItems": True}, [1, 1.0, 2],
     "must have unique items: items 0, 1 are equal", "must have unique items: items 0, 1 are equal"),
    ("items", {"prefixItems": [{}], "items": False}, [1, 2, 3],
     "must have at most 1 item, has 3", "must have at most 1 item"),
    ("additionalItems", {"$schema": D7, "items": [{}], "additionalItems": False}, [1, 2],
     "must have at most 1 item, has 2", "must have at most 1 item"),
    ("contains", {"contains": {"type": "string"}}, [1],
     "must contain at least 1 item matching the 'contains' schema, contains 0",
     "must contain at least 1 item matching the 'contains' schema"),
    ("minContains", {"contains": {"type": "string"}, "minContains": 2}, ["a", 1],
     "must contain at least 2 items matching the 'contains' schema, contains 1",
     "must contain at least 2 items matching the 'contains' schema"),
    ("maxContains", {"contains": {"type": "string"}, "maxContains": 1}, ["a", "b"],
     "must contain at most 1 item matching the 'contains' schema, contains 2",
     "must contain at most 1 item matching the 'contains' schema"),
    ("minProperties", {"minProperties": 1}, {},
     "must have at least 1 property, has 0", "must have at least 1 property"),
    ("maxProperties", {"maxProperties": 1}, {"a": 1, "b": 2},
     "must have at most 1 property, has 2", "must have at most 1 property"),
    ("required", {"required": ["a"]}, {}, 'missing required property "a"', 'missing required property "a"'),
    ("dependentRequired", {"dependentRequired": {"a": ["b"]}}, {"a": 1},
     'missing property "b", required when "a" is present', SAME),
    ("dependencies", {"$schema": D7, "dependencies": {"a": ["b"]}}, {"a": 1},
     'missing property "b", required when "a" is present', SAME),
    ("maxLength", {"propertyNames": {"maxLength": 2}}, {"abc": 1},
     'property name "abc" must be at most 2 characters long, is 3',
     "a property name must be at most 2 characters long"),
    ("additionalProperties", {"properties": {"a": {}}, "additionalProperties": False}, {"a": 1, "b": 2},
     'must not have the property "b"; the only allowed property is "a"',
     'has 1 property the schema does not allow; the only allowed property is "a"'),
    ("additionalProperties", {"properties": {"a": {}, "b": {}}, "additionalProperties": False},
     {"c": 1, "d": 2},
     'must not have the properties "c", "d"; the allowed properties are "a" and "b"',
     'has 2 properties the schema does not allow; the allowed properties are "a" and "b"'),
    ("additionalProperties", {"additionalProperties": False}, {"c": 1},
     'must not have the property "c"; no properties are allowed here',
     "has 1 property the schema does not allow; no properties are allowed here"),
    ("unevaluatedProperties", {"allOf": [{"properties": {"a": {}}}], "unevaluatedProperties": False},
     {"a": 1, "b": 2}, 'must not have the property "b", which no other keyword here allows',
     "has 1 property no keyword here allows"),
    ("unevaluatedItems", {"prefixItems": [{}], "unevaluatedItems": False}, [1, 2],
     "must not have the item at 1, which no other keyword here allows",
     "must not have the item at 1, which no other keyword here allows"),
    ("anyOf", {"anyOf": [{"type": "string"}, {"type": "null"}]}, 1,
     "must match at least one of the 2 schemas in anyOf: expected string or null, got integer",
     "must match at least one of the 2 schemas in anyOf: expected string or null, got integer"),
    ("oneOf", {"oneOf": [{"type": "integer"}, {"minimum": 0}]}, 1,
     "must match exactly one of the 2 schemas in oneOf, matches 0, 1",
     "must match exactly one of the 2 schemas in oneOf, matches 0, 1"),
    ("oneOf", TAGGED, {"kind": "c"},
     'must match exactly one of the 2 schemas in oneOf; the tag "kind" must be one of "a" or "b", is "c"',
     'must match exactly one of the 2 schemas in oneOf; the tag "kind" must be one of "a" or "b"'),
    ("not", {"not": {"type": "string"}}, "x", "must not match the schema in 'not'", SAME),
    ("multipleOf", {"if": {"minimum": 0}, "then": {"multipleOf": 2}}, 3,
     "must be a multiple of 2 (as it matches the 'if' schema)",
     "must be a multiple of 2 (as it matches the 'if' schema)"),
    ("false", {"properties": {"a": False}}, {"a": 1}, "no value is allowed here", "no value is allowed here"),
]  # fmt: skip

# Keywords that never fail by themselves: they name, annotate or hand subschemas to others.
_NEVER_FAIL = {
    "$id", "$anchor", "$dynamicAnchor", "$ref", "$dynamicRef", "$recursiveAnchor", "$recursiveRef",
    "$vocabulary", "prefixItems", "properties", "patternProperties", "propertyNames", "dependentSchemas",
    "allOf", "if", "then", "else", "$defs", "definitions",
}  # fmt: skip


@pytest.mark.parametrize(("keyword", "schema", "instance", "message", "masked"), CASES)
def test_each_keyword_words_its_error(
    keyword: str, schema: dict[str, Any], instance: Any, message: str, masked: str
) -> None:
    validator = toolreg.compile(schema, assert_formats=True)
    walked = validator.validate_reference(instance)
    assert [(error.keyword, error.message) for error in walked] == [(keyword, message)]
    assert walked[0].masked().message == (message if masked is SAME else masked)
    if "$schema" not in schema and keyword != "format":  # the fast path is 2020-12's, without assertion
        validator.prepare()
        # A keyword whose row has no speed group is answered by the reference walk everywhere.
        taught = all(
            row.speed is not None and row.speed.fast for name, row in keywords().items() if name in schema
        )
        assert ("no fast path" not in validator.source) is taught
        assert validator.validate(instance) == walked


def test_every_keyword_that_can_fail_has_its_wording_tested() -> None:
    tested = {keyword for keyword, *_ in CASES}
    failing = {row.name for row in VOCABULARY} - _NEVER_FAIL
    assert failing <= tested, f"no wording test for {sorted(failing - tested)}"
    assert set(WORDS) <= tested


@pytest.mark.parametrize("fast", [False, True])
def test_errors_keep_nothing_of_the_callers_containers(fast: bool) -> None:
    schema = {
        "type": "object",
        "properties": {
            "tags": {"type": "array", "maxItems": 1, "uniqueItems": True},
            "name": {"type": "string", "maxLength": 2},
            "spec": {"type": "string"},
        },
        "additionalProperties": False,
    }
    validator = toolreg.compile(schema)
    instance = {"tags": ["a", "a"], "name": "long", "spec": {"deep": [1]}, "extra": True}
    errors = validator.prepare().validate(instance) if fast else validator.validate_reference(instance)
    expected = toolreg.compile(schema).validate_reference(
        {"tags": ["a", "a"], "name": "long", "spec": {"deep": [1]}, "extra": True}
    )
    # What an error keeps refers to no list or dict of the instance, and changing them changes nothing.
    held = {id(instance), id(instance["tags"]), id(instance["spec"]), id(instance["spec"]["deep"])}
    assert not held & {id(item) for error in errors for item in _held_by(error)}
    instance["tags"].append("b")
    instance["spec"]["deep"].append(2)
    instance["extra2"] = 1
    assert [error.to_dict() for error in errors] == [error.to_dict() for error in expected]


def _held_by(error: toolreg.ValidationError) -> list[Any]:
    """What an error refers to, through tuples (its parts, its path, its kept names)."""
    found, waiting = [], list(gc.get_referents(error))
    while waiting:
        item = waiting.pop()
        found.append(item)
        if type(item) is tuple:
            waiting.extend(item)
    return found


def test_an_error_is_written_once_and_reads_the_same_every_time() -> None:
    validator = toolreg.compile({"properties": {"n": {"type": "integer", "minimum": 3}}}).prepare()
    (error,) = validator.validate({"n": 1})
    first = (error.path, error.message, error.facts)
    assert (error.path, error.message, error.facts) == first
    assert error.facts is first[2]
    assert (
        error
        == toolreg.compile({"properties": {"n": {"type": "integer", "minimum": 3}}}).validate_reference(
            {"n": 1}
        )[0]
    )
