"""Errors put for a model: one plain line each, a structured form, and each provider's error message."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ._errors import ValidationError

__all__ = ["FormattedErrors", "format_errors"]


@dataclass(frozen=True)
class FormattedErrors:
    """``text`` for the model, one line per error; ``items`` the same as plain JSON objects."""

    text: str
    items: tuple[dict[str, Any], ...]

    def as_mcp_result(self) -> dict[str, Any]:
        """An MCP ``CallToolResult`` with ``isError: true``: a tool error, which the model sees."""
        return {
            "content": [{"type": "text", "text": self.text}],
            "structuredContent": {"errors": [dict(item) for item in self.items]},
            "isError": True,
        }

    def as_anthropic_tool_result(self, tool_use_id: str) -> dict[str, Any]:
        """An Anthropic ``tool_result`` content block with ``is_error: true``."""
        return {"type": "tool_result", "tool_use_id": tool_use_id, "content": self.text, "is_error": True}

    def as_openai_tool_message(self, tool_call_id: str) -> dict[str, Any]:
        """An OpenAI ``tool`` message answering the call."""
        return {"role": "tool", "tool_call_id": tool_call_id, "content": self.text}


def _shorten(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def format_errors(
    errors: Iterable[ValidationError], *, tool: str | None = None, max_chars: int = 80, mask: bool = False
) -> FormattedErrors:
    """What a model needs to fix its call in one round trip, and nothing else.

    Each line reads ``at /path: what is wrong``; the root is "the arguments". Text quoted from the
    call is cut to ``max_chars``. With ``mask``, nothing the call held is repeated: each error is
    :meth:`ValidationError.masked`, so values and the property names the call chose (``*`` in a
    path) stay out of the lines and the items, and secrets a model sent do not travel on.
    """
    errors = [error.masked() for error in errors] if mask else list(errors)
    lines, items = [], []
    for error in errors:
        where = f"at {error.path}" if error.path else "the arguments"
        lines.append(f"- {where}: {_shorten(error.message, max_chars * 3)}")
        items.append(_shortened(error.to_dict(), max_chars))
    count = f"{len(errors)} problem{'s' if len(errors) != 1 else ''}"
    head = f"The arguments for {tool} have {count}:" if tool else f"The arguments have {count}:"
    tail = "Fix these and call again with the corrected arguments."
    return FormattedErrors("\n".join([head, *lines, tail]), tuple(items))


def _shortened(value: Any, limit: int) -> Any:
    if isinstance(value, str):
        return _shorten(value, limit * 3)
    if isinstance(value, list):
        return [_shortened(item, limit) for item in value]
    if isinstance(value, dict):
        return {key: _shortened(item, limit) for key, item in value.items()}
    if isinstance(value, (int, float)) and not isinstance(value, bool) and len(json.dumps(value)) > limit:
        return _shorten(json.dumps(value), limit)
    return value
