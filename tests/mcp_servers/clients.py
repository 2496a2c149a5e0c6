"""The SDK's own clients, connected to the servers of this folder run as child processes.

A test reads plainly, one step a line: each connection lives in an event loop of its own (a blocking
portal), and ``Remote`` calls into it. Every child process is ended when its ``with`` block ends,
however the test inside it ended.
"""

from __future__ import annotations

import contextlib
import queue
import re
import subprocess
import sys
import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from anyio.from_thread import BlockingPortal, start_blocking_portal
from mcp import Client, ClientSession, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

from toolreg.mcp import GuardedSession

ROOT = Path(__file__).resolve().parent.parent.parent
LEGACY, MODERN = "2025-11-25", "2026-07-28"


def stdio_params(module: str, *args: str) -> StdioServerParameters:
    """A server of this folder as a child process over stdio (``-m`` finds it from the repository)."""
    return StdioServerParameters(
        command=sys.executable, args=["-m", f"tests.mcp_servers.{module}", *args], cwd=ROOT
    )


@contextlib.contextmanager
def http_server(module: str, *args: str) -> Iterator[str]:
    """A server of this folder over streamable HTTP on a free port; yields its URL, ends it after."""
    process = subprocess.Popen(
        [sys.executable, "-m", f"tests.mcp_servers.{module}", "streamable-http", *args],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        assert process.stderr is not None
        for line in process.stderr:
            lines.put(line)
        lines.put(None)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        said = []
        while True:
            line = lines.get(timeout=60)
            if line is None:
                raise RuntimeError(f"the HTTP server ended before serving: {''.join(said)}")
            said.append(line)
            found = re.search(r"serving \S+ at (http://\S+)", line)
            if found:
                break
        yield found.group(1)
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        reader.join(10)  # the pipe ends with the process; close it once nothing reads it
        process.stderr.close()


class Peer:
    """One client connection, how many tools/list_changed notifications it has heard, and (when
    counted) every message it wrote to its transport."""

    def __init__(self, client: ClientSession | Client) -> None:
        self.client = client
        self.changes = 0
        self.sent: list[Any] = []

    @property
    def protocol_version(self) -> str | None:
        return self.client.protocol_version

    @property
    def tools_capability(self) -> types.ToolsCapability | None:
        session = self.client.session if isinstance(self.client, Client) else self.client
        capabilities = session.server_capabilities
        return None if capabilities is None else capabilities.tools

    async def list_pages(self) -> list[list[types.Tool]]:
        """Every page of the listing, following the cursors."""
        pages, cursor = [], None
        while True:
            if isinstance(self.client, Client):
                page = await self.client.list_tools(cursor=cursor)
            else:
                params = None if cursor is None else types.PaginatedRequestParams(cursor=cursor)
                page = await self.client.list_tools(params=params)
            pages.append(page.tools)
            cursor = page.next_cursor
            if cursor is None:
                return pages

    async def call(self, name: str, arguments: dict[str, Any]) -> types.CallToolResult:
        return await self.client.call_tool(name, arguments)

    async def wait_for_change(self, heard_before: int) -> None:
        with anyio.fail_after(10):
            while self.changes <= heard_before:
                await anyio.sleep(0.01)


@asynccontextmanager
async def legacy_peer(streams: Any, session_type: type[ClientSession] = ClientSession) -> AsyncIterator[Peer]:
    """A ClientSession after ``initialize()``: protocol 2025-11-25."""
    peer: Peer

    async def heard(message: Any) -> None:
        if isinstance(message, types.ToolListChangedNotification):
            peer.changes += 1

    async with session_type(streams[0], streams[1], message_handler=heard) as session:
        peer = Peer(session)
        await session.initialize()
        yield peer


@asynccontextmanager
async def modern_peer(target: StdioServerParameters | str) -> AsyncIterator[Peer]:
    """The high-level Client, which negotiates 2026-07-28, with a subscriptions/listen stream open."""
    async with Client(target) as client, anyio.create_task_group() as tasks:
        peer = Peer(client)
        async with client.listen(tools_list_changed=True) as subscription:

            async def hear() -> None:
                async for _ in subscription:
                    peer.changes += 1

            tasks.start_soon(hear)
            yield peer
            tasks.cancel_scope.cancel()


class CountedWrites:
    """A transport's write stream that keeps every message sent through it."""

    def __init__(self, stream: Any, sent: list[Any]) -> None:
        self.stream = stream
        self.sent = sent

    async def send(self, item: Any) -> None:
        self.sent.append(item.message)
        await self.stream.send(item)

    async def aclose(self) -> None:
        await self.stream.aclose()

    async def __aenter__(self) -> CountedWrites:
        return self

    async def __aexit__(self, *exception: object) -> None:
        await self.aclose()


@asynccontextmanager
async def guarded_peer(params: StdioServerParameters) -> AsyncIterator[Peer]:
    """A GuardedSession on protocol 2025-11-25, over stdio, whose writes are counted."""
    sent: list[Any] = []
    async with (
        stdio_client(params) as (read, write),
        legacy_peer((read, CountedWrites(write, sent)), GuardedSession) as peer,
    ):
        peer.sent = sent
        yield peer


def requests(messages: list[Any]) -> list[str]:
    """The methods of the requests among ``messages``."""
    return [message.method for message in messages if isinstance(message, types.JSONRPCRequest)]


@asynccontextmanager
async def stdio_legacy_peer(params: StdioServerParameters) -> AsyncIterator[Peer]:
    async with stdio_client(params) as streams, legacy_peer(streams) as peer:
        yield peer


@asynccontextmanager
async def http_legacy_peer(url: str) -> AsyncIterator[Peer]:
    async with streamable_http_client(url) as streams, legacy_peer(streams) as peer:
        yield peer


class Remote:
    """A connection driven from synchronous test code through its event loop's portal."""

    def __init__(self, portal: BlockingPortal, peer: Peer) -> None:
        self.portal = portal
        self.peer = peer

    @property
    def protocol_version(self) -> str | None:
        return self.peer.protocol_version

    @property
    def changes(self) -> int:
        return self.peer.changes

    def list_pages(self) -> list[list[types.Tool]]:
        return self.portal.call(self.peer.list_pages)

    def call(self, name: str, arguments: dict[str, Any]) -> types.CallToolResult:
        return self.portal.call(self.peer.call, name, arguments)

    def wait_for_change(self, heard_before: int) -> None:
        self.portal.call(self.peer.wait_for_change, heard_before)

    def requests_sent_by(self, step: Any, *args: Any) -> tuple[Any, list[str]]:
        """What ``step(*args)`` returned, and the methods of the requests it wrote to the transport."""
        before = len(self.peer.sent)
        value = step(*args)
        return value, requests(self.peer.sent[before:])


@contextlib.contextmanager
def remote(connect: Any, *args: Any) -> Iterator[Remote]:
    """``connect(*args)``, an async context manager yielding a Peer, held open in a portal."""
    with start_blocking_portal() as portal, portal.wrap_async_context_manager(connect(*args)) as peer:
        yield Remote(portal, peer)


def wire(tool: types.Tool) -> dict[str, Any]:
    """A tool as it travelled: the SDK's models hold what the wire said, read back by alias."""
    return tool.model_dump(by_alias=True, mode="json", exclude_none=True)
