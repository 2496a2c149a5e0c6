"""Errors put for a model: one plain line each, a structured form, and each provider's error message."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ._errors import InvalidToolError, ToolError
from ._jsonschema.errors import ErrorFact, ValidationError

__all__ = [
    "FormattedErrors",
    "UNPRINTABLE",
    "MCP_ERRORS_KEY",
    "format_errors",
    "handler_failure",
    "mcp_error_result",
    "printable",
]

# Where an MCP error result keeps its errors as data, in ``_meta`` (a key with a prefix of its own, as
# MCP asks of ``_meta`` keys).
MCP_ERRORS_KEY = "toolreg/errors"


@dataclass(frozen=True)
class FormattedErrors:
    """``text`` for the model, one line per error; ``items`` the same as plain JSON objects."""

    text: str
    items: tuple[dict[str, Any], ...]

    def as_mcp_result(self) -> dict[str, Any]:
        """An MCP ``CallToolResult`` with ``isError: true``: a tool error, which the model sees. The
        errors are in the text, and as ``items`` under ``_meta`` (key ``"toolreg/errors"``), never in
        ``structuredContent``, which MCP reserves for a result that fits the tool's output schema."""
        return mcp_error_result(self.text, self.items)

    def as_anthropic_tool_result(self, tool_use_id: str) -> dict[str, Any]:
        """An Anthropic ``tool_result`` content block with ``is_error: true``."""
        return {"type": "tool_result", "tool_use_id": tool_use_id, "content": self.text, "is_error": True}

    def as_openai_tool_message(self, tool_call_id: str) -> dict[str, Any]:
        """An OpenAI ``tool`` message answering the call."""
        return {"role": "tool", "tool_call_id": tool_call_id, "content": self.text}


def mcp_error_result(text: str, items: tuple[dict[str, Any], ...] = ()) -> dict[str, Any]:
    """An MCP ``CallToolResult`` with ``isError: true`` and ``text``; ``items``, if any, in ``_meta``."""
    result: dict[str, Any] = {"content": [{"type": "text", "text": text}], "isError": True}
    if items:
        result["_meta"] = {MCP_ERRORS_KEY: [dict(item) for item in items]}
    return result


# Characters that could move, hide or restyle what follows them on a screen or in a prompt: C0 and C1
# controls (ESC starts ANSI sequences), line and paragraph separators, bidi overrides and isolates,
# zero-width and other invisible format characters, lone surrogates (no encoding can print them),
# and the tag block.
UNPRINTABLE = re.compile(
    "[\x00-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff"
    "\ud800-\udfff\ufff9-\ufffb\U000e0000-\U000e007f]"
)


def printable(text: str) -> str:
    """``text`` with every character that could forge a line or hide text written as ``\\uXXXX``."""
    return UNPRINTABLE.sub(lambda found: f"\\u{ord(found.group()):04x}", text)


def handler_failure(tool: str, error: BaseException, *, show_message: bool = False) -> tuple[str, str]:
    """What the model is told of an exception a handler raised, and the exception whole, for logs.

    The model reads the message of a :class:`~toolreg.ToolError` (a ``TransientError`` among them),
    which a tool raises for it: "The tool fs.read failed: no file named notes.txt". Of any other
    exception it reads the type alone, "The tool db.query failed: ConnectionError": such a message is
    written for a programmer and may hold what the model must not see (a password in a database URL,
    a path, a key), which it could repeat anywhere. ``show_message`` shows every message, type first.
    The model's text is one line (a message's lines joined by "; "), at most 500 characters of the
    message, with every character that could forge a line written as ``\\uXXXX``; the second text is
    ``Type: message`` as the exception says it, for the harness's logs and never for the model.
    """
    kind = type(error).__name__
    try:
        text = str(error)
    except Exception:  # a message that cannot be written (an integer past Python's digit limit …)
        text = "(its message cannot be written)"
    detail = f"{kind}: {text}" if text else kind
    # One line: the lines of a long message (pydantic writes several) joined, none forged.
    said = printable("; ".join(line.strip() for line in text.splitlines() if line.strip()))[:500]
    if show_message and said:
        return f"The tool {tool} failed: {printable(kind)}: {said}", detail
    if isinstance(error, ToolError) and said:
        return f"The tool {tool} failed: {said}", detail
    return f"The tool {tool} failed: {printable(kind)}", detail


def _shorten(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _said(text: str, limit: int) -> str:
    """``text`` escaped, then cut: what is shown is never longer than ``limit``."""
    return _shorten(printable(text), limit)


def format_errors(
    errors: Iterable[ValidationError],
    *,
    tool: str | None = None,
    max_chars: int = 200,
    max_errors: int = 20,
    mask: bool = False,
    about: str = "arguments",
) -> FormattedErrors:
    """What a model needs to fix its call in one round trip, and nothing else.

    Each line reads ``at /path: what is wrong``; the root is "the arguments". Every path, message
    and string in the items is cut to ``max_chars`` characters, every array in the items to
    ``max_errors`` entries, and at most ``max_errors`` errors are shown, then "…and N more". Characters
    that could forge a line or hide text (newlines, ESC, U+2028, bidi overrides) are written as
    ``\\uXXXX``. With ``mask``, nothing the call held is repeated: each error is
    :meth:`ValidationError.masked`, so values and the property names the call chose (``*`` in a
    path) stay out of the lines and the items, and secrets a model sent do not travel on.
    ``about="result"`` words it for a tool's output that broke its output schema: the tool's fault,
    which calling again with other arguments will not mend.
    """
    if about not in ("arguments", "result"):
        raise InvalidToolError(f"format_errors: about must be 'arguments' or 'result', not {about!r}")
    for name, bound in (("max_chars", max_chars), ("max_errors", max_errors)):
        if isinstance(bound, bool) or not isinstance(bound, int) or bound < 1:
            raise InvalidToolError(f"format_errors: {name} must be a positive int, not {bound!r}")
    errors = list(errors)
    shown = [error.masked() for error in errors[:max_errors]] if mask else errors[:max_errors]
    result = about == "result"
    whole = "the result" if result else "the arguments"
    who = (
        f"{whole.capitalize()} {'of' if result else 'for'} {_said(tool, max_chars)}"
        if tool
        else whole.capitalize()
    )
    if not errors:
        verb = "is" if result else "are"
        return FormattedErrors(f"{who} {verb} valid: there is nothing to fix.", ())
    lines, items = [], []
    for error in shown:
        where = f"at {_said(error.path, max_chars)}" if error.path else whole
        lines.append(f"- {where}: {_said(error.message, max_chars)}")
        # Read as the error's own mapping, not a copy: only what is shown is written (an anyOf error
        # holds every branch's errors, each with its pointer, and pointers can be as long as the call).
        items.append(_shortened(ErrorFact(error), max_chars, max_errors))
    if len(errors) > max_errors:
        lines.append(f"- …and {len(errors) - max_errors} more")
    count = f"{len(errors)} problem{'s' if len(errors) != 1 else ''}"
    if result:
        # A result that is no JSON at all breaks no schema: it cannot be sent.
        unsendable = all(error.keyword in ("json", "depth") for error in errors)
        broken = "is not JSON that can be sent" if unsendable else "does not match its output schema"
        head = f"{who} {broken}; it has {count}:"
        tail = "The tool, not the call, is at fault: calling again with other arguments will not mend it."
    else:
        head = f"{who} have {count}:"
        tail = "Fix these and call again with the corrected arguments."
    return FormattedErrors("\n".join([head, *lines, tail]), tuple(items))


def _shortened(value: Any, limit: int, most: int) -> Any:
    if isinstance(value, str):
        return _said(value[: limit + 1], limit)  # escaping never shortens a text: cut it first
    if isinstance(value, list | tuple):
        kept = [_shortened(item, limit, most) for item in value[:most]]
        return kept + [f"…and {len(value) - most} more"] if len(value) > most else kept
    if isinstance(value, Mapping):
        return {key: _shortened(item, limit, most) for key, item in value.items()}
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 3 * limit:
        return f"an integer of {value.bit_length()} bits"  # its digits would be longer than the limit
    return value
