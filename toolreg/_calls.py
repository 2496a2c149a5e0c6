"""Calling a tool: arguments checked, the handler run in its time, retried when safe, its output checked."""

from __future__ import annotations

import asyncio
import difflib
import inspect
import json
import threading
import time
import traceback
from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ._errors import InvalidCallError, TransientError, UnknownToolError
from ._feedback import format_errors, printable
from ._jsonschema.errors import ValidationError
from ._jsonschema.validator import checked_schema
from ._providers import provider_form

if TYPE_CHECKING:
    from ._registry import ToolRecord, ToolRegistry

__all__ = ["RetryPolicy", "CallResult", "call_tool", "acall_tool", "without_optional_nulls", "STEPS"]

# Where a call can stop, in the order a call meets them.
STEPS = ("unknown_tool", "arguments", "timeout", "handler", "output")


@dataclass(frozen=True)
class RetryPolicy:
    """How an idempotent tool is tried again after a timeout or a :class:`TransientError`: at most
    ``attempts`` tries in all, waiting ``backoff_ms`` before the second and twice as long before each
    next one, never more than ``max_backoff_ms``. A tool not marked idempotent is tried once."""

    attempts: int = 3
    backoff_ms: float = 100.0
    max_backoff_ms: float = 2000.0

    def __post_init__(self) -> None:
        if isinstance(self.attempts, bool) or not isinstance(self.attempts, int) or self.attempts < 1:
            raise InvalidCallError(f"RetryPolicy: attempts must be a positive int, not {self.attempts!r}")
        for name in ("backoff_ms", "max_backoff_ms"):
            value = getattr(self, name)
            if (
                isinstance(value, bool)
                or not isinstance(value, (int, float))
                or not 0 <= value < float("inf")
            ):
                raise InvalidCallError(f"RetryPolicy: {name} must be a non-negative number, not {value!r}")

    def waits(self) -> Iterator[float]:
        """The seconds to wait before each try after the first."""
        wait = self.backoff_ms
        for _ in range(self.attempts - 1):
            yield min(wait, self.max_backoff_ms) / 1000
            wait *= 2


@dataclass(frozen=True)
class CallResult:
    """What became of one call: the handler's ``output`` when ``ok``; else the ``step`` that stopped it
    (one of :data:`STEPS`), the ``errors`` found in the arguments or the output, and ``message``, text a
    model can act on. ``attempts`` counts the handler's runs; ``traceback`` is kept only when asked for."""

    tool: str
    ok: bool
    output: Any = None
    step: str | None = None
    errors: tuple[ValidationError, ...] = ()
    message: str = ""
    attempts: int = 0
    traceback: str | None = field(default=None, repr=False)

    @property
    def text(self) -> str:
        """The output as text (a string as it is, anything else as JSON), or the failure's message."""
        if not self.ok:
            return self.message
        if isinstance(self.output, str):
            return self.output
        try:
            return json.dumps(self.output, ensure_ascii=False)
        except (TypeError, ValueError):
            return printable(repr(self.output))


def without_optional_nulls(schema: Any, args: Any, *, depth: int = 0) -> Any:
    """``args`` with each ``null`` given for an optional property left out, at any depth the schema
    names (``properties``, ``items``, ``prefixItems``, ``allOf``, local ``$ref``s): what a call made
    through OpenAI's strict export means by it. ``args`` itself is not changed."""
    return _strip(schema, args, schema, depth)


def _strip(schema: Any, value: Any, root: Any, depth: int) -> Any:
    if not isinstance(schema, dict) or depth > 64:
        return value
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/"):
        target: Any = root
        for token in ref[2:].split("/"):
            token = token.replace("~1", "/").replace("~0", "~")
            target = target.get(token) if isinstance(target, dict) else None
        value = _strip(target, value, root, depth + 1)
    for branch in schema.get("allOf", ()):
        value = _strip(branch, value, root, depth + 1)
    if isinstance(value, dict) and isinstance(schema.get("properties"), dict):
        required = set(schema.get("required", ()))
        properties = schema["properties"]
        value = {
            key: _strip(properties.get(key), item, root, depth + 1)
            for key, item in value.items()
            if not (item is None and key in properties and key not in required)
        }
    if isinstance(value, list):
        prefix = schema.get("prefixItems", [])
        items = schema.get("items")
        value = [
            _strip(prefix[index] if index < len(prefix) else items, item, root, depth + 1)
            for index, item in enumerate(value)
        ]
    return value


# -- one call ---------------------------------------------------------------------------------------


def _failure(tool: str, step: str, message: str, *, errors: tuple[ValidationError, ...] = (),
             attempts: int = 0, trace: str | None = None) -> CallResult:  # fmt: skip
    return CallResult(tool, False, None, step, errors, message, attempts, trace)


def _prepare(
    registry: ToolRegistry, name: str, args: Any, strict: bool, naming: str | None = None
) -> tuple[ToolRecord, Any] | CallResult:
    """The record and the arguments to call it with, or the result that stops the call first."""
    try:
        record = registry.get(name)
    except UnknownToolError:
        return _failure(str(name), "unknown_tool", unknown_tool_message(registry, name, naming))
    if strict:
        args = without_optional_nulls(checked_schema(record.validator), args)
    errors = registry.validate(record.name, args)
    if errors:
        text = format_errors(errors, tool=_named(record.name, naming)).text
        return _failure(record.name, "arguments", text, errors=tuple(errors))
    return record, args


def unknown_tool_message(registry: ToolRegistry, name: object, naming: str | None = None) -> str:
    """No tool by that name, and the nearest names registered, as ``naming``'s provider writes them."""
    names = [_named(tool, naming) for tool in registry.names()]
    sent = _named(str(name), naming)
    nearest = difflib.get_close_matches(sent, names, n=3, cutoff=0.5)
    hint = f" Did you mean {', '.join(repr(n) for n in nearest)}?" if nearest else ""
    listed = ", ".join(names[:20]) + (f" and {len(names) - 20} more" if len(names) > 20 else "")
    return f"There is no tool named {printable(sent)[:200]!r}.{hint} The tools are: {listed or 'none'}."


def _named(name: str, naming: str | None) -> str:
    # Names out of the registry are toolreg's; the model saw them as its provider writes them.
    return name if naming is None else provider_form(name, naming)


def _checked_output(record: ToolRecord, registry: ToolRegistry, output: Any, attempts: int) -> CallResult:
    errors = registry.validate_output(record.name, output)
    if errors:
        text = format_errors(errors, tool=record.name, about="result").text
        return _failure(record.name, "output", text, errors=tuple(errors), attempts=attempts)
    return CallResult(record.name, True, output, None, (), "", attempts)


def _handler_failure(record: ToolRecord, error: BaseException, attempts: int, with_trace: bool) -> CallResult:
    said = printable(str(error))[:500]
    kind = type(error).__name__
    message = (
        f"The tool {record.name} failed: {kind}: {said}" if said else f"The tool {record.name} failed: {kind}"
    )
    trace = "".join(traceback.format_exception(error)) if with_trace else None
    return _failure(record.name, "handler", message, attempts=attempts, trace=trace)


def _timeout(record: ToolRecord, timeout_ms: float, attempts: int) -> CallResult:
    message = f"The tool {record.name} did not finish within {timeout_ms:g} ms and was abandoned."
    return _failure(record.name, "timeout", message, attempts=attempts)


def _retries(record: ToolRecord, policy: RetryPolicy) -> list[float]:
    # A tool that is not idempotent is tried once, whatever failed: a second run could act twice.
    return list(policy.waits()) if record.idempotent else []


def _budget(record: ToolRecord, default_timeout_ms: float | None) -> float | None:
    return record.timeout_ms if record.timeout_ms is not None else default_timeout_ms


class _TimedOut(Exception):
    pass


def _run_sync(handler: Callable[..., Any], args: Mapping[str, Any], timeout_ms: float | None) -> Any:
    """The handler's value, run in a thread of its own when it has a time budget or is a coroutine
    function (which gets an event loop of its own there). A thread cannot be stopped: past its budget
    it is abandoned, and what it returns later is dropped."""
    if inspect.iscoroutinefunction(handler):
        coroutine_function = handler

        def handler(**given: Any) -> Any:
            return asyncio.run(coroutine_function(**given))

    elif timeout_ms is None:
        return handler(**args)
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append((True, handler(**args)))
        except BaseException as error:  # handed back to the caller's thread as it is
            outcome.append((False, error))

    worker = threading.Thread(target=run, name="toolreg-call", daemon=True)
    worker.start()
    worker.join(None if timeout_ms is None else timeout_ms / 1000)
    if not outcome:
        raise _TimedOut
    finished, value = outcome[0]
    if not finished:
        raise value
    return value


async def _run_async(handler: Callable[..., Any], args: Mapping[str, Any], timeout_ms: float | None) -> Any:
    if inspect.iscoroutinefunction(handler):
        running: Awaitable[Any] = handler(**args)
    else:
        # A sync handler runs in a worker thread, so the event loop goes on meanwhile.
        running = asyncio.to_thread(handler, **args)
    if timeout_ms is None:
        return await running
    # asyncio.wait, not wait_for: a TimeoutError the handler raises itself stays the handler's error.
    task = asyncio.ensure_future(running)
    try:
        done, _ = await asyncio.wait({task}, timeout=timeout_ms / 1000)
    except asyncio.CancelledError:
        task.cancel()
        raise
    if not done:
        task.cancel()
        raise _TimedOut
    return task.result()


@dataclass
class _Tries:
    """One call's tries: the tool, its arguments and time budget, the waits left before retries."""

    registry: ToolRegistry
    record: ToolRecord
    args: Any
    timeout_ms: float | None
    waits: list[float]
    with_traceback: bool
    attempts: int = 0

    def settle(self, output: Any, error: Exception | None) -> CallResult | float:
        """What one try came to: the result to return, or the seconds to wait before the next try."""
        self.attempts += 1
        record = self.record
        if error is None:
            return _checked_output(record, self.registry, output, self.attempts)
        if isinstance(error, _TimedOut):
            failed = _timeout(record, self.timeout_ms or 0, self.attempts)
        elif isinstance(error, TransientError):
            failed = _handler_failure(record, error, self.attempts, self.with_traceback)
        else:
            return _handler_failure(record, error, self.attempts, self.with_traceback)
        return self.waits.pop(0) if self.waits else failed


def _tries(
    registry: ToolRegistry,
    name: str,
    args: Any,
    strict: bool,
    with_traceback: bool,
    policy: RetryPolicy,
    default_timeout_ms: float | None,
    naming: str | None,
) -> _Tries | CallResult:
    prepared = _prepare(registry, name, args, strict, naming)
    if isinstance(prepared, CallResult):
        return prepared
    record, args = prepared
    budget = _budget(record, default_timeout_ms)
    return _Tries(registry, record, args, budget, _retries(record, policy), with_traceback)


def call_tool(
    registry: ToolRegistry,
    name: str,
    args: Any,
    *,
    strict: bool = False,
    with_traceback: bool = False,
    policy: RetryPolicy,
    default_timeout_ms: float | None,
    naming: str | None = None,
) -> CallResult:
    """See :meth:`ToolRegistry.call`."""
    tries = _tries(registry, name, args, strict, with_traceback, policy, default_timeout_ms, naming)
    while isinstance(tries, _Tries):
        try:
            output, error = _run_sync(tries.record.handler, tries.args, tries.timeout_ms), None
        except Exception as caught:
            output, error = None, caught
        settled = tries.settle(output, error)
        if isinstance(settled, CallResult):
            return settled
        time.sleep(settled)
    return tries


async def acall_tool(
    registry: ToolRegistry,
    name: str,
    args: Any,
    *,
    strict: bool = False,
    with_traceback: bool = False,
    policy: RetryPolicy,
    default_timeout_ms: float | None,
    naming: str | None = None,
) -> CallResult:
    """See :meth:`ToolRegistry.acall`."""
    tries = _tries(registry, name, args, strict, with_traceback, policy, default_timeout_ms, naming)
    while isinstance(tries, _Tries):
        try:
            output, error = await _run_async(tries.record.handler, tries.args, tries.timeout_ms), None
        except Exception as caught:
            output, error = None, caught
        settled = tries.settle(output, error)
        if isinstance(settled, CallResult):
            return settled
        await asyncio.sleep(settled)
    return tries
