"""The reader of OpenAI Responses: its function-call items, alone, in a response's ``output`` or in a
request's ``input`` (with the request's tools).
"""

from __future__ import annotations

from typing import Any

from .base import At, call_event, shape_problem
from .catalog_events import record_catalog
from .events import Event, new_answer


def is_responses_item(value: dict[str, Any]) -> bool:
    """Whether a value is one ``function_call`` or ``function_call_output`` item."""
    return value.get("type") in ("function_call", "function_call_output")


def read_responses_item(value: dict[str, Any], at: At) -> None:
    """A lone item: a call (a turn of its own) or an answer."""
    if value["type"] == "function_call":
        at.source.out.append(
            call_event("openai-responses", value, value.get("arguments", ""), at.source.next_turn(), at)
        )
    else:
        at.source.out.append(_function_call_output(value, at))


def _function_call_output(item: dict[str, Any], at: At) -> Event:
    call_id = item.get("call_id")
    if not isinstance(call_id, str):
        return shape_problem(at, "a function_call_output item without a call_id string")
    return new_answer(call_id, None, at.line, "openai-responses", at.source.name, at.conversation)


def _responses_items(items: list[Any], at: At) -> None:
    """Items of a response's output or a request's input: consecutive function calls are one turn."""
    turn = 0
    for item in items:
        if not isinstance(item, dict):
            continue
        kind = item.get("type")
        if kind == "function_call":
            turn = turn or at.source.next_turn()
            at.source.out.append(call_event("openai-responses", item, item.get("arguments", ""), turn, at))
            continue
        turn = 0
        if kind == "function_call_output":
            at.source.out.append(_function_call_output(item, at))


def is_response_object(value: dict[str, Any]) -> bool:
    """Whether a value is a Responses response (it has an ``output`` list)."""
    return isinstance(value.get("output"), list) and (
        value.get("object") == "response" or "choices" not in value
    )


def read_response_object(value: dict[str, Any], at: At) -> None:
    """The calls and answers of a response's output."""
    _responses_items(value["output"], at)


def is_responses_request(value: dict[str, Any]) -> bool:
    """Whether a value is a Responses request (its ``input``, with tools or as items)."""
    return "input" in value and ("tools" in value or isinstance(value["input"], list))


def read_responses_request(value: dict[str, Any], at: At) -> None:
    """A request: its tools, then its input items, one conversation."""
    at = At(at.source, at.line, f"{at.source.name}:{at.line}", at.forced)
    record_catalog(value, at)
    if isinstance(value["input"], list):
        _responses_items(value["input"], at)
