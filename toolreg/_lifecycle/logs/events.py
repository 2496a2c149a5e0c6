"""What a log holds, as the events :func:`~toolreg._lifecycle.logs.read_log` gives: calls, their answers,
the catalogs shown, what could not be read, and the end of each source; and the forms and malformed
kinds those events name.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from typing import IO, Any, Final, Literal, TypeAlias

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


_set = object.__setattr__


def new_call(
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


def new_answer(
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
    """A LoggedAnswer made as :func:`new_call` makes a call."""
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
