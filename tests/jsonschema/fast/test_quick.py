"""The quick check at registration: it vouches only for schemas that compile, and the registry then
compiles them at their first use."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import toolreg
from conformance._official import DIALECT_FOLDERS, PARTS, default_suite_dir, load_groups
from tests import accept_any
from tests.properties.test_corpus import RECORDS, needs_corpus
from toolreg._jsonschema.fast.quick import vouch
from toolreg._jsonschema.limits import DEFAULT_LIMITS, Limits
from toolreg._jsonschema.regex import Patterns
from toolreg._jsonschema.schema import compile_schema
from toolreg._jsonschema.values import snapshot

SUITE = default_suite_dir()
D7 = "http://json-schema.org/draft-07/schema#"


def vouched(schema: Any, limits: Limits = DEFAULT_LIMITS) -> bool:
    cache = Patterns(limits.max_pattern_program)
    root = snapshot(schema, limits.max_schema_depth)
    return vouch(root, limits, cache.guarded) is not None


def compiles(schema: Any, limits: Limits = DEFAULT_LIMITS) -> bool:
    try:
        compile_schema(schema, limits)
    except toolreg.SchemaError:
        return False
    return True


# Each is refused by compilation; the quick check must not vouch for any.
REFUSED = [
    {"type": "dict"},
    {"type": ["string", "string"]},
    {"type": []},
    {"enum": "a"},
    {"minLength": -1},
    {"minLength": 1.5},
    {"maxItems": True},
    {"minimum": "0"},
    {"exclusiveMinimum": True},
    {"multipleOf": 0},
    {"required": ["a", "a"]},
    {"required": "a"},
    {"pattern": "("},
    {"pattern": "(?<=a+)b"},
    {"format": 1},
    {"uniqueItems": 1},
    {"properties": []},
    {"properties": {"a": 1}},
    {"items": [{}]},
    {"anyOf": []},
    {"allOf": {}},
    {"not": "x"},
    {"$ref": "#/$defs/missing"},
    {"$ref": "#/properties"},
    {"$ref": "#"},
    {"$defs": {"a": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"},
    {"$defs": {"a": {"anyOf": [{"$ref": "#/$defs/a"}]}}, "$ref": "#/$defs/a"},
    {"tpye": "string"},
    {"title": 1},
    {"examples": "x"},
    {"$schema": D7, "$defs": {}},
    {"properties": {"a": {"$schema": D7}}},
    {"$schema": ["not", "a", "uri"]},
]


@pytest.mark.parametrize("schema", REFUSED, ids=[json.dumps(schema) for schema in REFUSED])
def test_no_schema_that_compilation_refuses_is_vouched_for(schema: Any) -> None:
    assert not compiles(schema)
    assert not vouched(schema)
    with pytest.raises(toolreg.SchemaError):
        toolreg.ToolRegistry().register("t.tool", schema, accept_any)


COMMON = [
    {"type": "object", "properties": {"a": {"type": "string", "pattern": "^[a-z]+$"}}, "required": ["a"]},
    {"$defs": {"node": {"properties": {"next": {"$ref": "#/$defs/node"}}}}, "$ref": "#/$defs/node"},
    {"properties": {"tree": {"items": {"$ref": "#"}}}},
    {"anyOf": [{"type": "string", "format": "date"}, {"type": "null"}], "description": "d", "x-kind": 1},
    {"$schema": D7, "definitions": {"a": {"enum": [1]}}, "$ref": "#/definitions/a"},
    {"prefixItems": [{"const": 1}], "items": False, "minItems": 1.0, "uniqueItems": True},
    True,
]  # fmt: skip


@pytest.mark.parametrize("schema", COMMON, ids=[json.dumps(schema) for schema in COMMON])
def test_the_common_forms_are_vouched_for(schema: Any) -> None:
    assert vouched(schema)
    assert compiles(schema)


def test_a_schema_past_the_size_limit_is_compiled_at_once_and_refused() -> None:
    schema = {"properties": {f"p{number}": {"type": "string"} for number in range(20)}}
    limits = Limits(max_schema_size=10)
    assert not vouched(schema, limits)
    assert not compiles(schema, limits)


_NAMES = st.sampled_from(
    ["type", "enum", "const", "minimum", "exclusiveMaximum", "multipleOf", "minLength", "maxItems",
     "required", "pattern", "format", "uniqueItems", "title", "examples", "$schema", "x-note", "$comment"]
)  # fmt: skip
_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-2, 3), st.floats(-2, 3, allow_nan=False), st.text(max_size=3),
    st.sampled_from(["string", "integer", "^a", "(", "https://json-schema.org/draft/2020-12/schema"]),
    st.lists(st.sampled_from(["a", "string", "null", 1]), max_size=3),
)  # fmt: skip
_REFS = st.sampled_from(
    ["#", "#/$defs/a", "#/$defs/b", "#/properties/p", "#/$defs/a/items", "#/anyOf/0", "#/x"]
)


def _schemas() -> st.SearchStrategy[Any]:
    leaves = st.one_of(st.booleans(), st.dictionaries(_NAMES, _VALUES, max_size=3))

    def extend(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
        below = st.fixed_dictionaries(
            {},
            optional={
                "properties": st.dictionaries(st.sampled_from(["p", "q"]), children, max_size=2),
                "$defs": st.dictionaries(st.sampled_from(["a", "b"]), children, max_size=2),
                "items": children,
                "anyOf": st.lists(children, max_size=2),
                "not": children,
                "$ref": _REFS,
            },
        )
        return st.tuples(st.dictionaries(_NAMES, _VALUES, max_size=2), below).map(
            lambda pair: {**pair[0], **pair[1]}
        )

    return st.recursive(leaves, extend, max_leaves=8)


@given(_schemas())
def test_what_the_quick_check_vouches_for_compiles(schema: Any) -> None:
    if vouched(schema):
        assert compiles(schema), schema


@pytest.mark.slow
@pytest.mark.skipif(not (SUITE / "tests").is_dir(), reason=f"official suite not found at {SUITE}")
def test_every_official_schema_vouched_for_compiles() -> None:
    schemas = [
        group.schema
        for folder in DIALECT_FOLDERS
        for part in PARTS
        for group in load_groups(SUITE, folder, part)
    ]
    vouched_for = [schema for schema in schemas if vouched(schema)]
    assert len(vouched_for) > len(schemas) // 3  # the check reads the common keywords of every dialect
    assert all(compiles(schema) for schema in vouched_for)


@pytest.mark.no_cover
@pytest.mark.slow
@needs_corpus
def test_every_valid_real_schema_is_vouched_for() -> None:
    schemas = [record["schema"] for record in RECORDS]
    compiled = [compiles(snapshot(schema, 128)) for schema in schemas]  # each compiled once
    valid = [schema for schema, good in zip(schemas, compiled, strict=True) if good]
    assert len(valid) > 1000
    # Real catalogs keep to the common keywords: each of their valid schemas starts without compiling.
    assert all(vouched(schema) for schema in valid)
    assert not any(vouched(schema) for schema, good in zip(schemas, compiled, strict=True) if not good)


def test_a_vouched_schema_is_compiled_at_its_first_use() -> None:
    registry = toolreg.ToolRegistry()
    record = registry.register("t.tool", {"properties": {"n": {"type": "integer"}}}, accept_any)
    assert record.validator._compiled is None
    assert [error.keyword for error in registry.validate("t.tool", {"n": "1"})] == ["type"]
    assert record.validator._compiled is not None
    refused = registry.register(
        "t.other", {"properties": {"n": {"$id": "urn:x", "type": "integer"}}}, accept_any
    )
    assert refused.validator._compiled is not None  # not vouched for: compiled at once
