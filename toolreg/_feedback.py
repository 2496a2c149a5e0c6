"""Errors put for a model: one plain line each, a structured form, and each provider's error message."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ._errors import ValidationError

__all__ = ["FormattedErrors", "format_errors"]

# Facts that repeat what the instance held, rather than what the schema wants.
_INSTANCE_FACTS = frozenset({"actual", "length", "actual_type", "property_name", "extra", "duplicates"})
# Message endings that quote the instance: ", is 3", ", has 5".
_QUOTED_VALUE = re.compile(r", (is|has) .*$")
_QUOTED_NAME = re.compile(r'^property name ("(?:[^"\\]|\\.)*")')


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
    call is cut to ``max_chars``. With ``mask``, nothing the call held is repeated: values are left
    out of the lines and the items, so secrets a model sent do not travel on.
    """
    errors = list(errors)
    lines, items = [], []
    for error in errors:
        where = f"at {error.path}" if error.path else "the arguments"
        message = error.message
        facts = error.to_dict()
        if mask:
            message = _QUOTED_NAME.sub("a property name", _QUOTED_VALUE.sub("", message))
            if error.keyword == "additionalProperties":
                message = f"has {len(error.facts['extra'])} properties the schema does not allow"
            facts = {key: value for key, value in facts.items() if key not in _INSTANCE_FACTS}
            facts["message"] = message
        lines.append(f"- {where}: {_shorten(message, max_chars * 3)}")
        items.append(_shortened(facts, max_chars))
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
