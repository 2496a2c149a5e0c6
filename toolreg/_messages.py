"""Each provider's tool call read in, and its result message written out, for success and failure alike."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ._calls import CallResult
from ._errors import InvalidCallError
from ._feedback import printable
from ._jsonschema.errors import ValidationError
from ._jsonschema.values import json_type
from ._providers import from_provider_name

__all__ = ["ToolCall", "CALL_SHAPES", "read_call", "result_message", "parse_arguments", "problem_result"]

# The shapes read, by the name ``provider=`` takes.
CALL_SHAPES = {
    "openai": "an OpenAI Chat Completions tool call: {id, type: function, function: {name, arguments}}",
    "openai-responses": "an OpenAI Responses item: {type: function_call, call_id, name, arguments}",
    "anthropic": "an Anthropic tool_use block: {type: tool_use, id, name, input}",
    "gemini": "a Gemini functionCall part: {functionCall: {name, args, id?}}",
    "mcp": "MCP tools/call params: {name, arguments?}",
}
# Whose names lose their dots on the way out (see _providers.to_provider_name).
_NAMING = {
    "openai": "openai",
    "openai-responses": "openai",
    "anthropic": "anthropic",
    "gemini": "gemini",
    "mcp": "mcp",
}


@dataclass(frozen=True)
class ToolCall:
    """One call as a provider sent it: whose shape, its id (if the shape has one), the name as sent,
    the toolreg name behind it, and the arguments, or the problem that kept them from being read."""

    provider: str
    id: str | None
    sent_name: str
    name: str
    arguments: Any
    problem: str | None = None

    @property
    def naming(self) -> str:
        """The provider whose rule for names the model saw them by."""
        return _NAMING[self.provider]


def _not_a_call(call: Any) -> InvalidCallError:
    shapes = "; ".join(CALL_SHAPES.values())
    kind = json_type(call) or type(call).__name__
    return InvalidCallError(f"not a tool call toolreg reads ({_a(kind)}); it reads {shapes}")


def read_call(call: Any, provider: str | None = None) -> ToolCall:
    """The tool call in any of :data:`CALL_SHAPES`, found by its shape unless ``provider`` names it.

    Arguments that arrive as JSON text are read here; text that is not one JSON object becomes the
    call's ``problem``, worded for the model. A value that is no tool call at all raises InvalidCallError.
    """
    if provider is not None and provider not in CALL_SHAPES:
        raise InvalidCallError(f"provider must be one of {', '.join(CALL_SHAPES)}, not {provider!r}")
    if not isinstance(call, dict):
        raise _not_a_call(call)
    shape = provider or _shape_of(call)
    if shape == "openai":
        function = call.get("function")
        if not isinstance(function, dict):
            raise _not_a_call(call)
        identifier, sent, raw = call.get("id"), function.get("name"), function.get("arguments", "")
    elif shape == "openai-responses":
        identifier, sent, raw = call.get("call_id"), call.get("name"), call.get("arguments", "")
    elif shape == "anthropic":
        identifier, sent, raw = call.get("id"), call.get("name"), call.get("input", {})
    elif shape == "gemini":
        part = call.get("functionCall", call)
        if not isinstance(part, dict):
            raise _not_a_call(call)
        identifier, sent, raw = part.get("id"), part.get("name"), part.get("args", {})
    else:
        identifier, sent, raw = None, call.get("name"), call.get("arguments", {})
    if not isinstance(sent, str):
        raise _not_a_call(call)
    if identifier is not None and not isinstance(identifier, str):
        raise InvalidCallError(f"the call's id must be a string, not {json_type(identifier)}")
    arguments, problem = parse_arguments(raw) if isinstance(raw, str) else (raw, None)
    if problem is None and not isinstance(arguments, dict):
        arguments, problem = (
            None,
            f"The arguments must be a JSON object, not {_a(json_type(arguments) or 'value')}.",
        )
    name = from_provider_name(sent, _NAMING[shape])  # a name as this provider writes it, mapped back
    return ToolCall(shape, identifier, sent, name, arguments, problem)


def _shape_of(call: dict[str, Any]) -> str:
    if "function" in call:
        return "openai"
    if call.get("type") == "function_call":
        return "openai-responses"
    if call.get("type") == "tool_use":
        return "anthropic"
    if "functionCall" in call or ("args" in call and "name" in call):
        return "gemini"
    if "name" in call:
        return "mcp"
    raise _not_a_call(call)


def _a(kind: str) -> str:
    return f"an {kind}" if kind[0] in "aeiou" else f"a {kind}"


def parse_arguments(text: str) -> tuple[Any, str | None]:
    """Arguments sent as JSON text: the object, or None and what is wrong, for the model."""
    if not text.strip():
        return None, "The arguments were empty text; send a JSON object, {} when there are none."
    decoder = json.JSONDecoder()
    start = len(text) - len(text.lstrip())
    try:
        value, end = decoder.raw_decode(text, start)
    except json.JSONDecodeError as error:
        return None, f"The arguments are not valid JSON: {error.msg} at character {error.pos}."
    except RecursionError:
        return None, "The arguments are nested too deeply to read."
    rest = text[end:].strip()
    if rest:
        shown, where = printable(rest[:40]), len(text) - len(text[end:].lstrip())
        return None, (
            f"The arguments hold text after the JSON value, from character {where}: {shown!r}. "
            "Send exactly one JSON object."
        )
    if isinstance(value, str) and value.strip()[:1] in ("{", "["):
        try:
            json.loads(value)
        except (ValueError, RecursionError):
            pass
        else:
            return None, (
                "The arguments are JSON text inside a JSON string (encoded twice); "
                "send the object itself, not a string holding it."
            )
    return value, None


def result_message(call: ToolCall, result: CallResult, *, structured: bool = False) -> dict[str, Any]:
    """The message that answers ``call`` in its provider's shape: the output, or the failure's text
    with the provider's error flag. ``structured`` (MCP, a tool with an output schema) sends the
    output as ``structuredContent`` too, with its JSON text, as MCP asks."""
    failed, text = not result.ok, result.text
    if call.provider == "openai":
        return {"role": "tool", "tool_call_id": call.id, "content": text}
    if call.provider == "openai-responses":
        return {"type": "function_call_output", "call_id": call.id, "output": text}
    if call.provider == "anthropic":
        message: dict[str, Any] = {"type": "tool_result", "tool_use_id": call.id, "content": text}
        if failed:
            message["is_error"] = True
        return message
    if call.provider == "gemini":
        response = {"error": text} if failed else {"result": result.output}
        function: dict[str, Any] = {"name": call.sent_name, "response": response}
        if call.id is not None:
            function["id"] = call.id
        return {"functionResponse": function}
    answer: dict[str, Any] = {"content": [{"type": "text", "text": text}], "isError": failed}
    if failed and result.errors:
        answer["structuredContent"] = {"errors": [error.to_dict() for error in result.errors]}
    elif structured and not failed and isinstance(result.output, dict):
        answer["structuredContent"] = result.output
    return answer


def problem_result(call: ToolCall) -> CallResult:
    """The result for a call whose arguments could not be read."""
    assert call.problem is not None
    error = ValidationError("", "", "json", call.problem)
    return CallResult(call.name, False, None, "arguments", (error,), call.problem)
