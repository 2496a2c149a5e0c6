"""Calling tools: timeouts, retries only where safe, handler errors and outputs as values, each
provider's call in and result message out, and strict-mode calls with nulls."""

import ast
import asyncio
import json
import subprocess
import sys
import threading
import time
import unittest.mock
from pathlib import Path

import jsonschema
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import toolreg

SCHEMA = {
    "type": "object",
    "properties": {
        "path": {"type": "string", "minLength": 1},
        "limit": {"type": "integer", "minimum": 1},
        "options": {
            "type": "object",
            "properties": {"encoding": {"type": "string"}, "strip": {"type": "boolean"}},
            "required": ["encoding"],
            "additionalProperties": False,
        },
    },
    "required": ["path"],
    "additionalProperties": False,
}
FAST_RETRY = toolreg.RetryPolicy(attempts=3, backoff_ms=1, max_backoff_ms=2)


class Counter:
    """A handler that counts its runs, failing as told for the first ``failures`` of them."""

    def __init__(self, failures=0, error=None, sleep=0.0, result="done"):
        self.runs, self.failures, self.error, self.sleep, self.result = 0, failures, error, sleep, result
        self.lock = threading.Lock()

    def __call__(self, **args):
        with self.lock:
            self.runs += 1
            run = self.runs
        if self.sleep:
            time.sleep(self.sleep)
        if run <= self.failures:
            raise self.error
        return self.result


def registry(**options):
    return toolreg.ToolRegistry(retry=FAST_RETRY, **options)


# -- timeouts and retries ------------------------------------------------------------------------


def test_a_timeout_fires_within_its_budget_for_a_sync_handler():
    tools = registry()
    tools.register("slow.op", {"type": "object"}, Counter(sleep=2.0), timeout_ms=50)
    started = time.perf_counter()
    result = tools.call("slow.op", {})
    elapsed = time.perf_counter() - started
    assert (result.ok, result.step, result.attempts) == (False, "timeout", 1)
    assert "50 ms" in result.message
    assert elapsed < 1.0  # the handler would take 2 s


def test_a_timeout_fires_within_its_budget_for_an_async_handler():
    tools = registry()

    async def slow(**arguments):
        await asyncio.sleep(2.0)

    tools.register("slow.op", {"type": "object"}, slow, timeout_ms=50)
    started = time.perf_counter()
    result = asyncio.run(tools.acall("slow.op", {}))
    assert (result.step, result.attempts) == ("timeout", 1)
    assert time.perf_counter() - started < 1.0


def test_the_registry_default_budget_applies_to_tools_without_one():
    tools = registry(default_timeout_ms=50)
    tools.register("slow.op", {"type": "object"}, Counter(sleep=2.0))
    assert tools.call("slow.op", {}).step == "timeout"


def test_a_sync_handler_does_not_block_the_event_loop_of_acall():
    tools = registry()
    tools.register("slow.op", {"type": "object"}, Counter(sleep=0.3))
    ticks = []

    async def main():
        async def tick():
            for _ in range(5):
                ticks.append(time.perf_counter())
                await asyncio.sleep(0.02)

        return await asyncio.gather(tools.acall("slow.op", {}), tick())

    result, _ = asyncio.run(main())
    assert result.ok
    # The ticker ran its five ticks while the handler slept, not after it.
    assert len(ticks) == 5 and ticks[-1] - ticks[0] < 0.25


@pytest.mark.parametrize("failure", ["transient", "timeout"])
def test_an_idempotent_tool_is_retried_and_a_non_idempotent_one_never_is(failure):
    error = toolreg.TransientError("rate limited") if failure == "transient" else None
    outcomes = {}
    for idempotent in (True, False):
        tools = registry()
        if failure == "transient":
            handler = Counter(failures=2, error=error)
            tools.register("net.get", {"type": "object"}, handler, idempotent=idempotent)
        else:
            handler = Counter(sleep=0.2)
            tools.register("net.get", {"type": "object"}, handler, idempotent=idempotent, timeout_ms=20)
        outcomes[idempotent] = (tools.call("net.get", {}), handler)
    retried, once = outcomes[True], outcomes[False]
    if failure == "transient":
        assert retried[0].ok and retried[0].attempts == 3 and retried[1].runs == 3
    else:
        assert retried[0].step == "timeout" and retried[0].attempts == 3
        assert retried[1].runs == 3
    assert once[0].attempts == 1 and once[1].runs == 1 and not once[0].ok


def test_attempts_are_bounded_and_an_ordinary_error_is_not_retried():
    tools = registry()
    stubborn = Counter(failures=10, error=toolreg.TransientError("down"))
    tools.register("net.get", {"type": "object"}, stubborn, idempotent=True)
    result = tools.call("net.get", {})
    assert (result.step, result.attempts, stubborn.runs) == ("handler", 3, 3)
    broken = Counter(failures=10, error=KeyError("x"))
    tools.register("net.put", {"type": "object"}, broken, idempotent=True)
    assert (tools.call("net.put", {}).attempts, broken.runs) == (1, 1)


def test_acall_retries_as_call_does():
    tools = registry()
    handler = Counter(failures=1, error=toolreg.TransientError("busy"))
    tools.register("net.get", {"type": "object"}, handler, idempotent=True)
    result = asyncio.run(tools.acall("net.get", {}))
    assert result.ok and result.attempts == 2 and handler.runs == 2


def test_retry_policies_are_checked():
    with pytest.raises(toolreg.InvalidCallError, match="attempts"):
        toolreg.RetryPolicy(attempts=0)
    with pytest.raises(toolreg.InvalidCallError, match="backoff_ms"):
        toolreg.RetryPolicy(backoff_ms=-1)
    with pytest.raises(toolreg.InvalidToolError, match="default_timeout_ms"):
        toolreg.ToolRegistry(default_timeout_ms=0)
    assert list(toolreg.RetryPolicy(attempts=4, backoff_ms=100, max_backoff_ms=300).waits()) == [
        0.1,
        0.2,
        0.3,
    ]


# -- the threads handlers run in -----------------------------------------------------------------


def stuck_tools(release, **options):
    """A registry with a handler that blocks until ``release`` is set (abandoned after 10 ms), and a
    fast one."""
    tools = registry(**options)
    tools.register("stuck.op", {"type": "object"}, lambda **arguments: release.wait(5), timeout_ms=10)
    tools.register("fast.op", {"type": "object"}, lambda **arguments: "fast", timeout_ms=2000)
    return tools


def test_abandoned_handlers_hold_at_most_max_threads_and_a_full_pool_is_a_step_of_its_own():
    release = threading.Event()
    tools = stuck_tools(release, max_threads=8)
    before = threading.active_count()

    async def main():
        results = await asyncio.gather(*(tools.acall("stuck.op", {}) for _ in range(200)))
        # The event loop's own executor is free: getaddrinfo and run_in_executor answer at once.
        loop = asyncio.get_running_loop()
        await asyncio.wait_for(loop.getaddrinfo("127.0.0.1", 80), 2)
        assert await asyncio.wait_for(loop.run_in_executor(None, lambda: "free"), 2) == "free"
        return results, await tools.acall("fast.op", {})

    try:
        results, fast = asyncio.run(main())
        steps = [result.step for result in results]
        assert (steps.count("timeout"), steps.count("busy")) == (8, 192)
        assert threading.active_count() - before <= 8
        # A fast tool is not left to time out without running: it is told the threads are busy.
        assert (fast.step, fast.attempts) == ("busy", 0)
        assert fast.message.startswith("The tool fast.op was not run: all 8 threads for tools are busy")
        assert tools.call("fast.op", {}).step == "busy"
    finally:
        release.set()
    # Once the abandoned handlers end, their threads take new calls.
    for _ in range(200):
        if tools.call("fast.op", {}).ok:
            break
        time.sleep(0.01)
    assert tools.call("fast.op", {}).output == "fast"


def test_a_fast_tool_runs_after_blocking_handlers_timed_out():
    release = threading.Event()
    tools = stuck_tools(release, max_threads=8)

    async def main():
        timed_out = await asyncio.gather(*(tools.acall("stuck.op", {}) for _ in range(5)))
        return timed_out, await tools.acall("fast.op", {})

    try:
        timed_out, fast = asyncio.run(main())
    finally:
        release.set()
    assert {result.step for result in timed_out} == {"timeout"}
    assert (fast.ok, fast.output) == (True, "fast")


class HeldCheck(toolreg.ToolRegistry):
    """A registry whose check and rewrite of ``held.op``'s arguments wait for ``release``: a stand-in
    for a costly validation (a large argument, a first call compiling a large schema), which on the
    event loop would hold back every other call there until its wait ran out. The wait is in what the
    registry checks the tool's arguments with, which a call finds with the tool, and in the rewrite of
    strict nulls a call is given."""

    def __init__(self, release, seconds=2.0, **options):
        super().__init__(**options)
        self.release, self.seconds = release, seconds

    def register(self, name, *args, **options):
        record = super().register(name, *args, **options)
        if name == "held.op":
            entry = self._entry(name)
            entry.answers = Held(entry.answers, lambda: self.checking(name))
        return record

    def checking(self, name):
        """What happens while ``held.op``'s arguments are checked."""
        self.release.wait(self.seconds)

    def _without_nulls(self, record, args):
        if record.name == "held.op":
            self.release.wait(self.seconds)
        return super()._without_nulls(record, args)


class Held:
    """A tool's check of its arguments, which first lets ``checking`` happen."""

    def __init__(self, answers, checking):
        self.answers, self.checking = answers, checking

    def validate(self, args):
        self.checking()
        return self.answers.validate(args)

    def is_valid(self, args):
        self.checking()
        return self.answers.is_valid(args)


async def held_handler(**arguments):
    return "held"


@pytest.mark.parametrize("handler", ["sync", "async"])
@pytest.mark.parametrize("how", ["acall", "aanswer", "acall nulls_as_absent"])
def test_a_costly_check_of_arguments_does_not_hold_back_another_call_on_the_loop(how, handler):
    release, finished = threading.Event(), []
    tools = HeldCheck(release)
    tools.register("held.op", {"type": "object"}, held_handler if handler == "async" else lambda **a: "held")
    tools.register("fast.op", {"type": "object"}, lambda **arguments: "fast")

    async def call(name):
        if how == "aanswer":
            answer = await tools.aanswer({"name": name, "arguments": {}}, provider="mcp")
            finished.append(answer["content"][0]["text"])
        else:
            result = await tools.acall(name, {}, nulls_as_absent=how.endswith("nulls_as_absent"))
            finished.append(result.output)
        if name == "fast.op":
            release.set()  # the held check ends only once the other call has been answered

    async def main():
        await asyncio.gather(call("held.op"), call("fast.op"))

    asyncio.run(main())
    assert finished == ["fast", "held"]


def test_acall_checks_off_the_loop_and_answers_what_happened_meanwhile():
    release, ran = threading.Event(), []
    release.set()
    tools = HeldCheck(release)
    tools.register("held.op", {"type": "object"}, lambda **arguments: ran.append(1))

    class Unregistering(HeldCheck):
        def checking(self, name):
            self.unregister(name)  # another thread took the tool away while it was checked

    tools.register("held.typed", {"type": "object", "properties": {"x": {"type": "string"}}}, held_handler)
    refused = asyncio.run(tools.acall("held.typed", {"x": 1}))
    assert refused.step == "arguments" and [error.path for error in refused.errors] == ["/x"]
    gone = Unregistering(release)
    gone.register("held.op", {"type": "object"}, lambda **arguments: ran.append(1))
    result = asyncio.run(gone.acall("held.op", {}))
    assert result.step == "unknown_tool" and result.message.startswith("There is no tool named 'held.op'")

    class Refusing(HeldCheck):
        def _without_nulls(self, record, args):
            raise toolreg.InvalidCallError("cannot rewrite these")

    refusing = Refusing(release)
    refusing.register("held.op", {"type": "object"}, lambda **arguments: ran.append(1))
    with pytest.raises(toolreg.InvalidCallError, match="cannot rewrite these"):  # as it raised on the loop
        asyncio.run(refusing.acall("held.op", {}, nulls_as_absent=True))
    assert ran == []


def test_a_call_whose_tool_is_unregistered_while_it_is_checked_stops_at_the_unknown_tool_step():
    ran = []

    class Unregistering(HeldCheck):
        def checking(self, name):
            self.unregister(name)  # another thread took the tool away while it was checked

    tools = Unregistering(threading.Event())
    tools.register("held.op", {"type": "object"}, lambda **arguments: ran.append(1))
    result = tools.call("held.op", {})
    assert result.step == "unknown_tool" and result.message.startswith("There is no tool named 'held.op'")
    assert ran == [] and "held.op" not in tools


def test_a_retry_that_finds_every_thread_busy_is_a_busy_step():
    failed_once, release = threading.Event(), threading.Event()

    def flaky(**arguments):
        failed_once.set()
        raise toolreg.TransientError("down")

    tools = toolreg.ToolRegistry(retry=toolreg.RetryPolicy(attempts=2, backoff_ms=200), max_threads=1)
    tools.register("net.get", {"type": "object"}, flaky, idempotent=True)
    tools.register("stuck.op", {"type": "object"}, lambda **arguments: release.wait(5), timeout_ms=10)

    async def main():
        retried = asyncio.ensure_future(tools.acall("net.get", {}))
        # Until the first attempt has failed and its thread is idle again: the thread goes back to
        # the pool only after the handler has raised, a moment after failed_once is set.
        while not (failed_once.is_set() and tools._caller.workers._idle):
            await asyncio.sleep(0.001)
        # While net.get waits to try again, another call takes the one thread and keeps it.
        assert (await tools.acall("stuck.op", {})).step == "timeout"
        return await retried

    try:
        result = asyncio.run(main())
    finally:
        release.set()
    assert (result.step, result.attempts) == ("busy", 1)


def test_a_caller_cancelled_while_its_arguments_are_checked_never_runs_the_handler():
    release, ran = threading.Event(), []
    tools = HeldCheck(release, seconds=5.0, max_threads=1)
    tools.register("held.op", {"type": "object"}, lambda **arguments: ran.append("ran"))
    tools.register("fast.op", {"type": "object"}, lambda **arguments: "fast")

    async def main():
        task = asyncio.ensure_future(tools.acall("held.op", {}))
        await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert (await tools.acall("fast.op", {})).step == "busy"  # the one thread is still checking
        release.set()
        # Once the one thread has finished that job (and whatever it would run after the check), it
        # takes the next call.
        for _ in range(500):
            if (await tools.acall("fast.op", {})).ok:
                return
            await asyncio.sleep(0.01)
        pytest.fail("the thread never took another call")

    asyncio.run(main())
    assert ran == []


def test_an_abandoned_handler_does_not_hold_the_process_open_at_exit():
    # A stdio server must end with its client, whatever its abandoned handlers still do.
    script = (
        "import asyncio, time, toolreg\n"
        "tools = toolreg.ToolRegistry()\n"
        "tools.register('slow.op', {'type': 'object'}, lambda **a: time.sleep(600), timeout_ms=10)\n"
        "print(asyncio.run(tools.acall('slow.op', {})).step, tools.call('slow.op', {}).step)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.split() == ["timeout", "timeout"]


def test_max_threads_is_checked():
    assert toolreg.ToolRegistry().max_threads == 32
    for bad in (0, -1, 1.5, True, "8"):
        with pytest.raises(toolreg.InvalidToolError, match="max_threads"):
            toolreg.ToolRegistry(max_threads=bad)


def raising(error):
    def handler(**arguments):
        raise error

    return handler


async def raising_async(**arguments):
    raise asyncio.CancelledError  # its own, not a cancellation of the caller


BASE_EXCEPTIONS = {
    "StopIteration": StopIteration(),
    "SystemExit": SystemExit(3),
    "GeneratorExit": GeneratorExit(),
    "CancelledError": asyncio.CancelledError(),
}


@pytest.mark.parametrize("kind", sorted(BASE_EXCEPTIONS))
@pytest.mark.parametrize("how", ["call", "call in a thread", "acall", "acall in a thread"])
def test_every_exception_a_handler_raises_is_a_step(kind, how):
    tools = registry()
    budget = 5000 if how.endswith("in a thread") else None
    tools.register("odd.op", {"type": "object"}, raising(BASE_EXCEPTIONS[kind]), timeout_ms=budget)
    if how.startswith("acall"):
        result = asyncio.run(asyncio.wait_for(tools.acall("odd.op", {}), 5))  # a hang fails, not waits
    else:
        result = tools.call("odd.op", {})
    assert (result.step, result.attempts) == ("handler", 1)
    assert result.message.startswith(f"The tool odd.op failed: {kind}")


def test_a_cancelled_error_an_async_handler_raises_itself_is_a_step_and_the_caller_goes_on():
    tools = registry()
    tools.register("odd.op", {"type": "object"}, raising_async)
    tools.register("odd.timed", {"type": "object"}, raising_async, timeout_ms=5000)

    async def main():
        results = [await tools.acall("odd.op", {}), await tools.acall("odd.timed", {})]
        await asyncio.sleep(0)  # the caller's task was not cancelled: it goes on
        return results

    for result in asyncio.run(main()):
        assert result.step == "handler" and "CancelledError" in result.message
    assert tools.call("odd.op", {}).step == "handler"


@pytest.mark.parametrize("budget", [None, 5000])
@pytest.mark.parametrize("kind", ["async", "sync"])
def test_cancelling_the_caller_still_cancels_acall(kind, budget):
    started, finished = threading.Event(), []

    async def slow_async(**arguments):
        started.set()
        try:
            await asyncio.sleep(5)
        finally:
            finished.append("cancelled")

    def slow_sync(**arguments):
        started.set()
        time.sleep(0.2)

    tools = registry()
    tools.register(
        "slow.op", {"type": "object"}, slow_async if kind == "async" else slow_sync, timeout_ms=budget
    )

    async def main():
        task = asyncio.ensure_future(tools.acall("slow.op", {}))
        while not started.is_set():
            await asyncio.sleep(0.005)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())
    assert finished == (["cancelled"] if kind == "async" else [])


def test_a_keyboard_interrupt_stops_the_caller_in_its_own_thread_and_is_a_step_in_a_worker():
    tools = registry()
    tools.register("ctrl.c", {"type": "object"}, raising(KeyboardInterrupt()))
    with pytest.raises(KeyboardInterrupt):
        tools.call("ctrl.c", {})  # in this thread it may be the user's Ctrl-C
    tools.register("ctrl.c", {"type": "object"}, raising(KeyboardInterrupt()), timeout_ms=5000, override=True)
    assert tools.call("ctrl.c", {}).step == "handler"  # in a worker thread only the handler raises it
    assert asyncio.run(tools.acall("ctrl.c", {})).step == "handler"


def test_failures_name_the_tool_as_the_model_saw_it():
    tools = registry()
    tools.register("db.query", {"type": "object"}, raising(RuntimeError("down")))
    tools.register("db.wait", {"type": "object"}, Counter(sleep=0.5), timeout_ms=10)
    tools.register("db.bad", {"type": "object"}, lambda **arguments: {1, 2})
    for name, words in (("db.query", "failed"), ("db.wait", "did not finish"), ("db.bad", "is not JSON")):
        call = {
            "id": "c",
            "type": "function",
            "function": {"name": name.replace(".", "-"), "arguments": "{}"},
        }
        text = tools.answer(call)["content"]
        assert words in text and name.replace(".", "-") in text and name not in text, text


# -- every outcome a value -----------------------------------------------------------------------


def test_a_handler_exception_is_a_result_without_a_traceback_unless_asked():
    tools = registry()
    tools.register("fs.rm", {"type": "object"}, Counter(failures=5, error=OSError("disk full\n\x1b[31m")))
    result = tools.call("fs.rm", {})
    assert (result.ok, result.step) == (False, "handler")
    # The model reads the type alone; the whole text is kept for the harness's logs.
    assert result.message == "The tool fs.rm failed: OSError"
    assert result.detail == "OSError: disk full\n\x1b[31m"
    assert "detail='OSError: disk full\\n\\x1b[31m'" in repr(result)
    assert result.traceback is None and "Traceback" not in result.message
    assert "OSError: disk full" in tools.call("fs.rm", {}, with_traceback=True).traceback


SECRET = "connection to postgres://app:s3cr3t@10.0.0.5/prod failed"


@pytest.mark.parametrize("how", ["call", "acall"])
def test_the_model_reads_a_tool_errors_message_and_only_the_type_of_any_other(how):
    tools = registry()
    tools.register("db.query", {"type": "object"}, raising(ConnectionError(SECRET)))
    tools.register("fs.read", {"type": "object"}, raising(toolreg.ToolError("no file named\nnotes.txt")))
    tools.register(
        "net.get", {"type": "object"}, raising(toolreg.TransientError("rate limited; try in 30 s"))
    )
    tools.register("odd.op", {"type": "object"}, raising(toolreg.ToolError()))

    def called(name):
        return tools.call(name, {}) if how == "call" else asyncio.run(tools.acall(name, {}))

    hidden = called("db.query")
    assert hidden.message == "The tool db.query failed: ConnectionError" and "s3cr3t" not in repr(hidden.text)
    assert hidden.detail == f"ConnectionError: {SECRET}"
    told = called("fs.read")
    assert told.message == "The tool fs.read failed: no file named; notes.txt"
    assert told.detail == "ToolError: no file named\nnotes.txt"
    assert called("net.get").message == "The tool net.get failed: rate limited; try in 30 s"
    assert called("odd.op").message == "The tool odd.op failed: ToolError"  # no message: its type
    assert issubclass(toolreg.TransientError, toolreg.ToolError)
    assert issubclass(toolreg.ToolError, toolreg.ToolregError) and issubclass(toolreg.ToolError, RuntimeError)


def test_show_handler_errors_shows_the_model_every_message_as_before():
    tools = registry(show_handler_errors=True)
    assert tools.show_handler_errors and not registry().show_handler_errors
    tools.register("fs.rm", {"type": "object"}, raising(OSError("disk full\n\x1b[31m")))
    tools.register("net.get", {"type": "object"}, raising(toolreg.TransientError("down")))
    result = tools.call("fs.rm", {})
    assert result.message == "The tool fs.rm failed: OSError: disk full; \\u001b[31m"
    assert result.detail == "OSError: disk full\n\x1b[31m"
    assert tools.call("net.get", {}).message == "The tool net.get failed: TransientError: down"
    with pytest.raises(toolreg.InvalidToolError, match="show_handler_errors must be True or False"):
        toolreg.ToolRegistry(show_handler_errors="yes")


def test_arguments_and_unknown_tools_stop_the_call_before_the_handler():
    tools = registry()
    handler = Counter()
    tools.register("fs.read_file", SCHEMA, handler)
    bad = tools.call("fs.read_file", {"path": ""})
    assert (bad.step, [error.path for error in bad.errors]) == ("arguments", ["/path"])
    assert "Fix these" in bad.message
    unknown = tools.call("fs.read_fil", {})
    assert unknown.step == "unknown_tool" and "Did you mean 'fs.read_file'?" in unknown.message
    assert handler.runs == 0


def test_an_output_that_breaks_its_schema_is_the_tool_fault_in_the_words():
    tools = registry()
    output_schema = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    tools.register("calc.count", {"type": "object"}, Counter(result={"n": "3"}), output_schema=output_schema)
    result = tools.call("calc.count", {})
    assert (result.step, [error.path for error in result.errors]) == ("output", ["/n"])
    assert result.message.startswith("The result of calc.count does not match its output schema")
    assert "The tool, not the call, is at fault" in result.message and "Fix these" not in result.message


# -- a provider's call in, its result message out ------------------------------------------------

NAME = "fs-read_file"  # as OpenAI and Anthropic see fs.read_file
CALLS = {
    "openai": lambda args: {"id": "c1", "type": "function", "function": {"name": NAME, "arguments": args}},
    "openai-responses": lambda args: {
        "type": "function_call",
        "call_id": "c1",
        "name": NAME,
        "arguments": args,
    },
    "anthropic": lambda args: {"type": "tool_use", "id": "c1", "name": NAME, "input": args},
    "gemini": lambda args: {"functionCall": {"name": "fs.read_file", "args": args, "id": "c1"}},
    "mcp": lambda args: {"name": "fs.read_file", "arguments": args},
}
TEXT_ARGUMENTS = {"openai", "openai-responses"}


def _sent(provider, args):
    return CALLS[provider](json.dumps(args) if provider in TEXT_ARGUMENTS else args)


def _text_and_error(provider, message):
    if provider == "openai":
        assert (message["role"], message["tool_call_id"]) == ("tool", "c1")
        return message["content"], None
    if provider == "openai-responses":
        assert (message["type"], message["call_id"]) == ("function_call_output", "c1")
        return message["output"], None
    if provider == "anthropic":
        assert (message["type"], message["tool_use_id"]) == ("tool_result", "c1")
        return message["content"], message.get("is_error", False)
    if provider == "gemini":
        function = message["functionResponse"]
        assert (function["name"], function["id"]) == ("fs.read_file", "c1")
        response = function["response"]
        return response.get("error", json.dumps(response.get("result"))), "error" in response
    return message["content"][0]["text"], message["isError"]


@pytest.mark.parametrize("provider", sorted(CALLS))
def test_each_provider_gets_its_result_message_for_success_and_failure(provider):
    tools = registry()
    output_schema = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}
    tools.register(
        "fs.read_file", SCHEMA, lambda path, **rest: {"text": f"read {path}"}, output_schema=output_schema
    )
    text, is_error = _text_and_error(provider, tools.answer(_sent(provider, {"path": "a.txt"})))
    assert "read a.txt" in text and not is_error
    text, is_error = _text_and_error(provider, tools.answer(_sent(provider, {"path": 3})))
    assert "at /path: expected string, got integer" in text and is_error in (True, None)
    if provider in ("openai", "anthropic", "openai-responses"):
        assert "fs-read_file" in text  # the name as this provider knows it


@pytest.mark.parametrize("provider", sorted(CALLS))
def test_a_handler_error_and_a_broken_output_reach_each_provider(provider):
    tools = registry()
    tools.register("fs.read_file", SCHEMA, Counter(failures=1, error=RuntimeError("no disk")))
    text, is_error = _text_and_error(provider, tools.answer(_sent(provider, {"path": "a"})))
    shown = NAME if provider in TEXT_ARGUMENTS | {"anthropic"} else "fs.read_file"  # as the model saw it
    assert text == f"The tool {shown} failed: RuntimeError" and is_error in (True, None)
    tools = registry()
    tools.register("fs.read_file", SCHEMA, Counter(failures=1, error=ConnectionError(SECRET)))
    text, is_error = _text_and_error(provider, asyncio.run(tools.aanswer(_sent(provider, {"path": "a"}))))
    assert text == f"The tool {shown} failed: ConnectionError" and is_error in (True, None)
    tools = registry()
    tools.register("fs.read_file", SCHEMA, Counter(failures=1, error=toolreg.ToolError("no disk")))
    text, is_error = _text_and_error(provider, tools.answer(_sent(provider, {"path": "a"})))
    assert text == f"The tool {shown} failed: no disk" and is_error in (True, None)
    tools = registry()
    tools.register(
        "fs.read_file",
        SCHEMA,
        Counter(result={"x": 1}),
        output_schema={"type": "object", "required": ["text"]},
    )
    text, is_error = _text_and_error(provider, tools.answer(_sent(provider, {"path": "a"})))
    assert "does not match its output schema" in text and is_error in (True, None)


def test_mcp_results_carry_structured_content_and_its_text():
    tools = registry()
    tools.register(
        "calc.add", {"type": "object"}, lambda **arguments: {"sum": 3}, output_schema={"type": "object"}
    )
    answer = tools.answer({"name": "calc.add", "arguments": {}})
    assert answer == {
        "content": [{"type": "text", "text": '{"sum": 3}'}],
        "isError": False,
        "structuredContent": {"sum": 3},
    }
    tools.register("calc.say", {"type": "object"}, lambda **arguments: "three")
    assert "structuredContent" not in tools.answer({"name": "calc.say"})


def test_mcp_error_results_keep_the_errors_out_of_structured_content():
    tools = registry()
    output_schema = {"type": "object", "properties": {"sum": {"type": "integer"}}, "required": ["sum"]}
    tools.register("calc.add", SCHEMA, lambda path, **rest: {"sum": "three"}, output_schema=output_schema)
    for arguments in ({"path": 3}, {"path": "a"}):  # bad arguments, then a result that breaks its schema
        answer = tools.answer({"name": "calc.add", "arguments": arguments})
        # structuredContent must fit the output schema: clients check it even on errors.
        assert answer["isError"] is True and "structuredContent" not in answer
        assert answer["_meta"]["toolreg/errors"][0]["path"] in ("/path", "/sum")
        assert answer["content"][0]["text"].count("\n- at /") == 1
    failed = tools.answer({"name": "calc.nope", "arguments": {}})
    assert failed["isError"] is True and set(failed) == {"content", "isError"}


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "empty text; send a JSON object, {} when there are none"),
        ("   ", "empty text"),
        ('{"path": "a"} {"path": "b"}', "text after the JSON value, from character 14"),
        ('{"path": "a"}x', "text after the JSON value"),
        (json.dumps(json.dumps({"path": "a"})), "encoded twice"),
        ("[1, 2]", "must be a JSON object, not an array"),
        ('"a.txt"', "must be a JSON object, not a string"),
        ("null", "must be a JSON object, not a null"),
        ('{"path": ', "not valid JSON: Expecting value at character 9"),
        # In toolreg's words on every Python: the decoders of 3.11 and 3.13 word these differently.
        ('{"path": "a",}', "not valid JSON: a trailing comma at character 12 (JSON allows none)."),
        ('{"path": ["a", \n ]}', "not valid JSON: a trailing comma at character 13 (JSON allows none)."),
        ("{'path': 'a'}", "not valid JSON"),
        ("[" * 100_000, "nested too deeply"),
    ],
)
def test_arguments_sent_as_json_text_get_clear_answers(text, words):
    tools = registry()
    handler = Counter()
    tools.register("fs.read_file", SCHEMA, handler)
    answer = tools.answer(CALLS["openai"](text))
    assert words in answer["content"]
    assert handler.runs == 0


def test_an_unknown_name_gets_the_nearest_names_in_the_provider_form():
    tools = registry()
    for name in ("fs.read_file", "fs.write_file", "web.search"):
        tools.register(name, {"type": "object"}, Counter())
    answer = tools.answer({"type": "tool_use", "id": "u", "name": "fs-read_files", "input": {}})
    assert answer["is_error"] is True
    assert "Did you mean 'fs-read_file', 'fs-write_file'?" in answer["content"]
    assert "The tools are: fs-read_file, fs-write_file, web-search." in answer["content"]


def test_what_is_no_tool_call_is_refused_naming_the_shapes():
    tools = registry()
    for odd in ([], {"type": "text", "text": "hi"}, {"function": "x"}, {"name": 3}):
        with pytest.raises(toolreg.InvalidCallError, match="it reads"):
            tools.answer(odd)
    with pytest.raises(toolreg.UnknownProviderError, match="the providers are openai, openai-responses"):
        tools.answer({"name": "x"}, provider="cohere")


@pytest.mark.parametrize("provider", sorted(CALLS))
def test_arguments_are_read_once_in_each_provider_form(provider):
    tools = registry()
    handler = Counter()
    tools.register("fs.read_file", SCHEMA, handler)
    text = json.dumps({"path": "a"})
    # One encoding more than the provider's own form is refused alike, whichever the provider.
    sent = CALLS[provider](json.dumps(text) if provider in TEXT_ARGUMENTS else text)
    words, _ = _text_and_error(provider, tools.answer(sent))
    assert "must be a JSON object, not a string holding JSON text (encoded twice)" in words
    assert handler.runs == 0
    # An object is taken as the arguments in every form (a harness may have decoded OpenAI's text).
    words, _ = _text_and_error(provider, tools.answer(CALLS[provider]({"path": "a"})))
    assert words in ("done", json.dumps("done")) and handler.runs == 1


def test_sdk_dumps_of_each_provider_call_are_read():
    tools = registry()
    tools.register("fs.read_file", SCHEMA, lambda path, **rest: f"read {path}")
    # The shapes of the SDKs' model_dump(), fields they leave unset as None.
    gemini_part = {
        "video_metadata": None,
        "thought": None,
        "function_call": {"id": "g1", "args": {"path": "a"}, "name": "fs.read_file", "partial_args": None},
        "function_response": None,
        "text": None,
    }
    assert tools.answer(gemini_part) == {
        "functionResponse": {"name": "fs.read_file", "response": {"result": "read a"}, "id": "g1"}
    }
    no_arguments = {"function_call": {"id": None, "args": None, "name": "fs.read_file"}, "text": None}
    assert "missing required property" in tools.answer(no_arguments)["functionResponse"]["response"]["error"]
    mcp_params = {"name": "fs.read_file", "arguments": None, "_meta": None}
    assert "missing required property" in tools.answer(mcp_params)["content"][0]["text"]
    responses_item = {"arguments": '{"path": "a"}', "call_id": "r1", "name": "fs-read_file",
                      "type": "function_call", "id": "fc_1", "status": "completed"}  # fmt: skip
    assert tools.answer(responses_item) == {
        "type": "function_call_output",
        "call_id": "r1",
        "output": "read a",
    }


def test_aanswer_answers_as_answer_does():
    tools = registry()

    async def read(path, **rest):
        return f"read {path}"

    tools.register("fs.read_file", SCHEMA, read)
    call = CALLS["anthropic"]({"path": "a"})
    assert asyncio.run(tools.aanswer(call)) == {
        "type": "tool_result",
        "tool_use_id": "c1",
        "content": "read a",
    }


def test_an_integer_too_long_to_read_or_write_is_reported_never_raised():
    digits = "9" * 5000
    tools = registry()
    handler = Counter(result=10**5000)
    tools.register("num.echo", {"type": "object"}, handler)
    answer = tools.answer(CALLS["openai"](f'{{"n": {digits}}}'))
    assert "an integer with too many digits to read" in answer["content"] and handler.runs == 0
    result = tools.call("num.echo", {})
    assert (result.step, [error.path for error in result.errors]) == ("output", [""])
    assert "an integer of 5001 digits" in result.message and "is not JSON that can be sent" in result.message
    for provider in sorted(CALLS):
        json.dumps(tools.answer(_sent(provider, {})))  # every answer can be written as JSON text
    tools.register("num.deep", {"type": "object"}, Counter(result={"rows": [1, 10**5000]}))
    assert tools.call("num.deep", {}).errors[0].path == "/rows/1"
    # A result made by hand cannot be written either: it is described, not raised.
    made = toolreg.CallResult("num.echo", True, {"n": 10**5000})
    assert "not JSON" in made.text and "too long to write" in repr(made)
    failed = tools.call("num.deep", {})
    assert "step='output'" in repr(failed) and "errors=<1 at /rows/1>" in repr(failed)
    tools.register("num.raise", {"type": "object"}, raising(ValueError(10**5000)))
    raised = tools.call("num.raise", {}, with_traceback=True)
    assert raised.message == "The tool num.raise failed: ValueError"
    assert raised.detail == "ValueError: (its message cannot be written)"
    assert raised.traceback.endswith("ValueError: <exception str() failed>\n")
    shown = registry(show_handler_errors=True)
    shown.register("num.raise", {"type": "object"}, raising(ValueError(10**5000)))
    assert shown.call("num.raise", {}).message.endswith("ValueError: (its message cannot be written)")


def test_an_output_that_is_not_json_is_the_tool_fault_naming_where():
    tools = registry()
    tools.register("odd.set", {"type": "object"}, Counter(result={"tags": {"a"}}))
    tools.register("odd.nan", {"type": "object"}, Counter(result=float("nan")))
    tools.register("odd.tuple", {"type": "object"}, Counter(result=("a", "b")))
    for name, path in (("odd.set", "/tags"), ("odd.nan", ""), ("odd.tuple", "")):
        result = tools.call(name, {})
        assert (result.step, [error.path for error in result.errors]) == ("output", [path])
        assert result.message.startswith(f"The result of {name} is not JSON that can be sent")
        assert "{'a'}" not in result.message  # never a Python repr for the model


def test_a_key_given_twice_in_the_arguments_text_is_an_error_naming_the_key():
    tools = registry()
    handler = Counter()
    tools.register("fs.read_file", SCHEMA, handler)
    answer = tools.answer(CALLS["openai"]('{"path": "a", "limit": 1, "path": "/etc/passwd"}'))
    assert "give the key 'path' twice in one object" in answer["content"] and handler.runs == 0
    nested = tools.answer(CALLS["openai"]('{"path": "a", "options": {"encoding": "x", "encoding": "y"}}'))
    assert "'encoding' twice" in nested["content"]


def test_an_answer_runs_only_the_tools_offered_this_turn():
    tools = registry()
    ran = []
    for name in ("fs.read_file", "fs.write_file", "fs.delete", "web.search"):
        tools.register(name, {"type": "object"}, lambda name=name, **arguments: ran.append(name) or "ok")
    offered = ["fs.read_file", "fs.write_file"]
    call = {"type": "tool_use", "id": "u", "name": "web-search", "input": {}}
    answer = tools.answer(call, offered=offered)
    assert answer["is_error"] is True and ran == []
    # An unknown name is answered with the offered names only.
    listed = "The tools are: fs-read_file, fs-write_file."
    assert answer["content"] == f"There is no tool named 'web-search'. {listed}"
    near = tools.answer({**call, "name": "fs-read_files"}, offered=offered)["content"]
    assert "Did you mean 'fs-read_file'" in near and "web-search" not in near
    assert tools.answer({**call, "name": "fs-read_file"}, offered=offered)["content"] == "ok"
    assert asyncio.run(tools.aanswer(call, offered=offered))["is_error"] is True
    assert tools.call("web.search", {}, offered=offered).step == "unknown_tool"
    assert asyncio.run(tools.acall("web.search", {}, offered=offered)).step == "unknown_tool"
    assert tools.answer(call)["content"] == "ok" and ran == ["fs.read_file", "web.search"]
    with pytest.raises(toolreg.InvalidCallError, match="not the string"):
        tools.answer(call, offered="web.search")


# -- strict mode ---------------------------------------------------------------------------------


def test_a_strict_call_with_nulls_for_optional_properties_validates_at_any_depth():
    tools = registry()
    seen = []
    tools.register("fs.read_file", SCHEMA, lambda **args: seen.append(args) or "ok")
    call = {"path": "a", "limit": None, "options": {"encoding": "utf-8", "strip": None}}
    assert tools.validate("fs.read_file", call)  # not as the original schema reads it
    assert tools.validate("fs.read_file", call, nulls_as_absent=True) == []
    answer = tools.answer(CALLS["openai"](json.dumps(call)), nulls_as_absent=True)
    assert answer["content"] == "ok"
    assert seen == [{"path": "a", "options": {"encoding": "utf-8"}}]
    # A null for a required property is still an error.
    errors = tools.validate("fs.read_file", {"path": None}, nulls_as_absent=True)
    assert [error.path for error in errors] == ["/path"]
    assert call["limit"] is None  # the caller's object is left as it was


def test_strict_nulls_are_read_through_local_references_and_items():
    schema = {
        "type": "object",
        "$defs": {"row": {"type": "object", "properties": {"note": {"type": "string"}}}},
        "properties": {"rows": {"type": "array", "items": {"$ref": "#/$defs/row"}}},
        "required": ["rows"],
    }
    tools = registry()
    tools.register("db.insert", schema, Counter())
    assert tools.validate("db.insert", {"rows": [{"note": None}, {"note": "x"}]}, nulls_as_absent=True) == []
    assert tools.arguments("db.insert", {"rows": [{"note": None}]}) == {"rows": [{}]}


def test_nulls_are_read_as_absent_inside_any_of_branches_and_through_references():
    # pydantic's Optional[Filters] = None, Filters holding optional fields of its own.
    filters = {
        "type": "object",
        "properties": {"paths": {"type": "array", "items": {"type": "string"}}, "limit": {"type": "integer"}},
        "additionalProperties": False,
    }
    schema = {
        "type": "object",
        "$defs": {"Filters": filters},
        "properties": {
            "query": {"type": "string"},
            "filters": {"anyOf": [{"$ref": "#/$defs/Filters"}, {"type": "null"}], "default": None},
        },
        "required": ["query"],
        "additionalProperties": False,
    }
    tools = registry()
    tools.register("fs.search", schema, lambda query, filters=None: {"query": query, "filters": filters})
    [tool] = tools.export("openai", strict=True)
    call = {"query": "x", "filters": {"paths": None, "limit": 3}}
    jsonschema.validate(call, tool["function"]["parameters"])  # as a strict model writes it
    assert tools.validate("fs.search", call)  # read plainly, the null for paths is an error …
    assert tools.validate("fs.search", call, nulls_as_absent=True) == []  # … read as absent, none
    answer = tools.answer(openai_call("fs-search", call), nulls_as_absent=True)
    assert json.loads(answer["content"]) == {"query": "x", "filters": {"limit": 3}}
    assert tools.arguments("fs.search", {"query": "x", "filters": None}) == {"query": "x"}


def test_a_null_an_optional_property_accepts_itself_is_ambiguous_in_strict_mode():
    schema = {
        "type": "object",
        "properties": {
            "note": {"type": ["string", "null"]},
            "tag": {"type": ["string", "null"], "default": None},
        },
        "additionalProperties": False,
    }
    tools = registry()
    tools.register("notes.add", schema, lambda note="", tag=None: "ok")
    with pytest.raises(toolreg.ExportError) as caught:
        tools.export("openai", strict=True)
    # Only "note" is ambiguous: "tag" says leaving it out means null.
    assert caught.value.schema_path == "/properties/note" and "1 blocker" in str(caught.value)
    [tool] = tools.export("openai", strict=True, omit_unsupported=True)
    assert "/properties/note: null is read as leaving it out" in tool["function"]["description"]
    branches = {
        "type": "object",
        "properties": {
            "item": {
                "anyOf": [
                    {
                        "type": "object",
                        "properties": {"a": {"type": "string"}},
                        "additionalProperties": False,
                    },
                    {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
                ]
            }
        },
        "required": ["item"],
        "additionalProperties": False,
    }
    tools.register("items.put", branches, lambda item: "ok")
    with pytest.raises(
        toolreg.ExportError, match="optional in one schema that may apply and required in another"
    ):
        tools.export("openai", names=["items.put"], strict=True, omit_unsupported=True)


SCALARS = [
    {"type": "string"},
    {"type": "integer"},
    {"type": "boolean"},
    {"type": "string", "format": "date"},
    {"enum": ["a", "b"]},
]
# Built once: Hypothesis checks each new strategy object, and these are drawn from thousands of times.
NAMES = st.lists(st.sampled_from("abcde"), min_size=1, max_size=4, unique=True)
FLAGS = st.lists(st.booleans(), min_size=4, max_size=4)
SCALAR = st.sampled_from(SCALARS)
KINDS = {
    True: st.sampled_from(["scalar", "array", "nullable", "object", "model", "optional model", "union"]),
    False: st.sampled_from(["scalar", "array", "nullable"]),
}


def strict_objects(draw, defs, depth=0):
    """A closed object schema of the shapes pydantic and hand-written catalogs use: scalars, arrays,
    nested objects, models by $ref, optional models and values (null by default), unions of objects."""
    names = draw(NAMES)
    properties = {name: strict_property(draw, defs, depth) for name in names}
    required = [name for name, needed in zip(names, draw(FLAGS), strict=False) if needed]
    return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}


def strict_property(draw, defs, depth):
    kind = draw(KINDS[depth < 2])
    if kind == "scalar":
        return draw(SCALAR)
    if kind == "array":
        items = strict_objects(draw, defs, depth + 1) if depth < 2 and draw(st.booleans()) else draw(SCALAR)
        return {"type": "array", "items": items}
    if kind == "nullable":
        return {"anyOf": [draw(SCALAR), {"type": "null"}], "default": None}
    if kind == "object":
        return strict_objects(draw, defs, depth + 1)
    if kind == "union":
        return {"anyOf": [strict_objects(draw, defs, depth + 1), strict_objects(draw, defs, depth + 1)]}
    name = f"M{len(defs)}"
    defs[name] = None  # the name is taken before the models inside it take theirs
    defs[name] = strict_objects(draw, defs, depth + 1)
    ref = {"$ref": f"#/$defs/{name}"}
    return ref if kind == "model" else {"anyOf": [ref, {"type": "null"}], "default": None}


def values_of(schema, defs):
    """Values valid for one of the schemas above."""
    if "$ref" in schema:
        return values_of(defs[schema["$ref"].rsplit("/", 1)[1]], defs)
    if "anyOf" in schema:
        return st.one_of([values_of(branch, defs) for branch in schema["anyOf"]])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    kind = schema["type"]
    if kind == "object":
        properties = {name: values_of(item, defs) for name, item in schema["properties"].items()}
        required = {name: properties[name] for name in schema["required"]}
        optional = {name: item for name, item in properties.items() if name not in required}
        return st.fixed_dictionaries(required, optional=optional)
    if kind == "array":
        return st.lists(values_of(schema["items"], defs), max_size=2)
    if schema.get("format") == "date":
        return st.dates().map(str)
    return {
        "string": st.text(max_size=3),
        "integer": st.integers(),
        "boolean": st.booleans(),
        "null": st.none(),
    }[kind]


def as_strict_model_writes(schema, value, defs):
    """``value`` as a model following the strict form writes it: every optional property it leaves out
    sent as null, in the branch the value follows."""
    if "$ref" in schema:
        return as_strict_model_writes(defs[schema["$ref"].rsplit("/", 1)[1]], value, defs)
    if "anyOf" in schema:
        branch = next(b for b in schema["anyOf"] if not toolreg.validate({**b, "$defs": defs}, value))
        return as_strict_model_writes(branch, value, defs)
    if isinstance(value, dict):
        properties = schema["properties"]
        return {name: as_strict_model_writes(item, value[name], defs) if name in value else None
                for name, item in properties.items()}  # fmt: skip
    if isinstance(value, list):
        return [as_strict_model_writes(schema["items"], item, defs) for item in value]
    return value


def echo(**arguments):
    return arguments


def openai_call(name, arguments):
    return {"id": "c1", "type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}


@pytest.mark.no_cover
@given(st.data())
def test_a_call_as_a_strict_model_writes_it_is_answered_as_the_call_itself(data):
    # Validators answer with the reference walk, as a registry's do for a tool's first calls: hundreds
    # of throwaway tools have no use for generated code.
    with unittest.mock.patch.object(toolreg._jsonschema.validator, "WALKED_VALUES", 10**9):
        strict_round_trip(data)


def strict_round_trip(data):
    defs = {}
    schema = strict_objects(data.draw, defs)
    if defs:
        schema["$defs"] = defs
    tools = registry()
    tools.register("any.tool", schema, echo)
    try:
        [tool] = tools.export("openai", strict=True)
    except toolreg.ExportError as refused:
        assume("optional in one schema that may apply and required in another" in str(refused))
        return  # only unions that name one property both ways are refused
    strict = tool["function"]["parameters"]
    call = data.draw(values_of(schema, defs))
    assert tools.validate("any.tool", call) == []
    written = as_strict_model_writes(schema, call, defs)
    jsonschema.Draft202012Validator(strict).validate(written)  # what strict decoding lets through

    def answered(arguments, **options):
        return json.loads(tools.answer(openai_call("any-tool", arguments), **options)["content"])

    read_back = answered(written, nulls_as_absent=True)
    assert read_back == answered(call, nulls_as_absent=True) == tools.arguments("any.tool", call)
    # Read plainly, a call holding no null for an optional property is the same answer again (a null
    # given for an optional property that accepts null means, by its default, what leaving it out does).
    if tools.arguments("any.tool", call) == call:
        assert read_back == answered(call) == call


# -- a call finds its tool once -------------------------------------------------------------------


class Counted(dict):
    """A registry's table of tools that notes each tool looked up in it, however it is read."""

    def __init__(self, table, noted):
        super().__init__(table)
        self.noted = noted

    def __getitem__(self, name):
        self.noted.append(name)
        return super().__getitem__(name)

    def get(self, name, default=None):
        self.noted.append(name)
        return super().get(name, default)


def counted_tools(**options):
    """A registry whose tables of records and of checks note every lookup into ``lookups``."""
    tools = registry(**options)
    flaky = Counter(failures=1, error=toolreg.TransientError("down"))
    closed = {"type": "object", "additionalProperties": False}
    tools.register("a.typed", {**closed, "properties": {"n": {"type": "integer"}}}, lambda n=0: n)
    tools.register("a.flaky", {"type": "object"}, flaky, idempotent=True, timeout_ms=5000)
    schema = {**closed, "properties": {"n": {"type": ["integer", "null"]}}}
    tools.register("a.out", schema, lambda n=None: {"n": n}, output_schema={"type": "object"})
    lookups = []
    tools._records, tools._entries = Counted(tools._records, lookups), Counted(tools._entries, lookups)
    return tools, lookups


FINDING_ONCE = [
    ("a.typed", {"n": 2.0}, {}),  # an integral number handed as an int
    ("a.typed", {"n": "2"}, {"repair": True}),  # repaired, and judged again
    ("a.typed", {"n": "x"}, {"repair": True}),  # not repaired: the arguments step
    ("a.flaky", {}, {}),  # tried twice
    ("a.out", {"n": None}, {"nulls_as_absent": True}),  # rewritten, then its output checked
]


@pytest.mark.parametrize(("name", "args", "options"), FINDING_ONCE)
@pytest.mark.parametrize("how", ["call", "acall", "answer", "aanswer"])
def test_a_call_looks_its_tool_up_once(how, name, args, options):
    tools, lookups = counted_tools()
    if how.endswith("answer"):
        sent = {"name": name, "arguments": args}
        answering = tools.aanswer if how == "aanswer" else tools.answer
        answered = answering(sent, provider="mcp", **options)
        answer = asyncio.run(answered) if how == "aanswer" else answered
        ok = not answer["isError"]
    else:
        result = (
            asyncio.run(tools.acall(name, args, **options))
            if how == "acall"
            else tools.call(name, args, **options)
        )
        ok = result.ok
    assert ok == (args != {"n": "x"})
    assert lookups == [name]


@pytest.mark.parametrize("how", ["answer", "aanswer"])
def test_an_answer_to_text_only_trailing_commas_kept_from_being_read_looks_its_tool_up_once(how):
    tools, lookups = counted_tools()
    sent = {"type": "function", "id": "c1", "function": {"name": "a-out", "arguments": '{"n": null,}'}}
    answering = tools.aanswer if how == "aanswer" else tools.answer
    answered = answering(sent, provider="openai", repair=True, nulls_as_absent=True)
    answer = asyncio.run(answered) if how == "aanswer" else answered
    assert json.loads(answer["content"].split("\n\n")[0]) == {"n": None} and lookups == ["a.out"]
    unread = {"type": "function", "id": "c2", "function": {"name": "a-out", "arguments": "{"}}
    answer = tools.answer(unread, provider="openai", repair=True)
    assert answer["content"].startswith("The arguments are not valid JSON") and lookups == ["a.out"]


# -- the layers stay apart -------------------------------------------------------------------------

PACKAGE = Path(toolreg.__file__).parent
# Every module of the pure validator (the whole folder, so a new module is held to it at once), and
# the feedback written from its errors.
PURE_MODULES = sorted(PACKAGE.glob("_jsonschema/**/*.py")) + [PACKAGE / "_feedback.py"]
IMPURE = {"time", "asyncio", "threading", "concurrent", "os", "io", "socket", "random", "datetime", "pathlib"}


def imports_of(module):
    """The toolreg modules ``module`` imports (by their path under the package), at any place in it."""
    found = set()
    package = module.parent.relative_to(PACKAGE).parts
    for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package[: len(package) - node.level + 1]
            if node.module:  # from ..module import name
                found.add("/".join((*base, *node.module.split("."))))
            else:  # from . import module
                found.update("/".join((*base, alias.name)) for alias in node.names)
    return found


# _results.py is here too: CallResult stands below both the calling layer and the providers.
REGISTRY_LAYER = [
    "_registry.py", "_signatures.py", "_pydantic.py", "_feedback.py", "_errors.py", "_bfcl.py", "_results.py"
]  # fmt: skip


@pytest.mark.parametrize("name", REGISTRY_LAYER)
def test_the_registry_layer_knows_nothing_of_calling_or_providers(name):
    imported = imports_of(PACKAGE / name)
    assert not {module for module in imported if module.startswith(("_calls", "_providers", "_toolregistry"))}


@pytest.mark.parametrize("module", sorted(PACKAGE.glob("_providers/*.py")) + [PACKAGE / "_calls.py"])
def test_the_calling_layer_and_the_providers_never_import_the_public_registry(module):
    imported = imports_of(module)
    assert not {name for name in imported if name.startswith(("_toolregistry", "_cli"))}
    if module.name == "_calls.py":
        assert not {name for name in imported if name.startswith("_providers")}
    else:  # side by side: the providers read calls and write answers; the registry calls between
        assert not {name for name in imported if name.startswith("_calls")}


@pytest.mark.parametrize("module", PURE_MODULES, ids=lambda path: path.stem)
def test_the_validator_modules_import_no_clock_io_or_threads_and_nothing_above_them(module):
    imported = set()
    for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            imported.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            imported.add(node.module.split(".")[0])
        elif isinstance(node, ast.ImportFrom) and CORE in module.parents and node.level > depth_in(module):
            imported.add(f"{'.' * node.level}{node.module or ''}")  # a module above the core
    # The one exception, stack.py: a walk that ran out of its caller's stack goes on in a thread of its
    # own, joined at once (docs/limits.md, "Depth"); no other module of the core may start one.
    allowed = {"threading"} if module == CORE / "stack.py" else set()
    assert not imported & (IMPURE - allowed)
    assert not {name for name in imported if name.startswith("..") or name == "toolreg"}


CORE = PACKAGE / "_jsonschema"


def depth_in(module):
    """How many levels a relative import may climb from ``module`` and stay within the core."""
    return len(module.relative_to(CORE).parts)


@pytest.mark.parametrize("module", sorted(PACKAGE.glob("_jsonschema/regex/*.py")), ids=lambda path: path.stem)
def test_the_pattern_engine_knows_nothing_of_json_schema(module):
    outside = {name for name in imports_of(module) if not name.startswith("_jsonschema/regex/")}
    assert outside <= {"_jsonschema/errors"}  # ToolregError, the root of every exception


# -- OpenAI's strict export ----------------------------------------------------------------------

LOOSE = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "minLength": 1, "maxLength": 40},
        "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
        "extra": {"type": "object", "additionalProperties": {"type": "integer"}},
    },
    "required": ["name"],
}


def test_a_strict_export_reports_every_blocker_at_once():
    tools = registry()
    tools.register("notes.add", LOOSE, Counter())
    with pytest.raises(toolreg.ExportError) as caught:
        tools.export("openai", strict=True)
    message = str(caught.value)
    assert "5 blockers" in message
    blocked = ("name/minLength", "name/maxLength", "tags/uniqueItems", "extra/additionalProperties")
    for pointer in blocked:
        assert repr(f"/properties/{pointer}") in message
    # and the root, open to names it does not name, which a strict model could never send
    assert "allows properties it does not name (it has no \"additionalProperties\": false) (at '')" in message
    assert caught.value.schema_path == "/properties/name/minLength"


def test_a_strict_export_may_leave_out_what_strict_mode_cannot_say_and_the_registry_still_checks_it():
    tools = registry()
    tools.register("notes.add", LOOSE, lambda **args: "added", description="Add a note")
    [tool] = tools.export("openai", strict=True, omit_unsupported=True)
    function = tool["function"]
    name = function["parameters"]["properties"]["name"]
    assert "minLength" not in name and "maxLength" not in name
    # A map cannot be closed without emptying it: the optional property holding one is left out.
    assert "extra" not in function["parameters"]["properties"]
    assert function["description"].startswith("Add a note\nNot expressible in strict mode: ")
    assert "/properties/name: minLength 1" in function["description"]
    assert "/properties/extra: left out (" in function["description"]
    # What the model was not shown is still enforced when its call comes in.
    call = {"id": "c", "type": "function", "function": {"name": "notes-add", "arguments": ""}}
    call["function"]["arguments"] = json.dumps({"name": "", "tags": None, "extra": None})
    answer = tools.answer(call, nulls_as_absent=True)
    assert "at /name: must be at least 1 character long" in answer["content"]
    call["function"]["arguments"] = json.dumps({"name": "a", "tags": ["x"], "extra": None})
    assert tools.answer(call, nulls_as_absent=True)["content"] == "added"


def test_what_cannot_be_left_out_is_still_a_blocker():
    tools = registry()
    tools.register("t.a", {"anyOf": [{"type": "object"}]}, Counter())
    tools.register("t.b", {"type": "object", "properties": {"x": False}, "required": ["x"]}, Counter())
    map_of_strings = {"type": "object", "additionalProperties": {"type": "string"}}
    tools.register(
        "t.c", {"type": "object", "properties": {"env": map_of_strings}, "required": ["env"]}, Counter()
    )
    tools.register("t.d", {"type": "object", "properties": {"x": {}}, "required": ["x"]}, Counter())
    tools.register("t.e", {"oneOf": [{"type": "object", "properties": {"x": {"type": "string"}}}]}, Counter())
    blockers = {
        "t.a": "anyOf at the root",
        "t.b": "no 'false' schema",
        "t.c": "closing would empty",
        "t.d": "has none",
        "t.e": "oneOf at the root",
    }
    for name, words in blockers.items():
        with pytest.raises(toolreg.ExportError, match=words):
            tools.export("openai", names=[name], strict=True, omit_unsupported=True)
    with pytest.raises(toolreg.ExportError, match="goes with strict=True"):
        tools.export("openai", names=["t.a"], omit_unsupported=True)


def test_a_discriminated_union_is_sent_as_any_of_and_read_back():
    cat = {
        "type": "object",
        "properties": {"kind": {"const": "cat"}, "meows": {"type": "integer"}},
        "required": ["kind"],
    }
    dog = {
        "type": "object",
        "properties": {"kind": {"const": "dog"}, "barks": {"type": "boolean"}},
        "required": ["kind"],
    }
    schema = {
        "type": "object",
        "$defs": {"Cat": cat, "Dog": dog},
        "properties": {
            "pet": {
                "oneOf": [{"$ref": "#/$defs/Cat"}, {"$ref": "#/$defs/Dog"}],
                "discriminator": {"propertyName": "kind"},
            }
        },
        "required": ["pet"],
        "additionalProperties": False,
    }
    tools = registry()
    tools.register("pets.adopt", schema, lambda pet: pet)
    with pytest.raises(toolreg.ExportError) as caught:
        tools.export("openai", strict=True)
    # Cat and Dog are open to other names, as pydantic writes a model: blockers too, found first.
    assert "3 blockers" in str(caught.value) and "(at '/properties/pet/oneOf')" in str(caught.value)
    assert caught.value.schema_path == "/$defs/Cat"
    [tool] = tools.export("openai", strict=True, omit_unsupported=True)
    pet = tool["function"]["parameters"]["properties"]["pet"]
    assert pet == {"anyOf": [{"$ref": "#/$defs/Cat"}, {"$ref": "#/$defs/Dog"}]}  # never left with no schema
    assert tool["function"]["description"] == (
        "Not expressible in strict mode: /$defs/Cat: other property names; "
        "/$defs/Dog: other property names; /properties/pet: oneOf written as anyOf"
    )
    answer = tools.answer(
        openai_call("pets-adopt", {"pet": {"kind": "dog", "barks": None}}), nulls_as_absent=True
    )
    assert json.loads(answer["content"]) == {"kind": "dog"}


def typeless_or_emptied(converted, original, root, here=""):
    """Each place of a strict form with no type, or an object closed with no property where the
    original named none and was open to any (a map emptied)."""
    found = []
    if not isinstance(converted, dict):
        return [here]
    if here and not {"type", "anyOf", "$ref", "enum", "const"} & converted.keys():
        found.append(here)
    closed_empty = converted.get("additionalProperties") is False and not converted.get("properties")
    open_before = not isinstance(original, dict) or (
        original.get("additionalProperties", True) is not False and not original.get("properties")
    )
    if here and closed_empty and open_before:
        found.append(here)
    for keyword in ("properties", "$defs", "definitions"):
        for key, item in converted.get(keyword, {}).items():
            below = original.get(keyword, {}).get(key) if isinstance(original, dict) else None
            found += typeless_or_emptied(item, below, root, f"{here}/{keyword}/{key}")
    for keyword in ("anyOf",):
        branches = (
            (original.get("anyOf") or original.get("oneOf") or []) if isinstance(original, dict) else []
        )
        for index, item in enumerate(converted.get(keyword, [])):
            below = branches[index] if index < len(branches) else None
            found += typeless_or_emptied(item, below, root, f"{here}/{keyword}/{index}")
    if "items" in converted:
        found += typeless_or_emptied(converted["items"], (original or {}).get("items"), root, f"{here}/items")
    return found


LOOSE_KINDS = st.sampled_from(
    [
        "scalar",
        "constrained",
        "odd format",
        "typeless",
        "map",
        "open object",
        "object",
        "one of",
        "all of",
        "false",
    ]
)


def loose_objects(draw, depth=0):
    """An object schema of what catalogs write and strict mode cannot all take: constraints it lacks,
    formats it refuses, typeless values, maps, open objects, oneOf and allOf unions, false."""
    names = draw(NAMES)
    properties = {name: loose_property(draw, depth) for name in names}
    required = [name for name, needed in zip(names, draw(FLAGS), strict=False) if needed]
    return {"type": "object", "properties": properties, "required": required}


def loose_property(draw, depth):
    kind = draw(LOOSE_KINDS) if depth < 2 else "scalar"
    nested = {
        "scalar": lambda: draw(SCALAR),
        "constrained": lambda: {"type": "string", "minLength": 1, "maxLength": 9},
        "odd format": lambda: {"type": "string", "format": "uri"},
        "typeless": lambda: {"description": "anything"},
        "map": lambda: {"type": "object", "additionalProperties": {"type": "string"}},
        "open object": lambda: {"type": "object"},
        "object": lambda: loose_objects(draw, depth + 1),
        "one of": lambda: {"oneOf": [loose_objects(draw, depth + 1), loose_objects(draw, depth + 1)]},
        "all of": lambda: {"allOf": [{"type": "string"}, {"minLength": 1}]},
        "false": lambda: False,
    }
    return nested[kind]()


@given(st.data())
def test_what_a_strict_export_leaves_out_it_leaves_out_soundly(data):
    schema = loose_objects(data.draw)
    tools = registry()
    tools.register("any.tool", schema, echo)
    try:
        [tool] = tools.export("openai", strict=True, omit_unsupported=True)
    except toolreg.ExportError as refused:
        # Only what cannot be left out soundly: a required property strict mode cannot express.
        assert "blocker" in str(refused) and refused.schema_path.startswith("/properties/")
        return
    parameters = tool["function"]["parameters"]
    # A property whose optional wrapper made it nullable is read through the wrapper's first branch.
    assert typeless_or_emptied(unwrapped(parameters), schema, schema) == []
    jsonschema.Draft202012Validator.check_schema(parameters)


def unwrapped(schema):
    """The strict form without the nullable wrappers of optional properties."""
    if isinstance(schema, list):
        return [unwrapped(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    branches = schema.get("anyOf")
    if (
        isinstance(branches, list)
        and len(branches) == 2
        and branches[1] == {"type": "null"}
        and len(schema) == 1
    ):
        return unwrapped(branches[0])
    return {key: unwrapped(value) for key, value in schema.items()}


def test_closed_objects_pass_through_a_strict_export_as_written():
    schema = {
        "type": "object",
        "properties": {
            "inner": {
                "type": "object",
                "properties": {"a": {"type": "string"}},
                "additionalProperties": False,
            }
        },
        "required": ["inner"],
        "additionalProperties": False,
    }
    tools = registry()
    tools.register("t.nested", schema, accept)
    [tool] = tools.export("openai", strict=True)
    inner = tool["function"]["parameters"]["properties"]["inner"]
    assert inner["additionalProperties"] is False and inner["required"] == ["a"]


def accept(**arguments):
    return arguments
