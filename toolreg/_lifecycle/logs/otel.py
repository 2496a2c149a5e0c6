"""The reader of OpenTelemetry GenAI spans (OTLP JSON): each ``execute_tool`` span a call, and its answer
when it holds a result; the spans of one parent are the calls of one turn.
"""

from __future__ import annotations

from typing import Any

from ..._providers.base import ToolCall, object_arguments, read_arguments
from .base import At, logged_call, shape_problem
from .events import new_answer


def is_otlp(value: dict[str, Any]) -> bool:
    """Whether a value is an OTLP JSON export (it has ``resourceSpans``)."""
    return isinstance(value.get("resourceSpans"), list)


def read_otlp(value: dict[str, Any], at: At) -> None:
    """The calls and answers of the export's ``execute_tool`` spans, in the order they started."""
    spans: list[dict[str, Any]] = []
    for resource in value["resourceSpans"]:
        scopes = resource.get("scopeSpans") if isinstance(resource, dict) else None
        for scope in scopes if isinstance(scopes, list) else ():
            found = scope.get("spans") if isinstance(scope, dict) else None
            if isinstance(found, list):
                spans.extend(span for span in found if isinstance(span, dict))
    spans.sort(key=_started)
    turns: dict[Any, int] = {}
    for span in spans:
        attributes = _attributes(span.get("attributes"))
        operation = attributes.get("gen_ai.operation.name")
        if operation != "execute_tool" and not str(span.get("name", "")).startswith("execute_tool"):
            continue
        _tool_span(span, attributes, turns, at)


def _started(span: dict[str, Any]) -> int:
    started = span.get("startTimeUnixNano")
    try:
        return int(started) if isinstance(started, (str, int)) else 0
    except ValueError:
        return 0


def _tool_span(span: dict[str, Any], attributes: dict[str, Any], turns: dict[Any, int], at: At) -> None:
    sent = attributes.get("gen_ai.tool.name")
    if not isinstance(sent, str):
        at.source.out.append(shape_problem(at, "an execute_tool span without gen_ai.tool.name"))
        return
    conversation = attributes.get("gen_ai.conversation.id")
    trace = span.get("traceId")
    if isinstance(conversation, str):
        key = f"conversation:{conversation}"
    elif isinstance(trace, str):
        key = f"trace:{trace}"
    else:
        key = at.source.name
    at = At(at.source, at.line, key, at.forced)
    # The spans of one parent (one chat turn) are the calls of one turn.
    parent = (key, span.get("parentSpanId"))
    if parent not in turns:
        turns[parent] = at.source.next_turn()
    call_id = attributes.get("gen_ai.tool.call.id")
    call_id = call_id if isinstance(call_id, str) else None
    raw = attributes.get("gen_ai.tool.call.arguments", {})
    # JSON text (a stringValue) is read as OpenAI's arguments are; an object (a kvlistValue) as MCP's.
    arguments, problem = read_arguments(raw) if isinstance(raw, str) else object_arguments(raw)
    at.source.out.append(
        logged_call(
            ToolCall("otel", call_id, sent, sent, arguments, problem), "otel", raw, turns[parent], at, call_id
        )
    )
    if "gen_ai.tool.call.result" in attributes:
        status = span.get("status")
        code = status.get("code") if isinstance(status, dict) else None
        error = code in (2, "STATUS_CODE_ERROR") or "error.type" in attributes
        at.source.out.append(
            new_answer(call_id, error, at.line, "otel", at.source.name, at.conversation, sent, sent)
        )


def _attributes(listed: Any, depth: int = 0) -> dict[str, Any]:
    """OTLP's ``[{key, value: AnyValue}]`` as a plain dict of JSON values."""
    found: dict[str, Any] = {}
    if isinstance(listed, list):
        for item in listed:
            if isinstance(item, dict) and isinstance(item.get("key"), str):
                found[item["key"]] = _any_value(item.get("value"), depth)
    return found


def _any_value(value: Any, depth: int) -> Any:
    """An OTLP ``AnyValue`` as JSON: ``intValue`` (a string in OTLP JSON) as an integer, arrays and
    key-value lists as arrays and objects, an empty value as null."""
    if not isinstance(value, dict) or depth > 256:
        return None
    for key, item in value.items():
        if key == "stringValue" or key == "boolValue" or key == "bytesValue":
            return item
        if key == "intValue":
            try:
                return int(item) if isinstance(item, (str, int)) and not isinstance(item, bool) else item
            except ValueError:
                return item
        if key == "doubleValue":
            return item
        if key == "arrayValue":
            values = item.get("values", []) if isinstance(item, dict) else []
            return [_any_value(entry, depth + 1) for entry in values] if isinstance(values, list) else []
        if key == "kvlistValue":
            values = item.get("values", []) if isinstance(item, dict) else []
            return _attributes(values, depth + 1)
    return None
