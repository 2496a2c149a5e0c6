"""The public ToolRegistry: the registry, with calling and the providers' forms composed on top of it.

The calling layer and the providers stand side by side, neither importing the other: an answer to a
provider's call is put together here, the providers reading the call and writing the answer, the
calling layer running the tool between."""

from __future__ import annotations

import functools
from collections.abc import Collection, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from ._calls import DEFAULT_MAX_THREADS, Caller, RetryPolicy
from ._errors import InvalidArgumentsError, InvalidCallError, UnknownToolError
from ._jsonschema.errors import Result
from ._jsonschema.limits import DEFAULT_LIMITS, LimitsLike
from ._registry import Entry, Registry, ToolRecord
from ._repair import Repair, repair_arguments
from ._results import CallResult

if TYPE_CHECKING:
    from ._providers import Incoming

__all__ = ["ToolRegistry"]


class ToolRegistry(Registry):
    """Tools by name, in registration order; each schema is checked and compiled once.

    ``validate`` returns ``Ok`` (falsy: the empty list of errors) or the list of every error, so
    ``if errors := tools.validate(name, args):`` reports them and ``else:`` may run the handler;
    ``is_valid`` answers yes or no, and ``check`` raises :class:`~toolreg.InvalidArgumentsError`.
    ``call`` and ``answer`` run a tool, ``export`` writes the tools in a provider's form.

    Registration and validation are the registry's own (:class:`toolreg._registry.Registry`, which
    knows nothing of calling or of providers); this class adds the calling layer (``call``,
    ``acall``, with the time budgets, retries and threads set here) and the provider table
    (``answer``, ``aanswer``, ``export``, ``lookup``) on top, each method handing the work on.
    ``max_threads`` caps the threads sync handlers run in (see :meth:`call`). Of an exception a handler
    raises, the model is shown the message of a :class:`~toolreg.ToolError` (a ``TransientError``
    among them) and the type alone of any other, whose whole text stays in ``CallResult.detail``;
    ``show_handler_errors=True`` shows every message. ``name in tools`` says
    whether a tool is registered under ``name``, and ``len(tools)`` how many are.

    The constructor's parameters, all optional: ``limits``, a :class:`~toolreg.Limits` or a mapping
    of its fields (``{"max_depth": 32}``), for every schema and call; ``documents``, schemas by URI
    that a ``$ref`` may name (nothing is ever fetched); ``assert_formats``, ``format`` as an
    assertion; ``default_timeout_ms``, the time budget of a tool registered without one (None: no
    budget); ``retry``, the :class:`~toolreg.RetryPolicy` of idempotent tools; ``max_threads``, 32
    by default; ``show_handler_errors``.
    """

    def __init__(
        self,
        *,
        limits: LimitsLike = DEFAULT_LIMITS,
        documents: Mapping[str, Any] | None = None,
        assert_formats: bool = False,
        default_timeout_ms: float | None = None,
        retry: RetryPolicy | None = None,
        max_threads: int = DEFAULT_MAX_THREADS,
        show_handler_errors: bool = False,
    ) -> None:
        super().__init__(limits=limits, documents=documents, assert_formats=assert_formats)
        self._caller = Caller(
            self, default_timeout_ms=default_timeout_ms, retry=retry, max_threads=max_threads,
            show_handler_errors=show_handler_errors,
        )  # fmt: skip

    @property
    def default_timeout_ms(self) -> float | None:
        """The time budget of a tool registered without one (None: no budget)."""
        return self._caller.default_timeout_ms

    @property
    def retry(self) -> RetryPolicy:
        """How idempotent tools are tried again."""
        return self._caller.retry

    @property
    def max_threads(self) -> int:
        """The most threads this registry's sync handlers run in at once."""
        return self._caller.workers.most

    @property
    def show_handler_errors(self) -> bool:
        """Whether the model is shown the message of every exception a handler raises, not only of a
        ToolError's."""
        return self._caller.show_handler_errors

    def validate(self, name: str, args: Any, nulls_as_absent: bool = False) -> Result:
        """``Ok`` (falsy) when ``args`` fits the tool's schema, else the list of every error.

        ``if errors := tools.validate(name, args):`` reports; ``else:`` may run the handler.
        Never calls the handler; raises UnknownToolError for a name not registered.
        ``nulls_as_absent`` reads a call made through OpenAI's strict export: a ``null`` given for an
        optional property, at any depth, means the property was left out (see :meth:`arguments`);
        where reading them would take past the work budget, the answer is its one ``limit`` error.
        """
        # The registry's own lookup, written out rather than called through super(): that call costs
        # about a tenth of what validating a small call does. nulls_as_absent is not keyword-only
        # (the docs name it all the same): CPython fills a keyword-only default from a dict at each
        # call, which was a third of what the registry adds to a valid call of a small tool.
        try:
            entry = self._entries[name]
        except (KeyError, TypeError):
            raise UnknownToolError(name) from None
        if nulls_as_absent:
            if nulls_as_absent is not True:  # a third argument given by mistake (it may come by position)
                said = type(nulls_as_absent).__name__
                raise InvalidCallError(f"nulls_as_absent must be True or False, not {said}")
            try:
                args = self._without_nulls(entry.record, args)
            except InvalidArgumentsError as refused:
                return list(refused.errors)
        check = entry.check  # read, then called (see Registry.validate)
        return check(args)

    def arguments(self, name: str, args: Any) -> Any:
        """``args`` of a call made through OpenAI's strict export, as the handler should see them:
        each ``null`` given for an optional property left out, wherever the schema names one
        (``$ref``, ``anyOf`` branches and items included); a new object, ``args`` is unchanged. It works
        within the work budget validating them has (``Limits.max_work``): past it, it raises
        InvalidArgumentsError carrying one ``limit`` error."""
        return self._without_nulls(self.get(name), args)

    def _without_nulls(self, record: ToolRecord, args: Any) -> Any:
        """:meth:`arguments` for the tool of ``record``: the rewrite of a call with ``nulls_as_absent``,
        given the record the call found, so that it looks nothing up again."""
        # The providers are imported at the first method that reads them (here, answer, aanswer,
        # export, lookup): registering, validating and calling need none of them.
        from . import _providers

        return _providers.arguments(record, args, self.limits)

    def call(
        self,
        name: str,
        args: Any,
        *,
        nulls_as_absent: bool = False,
        with_traceback: bool = False,
        offered: Collection[str] | None = None,
        repair: bool = False,
    ) -> CallResult:
        """Validate ``args``, run the handler within the tool's ``timeout_ms`` (else the registry's
        ``default_timeout_ms``), try an idempotent tool again after a timeout or a TransientError as
        ``retry`` allows, and check the output: JSON that fits the tool's output schema.

        Every outcome is a :class:`CallResult`, never an exception: the output, or the step that
        stopped the call with text a model can act on. Every exception a handler raises is a
        ``handler`` step (``SystemExit`` and a ``CancelledError`` of its own included): the model is
        shown its type, and its message only for a :class:`~toolreg.ToolError` (or with
        ``show_handler_errors``); ``detail`` keeps the whole text, and ``with_traceback`` the traceback
        too. Only a KeyboardInterrupt in the caller's own thread stops the caller. A sync handler
        without a time budget runs in the caller's thread; one with a budget (and a coroutine
        function) runs in one of the registry's own daemon threads, at most ``max_threads`` at once,
        abandoned (not stopped) when its budget runs out. When every thread is busy, the call stops
        at the ``busy`` step without running the handler. ``offered`` limits the call to those tools
        (the ones a model was shown): any other is an unknown tool. ``repair=True`` repairs invalid
        arguments where the schema allows exactly one reading (see :meth:`repair`): the handler runs
        only when the repaired arguments are valid (else the original errors are the answer), and the
        result lists the repairs (``CallResult.repairs``), worded for the model in ``CallResult.note``.
        """
        rewrite = self._without_nulls if nulls_as_absent else None
        return self._caller.call(
            name, args, with_traceback=with_traceback, offered=offered, rewrite=rewrite, repair=repair
        )

    async def acall(
        self,
        name: str,
        args: Any,
        *,
        nulls_as_absent: bool = False,
        with_traceback: bool = False,
        offered: Collection[str] | None = None,
        repair: bool = False,
    ) -> CallResult:
        """:meth:`call` for async code: an async handler is awaited (and cancelled past its budget), a
        sync one runs in one of the registry's threads (never the event loop's executor); the
        arguments are rewritten (``nulls_as_absent``) and checked in one of those threads too, right
        before a sync handler's first run, so the loop is never blocked by a costly check. Cancelling
        the task that awaits ``acall`` cancels the call. ``repair`` is as in :meth:`call`, made in
        that thread too."""
        rewrite = self._without_nulls if nulls_as_absent else None
        return await self._caller.acall(
            name, args, with_traceback=with_traceback, offered=offered, rewrite=rewrite, repair=repair
        )

    def answer(
        self,
        call: Any,
        *,
        provider: str | None = None,
        offered: Collection[str] | None = None,
        nulls_as_absent: bool = False,
        with_traceback: bool = False,
        repair: bool = False,
    ) -> dict[str, Any]:
        """The message that answers a provider's tool call, in that provider's shape, for success and
        failure alike: an OpenAI Chat Completions tool call or Responses ``function_call``, an
        Anthropic ``tool_use`` block, a Gemini ``functionCall`` part, or MCP ``tools/call`` params
        (found by shape unless ``provider`` says), each as a dict or as the SDK's object (any object
        with a ``model_dump()``, read as that writes it). Arguments are
        read in the provider's own form, once: JSON text for OpenAI, with clear answers for text that
        is not one JSON object; an object for the others. A name in the provider's form is mapped
        back. ``offered`` (the names given to ``export`` this turn) limits the answer to those tools;
        an unknown name gets the nearest of them. ``nulls_as_absent`` is as in :meth:`validate`.
        ``repair`` is as in :meth:`call`, and for OpenAI's JSON text it leaves out trailing commas
        too; the answer says each repair to the model beside the output."""
        incoming = self._incoming(call, provider, repair)
        found = self._found(incoming, offered)
        if isinstance(found, CallResult):
            return incoming.answer(found)
        # Rewritten where the arguments are checked, so that a rewrite past its budget is their error.
        result = self._caller.call_found(
            found, incoming.arguments, with_traceback=with_traceback, offered=offered,
            naming=incoming.naming, rewrite=self._without_nulls if nulls_as_absent else None, repair=repair,
        )  # fmt: skip
        return incoming.answer(result, found.record)

    async def aanswer(
        self,
        call: Any,
        *,
        provider: str | None = None,
        offered: Collection[str] | None = None,
        nulls_as_absent: bool = False,
        with_traceback: bool = False,
        repair: bool = False,
    ) -> dict[str, Any]:
        """:meth:`answer` for async code, calling the tool as :meth:`acall` does."""
        incoming = self._incoming(call, provider, repair)
        found = self._found(incoming, offered)
        if isinstance(found, CallResult):
            return incoming.answer(found)
        # Rewritten where the arguments are checked, in one of the caller's threads: not on the loop.
        result = await self._caller.acall_found(
            found, incoming.arguments, with_traceback=with_traceback, offered=offered,
            naming=incoming.naming, rewrite=self._without_nulls if nulls_as_absent else None, repair=repair,
        )  # fmt: skip
        return incoming.answer(result, found.record)

    def _incoming(self, call: Any, provider: str | None, repair: bool) -> Incoming:
        """A provider's call read to be answered: the providers read it, and write the answer."""
        from . import _providers

        return _providers.read_incoming(call, provider, repair=repair)

    def _found(self, incoming: Incoming, offered: Collection[str] | None) -> Entry | CallResult:
        """The tool a provider's call names, found once for the whole answer; or, for a call that
        cannot run (its arguments unreadable, or no such tool offered), the result that answers it."""
        unrunnable = incoming.unrunnable
        if unrunnable is not None:
            return unrunnable
        return self._caller.find(incoming.name, offered, incoming.naming)

    def repair(self, name: str, args: Any) -> tuple[Any, tuple[Repair, ...]]:
        """``args`` repaired where the tool's schema allows exactly one reading, and the repairs made
        (each a :class:`~toolreg.Repair`); or ``args`` as they are and ``()`` when they are valid, or
        when the repairs cannot make them valid. Pure: nothing runs, ``args`` is unchanged.

        At each pointer an error names, the value's readings are tried: a string's JSON reading (an
        object, array, number, boolean or null; strictly: no NaN or infinity, no key twice, nothing
        after it), a lone value as a one-item array, ``null`` for an optional property as the property
        left out, a number or boolean as the one string of the enum that writes it. One is made only
        when it is the only one that takes away every error at and below the pointer and adds none
        anywhere: never a missing value filled in, a name dropped or renamed, a fraction read as an
        integer, a case folded, a choice between two readings that both fit, or a string read again
        where it is valid as it is. It validates at most ``toolreg._repair.MAX_CANDIDATES`` (16)
        candidate arguments, each within the work budget. Raises UnknownToolError for a name not
        registered."""
        judge = functools.partial(self.validate, self.get(name).name)  # which asks for an object too
        return repair_arguments(self.get(name).validator, args, validate=judge)

    def export(
        self,
        provider: str,
        *,
        names: Iterable[str] | None = None,
        strict: bool = False,
        omit_unsupported: bool = False,
    ) -> list[dict[str, Any]]:
        """The tools in a provider's form ("openai", "openai-responses", "anthropic", "gemini", "mcp"),
        in registration order.

        ``names`` keeps only those tools (a harness shows a few per turn); ``strict`` gives OpenAI's
        strict form, and ``omit_unsupported`` leaves out of it what strict mode cannot express
        (listed in the description; the registry still checks it). Raises one ExportError naming
        every tool that cannot be exported and every blocker of each, before returning anything.
        """
        from . import _providers

        return _providers.export(self, provider, names, strict=strict, omit_unsupported=omit_unsupported)

    def lookup(self, provider_name: str, provider: str) -> ToolRecord:
        """The tool a provider's call names (``fs-read_file`` from OpenAI is ``fs.read_file``)."""
        from . import _providers

        return _providers.lookup(self, provider, provider_name)
