"""The tool registry: names, checked and snapshotted schemas, handlers, and validation by name."""

from __future__ import annotations

import functools
import inspect
import json
import marshal
import re
import sys
import threading
import weakref
from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType, SimpleNamespace
from typing import Any, TypeVar

from ._errors import (
    DuplicateToolError,
    InvalidArgumentsError,
    InvalidToolError,
    InvalidToolNameError,
    UnknownToolError,
)
from ._feedback import UNPRINTABLE
from ._jsonschema.compiled import Compiled
from ._jsonschema.errors import OK, Result, SchemaError, ValidationError, freeze, thaw
from ._jsonschema.fast.glance import Glance
from ._jsonschema.fast.quick import vouch
from ._jsonschema.limits import DEFAULT_LIMITS, Limits, LimitsLike, as_limits
from ._jsonschema.regex import Pattern, Patterns
from ._jsonschema.schema import compile_with, guarded_pattern
from ._jsonschema.settings import Settings
from ._jsonschema.validator import Validator, checked_schema, work_bound
from ._jsonschema.values import NotJSON, json_type, snapshot
from ._pydantic import function_schemas, is_model, model_handler, model_schema
from ._sharing import WeakValues
from ._signatures import check_handler

__all__ = [
    "ToolRecord",
    "Registry",
    "Entry",
    "check_tool_name",
    "join_description",
    "HINTS",
    "FLAGS",
    "RECORD_FIELDS",
    "LINE_BREAK",
    "MAX_NAME_LENGTH",
]

_SEGMENT = re.compile(r"[a-z0-9_]+", re.ASCII)
# The longest name every provider takes (OpenAI and Anthropic allow 64 characters).
MAX_NAME_LENGTH = 64
# The hints a registration may set, as MCP's tool annotations name them; idempotentHint comes from
# ``idempotent``.
HINTS = frozenset({"readOnlyHint", "destructiveHint", "openWorldHint"})
# Every boolean annotation a record sets itself: the hints, and idempotentHint from ``idempotent``.
FLAGS = HINTS | {"idempotentHint"}
# The fields of a tool object (as MCP writes one) that a registration sets by its own arguments, so
# ``meta``, which holds the others, may not.
RECORD_FIELDS = frozenset({"name", "title", "description", "inputSchema", "outputSchema"})
# Every character str.splitlines breaks at: a one-line text holds none of them.
LINE_BREAK = re.compile("[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
Handler = TypeVar("Handler", bound=Callable[..., Any])
_NOTHING: Mapping[str, Any] = MappingProxyType({})
_JSON_TEXT = json.JSONEncoder(ensure_ascii=False, check_circular=False).encode
# Which validator a schema shares: its snapshot's bytes in marshal's first format, which writes each
# value of the exact JSON types one way (types, key order and digits as in the JSON text; no mark of
# what is interned or shared, as later formats have), so equal bytes are the same JSON text. A
# quarter of the cost of writing that text; raises ValueError past marshal's depth.
_SHARING_KEY = marshal.dumps


def check_tool_name(name: object) -> str:
    """Return ``name`` (as an exact ``str``) if it is lowercase segments joined by dots that every
    provider can send, else say what is wrong.

    Segments are ASCII lowercase letters, digits and underscores; the name starts with a letter or
    ``_`` (Gemini's rule) and has at most :data:`MAX_NAME_LENGTH` characters (OpenAI's and
    Anthropic's), so no export of a registered tool fails on its name.
    """
    if not isinstance(name, str):
        raise InvalidToolNameError(f"a tool name must be a string, not {type(name).__name__}")
    name = str.__str__(name)  # a subclass's methods (split, __hash__) never read or key it
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
    if name[0].isdigit():
        raise InvalidToolNameError(
            f"tool name {name!r} starts with a digit; gemini takes a letter or _ first"
        )
    if len(name) > MAX_NAME_LENGTH:
        raise InvalidToolNameError(
            f"tool name {name!r} has {len(name)} characters; openai and anthropic take at most "
            f"{MAX_NAME_LENGTH}"
        )
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
        # Slot by slot, past the refusing __setattr__: a registry makes one record per tool it takes.
        fill = object.__setattr__
        fill(self, "name", name)
        fill(self, "description", description)
        fill(self, "handler", handler)
        fill(self, "idempotent", idempotent)
        fill(self, "timeout_ms", timeout_ms)
        fill(self, "validator", validator)
        fill(self, "title", title)
        fill(self, "hints", MappingProxyType(dict(hints)) if hints else _NOTHING)
        fill(self, "details", details)
        fill(self, "output_validator", output_validator)
        fill(self, "meta", freeze(dict(meta)) if meta else _NOTHING)

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


class Entry:
    """A registered tool as a call finds it, in one lookup: its ``record``, what checks its arguments
    (``answers``: its validator, or one that first asks for an object; ``check``: its ``validate``, as
    a call runs it), and whether it has been unregistered since (``gone``), which a call that holds it
    reads rather than looking it up again."""

    __slots__ = ("record", "answers", "check", "gone", "__weakref__")

    def __init__(self, record: ToolRecord, answers: Validator | _ObjectsOnly) -> None:
        self.record = record
        self.answers = answers
        # By a weak reference, not a bound method, which would make a loop of references that only
        # the cyclic collector frees: an unregistered tool, its handler and its validator go at once.
        settling = functools.partial(_settling, weakref.ref(self), answers)
        self.check: Callable[[Any], Result] = settling if isinstance(answers, Validator) else answers.validate
        self.gone = False


def _settling(entry: weakref.ref[Entry], answers: Validator | _ObjectsOnly, args: Any) -> Result:
    """An entry's check until its validator settles on what answers its calls (its generated front,
    most often), which then stands in the entry in its place: finding the front on the validator at
    each call cost about a third of what the registry adds to a valid call of a small tool."""
    held = entry()
    current = answers if held is None else held.answers  # as it stands now
    errors = current.validate(args)
    if held is not None and isinstance(current, Validator) and (settled := current._settled()) is not None:
        held.check = settled
    return errors


class Registry:
    """Tools by name, in registration order; each schema is checked and compiled once.

    ``validate`` returns ``Ok`` (falsy: the empty list of errors) or the list of every error, so
    ``if errors := tools.validate(name, args):`` reports them and ``else:`` may run the handler;
    ``is_valid`` answers yes or no, and ``check`` raises :class:`~toolreg.InvalidArgumentsError`.

    This is the registry proper, which neither calls a tool nor knows a provider; the public
    :class:`~toolreg.ToolRegistry` adds both on top of it. ``version`` counts the changes made to it,
    and :meth:`subscribe` hears of each one as it is made.
    """

    def __init__(
        self,
        *,
        limits: LimitsLike = DEFAULT_LIMITS,
        documents: Mapping[str, Any] | None = None,
        assert_formats: bool = False,
    ) -> None:
        self.limits = as_limits(limits)
        # Whether "format" asserts (for the formats toolreg knows) in every tool's schema.
        self.assert_formats = assert_formats
        # Schemas that tools' $refs may name by URI (a shared definitions file); nothing is fetched.
        # Snapshots, so every tool registered later reads them as they were given here.
        self.documents = {
            uri: _document(uri, schema, self.limits) for uri, schema in (documents or {}).items()
        }
        self._records: dict[str, ToolRecord] = {}
        # Each tool with what answers for it: its validator, or one that first asks for an object (see
        # _ObjectsOnly), and the check a call runs, which asks the validator until it has settled on
        # its answer (its validate may change from the method to generated code: see Entry).
        self._entries: dict[str, Entry] = {}
        # Writers take the lock. Readers take none: a dict's get, set and copy each happen whole
        # under CPython's GIL, and readers that iterate copy first.
        self._write_lock = threading.Lock()
        self._version = 0
        # Replaced whole under the lock, never changed in place, so a writer calls a list no one edits.
        self._subscribers: tuple[Callable[[int], None], ...] = ()
        # Catalogs repeat schemas (every tool without arguments has the same one): tools whose schemas
        # are the same JSON text share one compiled Validator, which holds nothing of either tool.
        self._shared: WeakValues[Validator] = WeakValues()
        # Catalogs repeat patterns too: each is compiled and guarded once per registry, and all of them
        # within one allowance of what compiling them costs, so no catalog makes the registry pay more.
        self._patterns = Patterns(self.limits.max_pattern_program)

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
        (MCP's ``readOnlyHint``, ``destructiveHint``, ``openWorldHint``) are passed on by the
        exports; ``idempotent`` becomes MCP's ``idempotentHint``. ``output_schema`` describes
        the handler's result (MCP's ``outputSchema``); ``meta`` holds the other fields of an MCP
        tool object (``_meta``, ``icons``, more ``annotations``), given back by ``export("mcp")``.
        The handler must fit the schema, since it is called with the arguments as keywords; a
        mismatch is an InvalidToolError naming both sides.

        ``schema`` may be a pydantic model class (``pytoolreg[pydantic]``): its JSON schema is used, and
        calls are checked exactly as it says, with no coercion. With ``as_model``, the handler takes
        one argument, the model instance built from a call's valid arguments; what the model refuses
        beyond its schema (a date that is no date) is the call's arguments error, with its pointer.
        """
        name = check_tool_name(name)
        model = schema if is_model(schema) else None
        if model is not None:
            schema = model_schema(model)
        if as_model:
            if model is None:
                raise InvalidToolError(f"as_model=True for {name!r} needs a pydantic model as the schema")
            _takes_one_argument(name, handler)
            handler = model_handler(name, model, handler)
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
            title = str.__str__(title)
        # Kept as exact strings: a subclass's __format__ or __str__ could show a model other text.
        description, details = str.__str__(description), str.__str__(details)
        hints = dict(hints or {})
        for hint, flag in hints.items():
            if hint not in HINTS or not isinstance(flag, bool):
                allowed = ", ".join(sorted(HINTS))
                raise InvalidToolError(
                    f"hints of {name!r} take {allowed} as true or false, not {hint!r}: {flag!r}"
                )
        kept = _meta(name, meta)
        validator = self._validator(schema)
        check_handler(name, checked_schema(validator), handler)
        # The caller's schema, not a copy of the snapshot: it passed the check, and only its root is read.
        answers = validator if _require_object_type(schema) else _ObjectsOnly(validator)
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
            self._entries[name] = Entry(record, answers)
            self._records[name] = record
            version = self._changed()
        self._announce(version)
        return record

    def _validator(self, schema: Any) -> Validator:
        try:
            # The key of the plain snapshot, so a subclass cannot show one schema and compile another.
            plain = snapshot(schema, self.limits.max_schema_depth)
            key = _SHARING_KEY(plain, 0)
        except (NotJSON, ValueError):
            return Validator(
                schema, limits=self.limits, documents=self.documents, assert_formats=self.assert_formats
            )  # raises, saying why
        validator = self._shared.get(key)
        if validator is None:
            # The snapshot is this call's own, so compiling it needs no second copy. What compiles it
            # holds the registry's settings and patterns, not the registry.
            settings = Settings(self.limits, self.documents, self.assert_formats)
            compile_it: Callable[[], Compiled] = functools.partial(
                _compile_snapshot, plain, settings, self._patterns
            )

            # A schema the quick check vouches for is compiled at its tool's first call: a catalog
            # of hundreds of tools, most called rarely, starts without building checks for all, and a
            # valid first call is answered from the snapshot itself (see fast.glance).
            # Not where max_schema_depth is raised past the default: a schema too deep for Python's
            # stack to compile is then refused here, rather than found at a call.
            deferred = self.limits.max_schema_depth <= DEFAULT_LIMITS.max_schema_depth
            vouched = vouch(plain, self.limits, self._guarded_pattern) if deferred else None
            if vouched is not None:
                glance = Glance(plain, self.limits, self._guarded_pattern, self.assert_formats, vouched)
                validator = Validator._deferred(plain, self.limits, compile_it, glance)
            else:
                validator = Validator._of(compile_it())  # refuses it, saying why, or accepts it
            validator = self._shared.setdefault(key, validator)
        return validator

    def _guarded_pattern(self, source: str, room: int | None = None) -> tuple[Pattern, str | None]:
        return guarded_pattern(source, self._patterns, room)

    def unregister(self, name: str) -> ToolRecord:
        """Remove a tool and return its record; raises UnknownToolError."""
        with self._write_lock:
            record = self.get(name)
            del self._records[name]
            # A call that found the tool before this hears of it (an acall checking its arguments).
            self._entries.pop(name).gone = True
            version = self._changed()
        self._announce(version)
        return record

    def get(self, name: str) -> ToolRecord:
        """The record of ``name``; raises UnknownToolError."""
        try:
            return self._records[name]
        except (KeyError, TypeError):
            raise UnknownToolError(name) from None

    def _entry(self, name: str) -> Entry:
        """The tool of ``name`` as a call finds it, record and check together; raises UnknownToolError.
        The one lookup a call makes: what follows reads the entry, never the registry again."""
        try:
            return self._entries[name]
        except (KeyError, TypeError):
            raise UnknownToolError(name) from None

    def validate(self, name: str, args: Any) -> Result:
        """``Ok`` (falsy) when ``args`` fits the tool's schema, else the list of every error.

        ``if errors := tools.validate(name, args):`` reports; ``else:`` may run the handler.
        Never calls the handler; raises UnknownToolError for a name not registered.
        """
        try:
            entry = self._entries[name]
        except (KeyError, TypeError):
            raise UnknownToolError(name) from None
        check = entry.check  # read, then called: a method call of a slot's function is not specialised
        return check(args)

    def is_valid(self, name: str, args: Any) -> bool:
        """True when ``args`` fits the tool's schema, as :meth:`validate` would find; it stops at the
        first failure rather than collecting every error (see ``Validator.is_valid``)."""
        try:
            entry = self._entries[name]
        except (KeyError, TypeError):
            raise UnknownToolError(name) from None
        return entry.answers.is_valid(args)

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

        Without ``schema`` (``pytoolreg[pydantic]``), the schema comes from the function's parameters,
        the description from its docstring's summary (each parameter's from its ``Args:`` section),
        and the output schema from its return annotation when that is an object.
        """

        def register(handler: Handler) -> Handler:
            given, settings = schema, dict(options)
            called: Callable[..., Any] = handler
            if given is None:
                given, output, summary, called = function_schemas(handler, name)
                if summary and "description" not in settings:
                    settings["description"] = summary
                if output is not None and "output_schema" not in settings:
                    settings["output_schema"] = output
            self.register(name, given, called, **settings)
            return handler

        return register

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
        return f"{type(self).__name__}({len(self)} tools)"

    @property
    def version(self) -> int:
        """How many changes the registry has seen: each registration and removal adds one."""
        return self._version

    def subscribe(self, callback: Callable[[int], None]) -> Callable[[], None]:
        """Call ``callback(version)`` after each registration and removal, and return the function
        that stops it (an MCP server announces ``tools/list_changed`` from it).

        The callback runs in the thread that made the change, once the change is whole and the
        registry's lock is released, so it may read or change the registry. It should be quick. An
        exception it raises does not undo the change or reach the writer: it goes to
        ``sys.unraisablehook``, as Python does with errors nobody can catch.
        """
        if not callable(callback):
            raise InvalidToolError(f"subscribe takes a callable, not {type(callback).__name__}")
        with self._write_lock:
            self._subscribers = (*self._subscribers, callback)

        def unsubscribe() -> None:
            with self._write_lock:
                kept = list(self._subscribers)
                if callback in kept:
                    kept.remove(callback)
                self._subscribers = tuple(kept)

        return unsubscribe

    def _changed(self) -> int:
        """Count a change; called under the lock. Returns the new version."""
        self._version += 1
        return self._version

    def _announce(self, version: int) -> None:
        for callback in self._subscribers:
            try:
                callback(version)
            except Exception as error:
                report = SimpleNamespace(
                    exc_type=type(error),
                    exc_value=error,
                    exc_traceback=error.__traceback__,
                    err_msg=f"Exception in a toolreg registry subscriber ({version=})",
                    object=callback,
                )
                sys.unraisablehook(report)


def _document(uri: object, schema: Any, limits: Limits) -> Any:
    if not isinstance(uri, str):
        raise SchemaError(f"documents must map URIs (strings) to schemas, not {uri!r}")
    try:
        return snapshot(schema, limits.max_schema_depth)
    except NotJSON as error:
        raise SchemaError(f"the document {uri!r} is not a JSON schema: {error}") from None


def _compile_snapshot(plain: Any, settings: Settings, patterns: Patterns) -> Compiled:
    """Compile a registry's own snapshot, with the work bound its validator runs it with; its JSON text
    tells whether anything in it needs indexing."""
    try:
        text: str | None = _JSON_TEXT(plain)
    except ValueError:
        text = None  # an integer past Python's limit on digits: compiling indexes what it holds
    return compile_with(plain, settings, copy=False, text=text, patterns=patterns, allowance=work_bound)


def _one_line(name: str, what: str, text: object) -> None:
    if isinstance(text, str) and str.isprintable(text):
        return  # the common case, in one test: what is printable holds no line break and no control
    if not isinstance(text, str) or LINE_BREAK.search(text):
        extra = "; put longer text in details=" if what == "description" else ""
        raise InvalidToolError(f"{what} of {name!r} must be a string of one line{extra}")
    _shown(name, what, text)


def _shown(name: str, what: str, text: str, allowed: str = "") -> None:
    """Refuse characters that would reach a model or a screen as control: ESC, bidi overrides…"""
    if str.isprintable(text):
        return  # none of them is printable
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
    modelled = sorted(RECORD_FIELDS & kept.keys())
    if modelled:
        raise InvalidToolError(f"meta of {name!r} holds {modelled}, which register's own arguments set")
    annotations = kept.get("annotations", {})
    if not isinstance(annotations, dict):
        raise InvalidToolError(f"meta['annotations'] of {name!r} must be an object")
    taken = sorted(FLAGS & annotations.keys())
    if taken:
        raise InvalidToolError(f"meta['annotations'] of {name!r} holds {taken}; pass hints= and idempotent=")
    return kept


def _takes_one_argument(name: str, handler: Any) -> None:
    """Refuse a handler that cannot be called with one argument, the model instance, alone."""
    if not callable(handler):
        raise InvalidToolError(f"handler of {name!r} must be callable, not {type(handler).__name__}")
    try:
        signature = inspect.signature(handler)
    except (TypeError, ValueError):
        return  # some built-ins: taken as they are, as check_handler takes them
    try:
        signature.bind(None)
    except TypeError as error:
        raise InvalidToolError(
            f"the handler of {name!r} (as_model=True) is called with one argument, the model "
            f"instance, but cannot take it: {error}"
        ) from None


def _require_object_type(schema: Any) -> bool:
    """Refuse a schema that accepts no object; say whether it refuses everything else itself (its
    "type" is "object" alone)."""
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
        return set(names) == {"object"}
    return False


class _ObjectsOnly:
    """A schema with no "type" (or ``true``) accepts "rm -rf /", and one whose "type" also names
    "null" accepts null; a tool's arguments are an object, whatever else its schema allows."""

    __slots__ = ("validator",)

    def __init__(self, validator: Validator) -> None:
        self.validator = validator

    def validate(self, args: Any) -> Result:
        if isinstance(args, dict):
            return self.validator.validate(args)
        actual = json_type(args) or type(args).__name__
        message = f"expected object, got {actual}: a tool's arguments are an object"
        return [ValidationError("", "", "type", message, {"expected_type": "object", "actual_type": actual})]

    def is_valid(self, args: Any) -> bool:
        return isinstance(args, dict) and self.validator.is_valid(args)
