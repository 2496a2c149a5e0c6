"""The stream of a log's events (:func:`read_log`): its sources (paths, files, lines or values) read line by
line, or a JSON array document value by value, within bounds; and each value handed to the reader of
its form, found by its shape from the table of readers, or forced.
"""

from __future__ import annotations

import codecs
import os
from collections.abc import Callable, Iterator
from typing import IO, Any, Final

from ..._feedback import printable
from .base import At, SourceState, unknown_form
from .events import FORMS, Event, LogSource, SourceRead, Unreadable
from .gemini import GEMINI_KEYS, is_gemini, read_gemini
from .json_text import DECODER, WHITESPACE, error_reason, line_value
from .mcp import is_jsonrpc, read_jsonrpc
from .messages import (
    is_anthropic_block,
    is_chat_completion,
    is_lone_chat_call,
    is_message,
    is_messages_record,
    read_anthropic_block,
    read_chat_completion,
    read_lone_chat_call,
    read_message,
    read_messages_record,
)
from .otel import is_otlp, read_otlp
from .responses import (
    is_response_object,
    is_responses_item,
    is_responses_request,
    read_response_object,
    read_responses_item,
    read_responses_request,
)

# A line (or one value of an array document) longer than this is reported, not read.
MAX_LINE_BYTES: Final = 64 * 1024 * 1024
_CHUNK = 1 << 16
# Marks the end of an array document's values: its line is the document's last.
_END: Final = object()


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
        yield from _read_file(paths_or_lines, SourceState(name), form)  # type: ignore[arg-type]
        return
    lines = SourceState("<lines>")
    number = 0
    for item in paths_or_lines:
        if isinstance(item, os.PathLike):
            yield from _read_path(os.fspath(item), form)
            continue
        number += 1
        at = At(lines, number, lines.name, form)
        if isinstance(item, bytes):
            try:
                item = item.decode("utf-8")
            except UnicodeDecodeError as error:
                yield Unreadable(lines.name, number, "json", f"not UTF-8 text (byte {error.start})")
                continue
        if isinstance(item, str):
            value, reason = line_value(item)
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
        yield from _read_file(file, SourceState(shown), form)


def _read_file(file: IO[bytes] | IO[str], source: SourceState, form: str | None) -> Iterator[Event]:
    number, out = 0, source.out
    at = At(source, 0, source.name, form)  # one for every line: no reader keeps it past its line
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
            value, reason = line_value(text, isinstance(raw, bytes))
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
            stripped = text.lstrip(WHITESPACE)
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
                        _read_value(found, At(source, line, source.name, form))
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
            while position < len(buffer) and buffer[position] in WHITESPACE:
                position += 1
            if position < len(buffer):
                return buffer[position]
            if not more():
                return ""

    def values() -> Iterator[tuple[int, Any, str | None]]:
        """The values, each with its line, until the closing ``]`` or a reason to stop."""
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
                value, end = DECODER.raw_decode(buffer, position)
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
                yield here, None, error_reason(value)
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


def _read_value(value: Any, at: At) -> None:
    if isinstance(value, list):  # a batch of values on one line (JSON-RPC batches)
        for item in value:
            if isinstance(item, dict):
                _read_one(item, at)
            else:
                at.source.out.append(unknown_form(item, at))
        return
    if not isinstance(value, dict):
        at.source.out.append(unknown_form(value, at))
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


def _read_one(value: dict[str, Any], at: At) -> None:
    keys = tuple(value)
    candidates = _CANDIDATES.get(keys)
    for index in _candidates(keys) if candidates is None else candidates:
        forms, _, recognises, read = _READERS[index]
        if (at.forced is None or at.forced in forms) and recognises(value):
            read(value, at)
            return
    at.source.out.append(unknown_form(value, at))


def _is_exchange(value: dict[str, Any]) -> bool:
    return isinstance(value.get("request"), dict) or isinstance(value.get("response"), dict)


def _read_exchange(value: dict[str, Any], at: At) -> None:
    """``{"request": ..., "response": ...}``, as harnesses log an exchange: one conversation."""
    conversation = f"{at.source.name}:{at.line}"
    for part in ("request", "response"):
        inner = value.get(part)
        if isinstance(inner, dict):
            _read_one(inner, At(at.source, at.line, conversation, at.forced))


# Each form's readers, in the order shapes are tried (the most particular first), each with the keys
# a value it reads holds at least one of.
_Reader = tuple[
    tuple[str, ...], tuple[str, ...], Callable[[dict[str, Any]], bool], Callable[[dict[str, Any], At], None]
]
_READERS: tuple[_Reader, ...] = (
    (("otel",), ("resourceSpans",), is_otlp, read_otlp),
    (("mcp",), ("jsonrpc",), is_jsonrpc, read_jsonrpc),
    (("openai",), ("choices",), is_chat_completion, read_chat_completion),
    (("openai-responses",), ("type",), is_responses_item, read_responses_item),
    (("openai-responses",), ("output",), is_response_object, read_response_object),
    (("gemini",), GEMINI_KEYS, is_gemini, read_gemini),
    (("openai", "anthropic"), ("messages",), is_messages_record, read_messages_record),
    (("openai-responses",), ("input",), is_responses_request, read_responses_request),
    (("openai", "anthropic"), ("role",), is_message, read_message),
    (("anthropic",), ("type",), is_anthropic_block, read_anthropic_block),
    (("openai",), ("function",), is_lone_chat_call, read_lone_chat_call),
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
