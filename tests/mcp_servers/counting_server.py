"""An upstream for ``toolreg guard``'s tests: a server on the SDK alone that checks nothing.

``python -m tests.mcp_servers.counting_server CALLS [TOOLS]`` serves over stdio (``streamable-http
CALLS [TOOLS]`` over streamable HTTP on a free port, whose address it writes to stderr); TOOLS, a JSON
file of MCP tools, is listed in place of the tools below when given. Every call it receives is
appended to the file CALLS as one JSON line, ``{"name": ..., "arguments": ...}``, exactly as it came,
so a test counts what reached it. ``echo`` answers with its arguments as structuredContent (whatever
they are: nothing here checks them against the output schema; an error when they hold ``fail``),
``grow`` reports progress, lists one more tool and says so with
``notifications/tools/list_changed``, ``crash`` ends the process.
"""

from __future__ import annotations

import json
import os
import socket
import sys
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import uvicorn
from mcp.server.lowlevel import NotificationOptions, Server
from mcp.server.stdio import stdio_server

_WEATHER = {
    "type": "object",
    "properties": {
        "city": {"type": "string", "minLength": 1},
        "days": {"type": "integer", "minimum": 1, "maximum": 7},
        "units": {"enum": ["metric", "imperial"]},
    },
    "required": ["city"],
    "additionalProperties": False,
}
_ECHO = {"type": "object", "properties": {"count": {"type": ["integer", "string"]}}}
TOOLS = [
    types.Tool(name="weather.forecast", description="A forecast for a city", input_schema=_WEATHER),
    types.Tool(
        name="echo",
        description="Give the arguments back",
        input_schema=_ECHO,
        output_schema={"type": "object", "properties": {"count": {"type": "integer"}}, "required": ["count"]},
    ),
    types.Tool(name="crash", description="End the server", input_schema={"type": "object"}),
    types.Tool(name="grow", description="List one more tool", input_schema={"type": "object"}),
    # A malformed schema: "strin" is no JSON Schema type. toolreg refuses the tool.
    types.Tool(
        name="broken",
        description="A tool whose schema cannot be checked",
        input_schema={"type": "object", "properties": {"x": {"type": "strin"}}},
    ),
]


def build(calls: Path, listed: Path | None = None) -> Server[Any]:
    tools = TOOLS
    if listed is not None:
        tools = [types.Tool.model_validate(tool) for tool in json.loads(listed.read_text(encoding="utf-8"))]

    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        with calls.open("a", encoding="utf-8") as log:
            log.write(json.dumps({"name": params.name, "arguments": params.arguments}) + "\n")
        if params.name == "crash":
            os._exit(3)
        if params.name == "grow":  # one more tool, announced
            TOOLS.append(types.Tool(name=f"extra{len(TOOLS)}", input_schema={"type": "object"}))
            await ctx.session.send_tool_list_changed()
        text = types.TextContent(text=json.dumps(params.arguments))
        if params.name == "grow":
            await ctx.session.report_progress(0.5, 1.0, "half way")
        if params.name == "echo":
            failed = bool((params.arguments or {}).get("fail"))  # an error that still sends data
            return types.CallToolResult(
                content=[text], structured_content=params.arguments or {}, is_error=failed
            )
        return types.CallToolResult(content=[text])

    return Server("counting", on_list_tools=list_tools, on_call_tool=call_tool)


async def main(calls: Path, listed: Path | None) -> None:
    server = build(calls, listed)
    async with stdio_server() as (read, write):
        options = server.create_initialization_options(NotificationOptions(tools_changed=True))
        await server.run(read, write, options)


async def main_http(calls: Path, listed: Path | None) -> None:
    """Serve on a free port of 127.0.0.1, whose address goes to stderr."""
    app = build(calls, listed).streamable_http_app(host="127.0.0.1")
    with socket.create_server(("127.0.0.1", 0)) as listening:
        port = listening.getsockname()[1]
        print(f"serving counting at http://127.0.0.1:{port}/mcp", file=sys.stderr, flush=True)
        await uvicorn.Server(uvicorn.Config(app, log_level="warning")).serve(sockets=[listening])


if __name__ == "__main__":
    over_http = sys.argv[1] == "streamable-http"
    paths = [Path(argument) for argument in sys.argv[1 + over_http :]]
    anyio.run(main_http if over_http else main, paths[0], paths[1] if len(paths) > 1 else None)
