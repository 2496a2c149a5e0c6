"""The providers toolreg speaks, one module each, and the one table that decides which names exist for
every entry point: exports, answers, lookups and the command line."""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from .._errors import (
    ExportError,
    InvalidArgumentsError,
    InvalidCallError,
    InvalidToolError,
    UnknownProviderError,
    UnknownToolError,
)
from .._feedback import printable
from .._jsonschema.limits import Limits
from .._jsonschema.validator import checked_schema
from .._jsonschema.values import json_type
from .._registry import Registry, ToolRecord
from .._repair import Repair, without_trailing_commas
from .._results import CallResult
from . import anthropic, gemini, mcp, openai_chat, openai_responses
from .base import Provider, ToolCall, read_arguments
from .openai_strict import NullsPastBudget, absent_nulls

__all__ = [
    "PROVIDERS", "provider", "read_call", "read_incoming", "Incoming", "export", "lookup", "arguments"
]  # fmt: skip

# By name, in the order a call's shape is tried: MCP's params ({name, arguments}) last, since any
# object with a name has that shape.
PROVIDERS: dict[str, Provider] = {
    module.PROVIDER.name: module.PROVIDER
    for module in (openai_chat, openai_responses, anthropic, gemini, mcp)
}


def provider(name: object) -> Provider:
    """The provider of that name, or UnknownProviderError naming the ones there are."""
    if not isinstance(name, str) or name not in PROVIDERS:
        raise UnknownProviderError(name, list(PROVIDERS))
    return PROVIDERS[name]


def read_call(call: Any, provider_name: str | None = None) -> ToolCall:
    """The tool call in any provider's shape, found by its shape unless ``provider_name`` names it.

    Arguments are read in the provider's own form: JSON text for OpenAI's, an object for the others;
    what cannot be read becomes the call's ``problem``, worded for the model. A value that is no tool
    call at all raises InvalidCallError. An SDK's object (OpenAI's, Anthropic's, Gemini's and MCP's
    are pydantic models) is read as its ``model_dump()`` writes it.
    """
    chosen = None if provider_name is None else provider(provider_name)
    given = call
    call = _dumped(call)
    if isinstance(call, dict):
        for candidate in PROVIDERS.values() if chosen is None else (chosen,):
            if candidate.recognises(call):
                return candidate.read(call)
    shapes = "; ".join(candidate.shape for candidate in PROVIDERS.values() if chosen in (None, candidate))
    kind = json_type(call) or type(call).__name__
    if call is not given:
        kind = f"{type(given).__name__} whose model_dump() gives {kind}"
    raise InvalidCallError(
        f"not a tool call toolreg reads ({kind}); it reads {shapes}, as a dict or an SDK's object "
        "with model_dump()"
    )


def _dumped(call: Any) -> Any:
    """``call``'s ``model_dump()`` where it has one (in JSON's mode where it takes ``mode``, as pydantic's
    does); any other value as it is. What the method raises is an InvalidCallError."""
    if isinstance(call, dict):
        return call
    dump = getattr(call, "model_dump", None)
    if not callable(dump):
        return call
    try:
        takes_mode = any(
            parameter.name == "mode" or parameter.kind is inspect.Parameter.VAR_KEYWORD
            for parameter in inspect.signature(dump).parameters.values()
        )
    except (TypeError, ValueError):  # a builtin without a signature: called plainly
        takes_mode = False
    try:
        return dump(mode="json") if takes_mode else dump()
    except Exception as error:  # the object's own failure: one line, no traceback from inside it
        raise InvalidCallError(
            f"the call's model_dump() raised {type(error).__name__}: {printable(str(error))[:200]}"
        ) from None


def export(
    registry: Registry,
    provider_name: str,
    names: Iterable[str] | None = None,
    *,
    strict: bool = False,
    omit_unsupported: bool = False,
) -> list[dict[str, Any]]:
    """See :meth:`toolreg.ToolRegistry.export`."""
    chosen = provider(provider_name)  # an unknown provider is named even with no tools
    if strict and not chosen.strict_form:
        strict_ones = ", ".join(name for name, known in PROVIDERS.items() if known.strict_form)
        raise ExportError(
            f"strict=True is OpenAI's form ({strict_ones}); {provider_name} has none in toolreg"
        )
    if omit_unsupported and not strict:
        raise ExportError("omit_unsupported=True goes with strict=True, OpenAI's strict form")
    if isinstance(names, str):
        raise InvalidToolError(f"names must be a list of tool names, not the string {names!r}")
    records = [
        registry.get(name) for name in (registry.names() if names is None else _ordered(registry, names))
    ]
    exported, refused = [], []
    for record in records:  # every tool, so that one ExportError names what blocks each of them
        try:
            exported.append(chosen.export(record, strict, omit_unsupported))
        except ExportError as error:
            refused.append(error)
    if len(refused) > 1:
        listed = " ".join(f"({number}) {error}" for number, error in enumerate(refused, 1))
        raise ExportError(
            f"{len(refused)} of {len(records)} tools cannot be exported to {provider_name}: {listed}",
            schema_path=refused[0].schema_path,
        )
    if refused:
        raise refused[0]
    return exported


def _ordered(registry: Registry, names: Iterable[str]) -> list[str]:
    """``names`` in registration order, each checked to be registered (UnknownToolError)."""
    wanted = {registry.get(name).name for name in names}
    return [name for name in registry.names() if name in wanted]


def lookup(registry: Registry, provider_name: str, provider_form: str) -> ToolRecord:
    """The record of the tool a provider's call names (``fs-read_file`` from OpenAI is ``fs.read_file``)."""
    chosen = provider(provider_name)
    if not isinstance(provider_form, str):
        raise UnknownToolError(provider_form)
    return registry.get(chosen.names.toolreg_name(provider_form))


def arguments(record: ToolRecord, args: Any, limits: Limits) -> Any:
    """``args`` of a call to the tool of ``record`` made through OpenAI's strict form, as the handler
    should see them: each ``null`` given for an optional property left out (a new object; ``args`` is
    unchanged); raises InvalidArgumentsError carrying one ``limit`` error where reading them would take
    more work than validating them may (within ``limits``, the registry's)."""
    try:
        return absent_nulls(checked_schema(record.validator), args, limits)
    except NullsPastBudget as over:
        raise InvalidArgumentsError(record.name, [over.error]) from None


def read_incoming(call: Any, provider_name: str | None = None, *, repair: bool = False) -> Incoming:
    """A provider's tool call read (as :func:`read_call` reads it) for an answer in its shape; with
    ``repair``, JSON text that only trailing commas kept from being read is read again without them
    (as strictly as any other text)."""
    found = read_call(call, provider_name)
    mended = _mended(found) if repair else None
    return Incoming(PROVIDERS[found.provider], found, mended)


def _mended(found: ToolCall) -> _Mended | None:
    """The arguments of a call whose JSON text only trailing commas kept from being read, read
    without them, and that repair; None for any other call."""
    if found.problem is None or found.text is None:
        return None
    comma = without_trailing_commas(found.text)
    if comma is None:
        return None
    read, problem = read_arguments(comma.after)
    return _Mended(read, comma) if problem is None else None


@dataclass(frozen=True)
class _Mended:
    """Arguments read from JSON text once its trailing commas were left out, and that repair."""

    arguments: Any
    repair: Repair


@dataclass(frozen=True)
class Incoming:
    """A provider's call, read to be answered in its provider's shape: what it names (``name``) and
    sends (``arguments``), how its provider writes tool names (``naming``: failures name the tools as
    the model saw them), the result of a call that cannot run at all (``unrunnable``), and
    :meth:`answer`, which writes the message answering it."""

    provider: Provider
    call: ToolCall
    mended: _Mended | None = None

    @property
    def name(self) -> str:
        return self.call.name

    @property
    def arguments(self) -> Any:
        return self.call.arguments if self.mended is None else self.mended.arguments

    @property
    def naming(self) -> Callable[[str], str]:
        return self.provider.names.form

    @property
    def unrunnable(self) -> CallResult | None:
        """The answer's result when the arguments could not be read (nor mended): no tool runs."""
        return self.call.problem_result() if self.call.problem is not None and self.mended is None else None

    def answer(self, result: CallResult, record: ToolRecord | None = None) -> dict[str, Any]:
        """The message answering the call with ``result`` (of the tool of ``record``, when one was
        found). Of a call whose text was repaired, the repair comes first among the result's; the
        answer is to its text as it was sent when the call stopped at its name or its arguments."""
        if self.mended is not None:
            if result.step in ("unknown_tool", "arguments"):
                result = self.call.problem_result()
            else:
                result = dataclasses.replace(result, repairs=(self.mended.repair, *result.repairs))
        return self.provider.answer(self.call, result, record)
