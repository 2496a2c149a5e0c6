"""What a new user meets first: the command's exits and hints, SDK objects answered, integers handed as
integers, every strict-export blocker at once, one MCP error shape, misspelt formats, the reference's
definitions, and the emoji properties patterns from zod use."""

import asyncio
import functools
import json
import re
import sys
import typing
from pathlib import Path

import pytest

import toolreg
from toolreg._cli import main
from toolreg._integers import integral_as_int
from toolreg._jsonschema.regex import Pattern
from toolreg._jsonschema.regex.emoji import EMOJI_PROPERTIES, EMOJI_VERSION

ROOT = Path(__file__).resolve().parent.parent
CLOSED = {"type": "object", "properties": {"text": {"type": "string"}}, "additionalProperties": False}


# -- the command line: serve's exit, a path to serve, --version ------------------------------------


@pytest.fixture
def served(monkeypatch):
    """toolreg.mcp.serve, stood in for: what it was asked to serve; it returns as it does when a stdio
    client leaves, or raises what it is given."""
    mcp = pytest.importorskip("toolreg.mcp", reason="the MCP SDK is not installed: pip install '.[mcp]'")
    asked = []

    def serve(registry, transport, **options):
        asked.append((registry, options["name"]))
        if options.get("host") == "interrupt":
            raise KeyboardInterrupt

    monkeypatch.setattr(mcp, "serve", serve)
    monkeypatch.setattr(sys, "path", list(sys.path))
    return asked


def test_serve_exits_0_when_its_client_leaves_or_it_is_interrupted(served, capsys):
    from tests.mcp_servers import catalog

    assert main(["serve", "tests.mcp_servers.catalog"]) == 0
    assert main(["serve", "tests.mcp_servers.catalog", "--host", "interrupt"]) == 0  # Ctrl-C over HTTP
    assert served == [(catalog.tools, "tests.mcp_servers.catalog")] * 2
    assert capsys.readouterr() == ("", "")  # stdout was the protocol's: nothing is printed after it


def module_file(folder, stem, source):
    path = folder / f"{stem}.py"
    path.write_text(source, encoding="utf-8")
    sys.modules.pop(stem, None)
    return path


def test_serve_takes_the_path_of_a_python_file(served, tmp_path):
    # It imports its neighbours, as `python FILE` would.
    module_file(tmp_path, "first_use_neighbour", "SCHEMA = {'type': 'object', 'additionalProperties': False}")
    source = (
        "import toolreg\nfrom first_use_neighbour import SCHEMA\n"
        "tools = toolreg.ToolRegistry()\ntools.register('a.b', SCHEMA, lambda: 'done')\n"
        "spare = toolreg.ToolRegistry()\n"
    )
    path = module_file(tmp_path, "first_use_tools", source)
    try:
        assert main(["serve", f"{path}:tools"]) == 0
        [(registry, name)] = served
        assert name == "first_use_tools" and registry.names() == ["a.b"]
        assert main(["serve", str(path), "--name", "mine"]) == 2  # two registries: which one?
    finally:
        sys.modules.pop("first_use_tools", None)
        sys.modules.pop("first_use_neighbour", None)


def test_a_file_serve_cannot_import_is_named_in_one_line(served, tmp_path, capsys):
    broken = module_file(tmp_path, "first_use_broken", "raise RuntimeError('no database')\n")
    assert main(["serve", str(broken)]) == 2
    assert capsys.readouterr().err == f"toolreg: cannot import {broken}: RuntimeError: no database\n"
    assert "first_use_broken" not in sys.modules
    assert main(["serve", str(tmp_path / "missing.py")]) == 2
    assert capsys.readouterr().err == f"toolreg: cannot import {tmp_path / 'missing.py'}: no such file\n"
    assert served == []


def test_the_command_says_its_version(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    version = re.search(r'__version__ = "(.+)"', (ROOT / "toolreg/_version.py").read_text()).group(1)
    assert capsys.readouterr().out == f"toolreg {version}\n"


# -- answer() takes the SDKs' objects --------------------------------------------------------------


def shouting_registry():
    tools = toolreg.ToolRegistry()
    tools.register("text.shout", {**CLOSED, "required": ["text"]}, lambda text: text.upper())
    return tools


def test_answer_takes_the_mcp_sdks_call_params_as_they_are():
    types = pytest.importorskip("mcp_types", reason="the MCP SDK is not installed: pip install '.[mcp]'")
    tools = shouting_registry()
    for arguments in ({"text": "hi"}, {"text": 1}, None):
        params = types.CallToolRequestParams(name="text.shout", arguments=arguments)
        as_dict = {"name": "text.shout", "arguments": arguments}
        assert tools.answer(params) == tools.answer(as_dict) == tools.answer(params, provider="mcp")
    assert tools.answer(types.CallToolRequestParams(name="text.shout", arguments={"text": "hi"})) == {
        "content": [{"type": "text", "text": "HI"}],
        "isError": False,
    }


def test_answer_takes_any_object_with_model_dump_in_json_mode():
    pydantic = pytest.importorskip("pydantic", reason="pydantic is not installed: pip install '.[pydantic]'")

    class ToolUseBlock(pydantic.BaseModel):  # as Anthropic's SDK models a tool_use block
        id: str
        input: dict[str, typing.Any]
        name: str
        type: typing.Literal["tool_use"] = "tool_use"

    class Modes:
        def __init__(self):
            self.modes = []

        def model_dump(self, **options):  # takes mode: called with JSON's
            self.modes.append(options)
            return {"type": "tool_use", "id": "u2", "name": "text-shout", "input": {"text": "ok"}}

    class Builtin:  # a model_dump whose signature Python cannot read: called plainly
        # A static method: Python 3.13 warns that a partial will bind as a method one day.
        model_dump = staticmethod(functools.partial(dict, {"name": "text.shout", "arguments": {"text": "a"}}))

    tools = shouting_registry()
    assert tools.answer(Builtin())["content"] == [{"type": "text", "text": "A"}]
    block = ToolUseBlock(id="u1", name="text-shout", input={"text": "hi"})
    assert tools.answer(block) == {"type": "tool_result", "tool_use_id": "u1", "content": "HI"}
    assert asyncio.run(tools.aanswer(block)) == tools.answer(block)
    modes = Modes()
    assert tools.answer(modes)["content"] == "OK" and modes.modes == [{"mode": "json"}]


def test_an_object_that_is_no_call_is_told_what_answer_takes():
    class Failing:
        def model_dump(self):
            raise ValueError("closed\x1b[2J")

    class Listing:
        def model_dump(self):
            return ["not", "a", "call"]

    tools = shouting_registry()
    with pytest.raises(toolreg.InvalidCallError) as caught:
        tools.answer(Failing())
    assert str(caught.value) == "the call's model_dump() raised ValueError: closed\\u001b[2J"
    with pytest.raises(toolreg.InvalidCallError, match=r"\(Listing whose model_dump\(\) gives array\)"):
        tools.answer(Listing())
    with pytest.raises(toolreg.InvalidCallError, match=r"as a dict or an SDK's object with model_dump\(\)$"):
        tools.answer(object())


# -- integers handed to handlers as int ------------------------------------------------------------

COUNTS = {
    "type": "object",
    "properties": {
        "n": {"type": "integer"},
        "either": {"type": ["integer", "null"]},
        "ratio": {"type": "number"},
        "loose": {"type": ["integer", "number"]},
        "ids": {"type": "array", "items": {"type": "integer"}},
        "box": {"type": "object", "properties": {"width": {"type": "integer"}}},
        "all": {"allOf": [{"minimum": 0}, {"type": "integer"}]},
        "some": {"anyOf": [{"type": "integer"}, {"type": "string"}]},
        "ref": {"$ref": "#/$defs/count"},
    },
    "$defs": {"count": {"type": "integer"}},
    "additionalProperties": False,
}
SENT = (
    '{"n": 3.0, "either": 4.0, "ratio": 2.0, "loose": 5.0, "ids": [1.0, 2, 3.0], "box": {"width": 6.0},'
    ' "all": 7.0, "some": 8.0, "ref": 9.0}'
)
HANDED = {"n": 3, "either": 4, "ratio": 2.0, "loose": 5.0, "ids": [1, 2, 3], "box": {"width": 6}, "all": 7}
HANDED |= {"some": 8.0, "ref": 9.0}  # a branch that may not apply, and a $ref: not read


def types_of(value):
    if isinstance(value, dict):
        return {key: types_of(item) for key, item in value.items()}
    if isinstance(value, list):
        return [types_of(item) for item in value]
    return type(value).__name__


def test_a_handler_gets_integral_numbers_as_int_where_the_schema_says_integer():
    received = []
    tools = toolreg.ToolRegistry()
    tools.register("t.count", COUNTS, lambda **args: received.append(args) or "done")
    args = json.loads(SENT)
    assert tools.call("t.count", args).ok
    assert asyncio.run(tools.acall("t.count", args)).ok
    assert tools.answer({"name": "t.count", "arguments": args})["isError"] is False
    for handed in received:
        assert handed == HANDED and types_of(handed) == types_of(HANDED)
    assert types_of(args) == types_of(json.loads(SENT))  # the caller's arguments unchanged


def test_integral_as_int_copies_only_what_it_changes():
    args = {"ids": [1.5, 2.0], "keep": {"a": 1.0}}
    schema = {"properties": {"ids": {"items": {"type": "integer"}}, "keep": {"type": "object"}}}
    converted = integral_as_int(schema, args)
    assert types_of(converted) == {"ids": ["float", "int"], "keep": {"a": "float"}}
    assert converted["keep"] is args["keep"] and args["ids"] == [1.5, 2.0]
    assert integral_as_int({"properties": {"a": {"type": "number"}}}, args) is args
    tuple_form = {"prefixItems": [{"type": "string"}], "items": {"type": "integer"}}
    assert types_of(integral_as_int(tuple_form, ["a", 2.0])) == ["str", "float"]  # unread: kept
    assert types_of(integral_as_int({"type": "integer"}, 2.0)) == "int"


# -- the strict export: every blocker of every tool, and the command's exits -----------------------

OPEN = {"type": "object", "properties": {"path": {"type": "string"}}}


def strict_registry():
    tools = toolreg.ToolRegistry()
    tools.register("fs.read", OPEN, lambda **args: "read", description="Read a file")
    tools.register("fs.stat", CLOSED, lambda text=None: "ok")
    tools.register(
        "fs.find",
        {**CLOSED, "properties": {"glob": {"type": "string", "minLength": 1}}},
        lambda glob=None: glob,
    )
    return tools


def test_a_strict_export_names_every_tool_and_every_blocker_at_once():
    with pytest.raises(toolreg.ExportError) as caught:
        strict_registry().export("openai", strict=True)
    assert str(caught.value) == (
        "2 of 3 tools cannot be exported to openai: (1) fs.read: OpenAI strict mode cannot take this "
        "schema (1 blocker): OpenAI strict mode needs closed objects, and this one allows properties it "
        "does not name (it has no \"additionalProperties\": false) (at '') (2) fs.find: OpenAI strict "
        "mode cannot take this schema (1 blocker): OpenAI strict mode does not support 'minLength' (at "
        "'/properties/glob/minLength')"
    )
    assert caught.value.schema_path == ""


def test_an_open_object_is_a_blocker_that_omit_unsupported_closes_and_lists():
    tools = strict_registry()
    read, _, _ = tools.export("openai", strict=True, omit_unsupported=True)
    assert (
        read["function"]["description"]
        == "Read a file\nNot expressible in strict mode: /: other property names"
    )
    assert read["function"]["parameters"]["additionalProperties"] is False
    nested = {
        "type": "object",
        "properties": {"box": OPEN},
        "required": ["box"],
        "additionalProperties": False,
    }
    tools.register("fs.box", nested, lambda box: box)
    with pytest.raises(toolreg.ExportError) as caught:
        tools.export("openai", names=["fs.box"], strict=True)
    assert caught.value.schema_path == "/properties/box"
    tools.register("fs.none", {"type": "object"}, lambda **args: "none")  # one without parameters is fine
    [none] = tools.export("openai-responses", names=["fs.none"], strict=True)
    assert none["parameters"] == {
        "type": "object",
        "properties": {},
        "required": [],
        "additionalProperties": False,
    }


def write_catalog(tmp_path, tools):
    path = tmp_path / "catalog.json"
    path.write_text(json.dumps(tools.export("mcp")), encoding="utf-8")
    return str(path)


def test_the_command_exports_strictly_or_exits_1_naming_every_blocker(tmp_path, capsys):
    catalog = write_catalog(tmp_path, strict_registry())
    assert main(["export", catalog, "--to", "openai", "--strict"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("toolreg: 2 of 3 tools cannot be exported to openai: (1) fs.read:")
    assert main(["export", catalog, "--to", "openai", "--strict", "--omit-unsupported"]) == 0
    exported = json.loads(capsys.readouterr().out)
    assert [tool["function"]["name"] for tool in exported] == ["fs-read", "fs-stat", "fs-find"]
    assert exported[2]["function"]["parameters"]["properties"]["glob"] == {"type": ["string", "null"]}
    assert main(["export", catalog, "--to", "openai", "--omit-unsupported"]) == 2
    assert capsys.readouterr().err == "toolreg: --omit-unsupported goes with --strict\n"
    assert main(["export", catalog, "--to", "anthropic", "--strict"]) == 2
    assert (
        capsys.readouterr().err
        == "toolreg: --strict is OpenAI's strict form: --to openai or openai-responses\n"
    )


def test_the_commands_docstring_and_the_reference_say_the_exit_codes():
    reference = (ROOT / "docs/reference.md").read_text(encoding="utf-8")
    for said in (main.__module__ and sys.modules[main.__module__].__doc__, reference):
        assert "--strict" in said and "serve" in said and "Ctrl-C" in said


# -- the MCP server's error results: the shape answer(provider="mcp") gives ---------------------------


def test_the_server_answers_errors_in_the_shape_answer_gives():
    pytest.importorskip("mcp", reason="the MCP SDK is not installed: pip install '.[mcp]'")
    import anyio
    from mcp import Client

    from toolreg.mcp import server

    tools = shouting_registry()

    async def called():
        async with Client(server(tools), mode="legacy") as client:
            return await client.call_tool("text.shout", {"text": 1})

    result = anyio.run(called).model_dump(by_alias=True, mode="json", exclude_none=True)
    result.pop("resultType", None)  # the SDK's own field, for the protocol's newer versions
    expected = tools.answer({"name": "text.shout", "arguments": {"text": 1}}, provider="mcp")
    assert result == expected
    assert result["_meta"]["toolreg/errors"][0]["schema_path"] == "/properties/text/type"


# -- a misspelt format under format assertion ----------------------------------------------------------

WHEN = {"type": "object", "properties": {"when": {"type": "string", "format": "date_time"}}}


def test_an_unknown_format_is_refused_when_formats_are_asserted():
    with pytest.raises(toolreg.SchemaError) as caught:
        toolreg.compile(WHEN, assert_formats=True)
    assert caught.value.schema_path == "/properties/when/format"
    assert str(caught.value) == (
        "'format' names no format toolreg knows, \"date_time\", and formats are asserted; did you mean "
        "'date-time'? (at '/properties/when/format')"
    )
    asserting = toolreg.ToolRegistry(assert_formats=True)  # at registration, where the quick check vouches
    with pytest.raises(toolreg.SchemaError, match="did you mean 'date-time'"):
        asserting.register("t.when", {**WHEN, "additionalProperties": False}, lambda when=None: when)
    with pytest.raises(toolreg.SchemaError, match=r"\"int64\", and formats are asserted \(at '/format'\)$"):
        toolreg.check_schema({"format": "int64"}, assert_formats=True)


def test_an_unknown_format_is_an_annotation_when_formats_are_not_asserted():
    assert toolreg.validate(WHEN, {"when": "soon"}) == []
    tools = toolreg.ToolRegistry()
    tools.register("t.when", {**WHEN, "additionalProperties": False}, lambda when=None: when)
    assert tools.validate("t.when", {"when": "soon"}) == []
    # idn-hostname is the specification's, and stays an annotation under assertion
    assert toolreg.validate({"format": "idn-hostname"}, "-", assert_formats=True) == []


# -- the API reference ---------------------------------------------------------------------------------


def test_the_registrys_docstring_says_each_constructor_parameter():
    documented = toolreg.ToolRegistry.__doc__
    for name in list(typing.get_type_hints(toolreg.ToolRegistry.__init__))[:-1]:  # less "return"
        assert f"``{name}``" in documented, name
    settings = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert re.search(r"^ +merge_init_into_class: true$", settings, flags=re.M)


def test_the_reference_defines_each_name_a_public_signature_returns():
    reference = (ROOT / "docs/reference.md").read_text(encoding="utf-8")
    returned = set()
    for name in toolreg.__all__:
        value = getattr(toolreg, name)
        members = vars(value).items() if isinstance(value, type) else ()
        methods = [member for key, member in members if callable(member) and not key.startswith("_")]
        for function in [value, *methods] if callable(value) else []:
            annotation = getattr(function, "__annotations__", {}).get("return")
            if isinstance(annotation, str):
                returned.update(
                    word
                    for word in re.findall(r"[A-Za-z_]\w*", annotation)
                    if not isinstance(function.__globals__.get(word), typing.TypeVar)  # the function's own
                )
    unexplained = {
        word for word in returned - set(toolreg.__all__) if word[0].isupper() and word not in dir(typing)
    }
    unexplained -= {"None", "Callable", "Iterator", "AsyncIterator", "Self"}
    assert unexplained == {"Result"}  # the only one: held to its definition on the page
    assert "Every `validate` returns a `Result`: `Ok | list[ValidationError]`" in reference


# -- install hints, and the other project on the index --------------------------------------------------


def test_install_hints_give_the_checkout_form_too(monkeypatch, capsys):
    from toolreg import _pydantic
    from toolreg._lifecycle import search

    monkeypatch.setitem(sys.modules, "pydantic", None)
    with pytest.raises(
        toolreg.InvalidToolError, match=re.escape("(from a checkout: pip install '.[pydantic]')")
    ):
        _pydantic._pydantic()
    monkeypatch.setitem(sys.modules, "hypothesis_jsonschema", None)
    with pytest.raises(ImportError, match=re.escape("(from a checkout: pip install '.[search]')")):
        search._packages()
    monkeypatch.delitem(sys.modules, "toolreg.mcp", raising=False)
    monkeypatch.setitem(sys.modules, "mcp", None)
    assert main(["serve", "tests.mcp_servers.catalog"]) == 2
    assert "(from a checkout: pip install '.[mcp]')" in capsys.readouterr().err


def test_the_readme_warns_that_pip_install_toolreg_is_another_project():
    for page in ("README.md", "docs/quickstart.md"):
        text = " ".join((ROOT / page).read_text(encoding="utf-8").split())
        assert (
            "**Do not `pip install toolreg`:** that installs a different project, which also imports as"
            in text
        )


# -- the emoji properties, spelt out for RE2 ------------------------------------------------------------

# Facts of Unicode's emoji-data.txt (Emoji Version 15.0): a code point each property holds, and one it
# does not.
EMOJI_FACTS = {
    "Emoji": ("#", "a"),
    "Emoji_Presentation": ("😀", "#"),
    "Emoji_Modifier": ("\U0001f3fb", "😀"),
    "Emoji_Modifier_Base": ("👍", "😀"),
    "Emoji_Component": ("\u200d", "😀"),
    "Extended_Pictographic": ("©", "#"),
}
ALIASES = {"Emoji_Presentation": "EPres", "Emoji_Modifier": "EMod", "Emoji_Modifier_Base": "EBase"}
ALIASES |= {"Emoji_Component": "EComp", "Extended_Pictographic": "ExtPict", "Emoji": "Emoji"}


@pytest.mark.parametrize("name", sorted(EMOJI_FACTS))
def test_each_emoji_property_runs_on_re2_with_unicodes_code_points(name):
    held, other = EMOJI_FACTS[name]
    for written in (name, ALIASES[name]):
        inside, outside, apart = (
            Pattern(f"^\\p{{{written}}}$"),
            Pattern(f"^\\P{{{written}}}$"),
            Pattern(f"^[^x\\p{{{written}}}]$"),
        )
        assert (inside.backtracking, outside.backtracking, apart.backtracking) == (None, None, None)
        assert [pattern.search(held) for pattern in (inside, outside, apart)] == [True, False, False]
        assert [pattern.search(other) for pattern in (inside, outside, apart)] == [False, True, True]
        assert apart.search("x") is False and outside.search("\ud800") is True  # a lone surrogate


def test_the_emoji_properties_agree_with_ecma_262_where_unicode_has_not_changed_them():
    regress = pytest.importorskip(
        "regress", reason="regress is not installed: pip install -r requirements-test.txt"
    )
    # regress (as V8) is on Unicode 17.0, which added Emoji and Emoji_Presentation code points (it
    # holds each these hold) and read Extended_Pictographic anew (docs/limits.md); the others agree.
    for name, ranges in EMOJI_PROPERTIES.items():
        if name == "Extended_Pictographic":
            continue
        theirs = regress.Regex(f"^\\p{{{name}}}$", "u")
        ours = Pattern(f"^\\p{{{name}}}$")
        edges = {point for low, high in ranges for point in (low - 1, low, high, high + 1)} - {-1}
        for point in sorted(edges - set(range(0xD800, 0xE000))):
            text = chr(point)
            if name in ("Emoji_Modifier", "Emoji_Modifier_Base", "Emoji_Component") or ours.search(text):
                assert ours.search(text) is (theirs.find(text) is not None), (name, hex(point))


def test_zods_emoji_check_is_linear_and_means_what_it_says():
    validator = toolreg.compile(
        {"type": "string", "pattern": r"^(\p{Extended_Pictographic}|\p{Emoji_Component})+$"}
    )
    assert validator.validate("👍🏽🇳🇴") == [] and validator.validate("👍 ") != []
    assert Pattern(r"^(\p{Extended_Pictographic}|\p{Emoji_Component})+$").backtracking is None


DATA = Path("/usr/share/unicode/emoji/emoji-data.txt")


def test_the_emoji_table_is_what_its_generator_writes_from_unicodes_file():
    """Golden: where Unicode's file of the same version is installed (Debian's unicode-data), the
    committed module is exactly what ``python -m bench.unicode_emoji`` writes from it."""
    if not DATA.is_file():
        pytest.skip(f"{DATA} is not there: apt-get install unicode-data to hold the table to it")
    from bench import unicode_emoji

    version, properties = unicode_emoji.read(DATA.read_text(encoding="utf-8"))
    if version != EMOJI_VERSION:
        pytest.skip(f"{DATA} is Emoji Version {version}, the table {EMOJI_VERSION}: regenerate it to move on")
    assert {name: list(ranges) for name, ranges in EMOJI_PROPERTIES.items()} == properties
    written = (ROOT / "toolreg/_jsonschema/regex/emoji.py").read_text(encoding="utf-8")
    assert unicode_emoji.module_text(version, properties) == written
