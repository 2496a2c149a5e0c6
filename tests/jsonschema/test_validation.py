"""Every supported keyword, with JSON's semantics rather than Python's."""

import copy
import json
import re
import weakref

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
    # The fast path calls the engines directly; the reference walk answers what they refuse.
    for pattern, text in [("^.$", "\ud800"), ("\\?", "\udc00"), ("^a+$", "a" * 300 + "\ud800")]:
        validator = toolreg.compile({"properties": {"s": {"pattern": pattern}}}).prepare()
        assert validator.validate({"s": text}) == validator.validate_reference({"s": text})


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
    from toolreg._jsonschema.fast.codegen import HANDLED_KEYWORDS
    from toolreg._jsonschema.vocabulary import keywords

    assert keywords().keys() >= HANDLED_KEYWORDS
    # A keyword without an emitter, anywhere in the schema, leaves the reference walk to answer.
    for keyword in sorted(keywords().keys() - HANDLED_KEYWORDS):
        value = 1 if keyword in ("minContains", "maxContains") else "#" if keyword == "$dynamicRef" else {}
        validator = toolreg.compile({"properties": {"a": {keyword: value}}})
        assert validator.source.startswith("# no fast path"), keyword
        assert validator.validate({"a": 1}) == validator.validate_reference({"a": 1})


def test_a_ref_target_only_one_ref_leads_to_is_written_in_place_and_finds_the_same_errors():
    item = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    once = {"$defs": {"item": item}, "type": "array", "items": {"$ref": "#/$defs/item"}}
    twice = {
        "$defs": {"item": item},
        "properties": {"a": {"$ref": "#/$defs/item"}, "b": {"$ref": "#/$defs/item"}},
    }
    loop = {
        "$defs": {"node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}}}},
        "$ref": "#/$defs/node",
    }
    # The root, and a target one $ref leads to, need no function of their own; two $refs share one.
    cases = [
        (once, [{"n": 1}, {}, {"n": "x"}], 0),
        (twice, {"a": {}, "b": {"n": 1.5}}, 1),
        (loop, {"next": {"next": 1}}, 1),
    ]
    for schema, instance, functions in cases:
        validator = toolreg.compile(schema).prepare()
        defined = [
            line[4:].partition("(")[0] for line in validator.source.splitlines() if line.startswith("def ")
        ]
        # Besides the entries, validate and (where it walks again with room, see room.py) its twin.
        assert len([name for name in defined if not name.startswith("validate")]) == functions, defined
        assert validator.validate(instance) == validator.validate_reference(instance) != []
        assert validator.is_valid(instance) is False


def test_the_fast_path_writes_numbers_as_literals_and_names_as_constants():
    schema = {
        "type": "object",
        "properties": {"secret_name": {"type": "number", "maximum": 4096, "minimum": -2.5}},
        "required": ["secret_name"],
    }
    source = toolreg.compile(schema).prepare().source
    assert "> 4096" in source and "< (-2.5)" in source
    assert "secret_name" not in source


def test_a_yes_no_answer_loops_over_items_without_their_positions():
    from toolreg._jsonschema.fast.codegen import generate

    item = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    validator = toolreg.compile({"type": "array", "items": item})
    yes_no = generate(validator._compiled_schema(), yes_no=True)[0]
    assert "enumerate" not in yes_no and re.search(r"for x\d+ in v:", yes_no)
    # Every error has its path: the full answer keeps the positions.
    assert "enumerate" in validator.prepare().source
    for instance in ([{"n": 1}], [{"n": 1}, {}], [{}, {"n": "x"}], [{"n": 1, "m": 2}, 3]):
        assert validator.is_valid(instance) is (validator.validate(instance) == []), instance
    assert facts_of(validator.validate([{"n": 1}, {}]))[0][0] == "/1"


def test_validate_asks_the_yes_no_answer_first_only_where_the_work_budget_cannot_run_out():
    validator = toolreg.compile({"type": "array", "items": {"type": "integer"}}).prepare()

    def collecting(instance):
        raise AssertionError("a valid call was answered by the yes/no answer")

    vars(validator)["validate"].__globals__["otherwise"] = collecting
    assert validator.validate([1, 2]) == []
    with pytest.raises(AssertionError):
        validator.validate([1, "x"])
    # One whose walk may spend the budget: only the full answer can tell Ok from a limit error.
    counting = toolreg.compile({"items": {"$ref": "#"}, "contains": {"$ref": "#"}}).prepare()
    assert "validate" not in vars(counting) and counting._valid is None and counting._fast is not None


def test_a_long_schema_keeps_the_method_rather_than_compile_its_code_twice():
    def schema(branches):
        return {
            "allOf": [{"properties": {f"a{n}": {"type": "string", "minLength": 1}}} for n in range(branches)]
        }

    assert "validate" in vars(toolreg.compile(schema(3)).prepare())
    long = toolreg.compile(schema(300)).prepare()
    assert "validate" not in vars(long) and long.source.count("\n") > 2_000
    assert long.validate({"a1": "x"}) == [] and facts_of(long.validate({"a1": ""}))[0][0] == "/a1"


def test_validate_becomes_the_generated_front_which_hands_on_what_it_cannot_answer():
    schema = {"type": "object", "properties": {"child": {"$ref": "#"}, "n": {"type": "integer"}}}
    validator = toolreg.compile(schema).prepare()
    front = vars(validator)["validate"]
    assert validator.validate is front and front({"child": {"n": 1}}) == []
    assert facts_of(front({"child": {"n": "x"}})) == [("/child/n", "/properties/n/type", "type")]
    assert facts_of(front({"n": float("nan")}))[0][2] == "json"  # not JSON: the reference walk's
    # Called as the method is, and read as the method is.
    assert validator.validate(instance={"n": 1}) == [] and front.__doc__ == toolreg.Validator.validate.__doc__
    # It holds no reference to its validator: dropped, the validator is freed at once.
    dropped = weakref.ref(toolreg.compile(schema).prepare())
    assert dropped() is None
    # A caller who kept the method from before the code was made is answered by the front too.
    kept = toolreg.compile(schema).validate
    vars(kept.__self__.prepare())["validate"].__globals__["otherwise"] = lambda instance: ["collected"]
    assert kept({"child": {"n": 1}}) == [] and kept({"n": "x"}) == ["collected"]
    # What the method leaves to the code that collects the errors (a stack too deep, a container
    # another thread changes) the front leaves to it too.
    helpers = [name for name in front.__globals__ if re.fullmatch(r"f\d+", name)]
    assert helpers
    front.__globals__["otherwise"] = lambda instance: ["handed on"]
    for raised in (RecursionError, RuntimeError, IndexError):

        def raising(*args: object, raised: type[Exception] = raised) -> bool:
            raise raised

        for name in helpers:
            front.__globals__[name] = raising
        assert front({"child": {}}) == ["handed on"]


def test_a_subclass_that_validates_in_its_own_way_keeps_its_method():
    calls = []

    class Counted(toolreg.Validator):
        def validate(self, instance):
            calls.append(instance)
            return super().validate(instance)

    counted = Counted({"type": "object", "properties": {"n": {"type": "integer"}}}).prepare()
    assert counted.validate({"n": 1}) == [] and counted.validate({"n": "x"}) and len(calls) == 2
    assert "validate" not in vars(counted)


# -- the keywords of the whole 2020-12 vocabulary ------------------------------------------------


def facts_of(errors):
    return [(error.path, error.schema_path, error.keyword) for error in errors]


def test_unevaluated_properties_sees_through_branches_that_pass():
    schema = {
        "type": "object",
        "properties": {"kind": {"enum": ["a", "b"]}},
        "anyOf": [
            {"properties": {"kind": {"const": "a"}, "size": {"type": "integer"}}},
            {"properties": {"kind": {"const": "b"}, "name": {"type": "string"}}},
        ],
        "unevaluatedProperties": False,
    }
    assert toolreg.validate(schema, {"kind": "a", "size": 1}) == []
    # "name" belongs to the branch that fails, so nothing here evaluates it.
    errors = toolreg.validate(schema, {"kind": "a", "size": 1, "name": "x"})
    assert facts_of(errors) == [("", "/unevaluatedProperties", "unevaluatedProperties")]
    assert errors[0].facts["extra"] == ("name",)
    assert "no other keyword here allows" in errors[0].message


def test_unevaluated_properties_with_a_schema_reports_each_property_where_it_is():
    schema = {"properties": {"a": {}}, "unevaluatedProperties": {"type": "string"}}
    errors = toolreg.validate(schema, {"a": 1, "b": "x", "c": 2})
    assert facts_of(errors) == [("/c", "/unevaluatedProperties/type", "type")]
    assert errors[0].masked().path == "/*"  # the instance chose the name


def test_unevaluated_items_after_prefix_and_contains():
    schema = {"prefixItems": [{"type": "string"}], "contains": {"const": 5}, "unevaluatedItems": False}
    assert toolreg.validate(schema, ["a", 5, 5]) == []
    errors = toolreg.validate(schema, ["a", 5, 6, 7])
    assert facts_of(errors) == [("", "/unevaluatedItems", "unevaluatedItems")]
    assert errors[0].facts["extra"] == (2, 3)
    # 2019-09's contains evaluates nothing.
    older = {"$schema": "https://json-schema.org/draft/2019-09/schema", **schema}
    older["items"] = older.pop("prefixItems")
    assert toolreg.validate(older, ["a", 5])[0].facts["extra"] == (1,)


def test_pattern_properties_and_the_names_additional_properties_leaves():
    schema = {"patternProperties": {"^x-": {"type": "string"}}, "additionalProperties": {"type": "integer"}}
    errors = toolreg.validate(schema, {"x-a": 1, "b": "2", "x-c": "ok", "d": 4})
    assert facts_of(errors) == [
        ("/x-a", "/patternProperties/^x-/type", "type"),
        ("/b", "/additionalProperties/type", "type"),
    ]


def test_if_then_else_say_which_way_the_condition_went():
    schema = {"if": {"required": ["a"]}, "then": {"required": ["b"]}, "else": {"required": ["c"]}}
    (then_error,) = toolreg.validate(schema, {"a": 1})
    assert (then_error.schema_path, then_error.facts["if_matched"]) == ("/then/required", True)
    (else_error,) = toolreg.validate(schema, {})
    assert (else_error.schema_path, else_error.facts["if_matched"]) == ("/else/required", False)
    assert toolreg.validate({"then": {"required": ["b"]}}, {}) == []  # without "if", nothing


def test_dependent_keywords_apply_only_when_their_property_is_there():
    schema = {"dependentRequired": {"card": ["cvv"]}, "dependentSchemas": {"card": {"required": ["name"]}}}
    assert toolreg.validate(schema, {"cvv": 1}) == []
    errors = toolreg.validate(schema, {"card": 1})
    assert facts_of(errors) == [
        ("", "/dependentRequired", "dependentRequired"),
        ("", "/dependentSchemas/card/required", "required"),
    ]
    assert (errors[0].facts["missing"], errors[0].facts["present"]) == ("cvv", "card")


@pytest.mark.parametrize(
    ("instance", "keyword", "actual"),
    [([], "contains", 0), (["a", 1], "minContains", 1), ([1, 2, 3, 4], "maxContains", 4)],
)
def test_contains_counts_matching_items(instance, keyword, actual):
    schema = {"contains": {"type": "integer"}, "minContains": 2, "maxContains": 3}
    (error,) = toolreg.validate(schema, instance)
    assert (error.keyword, error.schema_path, error.facts["actual"]) == (keyword, "/contains", actual)
    assert toolreg.validate(schema, [1, "a", 2]) == []


def test_a_declared_draft_07_is_read_by_its_rules():
    draft7 = "http://json-schema.org/draft-07/schema#"
    schema = {
        "$schema": draft7,
        "items": [{"type": "string"}],
        "additionalItems": {"type": "integer"},
        "dependencies": {"a": ["b"]},
        "definitions": {"n": {"type": "integer"}},
    }
    assert toolreg.validate(schema, ["x", 1, 2]) == []
    assert facts_of(toolreg.validate(schema, ["x", "y"])) == [("/1", "/additionalItems/type", "type")]
    assert facts_of(toolreg.validate(schema, {"a": 1})) == [("", "/dependencies", "dependencies")]
    # Beside a $ref, draft-07 ignores every other keyword.
    assert (
        toolreg.validate(
            {"$schema": draft7, "definitions": {"n": {}}, "$ref": "#/definitions/n", "type": "string"}, 1
        )
        == []
    )
    assert toolreg.validate({"definitions": {"n": {}}, "$ref": "#/definitions/n", "type": "string"}, 1) != []


# -- Verdicts a differential run in the three dialects found wrong -------------------------------

DRAFT_2019 = "https://json-schema.org/draft/2019-09/schema"


@pytest.mark.parametrize(
    ("dialect", "accepted", "refused"),
    [
        (DRAFT_2019, ["a", "ns:x", "a.b-c_d", "A:1"], ["_p", "1a", "-a", "", "a b"]),
        ("https://json-schema.org/draft/2020-12/schema", ["a", "_p", "a.b-c_d"], ["ns:x", "1a", "-a", ""]),
    ],
)
def test_anchors_follow_their_dialects_grammar(dialect, accepted, refused):
    # 2019-09 anchors are XML names (a letter first, colons allowed); 2020-12's start with a letter
    # or "_" and have no colon.
    for name in accepted:
        schema = {
            "$schema": dialect,
            "$defs": {"x": {"$anchor": name, "type": "integer"}},
            "$ref": f"#{name}",
        }
        assert keywords(schema, "1") == [("", "type")] and keywords(schema, 1) == []
    for name in refused:
        with pytest.raises(toolreg.SchemaError, match="starts with a letter") as caught:
            toolreg.check_schema({"$schema": dialect, "$defs": {"x": {"$anchor": name}}})
        assert caught.value.schema_path == "/$defs/x/$anchor"


def test_unevaluated_items_follows_a_dynamic_ref_through_the_resources_entered():
    # The $dynamicRef inside base.json resolves to mid.json, entered on the way through "$ref", so
    # the "if" fails on [1], evaluates nothing, and item 0 is left (jsonschema and jsonschema-rs agree).
    schema = {
        "$ref": "mid.json",
        "unevaluatedItems": False,
        "$defs": {
            "mid": {"$id": "mid.json", "$dynamicAnchor": "node", "$ref": "base.json", "type": "array"},
            "base": {"$id": "base.json", "$dynamicAnchor": "node", "if": {"items": {"$dynamicRef": "#node"}}},
        },
    }
    validator = toolreg.compile(schema)
    for errors in (validator.validate_reference([1]), validator.prepare().validate([1])):
        assert [(e.path, e.keyword, e.facts["extra"]) for e in errors] == [("", "unevaluatedItems", (0,))]
    assert validator.validate([[]]) == []  # an array item matches mid.json, so "if" evaluates it


def tree_of(levels, leaf):
    for _ in range(levels):
        leaf = {"c": [leaf]}
    return leaf


@pytest.mark.parametrize("levels", [12, 60])
def test_unevaluated_properties_through_a_recursive_ref_costs_one_walk(levels):
    # Each level once evaluated the levels below it again to learn which properties they had seen:
    # 12 levels ran out of the work budget.
    schema = {
        "$ref": "#/$defs/t",
        "unevaluatedProperties": False,
        "$defs": {"t": {"properties": {"c": {"items": {"$ref": "#"}}}}},
    }
    validator = toolreg.compile(schema)
    deep_typo = tree_of(levels, {"d": 1})
    for answer in (validator.validate_reference, validator.prepare().validate):
        assert answer(tree_of(levels, {})) == []
        # A schema object that fails keeps no annotations (2020-12 core, 7.7.1.2), so the "c" of each
        # level above the typo counts as unevaluated too.
        [error, *above] = answer(deep_typo)
        assert (error.path, error.facts["extra"]) == ("/c/0" * levels, ("d",))
        assert [(e.path, e.facts["extra"]) for e in above] == [
            ("/c/0" * n, ("c",)) for n in reversed(range(levels))
        ]


STRICT_TREE = {  # the 2020-12 specification's example of $dynamicRef
    "$id": "https://example.com/strict-tree",
    "$dynamicAnchor": "node",
    "$ref": "tree",
    "unevaluatedProperties": False,
}
TREE = {
    "$id": "https://example.com/tree",
    "$dynamicAnchor": "node",
    "type": "object",
    "properties": {"data": True, "children": {"type": "array", "items": {"$dynamicRef": "#node"}}},
}


def test_the_specifications_strict_tree_is_checked_at_every_depth():
    validator = toolreg.compile(STRICT_TREE, documents={"https://example.com/tree": TREE})
    node = {"data": 1}
    for _ in range(30):
        node = {"data": 1, "children": [node, {"data": 2}]}
    assert validator.validate(node) == [] and validator.is_valid(node)
    node["children"][1]["daat"] = 1
    [error, *above] = validator.validate(node)
    assert (error.path, error.keyword, error.facts["extra"]) == (
        "/children/1",
        "unevaluatedProperties",
        ("daat",),
    )
    assert [(e.path, e.facts["extra"]) for e in above] == [("", ("data", "children"))]
