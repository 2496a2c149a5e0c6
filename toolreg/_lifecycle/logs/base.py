"""What every form's reader shares: where a value stands in its source (and what the source remembers
from line to line), the events a reader makes of what it finds, and calls read by each provider's own
reading (``toolreg._providers``), their malformed arguments given a kind.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from ..._feedback import printable
from ..._jsonschema.errors import ToolregError
from ..._jsonschema.values import json_type
from ..._providers import PROVIDERS
from ..._providers.base import ToolCall, read_arguments
from .events import Event, LoggedCall, Unreadable, new_call
from .json_text import parsed


@dataclass
class SourceState:
    """What reading one source remembers from line to line (all of it bounded)."""

    name: str
    turn: int = 0
    session: int = 0
    # The turn of the MCP tools/call requests sent since the last result: a client sends a model's
    # parallel calls before any of their results.
    calling: int = 0
    pending: OrderedDict[Any, tuple[str, str | None, bool]] = field(default_factory=OrderedDict)
    values: int = 0
    # The events of the value being read: readers append to it, the source's loop hands them on.
    out: list[Event] = field(default_factory=list)

    def next_turn(self) -> int:
        """A new model turn of this source: its number."""
        self.turn += 1
        return self.turn


@dataclass(slots=True)
class At:
    """Where a value stands: its source, line and the conversation it belongs to."""

    source: SourceState
    line: int
    conversation: str
    forced: str | None


def unknown_form(value: Any, at: At) -> Unreadable:
    """The event for a value no reader takes: what it is (its first keys), and the form it was not."""
    if isinstance(value, dict):
        keys = ", ".join(printable(str(key))[:40] for key in list(value)[:6])
        what = f"an object with keys {keys}" if keys else "an empty object"
    else:
        what = {"array": "an array", "null": "null", "integer": "an integer"}.get(
            json_type(value) or "", f"a {json_type(value) or type(value).__name__}"
        )
    wanted = f"no {at.forced} value" if at.forced else "no log form toolreg reads"
    return Unreadable(at.source.name, at.line, "form", f"{wanted}: {what}")


def shape_problem(at: At, reason: str) -> Unreadable:
    """The event for a part of a value that is not what its form says."""
    return Unreadable(at.source.name, at.line, "shape", reason)


_READ_ERRORS = (ToolregError, KeyError, TypeError, AttributeError)


def call_event(
    provider: str,
    raw_call: dict[str, Any],
    raw_arguments: Any,
    turn: int,
    at: At,
    call_id: str | None = None,
) -> Event:
    """A provider's call read by that provider's own reading, with its arguments' malformed kind."""
    try:
        found: ToolCall = PROVIDERS[provider].read(raw_call)
    except _READ_ERRORS as error:
        reason = printable(str(error))[:200]
        return shape_problem(at, f"a {provider} tool call that cannot be read: {reason}")
    identifier = found.id if call_id is None else call_id
    return logged_call(found, provider, raw_arguments, turn, at, identifier)


def logged_call(
    found: ToolCall, form: str, raw_arguments: Any, turn: int, at: At, call_id: str | None
) -> LoggedCall:
    """The call as a log event; malformed arguments get their kind."""
    arguments, kind, problem = found.arguments, None, found.problem
    if problem is not None:
        arguments, kind = None, malformed_kind(problem)
        if kind != "encoded_twice" and isinstance(raw_arguments, str) and form in _OBJECT_FORMS:
            # A string where the form sends an object is read as arguments written as text, so that
            # the same mistake has the same kind in every form.
            as_text = read_arguments(raw_arguments)[1]
            kind = "encoded_twice" if as_text is None else malformed_kind(as_text)
    elif isinstance(raw_arguments, str) and _holds_constant(raw_arguments):
        # Python reads NaN and Infinity; JSON has no such numbers.
        arguments, kind = None, "not_json"
        problem = "The arguments are not valid JSON: NaN and Infinity are no JSON numbers."
    return new_call(
        found.sent_name,
        arguments,
        at.line,
        form,
        found.name,
        at.source.name,
        at.conversation,
        turn,
        call_id,
        kind,
        problem,
    )


def _holds_constant(text: str) -> bool:
    return ("NaN" in text or "Infinity" in text) and parsed(text)[1] is not None


# The forms that send arguments as an object (OpenTelemetry's kvlistValue too), not as JSON text.
_OBJECT_FORMS = frozenset({"anthropic", "gemini", "mcp", "otel"})

# The openings of the problems the providers' reading words (toolreg/_providers/base.py), by kind.
_PROBLEMS = (
    ("The arguments were empty text", "empty"),
    ("The arguments are not valid JSON", "not_json"),
    ("The arguments give the key", "repeated_key"),
    ("The arguments are nested too deeply", "too_deep"),
    ("The arguments hold an integer with too many digits", "long_integer"),
    ("The arguments hold text after the JSON value", "trailing_text"),
    ("The arguments must be a JSON object, not a string holding JSON text", "encoded_twice"),
    ("The arguments must be a JSON object", "not_object"),
)


def malformed_kind(problem: str) -> str:
    """The kind (one of :data:`MALFORMED_KINDS`) of a problem the providers' reading found in
    arguments; ``not_json`` for one it words in a way this table does not know."""
    for opening, kind in _PROBLEMS:
        if problem.startswith(opening):
            return kind
    return "not_json"
