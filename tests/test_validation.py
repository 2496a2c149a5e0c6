"""Every supported keyword, with JSON's semantics rather than Python's."""

import copy
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

import toolreg


def keywords(schema, instance):
    return [(e.path, e.keyword) for e in toolreg.validate(schema, instance)]


@pytest.mark.parametrize(
    ("type_name", "good", "bad"),
    [
        ("integer", [0, -3, 10**30, 1.0, 2e10], [True, False, 1.5, "1", None, float("nan")]),
        ("number", [0, 1.5, -2e300, 10**40], [True, "42", None, [], {}]),
        ("boolean", [True, False], [0, 1, "true", None]),
        ("string", ["", "x", "😀"], [1, None, ["a"]]),
        ("null", [None], [0, "", False]),
        ("array", [[], [1, "a"]], [{}, "[]", None]),
        ("object", [{}, {"a": 1}], [[], "{}", None]),
    ],
)
def test_type(type_name, good, bad):
    for value in good:
        assert toolreg.validate({"type": type_name}, value) == []
    for value in bad:
        [error] = toolreg.validate({"type": type_name}, value)
        is_nan = isinstance(value, float) and value != value
        assert error.keyword == ("json" if is_nan else "type")


def test_type_error_facts():
    [error] = toolreg.validate({"type": ["string", "null"]}, 3)
    assert error.to_dict() == {
        "path": "",
        "schema_path": "/type",
        "keyword": "type",
        "message": "expected string or null, got integer",
        "expected_type": ["string", "null"],
        "actual_type": "integer",
    }


def test_nan_and_infinity_are_not_json():
    for value in (float("nan"), float("inf"), float("-inf")):
        [error] = toolreg.validate({"type": "number"}, value)
        assert error.keyword == "json"
        assert error.path == ""


def test_enum_uses_json_equality():
    schema = {"enum": [1, "a", [1, {"b": False}]]}
    assert toolreg.validate(schema, 1.0) == []
    assert toolreg.validate(schema, [1.0, {"b": False}]) == []
    assert keywords(schema, True) == [("", "enum")]
    assert keywords({"enum": [0]}, False) == [("", "enum")]
    assert keywords({"enum": [False]}, 0) == [("", "enum")]
    assert keywords(schema, [1, {"b": 0}]) == [("", "enum")]
    [error] = toolreg.validate(schema, "b")
    assert error.to_dict()["allowed"] == [1, "a", [1, {"b": False}]]


def test_lengths_count_code_points():
    assert toolreg.validate({"maxLength": 1}, "😀") == []
    assert toolreg.validate({"minLength": 2}, "😀") != []
    [error] = toolreg.validate({"maxLength": 2}, "abc")
    assert error.to_dict()["limit"] == 2 and error.to_dict()["length"] == 3
    [error] = toolreg.validate({"minLength": 4}, "abc")
    assert (error.keyword, error.facts["limit"], error.facts["length"]) == ("minLength", 4, 3)


def test_pattern_is_ecma262_search():
    assert toolreg.validate({"pattern": "b"}, "abc") == []
    assert keywords({"pattern": r"^\d$"}, "\u0664") == [("", "pattern")]
    assert keywords({"pattern": "^a$"}, "a\n") == [("", "pattern")]
    assert keywords({"pattern": r"^\w$"}, "é") == [("", "pattern")]
    assert toolreg.validate({"pattern": r"^\p{Letter}$"}, "é") == []
    [error] = toolreg.validate({"pattern": "^x"}, "y")
    assert error.to_dict()["pattern"] == "^x"


def test_lone_surrogates_are_one_code_point_and_match_no_ascii_class():
    assert toolreg.validate({"pattern": "^.$", "maxLength": 1}, "\ud800") == []
    assert keywords({"pattern": "\\?"}, "\udc00") == [("", "pattern")]


def test_keywords_ignore_other_types():
    schema = {"minLength": 5, "pattern": "x", "items": False, "properties": {"a": False}, "required": ["a"]}
    for value in (1, 1.5, None, True):
        assert toolreg.validate(schema, value) == []


def test_required_names_each_missing_property():
    errors = toolreg.validate({"required": ["a", "b", "c"]}, {"b": 1})
    assert [(e.path, e.schema_path, e.facts["missing"]) for e in errors] == [
        ("", "/required", "a"),
        ("", "/required", "c"),
    ]


def test_properties_and_items_build_pointers():
    schema = {"properties": {"a/b": {"items": {"type": "string"}}, "~": False, "": {"type": "null"}}}
    errors = toolreg.validate(schema, {"a/b": ["x", 1], "~": 0, "": 1})
    assert [(e.path, e.schema_path) for e in errors] == [
        ("/a~1b/1", "/properties/a~1b/items/type"),
        ("/~0", "/properties/~0"),
        ("/", "/properties//type"),
    ]


def test_boolean_schemas():
    assert toolreg.validate(True, {"anything": [1]}) == []
    [error] = toolreg.validate(False, 1)
    assert (error.path, error.schema_path, error.keyword) == ("", "", "false")


def test_every_error_is_returned_in_keyword_order_whatever_the_key_order():
    schema = {"required": ["z"], "properties": {"a": {"maxLength": 1, "type": "string", "pattern": "^b"}}}
    reordered = {"properties": {"a": {"pattern": "^b", "type": "string", "maxLength": 1}}, "required": ["z"]}
    expected = [("", "required"), ("/a", "maxLength"), ("/a", "pattern")]
    assert keywords(schema, {"a": "aa"}) == expected
    assert keywords(reordered, {"a": "aa"}) == expected


def test_non_json_values_fail_clearly():
    class Custom:
        pass

    cyclic = []
    cyclic.append(cyclic)
    for value, path in [
        ((1, 2), ""),
        ({1, 2}, ""),
        (b"x", ""),
        ({"a": Custom()}, "/a"),
        ({1: "x"}, ""),
        ([cyclic], "/0/0"),
    ]:
        [error] = toolreg.validate(True, value)
        assert (error.keyword, error.path) == ("json", path)
        assert "Python type" in error.message or "itself" in error.message


def test_no_coercion():
    assert keywords({"type": "number"}, "42") == [("", "type")]
    assert keywords({"type": "integer"}, "1") == [("", "type")]
    assert keywords({"type": "boolean"}, "true") == [("", "type")]


def test_compile_reuses_and_snapshots():
    schema = {"properties": {"a": {"type": "string"}}}
    validator = toolreg.compile(schema)
    schema["properties"]["a"]["type"] = "integer"
    assert validator.is_valid({"a": "x"})
    assert not validator.is_valid({"a": 1})
    assert validator.validate({"a": 1})[0].keyword == "type"


def test_facts_are_read_only_all_the_way_down():
    [error] = toolreg.validate({"enum": [[1, {"a": [2]}]]}, 2)
    allowed = error.facts["allowed"]
    with pytest.raises((TypeError, AttributeError)):
        allowed[0][1]["a"] = []
    with pytest.raises(AttributeError):
        allowed[0].append(3)
    assert error.to_dict()["allowed"] == [[1, {"a": [2]}]]
    assert error == toolreg.validate({"enum": [[1, {"a": [2]}]]}, 2)[0]
    assert len({error, toolreg.validate({"enum": [[1, {"a": [2]}]]}, 2)[0]}) == 1
    with pytest.raises(AttributeError):
        del error.path


def test_errors_are_immutable_and_serialisable():
    [error] = toolreg.validate({"enum": [[1]]}, 2)
    with pytest.raises(AttributeError):
        error.path = "/x"  # type: ignore[misc]
    with pytest.raises(TypeError):
        error.facts["allowed"] = []  # type: ignore[index]
    error.to_dict()["allowed"].append(3)
    assert error.to_dict()["allowed"] == [[1]]
    json.dumps(error.to_dict())
    assert "'" not in error.message


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=3), children, max_size=4)
    ),
    max_leaves=20,
)


@given(json_values)
def test_validation_is_pure_and_deterministic(instance):
    schema = {
        "type": ["object", "array", "string"],
        "properties": {"a": {"enum": [1, "x", None]}, "": {"minLength": 2}},
        "required": ["a"],
        "items": {"type": "integer"},
        "pattern": "^\\w+$",
    }
    frozen_schema, frozen_instance = copy.deepcopy(schema), copy.deepcopy(instance)
    validator = toolreg.compile(schema)
    first = validator.validate(instance)
    assert validator.validate(instance) == first
    assert toolreg.validate(schema, instance) == first
    assert schema == frozen_schema and instance == frozen_instance
    assert validator.is_valid(instance) is (first == [])


def test_items_false_is_one_error_at_the_array():
    [error] = toolreg.validate({"properties": {"list": {"items": False}}}, {"list": [1, 2]})
    assert (error.path, error.schema_path, error.keyword) == ("/list", "/properties/list/items", "items")
    assert (error.facts["limit"], error.facts["actual"]) == (0, 2)
    assert toolreg.validate({"items": False}, []) == []


def test_the_fast_path_writes_code_only_for_keywords_it_knows():
    from toolreg._codegen import HANDLED_KEYWORDS
    from toolreg._vocabulary import keywords

    assert keywords().keys() >= HANDLED_KEYWORDS
    # A keyword without an emitter, anywhere in the schema, leaves the reference walk to answer.
    for keyword in sorted(keywords().keys() - HANDLED_KEYWORDS):
        value = 1 if keyword in ("minContains", "maxContains") else {}
        validator = toolreg.compile({"properties": {"a": {keyword: value}}})
        assert validator.source.startswith("# no fast path"), keyword
        assert validator.validate({"a": 1}) == validator.validate_reference({"a": 1})
