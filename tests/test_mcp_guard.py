"""toolreg.mcp's GuardedSession in front of server processes: a plain SDK server that checks nothing,
and a toolreg server whose tools change while the guard is connected (those tests are marked slow:
`make quick` leaves them out); and, in process, the guard on protocol 2026-07-28."""

import anyio
import pytest

pytest.importorskip("mcp", reason="the MCP SDK is not installed: pip install 'pytoolreg[mcp]'")

import mcp_types as types
from mcp.client.subscriptions import listen
from mcp.shared.memory import create_client_server_memory_streams

import toolreg
from tests.mcp_servers.clients import CountedWrites, guarded_peer, remote, requests, stdio_params
from toolreg.mcp import GuardedSession, InvalidResultError, server


@pytest.fixture(scope="module")
def marks(tmp_path_factory):
    return tmp_path_factory.mktemp("marks")


@pytest.fixture(scope="module")
def plain(marks):
    """A GuardedSession in front of a server that validates nothing, the writes to it counted."""
    with remote(guarded_peer, stdio_params("plain_server", str(marks))) as connected:
        yield connected


def text(result):
    [block] = result.content
    return block.text


@pytest.mark.slow
def test_an_invalid_call_is_refused_without_being_sent(plain, marks):
    result, sent = plain.requests_sent_by(plain.call, "math.add", {"a": "1", "b": 2, "tag": "refused"})
    assert "tools/call" not in sent  # at most the listing, if this is the first call
    assert not (marks / "refused").exists()
    assert result.is_error
    assert text(result) == (
        "The arguments for math.add have 1 problem:\n"
        "- at /a: expected integer, got string; write 1 without the quotes\n"
        "Fix these and call again with the corrected arguments."
    )


@pytest.mark.slow
def test_a_valid_call_is_sent_and_answered(plain, marks):
    result, sent = plain.requests_sent_by(plain.call, "math.add", {"a": 1, "b": 2, "tag": "sent"})
    assert sent.count("tools/call") == 1
    assert (marks / "sent").read_text() == "received"
    assert not result.is_error and result.structured_content == {"sum": 3}


@pytest.mark.slow
def test_a_result_that_breaks_its_output_schema_is_an_error_in_toolregs_words(plain):
    result = plain.call("math.bad_sum", {"a": 1, "b": 2, "tag": "bad_sum"})
    assert result.is_error
    assert text(result) == (
        "The result of math.bad_sum does not match its output schema; it has 1 problem:\n"
        "- at /sum: expected integer, got string\n"
        "The tool, not the call, is at fault: calling again with other arguments will not mend it."
    )


@pytest.mark.slow
def test_every_page_is_imported_and_what_cannot_be_checked_is_reported_and_passed_through(plain, marks):
    session = plain.peer.client
    report, sent = plain.requests_sent_by(plain.portal.call, session.refresh)
    assert sent == ["tools/list", "tools/list"]  # two tools a page: the cursor was followed
    assert report is session.report
    assert report.registered == {
        "math.add": "math.add",
        "math.bad_sum": "math.bad_sum",
        "getUser": "get_user",
    }
    assert session.registry.names() == ["math.add", "math.bad_sum", "get_user"]
    [refused] = report.refused
    assert (refused.name, refused.schema_path) == ("python.pattern", "/properties/tag/pattern")
    # A tool toolreg cannot check goes to the server as it is, which answers.
    result, sent = plain.requests_sent_by(plain.call, "python.pattern", {"tag": "unchecked"})
    assert sent == ["tools/call"] and text(result) == "python.pattern ran"
    assert (marks / "unchecked").exists()


@pytest.mark.slow
def test_after_list_changed_the_guard_checks_the_tool_as_it_is_now(tmp_path):
    with remote(guarded_peer, stdio_params("registry_server", "stdio", str(tmp_path))) as guarded:
        for closed in (False, True):  # first any arguments, then none
            heard = guarded.changes
            guarded.call("demo.register", {"name": "demo.fresh", "closed": closed})
            guarded.wait_for_change(heard)  # the message_handler given to the guard hears it too
            result, sent = guarded.requests_sent_by(guarded.call, "demo.fresh", {"x": 1})
            if closed:
                assert sent == ["tools/list", "tools/list", "tools/list"]  # listed again; the call not sent
                assert result.is_error and 'must not have the property "x"' in text(result)
            else:
                assert not result.is_error and text(result) == "hello"
        assert "demo.fresh" in guarded.peer.client.registry


def test_validate_tool_result_raises_in_toolregs_words():
    error = InvalidResultError(
        "math.sum", [toolreg.ValidationError("/sum", "/properties/sum/type", "type", "no")]
    )
    assert isinstance(error, RuntimeError) and isinstance(error, toolreg.ToolregError)
    assert str(error) == error.text and error.text.splitlines()[1] == "- at /sum: no"


def test_on_2026_07_28_the_guard_refuses_passes_and_hears_changes_on_a_listen_stream():
    registry = toolreg.ToolRegistry()
    half = {"type": "object", "properties": {"n": {"type": "integer"}}, "additionalProperties": False}

    def halve(n=0):
        return n // 2

    def grow():
        registry.register(
            "math.half",
            {**half, "properties": {"n": {"type": "integer", "maximum": 9}}},
            halve,
            override=True,
        )
        return "grown"

    registry.register("math.half", half, halve)
    registry.register("math.grow", {"type": "object", "additionalProperties": False}, grow)
    app = server(registry)
    sent, heard = [], []

    async def note(message):
        heard.append(message)

    async def scenario():
        async with (
            create_client_server_memory_streams() as (client, served),
            anyio.create_task_group() as tasks,
        ):
            tasks.start_soon(app.run, *served, app.create_initialization_options())
            async with GuardedSession(
                client[0], CountedWrites(client[1], sent), message_handler=note
            ) as session:
                await session.discover()
                assert session.protocol_version == "2026-07-28"
                before = len(sent)
                assert (await session.call_tool("math.half", {"n": "8"})).is_error
                assert "tools/call" not in requests(sent[before:])
                assert (await session.call_tool("math.half", {"n": 8})).content[0].text == "4"
                # Changes come only on a listen stream, whose events reach the message handler too.
                async with listen(session, tools_list_changed=True):
                    await session.call_tool("math.grow", {})
                    with anyio.fail_after(5):
                        while not any(
                            isinstance(message, types.ToolListChangedNotification) for message in heard
                        ):
                            await anyio.sleep(0.01)
                    before = len(sent)
                    refused = await session.call_tool("math.half", {"n": 10})
                    assert requests(sent[before:]) == ["tools/list"]
                    assert refused.is_error and "at /n: must be at most 9" in text(refused)
            tasks.cancel_scope.cancel()

    anyio.run(scenario)
