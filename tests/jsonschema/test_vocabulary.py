"""The keywords real catalogs use beyond the core: bounds, combinators, references and friends."""

import sys
from typing import Any

import pytest

import toolreg
from toolreg._errors import ExportError
from toolreg._jsonschema import references, schema
from toolreg._jsonschema.fast import codegen, quick
from toolreg._jsonschema.limits import DEFAULT_LIMITS
from toolreg._jsonschema.metaschemas import META_SCHEMAS
from toolreg._jsonschema.output import recording
from toolreg._jsonschema.regex import Patterns
from toolreg._jsonschema.schema import compile_schema
from toolreg._jsonschema.vocabulary import (
    ANNOTATIONS,
    REWRITES,
    VOCABULARIES,
    VOCABULARY,
    WORDS,
    dialects_of,
    is_annotation,
    keywords,
)
from toolreg._providers import openai_strict


def found(schema, instance):
    return [(e.path, e.keyword) for e in toolreg.validate(schema, instance)]


def only(schema, instance):
    [error] = toolreg.validate(schema, instance)
    return error


def refusal(schema):
    with pytest.raises(toolreg.SchemaError) as caught:
        toolreg.check_schema(schema)
    return caught.value


# -- numbers ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("keyword", "limit", "good", "bad"),
    [
        ("minimum", 3, [3, 3.0, 4, 10**30], [2, 2.999, -(10**30)]),
        ("maximum", 3, [3, 2.5, -(10**30)], [3.0001, 4, 10**30]),
        ("exclusiveMinimum", 3, [3.0001, 4], [3, 3.0, 2]),
        ("exclusiveMaximum", 3, [2.999, 2], [3, 3.0, 4]),
        ("maximum", 2**64 - 1, [2**64 - 1], [2**64, 1.8446744073709552e19]),
        (
            "exclusiveMaximum",
            9.727837981879871e26,
            [9.727837981879870e26],
            [972783798187987123879878123.18878137],
        ),
        ("minimum", 0.1, [0.1, 1], [0.09999999999999999, 0]),
    ],
)
def test_number_bounds_compare_exactly(keyword, limit, good, bad):
    for value in good:
        assert toolreg.validate({keyword: limit}, value) == [], value
    for value in bad:
        error = only({keyword: limit}, value)
        assert (error.keyword, error.facts["limit"], error.facts["actual"]) == (keyword, limit, value)
    assert toolreg.validate({keyword: limit}, "not a number") == []
    assert toolreg.validate({keyword: limit}, True) == []


def test_multiple_of_is_exact_for_decimals():
    assert toolreg.validate({"multipleOf": 0.01}, 0.07) == []
    assert toolreg.validate({"multipleOf": 0.0001}, 0.0075) == []
    assert toolreg.validate({"multipleOf": 0.5, "type": "integer"}, 1e308) == []
    assert toolreg.validate({"multipleOf": 2}, 10**40) == []
    assert found({"multipleOf": 0.1}, 133002.30000000002) == [("", "multipleOf")]
    assert found({"multipleOf": 2}, 7) == [("", "multipleOf")]
    assert found({"multipleOf": 1e-8}, 1e-9) == [("", "multipleOf")]
    assert only({"multipleOf": 3}, 4).facts["multiple_of"] == 3
    assert toolreg.validate({"multipleOf": 3}, True) == []


# -- arrays -----------------------------------------------------------------------------------


def test_item_counts():
    assert only({"minItems": 2}, [1]).to_dict() == {
        "path": "",
        "schema_path": "/minItems",
        "keyword": "minItems",
        "message": "must have at least 2 items, has 1",
        "limit": 2,
        "actual": 1,
    }
    assert only({"maxItems": 1}, [1, 2]).facts["actual"] == 2
    assert toolreg.validate({"minItems": 2, "maxItems": 2}, [1, 2]) == []
    assert toolreg.validate({"minItems": 2}, "ab") == []


def test_unique_items_uses_json_equality():
    assert only({"uniqueItems": True}, [1, 1.0]).to_dict()["duplicates"] == [[0, 1]]
    assert toolreg.validate({"uniqueItems": True}, [1, True]) == []
    assert toolreg.validate({"uniqueItems": True}, [0, False, [0], [False], {"a": 0}, {"a": False}]) == []
    repeated = [{"a": [1], "b": 2}, {"b": 2.0, "a": [1.0]}, 3, 3]
    assert only({"uniqueItems": True}, repeated).to_dict()["duplicates"] == [[0, 1], [2, 3]]
    assert toolreg.validate({"uniqueItems": False}, [1, 1]) == []
    assert toolreg.validate({"uniqueItems": True}, [2**53, 2**53 + 1]) == []


def test_prefix_items_then_items():
    schema = {"prefixItems": [{"type": "string"}, {"type": "integer"}], "items": {"type": "boolean"}}
    assert toolreg.validate(schema, ["a", 1, True, False]) == []
    assert toolreg.validate(schema, ["a"]) == []
    assert found(schema, [1, "a", None]) == [("/0", "type"), ("/1", "type"), ("/2", "type")]
    error = only({"prefixItems": [{}], "items": False}, [1, 2, 3])
    assert (error.keyword, error.facts["limit"], error.facts["actual"]) == ("items", 1, 3)
    assert toolreg.validate({"prefixItems": [{}], "items": False}, [1]) == []


# -- objects ----------------------------------------------------------------------------------


def test_property_counts():
    assert only({"minProperties": 1}, {}).message == "must have at least 1 property, has 0"
    assert only({"maxProperties": 1}, {"a": 1, "b": 2}).facts == {"limit": 1, "actual": 2}


def test_additional_properties_false_lists_every_extra_name():
    schema = {"properties": {"a": {}, "b": {}}, "additionalProperties": False}
    error = only(schema, {"a": 1, "z/": 2, "~": 3})
    assert (error.path, error.keyword) == ("", "additionalProperties")
    assert error.to_dict()["extra"] == ["z/", "~"] and error.to_dict()["allowed"] == ["a", "b"]
    assert toolreg.validate(schema, {"a": 1}) == []


def test_additional_properties_schema_applies_to_other_names_only():
    schema = {"properties": {"a": {"type": "string"}}, "additionalProperties": {"type": "integer"}}
    assert toolreg.validate(schema, {"a": "x", "b": 1}) == []
    assert found(schema, {"a": 1, "b/c": "x"}) == [("/a", "type"), ("/b~1c", "type")]


def test_property_names_report_at_the_object_and_name_the_name():
    error = only({"propertyNames": {"pattern": "^[a-z]+$"}}, {"ok": 1, "Bad": 2})
    assert (error.path, error.schema_path, error.keyword) == ("", "/propertyNames/pattern", "pattern")
    assert error.facts["property_name"] == "Bad" and '"Bad"' in error.message
    assert found({"propertyNames": False}, {"a": 1}) == [("", "false")]
    assert toolreg.validate({"propertyNames": False}, {}) == []


def test_const_uses_json_equality():
    assert toolreg.validate({"const": 1}, 1.0) == []
    assert toolreg.validate({"const": {"a": [1]}}, {"a": [1.0]}) == []
    assert found({"const": 1}, True) == [("", "const")]
    assert found({"const": False}, 0) == [("", "const")]
    assert only({"const": None}, 0).facts["const"] is None


# -- combinators ------------------------------------------------------------------------------


def test_all_of_reports_each_branch_error_as_it_is():
    schema = {"allOf": [{"type": "string"}, {"minLength": 3}]}
    assert found(schema, "ab") == [("", "minLength")]
    assert only(schema, "ab").schema_path == "/allOf/1/minLength"


def test_any_of_names_the_branch_for_the_value_type():
    schema = {"anyOf": [{"type": "string", "minLength": 1}, {"type": "null"}]}
    assert toolreg.validate(schema, None) == []
    error = only(schema, "")
    assert (error.keyword, error.facts["branch"]) == ("anyOf", 0)
    assert [e["keyword"] for e in error.facts["branches"][error.facts["branch"]]] == ["minLength"]
    assert "branch_errors" not in error.facts  # the branch's errors stand once, in branches
    assert "at least 1 character" in error.message
    assert [[e["keyword"] for e in branch] for branch in error.facts["branches"]] == [["minLength"], ["type"]]
    unmatched = only(schema, 5)
    assert "branch" not in unmatched.facts and len(unmatched.facts["branches"]) == 2


def test_any_of_branch_errors_keep_their_pointers():
    schema = {"anyOf": [{"type": "object", "properties": {"a": {"type": "string"}}}, {"type": "null"}]}
    error = only(schema, {"a": 1})
    assert error.facts["branches"][0][0]["path"] == "/a"
    assert "at /a: expected string" in error.message


def test_one_of_says_which_branches_matched():
    schema = {"oneOf": [{"type": "integer"}, {"minimum": 0}]}
    assert toolreg.validate(schema, -1) == []
    assert toolreg.validate(schema, 0.5) == []
    error = only(schema, 3)
    assert (error.keyword, error.to_dict()["matched"]) == ("oneOf", [0, 1])
    assert only(schema, -0.5).facts["branches"]


def test_not():
    assert found({"not": {"type": "string"}}, "x") == [("", "not")]
    assert toolreg.validate({"not": {"type": "string"}}, 1) == []
    assert found({"not": True}, 1) == [("", "not")]


# -- references -------------------------------------------------------------------------------


def test_refs_to_defs_definitions_and_any_pointer():
    schema = {
        "$defs": {"name": {"type": "string"}, "a/b~c": {"type": "integer"}, "percent%": {"type": "null"}},
        "definitions": {"old": {"type": "boolean"}},
        "properties": {
            "first": {"$ref": "#/$defs/name"},
            "second": {"$ref": "#/properties/first"},
            "escaped": {"$ref": "#/$defs/a~1b~0c"},
            "percent": {"$ref": "#/$defs/percent%25"},
            "legacy": {"$ref": "#/definitions/old"},
        },
    }
    good = {"first": "x", "second": "y", "escaped": 1, "percent": None, "legacy": True}
    assert toolreg.validate(schema, good) == []
    bad = {"first": 1, "second": 1, "escaped": "x", "percent": 0, "legacy": 0}
    assert [(e.path, e.schema_path) for e in toolreg.validate(schema, bad)] == [
        ("/first", "/$defs/name/type"),
        ("/second", "/$defs/name/type"),
        ("/escaped", "/$defs/a~1b~0c/type"),
        ("/percent", "/$defs/percent%/type"),
        ("/legacy", "/definitions/old/type"),
    ]


def test_recursive_refs_work():
    tree = {
        "type": "object",
        "properties": {"value": {"type": "integer"}, "children": {"type": "array", "items": {"$ref": "#"}}},
        "additionalProperties": False,
    }
    assert toolreg.validate(tree, {"value": 1, "children": [{"value": 2, "children": []}]}) == []
    assert found(tree, {"children": [{"children": [{"value": "x"}]}]}) == [
        ("/children/0/children/0/value", "type")
    ]


def test_ref_applies_beside_sibling_keywords_and_to_boolean_targets():
    schema = {"$defs": {"arr": {"type": "array"}, "no": False}, "$ref": "#/$defs/arr", "maxItems": 1}
    assert found(schema, [1, 2]) == [("", "maxItems")]
    assert found(schema, "x") == [("", "type")]
    assert found({"$defs": {"no": False}, "$ref": "#/$defs/no"}, 1) == [("", "false")]


def test_definitions_are_checked_even_when_unused():
    error = refusal({"$defs": {"bad": {"type": "text"}}})
    assert error.schema_path == "/$defs/bad/type"
    assert refusal({"definitions": {"bad": {"minLenght": 1}}}).schema_path == "/definitions/bad/minLenght"


@pytest.mark.parametrize(
    ("schema", "pointer", "words"),
    [
        ({"$ref": "#"}, "/$ref", "never end"),
        (
            {"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"},
            "/$defs/",
            "never end",
        ),
        ({"allOf": [{"not": {"anyOf": [{"$ref": "#"}]}}]}, "/allOf/0/not/anyOf/0/$ref", "never end"),
        ({"$ref": "https://example.com/schema"}, "/$ref", "never fetches"),
        ({"$ref": "other.json#/a"}, "/$ref", "documents="),
        ({"$ref": "#anchor"}, "/$ref", "anchor"),
        ({"$ref": "#/$defs/missing"}, "/$ref", "points at nothing"),
        ({"$ref": "#/items/01", "items": {}}, "/$ref", "points at nothing"),
        ({"$ref": 5}, "/$ref", "string"),
        ({"$ref": "#/title", "title": "t"}, "/title", "object or a boolean"),
    ],
)
def test_bad_refs_are_refused(schema, pointer, words):
    error = refusal(schema)
    assert error.schema_path.startswith(pointer) and words in str(error)


def test_a_ref_cycle_that_consumes_the_instance_is_fine():
    toolreg.check_schema({"properties": {"next": {"$ref": "#"}}})
    toolreg.check_schema({"$defs": {"a": {"items": {"$ref": "#/$defs/a"}}}, "anyOf": [{"$ref": "#/$defs/a"}]})
    toolreg.check_schema({"$defs": {"a": {"propertyNames": {"$ref": "#/$defs/a"}}}, "$ref": "#/$defs/a"})


# -- refusals with a fix ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("schema", "pointer", "words"),
    [
        ({"items": [{"type": "string"}]}, "/items", "prefixItems"),
        ({"minimum": 3, "exclusiveMinimum": True}, "/exclusiveMinimum", '"exclusiveMinimum": 3'),
        ({"maximum": 3, "exclusiveMaximum": False}, "/exclusiveMaximum", '"exclusiveMaximum": 3'),
        ({"nullable": True}, "/nullable", "type list"),
        ({"additionalItems": False}, "/additionalItems", "prefixItems"),
        ({"$id": "https://example.com/s#part"}, "/$id", "'$anchor'"),
        ({"$anchor": "two words"}, "/$anchor", "starts with a letter"),
        ({"$dynamicRef": "#a"}, "/$dynamicRef", "no schema there declares"),
        ({"dependencies": {}}, "/dependencies", "dependentRequired"),
        ({"$schema": "http://json-schema.org/draft-07/schema#", "$defs": {}}, "/$defs", "definitions"),
        (
            {"$schema": "http://json-schema.org/draft-07/schema#", "prefixItems": [{}]},
            "/prefixItems",
            "array",
        ),
        ({"$recursiveAnchor": True}, "/$recursiveAnchor", "'$dynamicAnchor' instead"),
        ({"$recursiveRef": "#"}, "/$recursiveRef", "'$dynamicRef' instead"),
        ({"$vocabulary": {"https://example.com/v": 1}}, "/$vocabulary", "URIs to booleans"),
        (
            {"$schema": "https://json-schema.org/draft/2019-09/schema", "$recursiveRef": "#/a"},
            "/$recursiveRef",
            "'#'",
        ),
        ({"$schema": "https://example.com/meta"}, "/$schema", "given in documents"),
        ({"format": 3}, "/format", "string"),
        ({"contentMediaType": 3}, "/contentMediaType", "string"),
        ({"contentSchema": 3}, "/contentSchema", "schema"),
        ({"multipleOf": 0}, "/multipleOf", "greater than 0"),
        ({"multipleOf": -2}, "/multipleOf", "greater than 0"),
        ({"minimum": "3"}, "/minimum", "number"),
        ({"maximum": True}, "/maximum", "number"),
        ({"minItems": -1}, "/minItems", "non-negative integer"),
        ({"maxProperties": 1.5}, "/maxProperties", "non-negative integer"),
        ({"uniqueItems": 1}, "/uniqueItems", "true or false"),
        ({"prefixItems": []}, "/prefixItems", "non-empty array"),
        ({"anyOf": {}}, "/anyOf", "non-empty array"),
        ({"oneOf": [{}, 3]}, "/oneOf/1", "object or a boolean"),
        ({"allOf": []}, "/allOf", "non-empty array"),
        ({"not": "x"}, "/not", "object or a boolean"),
        ({"$defs": []}, "/$defs", "object mapping"),
        ({"additionalProperties": {"maxLenght": 1}}, "/additionalProperties/maxLenght", "maxLength"),
        ({"propertyNames": 1}, "/propertyNames", "object or a boolean"),
    ],
)
def test_refusals_say_what_to_write(schema, pointer, words):
    error = refusal(schema)
    assert error.schema_path == pointer
    assert words in str(error)


def test_errors_follow_the_table_order_across_keywords():
    schema = {"not": {}, "anyOf": [False], "minItems": 5, "type": "object", "const": 1}
    assert [e.keyword for e in toolreg.validate(schema, [])] == ["type", "const", "minItems", "anyOf", "not"]


# -- meta-schemas, $vocabulary and 2019-09's $recursiveRef ------------------------------------------

DRAFT_2019 = "https://json-schema.org/draft/2019-09/schema"


@pytest.mark.parametrize(
    "meta",
    [
        "https://json-schema.org/draft/2020-12/schema",
        DRAFT_2019,
        "http://json-schema.org/draft-07/schema#",
    ],
)
def test_a_ref_to_a_bundled_meta_schema_checks_schemas(meta):
    dialect = {"$schema": meta} if "2020-12" not in meta else {}
    validator = toolreg.compile({**dialect, "$ref": meta})
    assert validator.is_valid({"type": "string", "minLength": 2})
    errors = validator.validate({"type": "string", "minLength": -1})
    assert [error.path for error in errors] == ["/minLength"]
    assert not validator.is_valid({"properties": {"a": {"type": "strin"}}})


def _trees(strict_children: bool):
    tree = {
        "$schema": DRAFT_2019,
        "$id": "https://example.com/tree",
        "$recursiveAnchor": True,
        "type": "object",
        "properties": {"data": {}, "children": {"type": "array", "items": {"$recursiveRef": "#"}}},
    }
    strict = {
        "$schema": DRAFT_2019,
        "$id": "https://example.com/strict-tree",
        "$recursiveAnchor": strict_children,
        "$ref": "tree",
        "unevaluatedProperties": False,
    }
    return toolreg.compile(strict, documents={"https://example.com/tree": tree})


def test_recursive_ref_goes_on_to_the_outermost_recursive_anchor():
    validator = _trees(strict_children=True)
    assert validator.is_valid({"children": [{"data": 1}]})
    errors = validator.validate({"children": [{"daat": 1}]})
    # The child fails strict-tree's own check; so "children" fails, and is not evaluated either.
    assert [(error.keyword, error.path) for error in errors] == [
        ("unevaluatedProperties", "/children/0"),
        ("unevaluatedProperties", ""),
    ]
    assert '"daat"' in errors[0].message


def test_recursive_ref_without_an_outer_anchor_is_a_plain_ref():
    validator = _trees(strict_children=False)
    assert validator.is_valid({"children": [{"daat": 1}]})
    assert not validator.is_valid({"daat": 1})


def _meta(vocabularies):
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$vocabulary": {f"https://json-schema.org/draft/2020-12/vocab/{name}": True for name in vocabularies},
    }


def test_a_meta_schema_without_the_validation_vocabulary_leaves_its_keywords_as_annotations():
    documents = {"https://example.com/meta": _meta(["core", "applicator"])}
    schema = {"$schema": "https://example.com/meta", "properties": {"bad": False, "n": {"minimum": 10}}}
    validator = toolreg.compile(schema, documents=documents)
    assert validator.is_valid({"n": 1})
    assert validator.validate({"n": 1}) == validator.validate_reference({"n": 1}) == []
    [error] = validator.validate({"bad": 1})
    assert error.keyword == "false"


def test_a_meta_schema_may_name_an_optional_vocabulary_toolreg_lacks_but_not_a_required_one():
    optional = {**_meta(["core", "validation"])}
    optional["$vocabulary"]["https://example.com/vocab/custom"] = False
    schema = {"$schema": "https://example.com/meta", "type": "number"}
    assert not toolreg.compile(schema, documents={"https://example.com/meta": optional}).is_valid("x")
    required = {**_meta(["core"])}
    required["$vocabulary"]["https://example.com/vocab/custom"] = True
    with pytest.raises(toolreg.SchemaError, match="requires the vocabulary"):
        toolreg.compile(schema, documents={"https://example.com/meta": required})


def test_a_meta_schema_must_declare_a_dialect_toolreg_reads():
    meta = {"$schema": "http://json-schema.org/draft-04/schema#"}
    with pytest.raises(toolreg.SchemaError, match="own '\\$schema'") as caught:
        toolreg.compile({"$schema": "https://example.com/meta"}, documents={"https://example.com/meta": meta})
    assert caught.value.schema_path == "/$schema"


# -- the table itself: one row holds everything about a keyword ---------------------------------

# One valid value of each keyword of 2020-12, alone in a schema (with what it names, for references).
SAMPLES: dict[str, dict[str, Any]] = {
    "$id": {"$id": "https://example.com/s.json"},
    "$anchor": {"$anchor": "here"},
    "$dynamicAnchor": {"$dynamicAnchor": "here"},
    "$ref": {"$ref": "#/$defs/a", "$defs": {"a": {"type": "string"}}},
    "$dynamicRef": {"$dynamicRef": "#/$defs/a", "$defs": {"a": {"type": "string"}}},
    "$vocabulary": {"$vocabulary": {"https://json-schema.org/draft/2020-12/vocab/core": True}},
    "type": {"type": "string"},
    "enum": {"enum": ["a", 1]},
    "const": {"const": "a"},
    "multipleOf": {"multipleOf": 2},
    "minimum": {"minimum": 1},
    "exclusiveMinimum": {"exclusiveMinimum": 1},
    "maximum": {"maximum": 1},
    "exclusiveMaximum": {"exclusiveMaximum": 1},
    "minLength": {"minLength": 1},
    "maxLength": {"maxLength": 1},
    "pattern": {"pattern": "^a"},
    "format": {"format": "date"},
    "minItems": {"minItems": 1},
    "maxItems": {"maxItems": 1},
    "uniqueItems": {"uniqueItems": True},
    "prefixItems": {"prefixItems": [{"type": "string"}]},
    "items": {"items": {"type": "string"}},
    "contains": {"contains": {"type": "string"}},
    "minContains": {"minContains": 1},
    "maxContains": {"maxContains": 1},
    "minProperties": {"minProperties": 1},
    "maxProperties": {"maxProperties": 1},
    "required": {"required": ["a"]},
    "dependentRequired": {"dependentRequired": {"a": ["b"]}},
    "propertyNames": {"propertyNames": {"maxLength": 3}},
    "properties": {"properties": {"a": {"type": "string"}}},
    "patternProperties": {"patternProperties": {"^a": {"type": "string"}}},
    "additionalProperties": {"additionalProperties": False},
    "dependentSchemas": {"dependentSchemas": {"a": {"required": ["b"]}}},
    "allOf": {"allOf": [{"type": "string"}]},
    "anyOf": {"anyOf": [{"type": "string"}, {"type": "null"}]},
    "oneOf": {"oneOf": [{"type": "string"}, {"type": "null"}]},
    "not": {"not": {"type": "string"}},
    "if": {"if": {"type": "string"}},
    "then": {"then": {"type": "string"}},
    "else": {"else": {"type": "string"}},
    "unevaluatedItems": {"unevaluatedItems": False},
    "unevaluatedProperties": {"unevaluatedProperties": False},
    "$defs": {"$defs": {"a": {"type": "string"}}},
    "definitions": {"definitions": {"a": {"type": "string"}}},
}
DIALECT_URIS = {
    "2020-12": "https://json-schema.org/draft/2020-12/",
    "2019-09": "https://json-schema.org/draft/2019-09/",
}


def _meta_schema_keywords(dialect: str) -> set[str]:
    """The keywords a dialect's own meta-schemas describe (as their properties)."""
    if dialect == "draft-07":
        documents = [META_SCHEMAS["http://json-schema.org/draft-07/schema"]]
    else:
        documents = [schema for uri, schema in META_SCHEMAS.items() if uri.startswith(DIALECT_URIS[dialect])]
    return {name for document in documents for name in document.get("properties", {})}


@pytest.mark.parametrize("dialect", ["2020-12", "2019-09", "draft-07"])
def test_every_keyword_of_a_dialect_has_a_row_or_is_an_annotation_or_a_refusal(dialect):
    rows = keywords(dialect)
    described = _meta_schema_keywords(dialect)
    assert len(described) > 30  # the meta-schemas were found
    unaccounted = {name for name in described if name not in rows and not is_annotation(name)}
    assert unaccounted <= set(REWRITES), unaccounted
    # And the other way: every row of the dialect is a keyword its meta-schemas describe.
    assert set(rows) <= described, set(rows) - described


def test_every_keyword_of_a_vocabulary_has_a_row_or_is_an_annotation():
    for names in VOCABULARIES.values():
        for name in names:
            assert dialects_of(name) or is_annotation(name), name


def test_a_dialect_has_one_row_for_each_keyword():
    for dialect in ("2020-12", "2019-09", "draft-07"):
        names = [row.name for row in VOCABULARY if dialect in row.dialects]
        assert len(names) == len(set(names)), dialect


def _defined_in_its_module(function):
    module = sys.modules[function.__module__]
    return getattr(module, function.__name__, None) is function


def test_every_row_names_functions_of_a_keyword_module():
    for row in VOCABULARY:
        for function in (row.build, row.words, row.notes):
            if function is None:
                continue
            assert function.__module__.startswith("toolreg._jsonschema.keywords."), (row.name, function)
            assert _defined_in_its_module(function), (row.name, function)
        # Each keyword function states its rule in one docstring.
        assert row.build.__doc__ and row.build.__doc__.strip(), row.name


def test_the_rows_facts_agree_with_one_another():
    for row in VOCABULARY:
        # A keyword leading to another schema by URI applies it in place, and that spends a step.
        assert not row.refers or (row.spends_itself and row.in_place and row.marks), row.name
        assert not row.spends_itself or row.in_place, row.name
        # Only a keyword that reads what the others evaluate makes the fast path hand a schema over whole.
        assert row.reads_evaluated == (row.speed is not None and row.speed.fast == "whole"), row.name
        # What a keyword notes as evaluated, it evaluates through its subschemas.
        assert row.notes is None or row.holds, row.name
        # The quick check vouches for the subschemas of a keyword by its holds, never a list or a schema.
        assert row.speed is None or row.speed.quick is None or row.holds != "schema-or-list", row.name
        # What a keyword's annotation evaluates, and its judgement, come from its subschemas.
        assert row.output is None or not (row.output.evaluates or row.output.judges) or row.holds, row.name
        # The names or items it evaluates are those of the instance type it speaks to.
        kinds = {"object": "names", "array": "items"}
        evaluates = row.output.evaluates if row.output else ""
        assert not evaluates or evaluates == kinds.get(row.instance_type or ""), row.name
        # The schema for the rest is one schema, and what it covers it evaluates.
        assert row.output is None or not row.output.refuses_rest or (row.holds == "schema" and evaluates), (
            row.name
        )


def test_the_sets_the_modules_use_are_read_from_the_rows():
    rows = keywords()
    assert {name for name, row in rows.items() if row.speed} == codegen.HANDLED_KEYWORDS
    assert {name for name, row in rows.items() if row.reads_evaluated} == codegen._UNEVALUATED
    assert {row.name for row in VOCABULARY if row.spends_itself} == codegen._SPENDS_ITSELF
    assert set(quick._VALUES) - set(ANNOTATIONS) == {
        name for name, row in rows.items() if row.speed and row.speed.quick
    }
    assert {
        name for name, row in rows.items() if row.speed and row.speed.quick and row.holds
    } == quick._ONE | quick._LIST | quick._MAP
    assert {row.name for row in VOCABULARY if row.reads_evaluated} == schema._READS_EVALUATED
    assert {row.name for row in VOCABULARY if row.refers} == references._REFERENCES
    assert set(WORDS) == {row.name for row in VOCABULARY if row.words}
    assert {row.name for row in VOCABULARY if row.refers} == recording._REFERENCES
    strict = {name for name, row in rows.items() if row.export and row.export.openai_strict}
    assert openai_strict._STRICT_KEYWORDS - set(ANNOTATIONS) == strict


def test_every_keyword_of_2020_12_has_a_sample():
    assert set(SAMPLES) == set(keywords())


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_the_fast_path_writes_code_for_exactly_the_keywords_whose_row_says_so(name):
    compiled = compile_schema(SAMPLES[name])
    try:
        codegen.generate(compiled)
    except codegen.NoFastPath:
        assert keywords()[name].speed is None
    else:
        assert keywords()[name].speed is not None


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_the_quick_check_vouches_for_exactly_the_keywords_whose_row_says_so(name):
    cache = Patterns(DEFAULT_LIMITS.max_pattern_program)
    vouched = quick.vouch(SAMPLES[name], DEFAULT_LIMITS, cache.guarded) is not None
    # "$ref" is vouched for beside the "$defs" it names; any other sample is the keyword alone.
    speed = keywords()[name].speed
    assert vouched == (speed is not None and speed.quick is not None), name


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_the_strict_export_takes_exactly_the_keywords_whose_row_says_so(name):
    schema = {"type": "object", "properties": {"a": {"type": "string", **SAMPLES[name]}}}
    schema["required"], schema["additionalProperties"] = ["a"], False
    schema["properties"]["a"].pop("$defs", None)
    if "$ref" in SAMPLES[name] or "$dynamicRef" in SAMPLES[name]:
        schema["$defs"] = {"a": {"type": "string"}}
    try:
        _, left_out = openai_strict.strict_form(schema, "t", omit=True)
    except ExportError:
        left_out = ["refused"]
    # Each line is "pointer: keyword value", or "pointer: left out (reason naming 'keyword')", or
    # "refused"; the pointer itself may hold the name.
    takes = not [
        line for line in left_out if line.partition(": ")[2].split(" ")[0] in (name, "") or repr(name) in line
    ]
    export = keywords()[name].export
    assert takes == (export is not None and export.openai_strict), (name, left_out)


INSTANCES = [None, True, 0, 3, 1.5, "", "abc", [], ["a", "a"], [1, "a", None]]
INSTANCES += [{}, {"a": 1}, {"a": "x"}, {"abcd": 1}, {"a": "x", "b": 2}]


@pytest.mark.parametrize("name", sorted(name for name, row in keywords().items() if row.speed))
def test_a_keyword_the_fast_path_claims_finds_what_the_reference_walk_finds(name):
    validator = toolreg.compile(SAMPLES[name])
    failing = 0
    for instance in INSTANCES:
        assert validator.validate(instance) == validator.validate_reference(instance), instance
        failing += not validator.is_valid(instance)
    # The instances break every keyword that can fail alone, so the fast path's code for it ran.
    assert failing or name in NEVER_FAILS_ALONE, name


# Keywords that never fail in a schema of their own: annotations here, or applied by a sibling.
NEVER_FAILS_ALONE = {"$id", "$anchor", "$dynamicAnchor", "$vocabulary", "format", "$defs", "definitions"}
NEVER_FAILS_ALONE |= {"minContains", "maxContains", "if", "then", "else"}


# Two draft-07 spellings the official suite's draft7 files reach too, checked here for a clone without it.
def test_draft_07_id_fragment_is_an_anchor_a_ref_finds():
    validator = toolreg.compile(
        {
            "$schema": "http://json-schema.org/draft-07/schema#",
            "properties": {"x": {"$ref": "#foo"}},
            "definitions": {"a": {"$id": "#foo", "type": "integer"}},
        }
    )
    assert validator.is_valid({"x": 1})
    assert [(error.path, error.keyword) for error in validator.validate({"x": "s"})] == [("/x", "type")]


def test_draft_07_dependencies_takes_a_schema_or_a_list_of_names():
    validator = toolreg.compile(
        {
            "$schema": "http://json-schema.org/draft-07/schema#",
            "dependencies": {"a": {"required": ["b"]}, "c": ["d"]},
        }
    )
    assert (
        validator.is_valid({"a": 1, "b": 2})
        and validator.is_valid({"c": 1, "d": 2})
        and validator.is_valid([])
    )
    assert [error.keyword for error in validator.validate({"a": 1})] == ["required"]
    assert [error.keyword for error in validator.validate({"c": 1})] == ["dependencies"]
