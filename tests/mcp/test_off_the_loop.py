"""The guard's own work runs in threads, never on the event loop every other task shares: the checks of
a call's arguments and of its structured result, the import of a listing, the guard's repairs. Each is
held in its thread until a task on the loop has run: had it run on the loop, no task could run there
meanwhile, and the order of the events says so (the check gives up waiting after WAIT seconds)."""

import threading

import anyio
import pytest

pytest.importorskip("mcp", reason="the MCP SDK is not installed: pip install 'pytoolreg[mcp]'")

import mcp_types as types

import toolreg
import toolreg._guarded_session
import toolreg.mcp
from tests.mcp.test_guarded_session import guarded, sdk_server, text
from tests.mcp_servers.clients import requests
from toolreg._guard import GuardOptions, _GuardServer

# How long a held check waits for the loop before it gives up: only a check run on the loop waits so long.
WAIT = 10.0


def unique(kind):
    return {"type": "array", "items": {"type": kind}, "uniqueItems": True}


NUMBERS = {"type": "object", "properties": {"n": unique("integer")}}
WORDS = {"type": "object", "properties": {"w": unique("string")}}
COUNT = {"type": "object", "properties": {"count": {"type": "integer"}}, "required": ["count"]}
TOOLS = [
    types.Tool(name="nums", input_schema=NUMBERS, output_schema=COUNT),
    types.Tool(name="words", input_schema=WORDS),
]


def answer(params):
    """What the server answers: a count that is no integer, which the output schema of nums refuses."""
    return types.CallToolResult(content=[types.TextContent(text="two")], structured_content={"count": "two"})


class Held:
    """``work`` that, once begun, waits in its thread until a task on the loop lets it go on."""

    def __init__(self, name, work, events):
        self.name = name
        self.work = work
        self.events = events
        self.began = threading.Event()
        self.go_on = threading.Event()

    def __call__(self, *args, **kwargs):
        self.events.append(f"{self.name} began")
        self.began.set()
        self.go_on.wait(WAIT)
        self.events.append(f"{self.name} ended")
        return self.work(*args, **kwargs)


async def begun(held):
    while not held.began.is_set():
        await anyio.sleep(0.001)


async def let_go(held, events):
    """A task on the loop: once the held work has begun, it runs, and lets the work go on."""
    await begun(held)
    events.append("the loop ran")
    held.go_on.set()


def hold(monkeypatch, validator, name, events):
    held = Held(name, validator.validate, events)
    monkeypatch.setattr(validator, "validate", held)
    return held


def test_the_arguments_are_checked_off_the_loop(monkeypatch):
    events = []

    async def scenario(session, sent):
        await session.refresh()
        held = hold(monkeypatch, session.registry.get("nums").validator, "check", events)
        before = len(sent)
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(let_go, held, events)
            result = await session.call_tool("nums", {"n": [1, 1]})
        assert events == ["check began", "the loop ran", "check ended"]
        assert requests(sent[before:]) == []
        assert result.is_error
        assert text(result) == (
            "The arguments for nums have 1 problem:\n"
            "- at /n: must have unique items: items 0, 1 are equal\n"
            "Fix these and call again with the corrected arguments."
        )

    guarded(sdk_server(TOOLS, answer), scenario)


def test_the_structured_result_is_checked_off_the_loop(monkeypatch):
    events = []

    async def scenario(session, sent):
        await session.refresh()
        held = hold(monkeypatch, session.registry.get("nums").output_validator, "check", events)
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(let_go, held, events)
            result = await session.call_tool("nums", {"n": [1, 2]})
        assert events == ["check began", "the loop ran", "check ended"]
        assert result.is_error
        assert text(result) == (
            "The result of nums does not match its output schema; it has 1 problem:\n"
            "- at /count: expected integer, got string\n"
            "The tool, not the call, is at fault: calling again with other arguments will not mend it."
        )
        with pytest.raises(toolreg.mcp.InvalidResultError):
            await session.validate_tool_result("nums", answer(None))

    guarded(sdk_server(TOOLS, answer), scenario)


def test_a_listing_is_imported_off_the_loop(monkeypatch):
    events = []
    held = Held("import", toolreg._guarded_session.import_mcp, events)
    monkeypatch.setattr(toolreg._guarded_session, "import_mcp", held)

    async def scenario(session, sent):
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(let_go, held, events)
            report = await session.refresh()
        assert events == ["import began", "the loop ran", "import ended"]
        assert report.registered == {"nums": "nums", "words": "words"}

    guarded(sdk_server(TOOLS, answer), scenario)


def test_a_call_made_while_a_listing_is_imported_waits_for_it_and_is_checked(monkeypatch):
    events = []

    async def scenario(session, sent):
        await session.refresh()
        held = Held("import", toolreg._guarded_session.import_mcp, events)
        monkeypatch.setattr(toolreg._guarded_session, "import_mcp", held)
        results = []

        async def call():
            results.append(await session.call_tool("nums", {"n": [1, 1]}))

        async with anyio.create_task_group() as tasks:
            tasks.start_soon(session.refresh)
            await begun(held)  # the last import's tools are out of the registry, the new ones not in yet
            tasks.start_soon(call)
            for _ in range(20):
                await anyio.sleep(0)
            events.append("the loop ran")
            held.go_on.set()
        assert events == ["import began", "the loop ran", "import ended"]
        [result] = results
        assert result.is_error and text(result).startswith("The arguments for nums have 1 problem:")
        assert "tools/call" not in requests(sent)  # neither sent unchecked nor at all

    guarded(sdk_server(TOOLS, answer), scenario)


def test_with_every_thread_of_the_registry_busy_a_check_runs_in_another_thread(monkeypatch):
    events = []

    async def scenario(session, sent):
        await session.refresh()
        first = hold(monkeypatch, session.registry.get("nums").validator, "first", events)
        second = hold(monkeypatch, session.registry.get("words").validator, "second", events)
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(session.call_tool, "nums", {"n": [1, 2]})
            await begun(first)  # it holds the registry's one thread
            tasks.start_soon(let_go, second, events)
            result = await session.call_tool("words", {"w": ["a", "a"]})
            events.append("second answered")
            first.go_on.set()
        assert events == [
            "first began",
            "second began",
            "the loop ran",
            "second ended",
            "second answered",
            "first ended",
        ]
        assert result.is_error and "at /w: must have unique items: items 0, 1 are equal" in text(result)

    guarded(sdk_server(TOOLS, answer), scenario, registry=toolreg.ToolRegistry(max_threads=1))


def test_the_guard_repairs_off_the_loop(monkeypatch):
    events = []

    async def scenario(session, sent):
        await session.refresh()
        guard = _GuardServer(session, GuardOptions(("upstream",), repair=True), None)
        held = hold(monkeypatch, session.registry.get("nums").validator, "repair", events)
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(let_go, held, events)
            repaired, note = await guard._repaired("nums", {"n": "[1, 2]"})
        assert events[:3] == ["repair began", "the loop ran", "repair ended"]
        assert repaired == {"n": [1, 2]}
        assert "/n" in note

    guarded(sdk_server(TOOLS, answer), scenario)
