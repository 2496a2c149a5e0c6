"""The guard's own streams: its upstream started over stdio and ended as the MCP specification asks, and
the lane its plain calls take there (a request of its own, answered from the upstream's stdout as it is
read)."""

import asyncio
import json
import os
import sys

import anyio
import pytest

pytest.importorskip("mcp", reason="the MCP SDK is not installed: pip install 'pytoolreg[mcp]'")

import mcp_types as types
from mcp import ClientSession, MCPError
from opentelemetry import baggage, context, trace

import toolreg._guard as guard_module
from toolreg._guard import _started

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
