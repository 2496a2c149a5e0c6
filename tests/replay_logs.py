"""Logs of the same conversations written in each of the six log forms, built from BFCL's gold calls
broken the ways models break them, and the figures a replay must find in them, worked out here from
the calls as written (not by toolreg).

Each conversation is one BFCL question: the model's first turn calls the gold calls, the first of
them broken in one way (or not at all); every call is answered, a failed one with its errors; when
the break was not an unknown tool name, a second turn repairs the broken call with the gold one.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import toolreg

DATA = Path(__file__).resolve().parent / "data" / "bfcl" / "questions.jsonl"
BREAKS = (
    "none",
    "number_as_string",
    "missing_required",
    "outside_enum",
    "encoded_twice",
    "truncated",
    "unknown_tool",
)
FORMS = ("openai", "openai-responses", "anthropic", "gemini", "mcp", "otel")


@dataclass(frozen=True)
class Sent:
    """One call as the model sent it, and what it is: valid, invalid (with its one error),
    malformed (with the kind) or unknown."""

    id: str
    tool: str
    arguments: dict[str, Any]
    text: str | None  # the arguments as a string, for a malformed call
    status: str
    error: tuple[str, str] | None = None


def questions() -> list[dict[str, Any]]:
    """The extract's questions, with their schemas normalised, leaving out those whose tool names
    another question gives a different schema (one catalog holds them all)."""
    kept, schemas = [], {}
    for line in DATA.read_text(encoding="utf-8").splitlines():
        question = json.loads(line)
        functions = {
            function["name"]: toolreg.normalize_bfcl(function["parameters"])
            for function in question["functions"]
        }
        if any(name in schemas and schemas[name] != schema for name, schema in functions.items()):
            continue
        schemas.update(functions)
        kept.append({**question, "schemas": functions})
    return kept


def _broken(call: dict[str, Any], schema: dict[str, Any], how: str, call_id: str) -> Sent | None:
    """The gold call broken in one way, or None when this call cannot be broken so."""
    name, arguments = call["name"], dict(call["arguments"])
    properties = schema.get("properties", {})
    if how == "none":
        return Sent(call_id, name, arguments, None, "valid")
    if how == "number_as_string":
        for key, value in arguments.items():
            kind = properties.get(key, {}).get("type")
            if kind in ("integer", "number") and type(value) in (int, float):
                return Sent(
                    call_id, name, {**arguments, key: str(value)}, None, "invalid", ("type", f"/{key}")
                )
        return None
    if how == "missing_required":
        for key in schema.get("required", ()):
            if key in arguments:
                del arguments[key]
                return Sent(call_id, name, arguments, None, "invalid", ("required", ""))
        return None
    if how == "outside_enum":
        for key in arguments:
            options = properties.get(key, {})
            if options.get("type") == "string" and "enum" in options:
                return Sent(
                    call_id,
                    name,
                    {**arguments, key: "zz-none-of-these"},
                    None,
                    "invalid",
                    ("enum", f"/{key}"),
                )
        return None
    if how == "encoded_twice":
        return Sent(call_id, name, arguments, json.dumps(arguments), "encoded_twice")
    if how == "truncated":
        return Sent(call_id, name, arguments, json.dumps(arguments)[:-1], "not_json")
    assert how == "unknown_tool"
    return Sent(call_id, f"no_such_tool_{call_id}", arguments, None, "unknown")


def conversations() -> tuple[list[list[list[Sent]]], list[dict[str, Any]], list[dict[str, Any]]]:
    """The conversations (each a list of turns, each a list of calls), each one's catalog (the
    question's tools), and one catalog of every tool."""
    found, catalogs, every = [], [], {}
    for number, question in enumerate(questions()):
        schemas = question["schemas"]
        gold = question["calls"]
        first = None
        for offset in range(len(BREAKS)):  # the break of this question, or the next that applies
            how = BREAKS[(number + offset) % len(BREAKS)]
            first = _broken(gold[0], schemas[gold[0]["name"]], how, f"q{number}c0")
            if first is not None:
                break
        assert first is not None
        turn = [first] + [
            Sent(f"q{number}c{index}", call["name"], call["arguments"], None, "valid")
            for index, call in enumerate(gold[1:], 1)
        ]
        turns = [turn]
        if first.status not in ("valid", "unknown"):
            turns.append([Sent(f"q{number}r", gold[0]["name"], gold[0]["arguments"], None, "valid")])
        found.append(turns)
        tools = [{"name": name, "inputSchema": schema} for name, schema in schemas.items()]
        catalogs.append(tools)
        every.update((tool["name"], tool) for tool in tools)
    return found, catalogs, list(every.values())


def expected(conversations: list[list[list[Sent]]], window: int = 3) -> dict[str, Any]:
    """The figures a replay must report, from the calls as written: a call is a first try unless a
    failed call to its tool stands in an earlier turn of its conversation (within ``window``), and a
    valid call repairs the failed calls to its tool in earlier turns (all answered with errors)."""
    totals: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    unknown: Counter[str] = Counter()
    tools: dict[str, Counter[str]] = {}
    errors: dict[str, Counter[tuple[str, str]]] = {}
    for turns in conversations:
        failed: dict[str, list[int]] = {}
        for number, turn in enumerate(turns):
            for call in turn:
                totals["calls"] += 1
                totals["answered"] += 1  # every call is answered
                if call.status == "unknown":
                    totals["unknown_tools"] += 1
                    unknown[call.tool] += 1
                    continue
                figures = tools.setdefault(call.tool, Counter())
                figures["calls"] += 1
                earlier = [at for at in failed.get(call.tool, []) if 0 < number - at <= window]
                valid = call.status == "valid"
                if not earlier:
                    figures["first_tries"] += 1
                    figures["first_try_valid"] += valid
                if valid:
                    figures["valid"] += 1
                    figures["repaired"] += len(earlier)
                    failed[call.tool] = [at for at in failed.get(call.tool, []) if at == number]
                    continue
                figures["answered_failed"] += 1
                failed.setdefault(call.tool, []).append(number)
                if call.status == "invalid":
                    figures["invalid"] += 1
                    assert call.error is not None
                    errors.setdefault(call.tool, Counter())[call.error] += 1
                else:
                    figures["malformed"] += 1
                    kinds[call.status] += 1
    for figures in tools.values():
        for name in (
            "valid",
            "invalid",
            "malformed",
            "first_tries",
            "first_try_valid",
            "answered_failed",
            "repaired",
        ):
            totals[name] += figures[name]
    return {
        "totals": dict(totals),
        "malformed_kinds": dict(kinds),
        "unknown_names": dict(unknown),
        "tools": {
            name: {key: count for key, count in figures.items() if count} for name, figures in tools.items()
        },
        "errors": {name: dict(found) for name, found in errors.items()},
    }


# -- the six forms ---------------------------------------------------------------------------------


def _dashed(name: str) -> str:
    return name.replace(".", "-")  # OpenAI and Anthropic take no dots


def _text(call: Sent) -> str:
    """The arguments as JSON text, as the OpenAI forms send them."""
    if call.status == "encoded_twice":
        return json.dumps(call.text)
    return call.text if call.text is not None else json.dumps(call.arguments)


def _object(call: Sent) -> Any:
    """The arguments where a form sends an object: the object, or the string a broken call sent."""
    return call.text if call.text is not None else call.arguments


def _answer_text(call: Sent) -> str:
    return "ok" if call.status == "valid" else "The arguments have problems; fix them and call again."


def openai(conversations: list[list[list[Sent]]], catalogs: list[list[dict[str, Any]]]) -> list[str]:
    """One Chat Completions request record a conversation: its tools and its messages."""
    lines = []
    for turns, tools in zip(conversations, catalogs, strict=True):
        messages: list[dict[str, Any]] = [{"role": "user", "content": "Please help."}]
        for turn in turns:
            calls = [
                {
                    "id": call.id,
                    "type": "function",
                    "function": {"name": _dashed(call.tool), "arguments": _text(call)},
                }
                for call in turn
            ]
            messages.append({"role": "assistant", "content": None, "tool_calls": calls})
            messages += [
                {"role": "tool", "tool_call_id": call.id, "content": _answer_text(call)} for call in turn
            ]
        shown = [
            {
                "type": "function",
                "function": {"name": _dashed(tool["name"]), "parameters": tool["inputSchema"]},
            }
            for tool in tools
        ]
        lines.append(json.dumps({"model": "m", "tools": shown, "messages": messages}))
    return lines


def openai_responses(
    conversations: list[list[list[Sent]]], catalogs: list[list[dict[str, Any]]]
) -> list[str]:
    """One Responses request record a conversation: its tools and its input items."""
    lines = []
    for turns, tools in zip(conversations, catalogs, strict=True):
        items: list[dict[str, Any]] = [{"role": "user", "content": "Please help."}]
        for turn in turns:
            items += [
                {
                    "type": "function_call",
                    "call_id": call.id,
                    "name": _dashed(call.tool),
                    "arguments": _text(call),
                }
                for call in turn
            ]
            items += [
                {"type": "function_call_output", "call_id": call.id, "output": _answer_text(call)}
                for call in turn
            ]
        shown = [
            {"type": "function", "name": _dashed(tool["name"]), "parameters": tool["inputSchema"]}
            for tool in tools
        ]
        lines.append(json.dumps({"model": "m", "tools": shown, "input": items}))
    return lines


def anthropic(conversations: list[list[list[Sent]]], catalogs: list[list[dict[str, Any]]]) -> list[str]:
    """One Messages request record a conversation."""
    lines = []
    for turns, tools in zip(conversations, catalogs, strict=True):
        messages: list[dict[str, Any]] = [{"role": "user", "content": "Please help."}]
        for turn in turns:
            uses = [
                {"type": "tool_use", "id": call.id, "name": _dashed(call.tool), "input": _object(call)}
                for call in turn
            ]
            messages.append({"role": "assistant", "content": uses})
            results = [
                {
                    "type": "tool_result",
                    "tool_use_id": call.id,
                    "content": _answer_text(call),
                    "is_error": call.status != "valid",
                }
                for call in turn
            ]
            messages.append({"role": "user", "content": results})
        shown = [{"name": _dashed(tool["name"]), "input_schema": tool["inputSchema"]} for tool in tools]
        lines.append(json.dumps({"model": "m", "max_tokens": 100, "tools": shown, "messages": messages}))
    return lines


def gemini(conversations: list[list[list[Sent]]], catalogs: list[list[dict[str, Any]]]) -> list[str]:
    """One generateContent request record a conversation: tools and contents."""
    lines = []
    for turns, tools in zip(conversations, catalogs, strict=True):
        contents: list[dict[str, Any]] = [{"role": "user", "parts": [{"text": "Please help."}]}]
        for turn in turns:
            calls = [
                {"functionCall": {"id": call.id, "name": call.tool, "args": _object(call)}} for call in turn
            ]
            contents.append({"role": "model", "parts": calls})
            responses = [
                {
                    "functionResponse": {
                        "id": call.id,
                        "name": call.tool,
                        "response": {"result": "ok"}
                        if call.status == "valid"
                        else {"error": _answer_text(call)},
                    }
                }
                for call in turn
            ]
            contents.append({"role": "user", "parts": responses})
        declarations = [{"name": tool["name"], "parametersJsonSchema": tool["inputSchema"]} for tool in tools]
        lines.append(json.dumps({"tools": [{"functionDeclarations": declarations}], "contents": contents}))
    return lines


def mcp(conversations: list[list[list[Sent]]], catalogs: list[list[dict[str, Any]]]) -> list[str]:
    """One MCP session a conversation, a JSON-RPC message a line: initialize, tools/list, then each
    turn's tools/call requests and their results."""
    lines = []
    for turns, tools in zip(conversations, catalogs, strict=True):
        messages: list[dict[str, Any]] = [
            {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25"}},
            {"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": "2025-11-25"}},
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
            {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
            {"jsonrpc": "2.0", "id": 1, "result": {"tools": tools}},
        ]
        identifier = 1
        for turn in turns:
            numbered = []
            for call in turn:
                identifier += 1
                numbered.append((identifier, call))
                params = {"name": call.tool, "arguments": _object(call)}
                messages.append(
                    {"jsonrpc": "2.0", "id": identifier, "method": "tools/call", "params": params}
                )
            for number, call in numbered:
                content = [{"type": "text", "text": _answer_text(call)}]
                result = {"content": content, "isError": call.status != "valid"}
                messages.append({"jsonrpc": "2.0", "id": number, "result": result})
        lines += [json.dumps(message) for message in messages]
    return lines


def any_value(value: Any) -> dict[str, Any]:
    """A JSON value as OTLP's AnyValue (OTLP JSON writes an int64 as a string)."""
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, int):
        return {"intValue": str(value)}
    if isinstance(value, float):
        return {"doubleValue": value}
    if isinstance(value, str):
        return {"stringValue": value}
    if isinstance(value, list):
        return {"arrayValue": {"values": [any_value(item) for item in value]}}
    if isinstance(value, dict):
        return {
            "kvlistValue": {"values": [{"key": key, "value": any_value(item)} for key, item in value.items()]}
        }
    return {}


def otel(conversations: list[list[list[Sent]]], catalogs: list[list[dict[str, Any]]]) -> list[str]:
    """One OTLP export a conversation: an execute_tool span a call, the spans of one turn under one
    parent; arguments as a kvlistValue, or as JSON text (a stringValue) for every other call and for
    the broken ones; each span holds its result, with an error status where the call failed."""
    lines = []
    serial = 0
    for number, turns in enumerate(conversations):
        spans = []
        for turn_number, turn in enumerate(turns):
            for call in turn:
                serial += 1
                as_text = call.text is not None or serial % 2 == 0
                arguments = {"stringValue": _text(call)} if as_text else any_value(call.arguments)
                attributes = [
                    {"key": "gen_ai.operation.name", "value": {"stringValue": "execute_tool"}},
                    {"key": "gen_ai.tool.name", "value": {"stringValue": call.tool}},
                    {"key": "gen_ai.tool.call.id", "value": {"stringValue": call.id}},
                    {"key": "gen_ai.conversation.id", "value": {"stringValue": f"conversation-{number}"}},
                    {"key": "gen_ai.tool.call.arguments", "value": arguments},
                    {"key": "gen_ai.tool.call.result", "value": {"stringValue": _answer_text(call)}},
                ]
                spans.append(
                    {
                        "traceId": f"{number:032x}",
                        "spanId": f"{serial:016x}",
                        "parentSpanId": f"{number:08x}{turn_number:08x}",
                        "name": f"execute_tool {call.tool}",
                        "startTimeUnixNano": str(1_700_000_000_000_000_000 + serial),
                        "attributes": attributes,
                        "status": {"code": 1 if call.status == "valid" else 2},
                    }
                )
        scope = {"scope": {"name": "agent"}, "spans": spans}
        lines.append(json.dumps({"resourceSpans": [{"resource": {"attributes": []}, "scopeSpans": [scope]}]}))
    return lines


WRITERS = {
    "openai": openai,
    "openai-responses": openai_responses,
    "anthropic": anthropic,
    "gemini": gemini,
    "mcp": mcp,
    "otel": otel,
}
