"""MCP on the official SDK (the ``mcp`` extra): serve a registry, and guard a client session."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import socket
import sys
from collections.abc import AsyncIterator
from typing import Any, Literal, Self

try:
    import anyio
    import anyio.to_thread
    import mcp_types
    import uvicorn
    from mcp import MCPError
    from mcp.server.context import ServerRequestContext
    from mcp.server.lowlevel import NotificationOptions, Server
    from mcp.server.models import InitializationOptions
    from mcp.server.stdio import stdio_server
    from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler, ToolsListChanged
    from mcp.shared.message import SessionMessage
    from mcp_types.methods import serialize_server_result
    from mcp_types.version import MODERN_PROTOCOL_VERSIONS
    from pydantic import ValidationError as ModelError
except ImportError as missing:
    raise ImportError(
        f"toolreg.mcp needs the MCP SDK ({missing}): pip install 'pytoolreg[mcp]' "
        "(from a checkout: pip install '.[mcp]')",
        name=missing.name,
    ) from missing

# toolreg's public API only, as any user of it would: the modules behind it may move.
from . import (
    CallResult,
    InvalidCallError,
    ToolRecord,
    ToolRegistry,
    UnknownToolError,
)

# Guarding a client session, in a module of its own; its listing bounds are read here too (docs/mcp.md).
from ._guarded_session import LIST_SECONDS as LIST_SECONDS
from ._guarded_session import MAX_LIST_PAGES as MAX_LIST_PAGES
from ._guarded_session import MAX_LISTED_TOOLS as MAX_LISTED_TOOLS
from ._guarded_session import GuardedSession, InvalidResultError, ListingLimitError

# And the one answer to a failed call, which answer(provider="mcp") writes too.
from ._providers.mcp import failure_result

__all__ = ["server", "serve", "aserve", "GuardedSession", "InvalidResultError", "ListingLimitError"]

logger = logging.getLogger(__name__)

Transport = Literal["stdio", "streamable-http"]
# How many tools one tools/list page holds: more than most servers have, so most clients, which may
# not follow cursors, see every tool at once, while a page of a large registry stays a bounded message.
PAGE_SIZE = 200
# The fields of an MCP tool that register's own arguments set: all a listing keeps of a tool whose
# other fields (meta from an import: icons, _meta...) the negotiated protocol version refuses.
_MODELLED = ("name", "title", "description", "inputSchema", "outputSchema")
_HINTS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")
# An integer id longer than this is no id a client sent back to match its request.
_ID_DIGITS = 100


# -- serving a registry -------------------------------------------------------------------------------


def server(
    registry: ToolRegistry,
    *,
    name: str = "toolreg",
    version: str = "",
    instructions: str | None = None,
    page_size: int = PAGE_SIZE,
) -> Server[Any]:
    """The SDK's low-level ``Server`` for ``registry``, to run over any transport the SDK has.

    ``tools/list`` is the registry's ``export("mcp")``, as the SDK's typed models, ``page_size`` tools
    a page (the cursor names the last tool of the page before). Each listing fits the protocol version
    the client negotiated: an input schema's root ``type`` is ``"object"`` (a tool's arguments are
    one), and before 2026-07-28, where an output schema must describe an object, a tool whose output
    schema does not is listed without it (its result then travels as text alone). A field the version
    refuses (an imported tool's malformed ``icons``) is dropped from that tool, never failing the list.

    ``tools/call`` goes through the registry's own call path: every argument error with its pointer,
    the tool's time budget, retries of idempotent tools, the output schema. Every outcome is a
    ``CallToolResult``: the output as text, and as ``structuredContent`` when the listed tool has an
    output schema (any JSON value on 2026-07-28, an object before); a failure, an unknown tool among
    them (with the nearest names), as ``isError`` with its text, which the model reads to correct
    itself, and no ``structuredContent`` (clients check that against the output schema even on errors).
    Of a handler's exception the model reads the message of a ToolError and the type of any other
    (see :class:`~toolreg.ToolRegistry`), as of a failure inside the call path itself. A handler never
    runs on arguments its schema refuses. The arguments are checked, and a sync handler runs, in the
    registry's own pool of daemon threads (``max_threads`` at once; a call finding them all busy is
    answered so), never on the event loop every session shares, so one abandoned past its time budget
    never keeps the process alive after its client has left.

    Changes to the registry while a client is connected (a registration, an unregistration, an
    import) reach it as ``notifications/tools/list_changed``: on the connection before 2026-07-28 (one
    listener for each connection, however often it sends ``notifications/initialized``), on each
    ``subscriptions/listen`` stream from 2026-07-28; ``listChanged`` is advertised on every transport.
    """
    return _RegistryServer(
        registry, name=name, version=version, instructions=instructions, page_size=page_size
    )


def serve(
    registry: ToolRegistry,
    transport: Transport = "stdio",
    *,
    name: str = "toolreg",
    version: str = "",
    instructions: str | None = None,
    host: str = "127.0.0.1",
    port: int = 8000,
    path: str = "/mcp",
    page_size: int = PAGE_SIZE,
) -> None:
    """Serve ``registry`` until the client leaves (stdio) or the process is stopped (streamable HTTP);
    see :func:`server` and :func:`aserve`."""
    anyio.run(
        functools.partial(
            aserve,
            registry,
            transport,
            name=name,
            version=version,
            instructions=instructions,
            host=host,
            port=port,
            path=path,
            page_size=page_size,
        )
    )


async def aserve(
    registry: ToolRegistry,
    transport: Transport = "stdio",
    *,
    name: str = "toolreg",
    version: str = "",
    instructions: str | None = None,
    host: str = "127.0.0.1",
    port: int = 8000,
    path: str = "/mcp",
    page_size: int = PAGE_SIZE,
) -> None:
    """:func:`serve` in a running event loop (asyncio), to embed in an application.

    ``"stdio"`` serves one client on the process's stdin and stdout, and returns when it leaves; a
    line the SDK's reader cannot read (not JSON, JSON its parser refuses, not a JSON-RPC message),
    which the SDK drops, is answered with a JSON-RPC error (-32700 or -32600), with the request's id
    when it can be read. ``"streamable-http"`` serves ``http://host:port/path`` until cancelled (or
    the process is interrupted), and writes that address to stderr once it takes connections;
    ``port=0`` takes a free port. A loopback host gets the SDK's DNS-rebinding protection.
    """
    if transport not in ("stdio", "streamable-http"):
        raise InvalidCallError(f"transport must be 'stdio' or 'streamable-http', not {transport!r}")
    app = server(registry, name=name, version=version, instructions=instructions, page_size=page_size)
    if transport == "stdio":
        await _serve_stdio(app)
        return
    http = app.streamable_http_app(streamable_http_path=path, host=host)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.create_server((host, port), family=family) as listening:
        bound = listening.getsockname()[1]
        shown = f"[{host}]" if family == socket.AF_INET6 else host
        print(f"toolreg: serving {name} at http://{shown}:{bound}{path}", file=sys.stderr, flush=True)
        await uvicorn.Server(uvicorn.Config(http, log_level="warning")).serve(sockets=[listening])


async def _serve_stdio(app: Server[Any], stdin: Any = None, stdout: Any = None) -> None:
    """Serve ``app`` on the SDK's stdio transport (on ``stdin`` and ``stdout`` when given, anyio files),
    every line it cannot read answered."""
    async with stdio_server(stdin, stdout) as (read, write):
        await app.run(_Answered(read, write), write, app.create_initialization_options())


class _Answered:
    """A transport's read stream whose unreadable lines are answered with a JSON-RPC error.

    The SDK's stdio reader hands the server an exception for a line it cannot read (a truncated line,
    an integer of 5,000 digits, nesting 300 deep, a lone surrogate in a key, an object that is no
    JSON-RPC message), which the server drops without a word, leaving a client to wait for an answer
    that never comes. This answers each one on the write stream, in the reader's own loop, and gives
    the server the next message instead."""

    def __init__(self, read: Any, write: Any) -> None:
        self._read = read
        self._write = write

    @property
    def last_context(self) -> Any:
        # The SDK reads the sender's context of each message from its stream, where one keeps it.
        return getattr(self._read, "last_context", None)

    async def receive(self) -> Any:
        while True:
            item = await self._read.receive()
            if not isinstance(item, Exception):
                return item
            with contextlib.suppress(anyio.BrokenResourceError, anyio.ClosedResourceError):
                await self._write.send(SessionMessage(_unread(item)))  # the client may be gone

    async def aclose(self) -> None:
        await self._read.aclose()

    def __aiter__(self) -> Self:
        return self

    async def __anext__(self) -> Any:
        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exception: object) -> None:
        await self.aclose()


def _unread(problem: Exception) -> mcp_types.JSONRPCError:
    """The JSON-RPC error answering a line the SDK's reader refused with ``problem``: a parse error for
    text it could not read as JSON, an invalid request for JSON that is no JSON-RPC message; the id of
    the request when a plain JSON reader finds one, else null (as JSON-RPC asks)."""
    errors = problem.errors() if isinstance(problem, ModelError) else []
    found: dict[str, Any] = dict(errors[0]) if errors else {}
    sent = found.get("input")
    if found.get("type") == "json_invalid":
        code, message = mcp_types.PARSE_ERROR, f"Parse error: {str(found.get('msg', ''))[:200]}"
        try:  # JSON the SDK's parser refuses may still be JSON (a long integer, deep nesting)
            sent = json.loads(sent, parse_int=_short_int) if isinstance(sent, str) else None
        except (ValueError, RecursionError):
            sent = None
    elif found:
        code, message = mcp_types.INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 message MCP reads"
    else:
        code, message = mcp_types.PARSE_ERROR, "Parse error"
    identifier = sent.get("id") if isinstance(sent, dict) else None
    if isinstance(identifier, bool) or not isinstance(identifier, (int, str)):
        identifier = None
    return mcp_types.JSONRPCError(
        jsonrpc="2.0", id=identifier, error=mcp_types.ErrorData(code=code, message=message)
    )


def _short_int(digits: str) -> int | None:
    return int(digits) if len(digits) <= _ID_DIGITS else None


class _RegistryServer(Server[Any]):
    """A low-level Server whose tools are a registry's."""

    def __init__(
        self, registry: ToolRegistry, *, name: str, version: str, instructions: str | None, page_size: int
    ) -> None:
        if not isinstance(registry, ToolRegistry):
            raise InvalidCallError(f"server() serves a ToolRegistry, not {type(registry).__name__}")
        if isinstance(page_size, bool) or not isinstance(page_size, int) or page_size < 1:
            raise InvalidCallError(f"page_size must be a positive int, not {page_size!r}")
        self.registry = registry
        self._page_size = page_size
        # Each protocol version's listing, kept with the registry's version it was made at.
        self._listings: dict[str, tuple[int, list[mcp_types.Tool]]] = {}
        # The connections changes are announced to, each by one listener however often it says it
        # is initialized.
        self._announcing: set[Any] = set()
        super().__init__(
            name,
            version=version,
            instructions=instructions,
            on_list_tools=self._list_tools,
            on_call_tool=self._call_tool,
            on_subscriptions_listen=self._listen,
        )
        self.add_notification_handler(
            "notifications/initialized", mcp_types.NotificationParams, self._announce_changes
        )

    def create_initialization_options(
        self,
        notification_options: NotificationOptions | None = None,
        experimental_capabilities: dict[str, dict[str, Any]] | None = None,
        extensions: dict[str, dict[str, Any]] | None = None,
    ) -> InitializationOptions:
        # The SDK's HTTP transport asks without options, which would advertise listChanged: false.
        return super().create_initialization_options(
            notification_options or NotificationOptions(tools_changed=True),
            experimental_capabilities,
            extensions,
        )

    async def _list_tools(
        self, ctx: ServerRequestContext[Any, Any], params: mcp_types.PaginatedRequestParams | None
    ) -> mcp_types.ListToolsResult:
        tools = self._listing(ctx.protocol_version)
        start = 0
        cursor = params.cursor if params is not None else None
        if cursor is not None:
            start = next((index + 1 for index, tool in enumerate(tools) if tool.name == cursor), -1)
            if start < 0:
                raise MCPError(
                    mcp_types.INVALID_PARAMS,
                    f"the cursor {cursor[:200]!r} names no tool listed now; list again from the start",
                )
        page = tools[start : start + self._page_size]
        more = start + len(page) < len(tools)
        return mcp_types.ListToolsResult(tools=page, next_cursor=page[-1].name if more else None)

    def _listing(self, version: str) -> list[mcp_types.Tool]:
        made_at = self.registry.version  # read before the export: a change between them lists again
        kept = self._listings.get(version)
        if kept is not None and kept[0] == made_at:
            return kept[1]
        tools = [_wire_tool(tool, version) for tool in self.registry.export("mcp")]
        listing = [tool for tool in tools if tool is not None]
        self._listings[version] = (made_at, listing)
        return listing

    async def _call_tool(
        self, ctx: ServerRequestContext[Any, Any], params: mcp_types.CallToolRequestParams
    ) -> mcp_types.CallToolResult:
        arguments = {} if params.arguments is None else params.arguments
        try:
            record: ToolRecord | None = self.registry.get(params.name)
        except UnknownToolError:
            record = None  # the call path answers with the nearest names
        try:
            result = await self.registry.acall(params.name, arguments)
        except Exception as error:  # toolreg's own failure (or a subclass's): the SDK would send its text
            logger.exception("tools/call %s failed inside the server", params.name[:200])
            text = f"The call to {params.name[:200]!r} failed inside the server: {type(error).__name__}"
            return mcp_types.CallToolResult(content=[mcp_types.TextContent(text=text)], is_error=True)
        structured = record is not None and _listed_output_schema(record.output_schema, ctx.protocol_version)
        return _call_tool_result(result, structured=structured)

    async def _announce_changes(
        self, ctx: ServerRequestContext[Any, Any], params: mcp_types.NotificationParams
    ) -> None:
        # Before 2026-07-28: from the client's notifications/initialized for as long as the connection
        # lasts (the SDK cancels this handler when the client leaves). A client may say it is
        # initialized again and again: each connection gets one listener, or every change would be
        # sent once per repeat (20,000 repeats made 42,173 notifications of 200 registrations). The
        # SDK makes a session for each message, all of one connection, which it exposes to no handler
        # but as this attribute (mcp 2.x).
        connection = ctx.session._connection
        if connection in self._announcing:
            return
        self._announcing.add(connection)
        try:
            async for _ in _changes(self.registry):
                await ctx.session.send_tool_list_changed()
        finally:
            self._announcing.discard(connection)

    async def _listen(
        self, ctx: ServerRequestContext[Any, Any], params: mcp_types.SubscriptionsListenRequestParams
    ) -> mcp_types.SubscriptionsListenResult:
        # From 2026-07-28: changes are sent on each listen stream, which a bus of its own feeds.
        bus = InMemorySubscriptionBus()

        async def publish() -> None:
            async for _ in _changes(self.registry):
                await bus.publish(ToolsListChanged())

        async with anyio.create_task_group() as tasks:
            tasks.start_soon(publish)
            result = await ListenHandler(bus)(ctx, params)
            tasks.cancel_scope.cancel()
        return result


def _wire_tool(exported: dict[str, Any], version: str) -> mcp_types.Tool | None:
    """A tool of ``export("mcp")`` as ``version`` of the protocol takes it, or None (logged) if none."""
    tool = dict(exported)
    if tool["inputSchema"].get("type") != "object":
        tool["inputSchema"] = {**tool["inputSchema"], "type": "object"}
    if "outputSchema" in tool and not _listed_output_schema(tool["outputSchema"], version):
        del tool["outputSchema"]
    annotations = tool.get("annotations", {})
    bare = {key: tool[key] for key in _MODELLED if key in tool}
    bare["annotations"] = {key: annotations[key] for key in _HINTS if key in annotations}
    for candidate in (tool, bare):
        try:
            model = mcp_types.Tool.model_validate(candidate, by_name=False)
            page = mcp_types.ListToolsResult(tools=[model])
            serialize_server_result(
                "tools/list", version, page.model_dump(by_alias=True, mode="json", exclude_none=True)
            )
        except ModelError as error:
            refused = error
        else:
            if candidate is bare:
                logger.warning("tools/list: %s is listed without its other fields: %s", tool["name"], refused)
            return model
    logger.warning(
        "tools/list: %s is left out, as protocol %s refuses it: %s", tool["name"], version, refused
    )
    return None


def _listed_output_schema(schema: Any, version: str) -> bool:
    """Whether a tool's output schema is listed on ``version``: any schema from 2026-07-28, before it
    one that describes an object."""
    if schema is None:
        return False
    return version in MODERN_PROTOCOL_VERSIONS or (
        isinstance(schema, dict) and schema.get("type") == "object"
    )


def _call_tool_result(result: CallResult, *, structured: bool) -> mcp_types.CallToolResult:
    if not result.ok:  # in the one shape answer(provider="mcp") gives too
        return mcp_types.CallToolResult.model_validate(failure_result(result))
    content: list[mcp_types.ContentBlock] = [mcp_types.TextContent(text=result.text)]
    if structured:
        return mcp_types.CallToolResult(content=content, structured_content=result.output)
    return mcp_types.CallToolResult(content=content)


async def _changes(registry: ToolRegistry) -> AsyncIterator[None]:
    """Yield after each change of the registry's tools (a registration, a removal, an import), made
    in any thread; several changes made while one is being announced are announced once."""
    loop = asyncio.get_running_loop()
    changed = asyncio.Event()

    def note(version: int) -> None:
        # Called in the thread that made the change; the event belongs to this loop.
        with contextlib.suppress(RuntimeError):  # the loop has closed: no one listens any more
            loop.call_soon_threadsafe(changed.set)

    unsubscribe = registry.subscribe(note)
    try:
        while True:
            await changed.wait()
            changed.clear()
            yield
    finally:
        unsubscribe()
