"""The words a model reads: each says what would fit, so that one round trip fixes the call."""

import pytest

import toolreg

TAGGED = {
    "oneOf": [
        {
            "type": "object",
            "properties": {"op": {"const": "add"}, "x": {"type": "number"}},
            "required": ["op", "x"],
        },
        {
            "type": "object",
            "properties": {"op": {"const": "del"}, "id": {"type": "string"}},
            "required": ["op"],
        },
    ]
}
PYDANTIC_UNION = {
    "$defs": {
        "Cat": {"type": "object", "properties": {"kind": {"const": "cat"}, "lives": {"type": "integer"}}},
        "Dog": {"type": "object", "properties": {"kind": {"enum": ["dog"]}, "bark": {"type": "boolean"}}},
    },
    "type": "object",
    "properties": {
        "pet": {
            "oneOf": [{"$ref": "#/$defs/Cat"}, {"$ref": "#/$defs/Dog"}],
            "discriminator": {"propertyName": "kind"},
        }
    },
}


def only_error(schema, instance):
    validator = toolreg.compile(schema)
    errors = validator.validate(instance)
    assert errors == validator.validate_reference(instance)  # one wording, whichever path finds it
    [error] = errors
    return error


@pytest.mark.parametrize(
    ("declared", "sent", "fixed"),
    [
        ("integer", "42", 42),
        ("number", "-1.5e3", -1500.0),
        ("boolean", "true", True),
        (["number", "null"], "0", 0),
    ],
)
def test_a_number_or_boolean_in_quotes_gets_the_hint_to_drop_them(declared, sent, fixed):
    error = only_error({"type": declared}, sent)
    assert error.message.endswith(f"got string; write {sent} without the quotes")
    assert error.facts["hint"] == "unquote"
    assert sent not in error.masked().message
    assert toolreg.validate({"type": declared}, fixed) == []


def test_no_unquote_hint_when_the_unquoted_value_would_not_fit_either():
    error = only_error({"type": "integer"}, "4.5")
    assert error.message == "expected integer, got string" and "hint" not in error.facts


def test_null_for_an_optional_property_gets_the_hint_to_leave_it_out():
    schema = {
        "type": "object",
        "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
        "required": ["b"],
    }
    errors = toolreg.validate(schema, {"a": None, "b": None})
    assert [(error.path, error.message, error.facts.get("hint")) for error in errors] == [
        ("/a", "expected string, got null; leave the property out rather than send null", "omit"),
        ("/b", "expected string, got null", None),
    ]


@pytest.mark.parametrize(
    ("properties", "patterns", "said"),
    [
        ({"a": {}, "b": {}, "c": {}}, None, '; the allowed properties are "a", "b" and "c"'),
        ({"a": {}}, None, '; the only allowed property is "a"'),
        ({}, None, "; no properties are allowed here"),
        ({"a": {}}, {"^x-": {}}, '; the allowed properties are "a" and names matching "^x-"'),
    ],
)
def test_a_closed_object_names_what_it_allows(properties, patterns, said):
    schema = {"type": "object", "properties": properties, "additionalProperties": False}
    if patterns:
        schema["patternProperties"] = patterns
    error = only_error(schema, {"zzz": 1})
    assert error.message == f'must not have the property "zzz"{said}'
    assert error.masked().message == f"has 1 property the schema does not allow{said}"


def test_a_closed_object_names_at_most_twenty_allowed_properties():
    schema = {
        "type": "object",
        "properties": {f"p{n:02}": {} for n in range(25)},
        "additionalProperties": False,
    }
    error = only_error(schema, {"zzz": 1, "yyy": 2})
    assert error.message.startswith(
        'must not have the properties "zzz", "yyy"; the allowed properties are "p00"'
    )
    assert error.message.endswith('"p19" and 5 more')


def test_a_tagged_union_with_an_unknown_tag_names_the_tags():
    error = only_error(TAGGED, {"op": "mul"})
    assert error.message.endswith('; the tag "op" must be one of "add" or "del", is "mul"')
    assert (error.facts["tag"], error.facts["tags"]) == ("op", ("add", "del"))
    assert '"mul"' not in error.masked().message


def test_a_tagged_union_without_its_tag_says_which_tag_to_send():
    error = only_error(TAGGED, {"x": 1})
    assert error.message.endswith('; missing the tag "op", one of "add" or "del"')


def test_a_tagged_union_names_the_errors_of_the_branch_its_tag_chooses():
    error = only_error(TAGGED, {"op": "add", "x": "1"})
    chosen = '; the one for "op": "add" (oneOf/0) says: '
    assert error.message.endswith(chosen + "at /x: expected number, got string; write 1 without the quotes")
    assert error.facts["branch"] == 0


def test_a_pydantic_discriminated_union_reads_its_tag_through_references():
    error = only_error(PYDANTIC_UNION, {"pet": {"kind": "cow"}})
    assert error.path == "/pet" and error.facts["tags"] == ("cat", "dog")
    error = only_error(PYDANTIC_UNION, {"pet": {"kind": "dog", "bark": "yes"}})
    assert error.message.endswith("(oneOf/1) says: at /pet/bark: expected boolean, got string")


@pytest.mark.parametrize(
    ("branches", "instance", "said"),
    [
        ([{"type": "string"}, {"type": "null"}], {"x": 1}, ": expected string or null, got object"),
        (
            [{"type": ["string", "integer"]}, {"type": "null"}],
            [1],
            ": expected string or integer or null, got array",
        ),
    ],
)
def test_a_union_of_types_says_which_types_would_fit(branches, instance, said):
    error = only_error({"anyOf": branches}, instance)
    assert error.message == f"must match at least one of the 2 schemas in anyOf{said}"


@pytest.mark.parametrize(
    ("schema", "instance", "message"),
    [
        ({"minItems": 1}, [], "must have at least 1 item, has 0"),
        ({"minItems": 2}, [1], "must have at least 2 items, has 1"),
        ({"maxProperties": 1}, {"a": 1, "b": 2}, "must have at most 1 property, has 2"),
        ({"minLength": 1}, "", "must be at least 1 character long, is 0"),
        ({"additionalProperties": False, "properties": {"a": {}}}, {"b": 1, "c": 2},
         'must not have the properties "b", "c"; the only allowed property is "a"'),
    ],
)  # fmt: skip
def test_grammar_is_right_for_one_and_for_many(schema, instance, message):
    assert only_error(schema, instance).message == message


# -- one round trip: a mechanical fixer that reads only the structured feedback -----------------

ROUND_TRIP_SCHEMA = {
    "type": "object",
    "properties": {
        "path": {"type": "string", "maxLength": 20},
        "count": {"type": "integer", "minimum": 1, "maximum": 100},
        "mode": {"enum": ["fast", "safe"]},
        "kind": {"const": "file"},
        "verbose": {"type": "boolean"},
        "note": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
    },
    "required": ["path", "kind"],
    "additionalProperties": False,
}
ROUND_TRIP_CALL = {
    "path": "notes.txt",
    "count": 5,
    "mode": "fast",
    "kind": "file",
    "verbose": True,
    "note": 3,
}


def test_every_break_the_schema_determines_is_mended_from_the_feedback_alone():
    import random

    from bench.roundtrip import BREAKS, breaks, mend

    validator = toolreg.compile(ROUND_TRIP_SCHEMA)
    assert not validator.validate(ROUND_TRIP_CALL)
    kinds = set()
    for kind, broken in breaks(ROUND_TRIP_SCHEMA, ROUND_TRIP_CALL, random.Random(1)):
        errors = validator.validate(broken)
        if not errors or not BREAKS[kind]:
            continue
        kinds.add(kind)
        items = [dict(item) for item in toolreg.format_errors(errors, max_errors=1000).items]
        assert validator.validate(mend(broken, items)) == [], (kind, broken)
    assert kinds == {name for name, determined in BREAKS.items() if determined}
