"""A toolreg registry served with toolreg.mcp, for the tests.

``python -m tests.mcp_servers.registry_server TRANSPORT MARKS`` serves it over ``stdio`` or
``streamable-http`` (on a free port, whose address it writes to stderr). Each handler that runs leaves
a file in the folder MARKS, so a test can tell whether it ran; so does the process when it ends by
itself (an ``exited`` file, written after every non-daemon thread has been joined).
"""

from __future__ import annotations

import atexit
import sys
import threading
import time
from pathlib import Path

import toolreg

# Pages of two tools: every listing of this server follows cursors.
PAGE_SIZE = 2


def build(marks: Path) -> toolreg.ToolRegistry:
    """The registry: an adder with an output schema, a word counter whose output is no object, a tool
    that overruns its time budget, and two that change the registry while a client is connected."""
    tools = toolreg.ToolRegistry()

    def add(a: int, b: int, tag: str) -> dict[str, int]:
        (marks / tag).write_text("ran")
        return {"sum": a + b}

    tools.register(
        "demo.add",
        {
            "type": "object",
            "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}, "tag": {"type": "string"}},
            "required": ["a", "b", "tag"],
            "additionalProperties": False,
        },
        add,
        description="Add two integers",
        output_schema={
            "type": "object",
            "properties": {"sum": {"type": "integer"}},
            "required": ["sum"],
            "additionalProperties": False,
        },
        hints={"readOnlyHint": True},
    )
    tools.register(
        "demo.count_words",
        {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
        lambda text, **rest: len(text.split()),
        description="Count the words of a text",
        output_schema={"type": "integer", "minimum": 0},
    )

    def slow() -> str:
        time.sleep(30)
        return "late"

    tools.register(
        "demo.slow", {"type": "object", "additionalProperties": False}, slow, timeout_ms=200,
        description="Overrun the time budget",
    )  # fmt: skip

    def register(name: str, delay_ms: int = 0, closed: bool = False) -> str:
        def now() -> None:
            time.sleep(delay_ms / 1000)
            if closed:
                tools.register(
                    name, {"type": "object", "additionalProperties": False}, lambda: "hello", override=True
                )
            else:
                tools.register(name, {"type": "object"}, lambda **arguments: "hello", override=True)

        if delay_ms:
            threading.Thread(target=now, daemon=True).start()  # after the call: only the timer sees it
        else:
            now()
        return f"registering {name}"

    tools.register(
        "demo.register",
        {
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "delay_ms": {"type": "integer", "default": 0},
                "closed": {"type": "boolean", "default": False},
            },
            "required": ["name"],
            "additionalProperties": False,
        },
        register,
        description="Register a tool taking any arguments, or none if closed; now, or from another thread",
    )
    tools.register(
        "demo.unregister",
        {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]},
        lambda name, **rest: tools.unregister(name).name,
        description="Unregister a tool",
    )
    return tools


def main(transport: str, marks: Path) -> None:
    from toolreg.mcp import serve

    atexit.register((marks / "exited").write_text, "by itself")
    registry = build(marks)
    serve(registry, transport, name="demo", version="1.0", port=0, page_size=PAGE_SIZE)


if __name__ == "__main__":
    main(sys.argv[1], Path(sys.argv[2]))
