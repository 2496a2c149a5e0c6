"""The tool registry: names, checked and snapshotted schemas, handlers, and validation by name."""

from __future__ import annotations

import functools
import json
import re
import threading
import weakref
from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import Any, TypeVar

from ._calls import CallResult, RetryPolicy, acall_tool, call_tool, without_optional_nulls
from ._errors import (
    DuplicateToolError,
    ExportError,
    InvalidArgumentsError,
    InvalidToolError,
    InvalidToolNameError,
    UnknownToolError,
)
from ._feedback import UNPRINTABLE
from ._jsonschema.errors import OK, Result, SchemaError, ValidationError, freeze, thaw
from ._jsonschema.limits import DEFAULT_LIMITS, Limits, LimitsLike, as_limits
from ._jsonschema.quick import vouch
from ._jsonschema.regex import Pattern
from ._jsonschema.schema import Compiled, compile_schema, guarded_pattern
from ._jsonschema.validator import Validator, checked_schema
from ._jsonschema.values import NotJSON, json_type, snapshot
from ._messages import ToolCall, problem_result, read_call, result_message
from ._providers import MCP_MODELLED, PROVIDERS, export_tool, from_provider_name, to_provider_name
from ._pydantic import function_schemas, is_model, model_handler, model_schema
from ._signatures import check_handler

__all__ = [
    "ToolRecord",
    "ToolRegistry",
    "check_tool_name",
    "join_description",
    "MCP_HINTS",
    "MCP_FLAGS",
    "LINE_BREAK",
]

_SEGMENT = re.compile(r"[a-z0-9_]+", re.ASCII)
# The MCP tool annotations a registration may set; idempotentHint comes from `idempotent`.
MCP_HINTS = frozenset({"readOnlyHint", "destructiveHint", "openWorldHint"})
# Every boolean MCP annotation toolreg sets itself: the hints, and idempotentHint from `idempotent`.
MCP_FLAGS = MCP_HINTS | {"idempotentHint"}
# Every character str.splitlines breaks at: a one-line text holds none of them.
LINE_BREAK = re.compile("[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
Handler = TypeVar("Handler", bound=Callable[..., Any])
_NOTHING: Mapping[str, Any] = MappingProxyType({})
_JSON_TEXT = json.JSONEncoder(ensure_ascii=False, check_circular=False).encode


def check_tool_name(name: object) -> str:
    """Return ``name`` if it is lowercase segments joined by dots and every provider takes it, else
    say what is wrong."""
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
    for provider in PROVIDERS:
        # Caught here once, rather than at every later export.
        try:
            to_provider_name(name, provider)
        except ExportError as error:
            raise InvalidToolNameError(str(error)) from None
    return name


def join_description(description: str, details: str) -> str:
    """The whole text exports send: the one-line ``description``, then ``details`` after a line break."""
    return f"{description}\n{details}" if details else description


class ToolRecord:
    """A registered tool; an immutable value.

    ``description`` is one line, the summary a provider shows first; ``details`` the rest of a
    longer text (an MCP description's later paragraphs), exported after it as ``full_description``.
    ``schema`` and ``output_schema`` are fresh copies of the registry's snapshots at each access, so
    nothing done to them can change what the registry checks. Records compare equal when every
    field, the schemas included (as JSON), is equal; they hash by name and schema, so they can be
    kept in sets and used as keys.
    """

    __slots__ = (
        "name", "description", "handler", "idempotent", "timeout_ms", "validator",
        "title", "hints", "details", "output_validator", "meta",
    )  # fmt: skip

    name: str
    description: str
    handler: Callable[..., Any]
    idempotent: bool
    timeout_ms: int | None
    validator: Validator
    title: str | None
    hints: Mapping[str, bool]
    details: str
    output_validator: Validator | None
    meta: Mapping[str, Any]

    def __init__(
        self,
        name: str,
        description: str,
        handler: Callable[..., Any],
        idempotent: bool = False,
        timeout_ms: int | None = None,
        *,
        validator: Validator,
        title: str | None = None,
        hints: Mapping[str, bool] | None = None,
        details: str = "",
        output_validator: Validator | None = None,
        meta: Mapping[str, Any] | None = None,
    ) -> None:
        values = {
            "name": name,
            "description": description,
            "handler": handler,
            "idempotent": idempotent,
            "timeout_ms": timeout_ms,
            "validator": validator,
            "title": title,
            "hints": MappingProxyType(dict(hints)) if hints else _NOTHING,
            "details": details,
            "output_validator": output_validator,
            "meta": freeze(dict(meta)) if meta else _NOTHING,
        }
        for slot, value in values.items():
            object.__setattr__(self, slot, value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"ToolRecord is immutable; cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"ToolRecord is immutable; cannot delete {name!r}")

    @property
    def schema(self) -> Any:
        """The argument schema: a fresh copy."""
        return self.validator.schema

    @property
    def output_schema(self) -> Any:
        """The result schema, a fresh copy, or None when the tool declares none."""
        return None if self.output_validator is None else self.output_validator.schema

    @property
    def full_description(self) -> str:
        """``description``, then ``details`` on the lines after it: what exports send."""
        return join_description(self.description, self.details)

    def _key(self) -> tuple[Any, ...]:
        output = None if self.output_validator is None else self.output_validator.schema_key
        return (
            self.name, self.description, self.details, self.handler, self.idempotent, self.timeout_ms,
            self.title, dict(self.hints), self.validator.schema_key, output, thaw(self.meta),
        )  # fmt: skip

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ToolRecord):
            return NotImplemented
        return self is other or self._key() == other._key()

    def __hash__(self) -> int:
        # Equal records have equal names and schemas; the handler may be unhashable, so it stays out.
        return hash((self.name, self.validator.schema_key))

    def __repr__(self) -> str:
        return (
            f"ToolRecord(name={self.name!r}, description={self.description!r}, handler={self.handler!r}, "
            f"idempotent={self.idempotent!r}, timeout_ms={self.timeout_ms!r})"
        )


class ToolRegistry:
    """Tools by name, in registration order; each schema is checked and compiled once.

    ``validate`` returns ``Ok`` (falsy: the empty list of errors) or the list of every error, so
    ``if errors := tools.validate(name, args):`` reports them and ``else:`` may run the handler;
    ``is_valid`` answers yes or no, and ``check`` raises :class:`~toolreg.InvalidArgumentsError`.
    """

    def __init__(
        self,
        *,
        limits: LimitsLike = DEFAULT_LIMITS,
        documents: Mapping[str, Any] | None = None,
        assert_formats: bool = False,
        default_timeout_ms: float | None = None,
        retry: RetryPolicy | None = None,
    ) -> None:
        self.limits = as_limits(limits)
        # For call and acall: the time budget of a tool registered without one, and how idempotent
        # tools are tried again.
        if default_timeout_ms is not None and (
            isinstance(default_timeout_ms, bool)
            or not isinstance(default_timeout_ms, (int, float))
            or not 0 < default_timeout_ms < float("inf")
        ):
            raise InvalidToolError(
                f"default_timeout_ms must be a positive number, not {default_timeout_ms!r}"
            )
        self.default_timeout_ms = default_timeout_ms
        self.retry = RetryPolicy() if retry is None else retry
        if not isinstance(self.retry, RetryPolicy):
            raise InvalidToolError(f"retry must be a RetryPolicy, not {retry!r}")
        # Whether "format" asserts (for the formats toolreg knows) in every tool's schema.
        self.assert_formats = assert_formats
        # Schemas that tools' $refs may name by URI (a shared definitions file); nothing is fetched.
        # Snapshots, so every tool registered later reads them as they were given here.
        self.documents = {
            uri: _document(uri, schema, self.limits) for uri, schema in (documents or {}).items()
        }
        self._records: dict[str, ToolRecord] = {}
        self._validators: dict[str, Callable[[Any], Result]] = {}
        # Writers take the lock. Readers take none: a dict's get, set and copy each happen whole
        # under CPython's GIL, and readers that iterate copy first.
        self._write_lock = threading.Lock()
        # Catalogs repeat schemas (every tool without arguments has the same one): tools whose schemas
        # are the same JSON text share one compiled Validator, which holds nothing of either tool.
        self._shared: weakref.WeakValueDictionary[str, Validator] = weakref.WeakValueDictionary()
        # Catalogs repeat patterns too: each is compiled and guarded once per registry.
        self._patterns: dict[str, tuple[Pattern, str | None]] = {}

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
        details: str = "",
        output_schema: Any = None,
        meta: Mapping[str, Any] | None = None,
        as_model: bool = False,
    ) -> ToolRecord:
        """Add a tool; raises before changing anything if any argument is refused.

        ``description`` is one line; ``details`` holds any longer text. ``title`` and ``hints``
        (MCP's ``readOnlyHint``, ``destructiveHint``, ``openWorldHint``) are passed on by
        :meth:`export`; ``idempotent`` becomes MCP's ``idempotentHint``. ``output_schema`` describes
        the handler's result (MCP's ``outputSchema``); ``meta`` holds the other fields of an MCP
        tool object (``_meta``, ``icons``, more ``annotations``), given back by ``export("mcp")``.
        The handler must fit the schema: see :func:`toolreg._signatures.check_handler`.

        ``schema`` may be a pydantic model class (``toolreg[pydantic]``): its JSON schema is used, and
        calls are checked exactly as it says, with no coercion. With ``as_model``, the handler takes
        one argument, the model instance built from a call's valid arguments.
        """
        model = schema if is_model(schema) else None
        if model is not None:
            schema = model_schema(model)
        if as_model:
            if model is None:
                raise InvalidToolError(f"as_model=True for {name!r} needs a pydantic model as the schema")
            if not callable(handler):
                raise InvalidToolError(f"handler of {name!r} must be callable, not {type(handler).__name__}")
            handler = model_handler(model, handler)
        check_tool_name(name)
        if not callable(handler):
            raise InvalidToolError(f"handler of {name!r} must be callable, not {type(handler).__name__}")
        _one_line(name, "description", description)
        if not isinstance(details, str):
            raise InvalidToolError(f"details of {name!r} must be a string")
        _shown(name, "details", details, allowed="\n\t")
        if not isinstance(idempotent, bool):
            raise InvalidToolError(f"idempotent of {name!r} must be a bool")
        if timeout_ms is not None and (
            isinstance(timeout_ms, bool) or not isinstance(timeout_ms, int) or timeout_ms <= 0
        ):
            raise InvalidToolError(f"timeout_ms of {name!r} must be a positive int or None")
        if not isinstance(override, bool):
            raise InvalidToolError("override must be a bool")
        if title is not None:
            _one_line(name, "title", title)
        hints = dict(hints or {})
        for hint, flag in hints.items():
            if hint not in MCP_HINTS or not isinstance(flag, bool):
                allowed = ", ".join(sorted(MCP_HINTS))
                raise InvalidToolError(
                    f"hints of {name!r} take {allowed} as true or false, not {hint!r}: {flag!r}"
                )
        kept = _meta(name, meta)
        validator = self._validator(schema)
        check_handler(name, checked_schema(validator), handler)
        # The caller's schema, not a copy of the snapshot: it passed the check, and only its root is read.
        validate = validator.validate if _require_object_type(schema) else _objects_only(validator)
        output_validator = None
        if output_schema is not None:
            try:
                output_validator = self._validator(output_schema)
            except SchemaError as error:
                raise SchemaError(
                    f"output_schema: {error.reason}", schema_path=error.schema_path, keyword=error.keyword
                ) from None
        record = ToolRecord(
            name,
            description,
            handler,
            idempotent,
            timeout_ms,
            validator=validator,
            title=title,
            hints=hints,
            details=details,
            output_validator=output_validator,
            meta=kept,
        )
        with self._write_lock:
            if name in self._records and not override:
                raise DuplicateToolError(name)
            # In place, so registering n tools costs O(n), not O(n²); an existing key keeps its place.
            self._validators[name] = validate
            self._records[name] = record
        return record

    def _validator(self, schema: Any) -> Validator:
        try:
            # The text of the plain snapshot, so a subclass cannot show one schema and compile another.
            plain = snapshot(schema, self.limits.max_schema_depth)
            text = _JSON_TEXT(plain)
        except (NotJSON, ValueError):
            return Validator(
                schema, limits=self.limits, documents=self.documents, assert_formats=self.assert_formats
            )  # raises, saying why
        validator = self._shared.get(text)
        if validator is None:
            # The snapshot is this call's own, so compiling it needs no second copy. What compiles it
            # holds the registry's settings and patterns, not the registry.
            compile_it: Callable[[], Compiled] = functools.partial(
                compile_schema,
                plain,
                self.limits,
                self.documents,
                self.assert_formats,
                copy=False,
                text=text,
                patterns=self._patterns,
            )

            # A schema the quick check vouches for is compiled at its tool's first call: a catalog
            # of hundreds of tools, most called rarely, starts without building checks for all.
            if vouch(plain, self.limits, self._guarded_pattern):
                validator = Validator._deferred(plain, self.limits, compile_it)
            else:
                validator = Validator._of(compile_it())  # refuses it, saying why, or accepts it
            validator = self._shared.setdefault(text, validator)
        return validator

    def _guarded_pattern(self, source: str) -> tuple[Pattern, str | None]:
        return guarded_pattern(source, self._patterns)

    def unregister(self, name: str) -> ToolRecord:
        """Remove a tool and return its record; raises UnknownToolError."""
        with self._write_lock:
            record = self.get(name)
            del self._records[name]
            del self._validators[name]
        return record

    def get(self, name: str) -> ToolRecord:
        """The record of ``name``; raises UnknownToolError."""
        try:
            return self._records[name]
        except (KeyError, TypeError):
            raise UnknownToolError(name) from None

    def validate(self, name: str, args: Any, *, strict: bool = False) -> Result:
        """``Ok`` (falsy) when ``args`` fits the tool's schema, else the list of every error.

        ``if errors := tools.validate(name, args):`` reports; ``else:`` may run the handler.
        Never calls the handler; raises UnknownToolError for a name not registered. ``strict`` reads
        a call made through OpenAI's strict export: a ``null`` for an optional property, at any
        depth, means the property was left out (see :meth:`arguments`).
        """
        try:
            validate = self._validators[name]
        except (KeyError, TypeError):
            raise UnknownToolError(name) from None
        return validate(self.arguments(name, args) if strict else args)

    def arguments(self, name: str, args: Any) -> Any:
        """``args`` of a call made through OpenAI's strict export, as the handler should see them:
        each ``null`` given for an optional property left out (a new object; ``args`` is unchanged)."""
        return without_optional_nulls(checked_schema(self.get(name).validator), args)

    def call(self, name: str, args: Any, *, strict: bool = False, with_traceback: bool = False) -> CallResult:
        """Validate ``args``, run the handler within the tool's ``timeout_ms`` (else the registry's
        ``default_timeout_ms``), try an idempotent tool again after a timeout or a TransientError as
        ``retry`` allows, and check the output against the tool's output schema.

        Every outcome is a :class:`CallResult`, never an exception: the output, or the step that
        stopped the call with text a model can act on. A handler's exception is reported by its type
        and message; ``with_traceback`` keeps the traceback in the result too. A handler with a time
        budget runs in a thread of its own, abandoned (not stopped) when the budget runs out.
        """
        return call_tool(
            self, name, args, strict=strict, with_traceback=with_traceback, policy=self.retry,
            default_timeout_ms=self.default_timeout_ms,
        )  # fmt: skip

    async def acall(
        self, name: str, args: Any, *, strict: bool = False, with_traceback: bool = False
    ) -> CallResult:
        """:meth:`call` for async code: an async handler is awaited, a sync one runs in a worker thread,
        so the event loop is never blocked."""
        return await acall_tool(
            self, name, args, strict=strict, with_traceback=with_traceback, policy=self.retry,
            default_timeout_ms=self.default_timeout_ms,
        )  # fmt: skip

    def answer(
        self, call: Any, *, provider: str | None = None, strict: bool = False, with_traceback: bool = False
    ) -> dict[str, Any]:
        """The message that answers a provider's tool call, in that provider's shape, for success and
        failure alike: an OpenAI Chat Completions tool call or Responses ``function_call``, an
        Anthropic ``tool_use`` block, a Gemini ``functionCall`` part, or MCP ``tools/call`` params
        (found by shape unless ``provider`` says). Arguments sent as JSON text are read with clear
        answers for text that is not one JSON object; a name in the provider's form is mapped back;
        an unknown name gets the nearest registered names. ``strict`` is as in :meth:`validate`."""
        found = read_call(call, provider)
        if found.problem is not None:
            return result_message(found, problem_result(found))
        result = call_tool(
            self, found.name, found.arguments, strict=strict, with_traceback=with_traceback,
            policy=self.retry, default_timeout_ms=self.default_timeout_ms, naming=found.naming,
        )  # fmt: skip
        return result_message(found, result, structured=self._structured(found))

    async def aanswer(
        self, call: Any, *, provider: str | None = None, strict: bool = False, with_traceback: bool = False
    ) -> dict[str, Any]:
        """:meth:`answer` for async code, calling the tool as :meth:`acall` does."""
        found = read_call(call, provider)
        if found.problem is not None:
            return result_message(found, problem_result(found))
        result = await acall_tool(
            self, found.name, found.arguments, strict=strict, with_traceback=with_traceback,
            policy=self.retry, default_timeout_ms=self.default_timeout_ms, naming=found.naming,
        )  # fmt: skip
        return result_message(found, result, structured=self._structured(found))

    def _structured(self, found: ToolCall) -> bool:
        # MCP: a tool with an output schema answers with structuredContent (and its JSON text).
        record = self._records.get(found.name)
        return found.provider == "mcp" and record is not None and record.output_validator is not None

    def is_valid(self, name: str, args: Any) -> bool:
        """True when ``args`` fits the tool's schema."""
        return not self.validate(name, args)

    def check(self, name: str, args: Any) -> None:
        """Return quietly when ``args`` fits; else raise InvalidArgumentsError carrying ``errors``."""
        errors = self.validate(name, args)
        if errors:
            raise InvalidArgumentsError(name, list(errors))

    def validate_output(self, name: str, result: Any) -> Result:
        """``Ok`` when the handler's ``result`` fits the tool's output schema (or it has none), else
        every error."""
        output = self.get(name).output_validator
        return OK if output is None else output.validate(result)

    def tool(self, name: str, *, schema: Any = None, **options: Any) -> Callable[[Handler], Handler]:
        """Register the decorated function as the handler of ``name``, with :meth:`register`'s
        keyword arguments (``description``, ``idempotent``…); the function is returned as it is.

        Without ``schema`` (``toolreg[pydantic]``), the schema comes from the function's parameters,
        the description from its docstring's summary (each parameter's from its ``Args:`` section),
        and the output schema from its return annotation when that is an object.
        """

        def register(handler: Handler) -> Handler:
            given, settings = schema, dict(options)
            called: Callable[..., Any] = handler
            if given is None:
                given, output, summary, called = function_schemas(handler)
                if summary and "description" not in settings:
                    settings["description"] = summary
                if output is not None and "output_schema" not in settings:
                    settings["output_schema"] = output
            self.register(name, given, called, **settings)
            return handler

        return register

    def export(
        self,
        provider: str,
        *,
        names: Iterable[str] | None = None,
        strict: bool = False,
        omit_unsupported: bool = False,
    ) -> list[dict[str, Any]]:
        """The tools in a provider's form ("mcp", "openai", "anthropic", "gemini"), in registration order.

        ``names`` keeps only those tools (a harness shows a few per turn); ``strict`` gives OpenAI's
        strict form, and ``omit_unsupported`` leaves out of it what strict mode cannot express (listed
        in the description; the registry still checks it). Raises ExportError naming the tool and every
        blocker, before returning anything.
        """
        records = list(self._records.values())  # one copy, made whole, while others may register
        to_provider_name("provider.check", provider)  # an unknown provider is named even with no tools
        if isinstance(names, str):
            raise InvalidToolError(f"names must be a list of tool names, not the string {names!r}")
        wanted = {record.name for record in records} if names is None else {self.get(n).name for n in names}
        return [
            export_tool(
                provider,
                record.name,
                record.full_description,
                record.schema,
                title=record.title,
                idempotent=record.idempotent,
                hints=dict(record.hints),
                strict=strict,
                output_schema=record.output_schema,
                meta=thaw(record.meta),
                omit_unsupported=omit_unsupported,
            )
            for record in records
            if record.name in wanted
        ]

    def lookup(self, provider_name: str, provider: str) -> ToolRecord:
        """The tool a provider's call names (``fs-read_file`` from OpenAI is ``fs.read_file``)."""
        if not isinstance(provider_name, str):
            raise UnknownToolError(provider_name)
        return self.get(from_provider_name(provider_name, provider))

    def prepare(self, names: Iterable[str] | None = None) -> None:
        """Generate the fast path of these tools (all, by default) now, rather than at each one's first
        validation; raises UnknownToolError for a name not registered."""
        if isinstance(names, str):
            raise InvalidToolError(f"names must be a list of tool names, not the string {names!r}")
        for name in self.names() if names is None else list(names):
            record = self.get(name)
            record.validator.prepare()
            if record.output_validator is not None:
                record.output_validator.prepare()

    def names(self) -> list[str]:
        """Tool names in registration order."""
        return list(self._records)

    def __contains__(self, name: object) -> bool:
        return name in self._records

    def __len__(self) -> int:
        return len(self._records)

    def __repr__(self) -> str:
        return f"ToolRegistry({len(self)} tools)"


def _document(uri: object, schema: Any, limits: Limits) -> Any:
    if not isinstance(uri, str):
        raise SchemaError(f"documents must map URIs (strings) to schemas, not {uri!r}")
    try:
        return snapshot(schema, limits.max_schema_depth)
    except NotJSON as error:
        raise SchemaError(f"the document {uri!r} is not a JSON schema: {error}") from None


def _one_line(name: str, what: str, text: object) -> None:
    if not isinstance(text, str) or LINE_BREAK.search(text):
        extra = "; put longer text in details=" if what == "description" else ""
        raise InvalidToolError(f"{what} of {name!r} must be a string of one line{extra}")
    _shown(name, what, text)


def _shown(name: str, what: str, text: str, allowed: str = "") -> None:
    """Refuse characters that would reach a model or a screen as control: ESC, bidi overrides…"""
    for found in UNPRINTABLE.finditer(text):
        if found.group() not in allowed:
            raise InvalidToolError(
                f"{what} of {name!r} holds U+{ord(found.group()):04X}, which no one would see printed"
            )


def _meta(name: str, meta: Mapping[str, Any] | None) -> dict[str, Any]:
    if meta is None:
        return {}
    if not isinstance(meta, Mapping):
        raise InvalidToolError(f"meta of {name!r} must be a mapping of MCP tool fields")
    try:
        kept: dict[str, Any] = snapshot(dict(meta), 64)
    except NotJSON as error:
        raise InvalidToolError(f"meta of {name!r} must be JSON: {error}") from None
    modelled = sorted(MCP_MODELLED & kept.keys())
    if modelled:
        raise InvalidToolError(f"meta of {name!r} holds {modelled}, which register's own arguments set")
    annotations = kept.get("annotations", {})
    if not isinstance(annotations, dict):
        raise InvalidToolError(f"meta['annotations'] of {name!r} must be an object")
    taken = sorted(MCP_FLAGS & annotations.keys())
    if taken:
        raise InvalidToolError(f"meta['annotations'] of {name!r} holds {taken}; pass hints= and idempotent=")
    return kept


def _require_object_type(schema: Any) -> bool:
    """Refuse a schema that accepts no object; say whether it refuses everything else itself."""
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
        return True
    return False


def _objects_only(validator: Validator) -> Callable[[Any], Result]:
    """A schema with no "type" (or ``true``) accepts "rm -rf /"; a tool's arguments are an object."""

    def validate(args: Any) -> Result:
        if isinstance(args, dict):
            return validator.validate(args)
        actual = json_type(args) or type(args).__name__
        message = f"expected object, got {actual}: a tool's arguments are an object"
        return [ValidationError("", "", "type", message, {"expected_type": "object", "actual_type": actual})]

    return validate
