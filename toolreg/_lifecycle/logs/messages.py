"""The reader of OpenAI Chat Completions and Anthropic Messages: the role-tagged messages both write,
told apart message by message, alone or in a request record with its tools; a completion's choices;
Anthropic's content blocks and a lone Chat tool call.
"""

from __future__ import annotations

from typing import Any

from .base import At, call_event, shape_problem, unknown_form
from .catalog_events import record_catalog
from .events import Event, new_answer


def _chat_message(message: dict[str, Any], at: At) -> None:
    role = message.get("role")
    if role == "tool":
        call_id = message.get("tool_call_id")
        if isinstance(call_id, str):
            at.source.out.append(
                new_answer(call_id, None, at.line, "openai", at.source.name, at.conversation)
            )
        else:
            at.source.out.append(shape_problem(at, "an OpenAI tool message without a tool_call_id string"))
        return
    calls = message.get("tool_calls")
    if not calls:
        return
    if not isinstance(calls, list):
        at.source.out.append(shape_problem(at, "an OpenAI assistant message whose tool_calls is not a list"))
        return
    turn = at.source.next_turn()
    for call in calls:
        if isinstance(call, dict) and isinstance(call.get("function"), dict):
            at.source.out.append(call_event("openai", call, call["function"].get("arguments", ""), turn, at))
        else:
            at.source.out.append(
                shape_problem(at, "an item of tool_calls that is no {function: {name, arguments}}")
            )


def is_chat_completion(value: dict[str, Any]) -> bool:
    """Whether a value is an OpenAI Chat completion (it has ``choices``)."""
    return isinstance(value.get("choices"), list)


def read_chat_completion(value: dict[str, Any], at: At) -> None:
    """The tool calls of each choice's message."""
    for choice in value["choices"]:
        message = choice.get("message") if isinstance(choice, dict) else None
        if isinstance(message, dict):
            _chat_message(message, at)


def is_lone_chat_call(value: dict[str, Any]) -> bool:
    """Whether a value is one item of an OpenAI message's ``tool_calls``."""
    return value.get("type") == "function" and isinstance(value.get("function"), dict) and "id" in value


def read_lone_chat_call(value: dict[str, Any], at: At) -> None:
    """A lone OpenAI tool call, a turn of its own."""
    at.source.out.append(
        call_event("openai", value, value["function"].get("arguments", ""), at.source.next_turn(), at)
    )


# -- Anthropic Messages and the message records both share ----------------------------------------------


def is_message(value: dict[str, Any]) -> bool:
    """Whether a value is one message, OpenAI Chat's or Anthropic's."""
    return "role" in value and ("content" in value or "tool_calls" in value or "tool_call_id" in value)


def _message_form(message: dict[str, Any]) -> str:
    if "tool_calls" in message or message.get("role") == "tool":
        return "openai"
    return "anthropic"


def read_message(value: dict[str, Any], at: At) -> None:
    """One message, in the form its keys show."""
    form = _message_form(value)
    if at.forced is not None and at.forced != form:
        at.source.out.append(unknown_form(value, at))
        return
    if form == "openai":
        _chat_message(value, at)
    else:
        _anthropic_message(value, at)


def _anthropic_message(message: dict[str, Any], at: At) -> None:
    content = message.get("content")
    if not isinstance(content, list):
        return
    turn = at.source.next_turn() if message.get("role") == "assistant" else 0
    for block in content:
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if kind == "tool_use":
            at.source.out.append(
                call_event("anthropic", block, block.get("input", {}), turn or at.source.next_turn(), at)
            )
        elif kind == "tool_result":
            at.source.out.append(_tool_result(block, at))


def _tool_result(block: dict[str, Any], at: At) -> Event:
    call_id = block.get("tool_use_id")
    if not isinstance(call_id, str):
        return shape_problem(at, "an Anthropic tool_result block without a tool_use_id string")
    return new_answer(
        call_id, block.get("is_error") is True, at.line, "anthropic", at.source.name, at.conversation
    )


def is_anthropic_block(value: dict[str, Any]) -> bool:
    """Whether a value is one Anthropic ``tool_use`` or ``tool_result`` block."""
    return value.get("type") in ("tool_use", "tool_result")


def read_anthropic_block(value: dict[str, Any], at: At) -> None:
    """A lone Anthropic block: a call (a turn of its own) or an answer."""
    if value["type"] == "tool_result":
        at.source.out.append(_tool_result(value, at))
    else:
        at.source.out.append(
            call_event("anthropic", value, value.get("input", {}), at.source.next_turn(), at)
        )


def is_messages_record(value: dict[str, Any]) -> bool:
    """Whether a value is a request record with ``messages``."""
    return isinstance(value.get("messages"), list)


def read_messages_record(value: dict[str, Any], at: At) -> None:
    """A request record (OpenAI Chat or Anthropic): its tools, then its messages, one conversation."""
    at = At(at.source, at.line, f"{at.source.name}:{at.line}", at.forced)
    record_catalog(value, at)
    for message in value["messages"]:
        if isinstance(message, dict) and "role" in message:
            form = _message_form(message)
            if at.forced is None or at.forced == form:
                (_chat_message if form == "openai" else _anthropic_message)(message, at)
