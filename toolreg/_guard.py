"""``toolreg guard -- CMD ARGS...``: an MCP server in front of another, which checks what passes.

The upstream server runs as a child process over stdio (or is reached over streamable HTTP with
``--upstream URL``); the guard speaks to it as a
:class:`~toolreg.mcp.GuardedSession` (protocol 2025-11-25), and to its own client on stdio in either
protocol era (the SDK's ``Server.run`` takes whichever the client opens with). Every tool the upstream
lists is imported into a registry, its schemas checked; every call is validated before it is sent and
every structured result after. Only the CLI imports this module.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import os
import sys
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import anyio
import anyio.to_thread
import mcp_types
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.server.context import ServerRequestContext
from mcp.shared.message import SessionMessage

from . import ToolDiff, ToolregError, diff
from ._guarded_session import GuardedSession, _off_the_loop, _one_line, _refusal_reason
from ._repair import Repair, repair_arguments, repair_note
from .mcp import _Answered, _RegistryServer, _serve_stdio

__all__ = ["GuardOptions", "UpstreamError", "run"]

logger = logging.getLogger("toolreg.guard")

# The longest line the guard reads from its client: a message past it is answered as unreadable.
MAX_LINE_BYTES = 64 * 1024 * 1024
# Where a listing says which tools the guard withheld, and why.
WITHHELD_META = "toolreg/withheld"
# A call's arguments as the SDK reads them.
Arguments = dict[str, Any] | None


@dataclass(frozen=True)
class GuardOptions:
    """What ``toolreg guard`` was asked to do (see its ``--help``)."""

    command: tuple[str, ...]  # the upstream's command, or () for ``upstream_url``
    pass_refused: bool = False
    repair: bool = False
    record: str | None = None
    pin: str | None = None
    pin_strict: bool = False
    upstream_url: str | None = None  # a streamable-HTTP upstream


@contextlib.asynccontextmanager
async def _connected(options: GuardOptions) -> AsyncIterator[tuple[Any, Any]]:
    """The upstream's read and write streams: its command started over stdio (with the guard's
    environment), or its URL over streamable HTTP."""
    if options.upstream_url is not None:
        async with streamable_http_client(options.upstream_url) as streams:
            yield streams[0], streams[1]
        return
    program, *arguments = options.command
    upstream = StdioServerParameters(command=program, args=arguments, env=dict(os.environ))
    async with stdio_client(upstream, errlog=sys.stderr) as (read, write):
        yield read, write


class UpstreamError(ToolregError, RuntimeError):
    """The upstream server could not be started, or did not answer ``initialize``."""


def run(options: GuardOptions) -> None:
    """Run the guard until its client leaves (stdin ends); the upstream is ended with it. Raises
    UpstreamError when the upstream does not start, OSError when its command cannot be run."""
    try:
        anyio.run(_guard, options, backend_options=_loop_options())
    except BaseExceptionGroup as group:  # the SDK's task groups wrap what ended them
        first = _first(group)
        if isinstance(first, (OSError, ToolregError)) or not isinstance(first, Exception):
            raise first from None
        # An HTTP upstream that went away ends its transport, and the guard with it.
        raise UpstreamError(f"the upstream server failed: {_said(first)}") from None


def _loop_options() -> dict[str, Any]:
    """anyio's options for the guard's event loop: uvloop's where it is installed (the mcp extra brings
    it, but on Windows), whose loop turns, pipe writes and wake-ups from the check threads cost less
    than asyncio's own, and a call wakes the loop at each message in and out and at each check's
    return from its thread. Else asyncio's loop."""
    try:
        import uvloop  # noqa: F401 - anyio imports it again to make the loop
    except ImportError:
        return {}
    return {"use_uvloop": True}


def _first(group: BaseExceptionGroup[BaseException]) -> BaseException:
    """The first exception of a group that is no group itself."""
    found: BaseException = group
    while isinstance(found, BaseExceptionGroup):
        found = found.exceptions[0]
    return found


async def _guard(options: GuardOptions) -> None:
    record = None if options.record is None else open(options.record, "a", encoding="utf-8")  # noqa: SIM115
    try:
        guards: list[_GuardServer] = []

        async def heard(message: Any) -> None:
            # The SDK runs this apart from its reader, so listing again here blocks nothing.
            if isinstance(message, mcp_types.ToolListChangedNotification) and guards:
                try:
                    await guards[0].relist()  # a change is announced to the client from the registry
                except Exception as error:  # a listing past its bounds, the upstream gone
                    print(f"toolreg guard: cannot list the tools again: {_said(error)}", file=sys.stderr)

        async with (
            _connected(options) as (read, write),
            _Upstream(read, write, message_handler=heard) as session,
        ):
            try:
                await session.initialize()
                guard = _GuardServer(session, options, record)
                guards.append(guard)
                await guard.relist()
            except Exception as error:  # the upstream ended, answered nonsense, or listed without end
                raise UpstreamError(f"the upstream server did not start: {_said(error)}") from None
            async with _stdio() as streams:
                if streams is None:
                    await _serve_stdio(guard)
                else:
                    read_messages, replies = streams
                    initialization = guard.create_initialization_options()
                    await guard.run(_Answered(read_messages, replies), replies, initialization)
    finally:
        if record is not None:
            record.close()


@contextlib.asynccontextmanager
async def _stdio() -> AsyncIterator[tuple[_Messages, _Replies] | None]:
    """The process's stdin and stdout as a server's read and write streams of messages, read, parsed,
    serialised and written on the event loop by the server's own tasks: the SDK's stdio transport puts
    a task of its own on each side, behind a memory stream, and wraps each line read and each write and
    flush in a thread hop, which alone took more than the guard's budget. While serving, fd 0 reads
    nothing and fd 1 writes to stderr, as the SDK's transport does, so that stray output never reaches
    the protocol. Where stdin or stdout is no pipe (a file), None: the SDK's transport serves instead."""
    loop = asyncio.get_running_loop()
    kept = os.dup(0), os.dup(1)
    reader = asyncio.StreamReader(limit=MAX_LINE_BYTES, loop=loop)
    try:
        read, _ = await loop.connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(kept[0], "rb", buffering=0)
        )
    except (OSError, ValueError):
        for fd in kept:
            os.close(fd)
        yield None
        return
    try:
        write, protocol = await loop.connect_write_pipe(
            asyncio.streams.FlowControlMixin, os.fdopen(kept[1], "wb", buffering=0)
        )
    except (OSError, ValueError):
        read.close()
        os.close(kept[1])
        yield None
        return
    restore = os.dup(0), os.dup(1)
    with open(os.devnull, "rb") as nothing:
        os.dup2(nothing.fileno(), 0)
    os.dup2(2, 1)
    try:
        yield _Messages(reader), _Replies(asyncio.StreamWriter(write, protocol, None, loop))
    finally:
        for fd, saved in zip((0, 1), restore, strict=True):
            os.dup2(saved, fd)
            os.close(saved)
        read.close()
        write.close()


class _Messages:
    """A server's read stream: each line of a stream reader as the SDK's message, or the exception its
    parser raised (which :class:`~toolreg.mcp._Answered` answers), read in the task that asks."""

    def __init__(self, reader: asyncio.StreamReader) -> None:
        self._reader = reader

    async def receive(self) -> SessionMessage | Exception:
        try:
            line = await self._reader.readline()
        except ValueError:  # a line past MAX_LINE_BYTES: the rest of it is skipped, the line answered
            line = b"\x00"
        if not line:
            raise anyio.EndOfStream
        # Decoded as the SDK's transport decodes, so that a line it cannot read is answered alike.
        text = line.decode("utf-8", errors="replace")
        try:
            return SessionMessage(mcp_types.jsonrpc_message_adapter.validate_json(text, by_name=False))
        except Exception as error:  # the SDK's transport hands the server its parser's exception too
            return error

    async def aclose(self) -> None:
        pass  # the pipe is closed by _stdio, once the server has ended


class _Replies:
    """A server's write stream: each message serialised as the SDK's transport does and written as one
    line, in the task that sends it (a write of one whole line is never interleaved with another)."""

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self._writer = writer

    async def send(self, message: SessionMessage) -> None:
        line = message.message.model_dump_json(by_alias=True, exclude_unset=True) + "\n"
        try:
            self._writer.write(line.encode("utf-8"))
            await self._writer.drain()
        except (ConnectionError, RuntimeError) as error:  # the client is gone: as a closed memory stream
            raise anyio.BrokenResourceError from error

    async def aclose(self) -> None:
        pass  # the pipe is closed by _stdio, once the server has ended

    async def __aenter__(self) -> _Replies:
        return self

    async def __aexit__(self, *exception: object) -> None:
        await self.aclose()


class _Upstream(GuardedSession):
    """A GuardedSession that keeps the upstream's last listing as it was sent."""

    listed: tuple[mcp_types.Tool, ...] = ()

    async def _list_pages(self, pages: list[list[mcp_types.Tool]], most_pages: int, most_tools: int) -> None:
        await super()._list_pages(pages, most_pages, most_tools)
        self.listed = tuple(tool for page in pages for tool in page)


class _GuardServer(_RegistryServer):
    """The guard's own server: the upstream's tools, checked, as a low-level SDK Server.

    Its registry is the upstream session's, so a re-listing that imports changed tools is announced
    to the client by the registry server's own announcers, in either era."""

    def __init__(self, session: _Upstream, options: GuardOptions, record: IO[str] | None) -> None:
        # The page size is the registry server's: this server lists the upstream's tools in one page.
        super().__init__(session.registry, name="toolreg-guard", version="", instructions=None, page_size=1)
        self._session = session
        self._options = options
        self._record = record
        self._tools: list[mcp_types.Tool] = []
        self._withheld: dict[str, str] = {}  # the upstream's names the guard will not list nor call
        self._refused: set[str] = set()  # the upstream's names toolreg refused (passed with --pass-refused)
        # Held while a re-listing decides what the client sees: its import announces the change to the
        # client before it ends, and the client's listing that follows must wait for the new view.
        self._relisting = anyio.Lock()
        self.middleware = _traced(self.middleware)

    async def relist(self) -> None:
        """List the upstream's tools again, check them, and decide what the client sees."""
        async with self._relisting:
            await self._relist()

    async def _relist(self) -> None:
        report = await self._session.refresh()
        refused = {refusal.name: _refusal_reason(refusal) for refusal in report.refused}
        listed = self._session.listed
        withheld: dict[str, str] = {}
        for name, reason in refused.items():
            if not self._options.pass_refused:
                withheld[name] = f"toolreg refuses its schema: {reason}"
        if self._options.pin is not None:
            withheld.update(await anyio.to_thread.run_sync(self._check_pin, listed))
        for name, reason in withheld.items():
            if name not in self._withheld:
                print(f"toolreg guard: withholding {_one_line(name[:200])}: {reason}", file=sys.stderr)
        self._withheld = withheld
        self._refused = set(refused)
        self._tools = [tool for tool in listed if tool.name not in withheld]

    def _check_pin(self, listed: Sequence[mcp_types.Tool]) -> dict[str, str]:
        """Compare the listing with the pinned one (pinning it when there is none yet); say each change
        on stderr, and with --pin-strict return the tools to withhold for a breaking or unknown one."""
        assert self._options.pin is not None
        try:
            return self._compare_with_pin(Path(self._options.pin), [_wire(tool) for tool in listed])
        except (OSError, ValueError, ToolregError) as error:  # a pin that cannot be read or compared
            print(f"toolreg guard: cannot compare with the pin: {_said(error)}", file=sys.stderr)
            return {}

    def _compare_with_pin(self, pin: Path, current: list[dict[str, Any]]) -> dict[str, str]:
        if not pin.exists():
            pin.write_text(
                json.dumps({"tools": current}, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
            )
            print(f"toolreg guard: pinned {len(current)} tools in {pin}", file=sys.stderr)
            return {}
        pinned = json.loads(pin.read_text(encoding="utf-8"))
        if not isinstance(pinned, dict) or not isinstance(pinned.get("tools"), list):
            raise ValueError(f"{pin} holds no tools/list result")
        report = self._session.report  # this listing's: the tools toolreg refuses are not compared
        refused = {refusal.name for refusal in report.refused} if report is not None else set()
        old = [tool for tool in pinned["tools"] if not isinstance(tool, dict) or tool["name"] not in refused]
        new = [tool for tool in current if tool["name"] not in refused]
        withheld: dict[str, str] = {}
        for tool in diff(old, new).tools:
            direction = _direction(tool)
            if direction is None:
                continue
            said = f"{_one_line(tool.name[:200])} {tool.status} since {pin.name}: {direction}"
            print(f"toolreg guard: {said}", file=sys.stderr)
            if self._options.pin_strict and tool.verdict != "compatible" and tool.status != "removed":
                withheld[tool.name] = f"it changed since it was pinned ({direction}; --pin-strict)"
        return withheld

    async def _list_tools(
        self, ctx: ServerRequestContext[Any, Any], params: mcp_types.PaginatedRequestParams | None
    ) -> mcp_types.ListToolsResult:
        if self._session._stale:  # the upstream said its tools changed
            await self.relist()
        async with self._relisting:
            withheld = [{"name": name, "reason": reason} for name, reason in self._withheld.items()]
            result = mcp_types.ListToolsResult(
                tools=self._tools, _meta={WITHHELD_META: withheld} if withheld else None
            )
        self._write(
            ctx,
            "tools/list",
            {} if params is None else params.model_dump(by_alias=True, exclude_none=True),
            result,
        )
        return result

    async def _call_tool(
        self, ctx: ServerRequestContext[Any, Any], params: mcp_types.CallToolRequestParams
    ) -> mcp_types.CallToolResult:
        result = await self._answer(ctx, params)
        if self._record is not None:  # the params are serialised again only to be recorded
            self._write(ctx, "tools/call", _wire(params), result)
        return result

    async def _answer(
        self, ctx: ServerRequestContext[Any, Any], params: mcp_types.CallToolRequestParams
    ) -> mcp_types.CallToolResult:
        name, arguments = params.name, params.arguments
        if self._session._stale or not self._listed(name):
            await self.relist()  # a name not listed yet may be new: listed again once
        if not self._listed(name):
            # Nothing is known of its arguments: sent, they would reach the upstream unchecked.
            listed = ", ".join(_one_line(tool.name[:200]) for tool in self._tools[:20])
            more = ", ..." if len(self._tools) > 20 else ""
            return _error(f"There is no tool named {_one_line(name[:200])}. The tools are: {listed}{more}.")
        if name in self._withheld:
            return _error(f"The tool {_one_line(name[:200])} was not called: {self._withheld[name]}.")
        note = ""
        if self._options.repair:
            arguments, note = await self._repaired(name, arguments)
        # The upstream's progress goes to the client, where the client asked for it: a callback has the
        # SDK ask the upstream for progress too (a progressToken in the call's _meta), which the upstream
        # reads and the SDK routes, on each call.
        asked = params.meta is not None and params.meta.get("progress_token") is not None
        progress = ctx.session.report_progress if asked else None
        try:
            if name in self._refused:  # passed with --pass-refused: sent unchecked
                result = await ClientSession.call_tool(
                    self._session, name, arguments, progress_callback=progress
                )
            else:
                result = await self._session.call_tool(name, arguments, progress_callback=progress)
        except Exception as error:  # the upstream ended, or answered with a JSON-RPC error
            said = _said(error)
            print(
                f"toolreg guard: tools/call {_one_line(name[:200])} failed upstream: {said}", file=sys.stderr
            )
            return _error(f"The upstream server failed to answer the call to {_one_line(name[:200])}: {said}")
        if result.is_error and result.structured_content is not None:
            # Errors travel as text: a client holds structuredContent to the output schema.
            result = mcp_types.CallToolResult(content=result.content, is_error=True, _meta=result.meta)
        if note and not result.is_error:
            result.content.append(mcp_types.TextContent(text=note))
        return result

    async def _repaired(self, name: str, arguments: Arguments) -> tuple[Arguments, str]:
        """The arguments of a call to the upstream's ``name`` repaired (in a thread, as they are
        checked) and the note saying so, or the arguments as they are and no note."""
        await self._session._imports_done()
        entry = self._session._entry(name)
        if entry is None:
            return arguments, ""
        given = {} if arguments is None else arguments
        check = entry.check  # which asks for an object too, as registry.repair's does
        repair = functools.partial(repair_arguments, entry.record.validator, given, validate=check)
        repaired: tuple[Any, tuple[Repair, ...]] = await _off_the_loop(self.registry, repair)
        if not repaired[1]:
            return arguments, ""
        return repaired[0], repair_note(repaired[1])

    def _listed(self, name: str) -> bool:
        """Whether the upstream's last listing holds ``name`` (withheld or not)."""
        return name in self._session._imported or name in self._refused

    def _write(self, ctx: ServerRequestContext[Any, Any], method: str, params: Any, result: Any) -> None:
        """With --record: the request and its result, as JSON-RPC lines ``toolreg replay`` reads."""
        if self._record is None:
            return
        identifier = ctx.request_id if ctx.request_id is not None else 0
        request = {"jsonrpc": "2.0", "id": identifier, "method": method, "params": params}
        answer = {"jsonrpc": "2.0", "id": identifier, "result": _wire(result)}
        self._record.write(json.dumps(request, ensure_ascii=False) + "\n")
        self._record.write(json.dumps(answer, ensure_ascii=False) + "\n")
        self._record.flush()


def _traced(middleware: list[Any]) -> list[Any]:
    """The server's middleware, less the SDK's OpenTelemetry span around each message where no tracer
    provider is set (none is, unless one was configured for the process, by ``opentelemetry-instrument``
    say): such a span records nothing, and took about 0.04 ms of each call through the guard."""
    try:  # the SDK's, and its dependency's: where either has moved, the span stays
        from mcp.server._otel import OpenTelemetryMiddleware
        from opentelemetry import trace
    except ImportError:
        return middleware
    if not isinstance(trace.get_tracer_provider(), trace.ProxyTracerProvider):
        return middleware
    return [each for each in middleware if not isinstance(each, OpenTelemetryMiddleware)]


def _direction(tool: ToolDiff) -> str | None:
    """How a tool changed, in ``toolreg diff``'s words, or None when it did not."""
    if tool.status == "unchanged":
        return None
    if tool.status in ("added", "removed", "renamed"):
        return tool.verdict if tool.status != "added" else "added"
    schemas = [schema for schema in (tool.input, tool.output) if schema is not None and schema.changed]
    if tool.verdict != "compatible":
        return tool.verdict
    if any(schema.widens for schema in schemas):
        return "widening"
    if schemas:
        return "compatible"
    return "text-only"


def _said(error: Exception) -> str:
    return _one_line(str(error)[:500]) or type(error).__name__


def _wire(model: Any) -> Any:
    return model.model_dump(by_alias=True, mode="json", exclude_none=True)


def _error(text: str) -> mcp_types.CallToolResult:
    return mcp_types.CallToolResult(content=[mcp_types.TextContent(text=text)], is_error=True)
