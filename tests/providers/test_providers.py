"""toolreg among the providers: exports, reversible names, catalog import, model-ready errors, the CLI."""

import asyncio
import importlib
import json
import os
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import jsonschema
import jsonschema_rs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import toolreg
import toolreg._providers
from tests.paths import ROOT
from toolreg._cli import main
from toolreg._lifecycle.catalogs import catalog_entries
from toolreg._providers import PROVIDERS, read_call
from toolreg._providers.base import Provider
from toolreg._providers.mcp import toolreg_name
from toolreg._registry import check_tool_name

CORPUS = Path(os.environ.get("TOOLREG_CORPUS") or ROOT.parent / "shared" / "tool-schemas" / "corpus.jsonl")
RECORDS = (
    [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines()] if CORPUS.is_file() else []
)
needs_corpus = pytest.mark.skipif(
    not RECORDS, reason=f"tool-schema corpus not found at {CORPUS}; set TOOLREG_CORPUS"
)

segments = st.text("abcdefghijklmnopqrstuvwxyz0123456789_", min_size=1, max_size=12)
tool_names = st.lists(segments, min_size=1, max_size=4).map(".".join)
SCHEMA = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}


def handler(**arguments):
    return arguments


# -- names ------------------------------------------------------------------------------------


@given(tool_names)
def test_every_name_the_registry_takes_round_trips_through_every_provider(name):
    # The registry's own rule for names knows no provider; it must stay within every provider's rule.
    try:
        check_tool_name(name)
    except toolreg.InvalidToolNameError:
        assert len(name) > 64 or name[0].isdigit()
        return
    for known, rules in PROVIDERS.items():
        mapped = rules.names.sent(name, known)
        assert rules.names.pattern.fullmatch(mapped)
        assert rules.names.toolreg_name(mapped) == name
        if known.startswith("openai") or known == "anthropic":
            assert re.fullmatch(r"[a-zA-Z0-9_-]{1,64}", mapped)


def test_names_map_one_to_one_where_dots_are_forbidden():
    def sent(name, known):
        return PROVIDERS[known].names.sent(name, known)

    assert sent("fs.read_file", "openai") == "fs-read_file"
    assert sent("fs.read_file", "openai-responses") == "fs-read_file"
    assert sent("fs_read.file", "anthropic") == "fs_read-file"  # '_' alone would collide
    assert sent("fs.read_file", "mcp") == "fs.read_file"
    assert sent("fs.read_file", "gemini") == "fs.read_file"
    with pytest.raises(toolreg.ExportError, match="64"):
        sent("a" * 65, "openai")
    with pytest.raises(toolreg.ExportError, match="letter or _"):
        sent("0.tool", "gemini")
    with pytest.raises(toolreg.UnknownProviderError, match="unknown provider"):
        toolreg._providers.provider("cohere")


# -- exports ----------------------------------------------------------------------------------


@pytest.fixture
def registry():
    tools = toolreg.ToolRegistry()
    tools.register("fs.read_file", SCHEMA, handler, description="Read a file", idempotent=True, title="Read")
    delete = {"type": "object", "properties": {"path": {"type": "string"}, "force": {"type": "boolean"}}}
    hints = {"destructiveHint": True, "readOnlyHint": False}
    tools.register("fs.delete", delete, handler, description="Delete a file", hints=hints)
    tools.register("web.fetch", {"type": "object"}, handler, description="Fetch a page")
    return tools


def test_mcp_export(registry):
    first, second, third = registry.export("mcp")
    assert first == {
        "name": "fs.read_file",
        "title": "Read",
        "description": "Read a file",
        "inputSchema": SCHEMA,
        "annotations": {"idempotentHint": True},
    }
    assert second["annotations"] == {"idempotentHint": False, "destructiveHint": True, "readOnlyHint": False}
    assert "title" not in third
    for tool in (first, second, third):
        jsonschema.Draft202012Validator.check_schema(tool["inputSchema"])


def test_openai_anthropic_and_gemini_exports(registry):
    [openai] = registry.export("openai", names=["fs.read_file"])
    assert openai == {
        "type": "function",
        "function": {
            "name": "fs-read_file",
            "description": "Read a file",
            "parameters": SCHEMA,
            "strict": False,
        },
    }
    assert [tool["name"] for tool in registry.export("anthropic")] == [
        "fs-read_file",
        "fs-delete",
        "web-fetch",
    ]
    assert registry.export("anthropic")[0]["input_schema"] == SCHEMA
    assert registry.export("gemini")[2] == {
        "name": "web.fetch",
        "description": "Fetch a page",
        "parametersJsonSchema": {"type": "object"},
    }


def test_the_openai_responses_export_is_flat(registry):
    [tool] = registry.export("openai-responses", names=["fs.read_file"])
    assert tool == {
        "type": "function",
        "name": "fs-read_file",
        "description": "Read a file",
        "parameters": SCHEMA,
        "strict": False,
    }
    [strict] = registry.export("openai-responses", names=["fs.delete"], strict=True, omit_unsupported=True)
    [chat] = registry.export("openai", names=["fs.delete"], strict=True, omit_unsupported=True)
    assert strict["strict"] is True and strict["parameters"] == chat["function"]["parameters"]


def test_every_entry_point_takes_the_same_providers_and_refuses_others_alike(registry):
    providers = list(PROVIDERS)
    assert providers == ["openai", "openai-responses", "anthropic", "gemini", "mcp"]
    for provider in providers:
        assert len(registry.export(provider)) == 3
        assert (
            registry.lookup(PROVIDERS[provider].names.form("fs.read_file"), provider).name == "fs.read_file"
        )
    refusals = [
        lambda: registry.export("cohere"),
        lambda: registry.answer({"name": "fs.read_file"}, provider="cohere"),
        lambda: asyncio.run(registry.aanswer({"name": "fs.read_file"}, provider="cohere")),
        lambda: registry.lookup("fs-read_file", "cohere"),
    ]
    for refused in refusals:
        with pytest.raises(toolreg.UnknownProviderError) as caught:
            refused()
        assert caught.value.known == tuple(providers)
    assert (
        main(["export", "x.json", "--to", "openai-responses"]) == 2
    )  # a known provider: the file is missing
    with pytest.raises(SystemExit):
        main(["export", "x.json", "--to", "cohere"])


def provider_modules():
    """The provider of each module of toolreg/_providers/ that gives one (its ``PROVIDER``), by name."""
    found = {}
    for path in sorted(Path(toolreg._providers.__file__).parent.glob("*.py")):
        given = getattr(importlib.import_module(f"toolreg._providers.{path.stem}"), "PROVIDER", None)
        if isinstance(given, Provider):
            found[given.name] = given
    return found


def test_every_provider_module_is_in_each_list_kept_by_hand():
    # The lists a new provider joins by hand (CONTRIBUTING, "Adding a provider"): the table, the tests
    # that go over each provider with a call of its own, and the docs' lists of names. A provider left
    # out of any of them would go unnoticed, as each test goes over its own list.
    from tests.registry.test_calls import CALLS
    from tests.registry.test_repair import ANSWERS
    from tests.test_docs import FORMATS

    modules = provider_modules()
    assert sorted(PROVIDERS) == sorted(modules)
    assert all(PROVIDERS[name] is provider for name, provider in modules.items())
    assert sorted(CALLS) == sorted(FORMATS) == sorted(modules)
    assert sorted(read_call(call).provider for call, _ in ANSWERS) == sorted(modules)
    intro = (ROOT / "docs" / "providers.md").read_text(encoding="utf-8").split("\n\n")[1]
    assert sorted(re.findall(r"`([a-z-]+)`", intro)) == sorted(modules)
    [command] = re.findall(r"# --to (.+)", (ROOT / "docs" / "reference.md").read_text(encoding="utf-8"))
    assert sorted(re.split(r", | or ", command)) == sorted(modules)


def test_an_export_error_with_one_blocker_names_its_pointer_once():
    tools = toolreg.ToolRegistry()
    tools.register(
        "t.x", {"type": "object", "properties": {"a": {"type": "string", "minLength": 1}}}, handler
    )
    with pytest.raises(toolreg.ExportError) as caught:
        tools.export("openai", strict=True)
    assert str(caught.value).count("/properties/a/minLength") == 1
    assert caught.value.schema_path == "/properties/a/minLength"


def test_a_subset_keeps_registration_order_and_names_must_exist(registry):
    subset = registry.export("mcp", names=["web.fetch", "fs.read_file"])
    assert [tool["name"] for tool in subset] == ["fs.read_file", "web.fetch"]
    with pytest.raises(toolreg.UnknownToolError):
        registry.export("mcp", names=["nope"])


def test_exports_are_copies(registry):
    registry.export("mcp")[0]["inputSchema"]["properties"].clear()
    assert registry.validate("fs.read_file", {}) != toolreg.Ok()
    assert registry.export("mcp")[0]["inputSchema"] == SCHEMA


def test_a_call_under_a_provider_name_dispatches_to_the_tool(registry):
    assert registry.lookup("fs-read_file", "openai").name == "fs.read_file"
    assert registry.lookup("fs.read_file", "gemini").handler is handler
    with pytest.raises(toolreg.UnknownToolError):
        registry.lookup("fs_read_file", "openai")


def test_openai_strict_form(registry):
    # fs.delete is open to names it does not name: closed only when asked to leave out what strict
    # mode cannot say, and listed.
    with pytest.raises(toolreg.ExportError, match="allows properties it does not name"):
        registry.export("openai", names=["fs.delete"], strict=True)
    [tool] = registry.export("openai", names=["fs.delete"], strict=True, omit_unsupported=True)
    parameters = tool["function"]["parameters"]
    assert tool["function"]["strict"] is True
    listed = "Not expressible in strict mode: /: other property names"
    assert tool["function"]["description"] == f"Delete a file\n{listed}"
    assert parameters == {
        "type": "object",
        "properties": {"path": {"type": ["string", "null"]}, "force": {"type": ["boolean", "null"]}},
        "required": ["path", "force"],
        "additionalProperties": False,
    }
    item = {"type": "object", "properties": {"id": {"type": "integer"}}}
    nested = {
        "type": "object",
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
            "options": {"type": "object", "properties": {"mode": {"enum": ["a", "b"]}}, "required": ["mode"]},
            "tags": {"type": "array", "items": {"anyOf": [{"type": "string"}, item]}},
        },
        "required": ["options"],
    }
    registry.register("nested", nested, handler)
    [tool] = registry.export("openai", names=["nested"], strict=True, omit_unsupported=True)
    assert tool["function"]["description"] == (
        "Not expressible in strict mode: /properties/options: other property names; "
        "/properties/tags/items/anyOf/1: other property names; /: other property names"
    )
    converted = tool["function"]["parameters"]
    assert "$schema" not in converted
    assert converted["properties"]["options"]["additionalProperties"] is False
    assert converted["properties"]["tags"] == {
        "type": ["array", "null"],
        "items": {
            "anyOf": [
                {"type": "string"},
                {
                    "type": "object",
                    "properties": {"id": {"type": ["integer", "null"]}},
                    "required": ["id"],
                    "additionalProperties": False,
                },
            ]
        },
    }


@pytest.mark.parametrize(
    ("schema", "pointer", "words"),
    [
        ({"type": "object", "additionalProperties": True}, "/additionalProperties", "closed objects"),
        (
            {"type": "object", "properties": {"a": {"allOf": [{"type": "string"}, {"minLength": 1}]}}},
            "/properties/a/allOf",
            "'allOf'",
        ),
        ({"type": "object", "properties": {"a": {"allOf": [{}]}}}, "/properties/a", "needs a type"),
        (
            {"type": "object", "properties": {"a": {"format": "uri", "type": "string"}}},
            "/properties/a/format",
            "formats",
        ),
        ({"type": "object", "properties": {"a": {"type": "object"}}}, "/properties/a", "closing would empty"),
        (
            {"type": "object", "properties": {"a": {"type": "string", "minLength": 1}}},
            "/properties/a/minLength",
            "minLength",
        ),
        ({"anyOf": [{"type": "object"}]}, "/anyOf", "root"),
    ],
)
def test_openai_strict_says_which_keyword_prevents_it(schema, pointer, words):
    tools = toolreg.ToolRegistry()
    tools.register("t", schema, handler)
    with pytest.raises(toolreg.ExportError) as caught:
        tools.export("openai", strict=True)
    assert caught.value.schema_path == pointer and words in str(caught.value)
    with pytest.raises(toolreg.ExportError):
        tools.export("mcp", strict=True)


def test_the_decorator_registers_the_function():
    tools = toolreg.ToolRegistry()

    @tools.tool("fs.read_file", schema=SCHEMA, description="Read a file", idempotent=True)
    def read_file(path, **rest):
        return path

    assert read_file("x") == "x"
    assert tools.get("fs.read_file").handler is read_file
    assert tools.get("fs.read_file").idempotent is True


def test_bad_titles_and_hints_are_refused():
    tools = toolreg.ToolRegistry()
    for arguments in ({"title": 3}, {"hints": {"idempotentHint": True}}, {"hints": {"readOnlyHint": "yes"}}):
        with pytest.raises(toolreg.InvalidToolError):
            tools.register("t", SCHEMA, handler, **arguments)
    assert len(tools) == 0


# -- imports ----------------------------------------------------------------------------------


def test_the_name_rule():
    assert toolreg_name("getUser") == "get_user"
    assert toolreg_name("get-user") == "get_user"
    assert toolreg_name("Read File") == "read_file"
    assert toolreg_name("admin.tools.list") == "admin.tools.list"
    assert toolreg_name("__x--y__") == "x_y"
    assert toolreg_name("API.v2/List") == "api.v2_list"


def test_import_reports_every_refusal_and_registers_the_rest():
    catalog = {
        "tools": [
            {
                "name": "getUser",
                "description": "Get\n a user",
                "inputSchema": SCHEMA,
                "annotations": {"idempotentHint": True},
            },
            {"name": "get-user", "inputSchema": SCHEMA},
            {"name": "get_user", "inputSchema": SCHEMA},
            {"name": "broken", "inputSchema": {"type": "object", "properties": {"a": {"minimum": "1"}}}},
            {"name": "listAll", "title": "List", "inputSchema": {"type": "object"}},
            {"inputSchema": SCHEMA},
        ]
    }
    tools = toolreg.ToolRegistry()
    report = toolreg.import_mcp(tools, catalog, lambda tool: handler, names={"get_user": "users.get"})
    assert report.registered == {"get_user": "users.get", "listAll": "list_all"}
    refused = {refusal.name: refusal for refusal in report.refused}
    assert "get-user" in refused["getUser"].reason and "get_user" in refused["get-user"].reason
    assert refused["broken"].schema_path == "/properties/a/minimum"
    assert "name" in refused["None"].reason
    assert not report.ok and tools.names() == ["users.get", "list_all"]
    assert tools.get("list_all").title == "List"


def test_import_refuses_a_tool_that_fails_for_any_reason_and_goes_on():
    look_behind = "(?<=a)b"  # refused: RE2 cannot say it
    catalog = [
        {"name": "behind", "inputSchema": {"type": "object", "properties": {"x": {"pattern": look_behind}}}},
        {"name": "unlucky", "inputSchema": SCHEMA},
        {"name": "fine", "inputSchema": SCHEMA},
    ]

    def handlers(tool):
        if tool["name"] == "unlucky":
            raise RuntimeError("no handler today")
        return handler

    tools = toolreg.ToolRegistry()
    report = toolreg.import_mcp(tools, catalog, handlers)
    assert report.registered == {"fine": "fine"} and tools.names() == ["fine"]
    refused = {refusal.name: refusal.reason for refusal in report.refused}
    assert set(refused) == {"behind", "unlucky"} and refused["unlucky"] == "RuntimeError: no handler today"


def test_import_takes_a_mapping_of_handlers():
    tools = toolreg.ToolRegistry()
    report = toolreg.import_mcp(
        tools, [{"name": "a", "inputSchema": SCHEMA}, {"name": "b", "inputSchema": SCHEMA}], {"a": handler}
    )
    assert report.registered == {"a": "a"} and "no handler" in report.refused[0].reason


def mcp_catalogs():
    catalogs = defaultdict(list)
    for record in RECORDS:
        if record.get("server") and record.get("dialect") != "nonstandard":
            tool = {
                "name": record["name"],
                "description": record["description"],
                "inputSchema": record["schema"],
            }
            catalogs[(record["source"].split(":")[0], record["server"])].append(tool)
    return catalogs


@pytest.mark.no_cover
@needs_corpus
def test_every_corpus_catalog_imports(capsys):
    meta = jsonschema.Draft202012Validator(jsonschema.Draft202012Validator.META_SCHEMA)
    imported = refused = 0
    for tools in mcp_catalogs().values():
        registry = toolreg.ToolRegistry()
        report = toolreg.import_mcp(registry, {"tools": tools}, lambda tool: handler)
        imported += len(report.registered)
        for refusal in report.refused:
            refused += 1
            tool = next(tool for tool in tools if tool["name"] == refusal.name)
            assert not meta.is_valid(tool["inputSchema"]) or "becomes" in refusal.reason, refusal
        # Every imported catalog exports to each provider (no name breaks a rule).
        for provider in PROVIDERS:
            assert len(registry.export(provider)) == len(report.registered)
    with capsys.disabled():
        print(f"\nMCP catalogs in the corpus: {len(mcp_catalogs())}; imported {imported}, refused {refused}")
    assert imported > 500 and refused <= 3


@pytest.mark.no_cover
@needs_corpus
@pytest.mark.slow
def test_the_leaderboard_dialect_normalises(capsys):
    records = [record for record in RECORDS if record.get("dialect") == "nonstandard"]
    normalised = 0
    for record in records:
        try:
            schema = toolreg.normalize_bfcl(record["schema"])
        except toolreg.SchemaError as error:
            assert error.keyword == "type" and "cannot map" in str(error)
            continue
        toolreg.check_schema(schema)
        # Valid 2020-12 by another implementation's reading of the meta-schema (jsonschema-rs's, in Rust,
        # for speed: jsonschema's own check takes seconds over these thousands of records).
        jsonschema_rs.meta.validate(schema)
        normalised += 1
    with capsys.disabled():
        print(f"\nnon-standard records: {len(records)}, normalised and valid 2020-12: {normalised}")
    assert normalised >= len(records) - 1


def test_the_normaliser_maps_each_name():
    schema = toolreg.normalize_bfcl(
        {
            "type": "dict",
            "properties": {
                "a": {"type": "float"}, "b": {"type": "String"},
                "c": {"type": "tuple", "items": {"type": "integer"}}, "d": {"type": "any"},
                "e": {"type": "int, optional"}, "f": {"type": "List[str]"},
                "g": {"type": "HashMap", "optional": True}, "h": {"type": "Boolean"},
            },
            "required": ["a"],
        }
    )  # fmt: skip
    assert schema["type"] == "object"
    assert {name: item.get("type") for name, item in schema["properties"].items()} == {
        "a": "number", "b": "string", "c": "array", "d": None, "e": "integer", "f": "array", "g": "object",
        "h": "boolean",
    }  # fmt: skip
    assert (
        schema["properties"]["f"]["items"] == {"type": "string"}
        and "optional" not in schema["properties"]["g"]
    )
    assert toolreg.normalize_bfcl({"x": {"type": "str"}}) == {
        "type": "object",
        "properties": {"x": {"type": "string"}},
    }
    with pytest.raises(toolreg.SchemaError) as caught:
        toolreg.normalize_bfcl({"type": "dict", "properties": {"when": {"type": "datetime"}}})
    assert caught.value.schema_path == "/properties/when/type"
    with pytest.raises(toolreg.SchemaError) as caught:
        toolreg.normalize_bfcl({"type": "dict", "properties": {"a": {"type": ["int", ["str"]]}}})
    assert caught.value.schema_path == "/properties/a/type/1"


BFCL_WORDS = st.sampled_from(["dict", "int", "list[str]", "tuple", "any", "String", "int, optional", "array"])
BFCL_KEYS = st.sampled_from(["type", "properties", "items", "optional", "required", "enum", "anyOf", "a"])
ODD_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=4) | BFCL_WORDS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(BFCL_KEYS, inner, max_size=4),
    max_leaves=20,
)


@given(st.dictionaries(BFCL_KEYS, ODD_JSON, max_size=4))
def test_the_normaliser_refuses_odd_input_with_a_schema_error_only(parameters):
    try:
        normalized = toolreg.normalize_bfcl(parameters)
    except toolreg.SchemaError as error:
        assert error.schema_path is not None
    else:
        json.dumps(normalized)


# -- errors for the model ---------------------------------------------------------------------


def test_format_errors_reads_plainly():
    schema = {
        "type": "object",
        "properties": {"path": {"type": "string", "minLength": 1}, "n": {"maximum": 3}},
        "required": ["mode"],
    }
    errors = toolreg.validate(schema, {"path": "", "n": 4})
    formatted = toolreg.format_errors(errors, tool="fs.read_file")
    assert formatted.text.splitlines() == [
        "The arguments for fs.read_file have 3 problems:",
        '- the arguments: missing required property "mode"',
        "- at /path: must be at least 1 character long, is 0",
        "- at /n: must be at most 3, is 4",
        "Fix these and call again with the corrected arguments.",
    ]
    assert "ValidationError" not in formatted.text and "'" not in formatted.text
    assert [item["path"] for item in formatted.items] == ["", "/path", "/n"]
    json.dumps(formatted.items)


def test_format_errors_masks_and_truncates():
    schema = {
        "type": "object",
        "properties": {"token": {"maxLength": 4}},
        "additionalProperties": False,
        "propertyNames": {"maxLength": 8},
    }
    secret = "s3cr3t-" * 40
    errors = toolreg.validate(schema, {"token": secret, secret: 1})
    masked = toolreg.format_errors(errors, mask=True)
    assert "s3cr3t" not in masked.text and "s3cr3t" not in json.dumps(masked.items)
    shown = toolreg.format_errors(errors, max_chars=20)
    assert all(len(line) < 120 for line in shown.text.splitlines())
    assert "…" in shown.text


def test_provider_error_messages():
    formatted = toolreg.format_errors(toolreg.validate({"type": "object"}, []))
    mcp = formatted.as_mcp_result()
    assert mcp["isError"] is True and mcp["content"] == [{"type": "text", "text": formatted.text}]
    # MCP reserves structuredContent for a result that fits the output schema: errors go in _meta.
    assert "structuredContent" not in mcp
    assert mcp["_meta"]["toolreg/errors"][0]["keyword"] == "type"
    assert formatted.as_anthropic_tool_result("toolu_1") == {
        "type": "tool_result", "tool_use_id": "toolu_1", "content": formatted.text, "is_error": True,
    }  # fmt: skip
    assert formatted.as_openai_tool_message("call_1") == {
        "role": "tool",
        "tool_call_id": "call_1",
        "content": formatted.text,
    }


# -- the command line -------------------------------------------------------------------------


@pytest.fixture
def catalog(tmp_path):
    path = tmp_path / "tools.json"
    tools = [
        {"name": "fs.read_file", "description": "Read", "inputSchema": SCHEMA},
        {"name": "bad", "inputSchema": {"type": "object", "properties": {"a": {"type": "text"}}}},
    ]
    path.write_text(json.dumps({"tools": tools}))
    return path


def test_cli_check(catalog, capsys):
    assert main(["check", str(catalog)]) == 1
    out = capsys.readouterr().out
    assert "accepted fs.read_file" in out and "refused  bad:" in out and "'/properties/a/type'" in out


def test_cli_validate(catalog, tmp_path, capsys):
    assert main(["validate", str(catalog), "fs.read_file", '{"path": "x"}']) == 0
    assert capsys.readouterr().out.strip() == "valid"
    assert main(["validate", str(catalog), "fs.read_file", "{}"]) == 1
    assert 'missing required property "path"' in capsys.readouterr().out
    arguments = tmp_path / "args.json"
    arguments.write_text('{"path": 3}')
    assert main(["validate", str(catalog), "fs.read_file", f"@{arguments}", "--json"]) == 1
    assert json.loads(capsys.readouterr().out)[0]["keyword"] == "type"


def test_cli_export(catalog, capsys):
    assert main(["export", str(catalog), "--to", "openai"]) == 1  # 'bad' was skipped, and said so
    captured = capsys.readouterr()
    assert json.loads(captured.out)[0]["function"]["name"] == "fs-read_file" and "skipped bad" in captured.err


def test_every_provider_export_reads_back_as_a_catalog(registry):
    # toolreg check, diff and the other commands read a catalog in any provider's form, by the keys of
    # toolreg/_lifecycle/catalogs.py: an export whose keys it does not know would lose its schema.
    expected = [(tool["name"], tool["description"], tool["inputSchema"]) for tool in registry.export("mcp")]
    for provider, known in PROVIDERS.items():
        entries = catalog_entries(registry.export(provider))
        read = [
            (known.names.toolreg_name(entry["name"]), entry["description"], entry["inputSchema"])
            for entry in entries
        ]
        assert read == expected, provider


@pytest.mark.parametrize(
    "arguments",
    [
        ["check", "/no/such/file.json"],
        ["validate", "CATALOG", "nope", "{}"],
        ["validate", "CATALOG", "fs.read_file", "{not json"],
        ["validate", "CATALOG", "bad", "{}"],
        ["check", "NOTJSON"],
    ],
)
def test_cli_bad_input_is_one_clear_line(arguments, catalog, tmp_path, capsys):
    not_json = tmp_path / "x.json"
    not_json.write_text("{")
    arguments = [
        str(catalog) if a == "CATALOG" else str(not_json) if a == "NOTJSON" else a for a in arguments
    ]
    assert main(arguments) == 2
    err = capsys.readouterr().err
    assert err.startswith("toolreg: ") and "Traceback" not in err and len(err.splitlines()) == 1


def test_a_jsonl_catalog_splits_lines_at_newlines_only(tmp_path, capsys):
    path = tmp_path / "tools.jsonl"
    tools = [
        {"name": "notes.add", "description": "Add a note\u2028(the rest)", "inputSchema": SCHEMA},
        {"name": "notes.list", "inputSchema": {"properties": {"sep": {"const": "\u2029\x85\r"}}}},
    ]
    path.write_text(
        "\n".join(json.dumps(tool, ensure_ascii=False) for tool in tools) + "\n", encoding="utf-8"
    )
    assert main(["check", str(path)]) == 0
    assert "2 accepted, 0 refused" in capsys.readouterr().out


def test_export_into_a_reader_that_stops_early_keeps_its_exit_code(tmp_path):
    path = tmp_path / "many.json"
    many = [
        {"name": f"tool.n{index}", "description": "x" * 200, "inputSchema": SCHEMA} for index in range(500)
    ]
    path.write_text(json.dumps({"tools": many}))
    # As `toolreg export many.json --to openai | head -1`: the reader takes a line and goes away.
    command = [sys.executable, "-m", "toolreg._cli", "export", str(path), "--to", "openai"]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as child:
        assert child.stdout is not None and child.stdout.readline() == b"[\n"
        child.stdout.close()
        assert child.wait(timeout=60) == 0
        assert child.stderr is not None and child.stderr.read() == b""


def test_the_console_script_has_help():
    done = subprocess.run(
        [sys.executable, "-m", "toolreg._cli", "--help"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0 and "check" in done.stdout and "export" in done.stdout


@needs_corpus
def test_cli_on_a_corpus_catalog(tmp_path, capsys):
    (_, tools) = max(mcp_catalogs().items(), key=lambda item: len(item[1]))
    path = tmp_path / "catalog.jsonl"
    path.write_text("\n".join(json.dumps(tool) for tool in tools))
    assert main(["check", str(path)]) == 0
    assert f"{len(tools)} accepted, 0 refused" in capsys.readouterr().out
    for provider in PROVIDERS:
        assert main(["export", str(path), "--to", provider]) == 0
        assert len(json.loads(capsys.readouterr().out)) == len(tools)
