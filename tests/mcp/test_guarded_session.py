"""toolreg.mcp's GuardedSession in front of server processes: a plain SDK server that checks nothing,
and a toolreg server whose tools change while the guard is connected (those tests are marked slow:
`make quick` leaves them out); and, in process, the guard on protocol 2026-07-28."""

import anyio
import pytest
from mcp.server.lowlevel import Server

pytest.importorskip("mcp", reason="the MCP SDK is not installed: pip install 'pytoolreg[mcp]'")

import mcp_types as types
from mcp.client.subscriptions import listen
from mcp.shared.memory import create_client_server_memory_streams

import toolreg
from tests.mcp_servers.clients import CountedWrites, guarded_peer, remote, requests, stdio_params
from toolreg.mcp import GuardedSession, InvalidResultError, ListingLimitError, server


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
def test_every_page_is_imported_and_what_cannot_be_checked_is_reported_and_never_called(plain, marks):
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
    # A tool toolreg cannot check is not sent to the server: the SDK's own check would run in its place.
    result, sent = plain.requests_sent_by(plain.call, "python.pattern", {"tag": "unchecked"})
    assert sent == [] and result.is_error
    assert text(result).startswith("The tool python.pattern was not called: its schema cannot be checked (")
    assert f"{refused.reason} at /properties/tag/pattern" in text(result)
    assert not (marks / "unchecked").exists()


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


# -- in process: a server of the SDK alone, on memory streams --------------------------------------


def sdk_server(tools, answer=None, next_cursor=None):
    """A server of the SDK's own that lists ``tools`` on its first page and a tool ``page.pN`` on each
    page N after it (the cursor after page N is ``next_cursor(N)``, none if not given), and answers
    each call with ``answer(params)``."""

    async def list_tools(ctx, params):
        cursor = params.cursor if params is not None else None
        page = int(cursor) if cursor and cursor.isdigit() else (1 if cursor else 0)
        listed = tools if page == 0 else [types.Tool(name=f"page.p{page}", input_schema={"type": "object"})]
        return types.ListToolsResult(tools=listed, next_cursor=next_cursor(page) if next_cursor else None)

    async def call_tool(ctx, params):
        return answer(params)

    return Server("sdk", on_list_tools=list_tools, on_call_tool=call_tool)


def guarded(app, scenario, **options):
    """``scenario(session, sent)`` on a GuardedSession (protocol 2025-11-25) in front of ``app``, in
    process; ``sent`` collects every message the session writes."""
    sent = []

    async def main():
        async with (
            create_client_server_memory_streams() as (client, served),
            anyio.create_task_group() as tasks,
        ):
            tasks.start_soon(app.run, *served, app.create_initialization_options())
            async with GuardedSession(client[0], CountedWrites(client[1], sent), **options) as session:
                await session.initialize()
                await scenario(session, sent)
            tasks.cancel_scope.cancel()

    anyio.run(main)


# A pattern toolreg refuses (Python's syntax, which ECMA-262 does not read), and backtracks on Python's re:
# each "a" more doubles the time python-jsonschema takes to judge "a…a!" (9 s at 28).
PYTHON_PATTERN = "^(?P<w>a+)+$"


def test_a_tool_toolreg_refuses_is_never_called_nor_checked_by_the_sdk():
    words = {"type": "object", "properties": {"w": {"type": "string", "pattern": PYTHON_PATTERN}}}
    tool = types.Tool(name="py.words", input_schema=words, output_schema=words)
    answered = []

    def answer(params):
        answered.append(params.name)
        return types.CallToolResult(
            content=[types.TextContent(text="x")], structured_content={"w": "a" * 12 + "!"}
        )

    async def scenario(session, sent):
        before = len(sent)
        # The SDK would send it, and then judge its result with python-jsonschema, and raise.
        result = await session.call_tool("py.words", {"w": "a"})
        assert requests(sent[before:]) == ["tools/list"]
        assert result.is_error
        [refusal] = session.report.refused
        assert text(result) == (
            "The tool py.words was not called: its schema cannot be checked "
            f"({refusal.reason} at /properties/w/pattern). "
            "The server must change the tool before it can be called."
        )
        assert "Python's (?P…) syntax is not ECMA-262" in refusal.reason
        await session.validate_tool_result(
            "py.words", types.CallToolResult(content=[], structured_content=None)
        )

    guarded(sdk_server([tool], answer), scenario)
    assert answered == []


def test_a_refusal_reason_reaches_the_model_as_one_printable_line():
    # An unknown keyword is refused at its pointer, which the server's own key writes.
    tool = types.Tool(name="py.odd", input_schema={"type": "object", "x\n\u202e\x1b[31m": 1})

    async def scenario(session, sent):
        said = text(await session.call_tool("py.odd", {}))
        assert said.endswith(
            "at /x\\u000a\\u202e\\u001b[31m). The server must change the tool before it can be called."
        )
        assert said.isprintable()

    guarded(sdk_server([tool]), scenario)


ONE = [types.Tool(name="a.tool", input_schema={"type": "object"})]


@pytest.mark.parametrize(
    ("options", "bound", "pages"),
    [
        ({"max_pages": 5}, "pages", 5),
        ({"max_tools": 3}, "tools", 4),
        ({"list_seconds": 0.05}, "seconds", None),
    ],
)
def test_a_listing_without_end_stops_at_its_bound_and_imports_nothing(options, bound, pages):
    # A server that always sends another cursor: the listing would never end (14,807 pages in 20 s).
    app = sdk_server(ONE, next_cursor=lambda page: str(page + 1))

    async def scenario(session, sent):
        with pytest.raises(ListingLimitError) as raised:
            await session.call_tool("a.tool", {})
        error = raised.value
        assert (error.bound, error.limit) == (
            bound,
            options[f"{'list_' if bound == 'seconds' else 'max_'}{bound}"],
        )
        assert error.pages == (pages or error.pages) and error.tools == error.pages
        assert isinstance(error, toolreg.ToolregError) and isinstance(error, RuntimeError)
        assert str(error).startswith(f"the server's tools/list went on past {error.limit:g} {bound} (")
        assert session.registry.names() == [] and session.report is None
        before = len(sent)
        with pytest.raises(ListingLimitError):  # nothing was imported: the next call lists again
            await session.call_tool("a.tool", {})
        assert requests(sent[before:])[:1] == ["tools/list"]

    guarded(app, scenario, **{"max_pages": 10_000, "list_seconds": 30, **options})


def test_a_repeated_cursor_ends_the_listing_and_the_bounds_are_checked():
    app = sdk_server(ONE, next_cursor=lambda page: "again")

    async def scenario(session, sent):
        report = await session.refresh()
        assert report.registered == {"a.tool": "a.tool", "page.p1": "page.p1"}
        assert requests(sent).count("tools/list") == 2  # the cursor came twice: the listing ends there

    guarded(app, scenario)
    for bound in ("max_pages", "max_tools", "list_seconds"):
        for bad in (0, -1, True, float("inf"), "5"):
            with pytest.raises(toolreg.InvalidCallError, match=f"{bound} must be a positive number"):
                GuardedSession(**{bound: bad})
