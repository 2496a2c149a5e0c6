"""toolreg.diff and `toolreg diff`: labelled changes of every rule in both directions and each dialect,
each breaking witness checked by a second validator (jsonschema), unknowns naming their keyword,
renames and text changes, both readings, the report's JSON Schema, the renderers and the command line."""

import hashlib
import json
import sys

import jsonschema
import pytest

import toolreg
from toolreg._cli import main
from toolreg._lifecycle.catalogs import catalog_entries, read_catalog_file
from toolreg._lifecycle.diff import REPORT_SCHEMA
from toolreg._lifecycle.documents import Document, declared_only
from toolreg._lifecycle.schemas import Part
from toolreg._lifecycle.witness import Builder, NoValue

D7 = "http://json-schema.org/draft-07/schema#"
D2019 = "https://json-schema.org/draft/2019-09/schema"


def oracle(schema):
    """jsonschema's validator of the schema's own draft (2020-12 when it names none)."""
    return jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)(schema)


def checked(report, old_tools, new_tools):
    """The report, its to_dict() valid against REPORT_SCHEMA (by toolreg's validator), and every
    breaking witness verified by jsonschema: the accepting schema takes it, the refusing one does not."""
    assert toolreg.validate(REPORT_SCHEMA, report.to_dict()) == []
    before = {tool["name"]: tool for tool in old_tools}
    after = {tool["name"]: tool for tool in new_tools}
    for tool in report.tools:
        for section in (tool.input, tool.output):
            if section is None:
                continue
            key = "inputSchema" if section.role == "input" else "outputSchema"
            old = before[tool.old_name or tool.name].get(key, True)
            new = after[tool.name].get(key, True)
            accepting, refusing = (old, new) if section.role == "input" else (new, old)
            for finding in section.findings:
                if finding.kind == "breaking":
                    assert finding.has_witness, finding
                    assert oracle(accepting).is_valid(finding.witness), finding
                    assert not oracle(refusing).is_valid(finding.witness), finding
                    assert [error.to_dict() for error in finding.errors] == [
                        error.to_dict() for error in toolreg.validate(refusing, finding.witness)
                    ]
            if section.verdict == "breaking":
                assert any(finding.kind == "breaking" for finding in section.findings)
    return report


def compared(old, new, callers="declared", **options):
    """The input section of one tool's schema changed from ``old`` to ``new``."""
    old_tools, new_tools = [{"name": "t", "inputSchema": old}], [{"name": "t", "inputSchema": new}]
    return (
        checked(toolreg.diff(old_tools, new_tools, callers=callers, **options), old_tools, new_tools)
        .tools[0]
        .input
    )


def obj(properties, required=(), **keywords):
    return {"type": "object", "properties": properties, "required": list(required), **keywords}


# The keywords a rule's finding may point at.
KEYWORDS = {"minimum": {"minimum", "exclusiveMinimum"}, "maximum": {"maximum", "exclusiveMaximum"}}


def resolved(schema, pointer):
    """The tokens of ``pointer``, having checked that it leads to a value of ``schema``."""
    tokens = [] if pointer == "" else pointer[1:].split("/")
    value = schema
    for token in tokens:
        value = value[int(token)] if isinstance(value, list) else value[token]
    return tokens


def breaking_rules(section):
    return {finding.rule for finding in section.findings if finding.kind == "breaking"}


# Each change labelled: (label, old, new, the rule that breaks). The same pair the other way round is a
# widening: compatible, and it widens.
NARROWINGS = [
    ("type number to integer", obj({"n": {"type": "number"}}), obj({"n": {"type": "integer"}}), "type"),
    ("type loses string", obj({"v": {"type": ["string", "null"]}}), obj({"v": {"type": "null"}}), "type"),
    ("enum loses a value", obj({"e": {"enum": ["a", "b"]}}), obj({"e": {"enum": ["a"]}}), "enum"),
    (
        "enum added",
        obj({"e": {"type": "string"}}),
        obj({"e": {"type": "string", "enum": ["x", "y"]}}),
        "enum",
    ),
    ("const", obj({"c": {"enum": [1, 2]}}), obj({"c": {"const": 1}}), "const"),
    (
        "minimum raised",
        obj({"n": {"type": "integer", "minimum": 1}}),
        obj({"n": {"type": "integer", "minimum": 5}}),
        "minimum",
    ),
    (
        "exclusiveMinimum",
        obj({"n": {"type": "number", "minimum": 0}}),
        obj({"n": {"type": "number", "exclusiveMinimum": 0}}),
        "minimum",
    ),
    (
        "maximum lowered",
        obj({"n": {"type": "number", "maximum": 10}}),
        obj({"n": {"type": "number", "maximum": 2.5}}),
        "maximum",
    ),
    (
        "exclusiveMaximum",
        obj({"n": {"type": "integer"}}),
        obj({"n": {"type": "integer", "exclusiveMaximum": 100}}),
        "maximum",
    ),
    (
        "multipleOf",
        obj({"n": {"type": "integer", "multipleOf": 2}}),
        obj({"n": {"type": "integer", "multipleOf": 4}}),
        "multipleOf",
    ),
    (
        "minLength",
        obj({"s": {"type": "string"}}),
        obj({"s": {"type": "string", "minLength": 2}}),
        "minLength",
    ),
    (
        "maxLength",
        obj({"s": {"type": "string", "maxLength": 10}}),
        obj({"s": {"type": "string", "maxLength": 3}}),
        "maxLength",
    ),
    (
        "required",
        obj({"a": {"type": "string"}, "b": {"type": "string"}}, ["a"]),
        obj({"a": {"type": "string"}, "b": {"type": "string"}}, ["a", "b"]),
        "required",
    ),
    ("minProperties", obj({"a": {}, "b": {}}), obj({"a": {}, "b": {}}, minProperties=1), "minProperties"),
    ("maxProperties", obj({"a": {}, "b": {}}), obj({"a": {}, "b": {}}, maxProperties=1), "maxProperties"),
    (
        "dependentRequired",
        obj({"a": {}, "b": {}}),
        obj({"a": {}, "b": {}}, dependentRequired={"a": ["b"]}),
        "dependentRequired",
    ),
    (
        "items",
        obj({"l": {"type": "array", "items": {"type": "string"}}}),
        obj({"l": {"type": "array", "items": {"type": "string", "maxLength": 1}}}),
        "maxLength",
    ),
    (
        "prefixItems",
        obj({"l": {"type": "array", "prefixItems": [{"type": "integer"}]}}),
        obj({"l": {"type": "array", "prefixItems": [{"type": "integer", "minimum": 3}]}}),
        "minimum",
    ),
    ("minItems", obj({"l": {"type": "array"}}), obj({"l": {"type": "array", "minItems": 1}}), "minItems"),
    (
        "maxItems",
        obj({"l": {"type": "array", "maxItems": 5}}),
        obj({"l": {"type": "array", "maxItems": 2}}),
        "maxItems",
    ),
    (
        "uniqueItems",
        obj({"l": {"type": "array", "items": {"type": "integer"}}}),
        obj({"l": {"type": "array", "items": {"type": "integer"}, "uniqueItems": True}}),
        "uniqueItems",
    ),
    (
        "anyOf branch narrowed",
        obj({"v": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}),
        obj({"v": {"anyOf": [{"type": "string"}, {"type": "integer", "minimum": 0}]}}),
        "minimum",
    ),
    (
        "oneOf branch removed",
        obj({"v": {"oneOf": [{"type": "string"}, {"type": "boolean"}]}}),
        obj({"v": {"oneOf": [{"type": "string"}]}}),
        "type",
    ),
    (
        "nested object",
        obj({"o": obj({"deep": {"enum": ["x", "y"]}}, ["deep"])}),
        obj({"o": obj({"deep": {"enum": ["y"]}}, ["deep"])}),
        "enum",
    ),
    (
        "$ref target",
        {**obj({"a": {"$ref": "#/$defs/A"}}), "$defs": {"A": {"type": "integer", "maximum": 9}}},
        {**obj({"a": {"$ref": "#/$defs/A"}}), "$defs": {"A": {"type": "integer", "maximum": 3}}},
        "maximum",
    ),
    (
        "draft-07 items array",
        {
            "$schema": D7,
            **obj(
                {
                    "l": {
                        "type": "array",
                        "items": [{"type": "string"}],
                        "additionalItems": {"type": "integer"},
                    }
                }
            ),
        },
        {
            "$schema": D7,
            **obj({"l": {"type": "array", "items": [{"type": "string"}], "additionalItems": False}}),
        },
        "additionalItems",
    ),
    (
        "draft-07 definitions",
        {"$schema": D7, **obj({"a": {"$ref": "#/definitions/A"}}), "definitions": {"A": {"type": "string"}}},
        {
            "$schema": D7,
            **obj({"a": {"$ref": "#/definitions/A"}}),
            "definitions": {"A": {"type": "string", "minLength": 4}},
        },
        "minLength",
    ),
    (
        "2019-09 dependentRequired",
        {"$schema": D2019, **obj({"a": {}, "b": {}})},
        {"$schema": D2019, **obj({"a": {}, "b": {}}, dependentRequired={"a": ["b"]})},
        "dependentRequired",
    ),
    (
        "2019-09 items array",
        {"$schema": D2019, **obj({"l": {"type": "array", "items": [{"enum": [1, 2]}]}})},
        {"$schema": D2019, **obj({"l": {"type": "array", "items": [{"enum": [1]}]}})},
        "enum",
    ),
    (
        "draft-07 dependencies",
        {"$schema": D7, **obj({"a": {}, "b": {}})},
        {"$schema": D7, **obj({"a": {}, "b": {}}, dependencies={"a": ["b"]})},
        "dependencies",
    ),
    ("not", obj({"a": {}, "b": {}}), obj({"a": {}, "b": {}}, **{"not": {"required": ["a", "b"]}}), "not"),
]


@pytest.mark.parametrize(
    ("old", "new", "rule"), [case[1:] for case in NARROWINGS], ids=[case[0] for case in NARROWINGS]
)
def test_a_narrowing_is_breaking_with_a_verified_witness_and_the_other_way_widens(old, new, rule):
    narrowed = compared(old, new)
    assert narrowed.verdict == "breaking" and rule in breaking_rules(narrowed)
    moved = next(finding for finding in narrowed.findings if finding.rule == rule)
    assert set(resolved(new, moved.new_schema_path)) & KEYWORDS.get(rule, {rule})
    widened = compared(new, old)
    assert widened.verdict == "compatible" and widened.widens
    assert {finding.kind for finding in widened.findings} == {"widening"}


# -- the two readings --------------------------------------------------------------------------------

OPEN = obj({"a": {"type": "integer"}}, ["a"])


def test_an_optional_property_added_to_an_open_object_is_compatible_when_callers_send_declared_names():
    added = obj({"a": {"type": "integer"}, "b": {"type": "string"}}, ["a"])
    declared = compared(OPEN, added)
    assert declared.verdict == "compatible" and declared.widens
    assert [(finding.kind, finding.rule, finding.instance_path) for finding in declared.findings] == [
        ("widening", "properties", "/b")
    ]
    anything = compared(OPEN, added, callers="any")
    assert anything.verdict == "breaking"
    (finding,) = [finding for finding in anything.findings if finding.kind == "breaking"]
    assert finding.instance_path == "/b" and finding.new_schema_path == "/properties/b/type"
    assert set(finding.witness) == {"a", "b"} and not isinstance(finding.witness["b"], str)


def test_closing_an_object_breaks_only_callers_that_send_undeclared_names():
    closed = {**OPEN, "additionalProperties": False}
    assert compared(OPEN, closed).verdict == "compatible"
    anything = compared(OPEN, closed, callers="any")
    (finding,) = [finding for finding in anything.findings if finding.kind == "breaking"]
    assert finding.rule == "additionalProperties" and set(finding.witness) - {"a"}  # an extra name
    assert [error.keyword for error in finding.errors] == ["additionalProperties"]


def test_the_report_states_its_reading():
    tools = [{"name": "t", "inputSchema": OPEN}]
    assert toolreg.diff(tools, tools).to_dict()["reading"] == "declared"
    assert toolreg.diff(tools, tools, callers="any").reading == "any"
    with pytest.raises(toolreg.DiffError, match="callers"):
        toolreg.diff(tools, tools, callers="some")


# -- unknown verdicts --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "keyword"),
    [
        (
            obj({"l": {"type": "array", "contains": {"type": "integer"}}}),
            obj({"l": {"type": "array", "contains": {"type": "integer", "minimum": 0}}}),
            "contains",
        ),
        (
            obj({"a": {}, "b": {}}, unevaluatedProperties=False),
            obj({"a": {}}, unevaluatedProperties=False),
            "unevaluatedProperties",
        ),
        (obj({"s": {"type": "string"}}), obj({"s": {"type": "string", "pattern": "^(?=a)"}}), "pattern"),
    ],
    ids=["contains", "unevaluatedProperties", "look-ahead pattern"],
)
def test_an_unknown_verdict_names_the_keyword_and_pointer_that_stopped_the_proof(old, new, keyword):
    section = compared(old, new)
    assert section.verdict == "unknown"
    unknown = [finding for finding in section.findings if finding.kind == "unknown"]
    assert keyword in {finding.keyword for finding in unknown}
    assert all(finding.pointer is not None and finding.keyword in finding.message for finding in unknown)
    resolved(new, next(finding.pointer for finding in unknown if finding.keyword == keyword))


def test_a_pattern_narrowed_is_breaking_with_a_shortest_string_between_the_two():
    section = compared(
        obj({"s": {"type": "string", "pattern": "^[a-z]+$"}}),
        obj({"s": {"type": "string", "pattern": "^[a-c]+$"}}),
    )
    assert section.verdict == "breaking"
    (finding,) = [finding for finding in section.findings if finding.kind == "breaking"]
    assert finding.rule == "pattern" and len(finding.witness["s"]) == 1 and finding.witness["s"] > "c"
    assert (
        compared(
            obj({"s": {"type": "string", "pattern": "^[a-c]+$"}}),
            obj({"s": {"type": "string", "pattern": "^[a-z]+$"}}),
        ).verdict
        == "compatible"
    )


# -- tools: added, removed, renamed, text ------------------------------------------------------------

READ = {
    "name": "fs.read",
    "description": "Read a file",
    "inputSchema": obj({"path": {"type": "string"}}, ["path"]),
}
WRITE = {
    "name": "fs.write",
    "description": "Write a file",
    "inputSchema": obj({"path": {"type": "string"}, "text": {"type": "string"}}, ["path", "text"]),
}


def sha256(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_tools_added_removed_renamed_and_unchanged():
    moved = {**WRITE, "name": "files.write"}
    listing = {"name": "fs.list", "inputSchema": obj({})}
    old, new = [READ, WRITE], [READ, moved, listing]
    report = checked(toolreg.diff(old, new), old, new)
    statuses = {tool.name: (tool.status, tool.verdict, tool.old_name) for tool in report.tools}
    assert statuses == {
        "fs.read": ("unchanged", "compatible", None),
        "files.write": ("renamed", "breaking", "fs.write"),
        "fs.list": ("added", "compatible", None),
    }
    assert report.counts() == {"added": 1, "removed": 0, "renamed": 1, "changed": 0, "unchanged": 1}
    gone = checked(toolreg.diff(old, [READ]), old, [READ])
    assert [(tool.name, tool.status, tool.verdict) for tool in gone.tools] == [
        ("fs.write", "removed", "breaking"),
        ("fs.read", "unchanged", "compatible"),
    ]


def test_text_changes_are_reported_apart_with_both_digests():
    annotations = {"readOnlyHint": True}
    new = {**READ, "description": "Read a whole file", "title": "Read", "annotations": annotations}
    report = checked(toolreg.diff([READ], [new]), [READ], [new])
    (tool,) = report.tools
    assert tool.status == "changed" and tool.verdict == "compatible" and not tool.input.changed
    assert [change.to_dict() for change in tool.text] == [
        {
            "field": "description",
            "old_sha256": sha256("Read a file"),
            "new_sha256": sha256("Read a whole file"),
        },
        {"field": "title", "old_sha256": None, "new_sha256": sha256("Read")},
        {"field": "annotations", "old_sha256": None, "new_sha256": sha256('{"readOnlyHint": true}')},
    ]
    assert report.fails("any") and not report.fails("unknown")


# -- output schemas: the directions swap ----------------------------------------------------------------


def test_an_output_schema_breaks_when_it_allows_what_callers_refused():
    narrow = {"type": "object", "properties": {"n": {"type": "integer", "maximum": 10}}, "required": ["n"]}
    wide = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    old, new = [{**READ, "outputSchema": narrow}], [{**READ, "outputSchema": wide}]
    widened = checked(toolreg.diff(old, new), old, new).tools[0].output
    assert widened.verdict == "breaking"
    (finding,) = [finding for finding in widened.findings if finding.kind == "breaking"]
    assert finding.old_schema_path == "/properties/n/maximum" and finding.witness["n"] > 10
    assert [error.schema_path for error in finding.errors] == ["/properties/n/maximum"]
    narrowed = checked(toolreg.diff(new, old), new, old).tools[0].output
    assert narrowed.verdict == "compatible" and narrowed.widens
    dropped = checked(toolreg.diff(old, [READ]), old, [READ]).tools[0].output
    assert dropped.verdict == "breaking"  # any result at all, where callers read it by a schema


# -- the report's forms ------------------------------------------------------------------------------

NAMED = [{"name": "evil\x1b[2J\n::error::x", "inputSchema": obj({"n": {"type": "string"}})}]


def mixed_report():
    old = [READ, WRITE, {"name": "calc", "inputSchema": obj({"n": {"type": "number"}}, ["n"])}, *NAMED]
    new = [
        {**READ, "description": "Read it"},
        {"name": "calc", "inputSchema": obj({"n": {"type": "integer"}}, ["n"])},
    ]
    new.append({"name": NAMED[0]["name"], "inputSchema": obj({"n": {"type": "string", "pattern": "^(?=a)"}})})
    return checked(toolreg.diff(old, new), old, new)


def test_the_text_form_shows_each_change_its_witness_and_refusal():
    text = mixed_report().render("text")
    assert text.startswith("toolreg diff: breaking (3 changed, 0 added, 1 removed, 0 renamed, 0 unchanged)")
    assert "calc: changed, breaking" in text and 'witness: {"n":0.5}' in text
    assert "refused by the new schema, at /n: " in text and "fs.write: removed, breaking" in text
    assert "description changed: sha256 " + sha256("Read a file")[:12] in text
    assert "\x1b" not in text and "\\u001b" in text


def test_the_markdown_form_is_a_summary_table_then_details():
    text = mixed_report().render("markdown")
    lines = text.splitlines()
    assert lines[0] == "## toolreg diff: breaking"
    assert "| `calc` | changed | **breaking** | breaking |  |  |" in lines
    assert "### `calc`: breaking" in lines and any(line.startswith("  - witness: `{") for line in lines)
    assert "\x1b" not in text and "\n::" not in text


def test_the_github_form_is_one_workflow_annotation_a_line():
    lines = mixed_report().render("github").splitlines()
    assert lines[-1].startswith("toolreg diff: breaking")
    annotations = lines[:-1]
    assert all(
        line.startswith(("::error title=", "::warning title=", "::notice title=")) for line in annotations
    )
    assert any(
        line.startswith("::error title=toolreg diff%3A calc::input breaking: type") for line in annotations
    )
    assert any(line.startswith("::warning title=toolreg diff%3A evil") for line in annotations)  # unknown
    assert len(lines) == len(mixed_report().render("github").split("\n"))  # no line forged by a name
    with pytest.raises(toolreg.DiffError, match="format"):
        mixed_report().render("yaml")


# -- the command line --------------------------------------------------------------------------------


def write(path, tools):
    path.write_text(json.dumps({"tools": tools}))
    return str(path)


@pytest.fixture
def catalogs(tmp_path):
    narrowed = {
        **WRITE,
        "inputSchema": {
            **WRITE["inputSchema"],
            "properties": {"path": {"type": "string", "minLength": 1}, "text": {"type": "string"}},
        },
    }
    unknown = {**READ, "inputSchema": obj({"path": {"type": "string", "pattern": "^(?=/)"}}, ["path"])}
    return {
        "old": write(tmp_path / "old.json", [READ, WRITE]),
        "same": write(tmp_path / "same.json", [READ, WRITE]),
        "text": write(tmp_path / "text.json", [{**READ, "description": "Read"}, WRITE]),
        "unknown": write(tmp_path / "unknown.json", [unknown, WRITE]),
        "breaking": write(tmp_path / "breaking.json", [READ, narrowed]),
    }


@pytest.mark.parametrize(
    ("new", "fail_on", "code"),
    [
        ("same", "any", 0),
        ("text", "breaking", 0),
        ("text", "unknown", 0),
        ("text", "any", 1),
        ("unknown", "breaking", 0),
        ("unknown", "unknown", 1),
        ("breaking", "breaking", 1),
    ],
)
def test_the_exit_code_follows_fail_on(catalogs, capsys, new, fail_on, code):
    assert main(["diff", catalogs["old"], catalogs[new], "--fail-on", fail_on]) == code
    out, err = capsys.readouterr()
    assert out.startswith("toolreg diff: ") and err == ""


def test_the_command_line_writes_each_form(catalogs, capsys):
    assert main(["diff", catalogs["old"], catalogs["breaking"], "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert toolreg.validate(REPORT_SCHEMA, report) == [] and report["verdict"] == "breaking"
    (finding,) = [
        f
        for tool in report["tools"]
        if tool["input"]
        for f in tool["input"]["findings"]
        if f["kind"] == "breaking"
    ]
    assert finding["witness"] == {"path": "", "text": ""} and finding["errors"][0]["keyword"] == "minLength"
    assert main(["diff", catalogs["old"], catalogs["breaking"], "--format", "markdown"]) == 1
    assert capsys.readouterr().out.startswith("## toolreg diff: breaking")
    assert (
        main(["diff", catalogs["old"], catalogs["breaking"], "--format", "github", "--callers", "any"]) == 1
    )
    assert capsys.readouterr().out.startswith(
        "::error title=toolreg diff%3A fs.write::input breaking: minLength"
    )


def test_bad_input_exits_2_with_one_line(catalogs, tmp_path, capsys):
    refused = write(tmp_path / "refused.json", [{"name": "t", "inputSchema": obj({"a": {"type": "text"}})}])
    twice = write(tmp_path / "twice.json", [READ, READ])
    for arguments, words in [
        ([catalogs["old"], str(tmp_path / "none.json")], "cannot read"),
        ([catalogs["old"], refused], "the new catalog's tool 't': its inputSchema is refused"),
        ([twice, catalogs["old"]], "the old catalog names the tool 'fs.read' twice"),
        ([catalogs["old"], catalogs["old"], "--search", "-1"], "search is a whole number"),
    ]:
        assert main(["diff", *arguments]) == 2
        err = capsys.readouterr().err
        assert err.startswith("toolreg: ") and words in err and len(err.splitlines()) == 1
    with pytest.raises(toolreg.SchemaError) as raised:
        toolreg.diff([READ], refused)
    assert raised.value.schema_path == "/properties/a/type" and "'t'" in str(raised.value)


def test_an_internal_error_exits_3(catalogs, capsys, monkeypatch):
    def broken(*arguments, **options):
        raise RuntimeError("a bug")

    monkeypatch.setattr("toolreg._lifecycle.diff_command.diff", broken)
    assert main(["diff", catalogs["old"], catalogs["old"]]) == 3
    assert capsys.readouterr().err == "toolreg: internal error: RuntimeError: a bug\n"


# -- catalogs in every form ----------------------------------------------------------------------------


def test_every_provider_form_reads_as_the_same_entries(tmp_path):
    schema = obj({"path": {"type": "string"}}, ["path"])
    forms = {
        "mcp": {"tools": [{"name": "read", "description": "Read", "inputSchema": schema}]},
        "openai": [
            {
                "type": "function",
                "function": {"name": "read", "description": "Read", "parameters": schema, "strict": False},
            }
        ],
        "responses": [
            {"type": "function", "name": "read", "description": "Read", "parameters": schema, "strict": False}
        ],
        "anthropic": [{"name": "read", "description": "Read", "input_schema": schema}],
        "gemini": [{"functionDeclarations": [{"name": "read", "description": "Read", "parameters": schema}]}],
        "gemini declarations": [{"name": "read", "description": "Read", "parametersJsonSchema": schema}],
    }
    expected = [
        {
            "name": "read",
            "description": "Read",
            "title": None,
            "annotations": {},
            "inputSchema": schema,
            "outputSchema": None,
        }
    ]
    for form in forms.values():
        assert catalog_entries(form) == expected
    lines = tmp_path / "tools.jsonl"
    lines.write_text(json.dumps(forms["anthropic"][0]) + "\n\n")
    assert read_catalog_file(lines) == expected
    registry = toolreg.ToolRegistry()
    registry.register("read", schema, lambda path, **rest: path, description="Read")
    assert toolreg.diff(registry, forms["openai"]).tools[0].status == "changed"  # annotations differ
    assert toolreg.diff(forms["gemini"], forms["mcp"]).counts()["unchanged"] == 1
    with pytest.raises(toolreg.CatalogError, match="functionDeclarations"):
        catalog_entries({"functionDeclarations": "read"})
    with pytest.raises(toolreg.CatalogError, match="line 2"):
        lines.write_text("{}\n{\n")
        read_catalog_file(lines)


# -- the seeded search -------------------------------------------------------------------------------

CONTAINS = obj({"l": {"type": "array", "contains": {"type": "integer"}}}, ["l"])
CONTAINS_NEW = obj({"l": {"type": "array", "contains": {"type": "integer", "minimum": 0}}}, ["l"])


def test_a_seeded_search_finds_what_the_rules_miss_and_verifies_it():
    section = compared(CONTAINS, CONTAINS_NEW, search=60, seed=2)
    assert section.verdict == "breaking" and 0 < section.searched <= 60  # it ends at its first witness
    (finding,) = [finding for finding in section.findings if finding.kind == "breaking"]
    assert finding.rule == "search" and finding.new_schema_path == "/properties/l/contains"
    again = compared(CONTAINS, CONTAINS_NEW, search=60, seed=2)
    assert [finding.to_dict() for finding in again.findings] == [
        finding.to_dict() for finding in section.findings
    ]


def test_a_search_without_its_packages_names_them(monkeypatch):
    monkeypatch.setitem(sys.modules, "hypothesis_jsonschema", None)
    with pytest.raises(ImportError, match=r"hypothesis-jsonschema.*pytoolreg\[search\]") as raised:
        compared(CONTAINS, CONTAINS_NEW, search=5)
    assert isinstance(raised.value, toolreg.ToolregError)


# -- hostile schemas ---------------------------------------------------------------------------------


def test_hostile_schemas_get_bounded_work_and_an_unknown_that_names_where():
    branches = {"anyOf": [{"type": "integer", "minimum": index} for index in range(12)]}
    product = {"allOf": [branches, branches, branches]}  # 1,728 ways to choose branches
    section = compared(obj({"v": product}), obj({"v": {"type": "string"}}))
    assert section.verdict in {"breaking", "unknown"}
    assert any(finding.keyword == "anyOf" for finding in section.findings if finding.kind == "unknown")
    chain = {"$defs": {f"d{index}": {"$ref": f"#/$defs/d{index + 1}"} for index in range(40)}}
    chain["$defs"]["d40"] = {"type": "integer"}
    old = {**obj({"a": {"$ref": "#/$defs/d0"}}), **chain}
    new = {
        **obj({"a": {"$ref": "#/$defs/d0"}}),
        **chain,
        "$defs": {**chain["$defs"], "d40": {"type": "integer", "minimum": 0}},
    }
    deep = compared(old, new)
    assert any(finding.keyword == "$ref" for finding in deep.findings if finding.kind == "unknown")


# -- more rules: applicators, references, names, bounds ------------------------------------------------

NODE = {
    "type": "object",
    "properties": {
        "value": {"type": "integer"},
        "children": {"type": "array", "items": {"$ref": "#/$defs/node"}},
    },
}
NODE_NARROWED = {**NODE, "properties": {**NODE["properties"], "value": {"type": "integer", "minimum": 0}}}
ANCHORED = {"$defs": {"s": {"$anchor": "s", "type": "string"}}, **obj({"a": {"$ref": "#s"}})}
DYNAMIC = {"$defs": {"n": {"$dynamicAnchor": "n", "type": "string"}}, **obj({"a": {"$dynamicRef": "#n"}})}
NESTED_ID = {
    "$defs": {"A": {"$id": "https://example.com/a", "type": "string"}},
    **obj({"a": {"$ref": "https://example.com/a"}}),
}
KINDS = obj({"kind": {"enum": ["a", "b"]}, "n": {"type": "integer"}})
IF_THEN = {
    **KINDS,
    "if": {"properties": {"kind": {"const": "a"}}, "required": ["kind"]},
    "then": {"required": ["n"]},
}


def narrowed(schema, at, **keywords):
    """``schema`` with ``keywords`` added to the schema object at the pointer ``at``."""
    copied = json.loads(json.dumps(schema))
    target = copied
    for token in at.split("/")[1:]:
        target = target[token]
    target.update(keywords)
    return copied


MORE = [
    ("if and then", KINDS, IF_THEN, "breaking", "required"),
    (
        "not null",
        obj({"v": {"type": ["string", "null"]}}),
        obj({"v": {"type": ["string", "null"], "not": {"type": "null"}}}),
        "breaking",
        "not",
    ),
    (
        "oneOf overlap",
        obj({"v": {"type": "integer"}}),
        obj({"v": {"oneOf": [{"type": "integer"}, {"type": "number", "minimum": 0}]}}),
        "breaking",
        "oneOf",
    ),
    (
        "oneOf disjoint",
        obj({"v": {"type": "integer"}}),
        obj({"v": {"oneOf": [{"type": "integer"}, {"type": "string"}]}}),
        "compatible",
        None,
    ),
    (
        "anyOf without a branch",
        obj({"v": {"type": ["string", "integer"]}}),
        obj({"v": {"anyOf": [{"type": "string"}, {"type": "boolean"}]}}),
        "breaking",
        "type",
    ),
    (
        "propertyNames",
        obj({"Abc": {}}),
        obj({"Abc": {}}, propertyNames={"pattern": "^[a-z]+$"}),
        "breaking",
        "propertyNames",
    ),
    (
        "patternProperties",
        {"type": "object", "patternProperties": {"^x_": {"type": "string"}}},
        {"type": "object", "patternProperties": {"^x_": {"type": "string", "minLength": 1}}},
        "breaking",
        "minLength",
    ),
    (
        "pattern names closed",
        {"type": "object", "patternProperties": {"^x_": {}}},
        obj({"a": {}}, additionalProperties=False),
        "breaking",
        "additionalProperties",
    ),
    (
        "dependentSchemas",
        obj({"a": {}, "b": {}}),
        obj({"a": {}, "b": {}}, dependentSchemas={"a": {"required": ["b"]}}),
        "breaking",
        "required",
    ),
    (
        "draft-07 $ref hides its siblings",
        {"$schema": D7, "definitions": {"S": {"type": "string"}}, **obj({"x": {"$ref": "#/definitions/S"}})},
        {
            "$schema": D7,
            "definitions": {"S": {"type": "string"}},
            **obj({"x": {"$ref": "#/definitions/S", "maxLength": 1}}),
        },
        "compatible",
        None,
    ),
    (
        "2020-12 $ref beside a keyword",
        {"$defs": {"S": {"type": "string"}}, **obj({"x": {"$ref": "#/$defs/S"}})},
        {"$defs": {"S": {"type": "string"}}, **obj({"x": {"$ref": "#/$defs/S", "maxLength": 1}})},
        "breaking",
        "maxLength",
    ),
    (
        "recursive",
        {"$defs": {"node": NODE}, "$ref": "#/$defs/node"},
        {"$defs": {"node": NODE_NARROWED}, "$ref": "#/$defs/node"},
        "breaking",
        "minimum",
    ),
    ("anchor", ANCHORED, narrowed(ANCHORED, "/$defs/s", maxLength=2), "breaking", "maxLength"),
    (
        "booleans listed",
        obj({"f": {"type": "boolean"}}),
        obj({"f": {"enum": [True, False]}}),
        "compatible",
        None,
    ),
    (
        "a range listed",
        obj({"i": {"type": "integer", "minimum": 1, "maximum": 3}}),
        obj({"i": {"enum": [1, 2, 3]}}),
        "compatible",
        None,
    ),
    (
        "a range listed short",
        obj({"i": {"type": "integer", "minimum": 1, "maximum": 3}}),
        obj({"i": {"enum": [1, 2]}}),
        "breaking",
        "enum",
    ),
    (
        "multipleOf of fractions",
        obj({"x": {"type": "number", "multipleOf": 0.5}}),
        obj({"x": {"type": "number", "multipleOf": 1.5}}),
        "breaking",
        "multipleOf",
    ),
    (
        "maxItems of unique items",
        obj({"l": {"type": "array", "items": {"type": "integer"}, "uniqueItems": True}}),
        obj({"l": {"type": "array", "items": {"type": "integer"}, "uniqueItems": True, "maxItems": 1}}),
        "breaking",
        "maxItems",
    ),
    (
        "maxProperties of a free-form object",
        obj({"o": {"type": "object"}}),
        obj({"o": {"type": "object", "maxProperties": 1}}),
        "breaking",
        "maxProperties",
    ),
    (
        "allOf in the new",
        obj({"a": {"type": "string"}}),
        {**obj({"a": {"type": "string"}}), "allOf": [{"properties": {"a": {"minLength": 1}}}]},
        "breaking",
        "minLength",
    ),
    (
        "allOf in the old",
        {"allOf": [obj({"a": {"type": "string", "minLength": 2}})]},
        obj({"a": {"type": "string", "minLength": 1}}),
        "compatible",
        None,
    ),
    ("a property made false", obj({"a": {}, "b": {}}), obj({"a": {}, "b": False}), "breaking", "properties"),
    (
        "items closed after a prefix",
        obj({"l": {"type": "array", "prefixItems": [{"type": "string"}], "items": {"type": "integer"}}}),
        obj({"l": {"type": "array", "prefixItems": [{"type": "string"}], "items": False}}),
        "breaking",
        "items",
    ),
    ("dynamic reference", DYNAMIC, narrowed(DYNAMIC, "/$defs/n", maxLength=2), "unknown", "$dynamicRef"),
    ("a resource of its own", NESTED_ID, narrowed(NESTED_ID, "/$defs/A", maxLength=2), "unknown", "$ref"),
    (
        "a pattern's strings listed",
        obj({"s": {"type": "string", "pattern": "^(a|b)$"}}),
        obj({"s": {"enum": ["a", "b"]}}),
        "unknown",
        "enum",
    ),
]


@pytest.mark.parametrize(
    ("old", "new", "verdict", "rule"), [case[1:] for case in MORE], ids=[case[0] for case in MORE]
)
def test_more_rules(old, new, verdict, rule):
    section = compared(old, new)
    assert section.verdict == verdict
    if verdict == "breaking":
        assert rule in breaking_rules(section)
    elif verdict == "unknown":
        assert rule in {finding.keyword for finding in section.findings if finding.kind == "unknown"}


def test_a_pattern_the_comparison_cannot_decide_is_unknown_and_values_are_still_built():
    ahead = {"type": "string", "pattern": "^(?=a)a*$"}
    section = compared(obj({"s": ahead}), obj({"s": {"type": "string", "pattern": "^(?=a)b*$"}}))
    assert section.verdict == "unknown" and "look" in section.findings[-1].message
    lengths = compared(obj({"s": ahead}), obj({"s": {**ahead, "maxLength": 0}}))
    assert lengths.verdict == "breaking"
    (finding,) = [finding for finding in lengths.findings if finding.kind == "breaking"]
    assert finding.witness == {"s": "a"}


def test_too_many_schemas_in_place_stop_the_proof(monkeypatch):
    monkeypatch.setattr("toolreg._lifecycle.documents.MAX_PARTS", 4)
    many = {"allOf": [{"type": "string", "maxLength": 100 - index} for index in range(6)]}
    section = compared(obj({"a": {"type": "string"}}), obj({"a": many}))
    assert "allOf" in {finding.keyword for finding in section.findings if finding.kind == "unknown"}


EDGES = [
    (
        "an exclusive minimum read on integers",
        obj({"i": {"type": "integer", "exclusiveMinimum": 0}}),
        obj({"i": {"type": "integer", "minimum": 1}}),
        "compatible",
        None,
    ),
    (
        "an upper bound where none was",
        obj({"x": {"type": "number"}}),
        obj({"x": {"type": "number", "exclusiveMaximum": 0}}),
        "breaking",
        "maximum",
    ),
    (
        "multipleOf a half on integers",
        obj({"i": {"type": "integer"}}),
        obj({"i": {"type": "integer", "multipleOf": 0.5}}),
        "compatible",
        None,
    ),
    (
        "excluding an undeclared name",
        obj({"a": {}}),
        obj({"a": {}}, **{"not": {"required": ["zz"]}}),
        "compatible",
        None,
    ),
    (
        "excluding through a reference",
        obj({"a": {}}),
        {**obj({"a": {}}), "$defs": {"X": {"required": ["a"]}}, "not": {"$ref": "#/$defs/X"}},
        "unknown",
        "not",
    ),
    (
        "a condition through a reference",
        KINDS,
        {
            **KINDS,
            "$defs": {"X": {"required": ["kind"]}},
            "if": {"$ref": "#/$defs/X"},
            "then": {"required": ["n"]},
        },
        "unknown",
        "if",
    ),
    (
        "unevaluatedProperties true",
        obj({"a": {}}),
        obj({"a": {}}, unevaluatedProperties=True),
        "compatible",
        None,
    ),
    (
        "oneOf through a reference",
        obj({"v": {"type": "integer"}}),
        {
            **obj({"v": {"oneOf": [{"type": "integer"}, {"$ref": "#/$defs/N"}]}}),
            "$defs": {"N": {"type": "number"}},
        },
        "unknown",
        "oneOf",
    ),
    (
        "a pattern within lengths",
        obj({"s": {"type": "string", "minLength": 2, "maxLength": 5}}),
        obj({"s": {"type": "string", "pattern": "^a+$"}}),
        "breaking",
        "pattern",
    ),
    (
        "oneOf told apart by a const",
        obj({"v": {"oneOf": [obj({"k": {"const": "a"}}, ["k"]), obj({"k": {"const": "b"}}, ["k"])]}}),
        obj(
            {
                "v": {
                    "oneOf": [
                        obj({"k": {"const": "a"}, "x": {"type": "string"}}, ["k"]),
                        obj({"k": {"const": "b"}}, ["k"]),
                    ]
                }
            }
        ),
        "compatible",
        None,
    ),
    (
        "oneOf told apart by required names",
        obj(
            {
                "v": {
                    "oneOf": [
                        obj({"a": {}}, ["a"], additionalProperties=False),
                        obj({"b": {}}, ["b"], additionalProperties=False),
                    ]
                }
            }
        ),
        obj(
            {
                "v": {
                    "oneOf": [
                        obj({"a": {}, "c": {}}, ["a"], additionalProperties=False),
                        obj({"b": {}}, ["b"], additionalProperties=False),
                    ]
                }
            }
        ),
        "compatible",
        None,
    ),
    (
        "minProperties kept by required names",
        obj({"a": {}, "b": {}}, ["a", "b"]),
        obj({"a": {}, "b": {}}, ["a", "b"], minProperties=2),
        "compatible",
        None,
    ),
    (
        "maxProperties kept by a closed object",
        obj({"a": {}, "b": {}}, additionalProperties=False),
        obj({"a": {}, "b": {}}, maxProperties=2, additionalProperties=False),
        "compatible",
        None,
    ),
    (
        "dependentRequired kept by required",
        obj({"a": {}, "b": {}}, ["b"]),
        obj({"a": {}, "b": {}}, ["b"], dependentRequired={"a": ["b"]}),
        "compatible",
        None,
    ),
    (
        "dependentSchemas kept",
        obj({"a": {}, "b": {}}, dependentSchemas={"a": {"required": ["b"]}}),
        obj({"a": {}, "b": {}}, dependentSchemas={"a": {"required": ["b"]}}, minProperties=0),
        "compatible",
        None,
    ),
    (
        "minItems kept",
        obj({"l": {"type": "array", "minItems": 2}}),
        obj({"l": {"type": "array", "minItems": 1}}),
        "compatible",
        None,
    ),
    (
        "propertyNames kept",
        obj({"abc": {}}, additionalProperties=False),
        obj({"abc": {}}, propertyNames={"pattern": "^[a-z]+$"}),
        "compatible",
        None,
    ),
    (
        "propertyNames on open names",
        obj({"o": {"type": "object"}}),
        obj({"o": {"type": "object", "propertyNames": {"maxLength": 3}}}),
        "unknown",
        "propertyNames",
    ),
    # Names matching ^x_ never match ^y_, but the comparison does not tell patterns apart: unknown.
    (
        "pattern names beside a new pattern",
        {"type": "object", "patternProperties": {"^x_": {}}},
        {"type": "object", "patternProperties": {"^y_": {"type": "string"}}},
        "unknown",
        "patternProperties",
    ),
]


@pytest.mark.parametrize(
    ("old", "new", "verdict", "rule"), [case[1:] for case in EDGES], ids=[case[0] for case in EDGES]
)
def test_edges_of_the_rules(old, new, verdict, rule):
    test_more_rules(old, new, verdict, rule)


def test_the_depth_and_the_verification_budget_bound_a_comparison(monkeypatch):
    two = obj({"a": {"type": "string"}, "b": {"type": "string"}})
    changed = obj({"a": {"type": "integer"}, "b": {"type": "integer"}})
    monkeypatch.setattr("toolreg._lifecycle.engine.MAX_VERIFIED", 1)
    section = compared(two, changed)
    assert [finding.kind for finding in section.findings if finding.kind != "widening"] == [
        "breaking",
        "unknown",
    ]
    assert "more candidates than the comparison verifies (1)" in section.findings[-1].message
    monkeypatch.setattr("toolreg._lifecycle.engine.MAX_DEPTH", 1)
    deep = compared(obj({"o": two}), obj({"o": changed}))
    assert deep.verdict == "unknown" and "nested more than 1 levels deep" in deep.findings[0].message


def test_the_work_budget_bounds_a_comparison(monkeypatch):
    monkeypatch.setattr("toolreg._lifecycle.engine.MAX_STEPS", 2)
    section = compared(
        obj({"a": obj({"b": obj({"c": {"type": "string"}})})}),
        obj({"a": obj({"b": obj({"c": {"type": "integer"}})})}),
    )
    assert section.verdict == "unknown"
    assert any("work budget" in finding.message for finding in section.findings)


# -- the pieces: minimal values, documents ------------------------------------------------------------


def view_of(schema):
    document = Document(schema)
    return document.view([Part(schema, "")])


def minimal(schema, **options):
    """A minimal value of ``schema``, by a builder of its own (a builder keeps what it built by pointer)."""
    return Builder(lambda view: None).minimal(view_of(schema), **options)


def test_the_builder_gives_minimal_values_or_says_why_not():
    assert minimal(obj({"a": {"type": "integer", "minimum": 3}}, ["a"])) == {"a": 3}
    assert minimal({"type": "number", "exclusiveMinimum": 2, "exclusiveMaximum": 3}) == 2.5
    assert minimal({"type": "string", "minLength": 2}) == "aa"
    assert minimal({"type": "array", "minItems": 2, "uniqueItems": True, "items": {"type": "boolean"}}) == [
        False,
        True,
    ]
    chained = obj({"a": {}, "b": {"type": "null"}}, ["a"], dependentRequired={"a": ["b"]}, minProperties=2)
    assert minimal(chained) == {"a": {}, "b": None}  # {} stands for any value: the first type tried
    builder = Builder(lambda view: None)
    assert builder.object(view_of(obj({"a": {}, "b": {}})), size=2) == {"a": {}, "b": {}}
    assert builder.variants(view_of({"type": "string", "pattern": "^[bc]$"}), "string", 3) == ["b", "c"]
    assert builder.variants(view_of({}), "null", 2) == [None]
    for hopeless, certain in [
        (False, True),
        ({"type": "integer", "minimum": 1, "maximum": 0}, True),
        ({"type": "string", "minLength": 3, "maxLength": 2}, True),
        ({"type": "string", "pattern": "^a$", "minLength": 2}, True),
        ({"type": "array", "minItems": 2, "maxItems": 1}, True),
        ({"type": "array", "minItems": 2, "uniqueItems": True, "items": {"const": 1}}, False),
        ({"enum": [1], "type": "string"}, True),
        ({"type": "object", "minProperties": 1, "additionalProperties": False}, False),
        ({"oneOf": [{"type": "string"}, {"type": "string"}]}, False),
        ({"type": "string", "pattern": "^a+$", "allOf": [{"pattern": "^aa$"}]}, False),
    ]:
        with pytest.raises(NoValue) as raised:
            minimal(hopeless)
        assert raised.value.certain is certain, hopeless
    with pytest.raises(NoValue, match="nested too deeply"):
        minimal({}, depth=99)


def test_a_document_follows_its_own_references_only():
    schema = {
        "$schema": D7,
        "$id": "https://example.com/root",
        "definitions": {"a": {"$id": "#named", "type": "string"}, "list": {"items": [{"type": "integer"}]}},
    }
    document = Document(schema)
    assert document.dialect == "draft-07"
    assert document.target("#named").pointer == "/definitions/a"
    assert document.target("https://example.com/root#/definitions/list/items/0").schema == {"type": "integer"}
    assert [
        document.target(ref)
        for ref in ("#nowhere", "other.json#/a", "#/definitions/b", 3, "#/definitions/a/type")
    ] == [None] * 5
    assert document.at("no pointer") == (False, None)
    assert document.errors(Part(False, "/x"), 1)[0].keyword == "false"
    assert document.accepts(Part({"minimum": 2}, None), 1) is False
    assert document.accepts(Part({"$ref": "#/nowhere"}, None), 1) is None
    assert declared_only({"a": [1]}, Document(obj({"a": {"type": "array"}})))
    assert not declared_only({"b": 1}, Document(obj({"a": {}})))
    assert not declared_only([[[]]], Document({}), budget=2)


def test_every_form_names_renames_additions_and_widenings():
    widened = {
        **READ,
        "inputSchema": obj({"path": {"type": "string"}, "limit": {"type": "integer"}}, ["path"]),
    }
    old, new = (
        [READ, WRITE],
        [widened, {**WRITE, "name": "files.write"}, {"name": "fs.list", "inputSchema": obj({})}],
    )
    report = checked(toolreg.diff(old, new), old, new)
    text, markdown, github = (report.render(form) for form in ("text", "markdown", "github"))
    assert "files.write: renamed from fs.write, breaking" in text and "calls to fs.write are refused" in text
    assert "refused by the declared reading: the old schema does not declare a name it holds" in text
    assert "| `files.write` | renamed from fs.write | **breaking** |" in markdown
    assert "::notice title=toolreg diff%3A fs.list::added" in github.splitlines()
    assert (
        "::error title=toolreg diff%3A files.write::renamed from fs.write: calls to fs.write are refused"
        in github
    )
    quiet = toolreg.diff(old, old)
    assert (
        quiet.render("markdown")
        .splitlines()[-1]
        .startswith("0 changed, 0 added, 0 removed, 0 renamed, 2 unchanged")
    )
    assert not quiet.fails("any")
    for call, words in [
        (lambda: quiet.fails("everything"), "fail_on"),
        (lambda: toolreg.diff([{"inputSchema": {}}], old), "tool 0 has no name"),
        (lambda: toolreg.diff(old, old, search=10**6), "search is at most"),
        (lambda: toolreg.diff(old, old, seed=True), "seed is a whole number"),
    ]:
        with pytest.raises(toolreg.DiffError, match=words):
            call()


# -- logged calls counted ------------------------------------------------------------------------------

LOGGED = [
    {
        "role": "assistant",
        "content": [{"type": "tool_use", "id": "u1", "name": "fs-write", "input": {"path": "", "text": "x"}}],
    },
    {"type": "tool_use", "id": "u2", "name": "fs.write", "input": {"path": "a", "text": "x"}},
    {
        "role": "assistant",
        "tool_calls": [
            {
                "id": "c1",
                "type": "function",
                "function": {"name": "fs-write", "arguments": '{"path": "", "text": 1}'},
            }
        ],
    },
    {
        "role": "assistant",
        "tool_calls": [
            {"id": "c2", "type": "function", "function": {"name": "fs-write", "arguments": '{"path": "",'}}
        ],
    },
    {"type": "tool_use", "id": "u3", "name": "fs.read", "input": {"path": "a"}},
    {"type": "tool_use", "id": "u4", "name": "no.such", "input": {}},
    {"type": "tool_use", "id": "u5", "name": "fs.write", "input": {"path": "b", "text": "x", "mode": "w"}},
]


def test_logged_calls_are_counted_against_each_breaking_change(tmp_path, capsys):
    narrowed = {
        **WRITE,
        "inputSchema": {
            **WRITE["inputSchema"],
            "properties": {"path": {"type": "string", "minLength": 1}, "text": {"type": "string"}},
            "additionalProperties": False,
        },
    }
    log = tmp_path / "calls.jsonl"
    log.write_text("\n".join(json.dumps(value) for value in LOGGED) + "\nnot json\n")
    old, new = [READ, WRITE], [narrowed]
    report = checked(toolreg.diff(old, new, calls=[log]), old, new)
    assert report.calls.to_dict() == {"calls": 7, "malformed": 1, "unknown": 1, "unreadable": 1}
    tools = {tool.name: tool for tool in report.tools}
    # fs.write: four read calls; one old-invalid (text 1); of the three the old accepts, "" breaks the
    # new minLength, and "mode" the new closed object (under the declared reading no finding says so).
    assert tools["fs.write"].calls.to_dict() == {"logged": 4, "accepted": 3, "refused": 2, "other": 1}
    (finding,) = [f for f in tools["fs.write"].input.findings if f.kind == "breaking"]
    assert finding.rule == "minLength" and finding.calls == 1
    assert tools["fs.read"].calls.to_dict() == {
        "logged": 1,
        "accepted": 1,
        "refused": 1,
        "other": 1,
    }  # removed
    for form, words in (
        ("text", "logged calls it refuses: 1"),
        ("markdown", "- logged calls it refuses: 1"),
        ("github", "; logged calls it refuses: 1"),
    ):
        assert words in report.render(form)
    paths = [write(tmp_path / "old.json", old), write(tmp_path / "new.json", new)]
    assert main(["diff", *paths, "--json", "--calls", str(log)]) == 1
    assert json.loads(capsys.readouterr().out)["calls"]["calls"] == 7
    assert main(["diff", *paths, "--calls", str(tmp_path / "none.jsonl")]) == 2
    assert "cannot read the log" in capsys.readouterr().err


def test_values_too_large_to_build_stop_the_proof_instead(monkeypatch):
    huge = obj({"l": {"type": "array", "minItems": 10**9}})
    section = compared(huge, obj({"l": {"type": "array", "minItems": 10**9, "items": {"type": "string"}}}))
    assert section.verdict == "unknown" and "more than 10000 items" in section.findings[0].message
    long = compared(obj({"s": {"type": "string"}}), obj({"s": {"type": "string", "maxLength": 10**9}}))
    assert long.verdict == "unknown" and long.findings[0].keyword == "maxLength"
    monkeypatch.setattr("toolreg._lifecycle.compare_containers.MAX_POSITIONS", 2)
    three = obj({"l": {"type": "array", "prefixItems": [{"type": "integer"}] * 3}})
    section = compared(
        three, obj({"l": {"type": "array", "prefixItems": [{"type": "integer", "minimum": 0}] * 3}})
    )
    assert section.verdict == "unknown" and section.findings[0].keyword == "prefixItems"


# Two shapes the real catalog history reaches too, checked here for a clone without it.
def test_dropping_null_from_a_type_list_is_breaking_with_null_as_the_witness():
    section = compared(
        obj({"a": {"type": ["null", "boolean"]}}, ["a"]), obj({"a": {"type": "boolean"}}, ["a"])
    )
    assert section.verdict == "breaking"
    assert [(finding.rule, finding.witness) for finding in section.findings] == [("type", {"a": None})]


def test_a_search_that_finds_nothing_counts_its_draws_and_leaves_the_verdict_unknown():
    old = obj({"l": {"type": "array", "contains": {"type": "integer"}}}, ["l"])
    new = obj(
        {"l": {"type": "array", "contains": {"type": "integer"}, "items": {"not": {"const": 1.5}}}}, ["l"]
    )
    section = compared(old, new, search=2, seed=1)
    assert section.verdict == "unknown" and section.searched == 2
    assert [(finding.kind, finding.rule) for finding in section.findings] == [("unknown", "not")]
