"""toolreg.replay and ``toolreg replay``: the same calls in the six log forms give the same figures,
and the right ones; drift, repairs, MCP's catalogs and outputs, masking, the report's JSON Schema,
bounded state, hostile lines, and the command line's output and exit codes."""

import json

import pytest

import toolreg
import toolreg._jsonschema.validator
from tests import replay_logs
from tests.conftest import WALKED_VALUES
from toolreg._cli import main
from toolreg._lifecycle.replay import ReplayReport, render
from toolreg._lifecycle.replay import counting as replay_module


@pytest.fixture(autouse=True)
def _walk_first(monkeypatch):
    # A replay sees a few calls of each of many tools: the validator's own policy (walk the first
    # values, generate code later) is what it runs with, not the suite's code from the first call.
    monkeypatch.setattr(toolreg._jsonschema.validator, "WALKED_VALUES", WALKED_VALUES)


CONVERSATIONS, CATALOGS, EVERY_TOOL = replay_logs.conversations()
EXPECTED = replay_logs.expected(CONVERSATIONS)
# What depends on how a form writes the calls, not on the calls.
PLACE_FIELDS = (
    "forms",
    "catalog",
    "sources",
    "lines",
    "values",
    "unreadable",
    "unreadable_lines",
    "malformed_lines",
)


def held_to_schema(report: ReplayReport) -> dict:
    """The report's to_dict(), checked against ReplayReport.SCHEMA by toolreg's own validator."""
    found = report.to_dict()
    assert toolreg.validate(ReplayReport.SCHEMA, found) == []
    assert json.loads(json.dumps(found)) == found  # plain JSON
    return found


def figures(found: dict) -> dict:
    return {key: value for key, value in found.items() if key not in PLACE_FIELDS}


def as_expected(found: dict) -> dict:
    """A report's figures in the shape of replay_logs.expected()."""
    counts = (
        "calls",
        "valid",
        "invalid",
        "malformed",
        "first_tries",
        "first_try_valid",
        "answered_failed",
        "repaired",
    )
    totals = {key: found[key] for key in (*counts, "answered", "unknown_tools") if found[key]}
    tools = {tool["name"]: {key: tool[key] for key in counts if tool[key]} for tool in found["tools"]}
    errors = {
        tool["name"]: {(error["keyword"], error["pointer"]): error["count"] for error in tool["errors"]}
        for tool in found["tools"]
        if tool["errors"]
    }
    return {
        "totals": totals,
        "malformed_kinds": found["malformed_kinds"],
        "unknown_names": {entry["name"]: entry["count"] for entry in found["unknown_names"]},
        "tools": tools,
        "errors": errors,
    }


def test_the_extract_breaks_calls_in_every_way():
    statuses = {turns[0][0].status for turns in CONVERSATIONS}
    assert statuses == {"valid", "invalid", "encoded_twice", "not_json", "unknown"}
    errors = {turns[0][0].error[0] for turns in CONVERSATIONS if turns[0][0].error}
    assert errors == {"type", "required", "enum"}
    assert EXPECTED["totals"]["repaired"] > 0 and EXPECTED["totals"]["calls"] > 100


def test_the_same_calls_in_the_six_log_forms_give_the_same_right_figures():
    reports = {}
    for form, write in replay_logs.WRITERS.items():
        found = held_to_schema(toolreg.replay(write(CONVERSATIONS, CATALOGS), catalog=EVERY_TOOL, top=50))
        assert as_expected(found) == EXPECTED, form
        assert found["forms"] == {form: EXPECTED["totals"]["calls"]}
        assert found["unreadable"] == {} and found["drift"] == 0
        reports[form] = figures(found)
    first = reports["openai"]
    assert all(report == first for report in reports.values())


def test_the_catalog_a_log_shows_judges_it_when_none_is_given():
    for form, write in replay_logs.WRITERS.items():
        found = held_to_schema(toolreg.replay(write(CONVERSATIONS, CATALOGS), form=form, top=50))
        if form == "otel":  # spans show no catalog: only malformed arguments can be told
            assert found["catalog"] == "none"
            assert found["unjudged"] + found["malformed"] == found["calls"] and found["valid"] == 0
        else:
            assert found["catalog"] == "log" and as_expected(found) == EXPECTED, form


def chat_record(tools, *turns, answers=True):
    """A Chat Completions request record: each turn one assistant message of (id, name, arguments)."""
    messages = [{"role": "user", "content": "go"}]
    for turn in turns:
        calls = [
            {
                "id": call_id,
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(arguments)},
            }
            for call_id, name, arguments in turn
        ]
        messages.append({"role": "assistant", "tool_calls": calls})
        if answers:
            messages += [
                {"role": "tool", "tool_call_id": call_id, "content": "answer"} for call_id, _, _ in turn
            ]
    shown = [
        {"type": "function", "function": {"name": name, "parameters": schema}}
        for name, schema in tools.items()
    ]
    return json.dumps({"tools": shown, "messages": messages})


COUNT = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}


def test_drift_counts_calls_valid_as_shown_and_invalid_against_the_catalog_given():
    log = [chat_record({"count": COUNT, "gone": COUNT}, [("a", "count", {"n": 1}), ("b", "gone", {"n": 1})])]
    log.append(chat_record({"count": COUNT}, [("c", "count", {"n": "1"})]))
    given = [{"name": "count", "inputSchema": {"type": "object", "properties": {"n": {"type": "string"}}}}]
    found = held_to_schema(toolreg.replay(log, catalog=given))
    # a: valid as shown, invalid now (drift); b: its tool is gone (drift, unknown); c: valid now.
    assert (found["drift"], found["unknown_tools"], found["valid"], found["invalid"]) == (2, 1, 1, 1)
    assert found["catalog"] == "both" and found["tools"][0]["drift"] == 1
    assert "drift" in render(toolreg.replay(log, catalog=given))
    assert held_to_schema(toolreg.replay(log))["drift"] == 0


def test_a_repair_counts_within_the_window_and_only_after_the_errors_were_answered():
    failed, valid = ("x1", "count", {"n": "1"}), ("x9", "count", {"n": 1})
    late = chat_record({"count": COUNT}, [failed], [("o1", "other", {})], [("o2", "other", {})], [valid])
    by_window = {window: toolreg.replay([late], repair_window=window) for window in (2, 3)}
    assert (by_window[2].repaired, by_window[3].repaired) == (0, 1)
    assert (by_window[2].first_tries, by_window[3].first_tries) == (2, 1)  # "other" is unknown: no figures
    assert by_window[3].repair_rate == 1.0 and by_window[3].answered_failed == 1
    unanswered = toolreg.replay([chat_record({"count": COUNT}, [failed], [valid], answers=False)])
    assert (unanswered.answered, unanswered.answered_failed, unanswered.repaired) == (0, 0, 0)
    assert unanswered.first_tries == 1 and unanswered.repair_rate is None
    assert "holds no answers" in render(unanswered)
    same_turn = toolreg.replay([chat_record({"count": COUNT}, [failed, valid])])
    assert (same_turn.first_tries, same_turn.first_try_valid, same_turn.repaired) == (2, 1, 0)


def test_a_request_record_repeating_the_conversation_counts_each_call_once():
    first = [("a", "count", {"n": "1"})]
    second = [("b", "count", {"n": 1})]
    log = [chat_record({"count": COUNT}, first), chat_record({"count": COUNT}, first, second)]
    report = toolreg.replay(log)
    assert (report.calls, report.repeated, report.valid, report.invalid) == (2, 1, 1, 1)
    assert (report.first_tries, report.repaired, report.answered) == (1, 1, 2)


def rpc(identifier, method=None, **fields):
    message = {"jsonrpc": "2.0", "id": identifier, **fields}
    if method:
        message["method"] = method
    return json.dumps(message)


def call(identifier, name, arguments):
    return rpc(identifier, "tools/call", params={"name": name, "arguments": arguments})


def test_mcp_tools_list_is_the_catalog_in_force_and_results_meet_the_output_schema():
    counter = {
        "name": "count",
        "inputSchema": COUNT,
        "outputSchema": {"type": "object", "required": ["total"]},
    }
    log = [
        rpc(1, "tools/list"),
        rpc(1, result={"tools": [counter], "nextCursor": "2"}),
        rpc(2, "tools/list", params={"cursor": "2"}),
        rpc(2, result={"tools": [{"name": "other", "inputSchema": {"type": "object"}}]}),
        call(3, "count", {"n": 1}),
        rpc(3, result={"content": [], "structuredContent": {"total": 1}}),
        call(4, "count", {"n": 2}),
        rpc(4, result={"content": [], "structuredContent": {"sum": 2}}),
        call(5, "count", {"n": 3}),
        rpc(5, result={"content": []}),  # no structuredContent where the tool promises it
        call(6, "count", {"n": 4}),
        rpc(6, result={"content": [], "isError": True}),  # an error is no output to check
        call(7, "other", {}),
        rpc(7, result={"content": []}),
        rpc(8, "tools/list"),
        rpc(8, result={"tools": [{"name": "other", "inputSchema": {"type": "object"}}]}),
        call(9, "count", {"n": 1}),
    ]
    report = toolreg.replay(log)
    assert (report.valid, report.unknown_tools) == (5, 1)  # the last tools/list left count out
    assert (report.outputs_checked, report.outputs_invalid) == (3, 2)
    (count,) = [tool for tool in report.tools if tool.name == "count"]
    assert (count.outputs_checked, count.outputs_invalid) == (3, 2)
    assert "2 of 3 break their schema" in render(report)


SECRETS = ("987654321", "s3cr3t-key", "s3cr3t-dup")


def test_mask_keeps_every_argument_value_out_of_the_report():
    schema = {
        "type": "object",
        "properties": {"n": {"type": "integer"}, "word": {"type": "string", "maxLength": 3}},
        "additionalProperties": {"type": "integer"},
    }
    number, key, dup = SECRETS
    lines = [
        chat_record({"tool": schema}, [("a", "tool", {"n": number})], [("b", "tool", {"word": "lengthy"})]),
        chat_record({"tool": schema}, [("c", "tool", {key: "x"})]),
        json.dumps(
            {
                "role": "assistant",
                "tool_calls": [
                    {"id": "d", "function": {"name": "tool", "arguments": f'{{"{dup}": 1, "{dup}": 2}}'}}
                ],
            }
        ),
    ]
    plain = toolreg.replay(lines)
    shown = "\n".join(render(plain, how) for how in ("text", "markdown", "json"))
    # Unmasked, the hint quotes the number, the pointer names the key and the length is told.
    assert number in shown and key in shown and "is 7" in shown
    masked = toolreg.replay(lines, mask=True)
    assert masked.masked and (masked.invalid, masked.malformed) == (plain.invalid, plain.malformed) == (3, 1)
    for how in ("text", "markdown", "json"):
        rendered = render(masked, how)
        assert not any(secret in rendered for secret in SECRETS) and "is 7" not in rendered, how
    held_to_schema(masked)


def test_the_report_schema_refuses_what_to_dict_never_writes():
    found = held_to_schema(toolreg.replay([chat_record({"count": COUNT}, [("a", "count", {"n": 1})])]))
    for broken in (
        {**found, "valid": -1},
        {**found, "extra": 1},
        {**found, "catalog": "elsewhere"},
        {**found, "malformed_kinds": {"odd": 1}},
        {key: value for key, value in found.items() if key != "tools"},
    ):
        assert toolreg.validate(ReplayReport.SCHEMA, broken) != []


def test_no_catalog_hostile_lines_and_odd_names_never_crash():
    lines = [
        json.dumps(
            {
                "role": "assistant",
                "tool_calls": [{"id": "a", "function": {"name": "x\u202e\u0007", "arguments": "{"}}],
            }
        ),
        "[" * 50_000,
        '{"n": ' + "7" * 5000 + "}",
        '{"a": NaN}',
        '{"role": "assistant", "content": "\\udc00"}',
        json.dumps(
            {"role": "assistant", "tool_calls": [{"id": "b", "function": {"name": "y", "arguments": "{}"}}]}
        ),
    ]
    report = toolreg.replay(lines)
    assert (report.calls, report.malformed, report.unjudged, report.catalog) == (2, 1, 1, "none")
    assert report.unreadable == {"json": 4}
    assert [place.line for place in report.unreadable_lines] == [2, 3, 4, 5]
    assert report.malformed_lines[0].line == 1
    for how in ("text", "markdown", "json"):
        assert render(report, how).isprintable() or "\n" in render(report, how)
        assert "\u202e" not in render(report, how)
    huge = {"type": "object", "properties": {"t": {"type": "string", "maxLength": 10}}}
    big = toolreg.replay([chat_record({"big": huge}, [("h", "big", {"t": "z" * 1_000_000})])])
    assert big.invalid == 1 and len(render(big)) < 5_000


def test_a_catalog_toolreg_refuses_leaves_its_calls_unjudged():
    odd = {"type": "object", "properties": {"n": {"type": "integer"}}, "frobnicate": True}
    report = toolreg.replay(
        [chat_record({"odd": odd, "count": COUNT}, [("a", "odd", {"n": 1}), ("b", "count", {"n": 1})])]
    )
    assert (report.unjudged, report.valid) == (1, 1)
    assert report.refused_tools and report.refused_tools[0][0] == "odd"
    assert "refused tools" in render(report)


def test_replays_state_stays_within_its_bounds(monkeypatch):
    monkeypatch.setattr(replay_module, "MAX_CONVERSATIONS", 5)
    monkeypatch.setattr(replay_module, "MAX_CALL_IDS", 7)
    monkeypatch.setattr(replay_module, "MAX_TRACKED", 4)
    monkeypatch.setattr(replay_module, "MAX_TOOLS", 3)
    seen = []
    original = replay_module._Replay.call

    def watched(self, event):
        original(self, event)
        seen.append((len(self.conversations), len(self.calls), len(self.unknown.counts), len(self.tools)))

    monkeypatch.setattr(replay_module._Replay, "call", watched)
    tools = {f"t{number}": COUNT for number in range(6)}
    lines = [
        chat_record(
            tools, [(f"c{number}", f"t{number % 6}", {"n": "x"}), (f"u{number}", f"unknown{number}", {})]
        )
        for number in range(40)
    ]
    report = toolreg.replay(lines, top=10)
    assert max(seen) <= (5, 7, 4, 3) and len(seen) == 80
    assert report.calls == 80 and report.unknown_tools == 40 and len(report.unknown_names) == 4
    assert sum(tool.calls for tool in report.tools) == 21  # the calls to the three tools tabled


def test_progress_is_reported_every_two_seconds(monkeypatch):
    clock = iter(range(0, 10_000, 3))
    monkeypatch.setattr(replay_module.time, "monotonic", lambda: next(clock))
    heard = []
    lines = [chat_record({"count": COUNT}, [(f"c{n}", "count", {"n": n})]) for n in range(400)]
    toolreg.replay(lines, progress=lambda done, calls: heard.append((done, calls)))
    assert heard and heard[-1][1] <= 400 and all(done >= 1 for done, _ in heard)


def test_bad_arguments_to_replay():
    with pytest.raises(ValueError, match="repair_window"):
        toolreg.replay([], repair_window=0)
    with pytest.raises(ValueError, match="top"):
        toolreg.replay([], top=True)
    with pytest.raises(ValueError, match="no report format"):
        render(toolreg.replay([]), "html")


# -- the command line ------------------------------------------------------------------------------


@pytest.fixture
def log_files(tmp_path):
    log = tmp_path / "log.jsonl"
    record = chat_record({"count": COUNT}, [("a", "count", {"n": "1"})], [("b", "count", {"n": 1})])
    log.write_text(record + "\n" + chat_record({"count": COUNT}, [("c", "count", {"n": 2})]) + "\n")
    catalog = tmp_path / "catalog.json"
    catalog.write_text(json.dumps({"tools": [{"name": "count", "inputSchema": COUNT}]}))
    return log, catalog


def test_the_command_prints_a_table_json_or_markdown(log_files, capsys):
    log, catalog = log_files
    assert main(["replay", str(log)]) == 0
    text = capsys.readouterr().out
    assert "valid          2 (66.7%)" in text and "count" in text and "first try" in text
    assert main(["replay", str(log), "--json", "--catalog", str(catalog)]) == 0
    found = json.loads(capsys.readouterr().out)
    assert toolreg.validate(ReplayReport.SCHEMA, found) == [] and found["catalog"] == "both"
    assert (found["valid"], found["invalid"], found["repaired"]) == (2, 1, 1)
    assert main(["replay", str(log), "--format", "markdown", "--format", "openai"]) == 0
    assert capsys.readouterr().out.startswith("## toolreg replay")
    assert main(["replay", str(log), "--format", "anthropic"]) == 0  # forced: nothing read as calls
    assert "calls          0" in capsys.readouterr().out


def test_min_valid_and_the_exit_codes(log_files, tmp_path, capsys):
    log, _catalog = log_files
    assert main(["replay", str(log), "--min-valid", "0.6"]) == 0
    assert main(["replay", str(log), "--min-valid", "0.7"]) == 1
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert main(["replay", str(empty), "--min-valid", "0"]) == 0
    assert main(["replay", str(empty), "--min-valid", "0.1"]) == 1  # no calls: none shown valid
    capsys.readouterr()
    for bad in (
        ["--min-valid", "1.5"],
        ["--format", "html"],
        ["--format", "json", "--format", "text"],
        ["--repair-window", "0"],
        ["--catalog", str(tmp_path / "missing.json")],
    ):
        assert main(["replay", str(log), *bad]) == 2, bad
        assert capsys.readouterr().err.startswith("toolreg: ")
    assert main(["replay", str(log), str(tmp_path / "missing.jsonl")]) == 2  # the report, and 2
    out = capsys.readouterr().out
    assert "unreadable" in out and "missing.jsonl" in out


def test_the_command_reports_progress_on_request(log_files, capsys, monkeypatch):
    log, _ = log_files
    clock = iter(range(0, 10_000, 3))
    monkeypatch.setattr(replay_module.time, "monotonic", lambda: next(clock))
    assert main(["replay", str(log), "--progress"]) == 0
    assert "toolreg replay: " in capsys.readouterr().err


def gemini_line(tools, *turns):
    """A Gemini request record whose calls and responses carry no ids: answers go by the tool's name."""
    contents = [{"role": "user", "parts": [{"text": "go"}]}]
    for name, arguments, error in turns:
        contents.append({"role": "model", "parts": [{"functionCall": {"name": name, "args": arguments}}]})
        response = {"error": "fix it"} if error else {"result": 1}
        contents.append(
            {"role": "user", "parts": [{"functionResponse": {"name": name, "response": response}}]}
        )
    declarations = [{"name": name, "parametersJsonSchema": schema} for name, schema in tools.items()]
    return json.dumps({"tools": [{"functionDeclarations": declarations}], "contents": contents})


def test_answers_without_ids_answer_the_last_call_to_their_tool():
    line = gemini_line({"count": COUNT}, ("count", {"n": "1"}, True), ("count", {"n": 1}, False))
    report = toolreg.replay([line])
    assert (report.answered, report.answered_failed, report.repaired) == (2, 1, 1)
    stray = json.dumps({"functionResponse": {"name": "count", "response": {}}})
    assert toolreg.replay([stray]).answered == 0


def test_a_catalog_that_keeps_changing_stays_bounded(monkeypatch):
    monkeypatch.setattr(replay_module, "MAX_TOOLS", 1)
    sizes = []
    original = replay_module._Replay.catalog

    def watched(self, event):
        original(self, event)
        sizes.append(len(self.validators.registry))

    monkeypatch.setattr(replay_module._Replay, "catalog", watched)
    lines = [
        chat_record(
            {"count": {**COUNT, "description": f"version {number}"}}, [(f"c{number}", "count", {"n": 1})]
        )
        for number in range(12)
    ]
    given = [{"name": "count", "inputSchema": COUNT}]
    report = toolreg.replay(lines, catalog=given)
    assert report.valid == 12 and max(sizes) <= 5 and len(sizes) == 12


def test_a_refused_output_schema_leaves_the_arguments_judged(monkeypatch):
    tools = [
        {"name": "a", "inputSchema": COUNT, "outputSchema": {"type": "object", "frobnicate": 1}},
        {"name": "b", "inputSchema": COUNT},
    ]
    log = [rpc(1, "tools/list"), rpc(1, result={"tools": tools}), call(2, "a", {"n": 1})]
    log += [rpc(2, result={"content": [], "structuredContent": {}})]
    report = toolreg.replay(log)
    assert (report.valid, report.outputs_checked) == (1, 0)

    def failing(*arguments, **options):
        raise RuntimeError("a schema no one foresaw")

    monkeypatch.setattr(toolreg.ToolRegistry, "register", failing)
    report = toolreg.replay(log)
    assert report.unjudged == 1 and report.refused_tools == ()


def otel_call(conversation, call_id, arguments, failed):
    attributes = [
        ("gen_ai.operation.name", "execute_tool"),
        ("gen_ai.tool.name", "count"),
        ("gen_ai.tool.call.id", call_id),
        ("gen_ai.conversation.id", conversation),
        ("gen_ai.tool.call.arguments", json.dumps(arguments)),
        ("gen_ai.tool.call.result", "answer"),
    ]
    span = {
        "parentSpanId": call_id,
        "attributes": [{"key": key, "value": {"stringValue": value}} for key, value in attributes],
        "status": {"code": 2 if failed else 1},
    }
    return json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": [span]}]}]})


def test_the_least_recent_conversation_is_forgotten_past_the_bound(monkeypatch):
    log = [
        otel_call("A", "a1", {"n": "1"}, True),
        otel_call("B", "b1", {"n": 1}, False),
        otel_call("A", "a2", {"n": 1}, False),
    ]
    catalog = [{"name": "count", "inputSchema": COUNT}]
    followed = toolreg.replay(log, catalog=catalog)
    assert (followed.first_tries, followed.repaired) == (2, 1)
    monkeypatch.setattr(replay_module, "MAX_CONVERSATIONS", 1)
    forgotten = toolreg.replay(log, catalog=catalog)  # B pushed A out: a2 starts A anew
    assert (forgotten.first_tries, forgotten.repaired) == (3, 0)
