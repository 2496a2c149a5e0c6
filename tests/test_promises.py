"""What the API promises, held to the letter: one result convention, snapshots nobody can change,
records and exceptions that keep their word, masking that repeats nothing, and the registry's lifecycle."""

import collections
import json
import pickle
import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

import toolreg
import toolreg._jsonschema.fast.codegen
import toolreg._jsonschema.validator
from tests import accept_any
from tests.conftest import untraced
from toolreg._jsonschema.errors import ToolregError

SCHEMA = {
    "type": "object",
    "properties": {
        "path": {"type": "string", "minLength": 1},
        "max_bytes": {"type": "integer", "minimum": 1},
    },
    "required": ["path"],
    "additionalProperties": False,
}
BAD_CALLS = [
    {},
    {"path": ""},
    {"path": 1},
    {"path": None},
    {"path": "a", "max_bytes": 0},
    {"path": "a", "max_bytes": "10"},
    {"path": "a", "max_bytes": True},
    {"path": "a", "extra": 1},
    [],
    "a",
    None,
    {"path": float("nan")},
]


# -- one result convention ---------------------------------------------------------------------


def three_ways(schema):
    registry = toolreg.ToolRegistry()
    registry.register("t", schema, accept_any)
    validator = toolreg.compile(schema)
    return {
        "toolreg.validate": lambda args: toolreg.validate(schema, args),
        "Validator.validate": validator.validate,
        "Validator.validate_reference": validator.validate_reference,
        "ToolRegistry.validate": lambda args: registry.validate("t", args),
    }


def test_every_validate_answers_ok_or_the_same_errors():
    for name, validate in three_ways(SCHEMA).items():
        result = validate({"path": "notes.txt"})
        assert isinstance(result, toolreg.Ok), name
        assert not result and len(result) == 0 and list(result) == [] and result == [] and result == ()
        assert toolreg.format_errors(result).items == ()
        for bad in BAD_CALLS:
            errors = validate(bad)
            assert isinstance(errors, list) and errors, (name, bad)
            assert errors == toolreg.validate(SCHEMA, bad)


def test_ok_is_one_value():
    assert toolreg.Ok() is toolreg.Ok() and hash(toolreg.Ok()) == hash(())
    assert pickle.loads(pickle.dumps(toolreg.Ok())) is toolreg.Ok()
    assert toolreg.Ok() != [1] and [] == toolreg.Ok()  # noqa: SIM300 - the list's side of ==, on purpose


def idioms(registry, run):
    """Each way the docs decide whether to run a handler."""

    def walrus(args):
        if errors := registry.validate("t", args):
            return errors
        return run(args)

    def negation(args):
        errors = registry.validate("t", args)
        if not errors:
            run(args)

    def question(args):
        if registry.is_valid("t", args):
            run(args)

    def exception(args):
        try:
            registry.check("t", args)
        except toolreg.InvalidArgumentsError:
            return
        run(args)

    return [walrus, negation, question, exception]


def test_no_idiom_runs_a_handler_on_an_invalid_call():
    registry = toolreg.ToolRegistry()
    registry.register("t", SCHEMA, accept_any)
    ran = []
    for idiom in idioms(registry, ran.append):
        for bad in BAD_CALLS:
            idiom(bad)
    assert ran == []
    for idiom in idioms(registry, ran.append):
        idiom({"path": "notes.txt"})
    assert len(ran) == 4


def test_check_raises_with_every_error():
    registry = toolreg.ToolRegistry()
    registry.register("fs.read", SCHEMA, accept_any)
    with pytest.raises(toolreg.InvalidArgumentsError) as caught:
        registry.check("fs.read", {"max_bytes": 0, "x": 1})
    assert isinstance(caught.value, ToolregError) and isinstance(caught.value, ValueError)
    assert list(caught.value.errors) == registry.validate("fs.read", {"max_bytes": 0, "x": 1})
    assert caught.value.tool == "fs.read" and "3 errors" in str(caught.value)
    with pytest.raises(toolreg.UnknownToolError):
        registry.check("nope", {})
    with pytest.raises(toolreg.UnknownToolError):
        registry.is_valid("nope", {})


@pytest.mark.parametrize(
    "schema",
    [SCHEMA, {}, True, {"properties": {"a": {"type": "integer"}}}, {"type": ["object", "null"]}],
    ids=["read_file", "empty", "true", "no-type", "object-or-null"],
)
def test_is_valid_answers_as_validate_does_for_a_tool(schema):
    # It stops at the first failure, and a tool's arguments are an object whatever the schema says.
    registry = toolreg.ToolRegistry()
    registry.register("t", schema, accept_any)
    calls = [
        *BAD_CALLS,
        {},
        {"path": "notes.txt"},
        {"a": 1},
        {"a": "1"},
        None,
        [],
        "{}",
        collections.OrderedDict(a=1),
    ]
    for args in calls:
        assert registry.is_valid("t", args) is (not registry.validate("t", args)), args


# -- snapshots nobody can change ---------------------------------------------------------------


@pytest.mark.parametrize("validated_first", [False, True])
def test_a_validator_schema_is_a_copy(validated_first):
    validator = toolreg.compile({"type": "string"})
    if validated_first:
        validator.validate("a")
    validator.schema["type"] = "integer"
    assert [e.keyword for e in validator.validate(1)] == ["type"]
    assert [e.keyword for e in validator.validate_reference(1)] == ["type"]
    assert validator.schema == {"type": "string"}


def test_nothing_reached_through_a_record_changes_the_registry():
    registry = toolreg.ToolRegistry()
    record = registry.register(
        "t", SCHEMA, accept_any, output_schema={"type": "string"}, meta={"icons": [{"a": 1}]}
    )
    before = registry.export("mcp")
    record.validator.schema["properties"]["path"]["type"] = "integer"
    record.schema["required"].append("max_bytes")
    record.output_schema["type"] = "integer"
    registry.export("mcp")[0]["inputSchema"]["type"] = "array"
    with pytest.raises(TypeError):
        record.meta["icons"] = []  # type: ignore[index]
    with pytest.raises(AttributeError):
        record.description = "changed"  # type: ignore[misc]
    assert registry.export("mcp") == before
    assert registry.is_valid("t", {"path": "a"})
    assert registry.validate_output("t", "text") == []


def test_one_shot_validation_generates_no_code(monkeypatch):
    def refuse(compiled):
        raise AssertionError("toolreg.validate generated code")

    # The validator imports the code generator at its first use: refusing it there refuses every use.
    monkeypatch.setattr(toolreg._jsonschema.fast.codegen, "generate", refuse)
    assert toolreg.validate(SCHEMA, {"path": "a"}) == []
    assert [e.keyword for e in toolreg.validate(SCHEMA, {"path": ""})] == ["minLength"]
    with pytest.raises(AssertionError):
        toolreg.compile(SCHEMA).validate({})


# -- records and exceptions keep their word ----------------------------------------------------


def test_records_compare_by_every_field_and_the_schema():
    def record(schema, **options):
        return toolreg.ToolRegistry().register("t", schema, accept_any, **options)

    same = record(SCHEMA)
    assert same == record(json.loads(json.dumps(SCHEMA))) and hash(same) == hash(record(SCHEMA))
    assert same != record({**SCHEMA, "required": []})
    assert same != record(SCHEMA, description="other")
    assert same != record(SCHEMA, output_schema={"type": "string"})
    # As JSON: 1 and 1.0 are the same number, true is not 1.
    assert record({"properties": {"a": {"const": 1}}}) == record({"properties": {"a": {"const": 1.0}}})
    assert record({"properties": {"a": {"const": 1}}}) != record({"properties": {"a": {"const": True}}})
    assert len({same, record(SCHEMA), record({"type": "object"})}) == 2

    class Unhashable:
        __hash__ = None  # type: ignore[assignment]

        def __call__(self, **arguments):
            return None

    assert hash(record(SCHEMA, description="a")) == hash(
        toolreg.ToolRegistry().register("t", SCHEMA, Unhashable())
    )


@pytest.mark.parametrize(
    ("call", "family"),
    [
        (lambda: toolreg.Limits(max_depth=0), toolreg.LimitsError),
        (lambda: toolreg.compile({}, limits={"max_depth": 0}), toolreg.LimitsError),
        (lambda: toolreg.compile({}, limits={"depth": 3}), toolreg.LimitsError),
        (lambda: toolreg.ToolRegistry(limits="deep"), toolreg.LimitsError),
        (lambda: toolreg.ToolRegistry().lookup("a", "cohere"), toolreg.UnknownProviderError),
        (lambda: toolreg.ToolRegistry().export("cohere"), toolreg.UnknownProviderError),
        (lambda: toolreg.ToolRegistry().lookup(None, "openai"), toolreg.UnknownToolError),
        (lambda: toolreg.ToolRegistry().lookup(["a"], "openai"), toolreg.UnknownToolError),
        (lambda: toolreg.ToolRegistry().get({}), toolreg.UnknownToolError),
        (lambda: toolreg.ToolRegistry().unregister("a"), toolreg.UnknownToolError),
        (lambda: toolreg.ToolRegistry().export("mcp", names="fs.read"), toolreg.InvalidToolError),
        (
            lambda: toolreg.ToolRegistry().register("t", {}, accept_any, meta={"name": "x"}),
            toolreg.InvalidToolError,
        ),
        (
            lambda: toolreg.ToolRegistry().register("t", {}, accept_any, output_schema={"typo": 1}),
            toolreg.SchemaError,
        ),
        (
            lambda: toolreg.check_schema({"type": "object"}, limits={"max_schema_size": 0}),
            toolreg.LimitsError,
        ),
    ],
)
def test_every_refusal_is_a_toolreg_error(call, family):
    with pytest.raises(family) as caught:
        call()
    assert isinstance(caught.value, ToolregError)
    assert isinstance(caught.value, (ValueError, LookupError))


def test_limits_given_as_a_mapping_work():
    validator = toolreg.compile({"type": "array"}, limits={"max_depth": 3})
    assert validator.is_valid([[1]]) and [e.keyword for e in validator.validate([[[[1]]]])] == ["depth"]
    registry = toolreg.ToolRegistry(limits={"max_depth": 3})
    assert registry.limits == toolreg.Limits(max_depth=3)


# -- masking repeats nothing the call held -----------------------------------------------------

SECRET = st.text(string.ascii_uppercase, min_size=8, max_size=8).map(lambda text: "sk-" + text)


def secret_instances(schema, depth=0):
    """Values shaped like the schema where every string the instance chooses is a secret."""
    leaves = st.one_of(SECRET, st.integers(-5, 5), st.floats(-5, 5), st.booleans(), st.none())
    if depth > 3 or not isinstance(schema, dict):
        return leaves | st.lists(leaves, max_size=3) | st.dictionaries(SECRET, leaves, max_size=2)
    named = schema.get("properties")
    objects = st.dictionaries(
        SECRET, leaves | st.dictionaries(SECRET, leaves, max_size=2), min_size=1, max_size=3
    )
    options = [objects] if schema.get("type") == "object" else [leaves, objects]
    if isinstance(named, dict) and named:
        options.append(
            st.fixed_dictionaries(
                {},
                optional={name: secret_instances(sub, depth + 1) for name, sub in named.items()},
            ).flatmap(
                lambda known: st.dictionaries(SECRET, leaves, max_size=2).map(lambda more: {**known, **more})
            )
        )
    for keyword in ("items", "additionalProperties", "propertyNames", "not"):
        if isinstance(schema.get(keyword), dict):
            inner = secret_instances(schema[keyword], depth + 1)
            options.append(st.lists(inner, max_size=3))
            options.append(st.dictionaries(SECRET, inner, max_size=3))
    for keyword in ("anyOf", "oneOf", "allOf", "prefixItems"):
        for sub in schema.get(keyword, []) if isinstance(schema.get(keyword), list) else []:
            options.append(secret_instances(sub, depth + 1))
    return st.one_of(options)


def strings_in(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from strings_in(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from strings_in(item)


# Schemas whose errors name what the instance chose (names under additionalProperties and
# propertyNames, branch errors quoted by anyOf and oneOf) and quote what it holds (lengths, numbers).
LEAF_SCHEMAS = st.sampled_from(
    [
        {"type": "integer"}, {"type": ["string", "null"]}, {"maxLength": 2}, {"minimum": 10},
        {"enum": ["x", 1]}, {"const": "c"}, {"uniqueItems": True}, {"maxProperties": 1},
        {"required": ["a"]}, {"pattern": "^x"}, {"minItems": 4}, {"maxItems": 1}, {"minProperties": 3},
        {"multipleOf": 7}, {"exclusiveMaximum": -9}, {"minLength": 12}, False,
    ]
)  # fmt: skip
NAMING_SCHEMAS = st.recursive(
    LEAF_SCHEMAS,
    lambda inner: st.one_of(
        st.fixed_dictionaries({"properties": st.fixed_dictionaries({"a": inner, "b": inner})}),
        st.fixed_dictionaries({"additionalProperties": inner}),
        st.fixed_dictionaries({"propertyNames": st.sampled_from([{"maxLength": 3}, {"pattern": "^a"}])}),
        st.fixed_dictionaries({"anyOf": st.tuples(inner, st.just({"type": "null"})).map(list)}),
        st.fixed_dictionaries({"oneOf": st.lists(inner, min_size=2, max_size=3)}),
        st.fixed_dictionaries({"allOf": st.lists(inner, min_size=1, max_size=2)}),
        st.fixed_dictionaries({"items": inner, "type": st.just("array")}),
        st.fixed_dictionaries({"prefixItems": st.lists(inner, min_size=1, max_size=2), "items": inner}),
        st.fixed_dictionaries({"not": inner}),
    ),
    max_leaves=6,
)
# An object schema at the top, since what a call chooses is mostly its property names.
OBJECT_SCHEMAS = st.fixed_dictionaries(
    {"type": st.just("object")},
    optional={
        "properties": st.fixed_dictionaries({"a": NAMING_SCHEMAS, "b": NAMING_SCHEMAS}),
        "additionalProperties": NAMING_SCHEMAS,
        "propertyNames": st.sampled_from([{"maxLength": 3}, {"pattern": "^a"}]),
        "anyOf": st.tuples(NAMING_SCHEMAS, NAMING_SCHEMAS).map(list),
    },
)


@pytest.mark.no_cover
@given(st.data())
def test_masked_output_holds_no_string_from_the_instance(data):
    # Drawn untraced, as @given's arguments are (secret_instances makes new strategies each time).
    schema = untraced(data.draw, OBJECT_SCHEMAS | NAMING_SCHEMAS, "schema")
    instance = untraced(lambda: data.draw(secret_instances(schema), label="instance"))
    errors = toolreg.compile(schema).validate(instance)
    for mask_of in (toolreg.format_errors(errors, mask=True, max_chars=10_000),):
        shown = mask_of.text + json.dumps(mask_of.items, ensure_ascii=False)
        for secret in strings_in(instance):
            if secret.startswith("sk-"):
                assert secret not in shown, (schema, instance)
    for error in errors:
        assert error.masked().keyword == error.keyword and error.masked().schema_path == error.schema_path


def test_a_false_subschema_under_a_chosen_name_is_masked():
    # Found by the property above: the error of a `false` subschema kept the name in its path.
    schema = {"type": "object", "additionalProperties": {"anyOf": [False, {"type": "null"}]}}
    errors = toolreg.validate(schema, {"sk-AAAAAAAA": "sk-AAAAAAAA"})
    masked = toolreg.format_errors(errors, mask=True)
    assert "sk-AAAAAAAA" in json.dumps([e.to_dict() for e in errors])
    assert "sk-AAAAAAAA" not in masked.text + json.dumps(masked.items)


def test_masking_hides_what_showing_shows():
    schema = {
        "type": "object",
        "properties": {
            "token": {"maxLength": 4},
            "n": {"anyOf": [{"type": "string", "minLength": 9}, {"type": "null"}]},
        },
        "additionalProperties": {"type": "integer"},
        "propertyNames": {"maxLength": 5},
    }
    instance = {"token": "sk-SECRET", "n": "sk-OTHER", "sk-NAME": "sk-VALUE"}
    errors = toolreg.validate(schema, instance)
    shown = toolreg.format_errors(errors, max_chars=10_000)
    masked = toolreg.format_errors(errors, mask=True, max_chars=10_000)
    assert "sk-NAME" in shown.text and "sk-NAME" in json.dumps(shown.items)
    for secret in ("sk-SECRET", "sk-OTHER", "sk-NAME", "sk-VALUE"):
        assert secret not in masked.text + json.dumps(masked.items)
    assert "- at /*: expected integer, got string" in masked.text
    assert "- the arguments: a property name must be at most 5 characters long" in masked.text


# -- the registry's lifecycle ------------------------------------------------------------------


def test_unregister_removes_a_tool_and_frees_its_name():
    registry = toolreg.ToolRegistry()
    for name in ("a", "b", "c"):
        registry.register(name, {}, accept_any)
    removed = registry.unregister("b")
    assert removed.name == "b" and registry.names() == ["a", "c"] and "b" not in registry
    with pytest.raises(toolreg.UnknownToolError):
        registry.validate("b", {})
    registry.register("b", {}, accept_any)
    assert registry.names() == ["a", "c", "b"]


SERVER = {
    "tools": [
        {
            "name": "createIssue",
            "title": "Create an issue",
            "description": "Create an issue.\n\nThe body is Markdown;\nlabels must exist.",
            "inputSchema": {
                "type": "object",
                "properties": {"title": {"type": "string"}},
                "required": ["title"],
            },
            "outputSchema": {"type": "object", "properties": {"number": {"type": "integer"}}},
            "annotations": {"title": "New issue", "idempotentHint": False, "readOnlyHint": False},
            "icons": [{"src": "https://example.com/i.png", "mimeType": "image/png"}],
            "_meta": {"vendor/x": 1},
        },
        {"name": "listIssues", "description": "List issues", "inputSchema": {"type": "object"}},
    ]
}


def test_import_keeps_every_field_and_exports_it_again():
    registry = toolreg.ToolRegistry()
    report = toolreg.import_mcp(registry, SERVER, lambda tool: accept_any)
    assert report.ok and report.changed == ()
    record = registry.get("create_issue")
    assert (
        record.description == "Create an issue."
        and record.details == "\nThe body is Markdown;\nlabels must exist."
    )
    assert record.output_schema == SERVER["tools"][0]["outputSchema"]
    exported = registry.export("mcp")
    original = json.loads(json.dumps(SERVER["tools"]))
    original[0]["name"], original[1]["name"] = "create_issue", "list_issues"
    original[1]["annotations"] = {"idempotentHint": False}
    assert exported == original
    assert registry.export("openai")[0]["function"]["description"] == SERVER["tools"][0]["description"]


def test_import_reports_what_it_could_not_keep():
    catalog = [{"name": "a", "description": "one\r\ntwo", "annotations": {"readOnlyHint": "yes"}}]
    report = toolreg.import_mcp(toolreg.ToolRegistry(), catalog, lambda tool: accept_any)
    assert {(change.field, change.name) for change in report.changed} == {
        ("inputSchema", "a"), ("description", "a"), ("annotations.readOnlyHint", "a"),
    }  # fmt: skip


def test_several_servers_share_a_registry_and_a_refresh_replaces():
    registry = toolreg.ToolRegistry()
    first = toolreg.import_mcp(registry, SERVER, lambda tool: accept_any, prefix="github")
    second = toolreg.import_mcp(registry, SERVER, lambda tool: accept_any, prefix="gitlab")
    assert first.ok and second.ok
    assert registry.names() == [
        "github.create_issue", "github.list_issues", "gitlab.create_issue", "gitlab.list_issues",
    ]  # fmt: skip
    again = toolreg.import_mcp(registry, SERVER, lambda tool: accept_any, prefix="github")
    assert not again.ok and all("registered already" in refusal.reason for refusal in again.refused)
    changed = {"tools": [{**SERVER["tools"][1], "description": "List open issues"}]}
    refresh = toolreg.import_mcp(registry, changed, lambda tool: accept_any, prefix="github", override=True)
    assert refresh.ok and registry.get("github.list_issues").description == "List open issues"
    assert len(registry) == 4
    with pytest.raises(toolreg.InvalidToolNameError):
        toolreg.import_mcp(registry, SERVER, lambda tool: accept_any, prefix="Git Hub")


def test_a_long_description_goes_in_details():
    registry = toolreg.ToolRegistry()
    for text in ("two\nlines", "a\u2028b", "a\x85b", "a\rb"):
        with pytest.raises(toolreg.InvalidToolError, match="details"):
            registry.register("t", {}, accept_any, description=text)
    record = registry.register("t", {}, accept_any, description="Summary", details="More.\nAnd more.")
    assert record.full_description == "Summary\nMore.\nAnd more."
    assert registry.export("anthropic")[0]["description"] == "Summary\nMore.\nAnd more."
