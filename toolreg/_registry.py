"""The tool registry: names, checked and snapshotted schemas, handlers, and validation by name."""

from __future__ import annotations

import copy
import re
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, TypeVar

from ._errors import (
    DuplicateToolError,
    InvalidToolError,
    InvalidToolNameError,
    Ok,
    SchemaError,
    UnknownToolError,
    ValidationError,
)
from ._limits import DEFAULT_LIMITS, Limits
from ._providers import export_tool, from_provider_name
from ._validator import Validator

__all__ = ["ToolRecord", "ToolRegistry", "check_tool_name"]

_SEGMENT = re.compile(r"[a-z0-9_]+", re.ASCII)
# The MCP tool annotations a registration may set; idempotentHint comes from `idempotent`.
MCP_HINTS = frozenset({"readOnlyHint", "destructiveHint", "openWorldHint"})
Handler = TypeVar("Handler", bound=Callable[..., Any])
_OK = Ok()


def check_tool_name(name: object) -> str:
    """Return ``name`` if it is lowercase segments joined by dots, else say what is wrong."""
    if not isinstance(name, str):
        raise InvalidToolNameError(f"a tool name must be a string, not {type(name).__name__}")
    if not name:
        raise InvalidToolNameError("a tool name must not be empty")
    for index, segment in enumerate(name.split(".")):
        if not segment:
            raise InvalidToolNameError(
                f"tool name {name!r} has an empty segment (segment {index}): "
                "dots must join non-empty segments, with none leading or trailing"
            )
        if not _SEGMENT.fullmatch(segment):
            bad = next(char for char in segment if not _SEGMENT.fullmatch(char))
            raise InvalidToolNameError(
                f"tool name {name!r} contains {bad!r}: segments are lowercase ASCII letters, "
                "digits and underscores, joined by dots (e.g. 'fs.read_file')"
            )
    return name


@dataclass(frozen=True)
class ToolRecord:
    """A registered tool. ``schema`` is a fresh copy of the registry's snapshot at each access, so
    nothing done to it through :meth:`ToolRegistry.get` can change what the registry checks."""

    name: str
    description: str
    handler: Callable[..., Any]
    idempotent: bool = False
    timeout_ms: int | None = None
    validator: Validator = field(repr=False, compare=False, kw_only=True)
    title: str | None = field(default=None, kw_only=True)
    hints: Mapping[str, bool] = field(default_factory=lambda: MappingProxyType({}), kw_only=True)

    @property
    def schema(self) -> Any:
        return copy.deepcopy(self.validator.schema)


class ToolRegistry:
    """Tools by name, in registration order; each schema is checked and compiled once."""

    def __init__(self, *, limits: Limits = DEFAULT_LIMITS) -> None:
        if not isinstance(limits, Limits):
            raise InvalidToolError(f"limits must be a toolreg.Limits, not {type(limits).__name__}")
        self.limits = limits
        self._records: dict[str, ToolRecord] = {}
        self._validators: dict[str, Callable[[Any], list[ValidationError]]] = {}
        # Writers take the lock; readers see a whole dict swapped in at once, so never a torn one.
        self._write_lock = threading.Lock()

    def register(
        self,
        name: str,
        schema: Any,
        handler: Callable[..., Any],
        *,
        description: str = "",
        idempotent: bool = False,
        timeout_ms: int | None = None,
        override: bool = False,
        title: str | None = None,
        hints: Mapping[str, bool] | None = None,
    ) -> ToolRecord:
        """Add a tool; raises before changing anything if any argument is refused.

        ``title`` and ``hints`` (MCP's ``readOnlyHint``, ``destructiveHint``, ``openWorldHint``) are
        passed on by :meth:`export`; ``idempotent`` becomes MCP's ``idempotentHint``.
        """
        check_tool_name(name)
        if not callable(handler):
            raise InvalidToolError(f"handler of {name!r} must be callable, not {type(handler).__name__}")
        if not isinstance(description, str) or "\n" in description or "\r" in description:
            raise InvalidToolError(f"description of {name!r} must be a string of one line")
        if not isinstance(idempotent, bool):
            raise InvalidToolError(f"idempotent of {name!r} must be a bool")
        if timeout_ms is not None and (
            isinstance(timeout_ms, bool) or not isinstance(timeout_ms, int) or timeout_ms <= 0
        ):
            raise InvalidToolError(f"timeout_ms of {name!r} must be a positive int or None")
        if not isinstance(override, bool):
            raise InvalidToolError("override must be a bool")
        if title is not None and (not isinstance(title, str) or "\n" in title):
            raise InvalidToolError(f"title of {name!r} must be a string of one line or None")
        hints = dict(hints or {})
        for hint, flag in hints.items():
            if hint not in MCP_HINTS or not isinstance(flag, bool):
                allowed = ", ".join(sorted(MCP_HINTS))
                raise InvalidToolError(
                    f"hints of {name!r} take {allowed} as true or false, not {hint!r}: {flag!r}"
                )
        validator = Validator(schema, self.limits)
        _require_object_type(validator.schema)
        record = ToolRecord(
            name,
            description,
            handler,
            idempotent,
            timeout_ms,
            validator=validator,
            title=title,
            hints=MappingProxyType(hints),
        )
        with self._write_lock:
            if name in self._records and not override:
                raise DuplicateToolError(name)
            records = dict(self._records)
            records[name] = record  # an existing key keeps its place
            validators = dict(self._validators)
            validators[name] = validator.validate
            # Two tables, each swapped whole: get() and validate() each see one registration or the next.
            self._records, self._validators = records, validators
        return record

    def get(self, name: str) -> ToolRecord:
        """The record of ``name``; raises UnknownToolError."""
        try:
            return self._records[name]
        except (KeyError, TypeError):
            raise UnknownToolError(name) from None

    def validate(self, name: str, args: Any) -> Ok | list[ValidationError]:
        """``Ok`` when ``args`` fits the tool's schema, else every error; never calls the handler."""
        try:
            validate = self._validators[name]
        except (KeyError, TypeError):
            raise UnknownToolError(name) from None
        return validate(args) or _OK

    def tool(self, name: str, *, schema: Any, **options: Any) -> Callable[[Handler], Handler]:
        """Register the decorated function as the handler of ``name``, with :meth:`register`'s
        keyword arguments (``description``, ``idempotent``…); the function is returned as it is."""

        def register(handler: Handler) -> Handler:
            self.register(name, schema, handler, **options)
            return handler

        return register

    def export(
        self, provider: str, *, names: Iterable[str] | None = None, strict: bool = False
    ) -> list[dict[str, Any]]:
        """The tools in a provider's form ("mcp", "openai", "anthropic", "gemini"), in registration order.

        ``names`` keeps only those tools (a harness shows a few per turn); ``strict`` gives OpenAI's
        strict form. Raises ExportError naming the tool and what prevents it, before returning anything.
        """
        records = self._records
        chosen = list(records) if names is None else [self.get(name).name for name in names]
        wanted = set(chosen)
        return [
            export_tool(
                provider,
                record.name,
                record.description,
                record.validator.schema,
                title=record.title,
                idempotent=record.idempotent,
                hints=dict(record.hints),
                strict=strict,
            )
            for record in records.values()
            if record.name in wanted
        ]

    def lookup(self, provider_name: str, provider: str) -> ToolRecord:
        """The tool a provider's call names (``fs-read_file`` from OpenAI is ``fs.read_file``)."""
        return self.get(from_provider_name(provider_name, provider))

    def names(self) -> list[str]:
        """Tool names in registration order."""
        return list(self._records)

    def __contains__(self, name: object) -> bool:
        return name in self._records

    def __len__(self) -> int:
        return len(self._records)

    def __repr__(self) -> str:
        return f"ToolRegistry({len(self)} tools)"


def _require_object_type(schema: Any) -> None:
    if schema is False:
        raise SchemaError("a tool's schema must accept an argument object; 'false' accepts nothing")
    if isinstance(schema, dict) and "type" in schema:
        declared = schema["type"]
        names = declared if isinstance(declared, list) else [declared]
        if "object" not in names:
            raise SchemaError(
                "a tool's schema describes its argument object, so its 'type' must include \"object\"",
                schema_path="/type",
                keyword="type",
            )
