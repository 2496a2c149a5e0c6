"""toolreg.mcp's server, driven by the SDK's own clients over stdio and streamable HTTP, on both
protocol versions the SDK speaks; each server is a child process, shared by the tests of a connection
(those tests are marked slow: `make quick` leaves them out), and the details in process."""

import importlib
import io
import json
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import anyio
import pytest

pytest.importorskip("mcp", reason="the MCP SDK is not installed: pip install 'pytoolreg[mcp]'")

import mcp_types as types
from mcp import Client, ClientSession, MCPError, StdioServerParameters, stdio_client
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage

import toolreg
from tests.mcp_servers import catalog, registry_server
from tests.mcp_servers.clients import (
    LEGACY,
    MODERN,
    ROOT,
    http_legacy_peer,
    http_server,
    modern_peer,
    remote,
    stdio_legacy_peer,
    stdio_params,
    wire,
)
from toolreg._cli import main
from toolreg.mcp import _Answered, _serve_stdio, aserve, server

CONNECTIONS = [("stdio", LEGACY), ("stdio", MODERN), ("streamable-http", LEGACY), ("streamable-http", MODERN)]


@pytest.fixture(scope="module")
def marks(tmp_path_factory):
    return tmp_path_factory.mktemp("marks")


@pytest.fixture(scope="module")
def http_url(marks):
    with http_server("registry_server", str(marks)) as url:
        yield url


@pytest.fixture(
    scope="module", params=CONNECTIONS, ids=[f"{transport} {version}" for transport, version in CONNECTIONS]
)
def peer(request, marks):
    transport, version = request.param
    if transport == "stdio":
        params = stdio_params("registry_server", "stdio", str(marks))
        connect, target = (stdio_legacy_peer if version == LEGACY else modern_peer), params
    else:
        url = request.getfixturevalue("http_url")
        connect, target = (http_legacy_peer if version == LEGACY else modern_peer), url
    with remote(connect, target) as connected:
        yield connected


def text(result):
    [block] = result.content
    return block.text


def test_toolreg_alone_does_not_import_the_sdk():
    loaded = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, toolreg; print(sorted(m for m in sys.modules if m.startswith('mcp')))",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert loaded.stdout.strip() == "[]"


def test_without_the_sdk_toolreg_mcp_names_the_extra(monkeypatch):
    monkeypatch.delitem(sys.modules, "toolreg.mcp")
    monkeypatch.setitem(sys.modules, "mcp", None)  # `import mcp` now fails, as when it is not installed
    with pytest.raises(ImportError, match=r"pip install 'pytoolreg\[mcp\]'"):
        importlib.import_module("toolreg.mcp")


@pytest.mark.slow
def test_each_connection_speaks_its_version_and_announces_list_changes(peer, request):
    assert peer.protocol_version == request.node.callspec.params["peer"][1]
    assert peer.peer.tools_capability == types.ToolsCapability(list_changed=True)


@pytest.mark.slow
def test_tools_list_is_the_registrys_export_page_by_page(peer, marks):
    pages = peer.list_pages()
    expected = registry_server.build(marks).export("mcp")
    if peer.protocol_version == LEGACY:
        # Before 2026-07-28 an output schema describes an object: the word counter's is left out.
        del expected[1]["outputSchema"]
    assert [wire(tool) for page in pages for tool in page] == expected
    assert [len(page) for page in pages] == [2, 2, 1]


@pytest.mark.slow
def test_a_bad_call_is_an_error_with_every_pointer_and_the_handler_never_runs(peer, marks):
    tag = f"bad {uuid.uuid4().hex}"  # each run its own: an id() may be reused
    # Arguments a handler would take, and then fail on, having left its mark.
    result = peer.call("demo.add", {"a": "1", "b": 2.5, "tag": tag})
    assert result.is_error
    assert result.structured_content is None  # the errors travel as text
    assert text(result) == (
        "The arguments for demo.add have 2 problems:\n"
        "- at /a: expected integer, got string; write 1 without the quotes\n"
        "- at /b: expected integer, got number\n"
        "Fix these and call again with the corrected arguments."
    )
    assert not (marks / tag).exists()
    # The same call put right runs the handler, which leaves its mark.
    assert not peer.call("demo.add", {"a": 1, "b": 2, "tag": tag}).is_error
    assert (marks / tag).exists()


@pytest.mark.slow
def test_a_good_call_has_content_and_structured_content(peer, marks):
    result = peer.call("demo.add", {"a": 1, "b": 2, "tag": f"good {uuid.uuid4().hex}"})
    assert not result.is_error
    assert result.structured_content == {"sum": 3}
    assert text(result) == '{"sum": 3}'
    counted = peer.call("demo.count_words", {"text": "one two three"})
    assert text(counted) == "3"
    # Any JSON value is structured content from 2026-07-28; before it the tool has no output schema.
    assert counted.structured_content == (3 if peer.protocol_version == MODERN else None)


@pytest.mark.slow
def test_a_timeout_and_an_unknown_tool_are_errors_the_model_can_read(peer):
    late = peer.call("demo.slow", {})
    assert (
        late.is_error and text(late) == "The tool demo.slow did not finish within 200 ms and was abandoned."
    )
    unknown = peer.call("demo.ad", {"a": 1})
    assert unknown.is_error
    assert text(unknown).startswith("There is no tool named 'demo.ad'. Did you mean 'demo.add'")


@pytest.mark.slow
def test_registrations_while_connected_reach_the_client_as_list_changed(peer):
    def listed():
        return {tool.name for page in peer.list_pages() for tool in page}

    name = f"demo.added_{peer.protocol_version.replace('-', '_')}"
    for arguments in ({"name": name}, {"name": name, "delay_ms": 50}):  # in the call, then from a thread
        heard = peer.changes
        peer.call("demo.register", arguments)
        peer.wait_for_change(heard)
        assert name in listed()
        heard = peer.changes
        assert text(peer.call("demo.unregister", {"name": name})) == name
        peer.wait_for_change(heard)
        assert name not in listed()


@pytest.mark.slow
def test_a_handler_abandoned_past_its_time_budget_does_not_keep_a_stdio_server_alive(tmp_path):
    async def call_and_leave():
        params = stdio_params("registry_server", "stdio", str(tmp_path))
        async with stdio_client(params) as streams, ClientSession(*streams) as session:
            await session.initialize()
            assert (await session.call_tool("demo.slow", {})).is_error

    anyio.run(call_and_leave)
    # Written at the server's exit, after Python has joined every thread that is not a daemon: a
    # server still held by the handler's thread would have been killed by the client, unwritten.
    assert (tmp_path / "exited").read_text() == "by itself"


@pytest.mark.slow
def test_the_command_line_serves_a_modules_registry():
    command = StdioServerParameters(
        command=str(Path(sys.executable).with_name("toolreg")),
        args=["serve", "tests.mcp_servers.catalog"],
        cwd=ROOT,
    )

    async def ask():
        async with stdio_client(command) as streams, ClientSession(*streams) as session:
            started = await session.initialize()
            listed = await session.list_tools()
            answered = await session.call_tool("text.shout", {"text": "hello"})
            return started.server_info.name, [wire(tool) for tool in listed.tools], text(answered)

    assert anyio.run(ask) == ("tests.mcp_servers.catalog", catalog.tools.export("mcp"), "HELLO!")


@pytest.mark.parametrize(
    ("module", "said"),
    [
        ("json", "json holds 0 ToolRegistry objects; name one: json:NAME"),
        ("json:loads", "json:loads is not a ToolRegistry but function"),
        (
            "tests.mcp_servers.no_such_module",
            "cannot import tests.mcp_servers.no_such_module: ModuleNotFoundError",
        ),
    ],
)
def test_the_command_line_says_which_registry_it_cannot_serve(module, said, capsys):
    assert main(["serve", module]) == 2
    assert capsys.readouterr().err.startswith(f"toolreg: {said}")


def test_the_command_line_without_the_sdk_names_the_extra(monkeypatch, capsys):
    monkeypatch.delitem(sys.modules, "toolreg.mcp")
    monkeypatch.setitem(sys.modules, "mcp", None)
    assert main(["serve", "tests.mcp_servers.catalog"]) == 2
    assert "pip install 'pytoolreg[mcp]'" in capsys.readouterr().err


# -- in process: the details of a listing ----------------------------------------------------------


def tools_of(registry, mode="legacy", cursor=None):
    """One page of the registry's listing, or the error that answered the request."""

    async def listing():
        async with Client(server(registry), mode=mode) as client:
            try:
                return await client.list_tools(cursor=cursor)
            except MCPError as error:
                return error

    return anyio.run(listing)


def test_a_stale_cursor_is_refused_with_invalid_params():
    registry = toolreg.ToolRegistry()
    registry.register("a.b", {"type": "object"}, lambda **arguments: None)
    refused = tools_of(registry, cursor="a.gone")
    assert isinstance(refused, MCPError) and refused.code == types.INVALID_PARAMS
    assert refused.message == "the cursor 'a.gone' names no tool listed now; list again from the start"
    assert [tool.name for tool in tools_of(registry, cursor="a.b").tools] == []


def test_a_field_the_version_refuses_costs_that_tool_its_field_not_the_listing():
    registry = toolreg.ToolRegistry()
    catalog = [
        {"name": "good", "inputSchema": {"type": "object"}, "icons": [{"src": "https://example.com/a.png"}]},
        {"name": "bad_icons", "inputSchema": {"type": "object"}, "icons": [{"size": "no src"}]},
        {"name": "untyped", "inputSchema": {"properties": {"x": {"type": "string"}}}},
    ]
    assert toolreg.import_mcp(registry, catalog, lambda tool: lambda **arguments: None).ok
    for mode in ("legacy", "auto"):
        listed = {tool.name: wire(tool) for tool in tools_of(registry, mode).tools}
        assert listed["good"]["icons"] == [{"src": "https://example.com/a.png"}]
        assert "icons" not in listed["bad_icons"]
        assert listed["untyped"]["inputSchema"] == {"properties": {"x": {"type": "string"}}, "type": "object"}


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_a_call_that_changes_the_registry_is_announced_at_once(mode):
    registry = toolreg.ToolRegistry()

    def add(**arguments):
        registry.register("a.new", {"type": "object"}, lambda **arguments: "new")
        return "added"

    registry.register("a.add", {"type": "object"}, add)
    heard = []

    async def scenario():
        async def note(message):
            heard.append(type(message).__name__)

        async with Client(server(registry), mode=mode, message_handler=note) as client:
            if mode == "legacy":
                await client.call_tool("a.add", {})
                with anyio.fail_after(5):
                    while not heard:
                        await anyio.sleep(0.01)
            else:
                async with client.listen(tools_list_changed=True) as subscription:
                    await client.call_tool("a.add", {})
                    with anyio.fail_after(5):
                        heard.append(type(await subscription.__anext__()).__name__)

    anyio.run(scenario)
    assert heard[-1] in ("ToolListChangedNotification", "ToolsListChanged")


def test_sync_handlers_run_in_the_registrys_bounded_pool_and_a_full_pool_is_an_error_result():
    registry, running, most = toolreg.ToolRegistry(max_threads=4), [], []
    lock = threading.Lock()

    def crowd():
        with lock:
            running.append(1)
            most.append(len(running))
        time.sleep(0.3)
        with lock:
            running.pop()
        return "done"

    registry.register("a.crowd", {"type": "object", "additionalProperties": False}, crowd)
    results = []

    async def call(client):
        results.append(await client.call_tool("a.crowd", {}))

    async def scenario():
        async with Client(server(registry), mode="legacy") as client, anyio.create_task_group() as tasks:
            for _ in range(9):
                tasks.start_soon(call, client)

    anyio.run(scenario)
    assert max(most) == 4
    refused = [result for result in results if result.is_error]
    assert len(results) == 9 and len(refused) == 9 - len(most)
    assert all("threads for tools are busy" in result.content[0].text for result in refused)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: server({"a.b": None}), "serves a ToolRegistry, not dict"),
        (lambda: server(toolreg.ToolRegistry(), page_size=0), "page_size must be a positive int"),
        (lambda: anyio.run(lambda: aserve(toolreg.ToolRegistry(), "sse")), "transport must be"),
    ],
)
def test_options_out_of_range_are_refused(call, message):
    with pytest.raises(toolreg.InvalidCallError, match=message):
        call()


# -- in process: what a peer cannot do to the server ---------------------------------------------------


class HeldCheck(toolreg.ToolRegistry):
    """A registry whose check of ``held.op``'s arguments waits for ``release`` (at most 2 s): a stand-in
    for a costly validation, which on the event loop would stall every session of the server. The wait
    is in what the registry checks the tool's arguments with, which a call finds with the tool."""

    def __init__(self, release):
        super().__init__()
        self.release = release

    def register(self, name, *args, **options):
        record = super().register(name, *args, **options)
        if name == "held.op":
            entry = self._entry(name)
            entry.answers = HeldAnswers(entry.answers, self.release)
        return record


class HeldAnswers:
    """A tool's check of its arguments, which first waits for ``release`` (at most 2 s)."""

    def __init__(self, answers, release):
        self.answers, self.release = answers, release

    def validate(self, args):
        self.release.wait(2)
        return self.answers.validate(args)


def test_a_costly_check_in_one_call_does_not_stall_another_call_to_the_server():
    release, finished = threading.Event(), []
    registry = HeldCheck(release)
    registry.register("held.op", {"type": "object"}, lambda **arguments: "held")
    registry.register("fast.op", {"type": "object"}, lambda **arguments: "fast")

    async def call(client, name):
        finished.append((await client.call_tool(name, {})).content[0].text)
        if name == "fast.op":
            release.set()

    async def scenario():
        async with Client(server(registry), mode="legacy") as client, anyio.create_task_group() as tasks:
            tasks.start_soon(call, client, "held.op")
            await anyio.sleep(0.05)  # the held call is being checked
            tasks.start_soon(call, client, "fast.op")

    anyio.run(scenario)
    assert finished == ["fast", "held"]


class Listened(toolreg.ToolRegistry):
    """A registry that counts the listeners subscribed to its changes."""

    listeners = 0

    def subscribe(self, callback):
        unsubscribe = super().subscribe(callback)
        self.listeners += 1

        def counted():
            self.listeners -= 1
            unsubscribe()

        return counted


def test_a_client_saying_initialized_again_and_again_gets_one_change_listener():
    registry = Listened()

    def add(**arguments):
        for number in range(20):
            registry.register(f"a.new{number}", {"type": "object"}, lambda **arguments: "new")
        return "added"

    registry.register("a.add", {"type": "object"}, add)
    heard, counted = [], []

    async def scenario():
        async def note(message):
            heard.append(type(message).__name__)

        async with Client(server(registry), mode="legacy", message_handler=note) as client:
            for _ in range(50):
                await client.session.send_notification(types.InitializedNotification())
            await client.session.send_ping()  # the server has taken every notification sent before it
            counted.append(registry.listeners)
            await client.call_tool("a.add", {})
            with anyio.fail_after(5):
                while not heard:
                    await anyio.sleep(0.01)

    anyio.run(scenario)
    # One listener for the connection, which announces the registrations: 51 sent each change 51 times.
    assert counted == [1] and heard[0] == "ToolListChangedNotification"
    assert registry.listeners == 0  # and it went with the connection


SECRET = "connection to postgres://app:s3cr3t@10.0.0.5/prod failed"


def test_the_model_reads_a_handlers_exception_type_and_never_its_message():
    registry = toolreg.ToolRegistry()

    def query(**arguments):
        raise ConnectionError(SECRET)

    def forget(**arguments):
        raise toolreg.ToolError("there is no note named todo")

    registry.register("db.query", {"type": "object"}, query)
    registry.register("notes.forget", {"type": "object"}, forget)

    class Broken(toolreg.ToolRegistry):
        async def acall(self, name, args, **options):
            raise ConnectionError(SECRET)  # a failure of the call path itself

    broken = Broken()
    broken.register("db.query", {"type": "object"}, query)

    async def scenario():
        async with Client(server(registry), mode="legacy") as client:
            hidden = await client.call_tool("db.query", {})
            told = await client.call_tool("notes.forget", {})
        async with Client(server(broken), mode="legacy") as client:
            crashed = await client.call_tool("db.query", {})
        return hidden, told, crashed

    hidden, told, crashed = anyio.run(scenario)
    assert hidden.is_error and text(hidden) == "The tool db.query failed: ConnectionError"
    assert told.is_error and text(told) == "The tool notes.forget failed: there is no note named todo"
    assert crashed.is_error
    assert text(crashed) == "The call to 'db.query' failed inside the server: ConnectionError"
    assert "s3cr3t" not in json.dumps([result.model_dump(mode="json") for result in (hidden, crashed)])


# Lines the SDK's stdio reader cannot read, each with the error and id the server answers it with.
UNREADABLE = [
    ('{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "a", "arguments": {"n": '
     + "9" * 5000 + "}}}", -32700, 1),
    ('{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "a", "arguments": {"n": '
     + "[" * 300 + "]" * 300 + "}}}", -32700, 2),
    ('{"jsonrpc": "2.0", "id": "three", "method": "tools/call", "params": {"name": "a", "arguments": '
     '{"\\ud800": 1}}}', -32700, "three"),
    ('{"jsonrpc": "2.0", "id": 4, "method": "tools/ca', -32700, None),
    ('{"jsonrpc": "2.0", "id": ' + "5" * 5000 + ', "method": "ping"}', -32700, None),
    ("[1, 2]", -32600, None),
    ('{"jsonrpc": "2.0", "id": 7}', -32600, 7),
    ('{"jsonrpc": "2.0", "id": true, "method": 8}', -32600, None),
]  # fmt: skip


def served_stdio(lines, *, answered=True):
    """What a server writes to its stdout for ``lines`` on its stdin, each written line read as JSON."""
    stdin = anyio.wrap_file(io.StringIO("".join(line + "\n" for line in lines)))
    stdout = io.StringIO()
    app = server(toolreg.ToolRegistry())

    async def serve():
        if answered:
            await _serve_stdio(app, stdin, anyio.wrap_file(stdout))
        else:  # the SDK alone
            async with stdio_server(stdin, anyio.wrap_file(stdout)) as (read, write):
                await app.run(read, write, app.create_initialization_options())

    anyio.run(serve)
    return [json.loads(line) for line in stdout.getvalue().splitlines()]


def test_over_stdio_every_line_the_sdk_cannot_read_is_answered_with_a_json_rpc_error():
    lines = [line for line, _, _ in UNREADABLE]
    assert served_stdio(lines, answered=False) == []  # the SDK drops each without a word
    # initialize is answered before the next line is read: its answer is written whenever the input ends.
    initialize = {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"},
    }
    written = served_stdio(
        [*lines, json.dumps({"jsonrpc": "2.0", "id": 9, "method": "initialize", "params": initialize})]
    )
    errors = written[: len(lines)]
    assert [(error["error"]["code"], error["id"]) for error in errors] == [
        (code, identifier) for _, code, identifier in UNREADABLE
    ]
    assert errors[0]["error"]["message"].startswith("Parse error: Invalid JSON: number out of range")
    assert errors[5]["error"]["message"] == "Invalid Request: not a JSON-RPC 2.0 message MCP reads"
    assert [message["id"] for message in written[len(lines) :]] == [9]  # and it reads on


def test_the_answering_stream_answers_any_exception_and_hands_on_the_messages():
    ping = SessionMessage(types.JSONRPCRequest(jsonrpc="2.0", id=1, method="ping"))

    async def scenario():
        send, receive = anyio.create_memory_object_stream(5)
        answers, answered = anyio.create_memory_object_stream(5)
        await send.send(OSError("torn"))  # a transport's own failure, not its parser's
        await send.send(ping)
        await send.aclose()
        async with _Answered(receive, answers) as stream, answers, answered:
            got = [item async for item in stream]
            return got, answered.receive_nowait().message

    got, error = anyio.run(scenario)
    assert got == [ping]
    assert (error.id, error.error.code, error.error.message) == (None, types.PARSE_ERROR, "Parse error")

    async def client_gone():
        send, receive = anyio.create_memory_object_stream(5)
        answers, answered = anyio.create_memory_object_stream(5)
        await answered.aclose()  # no one reads the answers any more
        async with send, answers:
            await send.send(OSError("torn"))
            await send.send(ping)
            async with _Answered(receive, answers) as stream:
                return await stream.receive()

    assert anyio.run(client_gone) == ping  # the answer is dropped, and the messages still read
