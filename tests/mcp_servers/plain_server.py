"""A server on the SDK alone, which checks no argument and no result, for the guard's tests.

``python -m tests.mcp_servers.plain_server MARKS`` serves over stdio, two tools a page; each call it
receives leaves a file in MARKS named after the call's ``tag`` argument (or the tool).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

_ADD_INPUT = {
    "type": "object",
    "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}, "tag": {"type": "string"}},
    "required": ["a", "b", "tag"],
    "additionalProperties": False,
}
_SUM = {"type": "object", "properties": {"sum": {"type": "integer"}}, "required": ["sum"]}
_ID = {"type": "object", "properties": {"id": {"type": "string"}}}
TOOLS = [
    types.Tool(name="math.add", description="Add two integers", input_schema=_ADD_INPUT, output_schema=_SUM),
    types.Tool(name="math.bad_sum", description="Add, in words", input_schema=_ADD_INPUT, output_schema=_SUM),
    types.Tool(name="getUser", description="Find a user", input_schema=_ID),
    # A Python regular expression, which no ECMA-262 engine reads: toolreg refuses the tool.
    types.Tool(
        name="python.pattern",
        description="A tool toolreg cannot check",
        input_schema={"type": "object", "properties": {"tag": {"type": "string", "pattern": "(?P<word>a+)"}}},
    ),
]


def build(marks: Path) -> Server[Any]:
    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        start = int(params.cursor) if params is not None and params.cursor else 0
        more = start + 2 < len(TOOLS)
        return types.ListToolsResult(
            tools=TOOLS[start : start + 2], next_cursor=str(start + 2) if more else None
        )

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        arguments = params.arguments or {}
        (marks / str(arguments.get("tag", params.name))).write_text("received")
        if params.name in ("math.add", "math.bad_sum"):
            total = arguments["a"] + arguments["b"]  # a string here would raise: nothing was checked
            structured = {"sum": total if params.name == "math.add" else f"{total} in words"}
            return types.CallToolResult(
                content=[types.TextContent(text=str(total))], structured_content=structured
            )
        return types.CallToolResult(content=[types.TextContent(text=f"{params.name} ran")])

    return Server("plain", on_list_tools=list_tools, on_call_tool=call_tool)


async def main(marks: Path) -> None:
    server = build(marks)
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(main, Path(sys.argv[1]))
