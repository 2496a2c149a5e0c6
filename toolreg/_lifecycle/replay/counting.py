"""The counting of a replay (:func:`replay`): the log's events fed one at a time to a state that judges
each call against the catalog in force, follows each conversation's turns to tell first tries from
retries and to see failed calls repaired, matches answers to their calls, counts drift and checks
outputs; all of it in bounded space, so memory stays flat in the log's size.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final

from ..._jsonschema.errors import ValidationError
from ..logs import (
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
from .report import MAX_PLACES, TOTALS, Place, ReplayReport, shown_text
from .tables import ToolCounters, TopCounts
from .validators import CatalogTool, JudgedTool, Validators, catalog_by_name, given_catalog

# The bounds of what a replay keeps, whatever the log's size.
MAX_CONVERSATIONS: Final = 10_000  # conversations followed at once; the least recent is forgotten
MAX_CALL_IDS: Final = 20_000  # call ids remembered, to match answers and to count a call logged again once
MAX_PENDING: Final = 8  # failed calls to one tool awaiting a repair in one conversation
MAX_TOOLS: Final = 10_000  # rows of the tools table; calls to tools past it are counted in the totals
MAX_TRACKED: Final = 64  # entries of each top-N table (errors of a tool, unknown names)


@dataclass(eq=False, slots=True)
class _Call:
    """What a replay remembers of one call it counted: to match its answer, to count it once when
    it is logged again, and to see it repaired."""

    figures: ToolCounters | None
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


class _Replay:
    """The counters and bounded state of one replay, fed one event at a time."""

    def __init__(self, given: list[dict[str, Any]] | None, window: int, mask: bool) -> None:
        self.window = window
        self.mask = mask
        self.validators = Validators()
        self.validate = self.validators.registry.validate
        self.given = (
            None
            if given is None
            else catalog_by_name(given, (tool["name"] for tool in given), self.validators)
        )
        self.shown: dict[str, CatalogTool] | None = None
        self.totals = dict.fromkeys(TOTALS, 0)
        self.kinds = dict.fromkeys(MALFORMED_KINDS, 0)
        self.forms = dict.fromkeys(FORMS, 0)
        self.unreadable = {"file": 0, "json": 0, "form": 0, "shape": 0}
        self.unreadable_lines: list[Place] = []
        self.malformed_lines: list[Place] = []
        self.unknown = TopCounts(MAX_TRACKED)
        self.tools: dict[str, ToolCounters] = {}
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

    def drifted(self, event: LoggedCall, given: JudgedTool | None) -> bool:
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
        self.unknown.add(shown_text(event.tool))
        return _Call(None, False, False)

    def figures(self, name: str) -> ToolCounters | None:
        figures = self.tools.get(name)
        if figures is None and len(self.tools) < MAX_TOOLS:
            figures = self.tools[name] = ToolCounters(MAX_TRACKED)
        return figures

    def count_errors(self, figures: ToolCounters, errors: Iterable[ValidationError]) -> None:
        mask = self.mask
        for error in errors:
            shown = error.masked() if mask else error
            key = (shown.keyword, shown_text(shown.path))
            figures.errors.add(key, lambda shown=shown: shown_text(shown.message))  # type: ignore[misc]

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
        shown = catalog_by_name(event.tools, event.names, self.validators)
        if event.replaces or self.shown is None:
            self.shown = shown
        else:
            self.shown = {**self.shown, **shown}
        in_use = [entry for _, entry in self.shown.values()]
        self.validators.prune(in_use + [entry for _, entry in (self.given or {}).values()], 4 * MAX_TOOLS)

    def problem(self, event: Unreadable) -> None:
        self.unreadable[event.kind] += 1
        if len(self.unreadable_lines) < MAX_PLACES:
            self.unreadable_lines.append(Place(event.source, event.line, shown_text(event.reason)))

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
            tools=tuple(figures.frozen(shown_text(name), top) for name, figures in rows),
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
    given = None if catalog is None else given_catalog(catalog)
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
