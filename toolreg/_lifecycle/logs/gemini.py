"""The reader of Gemini: a request record's contents (with its tools), a response's candidates, one
content or one part, in either spelling of its keys (``functionCall`` or ``function_call``).
"""

from __future__ import annotations

from typing import Any

from ..._providers import PROVIDERS
from .base import At, call_event, shape_problem
from .catalog_events import record_catalog
from .events import new_answer

_FUNCTION_CALL = ("functionCall", "function_call")
_FUNCTION_RESPONSE = ("functionResponse", "function_response")
# The keys a Gemini value holds one of, for the table of readers.
GEMINI_KEYS = ("contents", "candidates", "parts", *_FUNCTION_CALL, *_FUNCTION_RESPONSE)


def is_gemini(value: dict[str, Any]) -> bool:
    """Whether a value is Gemini's: a request, a response, a content or one part."""
    return (
        isinstance(value.get("contents"), list)
        or isinstance(value.get("candidates"), list)
        or isinstance(value.get("parts"), list)
        or any(value.get(key) is not None for key in _FUNCTION_CALL + _FUNCTION_RESPONSE)
    )


def read_gemini(value: dict[str, Any], at: At) -> None:
    """The calls and answers of a Gemini value (and a request's tools)."""
    if isinstance(value.get("contents"), list):  # a request record
        at = At(at.source, at.line, f"{at.source.name}:{at.line}", at.forced)
        record_catalog(value, at)
        for content in value["contents"]:
            if isinstance(content, dict):
                _gemini_content(content, at)
    elif isinstance(value.get("candidates"), list):  # a response
        for candidate in value["candidates"]:
            content = candidate.get("content") if isinstance(candidate, dict) else None
            if isinstance(content, dict):
                _gemini_content(content, at)
    elif isinstance(value.get("parts"), list):
        _gemini_content(value, at)
    else:
        _gemini_part(value, at, 0)


def _gemini_content(content: dict[str, Any], at: At) -> None:
    parts = content.get("parts")
    if not isinstance(parts, list):
        return
    turn = at.source.next_turn() if content.get("role") == "model" else 0
    for part in parts:
        if isinstance(part, dict):
            _gemini_part(part, at, turn)


def _gemini_part(part: dict[str, Any], at: At, turn: int) -> None:
    function = next((part[key] for key in _FUNCTION_CALL if part.get(key) is not None), None)
    if function is not None:
        if not isinstance(function, dict):
            at.source.out.append(shape_problem(at, "a Gemini functionCall that is not an object"))
            return
        at.source.out.append(
            call_event("gemini", part, function.get("args"), turn or at.source.next_turn(), at)
        )
        return
    response = next((part[key] for key in _FUNCTION_RESPONSE if part.get(key) is not None), None)
    if response is None:
        return
    if not isinstance(response, dict) or not isinstance(response.get("name"), str):
        at.source.out.append(shape_problem(at, "a Gemini functionResponse without a name string"))
        return
    call_id = response.get("id") if isinstance(response.get("id"), str) else None
    answer = response.get("response")
    error = isinstance(answer, dict) and "error" in answer
    sent = response["name"]
    name = PROVIDERS["gemini"].names.toolreg_name(sent)
    at.source.out.append(
        new_answer(call_id, error, at.line, "gemini", at.source.name, at.conversation, sent, name)
    )
