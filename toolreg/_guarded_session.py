"""Guarding a client session (see :class:`GuardedSession`, which ``toolreg.mcp`` gives): each call
checked against the server's own schemas before it is sent, and each structured result after, in the
registry's threads. Imported through ``toolreg.mcp``, once the SDK is found."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any, NoReturn, TypeVar

import anyio
import anyio.to_thread
import mcp_types
from mcp import ClientSession

# toolreg's public API only, as any user of it would: the modules behind it may move.
from . import (
    ImportReport,
    InvalidCallError,
    ToolRecord,
    ToolregError,
    ToolRegistry,
    UnknownToolError,
    ValidationError,
    format_errors,
    import_mcp,
)

# And, for the checks, what the registry's own acall reads: a tool's entry (its record and check, in
# one lookup) and the registry's threads (see _off_the_loop).
from ._registry import Entry

__all__ = ["GuardedSession", "InvalidResultError", "ListingLimitError"]

logger = logging.getLogger("toolreg.mcp")

# How far GuardedSession.refresh follows a server's tools/list before it gives up with a
# ListingLimitError: a server that always sends another cursor, or lists without end, would otherwise
# hold a call up for ever and fill the memory (14,807 pages, 703 MB in 20 s). Each is far past what a
# server lists, and reached in seconds: in process, 1,000 pages took 1.7 s, and 10,000 tools (51 pages
# of 200) 1.6 s and 14 MB (docs/reliability.md).
MAX_LIST_PAGES = 1_000
MAX_LISTED_TOOLS = 10_000
LIST_SECONDS = 60.0
Value = TypeVar("Value")


class InvalidResultError(ToolregError, RuntimeError):
    """A server's result does not fit the output schema it listed for the tool: ``errors`` holds every
    error, ``text`` says it for a model (a RuntimeError, as the SDK's own check raises)."""

    def __init__(self, tool: str, errors: list[ValidationError]) -> None:
        self.tool = tool
        self.errors = tuple(errors)
        self.text = format_errors(self.errors, tool=tool, about="result").text
        super().__init__(self.text)


class ListingLimitError(ToolregError, RuntimeError):
    """A server's ``tools/list`` went on past a bound of :class:`GuardedSession` (``max_pages`` pages,
    ``max_tools`` tools, or ``seconds``): the listing is not imported, and the guard lists again at the
    next call. ``bound`` names the bound, ``pages`` and ``tools`` count what was read."""

    def __init__(self, bound: str, limit: float, pages: int, tools: int) -> None:
        self.bound = bound
        self.limit = limit
        self.pages = pages
        self.tools = tools
        super().__init__(
            f"the server's tools/list went on past {limit:g} {bound} ({pages} pages, {tools} tools read); "
            "nothing of it was imported"
        )


def _served_remotely(**arguments: Any) -> NoReturn:
    raise InvalidCallError("this tool runs on an MCP server: call it through its GuardedSession")


def _refusal_reason(refusal: Any) -> str:
    """Why an import refused a tool, in one line (the reason may quote the server's schema)."""
    where = f" at {refusal.schema_path}" if refusal.schema_path else ""
    return _one_line(f"{refusal.reason}{where}"[:500])


def _one_line(text: str) -> str:
    """``text`` from a server with each character that could forge a line or hide text (Unicode's
    "other" and separators: controls, bidi overrides, U+2028…) written as ``\\uXXXX``."""
    return "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in text)


async def _off_the_loop(registry: ToolRegistry, work: Callable[[], Value]) -> Value:
    """What ``work()`` returns (or raises), run in one of ``registry``'s threads while the event loop
    serves every other task: the threads acall checks arguments and runs sync handlers in, never the
    loop's executor. Where every one of them is busy (with handlers abandoned past their time, say),
    in one of anyio's worker threads, which wait for a free one rather than refuse: the work is never
    refused, and never run on the loop. A cancelled caller stops waiting; the work still ends in its
    thread, bounded by the registry's work budget, and what it came to is dropped."""
    loop = asyncio.get_running_loop()
    outcome: asyncio.Future[Value] = loop.create_future()

    def job() -> None:  # a job of the registry's threads must not raise
        try:
            came: tuple[Any, BaseException | None] = (work(), None)
        except BaseException as error:  # the caller's to raise, on the loop
            came = (None, error)
        with contextlib.suppress(RuntimeError):  # the loop has closed: no one waits for it now
            loop.call_soon_threadsafe(_settle, outcome, came)

    if not registry._caller.workers.start(job):
        return await anyio.to_thread.run_sync(work)
    return await outcome


def _settle(outcome: asyncio.Future[Any], came: tuple[Any, BaseException | None]) -> None:
    if outcome.done():  # its caller was cancelled meanwhile
        return
    value, error = came
    if error is None:
        outcome.set_result(value)
    else:
        outcome.set_exception(error)


def _arguments_refusal(entry: Entry, name: str, arguments: Any) -> str | None:
    """Why the tool of ``entry`` (the server's ``name``) refuses ``arguments``, for a model, or None
    when it takes them."""
    errors = entry.check(arguments)
    return format_errors(errors, tool=name).text if errors else None


def _result_refusal(record: ToolRecord, name: str, structured: Any) -> InvalidResultError | None:
    """The error of a structured result its tool's output schema refuses, or None when it fits."""
    assert record.output_validator is not None
    errors = record.output_validator.validate(structured)
    return InvalidResultError(name, list(errors)) if errors else None


class GuardedSession(ClientSession):
    """The SDK's ``ClientSession``, which checks each call against the server's own schemas first.

    It takes what ``ClientSession`` takes (``read_timeout_seconds=``, ``message_handler=``...) and
    keeps the server's tools in ``registry`` (a new ToolRegistry, or one given, where ``prefix``
    keeps the server's tools apart from others), imported from every page of its ``tools/list``
    at the first call, and again after ``notifications/tools/list_changed`` (on 2026-07-28 those
    come only while a ``subscriptions/listen`` stream is open). ``await refresh()`` imports them at once.

    ``call_tool`` refuses arguments the tool's input schema refuses without sending anything: it
    returns an ``isError`` result that lists every error with its pointer, as a toolreg server would.
    It checks ``structuredContent`` against the tool's output schema with toolreg's validator; a result
    that does not fit comes back as an ``isError`` result saying so, rather than the SDK's
    ``RuntimeError`` (``validate_tool_result`` raises :class:`InvalidResultError`). A tool toolreg
    refused at import is never called: ``call_tool`` returns an ``isError`` result naming it and the
    reason, and sends nothing (the SDK's own check, python-jsonschema on Python's backtracking ``re``,
    is never run in its place); ``report`` (the last import's ImportReport) names each such tool and
    why in ``refused``. A name the listing does not hold is listed again once, then sent for the
    server to answer, its result unchecked (no output schema is known for it).

    A listing stops with :class:`ListingLimitError` past ``max_pages`` pages (``MAX_LIST_PAGES``),
    ``max_tools`` tools (``MAX_LISTED_TOOLS``) or ``list_seconds`` (``LIST_SECONDS``), so a
    server that sends cursors without end cannot hold a call up for ever.

    The checks of arguments and results, and the import of a listing, run in the registry's threads
    (those ``acall`` checks in), never on the event loop: a check that takes a second holds up no other
    task. A call made while a listing is being imported waits for the import, then is checked.
    """

    def __init__(
        self,
        read_stream: Any = None,
        write_stream: Any = None,
        *,
        registry: ToolRegistry | None = None,
        prefix: str | None = None,
        message_handler: Callable[[Any], Awaitable[None]] | None = None,
        max_pages: int = MAX_LIST_PAGES,
        max_tools: int = MAX_LISTED_TOOLS,
        list_seconds: float = LIST_SECONDS,
        **options: Any,
    ) -> None:
        bounds = {"max_pages": max_pages, "max_tools": max_tools, "list_seconds": list_seconds}
        for bound, value in bounds.items():
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < float("inf"):
                raise InvalidCallError(f"{bound} must be a positive number, not {value!r}")
        self.registry = ToolRegistry() if registry is None else registry
        self.report: ImportReport | None = None
        self._prefix = prefix
        self._bounds = (max_pages, max_tools, list_seconds)
        self._imported: dict[str, str] = {}  # the server's names, and the registry's names for them
        self._refused: dict[str, str] = {}  # the server's names toolreg refused, and why
        self._stale = True
        # One import at a time, each whole; while one runs (in a thread), the registry holds the
        # server's tools in part, and a call waits for it to end (the event) before it looks there.
        self._import_lock = anyio.Lock()
        self._importing: anyio.Event | None = None

        async def handle(message: Any) -> None:
            if isinstance(message, mcp_types.ToolListChangedNotification):
                self._stale = True  # listed again at the next call; listing here could block the reader
            if message_handler is not None:
                await message_handler(message)

        super().__init__(read_stream, write_stream, message_handler=handle, **options)

    async def refresh(self) -> ImportReport:
        """List every page of the server's tools and import them into ``registry`` in place of the
        last import's, the ones toolreg refuses named in the report (and in ``report``); raise
        :class:`ListingLimitError` past a bound of the listing, importing nothing."""
        self._stale = False  # a change announced while listing makes it stale again
        most_pages, most_tools, seconds = self._bounds
        pages: list[list[mcp_types.Tool]] = []
        try:
            with anyio.move_on_after(seconds) as listing:
                await self._list_pages(pages, most_pages, most_tools)
            if listing.cancelled_caught:
                raise ListingLimitError("seconds", seconds, len(pages), sum(len(page) for page in pages))
        except BaseException:
            self._stale = True  # nothing was imported: the next call lists again
            raise
        tools = [tool for page in pages for tool in page]
        async with self._import_lock:
            importing = self._importing = anyio.Event()
            try:
                # Checking and compiling the schemas a server lists (costly ones among them, perhaps
                # on purpose) is work for a thread. Shielded: once begun, the import is adopted whole.
                with anyio.CancelScope(shield=True):
                    report = await _off_the_loop(self.registry, functools.partial(self._import, tools))
            except BaseException:
                self._stale = True
                raise
            finally:
                self._importing = None
                importing.set()
        self._imported = dict(report.registered)
        self._refused = {refusal.name: _refusal_reason(refusal) for refusal in report.refused}
        self.report = report
        return report

    def _import(self, tools: list[mcp_types.Tool]) -> ImportReport:
        """Import ``tools`` in place of the last import's (in a thread: see refresh)."""
        catalog = [tool.model_dump(by_alias=True, mode="json", exclude_none=True) for tool in tools]
        for name in self._imported.values():
            if name in self.registry:
                self.registry.unregister(name)
        return import_mcp(self.registry, catalog, lambda tool: _served_remotely, prefix=self._prefix)

    async def _imports_done(self) -> None:
        """Return once no import is under way: until it ends, the registry holds the server's tools
        in part, and a tool not there yet would be taken for one toolreg did not import."""
        while self._importing is not None:
            await self._importing.wait()

    async def _list_pages(self, pages: list[list[mcp_types.Tool]], most_pages: int, most_tools: int) -> None:
        """Append each page of the server's tools to ``pages``, following its cursors."""
        cursors: set[str] = set()
        cursor: str | None = None
        while len(pages) < most_pages:
            params = None if cursor is None else mcp_types.PaginatedRequestParams(cursor=cursor)
            page = await super().list_tools(params=params)
            pages.append(page.tools)
            listed = sum(len(tools) for tools in pages)
            if listed > most_tools:
                raise ListingLimitError("tools", most_tools, len(pages), listed)
            cursor = page.next_cursor
            if cursor is None:
                return
            if cursor in cursors:
                logger.warning("tools/list: the server sent a cursor twice; listing stops there")
                return
            cursors.add(cursor)
        raise ListingLimitError("pages", most_pages, len(pages), sum(len(tools) for tools in pages))

    async def call_tool(
        self,
        name: str,
        arguments: dict[str, Any] | None = None,
        read_timeout_seconds: float | None = None,
        progress_callback: Any = None,
        **options: Any,
    ) -> Any:
        """``ClientSession.call_tool``, with the arguments checked before anything is sent and the
        structured result after (see the class)."""
        if self._stale or (name not in self._imported and name not in self._refused):
            await self.refresh()
        await self._imports_done()
        if name in self._refused:
            text = (
                f"The tool {_one_line(name[:200])} was not called: its schema cannot be checked "
                f"({self._refused[name]}). The server must change the tool before it can be called."
            )
            return mcp_types.CallToolResult(content=[mcp_types.TextContent(text=text)], is_error=True)
        entry = self._entry(name)
        if entry is not None:
            # Checked in a thread: arguments can be costly to check (300,000 integers under
            # uniqueItems), and the loop serves every other call meanwhile.
            given = {} if arguments is None else arguments
            refusal = await _off_the_loop(
                self.registry, functools.partial(_arguments_refusal, entry, name, given)
            )
            if refusal is not None:
                return mcp_types.CallToolResult(content=[mcp_types.TextContent(text=refusal)], is_error=True)
        try:
            return await super().call_tool(
                name, arguments, read_timeout_seconds, progress_callback, **options
            )
        except InvalidResultError as error:
            return mcp_types.CallToolResult(content=[mcp_types.TextContent(text=error.text)], is_error=True)

    async def validate_tool_result(self, name: str, result: mcp_types.CallToolResult) -> None:
        """Raise InvalidResultError, in toolreg's words, unless ``result`` fits the tool's output
        schema. A tool toolreg did not import has none it can check: its result is taken as it is,
        never handed to the SDK's own check (python-jsonschema, whose patterns run on Python's
        backtracking ``re``)."""
        await self._imports_done()
        entry = self._entry(name)
        if entry is None or entry.record.output_validator is None:
            return
        if result.structured_content is None and "structured_content" not in result.model_fields_set:
            missing = "no structuredContent was sent, though the tool declares an output schema"
            raise InvalidResultError(name, [ValidationError("", "", "structuredContent", missing)])
        # In a thread, as the arguments are: a result is the server's, and can be as costly to check.
        refusal = await _off_the_loop(
            self.registry,
            functools.partial(_result_refusal, entry.record, name, result.structured_content),
        )
        if refusal is not None:
            raise refusal

    def _entry(self, name: str) -> Entry | None:
        """The registry's entry of the server's tool ``name`` (record and check, found in one lookup,
        which a later change of the registry leaves as it is), or None where toolreg imported no such
        tool, or it is no longer in the registry."""
        local = self._imported.get(name)
        if local is None:
            return None
        try:
            return self.registry._entry(local)
        except UnknownToolError:
            return None
