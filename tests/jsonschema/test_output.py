"""Standard output: the official output cases, flag against validate, and the shape of every format."""

import json

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry
from referencing.jsonschema import DRAFT202012

import toolreg
from conformance._official import default_suite_dir, load_groups
from conformance._output import _output_schemas as format_checkers
from toolreg._jsonschema.output import FORMATS

SUITE = default_suite_dir()
OUTPUT_TESTS = SUITE / "output-tests"
absent = pytest.mark.skipif(
    not (OUTPUT_TESTS.is_dir() and (SUITE / "tests").is_dir()),
    reason=f"official suite (with output-tests/) not found at {SUITE}; set TOOLREG_SUITE",
)
# The newer proposal's cases declare its meta-schema, which names no dialect toolreg reads: they are
# judged as 2020-12, which has every keyword they use.
PROPOSAL_DIALECT = "https://json-schema.org/v1"


def _output_cases():
    if not OUTPUT_TESTS.is_dir():
        return []
    cases = []
    for path in sorted(OUTPUT_TESTS.glob("*/content/*.json")):
        release = path.parent.parent.name
        for group in json.loads(path.read_text(encoding="utf-8")):
            for test in group["tests"]:
                name = f"{release}/{path.stem} :: {test['description']}"
                cases.append(pytest.param(release, group["schema"], test, id=name))
    return cases


def _output_schemas():
    resources = []
    for path in sorted(OUTPUT_TESTS.glob("*/output-schema.json")):
        # Read as 2020-12 whatever they declare: the newer proposal's names a dialect jsonschema lacks.
        contents = json.loads(path.read_text(encoding="utf-8"))
        resources.append((contents["$id"], DRAFT202012.create_resource(contents)))
    return Registry().with_resources(resources)


CASES = _output_cases()


@absent
def test_every_official_output_case_is_found():
    assert len(CASES) == 11


@absent
@pytest.mark.parametrize(("release", "schema", "test"), CASES)
def test_official_output_case(release, schema, test):
    if schema.get("$schema") == PROPOSAL_DIALECT:
        schema = {key: value for key, value in schema.items() if key != "$schema"}
    validator = toolreg.compile(schema)
    ((shape, expected),) = test["output"].items()
    written = validator.output(test["data"], shape)
    checker = Draft202012Validator(expected, registry=_output_schemas())
    problems = [error.message for error in checker.iter_errors(written)]
    assert problems == [], json.dumps(written)


@pytest.mark.slow
@pytest.mark.no_cover
@absent
@pytest.mark.parametrize("folder", ["draft2020-12", "draft2019-09"])
def test_flag_basic_and_list_answer_as_validate_does_on_every_case(folder):
    checked = 0
    for group in load_groups(SUITE, folder):
        try:
            validator = toolreg.compile(group.declared, documents=group.documents)
        except toolreg.SchemaError:
            continue
        for case in group.cases:
            verdict = not validator.validate(case["data"])
            assert validator.output(case["data"], "flag") == {"valid": verdict}, (group.name, case)
            for shape in ("basic", "list"):
                assert validator.output(case["data"], shape)["valid"] is verdict, (group.name, case, shape)
            checked += 1
    assert checked > 1000


REFERENCED = {
    "properties": {"bar": {"$ref": "#/$defs/bar"}},
    "$defs": {"bar": {"properties": {"x": {"minimum": 10}}}},
}


def _error_units(output):
    return [(unit["instanceLocation"], unit["keywordLocation"]) for unit in output["errors"]]


def test_keyword_location_is_the_evaluation_path_through_ref():
    output = toolreg.compile(REFERENCED).output({"bar": {"x": 2}})
    assert _error_units(output) == [("/bar/x", "/properties/bar/$ref/properties/x/minimum")]
    (unit,) = output["errors"]
    assert unit["error"] == toolreg.validate(REFERENCED, {"bar": {"x": 2}})[0].message


def test_absolute_keyword_location_uses_the_schema_id():
    schema = {"$id": "https://example.com/root", **REFERENCED}
    (unit,) = toolreg.compile(schema).output({"bar": {"x": 2}})["errors"]
    assert unit["absoluteKeywordLocation"] == "https://example.com/root#/$defs/bar/properties/x/minimum"


def test_absolute_keyword_location_without_id_is_under_a_generated_uri():
    (unit,) = toolreg.compile(REFERENCED).output({"bar": {"x": 2}})["errors"]
    assert (
        unit["absoluteKeywordLocation"]
        == "https://toolreg.invalid/schema.json#/$defs/bar/properties/x/minimum"
    )


def test_absolute_keyword_location_names_the_resource_an_id_inside_opens():
    schema = {
        "$id": "https://example.com/root",
        "properties": {"a": {"$ref": "item"}},
        "$defs": {"item": {"$id": "item", "type": "string"}},
    }
    (unit,) = toolreg.compile(schema).output({"a": 1})["errors"]
    assert unit["keywordLocation"] == "/properties/a/$ref/type"
    assert unit["absoluteKeywordLocation"] == "https://example.com/item#/type"


def test_absolute_keyword_location_writes_its_pointer_percent_encoded_as_a_fragment():
    # RFC 6901 section 6: "%" and what else a fragment cannot hold, as UTF-8; the relative location is
    # the pointer itself.
    schema = {"properties": {"a b": {"type": "integer"}, "%41": {"type": "integer"}, "é/~": False}}
    errors = toolreg.compile(schema).output({"a b": "x", "%41": "x", "é/~": 1})["errors"]
    assert [(unit["keywordLocation"], unit["absoluteKeywordLocation"]) for unit in errors] == [
        ("/properties/a b/type", "https://toolreg.invalid/schema.json#/properties/a%20b/type"),
        ("/properties/%41/type", "https://toolreg.invalid/schema.json#/properties/%2541/type"),
        ("/properties/é~1~0", "https://toolreg.invalid/schema.json#/properties/%C3%A9~1~0"),
    ]


def test_annotations_of_a_passing_schema_are_reported():
    schema = {"title": "root", "properties": {"a": {"description": "the a", "default": 1}}}
    output = toolreg.compile(schema).output({"a": 2, "b": 3})
    found = {(unit["keywordLocation"], json.dumps(unit["annotation"])) for unit in output["annotations"]}
    assert found == {("/title", '"root"'), ("/properties", '["a"]'), ("/properties/a/description", '"the a"'),
                     ("/properties/a/default", "1")}  # fmt: skip


def test_annotations_are_dropped_where_the_schema_fails():
    schema = {
        "anyOf": [{"title": "never", "type": "string"}, {"title": "kept"}],
        "properties": {"a": {"title": "a"}},
    }
    passing = toolreg.compile(schema).output({"a": 1})
    titles = {
        unit["annotation"] for unit in passing["annotations"] if unit["keywordLocation"].endswith("title")
    }
    assert titles == {"kept", "a"}
    failing = toolreg.compile({**schema, "required": ["z"]}).output({"a": 1})
    assert "annotations" not in failing
    assert not any("annotation" in unit for unit in failing["errors"])
    listed = toolreg.compile({**schema, "required": ["z"]}).output({"a": 1}, "list")
    assert not any("annotations" in unit for unit in listed["details"])
    # The failing units' annotations are dropped there (the root's, and the title of /anyOf/0); those
    # of the passing units below the root (/properties/a, /anyOf/1) go unsaid, as a passing unit may
    # hold no droppedAnnotations.
    dropped = {
        unit["evaluationPath"]: unit["droppedAnnotations"]
        for unit in listed["details"]
        if "droppedAnnotations" in unit
    }
    assert dropped == {"": {"properties": ["a"]}, "/anyOf/0": {"title": "never"}}
    assert all(not unit["valid"] for unit in listed["details"] if "droppedAnnotations" in unit)


def test_unevaluated_properties_reads_the_annotations_of_passing_subschemas():
    schema = {
        "allOf": [{"properties": {"a": True}}],
        "anyOf": [{"properties": {"b": True}}, {"properties": {"c": True}, "required": ["zz"]}],
        "unevaluatedProperties": False,
    }
    validator = toolreg.compile(schema)
    output = validator.output({"a": 1, "b": 2, "c": 3})
    assert _error_units(output) == [("", "/unevaluatedProperties")]
    assert output["errors"][0]["error"] == validator.validate({"a": 1, "b": 2, "c": 3})[0].message
    assert validator.output({"a": 1, "b": 2})["valid"] is True


def test_dynamic_ref_follows_the_resources_entered():
    schema = {
        "$id": "https://example.com/tree",
        "$dynamicAnchor": "node",
        "type": "object",
        "properties": {"kids": {"type": "array", "items": {"$dynamicRef": "#node"}}},
    }
    strict = {
        "$id": "https://example.com/strict",
        "$dynamicAnchor": "node",
        "$ref": "tree",
        "required": ["id"],
    }
    validator = toolreg.compile(strict, documents={"https://example.com/tree": schema})
    output = validator.output({"id": 1, "kids": [{}]})
    assert _error_units(output) == [("/kids/0", "/$ref/properties/kids/items/$dynamicRef/required")]
    assert output["errors"][0]["absoluteKeywordLocation"] == "https://example.com/strict#/required"


def test_items_and_contains_annotate_the_indexes_they_evaluate():
    schema = {"prefixItems": [True], "items": {"type": "integer"}, "contains": {"const": 2}}
    units = toolreg.compile(schema).output([0, 2, 3])["annotations"]
    found = {unit["keywordLocation"]: unit["annotation"] for unit in units}
    assert found == {"/prefixItems": 0, "/items": True, "/contains": [1]}


SHAPED = {"properties": {"a": {"type": "string", "title": "A"}, "b": {"minimum": 0}}}


@pytest.mark.parametrize("shape", FORMATS)
def test_every_format_has_its_shape(shape):
    validator = toolreg.compile(SHAPED)
    failing, passing = validator.output({"a": 1, "b": -1}, shape), validator.output({"a": "x"}, shape)
    assert failing["valid"] is False and passing["valid"] is True
    if shape == "flag":
        assert failing == {"valid": False} and passing == {"valid": True}
    elif shape == "basic":
        assert _error_units(failing) == [("/a", "/properties/a/type"), ("/b", "/properties/b/minimum")]
        assert all("errors" not in unit and "annotations" not in unit for unit in failing["errors"])
        assert "/properties/a/title" in {unit["keywordLocation"] for unit in passing["annotations"]}
    elif shape in ("detailed", "verbose"):
        (properties,) = [unit for unit in failing["errors"] if unit["keywordLocation"] == "/properties"]
        below = [unit["keywordLocation"] for unit in properties["errors"]]
        if shape == "detailed":  # one failing keyword in each property's schema: collapsed into it
            assert below == ["/properties/a/type", "/properties/b/minimum"]
            assert "error" in properties["errors"][0]
        else:  # every schema applied, with every keyword, passing or not
            assert below == ["/properties/a", "/properties/b"]
            inner = [unit["keywordLocation"] for unit in properties["errors"][0]["errors"]]
            assert inner == ["/properties/a/type", "/properties/a/title"]
    elif shape == "list":
        units = {unit["evaluationPath"]: unit for unit in failing["details"]}
        assert units["/properties/a"]["errors"] == {"type": validator.validate({"a": 1})[0].message}
        assert units["/properties/b"]["schemaLocation"] == "https://toolreg.invalid/schema.json#/properties/b"
        assert {"title": "A"} in [unit.get("annotations") for unit in passing["details"]]
    else:
        assert [unit["evaluationPath"] for unit in failing["details"]] == ["/properties/a", "/properties/b"]
        assert failing["details"][0]["errors"] == {"type": validator.validate({"a": 1})[0].message}
        assert failing["schemaLocation"] == "https://toolreg.invalid/schema.json#"


def test_an_unknown_format_is_refused_with_a_clear_error():
    with pytest.raises(toolreg.OutputFormatError, match="unknown output format 'Basic'") as raised:
        toolreg.compile(True).output(1, "Basic")
    assert isinstance(raised.value, ValueError) and isinstance(raised.value, toolreg.ToolregError)


def test_a_value_that_is_not_json_is_reported_at_its_place():
    output = toolreg.compile({"type": "array"}).output([float("nan")])
    assert output["valid"] is False
    assert [unit["instanceLocation"] for unit in output["errors"]] == ["/0"]


def test_output_is_pure():
    schema = {"properties": {"a": {"default": [1]}}}
    validator = toolreg.compile(schema)
    instance = {"a": [2]}
    first = validator.output(instance, "verbose")
    assert validator.output(instance, "verbose") == first
    assert instance == {"a": [2]} and validator.schema == schema


# The keywords below are reached by the official output cases too, which a clone without the suite
# skips: each is checked here on a schema small enough to read the expected units off by hand.
DRAFT_2019 = "https://json-schema.org/draft/2019-09/schema"


def _errors_at(output):
    return [(unit["keywordLocation"], unit["instanceLocation"]) for unit in output["errors"]]


def test_then_and_else_apply_as_the_condition_goes_and_if_itself_never_fails():
    validator = toolreg.compile(
        {"if": {"type": "integer"}, "then": {"minimum": 0}, "else": {"type": "string"}}
    )
    assert _errors_at(validator.output(-1)) == [("/then/minimum", "")]
    assert _errors_at(validator.output(True)) == [("/else/type", "")]
    assert validator.output(1)["valid"] is True and validator.output("x")["valid"] is True


def test_dependent_schemas_apply_only_for_a_present_name_of_an_object():
    validator = toolreg.compile({"dependentSchemas": {"a": {"required": ["b"]}}})
    assert _errors_at(validator.output({"a": 1})) == [("/dependentSchemas/a/required", "")]
    assert validator.output({"b": 1})["valid"] is True and validator.output([])["valid"] is True


def test_a_false_subschema_is_its_own_error_in_every_form():
    validator = toolreg.compile({"properties": {"x": False}})
    assert _errors_at(validator.output({"x": 1})) == [("/properties/x", "/x")]
    (unit,) = validator.output({"x": 1}, "hierarchical")["details"]
    assert unit["evaluationPath"] == "/properties/x" and list(unit["errors"]) == ["false"]


def test_an_asserted_format_that_passes_is_annotated_with_its_name():
    output = toolreg.compile({"format": "email"}).output("a@example.com")
    assert [(unit["keywordLocation"], unit["annotation"]) for unit in output["annotations"]] == [
        ("/format", "email")
    ]


def test_one_of_matched_twice_fails_at_one_of():
    output = toolreg.compile({"oneOf": [{"type": "integer"}, {"minimum": 0}]}).output(1, "detailed")
    assert output["valid"] is False
    assert [unit["keywordLocation"] for unit in output["errors"]] == ["/oneOf"]


def test_property_names_judges_each_name():
    validator = toolreg.compile({"propertyNames": {"maxLength": 2}})
    assert [unit["keywordLocation"] for unit in validator.output({"abc": 1, "ab": 2})["errors"]] == [
        "/propertyNames/maxLength"
    ]
    assert validator.output({"ab": 1})["valid"] is True


def test_additional_properties_leaves_out_the_names_a_pattern_covers():
    validator = toolreg.compile({"patternProperties": {"^a": {}}, "additionalProperties": False})
    assert _errors_at(validator.output({"ab": 1, "c": 1})) == [("/additionalProperties", "")]
    assert validator.output({"ab": 1, "abc": 2})["valid"] is True


def test_2019_09_items_array_and_additional_items():
    validator = toolreg.compile(
        {"$schema": DRAFT_2019, "items": [{"type": "integer"}], "additionalItems": {"type": "string"}}
    )
    assert _errors_at(validator.output([1, 2])) == [("/additionalItems/type", "/1")]
    found = [
        (unit["keywordLocation"], unit["annotation"]) for unit in validator.output([1, "a"])["annotations"]
    ]
    assert found == [("/items", 0), ("/additionalItems", True)]
    # Without an items array beside it, additionalItems speaks of nothing.
    assert toolreg.compile({"$schema": DRAFT_2019, "additionalItems": False}).output([1, 2])["valid"] is True


def test_draft_07_items_schema_applies_to_every_item():
    validator = toolreg.compile(
        {"$schema": "http://json-schema.org/draft-07/schema#", "items": {"type": "integer"}}
    )
    assert _errors_at(validator.output([1, "a"])) == [("/items/type", "/1")]


def test_2019_09_contains_fails_with_no_match():
    validator = toolreg.compile({"$schema": DRAFT_2019, "contains": {"const": 2}})
    assert validator.output([1, 2])["valid"] is True
    assert _errors_at(validator.output([1])) == [("/contains", "")]


def test_2019_09_recursive_ref_follows_the_recursive_anchor():
    schema = {
        "$schema": DRAFT_2019,
        "$recursiveAnchor": True,
        "type": "object",
        "properties": {"kid": {"$recursiveRef": "#"}},
    }
    validator = toolreg.compile(schema)
    assert _errors_at(validator.output({"kid": 1})) == [("/properties/kid/$recursiveRef/type", "/kid")]
    assert validator.output({"kid": {"kid": {}}})["valid"] is True


@pytest.mark.parametrize(
    ("schema", "instance", "valid"),
    [
        ({"prefixItems": [{}, {}], "unevaluatedItems": False}, [1], True),  # prefixItems' index annotation
        ({"prefixItems": [{}], "unevaluatedItems": False}, [1, 2], False),
        ({"allOf": [{"contains": {"const": 1}}], "unevaluatedItems": False}, [1, 1], True),  # contains' list
        ({"allOf": [{"contains": {"const": 1}}], "unevaluatedItems": False}, [1, 2], False),
        ({"allOf": [{"items": True}], "unevaluatedItems": False}, [1, 2], True),  # items' true
        ({"allOf": [{"items": {"type": "integer"}}, {}], "unevaluatedItems": False}, [1, "a"], False),
    ],
)
def test_unevaluated_items_reads_what_the_passing_keywords_evaluated(schema, instance, valid):
    output = toolreg.compile(schema).output(instance)
    assert output["valid"] is valid
    assert toolreg.compile(schema).is_valid(instance) is valid
    if not valid:
        assert "/unevaluatedItems" in [unit["keywordLocation"] for unit in output["errors"]]


def test_unevaluated_properties_counts_a_name_properties_applied_to_even_where_it_failed():
    # As validate() counts it: properties evaluated "a", though "a" failed its subschema, so
    # unevaluatedProperties has nothing to say (the output once said it too, and validate() did not).
    validator = toolreg.compile({"properties": {"a": {"type": "string"}}, "unevaluatedProperties": False})
    assert _errors_at(validator.output({"a": 1})) == [("/properties/a/type", "/a")]
    assert [(error.schema_path, error.path) for error in validator.validate({"a": 1})] == [
        ("/properties/a/type", "/a")
    ]
    assert validator.output({"a": "x"})["valid"] is True
    # A subschema applied in place that fails hands on nothing: its names are unevaluated.
    failing_ref = toolreg.compile(
        {
            "$ref": "#/$defs/a",
            "$defs": {"a": {"properties": {"a": {"type": "string"}}}},
            "unevaluatedProperties": False,
        }
    )
    expected = {(error.schema_path, error.path) for error in failing_ref.validate({"a": 1})}
    assert expected == {("/$defs/a/properties/a/type", "/a"), ("/unevaluatedProperties", "")}
    written = failing_ref.output({"a": 1})["errors"]
    assert {
        (unit["absoluteKeywordLocation"].partition("#")[2], unit["instanceLocation"]) for unit in written
    } == (expected)


def test_items_false_is_one_error_at_the_array_as_validate_words_it():
    # 2020-12's items holding false refuses the rest of the array: one error at the array, worded as
    # validate() words it (not a `false` unit at each item), and the items it applied to evaluated.
    for schema, instance in (
        ({"items": False}, [1, 2]),
        ({"prefixItems": [True], "items": False}, [1, 2, 3]),
        ({"items": False, "unevaluatedItems": False}, [1]),
    ):
        validator = toolreg.compile(schema)
        expected = [("/items", error.path, error.message) for error in validator.validate(instance)]
        written = validator.output(instance)["errors"]
        assert [
            (unit["keywordLocation"], unit["instanceLocation"], unit["error"]) for unit in written
        ] == expected


def test_draft_07_dependencies_errors_stand_where_validate_puts_them():
    schema = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "dependencies": {"a": {"properties": {"b": {"type": "integer"}}}, "c": ["d"]},
    }
    validator = toolreg.compile(schema)
    instance = {"a": 1, "b": "x", "c": 2}
    assert sorted((error.schema_path, error.path) for error in validator.validate(instance)) == [
        ("/dependencies", ""),
        ("/dependencies/a/properties/b/type", "/b"),
    ]
    assert sorted(_errors_at(validator.output(instance))) == [
        ("/dependencies", ""),
        ("/dependencies/a/properties/b/type", "/b"),
    ]
    assert validator.output({"a": 1, "b": 2})["valid"] is True


@absent
@pytest.mark.parametrize(
    ("schema", "instance"),
    [
        ({"properties": {"a": {"title": "x"}}, "required": ["b"]}, {"a": 1}),
        ({"anyOf": [{"type": "string"}, {"prefixItems": [True], "title": "t"}], "type": "object"}, [1]),
        ({"not": {"title": "t", "type": "string"}}, 1),
        ({"allOf": [{"title": "a"}, False]}, 1),
    ],
)
def test_a_passing_unit_holds_no_errors_and_no_dropped_annotations_below_a_failing_one(schema, instance):
    validator = toolreg.compile(schema)
    for shape, definition in (("list", "basic"), ("hierarchical", "hierarchical")):
        output = validator.output(instance, shape)
        problems = [error.message for error in format_checkers()["v1", definition].iter_errors(output)]
        assert problems == [], json.dumps(output)
    for shape in ("basic", "detailed", "verbose", "flag"):
        output = validator.output(instance, shape)
        problems = [error.message for error in format_checkers()["2020-12", shape].iter_errors(output)]
        assert problems == [], json.dumps(output)


def test_2019_09_recursive_ref_without_the_anchor_stays_where_it_points():
    validator = toolreg.compile(
        {"$schema": DRAFT_2019, "type": "object", "properties": {"kid": {"$recursiveRef": "#"}}}
    )
    (unit,) = validator.output({"kid": 1})["errors"]
    assert unit["keywordLocation"] == "/properties/kid/$recursiveRef/type"
    assert unit["absoluteKeywordLocation"].endswith("#/type")
    assert validator.output({"kid": {}})["valid"] is True


def test_prefix_items_on_an_empty_array_annotates_nothing():
    assert toolreg.compile({"prefixItems": [{}]}).output([])["annotations"] == []


def test_the_subschema_of_not_is_recorded_failing_below_a_passing_not():
    # The output is the walk's record: not applied its subschema, which failed, so not passed.
    verbose = toolreg.compile({"not": False}).output(1, "verbose")
    [keyword] = verbose["annotations"]
    assert (keyword["keywordLocation"], keyword["valid"]) == ("/not", True)
    [applied] = keyword["annotations"]
    assert applied["valid"] is False and [unit["error"] for unit in applied["errors"]] == [
        "no value is allowed here"
    ]


def test_a_chain_of_references_costs_the_output_no_python_stack():
    # 1,100 references one after another, past Python's recursion limit of 1,000 frames: the traced
    # walk enters each target in its own loop, as the plain walk's chains do.
    hops = 1100
    defs = {f"d{index}": {"$ref": f"#/$defs/d{index + 1}"} for index in range(hops)}
    defs[f"d{hops}"] = {"type": "integer"}
    validator = toolreg.compile({"$defs": defs, "$ref": "#/$defs/d0"})
    [unit] = validator.output("x")["errors"]
    assert unit["keywordLocation"] == "/$ref" * (hops + 1) + "/type"
    assert validator.output(1)["valid"] is True
