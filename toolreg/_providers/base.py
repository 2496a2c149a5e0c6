"""What each provider module gives the table: its rule for names, its export, its call read in and its
answer written out; and the reading of arguments all providers share."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .._errors import ExportError, InvalidCallError
from .._feedback import printable
from .._jsonschema.errors import ValidationError
from .._jsonschema.values import json_type
from .._registry import ToolRecord
from .._results import CallResult

__all__ = [
    "NameRule",
    "ToolCall",
    "Provider",
    "read_arguments",
    "object_arguments",
    "checked_id",
    "schema_of",
    "with_note",
]


@dataclass(frozen=True)
class NameRule:
    """A provider's rule for tool names, where its documentation states it, and whether it takes
    dots; where it does not, toolreg's dots are sent as ``-``, which no toolreg name holds, so the
    mapping is one to one and reads back exactly."""

    pattern: re.Pattern[str]
    rule: str
    keeps_dots: bool

    def form(self, name: str) -> str:
        """``name`` as the provider writes names (``fs.read_file`` as ``fs-read_file``), unchecked."""
        return name if self.keeps_dots else name.replace(".", "-")

    def sent(self, name: str, provider: str) -> str:
        """``name`` as the provider must see it, or an ExportError saying which rule it breaks."""
        mapped = self.form(name)
        if not self.pattern.fullmatch(mapped):
            raise ExportError(
                f"tool {name!r} becomes {mapped!r} for {provider}, which breaks its rule: {self.rule}"
            )
        return mapped

    def toolreg_name(self, sent: str) -> str:
        """The toolreg name behind a name the provider sent back."""
        return sent if self.keeps_dots else sent.replace("-", ".")


@dataclass(frozen=True)
class ToolCall:
    """One call as a provider sent it: whose shape, its id (if the shape has one), the name as sent,
    the toolreg name behind it, and the arguments, or the problem that kept them from being read;
    ``text``, the arguments' JSON text where the provider sends text (OpenAI's forms)."""

    provider: str
    id: str | None
    sent_name: str
    name: str
    arguments: Any
    problem: str | None = None
    text: str | None = None

    def problem_result(self) -> CallResult:
        """The result for a call whose arguments could not be read: the arguments step, no handler run."""
        assert self.problem is not None
        error = ValidationError("", "", "json", self.problem)
        return CallResult(self.name, False, None, "arguments", (error,), self.problem)


@dataclass(frozen=True)
class Provider:
    """One provider's knowledge, as its module gives it to the table of providers.

    ``shape`` says how its calls look (for messages); ``recognises`` tells its calls by their shape;
    ``read`` reads one it recognises; ``answer`` writes the message answering it, for success and
    failure alike (given the tool's record, when there is one); ``export`` writes a tool in its form
    (``strict`` and ``omit_unsupported`` only where ``strict_form`` is true).
    """

    name: str
    names: NameRule
    shape: str
    recognises: Callable[[dict[str, Any]], bool]
    read: Callable[[dict[str, Any]], ToolCall]
    answer: Callable[[ToolCall, CallResult, ToolRecord | None], dict[str, Any]]
    export: Callable[[ToolRecord, bool, bool], dict[str, Any]]
    strict_form: bool = False


def schema_of(record: ToolRecord) -> dict[str, Any]:
    """A tool's argument schema for an export (a fresh copy); ``true``, which accepts any object, as
    ``{"type": "object"}``, since the providers want an object schema."""
    schema = record.schema
    return schema if isinstance(schema, dict) else {"type": "object"}


def with_note(text: str, result: CallResult) -> str:
    """``text`` for the model, then, after a blank line, the repairs made to the call's arguments
    (``result.note``), if any were made."""
    note = result.note
    return f"{text}\n\n{note}" if note else text


def checked_id(identifier: Any) -> str | None:
    """A call's id, which must be a string when it is given."""
    if identifier is not None and not isinstance(identifier, str):
        raise InvalidCallError(
            f"the call's id must be a string, not {json_type(identifier) or type(identifier).__name__}"
        )
    return identifier


class _RepeatedKey(Exception):
    """Raised while decoding when an object gives one key twice."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise _RepeatedKey(key)
        found[key] = value
    return found


_DECODER = json.JSONDecoder(object_pairs_hook=_unique_keys)


# A comma that only JSON's whitespace separates from the bracket that closes its object or array.
_TRAILING_COMMA = re.compile(r",[ \t\n\r]*[}\]]")


def _decoding_problem(text: str, error: json.JSONDecodeError) -> str:
    """What stopped the decoder, for the model: a trailing comma in words of toolreg's own (the
    decoder's differ between Python releases: 3.11 and 3.12 expect another member at the bracket,
    3.13 names the comma), else the decoder's words and the character it stopped at."""
    comma = text.rfind(",", 0, error.pos + 1)
    trailing = _TRAILING_COMMA.match(text, comma) if comma >= 0 else None
    if trailing is not None and error.pos in (comma, trailing.end() - 1):  # at the comma, or its bracket
        return f"a trailing comma at character {comma} (JSON allows none)"
    return f"{error.msg} at character {error.pos}"


def read_arguments(text: str) -> tuple[Any, str | None]:
    """Arguments sent as JSON text (OpenAI's form): the object, or None and what is wrong, for the model.

    The text is read once, as JSON: empty text, text after the value, a key given twice in one object,
    nesting Python cannot follow and an integer longer than Python reads are each a problem; so is a
    value that is no object (:func:`object_arguments`).
    """
    if not text.strip():
        return None, "The arguments were empty text; send a JSON object, {} when there are none."
    start = len(text) - len(text.lstrip())
    try:
        value, end = _DECODER.raw_decode(text, start)
    except _RepeatedKey as repeated:
        return None, (
            f"The arguments give the key {printable(repeated.key)[:200]!r} twice in one object; "
            "send each key once."
        )
    except json.JSONDecodeError as error:
        return None, f"The arguments are not valid JSON: {_decoding_problem(text, error)}."
    except RecursionError:
        return None, "The arguments are nested too deeply to read."
    except ValueError:  # an integer with more digits than Python reads (sys.get_int_max_str_digits)
        return None, "The arguments hold an integer with too many digits to read; send a shorter number."
    rest = text[end:].strip()
    if rest:
        shown, where = printable(rest[:40]), len(text) - len(text[end:].lstrip())
        return None, (
            f"The arguments hold text after the JSON value, from character {where}: {shown!r}. "
            "Send exactly one JSON object."
        )
    return object_arguments(value)


def object_arguments(value: Any, *, absent_is_empty: bool = False) -> tuple[Any, str | None]:
    """Arguments where the provider sends an object: the object, or None and what is wrong. A string
    is never decoded again: arguments are read in the provider's own form once, for every provider.
    With ``absent_is_empty``, None (an SDK's "not given") is the empty object."""
    if isinstance(value, dict):
        return value, None
    if value is None and absent_is_empty:
        return {}, None
    if isinstance(value, str) and _holds_json(value):
        return None, (
            "The arguments must be a JSON object, not a string holding JSON text (encoded twice); "
            "send the object itself."
        )
    kind = json_type(value) or type(value).__name__
    return None, f"The arguments must be a JSON object, not {_a(kind)}."


def _holds_json(text: str) -> bool:
    if text.strip()[:1] not in ("{", "["):
        return False
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        return False
    return True


def _a(kind: str) -> str:
    return f"an {kind}" if kind[0] in "aeiou" else f"a {kind}"
