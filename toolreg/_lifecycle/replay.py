"""Replaying a log of model tool calls on toolreg's validator: how many were valid, at the first try,
what went wrong, and how often the model mended a call once it had its errors (:func:`replay`).

The log is read as a stream (``toolreg._lifecycle.logs``); what is kept is counters and bounded
tables, so memory stays flat in the log's size.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, ClassVar, Final

from .._feedback import printable
from .._jsonschema.errors import SchemaError, ToolregError, ValidationError
from .._toolregistry import ToolRegistry
from .catalogs import catalog_entries, read_catalog_file
from .logs import (
    FORMS,
    MALFORMED_KINDS,
    LoggedAnswer,
    LoggedCall,
    LoggedCatalog,
    LogSource,
    SourceRead,
    Unreadable,
    read_log,
)

__all__ = [
    "replay",
    "ReplayReport",
    "ToolFigures",
    "ErrorCount",
    "Place",
    "render",
    "REPORT_FORMATS",
    "add_arguments",
    "run_command",
    "OptionError",
]

# The bounds of what a replay keeps, whatever the log's size.
MAX_CONVERSATIONS: Final = 10_000  # conversations followed at once; the least recent is forgotten
MAX_CALL_IDS: Final = 20_000  # call ids remembered, to match answers and to count a call logged again once
MAX_PENDING: Final = 8  # failed calls to one tool awaiting a repair in one conversation
MAX_TOOLS: Final = 10_000  # rows of the tools table; calls to tools past it are counted in the totals
MAX_TRACKED: Final = 64  # entries of each top-N table (errors of a tool, unknown names)
MAX_PLACES: Final = 10  # lines shown for each kind of problem
MAX_SHOWN: Final = 200  # characters of a name, pointer or message in the report
REPORT_FORMATS: Final = ("text", "markdown", "json")


@dataclass(frozen=True)
class ErrorCount:
    """How often one error (by keyword and instance pointer) was found, with the message of its
    first occurrence (masked under ``mask``)."""

    keyword: str
    pointer: str
    count: int
    message: str


@dataclass(frozen=True)
class Place:
    """A place in the log: its source, its line, and what is wrong there."""

    source: str
    line: int
    reason: str


@dataclass(frozen=True)
class ToolFigures:
    """One tool's figures: every call judged, those at the first try, its answers and repairs, and
    its most frequent errors (``errors_approximate`` when the table of errors overflowed, so that
    some counts may be over by at most the count of the least frequent entry dropped)."""

    name: str
    calls: int
    valid: int
    invalid: int
    malformed: int
    first_tries: int
    first_try_valid: int
    answered_failed: int
    repaired: int
    drift: int
    outputs_checked: int
    outputs_invalid: int
    errors: tuple[ErrorCount, ...]
    errors_approximate: bool

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable dict (see :attr:`ReplayReport.SCHEMA`)."""
        return {
            "name": self.name,
            "calls": self.calls,
            "valid": self.valid,
            "invalid": self.invalid,
            "malformed": self.malformed,
            "first_tries": self.first_tries,
            "first_try_valid": self.first_try_valid,
            "answered_failed": self.answered_failed,
            "repaired": self.repaired,
            "drift": self.drift,
            "outputs_checked": self.outputs_checked,
            "outputs_invalid": self.outputs_invalid,
            "errors": [_error_dict(error) for error in self.errors],
            "errors_approximate": self.errors_approximate,
        }


def _error_dict(error: ErrorCount) -> dict[str, Any]:
    return {
        "keyword": error.keyword,
        "pointer": error.pointer,
        "count": error.count,
        "message": error.message,
    }


def _fraction(part: int, whole: int) -> float | None:
    return part / whole if whole else None


_COUNT = {"type": "integer", "minimum": 0}
_PLACES = {
    "type": "array",
    "items": {
        "type": "object",
        "properties": {"source": {"type": "string"}, "line": _COUNT, "reason": {"type": "string"}},
        "required": ["source", "line", "reason"],
        "additionalProperties": False,
    },
    "maxItems": MAX_PLACES,
}
_RATE = {"type": ["number", "null"], "minimum": 0, "maximum": 1}
_COUNTS_BY = {"type": "object", "additionalProperties": _COUNT}
_ERRORS = {
    "type": "array",
    "items": {
        "type": "object",
        "properties": {
            "keyword": {"type": "string"},
            "pointer": {"type": "string"},
            "count": _COUNT,
            "message": {"type": "string"},
        },
        "required": ["keyword", "pointer", "count", "message"],
        "additionalProperties": False,
    },
}
_TOOL_COUNTS = (
    "calls",
    "valid",
    "invalid",
    "malformed",
    "first_tries",
    "first_try_valid",
    "answered_failed",
    "repaired",
    "drift",
    "outputs_checked",
    "outputs_invalid",
)
_TOTALS = (
    "calls",
    "valid",
    "invalid",
    "malformed",
    "unknown_tools",
    "unjudged",
    "drift",
    "first_tries",
    "first_try_valid",
    "answered",
    "answered_failed",
    "repaired",
    "repair_window",
    "outputs_checked",
    "outputs_invalid",
    "repeated",
    "sources",
    "lines",
    "values",
)


@dataclass(frozen=True)
class ReplayReport:
    """What a replay found; an immutable value. :meth:`to_dict` gives it as JSON, in the shape
    :attr:`SCHEMA` describes.

    Every call is exactly one of ``valid``, ``invalid`` (its arguments break the tool's schema),
    ``malformed`` (its arguments are not one JSON object; ``malformed_kinds`` counts them by kind),
    ``unknown_tools`` (a tool the catalog does not hold; ``unknown_names`` the most frequent) and
    ``unjudged`` (no catalog was in force, or toolreg refuses the tool's schema: ``refused_tools``).
    ``drift`` counts the calls valid against what the model was shown but not against the catalog
    given. A *first try* is a call with no failed call (invalid or malformed) to the same tool in the
    same conversation in the ``repair_window`` turns before it; ``answered_failed`` counts the failed
    calls the log answers with their errors, and ``repaired`` those of them followed by a valid call
    to the same tool within ``repair_window`` turns. ``repeated`` counts calls logged again (a request
    record repeats the conversation so far), which are counted once.
    """

    calls: int
    valid: int
    invalid: int
    malformed: int
    malformed_kinds: Mapping[str, int]
    unknown_tools: int
    unknown_names: tuple[tuple[str, int], ...]
    unjudged: int
    drift: int
    first_tries: int
    first_try_valid: int
    answered: int
    answered_failed: int
    repaired: int
    repair_window: int
    outputs_checked: int
    outputs_invalid: int
    repeated: int
    tools: tuple[ToolFigures, ...]
    forms: Mapping[str, int]
    catalog: str
    refused_tools: tuple[tuple[str, str], ...]
    sources: int
    lines: int
    values: int
    unreadable: Mapping[str, int]
    unreadable_lines: tuple[Place, ...]
    malformed_lines: tuple[Place, ...]
    masked: bool

    SCHEMA: ClassVar[dict[str, Any]] = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "toolreg replay report",
        "type": "object",
        "properties": {
            **{name: _COUNT for name in _TOTALS},
            "repair_window": {"type": "integer", "minimum": 1},
            "valid_rate": _RATE,
            "first_try_rate": _RATE,
            "repair_rate": _RATE,
            "malformed_kinds": {
                "type": "object",
                "propertyNames": {"enum": list(MALFORMED_KINDS)},
                "additionalProperties": {"type": "integer", "minimum": 1},
            },
            "unknown_names": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"name": {"type": "string"}, "count": _COUNT},
                    "required": ["name", "count"],
                    "additionalProperties": False,
                },
            },
            "tools": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string"},
                        **{name: _COUNT for name in _TOOL_COUNTS},
                        "errors": _ERRORS,
                        "errors_approximate": {"type": "boolean"},
                    },
                    "required": ["name", *_TOOL_COUNTS, "errors", "errors_approximate"],
                    "additionalProperties": False,
                },
            },
            "forms": {
                "type": "object",
                "propertyNames": {"enum": list(FORMS)},
                "additionalProperties": _COUNT,
            },
            "catalog": {"enum": ["log", "given", "both", "none"]},
            "refused_tools": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"name": {"type": "string"}, "reason": {"type": "string"}},
                    "required": ["name", "reason"],
                    "additionalProperties": False,
                },
            },
            "unreadable": {
                "type": "object",
                "propertyNames": {"enum": ["file", "json", "form", "shape"]},
                "additionalProperties": {"type": "integer", "minimum": 1},
            },
            "unreadable_lines": _PLACES,
            "malformed_lines": _PLACES,
            "masked": {"type": "boolean"},
        },
        "required": [
            *_TOTALS,
            "valid_rate",
            "first_try_rate",
            "repair_rate",
            "malformed_kinds",
            "unknown_names",
            "tools",
            "forms",
            "catalog",
            "refused_tools",
            "unreadable",
            "unreadable_lines",
            "malformed_lines",
            "masked",
        ],
        "additionalProperties": False,
    }

    @property
    def valid_rate(self) -> float | None:
        """The fraction of calls that were valid (None for a log without calls)."""
        return _fraction(self.valid, self.calls)

    @property
    def first_try_rate(self) -> float | None:
        """The fraction of first tries that were valid."""
        return _fraction(self.first_try_valid, self.first_tries)

    @property
    def repair_rate(self) -> float | None:
        """The fraction of failed calls answered with their errors that the model repaired."""
        return _fraction(self.repaired, self.answered_failed)

    def render(self, report_format: str = "text") -> str:
        """The report as ``"text"`` (a table), ``"markdown"`` or ``"json"`` (:meth:`to_dict`, ASCII only),
        as ``toolreg replay`` prints it; every name and message escaped as printable text."""
        return render(self, report_format)

    def to_dict(self) -> dict[str, Any]:
        """The report as plain JSON values, in the shape :attr:`SCHEMA` describes."""
        totals = {name: getattr(self, name) for name in _TOTALS}
        return {
            **totals,
            "valid_rate": self.valid_rate,
            "first_try_rate": self.first_try_rate,
            "repair_rate": self.repair_rate,
            "malformed_kinds": dict(self.malformed_kinds),
            "unknown_names": [{"name": name, "count": count} for name, count in self.unknown_names],
            "tools": [tool.to_dict() for tool in self.tools],
            "forms": dict(self.forms),
            "catalog": self.catalog,
            "refused_tools": [{"name": name, "reason": reason} for name, reason in self.refused_tools],
            "unreadable": dict(self.unreadable),
            "unreadable_lines": [_place_dict(place) for place in self.unreadable_lines],
            "malformed_lines": [_place_dict(place) for place in self.malformed_lines],
            "masked": self.masked,
        }


def _place_dict(place: Place) -> dict[str, Any]:
    return {"source": place.source, "line": place.line, "reason": place.reason}


# -- bounded tables ----------------------------------------------------------------------------------


class _Top:
    """Counts by key, keeping at most ``capacity`` keys: past it a new key takes the place of the
    least counted one, starting from that count plus one (the space-saving count), so a frequent key
    is never lost and no count is ever under its true value."""

    __slots__ = ("capacity", "counts", "first", "overflowed")

    def __init__(self) -> None:
        self.capacity = MAX_TRACKED
        self.counts: dict[Any, int] = {}
        self.first: dict[Any, str] = {}
        self.overflowed = False

    def add(self, key: Any, first: Callable[[], str] | None = None) -> None:
        counts = self.counts
        if key in counts:
            counts[key] += 1
            return
        start = 1
        if len(counts) >= self.capacity:
            least = min(counts, key=counts.__getitem__)
            start += counts.pop(least)
            self.first.pop(least, None)
            self.overflowed = True
        counts[key] = start
        if first is not None:
            self.first[key] = first()

    def most(self, n: int) -> list[tuple[Any, int]]:
        return sorted(self.counts.items(), key=lambda item: (-item[1], str(item[0])))[:n]


class _Figures:
    """One tool's counters, while the log is read."""

    __slots__ = (*_TOOL_COUNTS, "errors")

    def __init__(self) -> None:
        self.calls = self.valid = self.invalid = self.malformed = 0
        self.first_tries = self.first_try_valid = self.answered_failed = self.repaired = 0
        self.drift = self.outputs_checked = self.outputs_invalid = 0
        self.errors = _Top()

    def frozen(self, name: str, top: int) -> ToolFigures:
        errors = tuple(
            ErrorCount(keyword, pointer, count, self.errors.first.get((keyword, pointer), ""))
            for (keyword, pointer), count in self.errors.most(top)
        )
        counts = {counter: getattr(self, counter) for counter in _TOOL_COUNTS}
        return ToolFigures(name, **counts, errors=errors, errors_approximate=self.errors.overflowed)


@dataclass(eq=False, slots=True)
class _Call:
    """What a replay remembers of one call it counted: to match its answer, to count it once when
    it is logged again, and to see it repaired."""

    figures: _Figures | None
    failed: bool
    valid: bool
    answered: bool = False
    answered_failed: bool = False
    repaired: bool = False


@dataclass(eq=False)
class _Conversation:
    """One conversation's state: its turns so far, each tool's failed calls awaiting a repair (with
    the turn of each), and each tool's last call (for answers that name the tool, not the call)."""

    turns: int = 0
    last_turn: int = -1
    pending: dict[str, list[tuple[_Call, int]]] = field(default_factory=dict)
    last: OrderedDict[str, _Call] = field(default_factory=OrderedDict)


# -- catalogs ----------------------------------------------------------------------------------------


def _never_called(**arguments: Any) -> None:
    raise RuntimeError("a replay never calls a tool")


@dataclass(frozen=True)
class _Entry:
    """A tool of a catalog as the replay judges it: its name in the shared registry, or why toolreg
    refuses its schema."""

    internal: str | None
    refused: str | None = None
    checks_output: bool = False


class _Validators:
    """Every tool a replay has seen, registered once in one registry under a name of its own (catalogs
    name tools in ways toolreg's names do not allow); tools of equal schemas share a validator. Past
    a bound, the tools no catalog in use holds are removed, so a log whose catalog keeps changing
    stays bounded."""

    def __init__(self) -> None:
        self.registry = ToolRegistry()
        # Each name's tools as written, with their entries: catalogs may give one name several schemas.
        self.variants: dict[str, list[tuple[dict[str, Any], _Entry]]] = {}
        self.count = 0
        self.refused: list[tuple[str, str]] = []

    def entry(self, tool: dict[str, Any]) -> _Entry:
        variants = self.variants.setdefault(tool["name"], [])
        for written, entry in variants:
            if written == tool:
                return entry
        entry = self._register(tool)
        variants.append((tool, entry))
        return entry

    def prune(self, in_use: Iterable[_Entry]) -> None:
        """Remove the tools no catalog in use holds, once more than a bound are registered."""
        if len(self.registry) <= 4 * MAX_TOOLS:
            return
        kept = {id(entry) for entry in in_use}
        for name, variants in list(self.variants.items()):
            for _, entry in variants:
                if id(entry) not in kept and entry.internal is not None:
                    self.registry.unregister(entry.internal)
            variants[:] = [(written, entry) for written, entry in variants if id(entry) in kept]
            if not variants:
                del self.variants[name]

    def _register(self, tool: dict[str, Any]) -> _Entry:
        self.count += 1
        internal = f"tool_{self.count}"
        output = tool.get("outputSchema")
        try:
            try:
                self.registry.register(internal, tool.get("inputSchema"), _never_called, output_schema=output)
            except SchemaError as error:
                if output is None or not error.reason.startswith("output_schema"):
                    raise
                # A refused output schema leaves the arguments to be judged.
                self.registry.register(internal, tool.get("inputSchema"), _never_called)
                output = None
        except ToolregError as error:
            if len(self.refused) < 20:
                self.refused.append((_shown(name_of(tool)), _shown(str(error))))
            return _Entry(None, str(error))
        except Exception as error:  # a schema no one foresaw: that tool alone is refused
            return _Entry(None, f"{type(error).__name__}: {error}")
        return _Entry(internal, None, output is not None)


def name_of(tool: dict[str, Any]) -> str:
    """A tool's name as its catalog gives it."""
    return str(tool.get("name"))


# A tool of a catalog: the name the report gives it, and how it is judged.
_Tool = tuple[str, _Entry]


def _catalog_of(
    entries: Iterable[dict[str, Any]], names: Iterable[str], validators: _Validators
) -> dict[str, _Tool]:
    """A catalog by the names a call may name its tools by: the toolreg name under the form's rule,
    and the name as the catalog writes it (for a name the rule would change, as ``get-user``)."""
    catalog: dict[str, _Tool] = {}
    for tool, name in zip(entries, names, strict=True):
        found = (name, validators.entry(tool))
        catalog.setdefault(name, found)
        catalog.setdefault(tool["name"], found)
    return catalog


def _given_catalog(catalog: Any) -> list[dict[str, Any]]:
    """The tools of the catalog given (a path, or a catalog in any form), those with a name."""
    entries = (
        read_catalog_file(catalog) if isinstance(catalog, (str, os.PathLike)) else catalog_entries(catalog)
    )
    return [entry for entry in entries if isinstance(entry.get("name"), str)]


# -- the replay --------------------------------------------------------------------------------------


def _shown(text: str) -> str:
    text = printable(text)
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 1] + "…"


class _Replay:
    """The counters and bounded state of one replay, fed one event at a time."""

    def __init__(self, given: list[dict[str, Any]] | None, window: int, mask: bool) -> None:
        self.window = window
        self.mask = mask
        self.validators = _Validators()
        self.validate = self.validators.registry.validate
        self.given = (
            None if given is None else _catalog_of(given, (tool["name"] for tool in given), self.validators)
        )
        self.shown: dict[str, _Tool] | None = None
        self.totals = dict.fromkeys(_TOTALS, 0)
        self.kinds = dict.fromkeys(MALFORMED_KINDS, 0)
        self.forms = dict.fromkeys(FORMS, 0)
        self.unreadable = {"file": 0, "json": 0, "form": 0, "shape": 0}
        self.unreadable_lines: list[Place] = []
        self.malformed_lines: list[Place] = []
        self.unknown = _Top()
        self.tools: dict[str, _Figures] = {}
        self.conversations: OrderedDict[str, _Conversation] = OrderedDict()
        self.calls: OrderedDict[tuple[str, str], _Call] = OrderedDict()

    # A call ----------------------------------------------------------------------------------------

    def conversation(self, key: str) -> _Conversation:
        conversations = self.conversations
        found = conversations.get(key)
        if found is None:
            found = conversations[key] = _Conversation()
            if len(conversations) > MAX_CONVERSATIONS:
                conversations.popitem(last=False)
        else:
            conversations.move_to_end(key)
        return found

    def call(self, event: LoggedCall) -> None:
        conversation = self.conversation(event.conversation)
        if event.turn != conversation.last_turn:
            conversation.turns += 1
            conversation.last_turn = event.turn
        key = None if event.call_id is None else event.key
        if key is not None and event.form != "mcp":
            seen = self.calls.get(key)
            if seen is not None:  # logged again: its state goes on, its figures were counted
                self.totals["repeated"] += 1
                self.follow(conversation, event.name, seen, event.call_id, counted=False)
                return
        totals = self.totals
        totals["calls"] += 1
        self.forms[event.form] += 1
        record = self.judge(event)
        if record.figures is not None:
            self.follow(conversation, event.name, record, event.call_id)
        if key is not None:
            self.calls[key] = record
            if len(self.calls) > MAX_CALL_IDS:
                self.calls.popitem(last=False)

    def judge(self, event: LoggedCall) -> _Call:
        """Count the call as valid, invalid, malformed, unknown or unjudged; its record."""
        totals = self.totals
        judging = self.given if self.given is not None else self.shown
        if event.malformed is not None:
            found = None if judging is None else judging.get(event.name) or judging.get(event.tool)
            if judging is not None and found is None:
                return self.unknown_tool(event)
            totals["malformed"] += 1
            self.kinds[event.malformed] += 1
            if len(self.malformed_lines) < MAX_PLACES:
                self.malformed_lines.append(Place(event.source, event.line, event.malformed))
            figures = None if found is None else self.figures(found[0])
            if figures is not None:
                figures.calls += 1
                figures.malformed += 1
            return _Call(figures, True, False)
        if judging is None:
            totals["unjudged"] += 1
            return _Call(None, False, False)
        found = judging.get(event.name) or judging.get(event.tool)
        if found is None:
            totals["drift"] += self.drifted(event, None)
            return self.unknown_tool(event)
        name, entry = found
        if entry.internal is None:
            totals["unjudged"] += 1
            return _Call(None, False, False)
        figures = self.tools.get(name) or self.figures(name)
        errors = self.validate(entry.internal, event.arguments)
        if figures is not None:
            figures.calls += 1
        if not errors:
            totals["valid"] += 1
            if figures is not None:
                figures.valid += 1
            return _Call(figures, False, True)
        totals["invalid"] += 1
        drift = self.drifted(event, entry)
        totals["drift"] += drift
        if figures is not None:
            figures.invalid += 1
            figures.drift += drift
            self.count_errors(figures, errors)
        return _Call(figures, True, False)

    def drifted(self, event: LoggedCall, given: _Entry | None) -> bool:
        """Whether a call the catalog given refuses is valid against the catalog the log shows."""
        if self.given is None or self.shown is None:
            return False
        found = self.shown.get(event.name) or self.shown.get(event.tool)
        internal = None if found is None or found[1] is given else found[1].internal
        if internal is None:
            return False
        return not self.validators.registry.validate(internal, event.arguments)

    def unknown_tool(self, event: LoggedCall) -> _Call:
        self.totals["unknown_tools"] += 1
        self.unknown.add(_shown(event.tool))
        return _Call(None, False, False)

    def figures(self, name: str) -> _Figures | None:
        figures = self.tools.get(name)
        if figures is None and len(self.tools) < MAX_TOOLS:
            figures = self.tools[name] = _Figures()
        return figures

    def count_errors(self, figures: _Figures, errors: Iterable[ValidationError]) -> None:
        mask = self.mask
        for error in errors:
            shown = error.masked() if mask else error
            key = (shown.keyword, _shown(shown.path))
            figures.errors.add(key, lambda shown=shown: _shown(shown.message))  # type: ignore[misc]

    def follow(
        self, conversation: _Conversation, tool: str, record: _Call, call_id: str | None, counted: bool = True
    ) -> None:
        """The call in its conversation: a first try or a retry, a repair of failed calls before it."""
        turn = conversation.turns
        pending = conversation.pending.get(tool)
        figures = record.figures
        if pending is None and call_id is not None:  # the common case: nothing awaits a repair
            if counted and figures is not None:
                self.totals["first_tries"] += 1
                figures.first_tries += 1
                if record.valid:
                    self.totals["first_try_valid"] += 1
                    figures.first_try_valid += 1
            if record.failed:
                conversation.pending[tool] = [(record, turn)]
            return
        earlier = (
            [(call, at) for call, at in pending if turn - at <= self.window and call is not record]
            if pending
            else []
        )
        if counted and figures is not None and not any(at < turn for _, at in earlier):
            self.totals["first_tries"] += 1
            figures.first_tries += 1
            if record.valid:
                self.totals["first_try_valid"] += 1
                figures.first_try_valid += 1
        if record.valid:
            for call, at in earlier:
                if at < turn and call.answered_failed and not call.repaired:
                    call.repaired = True
                    self.totals["repaired"] += 1
                    if call.figures is not None:
                        call.figures.repaired += 1
            earlier = [(call, at) for call, at in earlier if at == turn]
        elif record.failed:
            earlier.append((record, turn))
            del earlier[:-MAX_PENDING]
        if earlier:
            conversation.pending[tool] = earlier
        elif pending is not None:
            del conversation.pending[tool]
        if call_id is None:  # its answer, if any, names the tool, not the call
            last = conversation.last
            last[tool] = record
            last.move_to_end(tool)
            if len(last) > MAX_TRACKED:
                last.popitem(last=False)

    # An answer, a catalog, a problem ------------------------------------------------------------------

    def answer(self, event: LoggedAnswer) -> None:
        key = event.key
        if key is not None:
            record = self.calls.get(key)
        elif event.name is not None:
            found = self.conversations.get(event.conversation)
            record = None if found is None else found.last.get(event.name)
        else:
            record = None
        if record is None or record.answered:
            return
        record.answered = True
        self.totals["answered"] += 1
        if record.failed and event.is_error is not False:
            record.answered_failed = True
            self.totals["answered_failed"] += 1
            if record.figures is not None:
                record.figures.answered_failed += 1
        if event.has_output or (event.form == "mcp" and event.is_error is False):
            self.output(event, record)

    def output(self, event: LoggedAnswer, record: _Call) -> None:
        """An MCP result held to the tool's output schema."""
        judging = self.given if self.given is not None else self.shown
        if judging is None or event.name is None or event.is_error:
            return
        found = judging.get(event.name) or judging.get(event.tool or "")
        entry = None if found is None else found[1]
        if entry is None or entry.internal is None or not entry.checks_output:
            return
        self.totals["outputs_checked"] += 1
        figures = record.figures
        if figures is not None:
            figures.outputs_checked += 1
        if event.has_output:
            wrong = bool(self.validators.registry.validate_output(entry.internal, event.output))
        else:
            wrong = True  # MCP: a tool with an output schema must give structuredContent
        if wrong:
            self.totals["outputs_invalid"] += 1
            if figures is not None:
                figures.outputs_invalid += 1

    def catalog(self, event: LoggedCatalog) -> None:
        shown = _catalog_of(event.tools, event.names, self.validators)
        if event.replaces or self.shown is None:
            self.shown = shown
        else:
            self.shown = {**self.shown, **shown}
        in_use = [entry for _, entry in self.shown.values()]
        self.validators.prune(in_use + [entry for _, entry in (self.given or {}).values()])

    def problem(self, event: Unreadable) -> None:
        self.unreadable[event.kind] += 1
        if len(self.unreadable_lines) < MAX_PLACES:
            self.unreadable_lines.append(Place(event.source, event.line, _shown(event.reason)))

    def source_read(self, event: SourceRead) -> None:
        self.totals["sources"] += 1
        self.totals["lines"] += event.lines
        self.totals["values"] += event.values

    # The report --------------------------------------------------------------------------------------

    def report(self, top: int) -> ReplayReport:
        totals = dict(self.totals)
        totals["repair_window"] = self.window
        if self.unreadable["file"]:  # a file never read is a source too
            totals["sources"] += self.unreadable["file"]
        rows = sorted(self.tools.items(), key=lambda item: (-item[1].calls, item[0]))
        catalog = {
            (True, True): "both",
            (True, False): "given",
            (False, True): "log",
            (False, False): "none",
        }[(self.given is not None, self.shown is not None)]
        return ReplayReport(
            **totals,
            malformed_kinds=MappingProxyType({kind: n for kind, n in self.kinds.items() if n}),
            unknown_names=tuple(self.unknown.most(top)),
            tools=tuple(figures.frozen(_shown(name), top) for name, figures in rows),
            forms=MappingProxyType({form: n for form, n in self.forms.items() if n}),
            catalog=catalog,
            refused_tools=tuple(self.validators.refused),
            unreadable=MappingProxyType({kind: n for kind, n in self.unreadable.items() if n}),
            unreadable_lines=tuple(self.unreadable_lines),
            malformed_lines=tuple(self.malformed_lines),
            masked=self.mask,
        )


def replay(
    log: LogSource,
    *,
    catalog: Any = None,
    form: str | None = None,
    repair_window: int = 3,
    mask: bool = False,
    top: int = 5,
    progress: Callable[[int, int], None] | None = None,
) -> ReplayReport:
    """Replay a log of model tool calls on toolreg's validator, offline, and report what it finds.

    ``log`` is a path, an open file, or an iterable of paths, lines or parsed values, in any form
    ``toolreg._lifecycle.logs.read_log`` reads (``form`` forces one). Each call is judged against the
    catalog the log shows (a request record's tools, an MCP ``tools/list`` result), or against
    ``catalog`` when given (a path to any catalog ``toolreg check`` reads, a list of tools, a
    ``tools/list`` result or a :class:`~toolreg.ToolRegistry`): then a call valid against what the
    model was shown and invalid against ``catalog`` is counted as drift. ``repair_window`` is the
    number of turns within which a valid call to the same tool repairs a failed one; ``mask`` keeps
    every value the calls held out of the report (errors as :meth:`ValidationError.masked`); ``top``
    is how many of the most frequent errors and unknown names are reported. ``progress`` is called
    every 2 seconds or so with the lines read and the calls judged so far.

    Nothing in the log raises: what cannot be read is counted with its line. A catalog that cannot
    be read raises CatalogError (a ValueError), and a ``form`` toolreg does not know ValueError.
    """
    if isinstance(repair_window, bool) or not isinstance(repair_window, int) or repair_window < 1:
        raise ValueError(f"repair_window must be a positive int, not {repair_window!r}")
    if isinstance(top, bool) or not isinstance(top, int) or top < 1:
        raise ValueError(f"top must be a positive int, not {top!r}")
    given = None if catalog is None else _given_catalog(catalog)
    state = _Replay(given, repair_window, mask)
    handlers: dict[type, Callable[[Any], None]] = {
        LoggedCall: state.call,
        LoggedAnswer: state.answer,
        LoggedCatalog: state.catalog,
        Unreadable: state.problem,
        SourceRead: state.source_read,
    }
    events = read_log(log, form=form)
    if progress is None:
        for event in events:
            handlers[type(event)](event)
        return state.report(top)
    next_report = time.monotonic() + 2.0
    for count, event in enumerate(events):
        handlers[type(event)](event)
        if count % 1024 == 0 and time.monotonic() >= next_report:
            progress(state.totals["lines"] + getattr(event, "line", 0), state.totals["calls"])
            next_report = time.monotonic() + 2.0
    return state.report(top)


# -- rendering ---------------------------------------------------------------------------------------


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def _listed(pairs: Iterable[tuple[str, int]]) -> str:
    return ", ".join(f"{name} {count:,}" for name, count in pairs)


def _summary(report: ReplayReport) -> list[tuple[str, str]]:
    """The report's totals, as (label, text) rows both renderings share."""
    calls = report.calls
    catalog = {
        "log": "the catalog the log shows",
        "both": "the catalog given (the log shows one too)",
        "given": "the catalog given",
        "none": "no catalog: neither given nor shown in the log",
    }[report.catalog]
    rows = [
        ("calls", f"{calls:,} ({_listed(report.forms.items()) or 'none'}), judged against {catalog}"),
        ("valid", f"{report.valid:,} ({_percent(report.valid, calls)})"),
        ("invalid", f"{report.invalid:,} ({_percent(report.invalid, calls)})"),
        (
            "malformed",
            f"{report.malformed:,} ({_percent(report.malformed, calls)})"
            + (f": {_listed(report.malformed_kinds.items())}" if report.malformed else ""),
        ),
        (
            "unknown tools",
            f"{report.unknown_tools:,} ({_percent(report.unknown_tools, calls)})"
            + (f": {_listed(report.unknown_names)}" if report.unknown_names else ""),
        ),
    ]
    if report.unjudged:
        rows.append(("unjudged", f"{report.unjudged:,} ({_percent(report.unjudged, calls)})"))
    if report.catalog == "both":
        rows.append(("drift", f"{report.drift:,} valid as shown to the model, not against the catalog given"))
    rows.append(
        (
            "first try",
            f"{report.first_try_valid:,} of {report.first_tries:,} valid "
            f"({_percent(report.first_try_valid, report.first_tries)})",
        )
    )
    if report.answered:
        rows.append(
            (
                "repair",
                f"{report.repaired:,} of {report.answered_failed:,} failed calls answered with their "
                f"errors were repaired within {report.repair_window} turns "
                f"({_percent(report.repaired, report.answered_failed)})",
            )
        )
    else:
        rows.append(("repair", "the log holds no answers"))
    if report.outputs_checked:
        rows.append(
            ("outputs", f"{report.outputs_invalid:,} of {report.outputs_checked:,} break their schema")
        )
    if report.repeated:
        rows.append(("repeated", f"{report.repeated:,} calls logged again, counted once"))
    read = f"{report.lines:,} lines in {report.sources:,} source{'s' if report.sources != 1 else ''}"
    if report.unreadable:
        read += "; unreadable: " + _listed(report.unreadable.items())
    rows.append(("read", read))
    if report.refused_tools:
        refused = "; ".join(f"{name}: {reason}" for name, reason in report.refused_tools[:3])
        rows.append(
            ("refused tools", f"{len(report.refused_tools)} (toolreg refuses their schemas): {refused}")
        )
    return rows


_COLUMNS = (
    "tool",
    "calls",
    "valid",
    "invalid",
    "malformed",
    "first tries",
    "first-try valid",
    "repaired",
    "drift",
)


def _tool_row(tool: ToolFigures) -> tuple[str, ...]:
    first = f"{tool.first_try_valid:,} ({_percent(tool.first_try_valid, tool.first_tries)})"
    repaired = f"{tool.repaired:,}/{tool.answered_failed:,}" if tool.answered_failed else "-"
    counts = (tool.calls, tool.valid, tool.invalid, tool.malformed, tool.first_tries)
    return (tool.name, *(f"{count:,}" for count in counts), first, repaired, f"{tool.drift:,}")


def _error_rows(report: ReplayReport) -> list[tuple[str, ...]]:
    return [
        (tool.name, error.keyword, error.pointer or "(root)", f"{error.count:,}", error.message)
        for tool in report.tools
        for error in tool.errors
    ]


def _places(report: ReplayReport) -> list[str]:
    lines = [f"line {place.line} of {place.source}: {place.reason}" for place in report.unreadable_lines]
    lines += [
        f"line {place.line} of {place.source}: malformed ({place.reason})" for place in report.malformed_lines
    ]
    return lines


def _table(header: tuple[str, ...], rows: list[tuple[str, ...]], numeric: int) -> list[str]:
    widths = [max(len(row[column]) for row in [header, *rows]) for column in range(len(header))]
    text = []
    for row in [header, *rows]:
        cells = [
            cell.rjust(width) if 0 < column < numeric + 1 else cell.ljust(width)
            for column, (cell, width) in enumerate(zip(row, widths, strict=True))
        ]
        text.append("  ".join(cells).rstrip())
    return text


def _text(report: ReplayReport) -> str:
    rows = _summary(report)
    width = max(len(label) for label, _ in rows)
    lines = ["toolreg replay", *(f"  {label.ljust(width)}  {text}" for label, text in rows)]
    if report.tools:
        lines += ["", *_table(_COLUMNS, [_tool_row(tool) for tool in report.tools], len(_COLUMNS) - 1)]
    errors = _error_rows(report)
    if errors:
        header = ("tool", "keyword", "pointer", "count", "first message")
        lines += ["", "most frequent errors", *_table(header, errors, 0)]
    places = _places(report)
    if places:
        lines += ["", "where", *(f"  {place}" for place in places)]
    return "\n".join(lines)


def _cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("`", "\\`")


def _markdown_table(header: tuple[str, ...], rows: list[tuple[str, ...]], numeric: int) -> list[str]:
    align = ["---:" if 0 < column < numeric + 1 else "---" for column in range(len(header))]
    return [
        "| " + " | ".join(header) + " |",
        "|" + "|".join(align) + "|",
        *("| " + " | ".join(_cell(cell) for cell in row) + " |" for row in rows),
    ]


def _markdown(report: ReplayReport) -> str:
    lines = [
        "## toolreg replay",
        "",
        *_markdown_table(("", ""), [(label, text) for label, text in _summary(report)], 0),
    ]
    if report.tools:
        rows = [_tool_row(tool) for tool in report.tools]
        lines += ["", "### Tools", "", *_markdown_table(_COLUMNS, rows, len(_COLUMNS) - 1)]
    errors = _error_rows(report)
    if errors:
        header = ("tool", "keyword", "pointer", "count", "first message")
        lines += ["", "### Most frequent errors", "", *_markdown_table(header, errors, 0)]
    places = _places(report)
    if places:
        lines += ["", "### Where", "", *(f"- {_cell(place)}" for place in places)]
    return "\n".join(lines)


def render(report: ReplayReport, report_format: str = "text") -> str:
    """The report as text (a table), Markdown, or JSON (``to_dict``, ASCII only)."""
    if report_format == "json":
        return json.dumps(report.to_dict(), indent=2, ensure_ascii=True)
    if report_format == "markdown":
        return _markdown(report)
    if report_format == "text":
        return _text(report)
    raise ValueError(f"no report format {report_format!r}; the formats are {', '.join(REPORT_FORMATS)}")


# -- the command line --------------------------------------------------------------------------------


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``toolreg replay``'s arguments."""
    parser.add_argument("log", nargs="+", help="log files: JSON Lines, or one JSON array of values")
    parser.add_argument(
        "--catalog",
        help="judge the calls against this catalog (any form toolreg check reads); drift is counted",
    )
    parser.add_argument(
        "--format",
        action="append",
        default=[],
        metavar="FORMAT",
        help=f"the report's format ({', '.join(REPORT_FORMATS)}; text by default) or the log's form "
        f"({', '.join(FORMS)}; found by each value's shape by default); give it twice for both",
    )
    parser.add_argument("--json", action="store_true", help="the report as JSON (as --format json)")
    parser.add_argument(
        "--repair-window",
        type=int,
        default=3,
        metavar="N",
        help="turns within which a valid call repairs a failed one",
    )
    parser.add_argument(
        "--mask", action="store_true", help="keep every value the calls held out of the report"
    )
    parser.add_argument(
        "--min-valid",
        type=float,
        metavar="F",
        help="exit 1 when the fraction of valid calls is below F (0 to 1)",
    )
    parser.add_argument(
        "--top", type=int, default=5, metavar="N", help="errors and unknown names shown per table"
    )
    parser.add_argument(
        "--progress", action="store_true", help="a progress line on stderr even when not a terminal"
    )


def _progress_line(lines: int, calls: int) -> None:
    print(f"toolreg replay: {lines:,} lines, {calls:,} calls", file=sys.stderr, flush=True)


class OptionError(ToolregError, ValueError):
    """A ``toolreg replay`` option that cannot be taken; the message says which and why."""


def run_command(options: argparse.Namespace) -> tuple[str, int]:
    """``toolreg replay``: the report and the exit code (0; 1 below ``--min-valid``; 2 when a log file
    cannot be read). A bad option raises OptionError, a catalog that cannot be read CatalogError."""
    report_formats = [name for name in options.format if name in REPORT_FORMATS] + ["json"] * options.json
    forms = [name for name in options.format if name in FORMS]
    unknown = [name for name in options.format if name not in REPORT_FORMATS and name not in FORMS]
    if unknown:
        raise OptionError(
            f"--format {printable(unknown[0])!r} is neither a report format ({', '.join(REPORT_FORMATS)}) "
            f"nor a log form ({', '.join(FORMS)})"
        )
    if len(set(report_formats)) > 1 or len(forms) > 1:
        raise OptionError("--format takes one report format and one log form at most")
    if options.min_valid is not None and not 0 <= options.min_valid <= 1:
        raise OptionError(f"--min-valid is a fraction from 0 to 1, not {options.min_valid}")
    for option, value in (("--repair-window", options.repair_window), ("--top", options.top)):
        if value < 1:
            raise OptionError(f"{option} must be at least 1, not {value}")
    catalog = None if options.catalog is None else read_catalog_file(options.catalog)
    show_progress = options.progress or sys.stderr.isatty()
    report = replay(
        [Path(path) for path in options.log],
        catalog=catalog,
        form=forms[0] if forms else None,
        repair_window=options.repair_window,
        mask=options.mask,
        top=options.top,
        progress=_progress_line if show_progress else None,
    )
    text = render(report, report_formats[0] if report_formats else "text")
    if report.unreadable.get("file"):
        return text, 2
    if options.min_valid is not None and (report.valid_rate or 0.0) < options.min_valid:
        return text, 1
    return text, 0
