"""The strict schema check: supported keywords and annotations pass; everything else is refused."""

import pytest

import toolreg


def refusal(schema):
    with pytest.raises(toolreg.SchemaError) as caught:
        toolreg.check_schema(schema)
    return caught.value


def test_annotations_are_accepted():
    toolreg.check_schema(
        {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "t",
            "description": "d",
            "default": {"a": 1},
            "examples": [1],
            "$comment": "c",
            "format": "uri",
            "deprecated": True,
            "readOnly": False,
            "writeOnly": False,
        }
    )
    toolreg.check_schema({"$schema": "http://json-schema.org/draft-07/schema#"})


DRAFT_2020 = "https://json-schema.org/draft/2020-12/schema"


@pytest.mark.parametrize(
    ("schema", "pointer", "keyword", "words"),
    [
        ({"requried": ["a"]}, "/requried", "requried", "did you mean 'required'"),
        (
            {"properties": {"a": {"propertys": {}}}},
            "/properties/a/propertys",
            "propertys",
            "did you mean 'properties'",
        ),
        (
            {"items": {"$recursiveAnchor": True}},
            "/items/$recursiveAnchor",
            "$recursiveAnchor",
            "'$dynamicAnchor' instead",
        ),
        ({"unevaluatedItems": 3}, "/unevaluatedItems", None, "object or a boolean"),
        ({"$anchor": "1a"}, "/$anchor", "$anchor", "starts with a letter"),
        ({"$ref": "#nowhere"}, "/$ref", "$ref", "no schema there declares"),
        ({"patternProperties": {"(": {}}}, "/patternProperties/(", "patternProperties", "ECMA-262"),
        ({"patternProperties": {"a": 1}}, "/patternProperties/a", None, "object or a boolean"),
        ({"dependentRequired": {"a": "b"}}, "/dependentRequired/a", "dependentRequired", "list"),
        ({"dependentRequired": {"a": ["b", "b"]}}, "/dependentRequired/a", "dependentRequired", "twice"),
        ({"minContains": -1}, "/minContains", "minContains", "non-negative integer"),
        ({"contains": {}, "maxContains": 1.5}, "/maxContains", "maxContains", "non-negative integer"),
        (
            {"$schema": "http://json-schema.org/draft-07/schema#", "prefixItems": []},
            "/prefixItems",
            "prefixItems",
            "'items' takes the array",
        ),
        (
            {"$schema": "http://json-schema.org/draft-07/schema#", "items": {"$schema": DRAFT_2020}},
            "/items/$schema",
            "$schema",
            "one dialect",
        ),
        ({"discriminator": {"propertyName": 1}}, "/discriminator", "discriminator", "propertyName"),
        ({"zzzz": 1}, "/zzzz", "zzzz", "unknown keyword"),
        ({"type": "str"}, "/type", "type", "unknown type"),
        ({"type": ["string", 1]}, "/type", "type", "type name"),
        ({"type": []}, "/type", "type", "type name"),
        ({"type": ["string", "string"]}, "/type", "type", "twice"),
        ({"minLength": -1}, "/minLength", "minLength", "non-negative integer"),
        ({"maxLength": 1.5}, "/maxLength", "maxLength", "non-negative integer"),
        ({"maxLength": True}, "/maxLength", "maxLength", "non-negative integer"),
        ({"required": "a"}, "/required", "required", "list of property names"),
        ({"required": ["a", "a"]}, "/required", "required", "twice"),
        ({"required": [1]}, "/required", "required", "list of property names"),
        ({"properties": []}, "/properties", "properties", "object mapping"),
        ({"properties": {"a": 1}}, "/properties/a", None, "object or a boolean"),
        ({"enum": {"a": 1}}, "/enum", "enum", "array"),
        ({"items": [{}]}, "/items", "items", "prefixItems"),
        ({"pattern": "("}, "/pattern", "pattern", "ECMA-262"),
        ({"pattern": "(?<!x"}, "/pattern", "pattern", "ECMA-262"),
        ({"pattern": 5}, "/pattern", "pattern", "string"),
        ({"nullable": True}, "/nullable", "nullable", "type list"),
        ({"$schema": "http://example.com/other"}, "/$schema", "$schema", "meta-schema"),
        ({"title": 3}, "/title", "title", "string"),
        ({"$schema": []}, "/$schema", "$schema", "meta-schema"),
        ({"enum": [float("nan")]}, "/enum/0", None, "JSON"),
        ({"enum": [(1, 2)]}, "/enum/0", None, "JSON"),
    ],
)
def test_refusals_name_keyword_and_pointer(schema, pointer, keyword, words):
    error = refusal(schema)
    assert error.schema_path == pointer
    assert error.keyword == keyword
    assert words in str(error)
    assert isinstance(error, ValueError) and isinstance(error, toolreg.ToolregError)


def test_a_schema_is_an_object_or_boolean():
    for schema in (1, "x", None, []):
        assert refusal(schema).schema_path == ""
    toolreg.check_schema(True)
    toolreg.check_schema(False)
    toolreg.check_schema({"properties": {"a": True, "b": False}, "items": False})
