"""OpenAI Responses: function tools (flat, beside the other tool types), ``function_call`` items read in
and ``function_call_output`` items out."""

from __future__ import annotations

from typing import Any

from .._registry import ToolRecord
from .._results import CallResult
from .base import Provider, ToolCall, checked_id, object_arguments, read_arguments, with_note
from .openai_chat import NAMES, parameters

__all__ = ["PROVIDER"]


def export(record: ToolRecord, strict: bool, omit_unsupported: bool) -> dict[str, Any]:
    schema, description = parameters(record, strict, omit_unsupported)
    name = NAMES.sent(record.name, "openai-responses")
    return {
        "type": "function",
        "name": name,
        "description": description,
        "parameters": schema,
        "strict": strict,
    }


def recognises(call: dict[str, Any]) -> bool:
    return call.get("type") == "function_call" and isinstance(call.get("name"), str)


def read(call: dict[str, Any]) -> ToolCall:
    raw = call.get("arguments", "")
    arguments, problem = read_arguments(raw) if isinstance(raw, str) else object_arguments(raw)
    sent = call["name"]
    identifier = checked_id(call.get("call_id"))
    text = raw if isinstance(raw, str) else None
    return ToolCall("openai-responses", identifier, sent, NAMES.toolreg_name(sent), arguments, problem, text)


def answer(call: ToolCall, result: CallResult, record: ToolRecord | None) -> dict[str, Any]:
    return {"type": "function_call_output", "call_id": call.id, "output": with_note(result.text, result)}


PROVIDER = Provider(
    "openai-responses",
    NAMES,
    "an OpenAI Responses item: {type: function_call, call_id, name, arguments}",
    recognises,
    read,
    answer,
    export,
    strict_form=True,
)
