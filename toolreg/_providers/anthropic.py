"""Anthropic Messages: tools, ``tool_use`` blocks read in and ``tool_result`` blocks out."""

from __future__ import annotations

import re
from typing import Any

from .._registry import ToolRecord
from .._results import CallResult
from .base import NameRule, Provider, ToolCall, checked_id, object_arguments, schema_of, with_note

__all__ = ["PROVIDER", "NAMES"]

# Anthropic tools: ^[a-zA-Z0-9_-]{1,64}$ in the documentation (the API has accepted 128), no dots.
NAMES = NameRule(re.compile(r"[a-zA-Z0-9_-]{1,64}"), "^[a-zA-Z0-9_-]{1,64}$", keeps_dots=False)


def export(record: ToolRecord, strict: bool, omit_unsupported: bool) -> dict[str, Any]:
    schema = schema_of(record)
    return {
        "name": NAMES.sent(record.name, "anthropic"),
        "description": record.full_description,
        "input_schema": schema,
    }


def recognises(call: dict[str, Any]) -> bool:
    return call.get("type") == "tool_use" and isinstance(call.get("name"), str)


def read(call: dict[str, Any]) -> ToolCall:
    arguments, problem = object_arguments(call.get("input", {}))
    sent = call["name"]
    return ToolCall(
        "anthropic", checked_id(call.get("id")), sent, NAMES.toolreg_name(sent), arguments, problem
    )


def answer(call: ToolCall, result: CallResult, record: ToolRecord | None) -> dict[str, Any]:
    content = with_note(result.text, result)
    message: dict[str, Any] = {"type": "tool_result", "tool_use_id": call.id, "content": content}
    if not result.ok:
        message["is_error"] = True
    return message


PROVIDER = Provider(
    "anthropic",
    NAMES,
    "an Anthropic tool_use block: {type: tool_use, id, name, input}",
    recognises,
    read,
    answer,
    export,
)
