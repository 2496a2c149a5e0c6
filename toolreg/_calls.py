"""Calling a tool: arguments checked, the handler run in its time, retried when safe, its output checked."""

from __future__ import annotations

import contextlib
import dataclasses
import difflib
import functools
import inspect
import sys
import threading
import time
import traceback
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ._errors import (
    InvalidArgumentsError,
    InvalidCallError,
    InvalidToolError,
    TransientError,
    UnknownToolError,
)
from ._feedback import format_errors, handler_failure, printable
from ._integers import integral_as_int
from ._jsonschema.errors import OK, Result, ValidationError
from ._jsonschema.pointer import Place, place_pointer
from ._jsonschema.validator import Validator, checked_schema
from ._registry import Entry, Registry, ToolRecord
from ._repair import Repair, repair_arguments
from ._results import CallResult

# asyncio, with the thread pools and sockets it brings (about 25 ms to import), is imported where a
# coroutine is run or awaited, where it is loaded already or about to be: a registry called from sync
# code never pays for it.
if TYPE_CHECKING:
    import asyncio

__all__ = ["RetryPolicy", "Caller", "Workers", "STEPS", "DEFAULT_MAX_THREADS"]

# Where a call can stop, in the order a call meets them.
STEPS = ("unknown_tool", "arguments", "busy", "timeout", "handler", "output")
# How many threads a registry keeps for its tools' handlers, at most (as many as Python's own pool of
# threads takes on a large machine).
DEFAULT_MAX_THREADS = 32
# How long a thread with nothing to do waits for another handler before it ends.
IDLE_SECONDS = 5.0
# A handler's name as the model saw it, from toolreg's name.
Naming = Callable[[str], str]
# The arguments of a call to the tool of that record, as its handler is to get them (OpenAI's strict
# nulls read as left out): given the record the call found, so that it looks nothing up again.
Rewrite = Callable[[ToolRecord, Any], Any]


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


# -- the threads handlers run in ----------------------------------------------------------------------


class Workers:
    """At most ``most`` daemon threads, each running one handler at a time; none waits at exit.

    A thread runs its handler to the end, even one abandoned past its time budget (no thread can be
    stopped), so abandoned handlers hold threads; when all ``most`` are busy, :meth:`start` says so
    rather than queueing, and the call reports that step. A thread left idle for
    :data:`IDLE_SECONDS` ends. Never the event loop's executor: a handler stuck there would stall
    every ``run_in_executor`` and ``getaddrinfo`` of the process.
    """

    def __init__(self, most: int = DEFAULT_MAX_THREADS) -> None:
        if isinstance(most, bool) or not isinstance(most, int) or most < 1:
            raise InvalidToolError(f"max_threads must be a positive int, not {most!r}")
        self.most = most
        self._lock = threading.Lock()
        self._live = 0
        self._idle: list[_Worker] = []

    def start(self, job: Callable[[], None]) -> bool:
        """Run ``job`` (which must not raise) in a thread, or return False when every thread is busy."""
        with self._lock:
            if self._idle:
                self._idle.pop().hand(job)
                return True
            if self._live >= self.most:
                return False
            self._live += 1
        worker = _Worker()
        thread = threading.Thread(target=self._serve, args=(worker, job), name="toolreg-handler", daemon=True)
        try:
            thread.start()
        except RuntimeError:  # the interpreter is shutting down, or the system has no thread left
            with self._lock:
                self._live -= 1
            return False
        return True

    def _serve(self, worker: _Worker, job: Callable[[], None]) -> None:
        while True:
            try:
                job()
            except BaseException:
                with self._lock:  # a job broke its promise not to raise: the thread goes, not the count
                    self._live -= 1
                raise
            with self._lock:
                self._idle.append(worker)
            if not worker.given.wait(IDLE_SECONDS):
                with self._lock:
                    if worker.job is None:  # still idle: no job came in the meantime
                        self._idle.remove(worker)
                        self._live -= 1
                        return
            job, worker.job = worker.take(), None


class _Worker:
    """An idle thread's mailbox: the next job, handed over under the pool's lock."""

    def __init__(self) -> None:
        self.job: Callable[[], None] | None = None
        self.given = threading.Event()

    def hand(self, job: Callable[[], None]) -> None:
        self.job = job
        self.given.set()

    def take(self) -> Callable[[], None]:
        job = self.job
        assert job is not None
        self.given.clear()
        return job


# -- what one run of a handler came to ------------------------------------------------------------------


@dataclass(frozen=True)
class _Ran:
    """The handler returned ``value``, or raised ``error``."""

    value: Any = None
    error: BaseException | None = None


_TIMED_OUT = "timeout"  # the handler did not finish within its budget and was abandoned
_BUSY = "busy"  # every thread was busy: the handler did not run
_Outcome = _Ran | str


def _run_here(handler: Callable[..., Any], args: Mapping[str, Any]) -> _Ran:
    """Run a sync handler in the caller's thread. Every exception it raises is its result, but a
    KeyboardInterrupt, which in this thread may well be the user's Ctrl-C, stops the caller."""
    try:
        return _Ran(handler(**args))
    except KeyboardInterrupt:
        raise
    except BaseException as error:  # SystemExit, GeneratorExit, a CancelledError of its own …
        return _Ran(error=error)


def _run_anywhere(handler: Callable[..., Any], args: Mapping[str, Any]) -> _Ran:
    """Run a handler in a worker thread, a coroutine function on an event loop of its own there; in
    that thread nothing but the handler can raise, so every exception is its result."""
    try:
        if inspect.iscoroutinefunction(handler):
            import asyncio

            return _Ran(asyncio.run(handler(**args)))
        return _Ran(handler(**args))
    except BaseException as error:
        return _Ran(error=error)


async def _awaited(handler: Callable[..., Any], args: Mapping[str, Any]) -> _Ran:
    """Await an async handler; every exception it raises is its result, except a cancellation of
    the task that awaits it (the caller's, or a timeout's), and a KeyboardInterrupt, which stop it."""
    import asyncio

    try:
        return _Ran(await handler(**args))
    except asyncio.CancelledError as error:
        task = asyncio.current_task()
        if task is not None and task.cancelling():
            raise
        return _Ran(error=error)  # the handler's own
    except KeyboardInterrupt:
        raise
    except BaseException as error:
        return _Ran(error=error)


# -- one call ---------------------------------------------------------------------------------------


@dataclass
class _Tries:
    """One call's tries: iterating gives the seconds to wait before each try (0 before the first), and
    :meth:`settle` takes what each came to, until ``result`` is set."""

    caller: Caller
    record: ToolRecord
    args: Any
    shown: str
    timeout_ms: float | None
    waits: list[float]
    with_traceback: bool
    attempts: int = 0
    result: CallResult | None = None

    def __iter__(self) -> Iterator[float]:
        for wait in (0.0, *self.waits):
            if self.result is not None:
                return
            yield wait

    def settle(self, outcome: _Outcome) -> None:
        """Take what one try came to: the result, or nothing when the call is to be tried again."""
        record, shown = self.record, self.shown
        if outcome == _BUSY:
            self.result = _busy(record.name, shown, self.caller.workers.most, self.attempts)
            return
        error = outcome.error if isinstance(outcome, _Ran) else None
        if isinstance(error, InvalidArgumentsError) and error.tool == record.name:
            # A typed tool's own types refused the arguments, before its function ran.
            self.result = _arguments_failure(record.name, shown, error.errors)
            return
        self.attempts += 1
        if isinstance(outcome, _Ran) and error is None:
            self.result = self.caller._checked_output(record, shown, outcome.value, self.attempts)
            return
        if error is not None:
            shows = self.caller.show_handler_errors
            failed = _handler_failure(record.name, shown, error, self.attempts, self.with_traceback, shows)
            again = isinstance(error, TransientError)
        else:
            failed = _timeout(record.name, shown, self.timeout_ms or 0, self.attempts)
            again = True
        if not (again and self.attempts <= len(self.waits)):
            self.result = failed


class Caller:
    """How a registry's tools are called: the time budget of a tool registered without one
    (``default_timeout_ms``), how idempotent tools are tried again (``retry``), the threads sync
    handlers run in (at most ``max_threads``), and whether the model reads the message of every
    exception a handler raises (``show_handler_errors``) or only of a ToolError's.

    It holds the registry proper and asks it one thing a call: the tool's entry (:meth:`find`), whose
    record and check serve the rest of the call, so that a call sees one tool from start to end."""

    def __init__(
        self,
        registry: Registry,
        *,
        default_timeout_ms: float | None = None,
        retry: RetryPolicy | None = None,
        max_threads: int = DEFAULT_MAX_THREADS,
        show_handler_errors: bool = False,
    ) -> None:
        if default_timeout_ms is not None and (
            isinstance(default_timeout_ms, bool)
            or not isinstance(default_timeout_ms, (int, float))
            or not 0 < default_timeout_ms < float("inf")
        ):
            raise InvalidToolError(
                f"default_timeout_ms must be a positive number, not {default_timeout_ms!r}"
            )
        if not isinstance(show_handler_errors, bool):
            raise InvalidToolError(f"show_handler_errors must be True or False, not {show_handler_errors!r}")
        self.registry = registry
        self.default_timeout_ms = default_timeout_ms
        self.show_handler_errors = show_handler_errors
        self.retry = RetryPolicy() if retry is None else retry
        if not isinstance(self.retry, RetryPolicy):
            raise InvalidToolError(f"retry must be a RetryPolicy, not {retry!r}")
        self.workers = Workers(max_threads)
        # Async handlers abandoned past their budget, kept until they end: the loop holds tasks weakly.
        self._abandoned: set[asyncio.Future[Any]] = set()
        # Whether a handler's output is JSON at all, at the registry's depth.
        self._any_json = Validator(True, limits=registry.limits)

    def call(
        self,
        name: str,
        args: Any,
        *,
        with_traceback: bool = False,
        offered: Collection[str] | None = None,
        naming: Naming | None = None,
        rewrite: Rewrite | None = None,
        repair: bool = False,
    ) -> CallResult:
        """See :meth:`toolreg.ToolRegistry.call`; ``naming`` writes a name as the model saw it, and
        ``rewrite`` turns the arguments of a tool that is there into those its handler gets (see
        :meth:`acall`); ``repair`` repairs invalid arguments where the schema allows one reading."""
        found = self.find(name, offered, naming)
        if isinstance(found, CallResult):
            return found
        return self.call_found(
            found, args, with_traceback=with_traceback, offered=offered, naming=naming, rewrite=rewrite,
            repair=repair,
        )  # fmt: skip

    def call_found(
        self,
        entry: Entry,
        args: Any,
        *,
        with_traceback: bool = False,
        offered: Collection[str] | None = None,
        naming: Naming | None = None,
        rewrite: Rewrite | None = None,
        repair: bool = False,
    ) -> CallResult:
        """:meth:`call` of the tool :meth:`find` found: nothing here looks it up again."""
        shown = _namer(naming)
        record = entry.record
        try:
            args, errors, repairs = self._checked_arguments(entry, args, rewrite, repair)
        except UnknownToolError:
            return self._gone(record, offered, shown)
        if errors:
            return _arguments_failure(record.name, shown(record.name), tuple(errors))
        tries = self._tries(record, args, shown, with_traceback)
        for wait in tries:
            if wait:
                time.sleep(wait)
            tries.settle(self._run(tries))
        assert tries.result is not None
        return dataclasses.replace(tries.result, repairs=repairs) if repairs else tries.result

    async def acall(
        self,
        name: str,
        args: Any,
        *,
        with_traceback: bool = False,
        offered: Collection[str] | None = None,
        naming: Naming | None = None,
        rewrite: Rewrite | None = None,
        repair: bool = False,
    ) -> CallResult:
        """See :meth:`toolreg.ToolRegistry.acall`. ``rewrite`` turns the arguments of a tool that is
        there into those its handler gets (OpenAI's strict nulls), in the same thread as the check.

        Nothing that grows with the arguments runs on the event loop: they are rewritten and checked
        (which may compile the schema, at a tool's first calls) in one of the registry's threads, and a
        sync handler's first run follows in that thread, so a valid call to one hops once, as its
        handler alone would. A call that finds every thread busy stops at the ``busy`` step unchecked."""
        found = self.find(name, offered, naming)
        if isinstance(found, CallResult):
            return found
        return await self.acall_found(
            found, args, with_traceback=with_traceback, offered=offered, naming=naming, rewrite=rewrite,
            repair=repair,
        )  # fmt: skip

    async def acall_found(
        self,
        entry: Entry,
        args: Any,
        *,
        with_traceback: bool = False,
        offered: Collection[str] | None = None,
        naming: Naming | None = None,
        rewrite: Rewrite | None = None,
        repair: bool = False,
    ) -> CallResult:
        """:meth:`acall` of the tool :meth:`find` found: nothing here looks it up again."""
        shown = _namer(naming)
        record = entry.record
        import asyncio

        loop = asyncio.get_running_loop()
        checked: asyncio.Future[_Ran] = loop.create_future()
        sync = not inspect.iscoroutinefunction(record.handler)
        started: asyncio.Future[_Ran] | None = loop.create_future() if sync else None
        gone = threading.Event()  # the caller was cancelled during the check: the handler is not run
        check = functools.partial(self._checked_arguments, entry, args, rewrite, repair)
        job = functools.partial(_check_then_run, checked, started, gone, check, record.handler)
        if not self.workers.start(job):
            return _busy(record.name, shown(record.name), self.workers.most, 0)
        try:
            prepared = await checked
        except asyncio.CancelledError:
            gone.set()
            raise
        if isinstance(prepared.error, UnknownToolError):
            return self._gone(record, offered, shown)
        if prepared.error is not None:
            raise prepared.error  # the rewrite's own, as it would have raised in this thread
        args, errors, repairs = prepared.value
        if errors:
            return _arguments_failure(record.name, shown(record.name), tuple(errors))
        tries = self._tries(record, args, shown, with_traceback)
        for wait in tries:
            if wait:
                await asyncio.sleep(wait)
            tries.settle(await self._arun(tries, started))
            started = None  # a second try starts its own run
        assert tries.result is not None
        return dataclasses.replace(tries.result, repairs=repairs) if repairs else tries.result

    def find(
        self, name: str, offered: Collection[str] | None = None, naming: Naming | None = None
    ) -> Entry | CallResult:
        """The tool a call names, found in the call's one lookup of the registry; or the result for a
        tool that is not there (or not offered)."""
        chosen = _offered(offered)
        try:
            entry = self.registry._entry(name)
            if chosen is not None and name not in chosen:
                raise UnknownToolError(name)
        except UnknownToolError:
            return _failure(str(name), "unknown_tool", self.unknown_tool_message(name, chosen, naming))
        return entry

    def _gone(self, record: ToolRecord, offered: Collection[str] | None, shown: Naming) -> CallResult:
        """The result of a call whose tool another thread unregistered while its arguments were checked."""
        return _failure(record.name, "unknown_tool", self.unknown_tool_message(record.name, offered, shown))

    def _checked_arguments(
        self, entry: Entry, args: Any, rewrite: Rewrite | None, repair: bool = False
    ) -> tuple[Any, Result, tuple[Repair, ...]]:
        """The arguments as the handler is to get them, their errors, and the repairs made to them
        (acall runs it in a worker thread). A rewrite may refuse the arguments itself
        (InvalidArgumentsError): past the work budget of reading OpenAI's strict nulls, say. Invalid
        arguments are repaired when ``repair`` is set and the repairs make them valid; else their
        errors are the original ones. Raises UnknownToolError when the tool was unregistered since it
        was found."""
        record = entry.record
        if rewrite is not None:
            try:
                args = rewrite(record, args)
            except InvalidArgumentsError as refused:
                if refused.tool != record.name:
                    raise
                return args, list(refused.errors), ()
        errors = entry.check(args)  # which asks for an object too
        if entry.gone:
            raise UnknownToolError(record.name)
        if errors and repair:
            repaired, repairs = repair_arguments(record.validator, args, validate=entry.check)
            if repairs:
                return _as_handed(record, repaired), OK, repairs
        return (args if errors else _as_handed(record, args)), errors, ()

    def _tries(self, record: ToolRecord, args: Any, shown: Naming, with_traceback: bool) -> _Tries:
        """The tries of a call whose arguments fit its tool's schema."""
        budget = record.timeout_ms if record.timeout_ms is not None else self.default_timeout_ms
        # A tool that is not idempotent is tried once, whatever failed: a second run could act twice.
        waits = list(self.retry.waits()) if record.idempotent else []
        return _Tries(self, record, args, shown(record.name), budget, waits, with_traceback)

    def unknown_tool_message(
        self, name: object, offered: Collection[str] | None = None, naming: Naming | None = None
    ) -> str:
        """No tool by that name, and the nearest of the tools there are (those ``offered``, if given),
        as the model saw their names."""
        shown = _namer(naming)
        chosen = _offered(offered)
        there = [tool for tool in self.registry.names() if chosen is None or tool in chosen]
        names = [shown(tool) for tool in there]
        sent = shown(name) if isinstance(name, str) else repr(name)
        nearest = difflib.get_close_matches(sent, names, n=3, cutoff=0.5)
        hint = f" Did you mean {', '.join(repr(n) for n in nearest)}?" if nearest else ""
        listed = ", ".join(names[:20]) + (f" and {len(names) - 20} more" if len(names) > 20 else "")
        return f"There is no tool named {printable(sent)[:200]!r}.{hint} The tools are: {listed or 'none'}."

    def _run(self, tries: _Tries) -> _Outcome:
        """One try in this thread: a sync handler without a time budget runs here; any other in a
        worker thread, waited for within the budget."""
        handler, args, timeout_ms = tries.record.handler, tries.args, tries.timeout_ms
        if timeout_ms is None and not inspect.iscoroutinefunction(handler):
            return _run_here(handler, args)
        ran: list[_Ran] = []
        done = threading.Event()

        def job() -> None:
            ran.append(_run_anywhere(handler, args))
            done.set()

        if not self.workers.start(job):
            return _BUSY
        if not done.wait(None if timeout_ms is None else timeout_ms / 1000):
            return _TIMED_OUT
        return ran[0]

    async def _arun(self, tries: _Tries, started: asyncio.Future[_Ran] | None = None) -> _Outcome:
        """One try on the event loop: an async handler is awaited, a sync one runs in a worker thread
        (``started``: already running there, after the check). A cancellation of the caller
        propagates; the handler is cancelled or, in a thread, abandoned."""
        import asyncio

        handler, args, timeout_ms = tries.record.handler, tries.args, tries.timeout_ms
        if inspect.iscoroutinefunction(handler):
            if timeout_ms is None:
                return await _awaited(handler, args)
            running: asyncio.Future[Any] = asyncio.ensure_future(_awaited(handler, args))
        else:
            if started is not None:
                running = started
            else:
                running = asyncio.get_running_loop().create_future()
                if not self.workers.start(functools.partial(_run_for, running, handler, args)):
                    return _BUSY
            if timeout_ms is None:
                return await running
        try:
            # asyncio.wait, not wait_for: a TimeoutError the handler raises itself stays its error.
            done, _ = await asyncio.wait({running}, timeout=timeout_ms / 1000)
        except asyncio.CancelledError:
            running.cancel()
            raise
        if not done:
            running.cancel()
            self._abandoned.add(running)
            running.add_done_callback(self._abandoned.discard)
            return _TIMED_OUT
        return running.result()  # type: ignore[no-any-return]

    def _checked_output(self, record: ToolRecord, shown: str, output: Any, attempts: int) -> CallResult:
        """The result of a handler that returned: its output, if it is JSON that fits the output schema."""
        checks = record.output_validator
        errors = self._any_json.validate(output) or (OK if checks is None else checks.validate(output))
        if errors:
            text = format_errors(errors, tool=shown, about="result").text
            return _failure(record.name, "output", text, errors=tuple(errors), attempts=attempts)
        long = _long_integer(output)
        if long is not None:
            path, digits = long
            most = sys.get_int_max_str_digits()
            message = f"is an integer of {digits} digits; at most {most} can be written as JSON text"
            error = ValidationError(path, "", "json", message, {"digits": digits})
            text = format_errors([error], tool=shown, about="result").text
            return _failure(record.name, "output", text, errors=(error,), attempts=attempts)
        return CallResult(record.name, True, output, None, (), "", attempts)


def _as_handed(record: ToolRecord, args: Any) -> Any:
    """Valid arguments as the handler gets them: an integral number where the schema says integer as
    an ``int`` (a new object; ``args`` is unchanged). Within the validation's work: it reads a part of
    what the validation read."""
    return integral_as_int(checked_schema(record.validator), args)


def _check_then_run(
    checked: asyncio.Future[_Ran],
    started: asyncio.Future[_Ran] | None,
    gone: threading.Event,
    check: Callable[[], tuple[Any, Result, tuple[Repair, ...]]],
    handler: Callable[..., Any],
) -> None:
    """A worker thread's job for acall: rewrite and check the arguments, hand that to the loop, then,
    for a sync handler (``started``), run it on arguments that fit unless the caller has gone."""
    try:
        prepared = _Ran(check())
    except BaseException as error:  # the rewrite's, or the tool unregistered meanwhile: the loop reads it
        prepared = _Ran(error=error)
    _hand_over(checked, prepared)
    if started is None or prepared.error is not None or prepared.value[1] or gone.is_set():
        return
    _hand_over(started, _run_anywhere(handler, prepared.value[0]))


def _run_for(future: asyncio.Future[Any], handler: Callable[..., Any], args: Mapping[str, Any]) -> None:
    """A worker thread's job for acall: run the handler, then hand what came of it to the loop."""
    _hand_over(future, _run_anywhere(handler, args))


def _hand_over(future: asyncio.Future[Any], ran: _Ran) -> None:
    """Give ``ran`` to ``future`` on its loop, from a worker thread."""
    with contextlib.suppress(RuntimeError):  # the loop is closed: no one waits for this now
        future.get_loop().call_soon_threadsafe(_deliver, future, ran)


def _deliver(future: asyncio.Future[Any], ran: _Ran) -> None:
    if not future.done():  # not cancelled meanwhile, by a timeout or the caller
        future.set_result(ran)


def _offered(offered: Collection[str] | None) -> frozenset[str] | None:
    if isinstance(offered, str):
        raise InvalidCallError(f"offered must be a collection of tool names, not the string {offered!r}")
    return None if offered is None else frozenset(offered)


def _namer(naming: Naming | None) -> Naming:
    # Names out of the registry are toolreg's; the model saw them as its provider writes them.
    return naming if naming is not None else str


def _failure(tool: str, step: str, message: str, *, errors: tuple[ValidationError, ...] = (),
             attempts: int = 0, trace: str | None = None) -> CallResult:  # fmt: skip
    return CallResult(tool, False, None, step, errors, message, attempts, trace)


def _arguments_failure(tool: str, shown: str, errors: tuple[ValidationError, ...]) -> CallResult:
    return _failure(tool, "arguments", format_errors(errors, tool=shown).text, errors=errors)


def _busy(tool: str, shown: str, most: int, attempts: int) -> CallResult:
    message = (
        f"The tool {shown} was not run: all {most} threads for tools are busy, some perhaps with "
        "handlers abandoned past their time. Try again later."
    )
    return _failure(tool, "busy", message, attempts=attempts)


def _handler_failure(
    tool: str, shown: str, error: BaseException, attempts: int, with_trace: bool, show_message: bool
) -> CallResult:
    message, detail = handler_failure(shown, error, show_message=show_message)
    # format_exception writes a message that cannot be written as "<exception str() failed>".
    trace = "".join(traceback.format_exception(error)) if with_trace else None
    return CallResult(tool, False, None, "handler", (), message, attempts, trace, detail)


def _timeout(tool: str, shown: str, timeout_ms: float, attempts: int) -> CallResult:
    message = f"The tool {shown} did not finish within {timeout_ms:g} ms and was abandoned."
    return _failure(tool, "timeout", message, attempts=attempts)


def _long_integer(value: Any) -> tuple[str, int] | None:
    """The pointer and digit count of the first integer in a JSON value with more digits than Python
    writes as text (``sys.get_int_max_str_digits``), or None."""
    most = sys.get_int_max_str_digits()
    if not most:
        return None
    # The containers entered, each with its place and the children left to read: a tuple for each
    # container, never a path for each value (a million numbers 100 lists deep once took a gigabyte).
    stack: list[tuple[Place, Iterator[tuple[str | int, Any]]]] = []
    item: Any = value
    place: Place = ()
    while True:
        if isinstance(item, dict):
            stack.append((place, iter(item.items())))
        elif isinstance(item, list):
            stack.append((place, enumerate(item)))
        # 2**(3d) < 10**d: a quick pass first
        elif isinstance(item, int) and item.bit_length() > most * 3 and (digits := _digits(item)) > most:
            return place_pointer(place), digits
        while stack:  # the next value: the next child of the innermost container with one left
            parent, children = stack[-1]
            following = next(children, None)
            if following is not None:
                token, item = following
                place = (parent, token)
                break
            stack.pop()
        else:
            return None


def _digits(number: int) -> int:
    """How many decimal digits ``abs(number)`` has, found without writing it."""
    number = abs(number)
    digits = int(number.bit_length() * 0.30102999566398120) + 1  # log10(2): one too many, or right
    return digits if number >= 10 ** (digits - 1) else digits - 1
