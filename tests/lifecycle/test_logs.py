"""The log readers (toolreg._lifecycle.logs), each form on its own edge cases: what a line holds, read
into calls, answers and catalogs; what cannot be read, reported with its line."""

import dataclasses
import io
import json
import tracemalloc

import pytest

from toolreg._lifecycle.logs import (
    LoggedAnswer,
    LoggedCall,
    LoggedCatalog,
    SourceRead,
    Unreadable,
    malformed_kind,
    read_log,
)
from toolreg._lifecycle.logs import mcp as mcp_reader
from toolreg._lifecycle.logs import stream as log_stream
from toolreg._providers.base import object_arguments, read_arguments


def events(*values, form=None):
    """The events of lines given as values (each written as one JSON line) or as text."""
    lines = [value if isinstance(value, str) else json.dumps(value) for value in values]
    return [event for event in read_log(lines, form=form) if not isinstance(event, SourceRead)]


def calls(*values, form=None):
    return [event for event in events(*values, form=form) if isinstance(event, LoggedCall)]


def chat_call(arguments, name="fs-read_file", call_id="c1"):
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


# -- the arguments' malformed kinds ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("", "empty"),
        ('{"path": "a"', "not_json"),
        ("{'path': 'a'}", "not_json"),
        ('{"path": NaN}', "not_json"),
        ('{"path": "a"} {"path": "b"}', "trailing_text"),
        ("[1, 2]", "not_object"),
        ("null", "not_object"),
        ('"{\\"path\\": \\"a\\"}"', "encoded_twice"),
        ('{"path": "a", "path": "b"}', "repeated_key"),
        ("[" * 100_000 + "]" * 100_000, "too_deep"),
        ('{"n": ' + "9" * 5000 + "}", "long_integer"),
    ],
)
def test_arguments_text_that_is_not_one_object_is_malformed_by_kind(text, kind):
    (call,) = calls({"role": "assistant", "tool_calls": [chat_call(text)]})
    assert (call.malformed, call.arguments) == (kind, None)
    assert call.problem  # worded for the model, as the providers' reading words it


def test_each_problem_the_providers_word_has_its_kind():
    # The kinds are read from the providers' own wording: a change there must show here.
    samples = {
        "": "empty",
        "{": "not_json",
        "{} x": "trailing_text",
        "[]": "not_object",
        '"{}"': "encoded_twice",
        '{"a": 1, "a": 2}': "repeated_key",
        "[" * 100_000 + "]" * 100_000: "too_deep",
        "9" * 5000: "long_integer",
    }
    for text, kind in samples.items():
        problem = read_arguments(text)[1]
        assert problem is not None and malformed_kind(problem) == kind, (text[:20], problem)
    assert malformed_kind(object_arguments(5)[1]) == "not_object"
    assert malformed_kind("Some wording no table knows") == "not_json"


@pytest.mark.parametrize(
    ("value", "kind"),
    [
        ('{"path": "a"}', "encoded_twice"),
        ('{"path": "a"', "not_json"),
        ("[1]", "encoded_twice"),
        ("7", "not_object"),
        (7, "not_object"),
    ],
)
def test_a_string_where_an_object_belongs_has_the_kind_its_text_would(value, kind):
    (anthropic,) = calls({"type": "tool_use", "id": "t1", "name": "fs-read_file", "input": value})
    (gemini,) = calls({"functionCall": {"name": "fs.read_file", "args": value}})
    assert anthropic.malformed == gemini.malformed == kind


# -- OpenAI Chat Completions ------------------------------------------------------------------------


def test_openai_chat_messages_responses_and_request_records():
    message = {"role": "assistant", "content": None, "tool_calls": [chat_call('{"path": "a"}')]}
    completion = {"object": "chat.completion", "choices": [{"index": 0, "message": message}]}
    tools = [{"type": "function", "function": {"name": "fs-read_file", "parameters": {"type": "object"}}}]
    record = {
        "model": "m",
        "tools": tools,
        "messages": [
            {"role": "user", "content": "hi"},
            message,
            {"role": "tool", "tool_call_id": "c1", "content": "text"},
        ],
    }
    found = events(message, completion, record, chat_call("{}", call_id="c9"))
    kinds = [type(event).__name__ for event in found]
    assert kinds == ["LoggedCall", "LoggedCall", "LoggedCatalog", "LoggedCall", "LoggedAnswer", "LoggedCall"]
    first, _, catalog, in_record, answer, lone = found
    assert (first.tool, first.name, first.arguments, first.call_id) == (
        "fs-read_file",
        "fs.read_file",
        {"path": "a"},
        "c1",
    )
    assert (first.form, first.line, first.conversation) == ("openai", 1, "<lines>")
    assert catalog.names == ("fs.read_file",) and catalog.tools[0]["inputSchema"] == {"type": "object"}
    assert in_record.conversation == answer.conversation == "<lines>:3"  # a record is its own conversation
    assert (answer.call_id, answer.is_error, answer.key) == ("c1", None, ("", "c1"))
    assert lone.line == 4 and lone.call_id == "c9"


def test_calls_of_one_message_share_a_turn_and_the_next_message_starts_another():
    two = {"role": "assistant", "tool_calls": [chat_call("{}", call_id="a"), chat_call("{}", call_id="b")]}
    one = {"role": "assistant", "tool_calls": [chat_call("{}", call_id="c")]}
    first, second, third = calls(two, one)
    assert first.turn == second.turn < third.turn


def test_parts_that_break_their_form_are_reported_and_the_rest_is_read():
    found = events(
        {"role": "assistant", "tool_calls": [chat_call("{}"), {"function": "x"}]},
        {"role": "assistant", "tool_calls": "many"},
        {"role": "tool", "content": "no id"},
        {"role": "assistant", "tool_calls": [chat_call("{}", call_id=5)]},
    )
    assert isinstance(found[0], LoggedCall)
    assert [(event.kind, event.line) for event in found[1:]] == [
        ("shape", 1),
        ("shape", 2),
        ("shape", 3),
        ("shape", 4),
    ]
    assert "cannot be read" in found[-1].reason


# -- OpenAI Responses -------------------------------------------------------------------------------


def test_openai_responses_items_response_objects_and_request_records():
    item = {"type": "function_call", "call_id": "r1", "name": "fs-read_file", "arguments": '{"path": "a"}'}
    response = {
        "object": "response",
        "output": [{"type": "message", "content": []}, item, {**item, "call_id": "r2"}],
    }
    tools = [
        {"type": "function", "name": "fs-read_file", "parameters": {"type": "object"}},
        {"type": "web_search"},
    ]
    output = {"type": "function_call_output", "call_id": "r1", "output": "text"}
    record = {"tools": tools, "input": [{"role": "user", "content": "hi"}, item, output]}
    found = events(item, response, record, output, {"type": "function_call_output"})
    lone, first, second, catalog, in_record, answer, bare_answer, broken = found
    assert lone.name == "fs.read_file" and lone.form == "openai-responses" and lone.call_id == "r1"
    assert first.turn == second.turn != lone.turn  # one response's calls are one turn
    assert isinstance(catalog, LoggedCatalog) and catalog.names == ("fs.read_file",)  # web_search left out
    assert in_record.conversation == answer.conversation == "<lines>:3"
    assert isinstance(answer, LoggedAnswer) and answer.is_error is None
    assert bare_answer.line == 4 and isinstance(broken, Unreadable)


# -- Anthropic ----------------------------------------------------------------------------------------


def test_anthropic_messages_blocks_and_request_records():
    use = {"type": "tool_use", "id": "t1", "name": "fs-read_file", "input": {"path": "a"}}
    message = {"type": "message", "role": "assistant", "content": [{"type": "text", "text": "x"}, use]}
    result = {"type": "tool_result", "tool_use_id": "t1", "content": "bad", "is_error": True}
    record = {
        "tools": [
            {"name": "fs-read_file", "input_schema": {"type": "object"}},
            {"type": "bash_20250124", "name": "bash"},
        ],
        "messages": [{"role": "user", "content": "hi"}, message, {"role": "user", "content": [result]}],
    }
    found = events(message, use, record, result, {"type": "tool_result"})
    from_message, lone, catalog, in_record, answer, bare, broken = found
    assert (from_message.name, from_message.arguments, from_message.form) == (
        "fs.read_file",
        {"path": "a"},
        "anthropic",
    )
    assert lone.turn != from_message.turn
    assert catalog.names == ("fs.read_file",)  # Anthropic's own tools left out
    assert (answer.call_id, answer.is_error) == ("t1", True)
    assert bare.is_error is True and isinstance(broken, Unreadable) and broken.kind == "shape"
    assert in_record.conversation == "<lines>:3"


# -- Gemini ---------------------------------------------------------------------------------------------


def test_gemini_contents_candidates_parts_and_declarations():
    call = {"functionCall": {"name": "fs.read_file", "args": {"path": "a"}, "id": "g1"}}
    response = {"candidates": [{"content": {"role": "model", "parts": [{"text": "x"}, call]}}]}
    sdk = {"function_call": {"name": "fs.read_file", "args": None, "id": None}, "text": None}
    answer = {"functionResponse": {"name": "fs.read_file", "response": {"error": "bad"}}}
    parameters = {
        "type": "OBJECT",
        "properties": {"path": {"type": "STRING", "nullable": True, "example": "a"}},
        "propertyOrdering": ["path"],
    }
    record = {
        "tools": [{"functionDeclarations": [{"name": "fs.read_file", "parameters": parameters}]}],
        "contents": [
            {"role": "user", "parts": [{"text": "hi"}]},
            {"role": "model", "parts": [call]},
            {"role": "user", "parts": [answer]},
        ],
    }
    found = events(
        response, sdk, record, {"role": "model", "parts": [call]}, {"functionResponse": {"response": {}}}
    )
    first, empty_args, catalog, in_record, named_answer, content_call, broken = found
    assert (first.name, first.call_id, first.arguments) == ("fs.read_file", "g1", {"path": "a"})
    assert (empty_args.arguments, empty_args.call_id) == ({}, None)
    assert catalog.tools[0]["inputSchema"] == {
        "type": "object",
        "properties": {"path": {"type": ["string", "null"]}},
    }
    assert in_record.conversation == named_answer.conversation == "<lines>:3"
    assert (named_answer.call_id, named_answer.name, named_answer.is_error) == (None, "fs.read_file", True)
    assert content_call.line == 4 and isinstance(broken, Unreadable)


# -- MCP transcripts -------------------------------------------------------------------------------------


def rpc(identifier, method=None, **fields):
    message = {"jsonrpc": "2.0", "id": identifier, **fields}
    if method:
        message["method"] = method
    return message


def test_mcp_calls_results_and_catalogs_by_json_rpc_id():
    tool = {"name": "fs.read_file", "inputSchema": {"type": "object"}, "outputSchema": {"type": "object"}}
    found = events(
        rpc(1, "tools/list"),
        rpc(1, result={"tools": [tool], "nextCursor": "p2"}),
        rpc(2, "tools/list", params={"cursor": "p2"}),
        rpc(2, result={"tools": []}),
        {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"},
        rpc(3, "tools/call", params={"name": "fs.read_file", "arguments": {"path": "a"}}),
        rpc("3", "tools/call", params={"name": "fs.read_file"}),
        rpc(3, result={"content": [], "structuredContent": {"n": 1}, "isError": False}),
        rpc("3", error={"code": -32602, "message": "bad"}),
        rpc(9, result={"content": []}),  # answers no request the log holds
        [rpc(4, "tools/call", params={"name": "x", "arguments": 5}), rpc(5, "tools/call", params=[])],
    )
    first_page, second_page, numbered, texted, result, refused, batched, broken = found
    assert first_page.replaces and not second_page.replaces and first_page.names == ("fs.read_file",)
    assert (numbered.call_id, texted.call_id, texted.arguments) == ("3", '"3"', {})  # 3 and "3" differ
    assert numbered.turn == texted.turn  # sent before any result: one turn
    assert (result.call_id, result.is_error, result.has_output, result.output) == ("3", False, True, {"n": 1})
    assert (refused.call_id, refused.is_error, refused.name) == ('"3"', True, "fs.read_file")
    assert batched.line == 11 and batched.malformed == "not_object" and batched.turn > numbered.turn
    assert isinstance(broken, Unreadable) and broken.line == 11


def test_mcp_initialize_starts_a_new_session_whose_ids_count_again():
    found = calls(
        rpc(0, "initialize"),
        rpc(1, "tools/call", params={"name": "a", "arguments": {}}),
        rpc(0, "initialize"),
        rpc(1, "tools/call", params={"name": "a", "arguments": {}}),
    )
    assert found[0].key != found[1].key and found[0].call_id == found[1].call_id


def test_mcp_pending_requests_are_bounded(monkeypatch):
    monkeypatch.setattr(mcp_reader, "MAX_PENDING_REQUESTS", 3)
    lines = [rpc(number, "tools/call", params={"name": "a", "arguments": {}}) for number in range(10)]
    lines += [rpc(number, result={"content": []}) for number in range(10)]
    answers = [event for event in events(*lines) if isinstance(event, LoggedAnswer)]
    assert [answer.call_id for answer in answers] == ["7", "8", "9"]  # the oldest were forgotten


# -- OpenTelemetry ---------------------------------------------------------------------------------------


def span(arguments, **more):
    attributes = [
        {"key": "gen_ai.operation.name", "value": {"stringValue": "execute_tool"}},
        {"key": "gen_ai.tool.name", "value": {"stringValue": "fs.read_file"}},
        {"key": "gen_ai.tool.call.id", "value": {"stringValue": "o1"}},
        {"key": "gen_ai.tool.call.arguments", "value": arguments},
        *({"key": key, "value": value} for key, value in more.items()),
    ]
    return {"traceId": "ab", "parentSpanId": "p1", "name": "execute_tool", "attributes": attributes}


def otlp(*spans):
    return {"resourceSpans": [{"scopeSpans": [{"spans": list(spans)}, {"spans": "no"}]}, "odd"]}


def test_otel_arguments_as_an_object_and_as_text():
    kvlist = {
        "kvlistValue": {
            "values": [
                {"key": "n", "value": {"intValue": "42"}},
                {"key": "x", "value": {"doubleValue": 1.5}},
                {"key": "ok", "value": {"boolValue": True}},
                {"key": "tags", "value": {"arrayValue": {"values": [{"stringValue": "a"}, {}]}}},
                {"key": "odd", "value": {"intValue": "4x"}},
            ]
        }
    }
    result = {"stringValue": "done"}
    chat = {
        "name": "chat",
        "attributes": [{"key": "gen_ai.operation.name", "value": {"stringValue": "chat"}}],
    }
    found = events(
        otlp(span(kvlist, **{"gen_ai.tool.call.result": result}), chat),
        otlp(span({"stringValue": '{"path": "a"}'}, **{"gen_ai.conversation.id": {"stringValue": "c7"}})),
        otlp(span({"stringValue": '{"path": '})),
        otlp({"name": "execute_tool x", "attributes": []}),
    )
    as_object, answer, as_text, truncated, nameless = found
    assert as_object.arguments == {"n": 42, "x": 1.5, "ok": True, "tags": ["a", None], "odd": "4x"}
    assert (as_object.form, as_object.conversation, as_object.call_id) == ("otel", "trace:ab", "o1")
    assert (answer.call_id, answer.is_error) == ("o1", False)
    assert (as_text.arguments, as_text.conversation) == ({"path": "a"}, "conversation:c7")
    assert truncated.malformed == "not_json"
    assert isinstance(nameless, Unreadable) and nameless.kind == "shape"


def test_otel_spans_of_one_parent_are_one_turn_in_start_order():
    first = {**span({}), "startTimeUnixNano": "20", "spanId": "b"}
    second = {**span({"kvlistValue": {}}), "startTimeUnixNano": "10", "spanId": "a"}
    other = {**span({}), "parentSpanId": "p2", "startTimeUnixNano": "30"}
    error = {**span({}), "startTimeUnixNano": "x", "status": {"code": "STATUS_CODE_ERROR"}}
    error["attributes"].append({"key": "gen_ai.tool.call.result", "value": {"stringValue": "e"}})
    found = events(otlp(first, second, other, error))
    turns = [event.turn for event in found if isinstance(event, LoggedCall)]
    assert turns[0] == turns[1] == turns[2] < turns[3]  # "x" sorts first, under parent p1
    assert [event.is_error for event in found if isinstance(event, LoggedAnswer)] == [True]


# -- the log itself: lines, arrays, files ----------------------------------------------------------------


def test_a_value_of_no_known_form_and_a_forced_form():
    message = {"role": "assistant", "tool_calls": [chat_call("{}")]}
    found = events({"foo": 1}, 5, [7], "", "   ", message)
    assert [(event.line, event.kind) for event in found[:3]] == [(1, "form"), (2, "form"), (3, "form")]
    assert isinstance(found[3], LoggedCall)
    forced = events(message, {"type": "tool_use", "id": "t", "name": "a", "input": {}}, form="anthropic")
    assert isinstance(forced[0], Unreadable) and "no anthropic value" in forced[0].reason
    assert isinstance(forced[1], LoggedCall)
    with pytest.raises(ValueError, match="no log form 'xml'"):
        read_log([], form="xml")


def test_a_request_and_its_response_logged_together_are_one_conversation():
    request = {"messages": [{"role": "user", "content": "hi"}], "tools": []}
    response = {"choices": [{"message": {"role": "assistant", "tool_calls": [chat_call("{}")]}}]}
    catalog, call = events({"request": request, "response": response})
    assert catalog.conversation == call.conversation == "<lines>:1"


def test_lines_that_are_no_json_are_reported_with_their_numbers(tmp_path):
    path = tmp_path / "log.jsonl"
    good = json.dumps({"role": "assistant", "tool_calls": [chat_call("{}")]})
    path.write_bytes(
        b"\n".join(
            [
                good.encode(),
                b"not json",
                b'{"a": \xff}',
                b'{"a": NaN}',
                b'{"a": "\\ud800"}',
                b"[" * 200_000,
                b'{"n": ' + b"1" * 5000 + b"}",
                b"",
                good.encode(),
            ]
        )
    )
    found = list(read_log(path))
    problems = [(event.line, event.reason.split(":")[0]) for event in found if isinstance(event, Unreadable)]
    assert problems == [
        (2, "not JSON"),
        (3, "not UTF-8 text (byte 6)"),
        (4, "not JSON"),
        (5, "not Unicode text"),
        (6, "not JSON Python can read"),
        (7, "not JSON Python can read"),
    ]
    assert [event.line for event in found if isinstance(event, LoggedCall)] == [1, 9]
    assert found[-1] == SourceRead(str(path), 9, 2)


def test_a_line_past_the_bound_is_reported_without_being_held(tmp_path, monkeypatch):
    monkeypatch.setattr(log_stream, "MAX_LINE_BYTES", 200)
    path = tmp_path / "log.jsonl"
    good = json.dumps({"role": "assistant", "tool_calls": [chat_call("{}")]})
    path.write_text(good + "\n" + '{"x": "' + "a" * 300_000 + '"}\n' + good + "\n")
    found = list(read_log(path))
    assert [type(event).__name__ for event in found] == [
        "LoggedCall",
        "Unreadable",
        "LoggedCall",
        "SourceRead",
    ]
    assert found[1].line == 2 and "longer than 200 bytes" in found[1].reason


def test_one_json_array_over_many_lines(tmp_path):
    items = [{"type": "function_call", "call_id": f"r{n}", "name": "a", "arguments": "{}"} for n in range(3)]
    whole = tmp_path / "whole.json"
    whole.write_text(json.dumps(items, indent=2))
    assert [event.line for event in read_log(whole) if isinstance(event, LoggedCall)] == [2, 8, 14]
    cut = tmp_path / "cut.json"
    text = json.dumps(items, indent=2)[:-40]
    cut.write_text(text)
    found = list(read_log(cut))
    assert [type(event).__name__ for event in found] == [
        "LoggedCall",
        "LoggedCall",
        "Unreadable",
        "SourceRead",
    ]
    assert found[2].line == 14 and found[-1].lines == text.count("\n") + 1
    for text, reason in [
        ("[\n  1, 2 3\n]", "expected , or ]"),
        ("[\n  [1]\n] x", "text after the closing ]"),
        ("[\n  1,\n", "no closing ]"),
        ("[\n  1,\n  NaN]", "NaN is not JSON"),
    ]:
        path = tmp_path / "odd.json"
        path.write_text(text)
        (problem,) = [
            event for event in read_log(path) if isinstance(event, Unreadable) and event.kind == "json"
        ]
        assert reason in problem.reason
    empty = tmp_path / "empty.json"
    empty.write_text("[\n]\n")
    assert list(read_log(empty)) == [SourceRead(str(empty), 2, 0)]


def test_an_array_document_is_read_in_pieces_not_whole(tmp_path, monkeypatch):
    monkeypatch.setattr(log_stream, "_CHUNK", 64)
    items = [
        {"type": "function_call", "call_id": f"r{n}", "name": "a", "arguments": "{}" + " " * 100}
        for n in range(5)
    ]
    path = tmp_path / "log.json"
    path.write_text("[\n" + ",\n".join(json.dumps(item) for item in items) + "\n]\n")
    assert [event.call_id for event in read_log(path) if isinstance(event, LoggedCall)] == [
        f"r{n}" for n in range(5)
    ]
    monkeypatch.setattr(log_stream, "MAX_LINE_BYTES", 50)
    (problem,) = [event for event in read_log(path) if isinstance(event, Unreadable)]
    assert "longer than 50 characters" in problem.reason


def test_paths_files_lines_and_values(tmp_path):
    line = json.dumps({"role": "assistant", "tool_calls": [chat_call("{}")]})
    path = tmp_path / "a.jsonl"
    path.write_text(line + "\n")
    assert [type(event) for event in read_log(str(path))] == [LoggedCall, SourceRead]
    opened = list(read_log(io.StringIO(line + "\n")))
    assert opened[0].source == "<file>" and opened[-1] == SourceRead("<file>", 1, 1)
    mixed = list(read_log([path, line.encode(), b"\xff", json.loads(line)]))
    assert [(type(event).__name__, event.source) for event in mixed] == [
        ("LoggedCall", str(path)),
        ("SourceRead", str(path)),
        ("LoggedCall", "<lines>"),
        ("Unreadable", "<lines>"),
        ("LoggedCall", "<lines>"),
        ("SourceRead", "<lines>"),
    ]
    (missing,) = read_log(tmp_path / "missing.jsonl")
    assert missing.kind == "file" and missing.line == 0 and "No such file" in missing.reason


def test_the_reader_holds_no_line_it_has_read():
    line = json.dumps({"role": "assistant", "tool_calls": [chat_call('{"path": "' + "x" * 200 + '"}')]})

    def stream(count):
        for _ in range(count):
            yield line

    tracemalloc.start()
    try:
        count = sum(1 for _ in read_log(stream(2_000)))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert count == 2_001
    assert peak < 100_000  # the 2,000 lines of 300 characters, held, would be 600 KB and more


ODD_SHAPES = [
    ({"role": "assistant", "tool_calls": []}, []),
    ({"choices": [5, {"message": "x"}]}, []),
    ({"role": "assistant", "content": ["text", {"type": "image"}]}, []),
    ({"messages": [5, {"content": "no role"}], "tools": None}, []),
    ({"messages": [], "tools": "all"}, ["shape"]),
    ({"messages": [], "tools": [5]}, ["shape"]),
    ({"messages": [], "tools": [5, {"name": "a", "inputSchema": {}}]}, ["shape"]),
    ({"messages": [], "tools": [{"name": "a", "inputSchema": {}}, {"name": 5}]}, ["LoggedCatalog"]),
    ({"input": "just text", "tools": []}, ["LoggedCatalog"]),
    ({"object": "response", "output": [5, {"type": "message"}]}, []),
    ({"contents": [5, {"role": "model", "parts": "x"}], "candidates": []}, []),
    ({"candidates": [5, {"content": {"role": "model", "parts": [5]}}]}, []),
    ({"functionCall": "not an object"}, ["shape"]),
    ({"functionCall": {"args": {}}}, ["shape"]),
    ({"contents": [], "tools": [5, {"functionDeclarations": "x"}, {"functionDeclarations": [5]}]}, ["shape"]),
    (
        {
            "contents": [],
            "tools": [
                {
                    "function_declarations": [
                        {
                            "name": "f",
                            "parameters": {"type": "ARRAY", "items": {"type": "INTEGER"}, "anyOf": [True]},
                        }
                    ]
                }
            ],
        },
        ["LoggedCatalog"],
    ),
    ({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"arguments": {}}}, ["shape"]),
    ({"jsonrpc": "2.0", "id": 2, "method": "tools/call"}, ["shape"]),
    ({"jsonrpc": "2.0", "id": True, "method": "tools/call", "params": {"name": "a"}}, []),
    (
        {"resourceSpans": [{"scopeSpans": [{"spans": [{"name": "execute_tool", "attributes": "x"}]}]}]},
        ["shape"],
    ),
    ({"request": {"messages": []}, "response": "none"}, []),
]


@pytest.mark.parametrize(("value", "kinds"), ODD_SHAPES)
def test_odd_shapes_are_read_or_reported_never_raised(value, kinds):
    found = events(value)
    assert [getattr(event, "kind", type(event).__name__) for event in found] == kinds


def test_odd_shapes_carry_what_they_can():
    (catalog,) = events(ODD_SHAPES[15][0])
    assert catalog.tools[0]["inputSchema"] == {"type": "array", "items": {"type": "integer"}, "anyOf": [True]}
    (catalog,) = events(ODD_SHAPES[7][0])
    assert catalog.names == ("a",)
    found = events(
        {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 1, "error": {"code": 1}},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 2, "result": {"tools": "none"}},
    )
    assert [event.kind for event in found] == ["shape"]
    spans = otlp({"name": "execute_tool", "attributes": span({})["attributes"]})
    (call,) = events(spans)
    assert call.conversation == "<lines>" and call.key == ("", "o1")
    assert LoggedCall("a", {}, 1, "openai", "a").key is None


def test_an_array_document_cut_in_a_character_or_too_deep(tmp_path):
    path = tmp_path / "log.json"
    path.write_bytes(b'[\n  {"a": "\xc3"}\n]\n')
    (problem,) = [event for event in read_log(path) if isinstance(event, Unreadable)]
    assert "not UTF-8" in problem.reason
    path.write_text("[\n" + "[" * 100_000 + "]" * 100_000 + "\n]\n")
    (problem,) = [event for event in read_log(path) if isinstance(event, Unreadable)]
    assert "nested too deeply" in problem.reason


def test_a_file_that_fails_while_read_is_reported():
    class Failing(io.BytesIO):
        name = "flaky.jsonl"

        def readline(self, size=-1):
            raise OSError(5, "Input/output error")

    (failed, end) = read_log(Failing())
    assert (failed.kind, failed.line, end.lines) == ("file", 0, 0)
    assert "Input/output error" in failed.reason


def test_what_a_line_holds_besides_one_value():
    found = events('{"a": "b}', '{"a": 1} {"b": 2}', '  {"role": "user", "content": "x"}  ')
    assert [event.reason for event in found] == [
        "not JSON: Unterminated string starting at at column 7",
        "not JSON: Extra data at column 10",
    ]


def test_the_layouts_remembered_stay_bounded():
    many = {f"key{number}": number for number in range(40)}  # too many keys to remember
    assert [event.kind for event in events(many)] == ["form"]
    assert tuple(many) not in log_stream._CANDIDATES
    assert len(events(*({f"k{number}": 1} for number in range(1100)))) == 1100
    assert len(log_stream._CANDIDATES) <= 1024


def test_an_array_document_with_a_number_too_long(tmp_path):
    path = tmp_path / "log.json"
    path.write_text("[\n" + "1" * 5000 + "\n]\n")
    (problem,) = [event for event in read_log(path) if isinstance(event, Unreadable)]
    assert "too many digits" in problem.reason


def test_events_made_without_their_init_are_the_dataclasses_they_claim():
    found = events(
        {"role": "assistant", "tool_calls": [chat_call('{"path": "a"}')]},
        {"role": "tool", "tool_call_id": "c1", "content": "done"},
    )
    for event in found:
        # replace() builds the same event through the dataclass's own __init__
        assert dataclasses.replace(event) == event
        assert set(vars(event)) == {field.name for field in dataclasses.fields(event)}
        with pytest.raises(dataclasses.FrozenInstanceError):
            event.line = 2
