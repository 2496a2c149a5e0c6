"""Logs of model tool calls as providers and harnesses write them, read as a stream of events.

A log is JSON Lines (one JSON value a line, or a line holding an array of values, as a JSON-RPC
batch) or one JSON array of values; each value's form is found by its shape (:data:`FORMS`), unless
``form`` names one. Calls are read by each provider's own reading (``toolreg._providers``): its name
rule maps ``fs-read_file`` back to ``fs.read_file`` and its arguments are read once, in its own form.
Memory stays flat in the log's size: a line is read, turned into events and dropped, and what a form
must remember between lines (MCP's pending requests) is bounded.
"""

from __future__ import annotations

import codecs
import json
import json.scanner
import os
import re
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import IO, Any, Final, Literal, TypeAlias

from .._feedback import printable
from .._jsonschema.errors import ToolregError
from .._jsonschema.values import json_type
from .._providers import PROVIDERS
from .._providers.base import ToolCall, object_arguments, read_arguments
from .catalogs import catalog_entries

__all__ = [
    "FORMS",
    "MALFORMED_KINDS",
    "MAX_LINE_BYTES",
    "Event",
    "LoggedCall",
    "LoggedAnswer",
    "LoggedCatalog",
    "Unreadable",
    "SourceRead",
    "LogSource",
    "read_log",
    "malformed_kind",
]

# The log forms, by the names ``form=`` and ``--format`` take: the providers' names, then OpenTelemetry.
FORMS: Final = ("openai", "openai-responses", "anthropic", "gemini", "mcp", "otel")
# Why a call's arguments could not be read as one JSON object, by kind.
MALFORMED_KINDS: Final = (
    "not_json",  # text that is no JSON: truncated, NaN, a bare word
    "empty",  # empty text
    "trailing_text",  # a JSON value, then more text
    "not_object",  # JSON, but an array, a number, a plain string, null
    "encoded_twice",  # JSON text holding the object, where the object belongs
    "repeated_key",  # one key twice in one object
    "too_deep",  # nested past what can be read
    "long_integer",  # an integer longer than Python reads
)
# A line (or one value of an array document) longer than this is reported, not read.
MAX_LINE_BYTES: Final = 64 * 1024 * 1024
# MCP requests awaiting their result, per log: the oldest are forgotten past this.
MAX_PENDING_REQUESTS: Final = 10_000
_CHUNK = 1 << 16
# Marks the end of an array document's values: its line is the document's last.
_END: Final = object()


@dataclass(frozen=True)
class LoggedCall:
    """One tool call found in a log.

    ``tool`` is the name as sent and ``name`` the toolreg name the provider's rule maps it back to
    (``fs-read_file`` is ``fs.read_file``); ``arguments`` the object read, or None when they are
    malformed, with ``malformed`` their kind (one of :data:`MALFORMED_KINDS`) and ``problem`` the
    reason worded for a model. ``line`` is the line of ``source`` it stands on (1 for the first);
    ``conversation`` keys the conversation it belongs to, and calls made in one model turn (one
    assistant message, one response) share ``turn``, a number that grows through each source.
    """

    tool: str
    arguments: dict[str, Any] | None
    line: int
    form: str
    name: str
    source: str = "<lines>"
    conversation: str = "<lines>"
    turn: int = 0
    call_id: str | None = None
    malformed: str | None = None
    problem: str | None = None

    @property
    def key(self) -> tuple[str, str] | None:
        """What an answer to this call names it by: its id, within its conversation for MCP (whose
        JSON-RPC ids count from 1 in each session), within the whole log for the others."""
        return _key(self.form, self.conversation, self.call_id)


@dataclass(frozen=True)
class LoggedAnswer:
    """The answer a log holds to a call: ``is_error`` True or False where the form says (Anthropic's
    ``is_error``, MCP's ``isError``, a Gemini response holding ``error``, an OpenTelemetry span's
    error status), None where it has no such flag (OpenAI's tool messages). It names its call by
    ``call_id``, or, without one, by the tool's name (``tool`` as sent, ``name`` mapped back).
    ``output`` is an MCP result's ``structuredContent`` when ``has_output``."""

    call_id: str | None
    is_error: bool | None
    line: int
    form: str
    source: str = "<lines>"
    conversation: str = "<lines>"
    tool: str | None = None
    name: str | None = None
    output: Any = None
    has_output: bool = False

    @property
    def key(self) -> tuple[str, str] | None:
        """The key of the call answered (see :attr:`LoggedCall.key`)."""
        return _key(self.form, self.conversation, self.call_id)


@dataclass(frozen=True)
class LoggedCatalog:
    """The tools a log shows the model: a request record's ``tools`` or an MCP ``tools/list``
    result, as MCP-shaped entries (``toolreg._lifecycle.catalogs.catalog_entries``) with ``names``,
    each entry's toolreg name under its form's rule. It is the catalog in force from here on;
    ``replaces`` is False for a later page of a paged ``tools/list``, which adds to it."""

    tools: tuple[dict[str, Any], ...]
    names: tuple[str, ...]
    line: int
    form: str
    source: str = "<lines>"
    conversation: str = "<lines>"
    replaces: bool = True


@dataclass(frozen=True)
class Unreadable:
    """What could not be read: a file (``line`` 0), a line that is no JSON (``kind`` "json"), a
    value of no known form ("form"), or a part of one that is not what its form says ("shape")."""

    source: str
    line: int
    kind: Literal["file", "json", "form", "shape"]
    reason: str


@dataclass(frozen=True)
class SourceRead:
    """The end of one source: how many lines it had and how many JSON values they held."""

    source: str
    lines: int
    values: int


Event: TypeAlias = LoggedCall | LoggedAnswer | LoggedCatalog | Unreadable | SourceRead
LogSource: TypeAlias = "str | os.PathLike[str] | IO[str] | IO[bytes] | Iterable[Any]"


def _key(form: str, conversation: str, call_id: str | None) -> tuple[str, str] | None:
    if call_id is None:
        return None
    return (conversation if form == "mcp" else "", call_id)


# -- reading values from a source --------------------------------------------------------------------


class _NotJSON(ValueError):
    """NaN, Infinity and -Infinity: Python reads them, JSON has none."""


def _reject_constant(name: str) -> Any:
    raise _NotJSON(f"{name} is not JSON")


_DECODER = json.JSONDecoder(parse_constant=_reject_constant)
_WHITESPACE = " \t\n\r"


# The C scanner json.loads runs, called without the two Python functions around it (a tenth of a
# short line's reading).
_SCAN: Callable[[str, int], tuple[Any, int]] = json.scanner.make_scanner(_DECODER)  # type: ignore[arg-type]


def _parsed(text: str) -> tuple[Any, str | None]:
    """One line's JSON value, or None and why it is none."""
    try:
        start = len(text) - len(text.lstrip(_WHITESPACE)) if text[:1] in _WHITESPACE else 0
        value, end = _SCAN(text, start)
    except StopIteration as stop:  # no value where one must start
        return None, f"not JSON: Expecting value at column {stop.value + 1}"
    except json.JSONDecodeError as error:
        return None, f"not JSON: {error.msg} at column {error.colno}"
    except _NotJSON as error:
        return None, f"not JSON: {error}"
    except RecursionError:
        return None, "not JSON Python can read: nested too deeply"
    except ValueError:  # an integer past Python's digit limit
        return None, "not JSON Python can read: an integer with too many digits"
    if end != len(text) and text[end:].strip(_WHITESPACE):
        extra = len(text) - len(text[end:].lstrip(_WHITESPACE))
        return None, f"not JSON: Extra data at column {extra + 1}"
    return value, None


_SURROGATE = re.compile("[\ud800-\udfff]")


def _line_value(text: str, decoded: bool = False) -> tuple[Any, str | None]:
    """One line's JSON value, or None and why it is none; a lone surrogate (``\\ud800`` escaped, which
    Python reads) makes no Unicode text, and would break every report that shows it. Text ``decoded``
    from UTF-8 holds none unescaped."""
    value, reason = _parsed(text)
    escaped = "\\u" in text and ("\\ud" in text or "\\uD" in text)
    if reason is None and (escaped or (not decoded and _SURROGATE.search(text))):
        try:
            json.dumps(value, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError as error:
            return None, f"not Unicode text: a lone surrogate U+{ord(error.object[error.start]):04X}"
    return value, reason


@dataclass
class _Source:
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
        self.turn += 1
        return self.turn


@dataclass(slots=True)
class _At:
    """Where a value stands: its source, line and the conversation it belongs to."""

    source: _Source
    line: int
    conversation: str
    forced: str | None


def read_log(paths_or_lines: LogSource, *, form: str | None = None) -> Iterator[Event]:
    """The events of a log, in the order its lines give them: each :class:`LoggedCall`, each
    :class:`LoggedAnswer` and :class:`LoggedCatalog`, each :class:`Unreadable` line, and a
    :class:`SourceRead` at the end of each source.

    ``paths_or_lines`` is a path (``str`` or ``os.PathLike``), an open file, or an iterable whose
    items are paths (``os.PathLike`` only), lines (``str`` or ``bytes``: one JSON value each) or values
    already parsed (``dict`` or ``list``). ``form`` (one of :data:`FORMS`) reads every value in that
    form alone; without it, each value's form is found by its shape. Nothing read raises: a file
    that cannot be read, a line that is no JSON and a value of no known form are each an
    :class:`Unreadable` event. A ValueError is raised at once for a ``form`` toolreg does not know.
    """
    if form is not None and form not in FORMS:
        raise ValueError(f"no log form {form!r}; the forms are {', '.join(FORMS)}")
    return _events(paths_or_lines, form)


def _events(paths_or_lines: LogSource, form: str | None) -> Iterator[Event]:
    if isinstance(paths_or_lines, (str, os.PathLike)):
        yield from _read_path(os.fspath(paths_or_lines), form)
        return
    if hasattr(paths_or_lines, "readline"):
        name = printable(str(getattr(paths_or_lines, "name", "<file>")))
        yield from _read_file(paths_or_lines, _Source(name), form)  # type: ignore[arg-type]
        return
    lines = _Source("<lines>")
    number = 0
    for item in paths_or_lines:
        if isinstance(item, os.PathLike):
            yield from _read_path(os.fspath(item), form)
            continue
        number += 1
        at = _At(lines, number, lines.name, form)
        if isinstance(item, bytes):
            try:
                item = item.decode("utf-8")
            except UnicodeDecodeError as error:
                yield Unreadable(lines.name, number, "json", f"not UTF-8 text (byte {error.start})")
                continue
        if isinstance(item, str):
            value, reason = _line_value(item)
            if reason is not None:
                if item.strip():
                    yield Unreadable(lines.name, number, "json", reason)
                continue
        else:
            value = item
        lines.values += 1
        _read_value(value, at)
        yield from lines.out
        lines.out.clear()
    if number:
        yield SourceRead(lines.name, number, lines.values)


def _read_path(path: str, form: str | None) -> Iterator[Event]:
    shown = printable(path)
    try:
        file = open(path, "rb")  # noqa: SIM115 - closed below, after the generator is done with it
    except OSError as error:
        yield Unreadable(shown, 0, "file", f"cannot read {shown}: {error.strerror or error}")
        return
    with file:
        yield from _read_file(file, _Source(shown), form)


def _read_file(file: IO[bytes] | IO[str], source: _Source, form: str | None) -> Iterator[Event]:
    number, out = 0, source.out
    at = _At(source, 0, source.name, form)  # one for every line: no reader keeps it past its line
    try:
        while True:
            raw = file.readline(MAX_LINE_BYTES + 1)
            if not raw:
                break
            number += 1
            if len(raw) > MAX_LINE_BYTES and raw[-1:] not in (b"\n", "\n"):
                _skip_rest_of_line(file)
                yield Unreadable(source.name, number, "json", f"longer than {MAX_LINE_BYTES:,} bytes")
                continue
            try:
                text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
            except UnicodeDecodeError as error:
                yield Unreadable(source.name, number, "json", f"not UTF-8 text (byte {error.start})")
                continue
            value, reason = _line_value(text, isinstance(raw, bytes))
            if reason is None:
                source.values += 1
                at.line = number
                if type(value) is dict:
                    _read_one(value, at)
                else:
                    _read_value(value, at)
                yield from out
                out.clear()
                continue
            stripped = text.lstrip(_WHITESPACE)
            if not stripped:
                continue
            if stripped.startswith("[") and source.values == 0:
                # One JSON array over many lines: its values are read one at a time.
                for line, found, why in _array_document(file, stripped, number):
                    number = line
                    if found is _END:
                        break
                    if why is not None:
                        yield Unreadable(source.name, line, "json", why)
                    else:
                        source.values += 1
                        _read_value(found, _At(source, line, source.name, form))
                        yield from out
                        out.clear()
                break
            yield Unreadable(source.name, number, "json", reason)
    except OSError as error:
        yield Unreadable(source.name, 0, "file", f"cannot read {source.name}: {error.strerror or error}")
    yield SourceRead(source.name, number, source.values)


def _skip_rest_of_line(file: IO[bytes] | IO[str]) -> None:
    while True:
        rest = file.readline(_CHUNK)
        if not rest or rest[-1:] in (b"\n", "\n"):
            return


def _array_document(
    file: IO[bytes] | IO[str], start: str, first_line: int
) -> Iterator[tuple[int, Any, str | None]]:
    """The values of a JSON array spread over lines, one at a time, each with the line it starts
    on, or a reason where the document stops being readable (nothing after that is read)."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    buffer, position, line, ended = start, start.index("[") + 1, first_line, False
    last = start[-1:]  # the last character read, to count a last line that has no line break

    def more() -> bool:
        """Read on, dropping what is read already; False at the end of the file."""
        nonlocal buffer, position, line, ended, last
        if ended:
            return False
        line += buffer.count("\n", 0, position)
        buffer, position = buffer[position:], 0
        chunk = file.read(max(_CHUNK, len(buffer)))
        ended = not chunk
        text = decoder.decode(chunk, final=ended) if isinstance(chunk, bytes) else chunk
        buffer, last = buffer + text, text[-1:] or last
        return True

    def next_character() -> str:
        """The next character that is not white space ("" at the end), not consumed."""
        nonlocal position
        while True:
            while position < len(buffer) and buffer[position] in _WHITESPACE:
                position += 1
            if position < len(buffer):
                return buffer[position]
            if not more():
                return ""

    def values() -> Iterator[tuple[int, Any, str | None]]:
        nonlocal position
        # What may come next: a value or "]" after "[", a value after ",", "," or "]" after a value.
        state = "first"
        while True:
            character = next_character()
            here = line + buffer.count("\n", 0, position)
            if not character:
                yield here, None, "not JSON: the array has no closing ]"
                return
            if character == "]" and state != "value":
                position += 1
                if next_character():
                    yield line + buffer.count("\n", 0, position), None, "not JSON: text after the closing ]"
                return
            if state == "comma":
                if character != ",":
                    yield here, None, "not JSON: expected , or ] after a value of the array"
                    return
                position, state = position + 1, "value"
                continue
            try:
                value, end = _DECODER.raw_decode(buffer, position)
                # A number at the end of what is read may go on in what is not.
                complete = end < len(buffer) or ended
            except (ValueError, RecursionError) as error:
                value, end, complete = error, position, ended
            if not complete:
                if len(buffer) - position > MAX_LINE_BYTES:
                    yield here, None, f"a value longer than {MAX_LINE_BYTES:,} characters"
                    return
                more()
                continue
            if isinstance(value, (ValueError, RecursionError)):
                yield here, None, _reason(value)
                return
            position, state = end, "comma"
            yield here, value, None

    try:
        yield from values()
    except UnicodeDecodeError as error:
        yield line, None, f"not UTF-8 text (byte {error.start} of a read)"
        return
    # The lines of the whole file, those after where the reading stopped too.
    newlines = line + buffer.count("\n")
    while not ended:
        chunk = file.read(_CHUNK)
        ended = not chunk
        text = chunk.decode("utf-8", "replace") if isinstance(chunk, bytes) else chunk
        newlines, last = newlines + text.count("\n"), text[-1:] or last
    yield newlines - (last == "\n"), _END, None


def _reason(error: BaseException) -> str:
    if isinstance(error, json.JSONDecodeError):
        return f"not JSON: {error.msg}"
    if isinstance(error, _NotJSON):
        return f"not JSON: {error}"
    if isinstance(error, RecursionError):
        return "not JSON Python can read: nested too deeply"
    return "not JSON Python can read: an integer with too many digits"


# -- one value, by its shape --------------------------------------------------------------------------


def _read_value(value: Any, at: _At) -> None:
    if isinstance(value, list):  # a batch of values on one line (JSON-RPC batches)
        for item in value:
            if isinstance(item, dict):
                _read_one(item, at)
            else:
                at.source.out.append(_unknown_form(item, at))
        return
    if not isinstance(value, dict):
        at.source.out.append(_unknown_form(value, at))
        return
    _read_one(value, at)


# The readers to ask of a value, by its keys in order: a log's lines mostly repeat a few layouts.
_CANDIDATES: dict[tuple[str, ...], tuple[int, ...]] = {}


def _candidates(keys: tuple[str, ...]) -> tuple[int, ...]:
    """The readers one of whose keys a value holds, in the table's order."""
    found = tuple(sorted({index for key in keys for index in _TRIGGERED.get(key, ())}))
    if len(keys) <= 32 and sum(map(len, keys)) <= 1024:  # a layout, not a hostile value's keys
        if len(_CANDIDATES) >= 1024:  # a log of ever new layouts keeps this bounded
            _CANDIDATES.clear()
        _CANDIDATES[keys] = found
    return found


def _read_one(value: dict[str, Any], at: _At) -> None:
    keys = tuple(value)
    candidates = _CANDIDATES.get(keys)
    for index in _candidates(keys) if candidates is None else candidates:
        forms, _, recognises, read = _READERS[index]
        if (at.forced is None or at.forced in forms) and recognises(value):
            read(value, at)
            return
    at.source.out.append(_unknown_form(value, at))


def _unknown_form(value: Any, at: _At) -> Unreadable:
    if isinstance(value, dict):
        keys = ", ".join(printable(str(key))[:40] for key in list(value)[:6])
        what = f"an object with keys {keys}" if keys else "an empty object"
    else:
        what = {"array": "an array", "null": "null", "integer": "an integer"}.get(
            json_type(value) or "", f"a {json_type(value) or type(value).__name__}"
        )
    wanted = f"no {at.forced} value" if at.forced else "no log form toolreg reads"
    return Unreadable(at.source.name, at.line, "form", f"{wanted}: {what}")


def _shape_problem(at: _At, reason: str) -> Unreadable:
    return Unreadable(at.source.name, at.line, "shape", reason)


# -- calls, read by the providers' own reading ---------------------------------------------------------

_READ_ERRORS = (ToolregError, KeyError, TypeError, AttributeError)


def _call(
    provider: str,
    raw_call: dict[str, Any],
    raw_arguments: Any,
    turn: int,
    at: _At,
    call_id: str | None = None,
) -> Event:
    """A provider's call read by that provider's own reading, with its arguments' malformed kind."""
    try:
        found: ToolCall = PROVIDERS[provider].read(raw_call)
    except _READ_ERRORS as error:
        reason = printable(str(error))[:200]
        return _shape_problem(at, f"a {provider} tool call that cannot be read: {reason}")
    identifier = found.id if call_id is None else call_id
    return _logged(found, provider, raw_arguments, turn, at, identifier)


def _logged(
    found: ToolCall, form: str, raw_arguments: Any, turn: int, at: _At, call_id: str | None
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
    return _new_call(
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


_set = object.__setattr__


def _new_call(
    tool: str,
    arguments: dict[str, Any] | None,
    line: int,
    form: str,
    name: str,
    source: str,
    conversation: str,
    turn: int,
    call_id: str | None,
    malformed: str | None,
    problem: str | None,
) -> LoggedCall:
    """A LoggedCall made without its frozen ``__init__``, which sets each field through
    ``object.__setattr__`` and took a sixth of the time a line's reading takes."""
    call = object.__new__(LoggedCall)
    fields = {
        "tool": tool,
        "arguments": arguments,
        "line": line,
        "form": form,
        "name": name,
        "source": source,
        "conversation": conversation,
        "turn": turn,
        "call_id": call_id,
        "malformed": malformed,
        "problem": problem,
    }
    _set(call, "__dict__", fields)
    return call


def _new_answer(
    call_id: str | None,
    is_error: bool | None,
    line: int,
    form: str,
    source: str,
    conversation: str,
    tool: str | None = None,
    name: str | None = None,
    output: Any = None,
    has_output: bool = False,
) -> LoggedAnswer:
    """A LoggedAnswer made as :func:`_new_call` makes a call."""
    answer = object.__new__(LoggedAnswer)
    fields = {
        "call_id": call_id,
        "is_error": is_error,
        "line": line,
        "form": form,
        "source": source,
        "conversation": conversation,
        "tool": tool,
        "name": name,
        "output": output,
        "has_output": has_output,
    }
    _set(answer, "__dict__", fields)
    return answer


def _holds_constant(text: str) -> bool:
    return ("NaN" in text or "Infinity" in text) and _parsed(text)[1] is not None


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


# -- OpenAI Chat Completions ---------------------------------------------------------------------------


def _chat_message(message: dict[str, Any], at: _At) -> None:
    role = message.get("role")
    if role == "tool":
        call_id = message.get("tool_call_id")
        if isinstance(call_id, str):
            at.source.out.append(
                _new_answer(call_id, None, at.line, "openai", at.source.name, at.conversation)
            )
        else:
            at.source.out.append(_shape_problem(at, "an OpenAI tool message without a tool_call_id string"))
        return
    calls = message.get("tool_calls")
    if not calls:
        return
    if not isinstance(calls, list):
        at.source.out.append(_shape_problem(at, "an OpenAI assistant message whose tool_calls is not a list"))
        return
    turn = at.source.next_turn()
    for call in calls:
        if isinstance(call, dict) and isinstance(call.get("function"), dict):
            at.source.out.append(_call("openai", call, call["function"].get("arguments", ""), turn, at))
        else:
            at.source.out.append(
                _shape_problem(at, "an item of tool_calls that is no {function: {name, arguments}}")
            )


def _is_chat_completion(value: dict[str, Any]) -> bool:
    return isinstance(value.get("choices"), list)


def _read_chat_completion(value: dict[str, Any], at: _At) -> None:
    for choice in value["choices"]:
        message = choice.get("message") if isinstance(choice, dict) else None
        if isinstance(message, dict):
            _chat_message(message, at)


def _is_lone_chat_call(value: dict[str, Any]) -> bool:
    return value.get("type") == "function" and isinstance(value.get("function"), dict) and "id" in value


def _read_lone_chat_call(value: dict[str, Any], at: _At) -> None:
    at.source.out.append(
        _call("openai", value, value["function"].get("arguments", ""), at.source.next_turn(), at)
    )


# -- Anthropic Messages and the message records both share ----------------------------------------------


def _is_message(value: dict[str, Any]) -> bool:
    return "role" in value and ("content" in value or "tool_calls" in value or "tool_call_id" in value)


def _message_form(message: dict[str, Any]) -> str:
    if "tool_calls" in message or message.get("role") == "tool":
        return "openai"
    return "anthropic"


def _read_message(value: dict[str, Any], at: _At) -> None:
    form = _message_form(value)
    if at.forced is not None and at.forced != form:
        at.source.out.append(_unknown_form(value, at))
        return
    if form == "openai":
        _chat_message(value, at)
    else:
        _anthropic_message(value, at)


def _anthropic_message(message: dict[str, Any], at: _At) -> None:
    content = message.get("content")
    if not isinstance(content, list):
        return
    turn = at.source.next_turn() if message.get("role") == "assistant" else 0
    for block in content:
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if kind == "tool_use":
            at.source.out.append(
                _call("anthropic", block, block.get("input", {}), turn or at.source.next_turn(), at)
            )
        elif kind == "tool_result":
            at.source.out.append(_tool_result(block, at))


def _tool_result(block: dict[str, Any], at: _At) -> Event:
    call_id = block.get("tool_use_id")
    if not isinstance(call_id, str):
        return _shape_problem(at, "an Anthropic tool_result block without a tool_use_id string")
    return _new_answer(
        call_id, block.get("is_error") is True, at.line, "anthropic", at.source.name, at.conversation
    )


def _is_anthropic_block(value: dict[str, Any]) -> bool:
    return value.get("type") in ("tool_use", "tool_result")


def _read_anthropic_block(value: dict[str, Any], at: _At) -> None:
    if value["type"] == "tool_result":
        at.source.out.append(_tool_result(value, at))
    else:
        at.source.out.append(_call("anthropic", value, value.get("input", {}), at.source.next_turn(), at))


def _is_messages_record(value: dict[str, Any]) -> bool:
    return isinstance(value.get("messages"), list)


def _read_messages_record(value: dict[str, Any], at: _At) -> None:
    """A request record (OpenAI Chat or Anthropic): its tools, then its messages, one conversation."""
    at = _At(at.source, at.line, f"{at.source.name}:{at.line}", at.forced)
    _tools_of(value, at)
    for message in value["messages"]:
        if isinstance(message, dict) and "role" in message:
            form = _message_form(message)
            if at.forced is None or at.forced == form:
                (_chat_message if form == "openai" else _anthropic_message)(message, at)


def _tools_of(record: dict[str, Any], at: _At) -> None:
    """The catalog a request record shows, in the form its tools are written in."""
    tools = record.get("tools")
    if tools is None:
        return
    if not isinstance(tools, list):
        at.source.out.append(_shape_problem(at, "a request record whose tools is not a list"))
        return
    form = _tools_form(tools)
    if form == "gemini":
        tools = [_gemini_tool(tool) for tool in tools]
    elif form == "openai-responses":  # the function tools only, beside web_search and the others
        tools = [tool for tool in tools if isinstance(tool, dict) and tool.get("type") == "function"]
    elif form == "anthropic":  # the custom tools only, beside Anthropic's own (bash, web_search...)
        tools = [tool for tool in tools if isinstance(tool, dict) and "input_schema" in tool]
    try:
        entries = catalog_entries(tools)
    except ToolregError as error:
        at.source.out.append(_shape_problem(at, f"a request record's tools: {printable(str(error))}"))
        return
    at.source.out.append(_catalog(entries, form, at, replaces=True))


def _tools_form(tools: list[Any]) -> str:
    for tool in tools:
        if isinstance(tool, dict):
            if isinstance(tool.get("function"), dict):
                return "openai"
            if "functionDeclarations" in tool or "function_declarations" in tool:
                return "gemini"
            if tool.get("type") == "function":
                return "openai-responses"
            if "input_schema" in tool:
                return "anthropic"
    return "mcp"


def _catalog(entries: list[dict[str, Any]], form: str, at: _At, *, replaces: bool) -> LoggedCatalog:
    rule = PROVIDERS["mcp" if form == "otel" else form].names
    kept = [entry for entry in entries if isinstance(entry.get("name"), str)]
    names = tuple(rule.toolreg_name(entry["name"]) for entry in kept)
    return LoggedCatalog(tuple(kept), names, at.line, form, at.source.name, at.conversation, replaces)


# -- OpenAI Responses ----------------------------------------------------------------------------------


def _is_responses_item(value: dict[str, Any]) -> bool:
    return value.get("type") in ("function_call", "function_call_output")


def _read_responses_item(value: dict[str, Any], at: _At) -> None:
    if value["type"] == "function_call":
        at.source.out.append(
            _call("openai-responses", value, value.get("arguments", ""), at.source.next_turn(), at)
        )
    else:
        at.source.out.append(_function_call_output(value, at))


def _function_call_output(item: dict[str, Any], at: _At) -> Event:
    call_id = item.get("call_id")
    if not isinstance(call_id, str):
        return _shape_problem(at, "a function_call_output item without a call_id string")
    return _new_answer(call_id, None, at.line, "openai-responses", at.source.name, at.conversation)


def _responses_items(items: list[Any], at: _At) -> None:
    """Items of a response's output or a request's input: consecutive function calls are one turn."""
    turn = 0
    for item in items:
        if not isinstance(item, dict):
            continue
        kind = item.get("type")
        if kind == "function_call":
            turn = turn or at.source.next_turn()
            at.source.out.append(_call("openai-responses", item, item.get("arguments", ""), turn, at))
            continue
        turn = 0
        if kind == "function_call_output":
            at.source.out.append(_function_call_output(item, at))


def _is_response_object(value: dict[str, Any]) -> bool:
    return isinstance(value.get("output"), list) and (
        value.get("object") == "response" or "choices" not in value
    )


def _read_response_object(value: dict[str, Any], at: _At) -> None:
    _responses_items(value["output"], at)


def _is_responses_request(value: dict[str, Any]) -> bool:
    return "input" in value and ("tools" in value or isinstance(value["input"], list))


def _read_responses_request(value: dict[str, Any], at: _At) -> None:
    at = _At(at.source, at.line, f"{at.source.name}:{at.line}", at.forced)
    _tools_of(value, at)
    if isinstance(value["input"], list):
        _responses_items(value["input"], at)


# -- Gemini ----------------------------------------------------------------------------------------------

_FUNCTION_CALL = ("functionCall", "function_call")
_FUNCTION_RESPONSE = ("functionResponse", "function_response")


def _is_gemini(value: dict[str, Any]) -> bool:
    return (
        isinstance(value.get("contents"), list)
        or isinstance(value.get("candidates"), list)
        or isinstance(value.get("parts"), list)
        or any(value.get(key) is not None for key in _FUNCTION_CALL + _FUNCTION_RESPONSE)
    )


def _read_gemini(value: dict[str, Any], at: _At) -> None:
    if isinstance(value.get("contents"), list):  # a request record
        at = _At(at.source, at.line, f"{at.source.name}:{at.line}", at.forced)
        _tools_of(value, at)
        for content in value["contents"]:
            if isinstance(content, dict):
                _gemini_content(content, at)
    elif isinstance(value.get("candidates"), list):  # a response
        for candidate in value["candidates"]:
            content = candidate.get("content") if isinstance(candidate, dict) else None
            if isinstance(content, dict):
                _gemini_content(content, at)
    elif isinstance(value.get("parts"), list):
        _gemini_content(value, at)
    else:
        _gemini_part(value, at, 0)


def _gemini_content(content: dict[str, Any], at: _At) -> None:
    parts = content.get("parts")
    if not isinstance(parts, list):
        return
    turn = at.source.next_turn() if content.get("role") == "model" else 0
    for part in parts:
        if isinstance(part, dict):
            _gemini_part(part, at, turn)


def _gemini_part(part: dict[str, Any], at: _At, turn: int) -> None:
    function = next((part[key] for key in _FUNCTION_CALL if part.get(key) is not None), None)
    if function is not None:
        if not isinstance(function, dict):
            at.source.out.append(_shape_problem(at, "a Gemini functionCall that is not an object"))
            return
        at.source.out.append(_call("gemini", part, function.get("args"), turn or at.source.next_turn(), at))
        return
    response = next((part[key] for key in _FUNCTION_RESPONSE if part.get(key) is not None), None)
    if response is None:
        return
    if not isinstance(response, dict) or not isinstance(response.get("name"), str):
        at.source.out.append(_shape_problem(at, "a Gemini functionResponse without a name string"))
        return
    call_id = response.get("id") if isinstance(response.get("id"), str) else None
    answer = response.get("response")
    error = isinstance(answer, dict) and "error" in answer
    sent = response["name"]
    name = PROVIDERS["gemini"].names.toolreg_name(sent)
    at.source.out.append(
        _new_answer(call_id, error, at.line, "gemini", at.source.name, at.conversation, sent, name)
    )


def _gemini_tool(tool: Any) -> Any:
    """A Gemini tool whose declarations' ``parameters`` (Gemini's OpenAPI subset) are written as
    JSON Schema: type names in lower case, ``nullable`` as a type of its own."""
    if not isinstance(tool, dict):
        return tool
    declarations = next(
        (tool[key] for key in ("functionDeclarations", "function_declarations") if key in tool), None
    )
    if not isinstance(declarations, list):
        return tool
    converted = []
    for declaration in declarations:
        if isinstance(declaration, dict) and "parameters" in declaration:
            declaration = {**declaration, "parameters": _openapi_schema(declaration["parameters"], 0)}
        converted.append(declaration)
    return {"functionDeclarations": converted}


# Gemini's OpenAPI keywords that JSON Schema has no word for, and that say nothing of a call's validity.
_OPENAPI_ONLY = frozenset({"nullable", "propertyOrdering", "example"})


def _openapi_schema(schema: Any, depth: int) -> Any:
    if not isinstance(schema, dict) or depth > 128:
        return schema
    converted: dict[str, Any] = {}
    for key, value in schema.items():
        if key in _OPENAPI_ONLY:
            continue
        if key == "type" and isinstance(value, str):
            value = value.lower()
        elif key == "properties" and isinstance(value, dict):
            value = {name: _openapi_schema(item, depth + 1) for name, item in value.items()}
        elif key == "items":
            value = _openapi_schema(value, depth + 1)
        elif key in ("anyOf", "oneOf", "allOf") and isinstance(value, list):
            value = [_openapi_schema(item, depth + 1) for item in value]
        converted[key] = value
    if schema.get("nullable") is True and isinstance(converted.get("type"), str):
        converted["type"] = [converted["type"], "null"]
    return converted


# -- MCP JSON-RPC transcripts --------------------------------------------------------------------------


def _is_jsonrpc(value: dict[str, Any]) -> bool:
    return value.get("jsonrpc") == "2.0"


def _read_jsonrpc(value: dict[str, Any], at: _At) -> None:
    source = at.source
    method = value.get("method")
    if method == "initialize":
        source.session += 1
        source.pending.clear()
    conversation = f"{source.name}#{source.session}" if source.session > 1 else source.name
    at = _At(source, at.line, conversation, at.forced)
    identifier = value.get("id")
    # The id as JSON text: 1 and "1" are different ids.
    plain_id = isinstance(identifier, (str, int)) and not isinstance(identifier, bool)
    pending_key = json.dumps(identifier) if plain_id else None
    if isinstance(method, str):
        if pending_key is None:
            return  # a notification: nothing answers it
        params = value.get("params")
        if method == "tools/call":
            if not isinstance(params, dict):
                at.source.out.append(_shape_problem(at, "a tools/call request without params"))
                return
            source.calling = source.calling or source.next_turn()
            found = _call("mcp", params, params.get("arguments"), source.calling, at, pending_key)
            if isinstance(found, LoggedCall):
                _remember(source, pending_key, (method, found.tool, False))
            at.source.out.append(found)
        elif method == "tools/list":
            cursor = isinstance(params, dict) and params.get("cursor") is not None
            _remember(source, pending_key, (method, None, bool(cursor)))
        return
    if pending_key is None or pending_key not in source.pending:
        return  # the answer to a request the log does not hold, or to another method
    asked, sent, paged = source.pending.pop(pending_key)
    source.calling = 0
    result = value.get("result")
    if asked == "tools/list":
        if "error" in value:
            return
        try:
            entries = catalog_entries(result)
        except ToolregError as error:
            at.source.out.append(_shape_problem(at, f"a tools/list result: {printable(str(error))}"))
            return
        at.source.out.append(_catalog(entries, "mcp", at, replaces=not paged))
        return
    name = PROVIDERS["mcp"].names.toolreg_name(sent) if sent is not None else None
    if not isinstance(result, dict):  # a JSON-RPC error: the call was refused
        at.source.out.append(
            _new_answer(pending_key, True, at.line, "mcp", source.name, at.conversation, sent, name)
        )
        return
    has_output = "structuredContent" in result
    at.source.out.append(
        _new_answer(
            pending_key,
            result.get("isError") is True,
            at.line,
            "mcp",
            source.name,
            at.conversation,
            sent,
            name,
            result.get("structuredContent"),
            has_output,
        )
    )


def _remember(source: _Source, key: str, request: tuple[str, str | None, bool]) -> None:
    source.pending[key] = request
    if len(source.pending) > MAX_PENDING_REQUESTS:
        source.pending.popitem(last=False)


# -- OpenTelemetry GenAI spans (OTLP JSON) --------------------------------------------------------------


def _is_otlp(value: dict[str, Any]) -> bool:
    return isinstance(value.get("resourceSpans"), list)


def _read_otlp(value: dict[str, Any], at: _At) -> None:
    spans: list[dict[str, Any]] = []
    for resource in value["resourceSpans"]:
        scopes = resource.get("scopeSpans") if isinstance(resource, dict) else None
        for scope in scopes if isinstance(scopes, list) else ():
            found = scope.get("spans") if isinstance(scope, dict) else None
            if isinstance(found, list):
                spans.extend(span for span in found if isinstance(span, dict))
    spans.sort(key=_started)
    turns: dict[Any, int] = {}
    for span in spans:
        attributes = _attributes(span.get("attributes"))
        operation = attributes.get("gen_ai.operation.name")
        if operation != "execute_tool" and not str(span.get("name", "")).startswith("execute_tool"):
            continue
        _tool_span(span, attributes, turns, at)


def _started(span: dict[str, Any]) -> int:
    started = span.get("startTimeUnixNano")
    try:
        return int(started) if isinstance(started, (str, int)) else 0
    except ValueError:
        return 0


def _tool_span(span: dict[str, Any], attributes: dict[str, Any], turns: dict[Any, int], at: _At) -> None:
    sent = attributes.get("gen_ai.tool.name")
    if not isinstance(sent, str):
        at.source.out.append(_shape_problem(at, "an execute_tool span without gen_ai.tool.name"))
        return
    conversation = attributes.get("gen_ai.conversation.id")
    trace = span.get("traceId")
    if isinstance(conversation, str):
        key = f"conversation:{conversation}"
    elif isinstance(trace, str):
        key = f"trace:{trace}"
    else:
        key = at.source.name
    at = _At(at.source, at.line, key, at.forced)
    # The spans of one parent (one chat turn) are the calls of one turn.
    parent = (key, span.get("parentSpanId"))
    if parent not in turns:
        turns[parent] = at.source.next_turn()
    call_id = attributes.get("gen_ai.tool.call.id")
    call_id = call_id if isinstance(call_id, str) else None
    raw = attributes.get("gen_ai.tool.call.arguments", {})
    # JSON text (a stringValue) is read as OpenAI's arguments are; an object (a kvlistValue) as MCP's.
    arguments, problem = read_arguments(raw) if isinstance(raw, str) else object_arguments(raw)
    at.source.out.append(
        _logged(
            ToolCall("otel", call_id, sent, sent, arguments, problem), "otel", raw, turns[parent], at, call_id
        )
    )
    if "gen_ai.tool.call.result" in attributes:
        status = span.get("status")
        code = status.get("code") if isinstance(status, dict) else None
        error = code in (2, "STATUS_CODE_ERROR") or "error.type" in attributes
        at.source.out.append(
            _new_answer(call_id, error, at.line, "otel", at.source.name, at.conversation, sent, sent)
        )


def _attributes(listed: Any, depth: int = 0) -> dict[str, Any]:
    """OTLP's ``[{key, value: AnyValue}]`` as a plain dict of JSON values."""
    found: dict[str, Any] = {}
    if isinstance(listed, list):
        for item in listed:
            if isinstance(item, dict) and isinstance(item.get("key"), str):
                found[item["key"]] = _any_value(item.get("value"), depth)
    return found


def _any_value(value: Any, depth: int) -> Any:
    """An OTLP ``AnyValue`` as JSON: ``intValue`` (a string in OTLP JSON) as an integer, arrays and
    key-value lists as arrays and objects, an empty value as null."""
    if not isinstance(value, dict) or depth > 256:
        return None
    for key, item in value.items():
        if key == "stringValue" or key == "boolValue" or key == "bytesValue":
            return item
        if key == "intValue":
            try:
                return int(item) if isinstance(item, (str, int)) and not isinstance(item, bool) else item
            except ValueError:
                return item
        if key == "doubleValue":
            return item
        if key == "arrayValue":
            values = item.get("values", []) if isinstance(item, dict) else []
            return [_any_value(entry, depth + 1) for entry in values] if isinstance(values, list) else []
        if key == "kvlistValue":
            values = item.get("values", []) if isinstance(item, dict) else []
            return _attributes(values, depth + 1)
    return None


# -- a log's value that wraps a request and its response -------------------------------------------------


def _is_exchange(value: dict[str, Any]) -> bool:
    return isinstance(value.get("request"), dict) or isinstance(value.get("response"), dict)


def _read_exchange(value: dict[str, Any], at: _At) -> None:
    """``{"request": ..., "response": ...}``, as harnesses log an exchange: one conversation."""
    conversation = f"{at.source.name}:{at.line}"
    for part in ("request", "response"):
        inner = value.get(part)
        if isinstance(inner, dict):
            _read_one(inner, _At(at.source, at.line, conversation, at.forced))


# Each form's readers, in the order shapes are tried (the most particular first), each with the keys
# a value it reads holds at least one of.
_Reader = tuple[
    tuple[str, ...], tuple[str, ...], Callable[[dict[str, Any]], bool], Callable[[dict[str, Any], _At], None]
]
_GEMINI_KEYS = ("contents", "candidates", "parts", *_FUNCTION_CALL, *_FUNCTION_RESPONSE)
_READERS: tuple[_Reader, ...] = (
    (("otel",), ("resourceSpans",), _is_otlp, _read_otlp),
    (("mcp",), ("jsonrpc",), _is_jsonrpc, _read_jsonrpc),
    (("openai",), ("choices",), _is_chat_completion, _read_chat_completion),
    (("openai-responses",), ("type",), _is_responses_item, _read_responses_item),
    (("openai-responses",), ("output",), _is_response_object, _read_response_object),
    (("gemini",), _GEMINI_KEYS, _is_gemini, _read_gemini),
    (("openai", "anthropic"), ("messages",), _is_messages_record, _read_messages_record),
    (("openai-responses",), ("input",), _is_responses_request, _read_responses_request),
    (("openai", "anthropic"), ("role",), _is_message, _read_message),
    (("anthropic",), ("type",), _is_anthropic_block, _read_anthropic_block),
    (("openai",), ("function",), _is_lone_chat_call, _read_lone_chat_call),
    (FORMS, ("request", "response"), _is_exchange, _read_exchange),
)


def _triggered() -> dict[str, tuple[int, ...]]:
    """Each key, and the readers (by their place in the table) a value holding it may be for."""
    found: dict[str, tuple[int, ...]] = {}
    for index, reader in enumerate(_READERS):
        for key in reader[1]:
            found[key] = (*found.get(key, ()), index)
    return found


_TRIGGERED = _triggered()
