"""The guard's own streams: its upstream started over stdio and ended as the MCP specification asks, the
lane its plain calls take there (a request of its own, answered from the upstream's stdout as it is
read), and its client served by the SDK's loop for the era it opens in, without Server.run's relay."""

import asyncio
import functools
import json
import os
import sys
import types as namespaces

import anyio
import pytest

pytest.importorskip("mcp", reason="the MCP SDK is not installed: pip install 'pytoolreg[mcp]'")

import mcp_types as types
from mcp import ClientSession, MCPError
from mcp.server import runner
from mcp.server.lowlevel import Server
from mcp.shared.memory import create_client_server_memory_streams
from opentelemetry import baggage, context, trace

import toolreg
import toolreg._guard as guard_module
from toolreg._guard import _serve, _started
from toolreg.mcp import _Answered, server

# An upstream that answers as little as the tests need, and writes each line it reads to the file it is
# given: "echo" gives its arguments back, "refuse" is answered with a JSON-RPC error, "wait" is never
# answered, "leave" ends the process unanswered, "progress" reports progress first.
UPSTREAM = r"""
import json, sys
log = open(sys.argv[1], "a", buffering=1)
names = ("echo", "refuse", "wait", "leave", "progress")
tools = [{"name": name, "inputSchema": {"type": "object"}} for name in names]
def say(message):
    print(json.dumps({"jsonrpc": "2.0", **message}), flush=True)
for line in sys.stdin:
    log.write(line)
    message = json.loads(line)
    ident, method, params = message.get("id"), message.get("method"), message.get("params") or {}
    if ident is None:
        continue
    if method == "initialize":
        info = {"name": "scripted", "version": "1"}
        version = params["protocolVersion"]
        say({"id": ident, "result": {"protocolVersion": version, "capabilities": {}, "serverInfo": info}})
    elif method == "tools/list":
        say({"id": ident, "result": {"tools": tools}})
    elif params.get("name") == "refuse":
        say({"id": ident, "error": {"code": -32602, "message": "refused here", "data": "why"}})
    elif params.get("name") == "leave":
        sys.exit(0)
    elif params.get("name") != "wait":
        if params.get("name") == "progress":
            token = params["_meta"]["progressToken"]
            say({"method": "notifications/progress", "params": {"progressToken": token, "progress": 1}})
        text = json.dumps(params.get("arguments"))
        say({"id": ident, "result": {"content": [{"type": "text", "text": text}]}})
"""


def run_upstream(tmp_path, scenario):
    """``scenario(session, received)`` on a ClientSession in front of UPSTREAM, started by the guard's
    ``_started``; ``received()`` is every message the upstream has read so far."""
    log = tmp_path / "received.jsonl"

    def received():
        return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []

    async def main():
        async with (
            _started([sys.executable, "-c", UPSTREAM, str(log)]) as lane,
            ClientSession(dispatcher=lane) as session,
        ):
            await session.initialize()
            await session.list_tools()
            await scenario(session, received)

    anyio.run(main)
    return received()


def calls(messages):
    return [message for message in messages if message.get("method") == "tools/call"]


async def until(found):
    """Wait until ``found()`` is true (the upstream writes from its own process)."""
    with anyio.fail_after(10):
        while not found():
            await anyio.sleep(0.01)


def test_a_plain_call_takes_the_lane_and_reaches_the_upstream_as_the_sdk_would_send_it(tmp_path):
    results = []

    async def scenario(session, received):
        results.append(await session.call_tool("echo", {"city": "Oslo", "days": [1, 2]}))
        results.append(await session.call_tool("echo"))

    [first, second] = calls(run_upstream(tmp_path, scenario))
    # An id of the lane's own: a string, which the SDK's ids never are.
    assert isinstance(first["id"], str) and isinstance(second["id"], str) and first["id"] != second["id"]
    assert first["params"] == {"name": "echo", "arguments": {"city": "Oslo", "days": [1, 2]}}
    assert second["params"] == {"name": "echo"}  # no arguments given, none sent, as the SDK does
    assert [result.content[0].text for result in results] == ['{"city": "Oslo", "days": [1, 2]}', "null"]
    assert all(isinstance(result, types.CallToolResult) and not result.is_error for result in results)


def test_the_lane_sends_the_contexts_baggage_as_the_sdk_does(tmp_path):
    async def scenario(session, received):
        token = context.attach(baggage.set_baggage("tenant", "blue"))
        try:
            assert not (await session.call_tool("echo", {})).is_error
        finally:
            context.detach(token)

    [call] = calls(run_upstream(tmp_path, scenario))
    assert isinstance(call["id"], str) and call["params"]["_meta"] == {"baggage": "tenant=blue"}


def test_a_call_that_asks_for_progress_goes_the_sdks_way(tmp_path):
    progress = []

    async def report(*said):
        progress.append(said)

    async def scenario(session, received):
        result = await session.call_tool("progress", {}, progress_callback=report)
        assert not result.is_error

    [call] = calls(run_upstream(tmp_path, scenario))
    assert isinstance(call["id"], int) and call["params"]["_meta"]["progressToken"] == call["id"]
    assert progress == [(1.0, None, None)]


def test_with_a_tracer_provider_set_every_call_goes_the_sdks_way(tmp_path, monkeypatch):
    configured = trace.NoOpTracerProvider()  # as opentelemetry-instrument would set one of its own
    monkeypatch.setattr(trace, "get_tracer_provider", lambda: configured)

    async def scenario(session, received):
        assert not (await session.call_tool("echo", {"a": 1})).is_error

    [call] = calls(run_upstream(tmp_path, scenario))
    assert isinstance(call["id"], int)


def test_an_error_the_upstream_answers_is_the_sdks_error(tmp_path):
    async def scenario(session, received):
        with pytest.raises(MCPError) as raised:
            await session.call_tool("refuse", {})
        assert (raised.value.error.code, raised.value.error.message) == (-32602, "refused here")
        assert raised.value.error.data == "why"
        assert not (await session.call_tool("echo", {})).is_error  # and the session goes on

    run_upstream(tmp_path, scenario)


def test_a_cancelled_call_is_cancelled_upstream_too(tmp_path):
    async def scenario(session, received):
        with anyio.move_on_after(10) as waited:
            async with anyio.create_task_group() as tasks:
                tasks.start_soon(session.call_tool, "wait", {})
                await until(lambda: calls(received()))
                tasks.cancel_scope.cancel()
        assert not waited.cancelled_caught
        [call] = calls(received())
        cancelled = {"method": "notifications/cancelled"}
        await until(lambda: any(message.items() >= cancelled.items() for message in received()))
        [notice] = [message for message in received() if message.get("method") == "notifications/cancelled"]
        assert notice["params"] == {"requestId": call["id"], "reason": "caller cancelled"}
        assert not (await session.call_tool("echo", {})).is_error  # the late answer is nobody's

    run_upstream(tmp_path, scenario)


def test_the_upstreams_end_ends_the_call_waiting_and_every_call_after_it(tmp_path):
    async def scenario(session, received):
        for _ in range(2):  # the call it leaves unanswered, then one sent after it has gone
            with pytest.raises(MCPError) as raised:
                await session.call_tool("leave", {})
            assert raised.value.error.code == types.CONNECTION_CLOSED

    run_upstream(tmp_path, scenario)


@pytest.mark.parametrize(
    ("ending", "terminated"),
    [
        ("sys.stdin.read(); print('bye', flush=True)", False),  # it ends when its stdin does
        ("signal.signal(signal.SIGTERM, said); time.sleep(60)", True),  # SIGTERM ends it
        ("signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(60)", False),  # only SIGKILL does
    ],
)
def test_the_upstream_is_ended_by_closing_its_stdin_then_sigterm_then_sigkill(
    tmp_path, monkeypatch, ending, terminated
):
    monkeypatch.setattr(guard_module, "UPSTREAM_GRACE_SECONDS", 0.2)
    pid, marker = tmp_path / "pid", tmp_path / "terminated"
    script = (
        "import os, signal, sys, time\n"
        f"def said(*_): open({str(marker)!r}, 'w').close(); sys.exit(0)\n"
        f"open({str(pid)!r}, 'w').write(str(os.getpid()))\n"
        f"{ending}\n"
    )

    async def main():
        async with _started([sys.executable, "-c", script]):
            await until(lambda: pid.exists() and pid.read_text())

    anyio.run(main)
    with pytest.raises(ProcessLookupError):  # ended, and its exit status read
        os.kill(int(pid.read_text()), 0)
    assert marker.exists() == terminated


# -- the client's side ----------------------------------------------------------------------------------


def served(scenario, opening):
    """``scenario(session)`` on a ClientSession of a toolreg server served by the guard's ``_serve``,
    after ``opening(session)`` (``initialize`` or ``discover``)."""
    registry = toolreg.ToolRegistry()
    half = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    registry.register("math.half", {**half, "additionalProperties": False}, lambda n: n // 2)
    app = server(registry)

    async def main():
        async with (
            create_client_server_memory_streams() as (client, (read, write)),
            anyio.create_task_group() as tasks,
        ):
            tasks.start_soon(_serve, app, _Answered(read, write), write)
            async with ClientSession(*client) as session:
                await opening(session)
                await scenario(session)
            tasks.cancel_scope.cancel()

    anyio.run(main)


def counted(monkeypatch):
    """Count the runs of Server.run and of the SDK's handshake-era loop (wrapped, its signature kept),
    which Server.run runs too, behind its relay."""
    runs = {"Server.run": 0, "handshake loop": 0}
    loop, run = runner._serve_legacy_stream, Server.run

    @functools.wraps(loop)
    async def counted_loop(*args, **kwargs):
        runs["handshake loop"] += 1
        await loop(*args, **kwargs)

    async def counted_run(*args, **kwargs):
        runs["Server.run"] += 1
        await run(*args, **kwargs)

    monkeypatch.setattr(runner, "_serve_legacy_stream", counted_loop)
    monkeypatch.setattr(Server, "run", counted_run)
    return runs


async def halved(session):
    result = await session.call_tool("math.half", {"n": 8})
    assert not result.is_error and result.content[0].text == "4"


def test_a_client_opening_with_initialize_is_served_by_the_handshake_eras_loop_itself(monkeypatch):
    runs = counted(monkeypatch)

    async def scenario(session):
        await halved(session)
        # The era's rules are the SDK's: a request in the 2026-07-28 envelope is refused on it.
        enveloped = types.CallToolRequest(
            params=types.CallToolRequestParams(
                name="math.half", arguments={"n": 8}, _meta={types.PROTOCOL_VERSION_META_KEY: "2026-07-28"}
            )
        )
        with pytest.raises(MCPError) as raised:
            await session.send_request(enveloped, types.CallToolResult)
        assert raised.value.error.code == types.INVALID_REQUEST

    served(scenario, ClientSession.initialize)
    assert runs == {"Server.run": 0, "handshake loop": 1}


def test_any_other_opening_and_an_sdk_without_that_loop_are_served_by_server_run(monkeypatch):
    runs = counted(monkeypatch)
    served(halved, ClientSession.discover)  # 2026-07-28: Server.run decides the era
    assert runs == {"Server.run": 1, "handshake loop": 0}
    # Where the SDK has no such loop, or one that takes other parameters, Server.run serves (and runs
    # the SDK's loop behind its relay).
    monkeypatch.setattr(guard_module, "runner", namespaces.SimpleNamespace())
    served(halved, ClientSession.initialize)
    changed = namespaces.SimpleNamespace(_serve_legacy_stream=lambda server, read_stream: None)
    monkeypatch.setattr(guard_module, "runner", changed)
    served(halved, ClientSession.initialize)
    assert runs == {"Server.run": 3, "handshake loop": 2}


def test_a_client_that_leaves_before_saying_anything_is_served_nothing():
    app = server(toolreg.ToolRegistry())

    async def main():
        async with create_client_server_memory_streams() as (client, (read, write)):
            await client[1].aclose()
            with anyio.fail_after(5):
                await _serve(app, _Answered(read, write), write)

    anyio.run(main)


@pytest.mark.parametrize("pipe", ["connect_read_pipe", "connect_write_pipe"])
def test_an_upstream_whose_pipes_the_loop_cannot_watch_is_ended_and_the_error_raised(
    tmp_path, monkeypatch, pipe
):
    pid = tmp_path / "pid"
    script = f"import os, sys; open({str(pid)!r}, 'w').write(str(os.getpid())); sys.stdin.read()"

    async def refused(*args):
        raise OSError("not watchable")

    async def main():
        monkeypatch.setattr(asyncio.base_events.BaseEventLoop, pipe, refused)
        with pytest.raises(OSError, match="not watchable"):
            async with _started([sys.executable, "-c", script]):
                pass

    anyio.run(main)
    with pytest.raises(ProcessLookupError):
        os.kill(int(pid.read_text()), 0)
