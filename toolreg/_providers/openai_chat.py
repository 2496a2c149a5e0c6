"""OpenAI Chat Completions: function tools (strict or not), tool calls read in, ``tool`` messages out."""

from __future__ import annotations

import re
from typing import Any

from .._registry import ToolRecord
from .._results import CallResult
from .base import (
    NameRule,
    Provider,
    ToolCall,
    checked_id,
    object_arguments,
    read_arguments,
    schema_of,
    with_note,
)
from .openai_strict import strict_form

__all__ = ["PROVIDER", "NAMES", "parameters"]

# OpenAI function tools: ^[a-zA-Z0-9_-]{1,64}$, no dots.
NAMES = NameRule(re.compile(r"[a-zA-Z0-9_-]{1,64}"), "^[a-zA-Z0-9_-]{1,64}$", keeps_dots=False)


def parameters(record: ToolRecord, strict: bool, omit_unsupported: bool) -> tuple[dict[str, Any], str]:
    """A tool's ``parameters`` and ``description`` for OpenAI, in strict form when asked: what strict
    mode could not say is listed after the description (the registry still checks what it checks)."""
    schema = schema_of(record)
    description = record.full_description
    if not strict:
        return schema, description
    converted, omitted = strict_form(schema, record.name, omit=omit_unsupported)
    if omitted:
        # The model should know the rules it cannot see: toolreg still checks them when the call comes in.
        listed = "Not expressible in strict mode: " + "; ".join(omitted)
        description = f"{description}\n{listed}" if description else listed
    return converted, description


def export(record: ToolRecord, strict: bool, omit_unsupported: bool) -> dict[str, Any]:
    schema, description = parameters(record, strict, omit_unsupported)
    name = NAMES.sent(record.name, "openai")
    function = {"name": name, "description": description, "parameters": schema, "strict": strict}
    return {"type": "function", "function": function}


def recognises(call: dict[str, Any]) -> bool:
    function = call.get("function")
    return isinstance(function, dict) and isinstance(function.get("name"), str)


def read(call: dict[str, Any]) -> ToolCall:
    function = call["function"]
    raw = function.get("arguments", "")
    arguments, problem = read_arguments(raw) if isinstance(raw, str) else object_arguments(raw)
    sent = function["name"]
    text = raw if isinstance(raw, str) else None
    identifier = checked_id(call.get("id"))
    return ToolCall("openai", identifier, sent, NAMES.toolreg_name(sent), arguments, problem, text)


def answer(call: ToolCall, result: CallResult, record: ToolRecord | None) -> dict[str, Any]:
    # OpenAI has no error flag: the text says what went wrong.
    return {"role": "tool", "tool_call_id": call.id, "content": with_note(result.text, result)}


PROVIDER = Provider(
    "openai",
    NAMES,
    "an OpenAI Chat Completions tool call: {id, type: function, function: {name, arguments}}",
    recognises,
    read,
    answer,
    export,
    strict_form=True,
)
