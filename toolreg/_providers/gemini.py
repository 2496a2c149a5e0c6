"""Google Gemini: function declarations, ``functionCall`` parts read in and ``functionResponse`` parts out.

A part is read as the API writes it (``functionCall``) and as the SDK's ``part.model_dump()`` writes
it (``function_call``, with ``None`` for what is not given).
"""

from __future__ import annotations

import re
from typing import Any

from .._registry import ToolRecord
from .._results import CallResult
from .base import NameRule, Provider, ToolCall, checked_id, object_arguments, schema_of

__all__ = ["PROVIDER", "NAMES"]

# Gemini function declarations: a letter or _ first, then letters, digits, _ . : -, up to 128.
NAMES = NameRule(
    re.compile(r"[A-Za-z_][A-Za-z0-9_.:-]{0,127}"),
    "a letter or _ first, then [A-Za-z0-9_.:-], up to 128",
    keeps_dots=True,
)


def export(record: ToolRecord, strict: bool, omit_unsupported: bool) -> dict[str, Any]:
    schema = schema_of(record)
    name = NAMES.sent(record.name, "gemini")
    return {"name": name, "description": record.full_description, "parametersJsonSchema": schema}


def _function_call(call: dict[str, Any]) -> Any:
    """The ``functionCall`` of a part (either spelling), or the call itself when it is one."""
    for key in ("functionCall", "function_call"):
        if call.get(key) is not None:
            return call[key]
    return call if "args" in call and "name" in call else None


def recognises(call: dict[str, Any]) -> bool:
    function = _function_call(call)
    return isinstance(function, dict) and isinstance(function.get("name"), str)


def read(call: dict[str, Any]) -> ToolCall:
    function = _function_call(call)
    arguments, problem = object_arguments(function.get("args"), absent_is_empty=True)
    sent = function["name"]
    return ToolCall(
        "gemini", checked_id(function.get("id")), sent, NAMES.toolreg_name(sent), arguments, problem
    )


def answer(call: ToolCall, result: CallResult, record: ToolRecord | None) -> dict[str, Any]:
    response = {"result": result.output} if result.ok else {"error": result.text}
    if result.repairs:
        response["note"] = result.note  # beside the result, which stays the handler's own
    function: dict[str, Any] = {"name": call.sent_name, "response": response}
    if call.id is not None:
        function["id"] = call.id
    return {"functionResponse": function}


PROVIDER = Provider(
    "gemini",
    NAMES,
    "a Gemini functionCall part: {functionCall: {name, args, id?}} (or the SDK's function_call)",
    recognises,
    read,
    answer,
    export,
)
