"""``toolreg guard`` in front of an upstream that checks nothing (tests/mcp_servers/counting_server.py),
driven by the SDK's own clients on both protocol versions: one guard process per version, shared by the
module's tests (marked slow: they start processes), and the pin's comparison in process."""

import contextlib
import functools
import json
import random
import sys
import types as namespaces
from dataclasses import dataclass

import anyio
import coverage
import jsonschema
import pytest

pytest.importorskip("mcp", reason="the MCP SDK is not installed: pip install 'pytoolreg[mcp]'")

import mcp_types
from mcp import StdioServerParameters

import toolreg
from tests import accept_any
from tests.mcp.test_guarded_session import guarded as in_process
from tests.mcp.test_guarded_session import sdk_server
from tests.mcp_servers.clients import (
    LEGACY,
    MODERN,
    ROOT,
    http_server,
    modern_peer,
    remote,
    stdio_legacy_peer,
)
from tests.mcp_servers.counting_server import TOOLS
from tests.properties.test_corpus import CORPUS, RECORDS, STANDARD
from toolreg._cli import main
from toolreg._guard import WITHHELD_META, GuardOptions, _GuardServer, _loop_options

VERSIONS = [LEGACY, MODERN]


@pytest.fixture(scope="module", params=VERSIONS)
def guarded(request, tmp_path_factory):
    """A client of ``toolreg guard --repair --record --pin`` on one protocol version, and its folder:
    ``calls.jsonl`` (what reached the upstream), ``record.jsonl`` and ``pin.json``. The guard of
    2025-11-25 starts its upstream over stdio; the guard of 2026-07-28 reaches it over streamable HTTP."""
    folder = tmp_path_factory.mktemp("guard")
    calls = str(folder / "calls.jsonl")
    options = ["--repair", "--record", str(folder / "record.jsonl"), "--pin", str(folder / "pin.json")]
    with contextlib.ExitStack() as stack:
        if request.param == LEGACY:
            upstream = ["--", sys.executable, "-m", "tests.mcp_servers.counting_server", calls]
        else:
            upstream = ["--upstream", stack.enter_context(http_server("counting_server", calls))]
        yield from _guarded(request.param, folder, [*options, *upstream])


def _guarded(version, folder, arguments):
    # Under coverage (make test), the guard's own lines are measured in its process too.
    measured = ["-m", "coverage", "run", "--parallel-mode"] if coverage.Coverage.current() else []
    params = StdioServerParameters(
        command=sys.executable,
        args=[*measured, "-m", "toolreg", "guard", *arguments],
        cwd=ROOT,
    )
    connect = stdio_legacy_peer if version == LEGACY else modern_peer
    with remote(connect, params) as connected:
        connected.folder = folder
        yield connected


def reached(guarded):
    """The calls that reached the upstream, as it received them."""
    path = guarded.folder / "calls.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def texts(result):
    return [block.text for block in result.content]


@pytest.mark.slow
def test_the_listing_withholds_the_malformed_tool_and_says_why(guarded):
    listing = guarded.portal.call(guarded.peer.client.list_tools)
    checked = [tool for tool in TOOLS if tool.name != "broken"]
    assert [tool.name for tool in listing.tools] == [tool.name for tool in checked]
    assert [tool.input_schema for tool in listing.tools] == [tool.input_schema for tool in checked]
    [withheld] = listing.meta[WITHHELD_META]
    assert withheld["name"] == "broken"
    assert "unknown type" in withheld["reason"] and "/properties/x/type" in withheld["reason"]
    # The pin holds every tool the upstream listed, the withheld one too.
    pinned = json.loads((guarded.folder / "pin.json").read_text())
    assert [tool["name"] for tool in pinned["tools"]] == [tool.name for tool in TOOLS]


INVALID = [
    ({"days": 3}, 'the arguments: missing required property "city"'),
    ({"city": ""}, "at /city"),
    ({"city": "Oslo", "days": 0}, "at /days"),
    ({"city": "Oslo", "days": 2.5}, "at /days"),
    ({"city": "Oslo", "units": "kelvin"}, "at /units"),
    ({"city": "Oslo", "country": "NO"}, "country"),
]


@pytest.mark.slow
def test_no_invalid_call_reaches_the_upstream_and_every_valid_one_reaches_it_unchanged(guarded):
    before = len(reached(guarded))
    for arguments, pointer in INVALID:
        result = guarded.call("weather.forecast", arguments)
        assert result.is_error and result.structured_content is None
        [text] = texts(result)
        assert text.startswith("The arguments for weather.forecast") and pointer in text, text
    assert len(reached(guarded)) == before  # not one of them was sent
    valid = [{"city": "Oslo"}, {"city": "Lima", "days": 7, "units": "metric"}]
    for arguments in valid:
        assert not guarded.call("weather.forecast", arguments).is_error
    assert reached(guarded)[before:] == [{"name": "weather.forecast", "arguments": a} for a in valid]


@pytest.mark.slow
def test_a_tool_toolreg_refuses_or_the_upstream_does_not_list_is_never_called(guarded):
    before = len(reached(guarded))
    result = guarded.call("broken", {"x": "y"})
    assert result.is_error
    assert texts(result) == [
        "The tool broken was not called: toolreg refuses its schema: 'type' names an unknown type "
        '"strin"; the types are null, boolean, integer, number, string, array, object at /properties/x/type.'
    ]
    # A name the upstream does not list is answered by the guard too, never sent unchecked.
    unknown = guarded.call("weather.forcast", {"city": "Oslo"})
    assert unknown.is_error
    assert texts(unknown)[0].startswith("There is no tool named weather.forcast. The tools are: weather.")
    assert len(reached(guarded)) == before


@pytest.mark.slow
def test_a_repaired_call_is_sent_repaired_and_the_model_is_told(guarded):
    result = guarded.call("weather.forecast", {"city": "Oslo", "days": "3"})
    assert not result.is_error
    assert reached(guarded)[-1] == {"name": "weather.forecast", "arguments": {"city": "Oslo", "days": 3}}
    assert texts(result)[0] == '{"city": "Oslo", "days": 3}'  # the upstream's answer, then the note
    assert "/days" in texts(result)[1] and "3" in texts(result)[1]


@pytest.mark.slow
def test_a_result_that_breaks_the_output_schema_is_an_error_saying_where(guarded):
    good = guarded.call("echo", {"count": 2})
    assert not good.is_error and good.structured_content == {"count": 2}
    bad = guarded.call("echo", {"count": "two"})
    assert reached(guarded)[-1] == {"name": "echo", "arguments": {"count": "two"}}  # valid input: sent
    assert bad.is_error and bad.structured_content is None
    [text] = texts(bad)
    assert "/count" in text and "expected integer, got string" in text, text
    # An error result comes through as the upstream said it, without its structuredContent.
    failed = guarded.call("echo", {"count": 1, "fail": True})
    assert failed.is_error and failed.structured_content is None
    assert texts(failed) == ['{"count": 1, "fail": true}']


@pytest.mark.slow
def test_the_record_is_a_transcript_replay_reads(guarded):
    # Listed here, whichever tests of the module ran before on this worker: a call is judged against
    # the listing the record holds before it.
    guarded.list_pages()
    guarded.call("weather.forecast", {"city": "Oslo", "days": 0})
    guarded.call("weather.forecast", {"city": "Oslo", "days": 1})
    guarded.call("weather.forcast", {"city": "Oslo"})
    record = guarded.folder / "record.jsonl"
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    report = toolreg.replay(record)
    assert report.calls == sum(line.get("method") == "tools/call" for line in lines)
    assert report.invalid >= 1 and report.valid >= 1 and report.malformed == 0
    # The calls to the tool the guard withheld and to a misspelt one, after the first listing, are to
    # names the recorded listing does not hold.
    listed = next(index for index, line in enumerate(lines) if "tools" in (line.get("result") or {}))
    unlisted = ("broken", "weather.forcast")
    called = sum(line.get("params", {}).get("name") in unlisted for line in lines[listed:])
    assert report.unknown_tools == called >= 1


@pytest.mark.slow
def test_a_change_upstream_is_announced_and_listed_again_checked_and_progress_passed_on(guarded):
    heard = guarded.changes
    progress = []

    async def report(*said):
        progress.append(said)

    grown = guarded.portal.call(functools.partial(guarded.peer.client.call_tool, "grow", {}, None, report))
    assert not grown.is_error
    assert progress == [(0.5, 1.0, "half way")]  # the upstream's progress, passed on
    guarded.wait_for_change(heard)
    names = [tool.name for page in guarded.list_pages() for tool in page]
    assert names == [tool.name for tool in TOOLS if tool.name != "broken"] + [f"extra{len(TOOLS)}"]
    before = len(reached(guarded))
    assert guarded.call(names[-1], {"any": 1}).is_error is False  # checked against its schema, then sent
    assert len(reached(guarded)) == before + 1


@pytest.mark.slow
@pytest.mark.parametrize("guarded", [LEGACY], indirect=True)
def test_the_upstreams_end_is_an_error_result(guarded):
    # Last of the module: the upstream is gone after it. Over stdio only: a streamable-HTTP upstream
    # that goes away ends the guard's transport, and the guard with it.
    result = guarded.call("crash", {})
    assert result.is_error
    [text] = texts(result)
    assert text.startswith("The upstream server failed to answer the call to crash")
    again = guarded.call("weather.forecast", {"city": "Oslo"})
    assert again.is_error and texts(again)[0].startswith("The upstream server failed")


# -- in process ---------------------------------------------------------------------------------------


def pin_check(tmp_path, new_tools, strict, pinned=None):
    """What a guard pinned to TOOLS (or to the text ``pinned``) says and withholds when the upstream
    lists ``new_tools``."""
    pin = tmp_path / "pin.json"
    tools = [tool.model_dump(by_alias=True, exclude_none=True) for tool in TOOLS]
    pin.write_text(json.dumps({"tools": tools}) if pinned is None else pinned)
    report = namespaces.SimpleNamespace(refused=[namespaces.SimpleNamespace(name="broken")])
    session = namespaces.SimpleNamespace(registry=toolreg.ToolRegistry(), report=report)
    options = GuardOptions(("upstream",), pin=str(pin), pin_strict=strict)
    return _GuardServer(session, options, None)._check_pin(new_tools)


def changed(tool, **schema):
    return tool.model_copy(update={"input_schema": {**tool.input_schema, **schema}})


def test_a_pinned_tool_that_narrows_is_reported_and_withheld_when_strict(tmp_path, capsys):
    narrowed = changed(TOOLS[0], required=["city", "days"])  # a call without days now fails
    widened = changed(TOOLS[1], properties={"count": {}})  # any value
    described = TOOLS[2].model_copy(update={"description": "End it all"})
    titled = changed(TOOLS[3], title="Grow")  # the schema changed, no call it takes or refuses did
    new = [narrowed, widened, described, titled, *TOOLS[4:]]
    assert pin_check(tmp_path, new, strict=False) == {}
    said = capsys.readouterr().err.splitlines()
    assert said == [
        "toolreg guard: weather.forecast changed since pin.json: breaking",
        "toolreg guard: echo changed since pin.json: widening",
        "toolreg guard: crash changed since pin.json: text-only",
        "toolreg guard: grow changed since pin.json: compatible",
    ]
    withheld = pin_check(tmp_path, new, strict=True)
    assert list(withheld) == ["weather.forecast"]


def test_a_pin_that_cannot_be_read_is_said_and_compares_nothing(tmp_path, capsys):
    for pinned in ("not json", "[]", '{"tools": [{"name": "x", "inputSchema": {"type": "strin"}}]}'):
        assert pin_check(tmp_path, TOOLS, strict=True, pinned=pinned) == {}
        said = capsys.readouterr().err
        assert said.startswith("toolreg guard: cannot compare with the pin: "), said


def test_the_upstream_is_asked_for_progress_only_where_the_client_asked_for_it():
    # A progress callback has the SDK ask the upstream for progress (a progressToken in the call's
    # _meta, which the upstream reads on each call): the guard gives one only for a client's token.
    tool = mcp_types.Tool(name="echo", input_schema={"type": "object"})

    def answer(params):
        return mcp_types.CallToolResult(content=[mcp_types.TextContent(text="ok")])

    async def report_progress(*said):
        pass

    ctx = namespaces.SimpleNamespace(session=namespaces.SimpleNamespace(report_progress=report_progress))

    async def scenario(session, sent):
        await session.refresh()
        guard = _GuardServer(session, GuardOptions(("upstream",)), None)
        tokens = []
        for meta in ({}, {"_meta": {"progressToken": "p1"}}):
            params = mcp_types.CallToolRequestParams.model_validate(
                {"name": "echo", "arguments": {}, **meta}, by_name=False
            )
            before = len(sent)
            assert not (await guard._answer(ctx, params)).is_error
            [call] = [message for message in sent[before:] if isinstance(message, mcp_types.JSONRPCRequest)]
            tokens.append((call.params or {}).get("_meta", {}).get("progressToken"))
        assert tokens[0] is None and tokens[1] is not None

    in_process(sdk_server([tool], answer), scenario)


def test_the_guard_serves_without_spans_where_no_tracer_provider_records_them(monkeypatch):
    from mcp.server._otel import OpenTelemetryMiddleware
    from opentelemetry import trace

    session = namespaces.SimpleNamespace(registry=toolreg.ToolRegistry())

    def spans():
        guard = _GuardServer(session, GuardOptions(("upstream",)), None)
        return [each for each in guard.middleware if isinstance(each, OpenTelemetryMiddleware)]

    assert isinstance(trace.get_tracer_provider(), trace.ProxyTracerProvider)  # none set in the tests
    assert spans() == []
    configured = trace.NoOpTracerProvider()  # as opentelemetry-instrument would set one of its own
    monkeypatch.setattr(trace, "get_tracer_provider", lambda: configured)
    assert len(spans()) == 1


def test_the_guard_runs_on_uvloop_where_it_is_installed_and_on_asyncio_where_not(monkeypatch, capfd):
    pytest.importorskip("uvloop", reason="uvloop is not installed (the mcp extra brings it)")
    assert _loop_options() == {"use_uvloop": True}
    loops = []
    real_run = anyio.run

    def run(function, *arguments, backend_options=None):
        loops.append(dict(backend_options or {}))
        return real_run(function, *arguments, backend_options=backend_options)

    monkeypatch.setattr(anyio, "run", run)
    assert main(["guard", "--", sys.executable, "-c", "pass"]) == 2  # either loop reports the end alike
    monkeypatch.setitem(sys.modules, "uvloop", None)  # as where it is not installed: importing it fails
    assert _loop_options() == {}
    assert main(["guard", "--", sys.executable, "-c", "pass"]) == 2
    assert loops == [{"use_uvloop": True}, {}]
    assert capfd.readouterr().err.count("cannot guard") == 2


def test_an_upstream_that_does_not_start_is_bad_input(capfd):
    assert main(["guard", "--", sys.executable, "-c", "pass"]) == 2  # it ends at once
    assert "cannot guard" in capfd.readouterr().err
    assert main(["guard", "--", "/nonexistent/server"]) == 2
    assert "No such file or directory" in capfd.readouterr().err


def test_the_command_needs_an_upstream(capsys):
    assert main(["guard", "--"]) == 2
    assert "needs the upstream server's command" in capsys.readouterr().err
    assert main(["guard", "--upstream", "http://127.0.0.1:9/mcp", "--", "x"]) == 2
    assert "not both" in capsys.readouterr().err
    assert main(["guard", "--pin-strict", "--", "x"]) == 2
    assert "--pin-strict needs --pin" in capsys.readouterr().err


# -- the corpus' tools, behind the guard ----------------------------------------------------------------

SEED = 41
SAMPLED = 48  # tools of the corpus the upstream lists: the calls to them take about a second a version
MOST_INVALID = 6  # invalid calls to each
# Where a schema names a format, a string of it: both validators may assert formats.
FORMATTED = {
    "date-time": "2024-05-01T12:00:00Z",
    "date": "2024-05-01",
    "time": "12:00:00Z",
    "email": "someone@example.com",
    "uri": "https://example.com/a",
    "url": "https://example.com/a",
    "uuid": "123e4567-e89b-12d3-a456-426614174000",
}
# The values a property is given in place of a valid one: most are of another type than it declares.
STRANGERS = ["text", 17, 2.5, True, None, [1, 2], {"k": "v"}, -1, ""]


def value_for(schema, full=False, depth=0):
    """A plain value that often fits ``schema`` (both validators judge it after): the first const, enum
    value or branch, the least a bound allows, an object's required properties (every declared one
    when ``full``)."""
    if not isinstance(schema, dict) or depth > 6:
        return "x"
    if "const" in schema:
        return schema["const"]
    if schema.get("enum"):
        return schema["enum"][0]
    for branches in ("anyOf", "oneOf"):
        if isinstance(schema.get(branches), list) and schema[branches]:
            return value_for(schema[branches][0], full, depth + 1)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((name for name in kind if name != "null"), "null")
    if kind is None:
        kind = "object" if "properties" in schema else "array" if "items" in schema else "string"
    if kind == "object":
        properties = schema.get("properties", {})
        names = (
            list(properties) if full else [name for name in schema.get("required", []) if name in properties]
        )
        return {name: value_for(properties[name], full=False, depth=depth + 1) for name in names}
    if kind == "array":
        return [value_for(schema.get("items"), depth=depth + 1)] * max(schema.get("minItems", 1), 1)
    if kind in ("integer", "number"):
        least = schema.get("minimum", schema.get("exclusiveMinimum", 0) + 1)
        most = schema.get("maximum", schema.get("exclusiveMaximum", least + 10) - 1)
        return min(max(least, 3), most)
    if kind == "string":
        if schema.get("format") in FORMATTED:
            return FORMATTED[schema["format"]]
        return "v" * min(max(schema.get("minLength", 0), 3), schema.get("maxLength", 3))
    return {"boolean": True, "null": None}.get(kind, "x")


@dataclass
class CorpusTool:
    name: str
    schema: dict
    valid: list  # arguments both validators accept
    invalid: list  # (arguments, the text of toolreg's refusal) for arguments both validators refuse


def corpus_tool(record, rng):
    """The calls to one tool of the corpus, or None where toolreg refuses its schema, python-jsonschema
    finds it invalid, or no valid call was found for it."""
    name, schema = record["name"], record["schema"]
    if not isinstance(schema, dict) or schema.get("type") != "object":
        return None
    if not jsonschema.Draft202012Validator(jsonschema.Draft202012Validator.META_SCHEMA).is_valid(schema):
        return None
    registry = toolreg.ToolRegistry()
    report = toolreg.import_mcp(registry, [{"name": name, "inputSchema": schema}], lambda tool: accept_any)
    if report.refused:
        return None
    local, other = report.registered[name], jsonschema.Draft202012Validator(schema)

    def errors(arguments):
        """toolreg's errors for ``arguments``, or None where the two validators disagree."""
        found = registry.validate(local, arguments)
        return found if bool(found) != other.is_valid(arguments) else None

    valid = []
    for full in (False, True):
        arguments = value_for(schema, full)
        found = errors(arguments)
        if found is not None and not found and arguments not in valid:
            valid.append(arguments)
    if not valid:
        return None
    base, properties = valid[-1], schema.get("properties", {})
    required = schema.get("required", [])
    mutated = [{key: value for key, value in base.items() if key != missing} for missing in required]
    for prop in base:
        if isinstance(properties.get(prop), dict):
            strangers = rng.sample(STRANGERS, len(STRANGERS))
            mutated += [
                {**base, prop: stranger} for stranger in strangers if errors({**base, prop: stranger})
            ][:1]
    if schema.get("additionalProperties") is False:
        mutated.append({**base, "not_declared_here": 1})
    invalid = []
    for arguments in mutated:
        found = errors(arguments)
        if found:  # both refuse it
            invalid.append((arguments, toolreg.format_errors(found, tool=name).text))
    if not invalid:
        return None
    return CorpusTool(name, schema, valid, rng.sample(invalid, min(len(invalid), MOST_INVALID)))


@pytest.fixture(scope="module")
def corpus_tools():
    if not RECORDS:
        pytest.skip(f"tool-schema corpus not found at {CORPUS}; set TOOLREG_CORPUS")
    rng = random.Random(SEED)
    records = list(STANDARD)
    rng.shuffle(records)
    tools, names = [], set()
    for record in records:
        if record["name"] in names:
            continue
        tool = corpus_tool(record, rng)
        if tool is not None:
            tools.append(tool)
            names.add(tool.name)
        if len(tools) == SAMPLED:
            return tools
    pytest.fail(f"only {len(tools)} of the corpus' tools have calls both validators judge alike")


@pytest.fixture(scope="module", params=VERSIONS)
def corpus_guarded(request, tmp_path_factory, corpus_tools):
    """A client of ``toolreg guard`` (no option) in front of the counting server listing the sampled
    corpus tools, on one protocol version (2025-11-25 over stdio, 2026-07-28 over streamable HTTP)."""
    folder = tmp_path_factory.mktemp("corpus")
    calls, listed = str(folder / "calls.jsonl"), folder / "tools.json"
    listed.write_text(json.dumps([{"name": tool.name, "inputSchema": tool.schema} for tool in corpus_tools]))
    with contextlib.ExitStack() as stack:
        if request.param == LEGACY:
            upstream = ["--", sys.executable, "-m", "tests.mcp_servers.counting_server", calls, str(listed)]
        else:
            upstream = ["--upstream", stack.enter_context(http_server("counting_server", calls, str(listed)))]
        yield from _guarded(request.param, folder, upstream)


@pytest.mark.slow
def test_no_invalid_call_of_the_corpus_reaches_the_upstream_and_every_valid_one_arrives_unchanged(
    corpus_guarded, corpus_tools
):
    listing = corpus_guarded.portal.call(corpus_guarded.peer.client.list_tools)
    assert [tool.name for tool in listing.tools] == [tool.name for tool in corpus_tools]  # none withheld
    assert sum(len(tool.invalid) for tool in corpus_tools) >= 2 * SAMPLED
    before, sent = len(reached(corpus_guarded)), []
    for tool in corpus_tools:
        for arguments, refusal in tool.invalid:
            result = corpus_guarded.call(tool.name, arguments)
            assert result.is_error and result.structured_content is None, (tool.name, arguments)
            assert texts(result) == [refusal], (tool.name, arguments)
            problems = [line for line in refusal.splitlines() if line.startswith("- ")]
            assert problems and all(line.startswith(("- at /", "- the arguments")) for line in problems)
        for arguments in tool.valid:
            assert not corpus_guarded.call(tool.name, arguments).is_error, (tool.name, arguments)
            sent.append({"name": tool.name, "arguments": arguments})
    assert reached(corpus_guarded)[before:] == sent
