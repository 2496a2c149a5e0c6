"""Repair of a model's arguments: each rule where the schema allows exactly one reading (at depth,
through $ref, allOf and array items), each refusal with its reason, the record a CallResult keeps, the
answer each provider's model reads, repair=False unchanged, hostile arguments within bounds, and a
property: a repair restores exactly the arguments a model broke in one place, or none is made."""

import ast
import asyncio
import copy
import json
import math
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import toolreg
import toolreg._jsonschema.validator
from toolreg import Repair
from toolreg._repair import (
    MAX_CANDIDATES,
    RULES,
    _at,
    _Repairing,
    json_reading,
    repair_arguments,
    without_trailing_commas,
)


@pytest.fixture(autouse=True)
def _walk_first(monkeypatch):
    # These tests judge repairs, not the generated code (which the conformance suite holds to the
    # walk): generating it for every schema drawn would cost more than all the rest.
    monkeypatch.setattr(toolreg._jsonschema.validator, "WALKED_VALUES", 500)


def same(left, right):
    """Equal as JSON values of the same JSON types (Python's == takes 1 for 1.0 and for True)."""
    if type(left) is not type(right):
        return False
    if isinstance(left, dict):
        return left.keys() == right.keys() and all(same(left[name], right[name]) for name in left)
    if isinstance(left, list):
        return len(left) == len(right) and all(map(same, left, right))
    return left == right or (type(left) is float and math.isnan(left) and math.isnan(right))


def repaired(schema, args):
    """The repair of ``args`` under ``schema``, checked to leave ``args`` as it was."""
    before = copy.deepcopy(args)
    fixed, repairs = toolreg.repair(schema, args)
    assert same(args, before)
    return fixed, repairs


def obj(**properties):
    return {"type": "object", "properties": properties}


INTEGER, STRING, BOOLEAN = {"type": "integer"}, {"type": "string"}, {"type": "boolean"}
STRINGS = {"type": "array", "items": STRING}

# (what, schema, arguments, repaired arguments, the repairs as (pointer, rule))
APPLIED = [
    ("a number in quotes, at depth", obj(page=obj(limit=INTEGER)), {"page": {"limit": "10"}},
     {"page": {"limit": 10}}, [("/page/limit", "json_text")]),
    ("a fraction in quotes", obj(ratio={"type": "number"}), {"ratio": "0.25"}, {"ratio": 0.25},
     [("/ratio", "json_text")]),
    ("a boolean in quotes, through $ref", {**obj(flag={"$ref": "#/$defs/flag"}), "$defs": {"flag": BOOLEAN}},
     {"flag": "false"}, {"flag": False}, [("/flag", "json_text")]),
    ("an object as JSON text, through allOf",
     {"allOf": [obj(filter={"type": "object", "required": ["field"]})]}, {"filter": '{"field": "name"}'},
     {"filter": {"field": "name"}}, [("/filter", "json_text")]),
    ("an array as JSON text, an item of an array",
     obj(rows={"type": "array", "items": {"type": "array", "items": INTEGER}}), {"rows": [[1], "[2, 3]"]},
     {"rows": [[1], [2, 3]]}, [("/rows/1", "json_text")]),
    ("null as JSON text", obj(since={"type": ["integer", "null"]}), {"since": "null"}, {"since": None},
     [("/since", "json_text")]),
    ("the arguments themselves as JSON text", obj(a=INTEGER), '{"a": 1}', {"a": 1}, [("", "json_text")]),
    ("a lone string for a one-item array, in an object in an array",
     obj(users={"type": "array", "items": obj(roles=STRINGS)}), {"users": [{"roles": "admin"}]},
     {"users": [{"roles": ["admin"]}]}, [("/users/0/roles", "one_item_array")]),
    ("a lone number for a one-item array", obj(ids={"type": "array", "items": INTEGER}), {"ids": 7},
     {"ids": [7]}, [("/ids", "one_item_array")]),
    ("a string's text is an item when its JSON reading does not fit",
     obj(names={"type": "array", "items": STRING}), {"names": "[1]"}, {"names": ["[1]"]},
     [("/names", "one_item_array")]),
    ("null for an optional property, in an object reached through $ref",
     {**obj(options={"$ref": "#/$defs/options"}), "$defs": {"options": obj(unit=STRING)}},
     {"options": {"unit": None}}, {"options": {}}, [("/options/unit", "null_as_absent")]),
    ("null for an optional property whose schema is a $ref",
     {**obj(unit={"$ref": "#/$defs/unit"}), "$defs": {"unit": {"enum": ["c", "f"]}}}, {"unit": None}, {},
     [("/unit", "null_as_absent")]),
    ("null for an optional property named in allOf", {"allOf": [obj(a=STRING)]}, {"a": None}, {},
     [("/a", "null_as_absent")]),
    ("null for an optional property, in draft-07's array of items",
     {"$schema": "http://json-schema.org/draft-07/schema#", "items": [obj(a=STRING)]}, [{"a": None}], [{}],
     [("/0/a", "null_as_absent")]),
    ("a number for the enum's string", obj(stars={"type": "string", "enum": ["3", "4", "5"]}), {"stars": 4},
     {"stars": "4"}, [("/stars", "enum_string")]),
    ("a boolean for the enum's string, in anyOf",
     obj(flag={"anyOf": [{"enum": ["true", "false"]}, {"type": "null"}]}), {"flag": True}, {"flag": "true"},
     [("/flag", "enum_string")]),
    ("two places in one call", obj(a=INTEGER, b=STRINGS, c=STRING), {"a": "1", "b": "x", "c": None},
     {"a": 1, "b": ["x"]}, [("/a", "json_text"), ("/b", "one_item_array"), ("/c", "null_as_absent")]),
    ("a union with one reading that fits", obj(v={"anyOf": [INTEGER, {"type": "array", "items": INTEGER}]}),
     {"v": "1"}, {"v": 1}, [("/v", "json_text")]),
]  # fmt: skip


@pytest.mark.parametrize(("schema", "args", "expected", "made"), [case[1:] for case in APPLIED],
                         ids=[case[0] for case in APPLIED])  # fmt: skip
def test_each_rule_repairs_where_one_reading_fits(schema, args, expected, made):
    fixed, repairs = repaired(schema, args)
    assert same(fixed, expected)
    assert [(repair.pointer, repair.rule) for repair in repairs] == made
    assert toolreg.validate(schema, fixed) == []
    assert all(repair.rule in RULES for repair in repairs)


IF_THEN = {
    **obj(n=INTEGER),
    "if": {"properties": {"n": INTEGER}, "required": ["n"]},
    "then": {"required": ["m"]},
}

# (the reason, schema, arguments): each left as it is, with no repair.
REFUSED = [
    ("a missing required value is never filled in", {**obj(a=STRING), "required": ["a"]}, {}),
    ("a name additionalProperties judges is never left out",
     {**obj(a=STRING), "additionalProperties": STRING}, {"zz": None}),
    ("a name patternProperties judges is never left out",
     {"patternProperties": {"^x": STRING}}, {"xa": None}),
    ("an unknown name is never dropped or renamed", {**obj(path=STRING), "additionalProperties": False},
     {"Path": "a"}),
    ("a required property's null is never left out", {**obj(a=STRING), "required": ["a"]}, {"a": None}),
    ("NaN is no JSON number", obj(x={"type": "number"}), {"x": "NaN"}),
    ("-Infinity is no JSON number", obj(x={"type": "number"}), {"x": "-Infinity"}),
    ("1e999 is past a float's range", obj(x={"type": "number"}), {"x": "1e999"}),
    ("a fraction is never an integer", obj(n=INTEGER), {"n": "10.5"}),
    ("case is never folded: True", obj(b=BOOLEAN), {"b": "True"}),
    ("case is never folded: an enum", obj(u={"enum": ["celsius"]}), {"u": "Celsius"}),
    ("a key given twice is no strict JSON", obj(o={"type": "object"}), {"o": '{"a": 1, "a": 2}'}),
    ("text after the value is no strict JSON", obj(n=INTEGER), {"n": "10 apples"}),
    ("a string holding a JSON string is not read", obj(n=INTEGER), {"n": '"5"'}),
    ("two readings fit: a union's branches", obj(v={"anyOf": [INTEGER, STRINGS]}), {"v": "1"}),
    ("two readings fit: the array of the JSON text, or the text as one item", obj(tags=STRINGS),
     {"tags": '["a", "b"]'}),
    ("two readings fit: left out, or [null]",
     obj(v={"type": "array", "items": {"type": "null"}}), {"v": None}),
    ("two strings of the enum write the number", obj(v={"enum": ["1", "1.0"]}), {"v": 1}),
    ("a number is never a string but an enum's", obj(s=STRING), {"s": 5}),
    ("a reading that breaks another rule is no repair", IF_THEN, {"n": "5"}),
    ("all or nothing: one place cannot be repaired", obj(n=INTEGER, u={"enum": ["c"]}), {"n": "1", "u": "C"}),
    ("a value that is not JSON elsewhere", obj(n=INTEGER, x={}), {"n": "5", "x": math.nan}),
    ("a lone object is not wrapped", obj(v={"type": "array", "items": {"type": "object"}}), {"v": {"a": 1}}),
    ("a null in an array is no property to leave out", obj(v=STRINGS), {"v": ["a", None]}),
    ("all or nothing: a required null beside an optional one", {**obj(a=STRING, b=STRING), "required": ["a"]},
     {"a": None, "b": None}),
    ("a subclass of str is left as it is", obj(n=INTEGER), {"n": type("Text", (str,), {})("10")}),
]  # fmt: skip


@pytest.mark.parametrize(
    ("schema", "args"), [case[1:] for case in REFUSED], ids=[case[0] for case in REFUSED]
)
def test_what_no_rule_may_do_is_left_alone(schema, args):
    assert toolreg.validate(schema, args) != []
    fixed, repairs = repaired(schema, args)
    assert repairs == ()
    assert fixed is args


def test_a_string_valid_as_it_is_keeps_its_string_beside_a_repair():
    schema = obj(q={"anyOf": [{"type": "array"}, STRING]}, n=INTEGER)
    fixed, repairs = repaired(schema, {"q": '["a"]', "n": "2"})
    assert fixed == {"q": '["a"]', "n": 2}
    assert [repair.pointer for repair in repairs] == ["/n"]


def test_valid_arguments_are_returned_as_they_are():
    args = {"n": 1}
    assert toolreg.repair(obj(n=INTEGER), args) == (args, ())
    assert toolreg.repair(obj(n=INTEGER), args)[0] is args


def test_a_repair_is_an_immutable_record_with_its_words():
    [repair] = toolreg.repair(obj(o={"type": "object"}), {"o": '{"a": [1]}'})[1]
    assert repair == Repair("/o", "json_text", '{"a": [1]}', {"a": [1]})
    assert repair.after["a"] == (1,)  # read-only all the way down
    assert repair.to_dict() == {
        "pointer": "/o",
        "rule": "json_text",
        "before": '{"a": [1]}',
        "after": {"a": [1]},
    }
    assert str(repair) == '`/o` was the string "{\\"a\\": [1]}"; read as {"a": [1]}'
    assert hash(repair) == hash(Repair("/o", "json_text", "", None))
    with pytest.raises(AttributeError):
        repair.after = None
    # What the model sent is quoted short and printable: no character that could hide text reaches it.
    hostile = str(Repair("/n\u202e", "json_text", "\u202e" + "1" * 300, 1))
    assert "\u202e" not in hostile and "\\u202e" in hostile and len(hostile) < 200


def test_the_words_of_each_rule():
    said = [
        str(Repair("/tags", "one_item_array", "x", ["x"])),
        str(Repair("/unit", "null_as_absent", None, None)),
        str(Repair("/stars", "enum_string", 4, "4")),
        str(Repair("/flag", "enum_string", True, "true")),
        str(Repair("", "trailing_comma", '{"a": 1,}', '{"a": 1}')),
        str(Repair("", "trailing_comma", "[1,],", "[1]")),
        str(Repair("/x", "a rule of a later version", 1, 2)),
    ]
    assert said == [
        '`/tags` was "x", not an array; read as ["x"]',
        "`/unit` was null; read as not given (leave it out rather than send null)",
        '`/stars` was the number 4; read as the string "4", which the enum lists',
        '`/flag` was the boolean true; read as the string "true", which the enum lists',
        "the arguments' JSON text had a trailing comma at character 7 (JSON allows none); read without it",
        "the arguments' JSON text had 2 trailing commas, the first at character 2 (JSON allows none); "
        "read without it",
        "`/x` was 1; read as 2 (a rule of a later version)",
    ]


def test_json_text_is_read_strictly():
    assert json_reading('[1, {"a": null}]') == ([1, {"a": None}],)
    assert json_reading(" 10 ") == (10,)
    for text in ("NaN", "Infinity", "1e400", '{"a": 1, "a": 1}', "1 2", '"text"', "", "[1,]", "9" * 5000):
        assert json_reading(text) is None, text


def test_trailing_commas_are_found_outside_strings():
    assert without_trailing_commas('{"a": [1, 2,], "b": ",}",\n}').after == '{"a": [1, 2], "b": ",}"\n}'
    assert without_trailing_commas('{"a": "\\",}"}') is None  # the comma is inside the string
    assert without_trailing_commas('{"a": 1}') is None
    assert without_trailing_commas('{"a": "never closed,}') is None  # no comma outside the string


# -- the entry points ------------------------------------------------------------------------------

SEARCH = {**obj(query=STRING, limit=INTEGER), "required": ["query"], "additionalProperties": False}
NOTE = (
    "The arguments were repaired before the tool ran; send them so next time:\n"
    '- `/limit` was the string "10"; read as 10'
)


def search_tools(handler=lambda query, limit=5: f"{limit} results for {query}"):
    tools = toolreg.ToolRegistry()
    tools.register("web.search", SEARCH, handler=handler)
    return tools


def test_call_records_the_repairs_and_runs_on_the_repaired_arguments():
    tools = search_tools()
    result = tools.call("web.search", {"query": "tea", "limit": "10"}, repair=True)
    assert result.ok and result.output == "10 results for tea"
    assert result.repairs == (Repair("/limit", "json_text", "10", 10),)
    assert result.note == NOTE
    assert "repairs=<1 at /limit>" in repr(result)
    assert tools.repair("web.search", {"query": "tea", "limit": "10"}) == (
        {"query": "tea", "limit": 10}, result.repairs)  # fmt: skip


def test_repair_is_off_by_default_and_changes_nothing_then():
    tools = search_tools()
    plain = tools.call("web.search", {"query": "tea", "limit": "10"})
    assert (plain.ok, plain.step, plain.repairs, plain.note) == (False, "arguments", (), "")
    assert plain == tools.call("web.search", {"query": "tea", "limit": "10"}, repair=False)
    valid = tools.call("web.search", {"query": "tea"}, repair=True)
    assert valid.ok and valid.repairs == ()
    call = {
        "id": "c1",
        "type": "function",
        "function": {"name": "web-search", "arguments": '{"query": "tea",}'},
    }
    assert tools.answer(call)["content"].startswith("The arguments are not valid JSON")


def test_arguments_the_repairs_cannot_make_valid_get_their_original_errors():
    tools = search_tools()
    broken = {"limit": "10"}  # the query is missing: no repair may fill it in
    assert tools.call("web.search", broken, repair=True) == tools.call("web.search", broken)
    text = '{"limit": 10,}'
    call = {"id": "c1", "type": "function", "function": {"name": "web-search", "arguments": text}}
    assert tools.answer(call, repair=True) == tools.answer(call)


def test_acall_and_aanswer_repair_in_the_registry_threads():
    tools = search_tools()
    result = asyncio.run(tools.acall("web.search", {"query": "tea", "limit": "10"}, repair=True))
    assert result.ok and result.repairs == (Repair("/limit", "json_text", "10", 10),)
    call = {"name": "web.search", "arguments": {"query": "tea", "limit": "10"}}
    assert asyncio.run(tools.aanswer(call, repair=True)) == tools.answer(call, repair=True)


BROKEN = {"query": "tea", "limit": "10"}
ANSWERS = [
    ({"id": "c1", "type": "function", "function": {"name": "web-search", "arguments": json.dumps(BROKEN)}},
     {"role": "tool", "tool_call_id": "c1", "content": "10 results for tea\n\n" + NOTE}),
    ({"type": "function_call", "call_id": "c1", "name": "web-search", "arguments": json.dumps(BROKEN)},
     {"type": "function_call_output", "call_id": "c1", "output": "10 results for tea\n\n" + NOTE}),
    ({"type": "tool_use", "id": "u1", "name": "web-search", "input": BROKEN},
     {"type": "tool_result", "tool_use_id": "u1", "content": "10 results for tea\n\n" + NOTE}),
    ({"functionCall": {"name": "web.search", "args": BROKEN}},
     {"functionResponse": {"name": "web.search",
                           "response": {"result": "10 results for tea", "note": NOTE}}}),
    ({"name": "web.search", "arguments": BROKEN},
     {"content": [{"type": "text", "text": "10 results for tea"}, {"type": "text", "text": NOTE}],
      "isError": False}),
]  # fmt: skip


@pytest.mark.parametrize(
    ("call", "expected"), ANSWERS, ids=["openai", "openai-responses", "anthropic", "gemini", "mcp"]
)
def test_each_provider_answer_tells_the_model_what_was_repaired(call, expected):
    assert search_tools().answer(call, repair=True) == expected


@pytest.mark.parametrize("form", ["openai", "openai-responses"])
def test_openai_text_is_read_without_its_trailing_commas(form):
    text = '{"query": "tea", "limit": "10",}'
    if form == "openai":
        call = {"id": "c1", "type": "function", "function": {"name": "web-search", "arguments": text}}
    else:
        call = {"type": "function_call", "call_id": "c1", "name": "web-search", "arguments": text}
    answered = search_tools().answer(call, repair=True)
    said = answered["content" if form == "openai" else "output"]
    comma = text.index(",}")
    assert said == (
        f"10 results for tea\n\n{NOTE.splitlines()[0]}\n- the arguments' JSON text had a trailing comma at "
        f"character {comma} (JSON allows none); read without it\n{NOTE.splitlines()[1]}"
    )


def test_a_failure_after_a_repair_still_says_the_repair():
    def failing(query, limit=5):
        raise toolreg.ToolError("the index is down")

    call = {"type": "tool_use", "id": "u1", "name": "web-search", "input": BROKEN}
    answered = search_tools(failing).answer(call, repair=True)
    assert answered["is_error"] is True
    assert answered["content"] == "The tool web-search failed: the index is down\n\n" + NOTE
    mcp = search_tools(failing).answer({"name": "web.search", "arguments": BROKEN}, repair=True)
    assert mcp["isError"] is True and mcp["content"][-1] == {"type": "text", "text": NOTE}


# -- bounds ----------------------------------------------------------------------------------------


def counting(validator):
    calls = []

    def validate(args):
        calls.append(1)
        return validator.validate(args)

    return validate, calls


def test_many_invalid_places_cost_at_most_the_cap_of_candidates():
    validator = toolreg.compile(obj(ids={"type": "array", "items": INTEGER}))
    validate, calls = counting(validator)
    args = {"ids": ["1"] * 300}
    assert repair_arguments(validator, args, validate=validate) == (args, ())
    assert len(calls) <= 1 + MAX_CANDIDATES
    # The same within the cap is repaired whole.
    assert repair_arguments(validator, {"ids": ["1"] * 4})[0] == {"ids": [1, 1, 1, 1]}
    # The cap may run out between two readings of one value: that value is left as it is.
    validator = toolreg.compile(obj(o=STRING, ids={"type": "array", "items": INTEGER}))
    validate, calls = counting(validator)
    args = {"o": None, "ids": ["1"] * 300}
    assert repair_arguments(validator, args, validate=validate) == (args, ())
    assert len(calls) <= 1 + MAX_CANDIDATES


def test_a_place_the_arguments_do_not_hold_is_none_to_repair():
    assert _at({"a": [1]}, ["a", "0"]) == (True, 1)
    for tokens in (["b"], ["a", "1"], ["a", "01"], ["a", "0", "x"]):
        assert _at({"a": [1]}, tokens) == (False, None)
    repairing = _Repairing(toolreg.compile(obj(n=INTEGER)), lambda args: [], {"n": "1"}, [])
    assert repairing.mend("/m") is None


def test_hostile_json_text_is_refused_without_harm():
    schema = obj(o={"type": "object"}, n=INTEGER)
    deep = {"o": '{"a": ' * 20_000 + "1" + "}" * 20_000}  # past Python's stack
    past_depth = {"o": '{"a": ' * 200 + "1" + "}" * 200}  # read, but nested past max_depth
    digits = {"n": "9" * 5000}  # more digits than Python reads
    wide = {"o": json.dumps({str(number): number for number in range(5_000)})[:-1]}  # cut short
    for args in (deep, past_depth, digits, wide):
        assert toolreg.repair(schema, args) == (args, ())
    assert without_trailing_commas('{"a": "' + ",]" * 50_000) is None  # one string, never closed
    many = "[" + "0," * 50_000 + "]"
    assert without_trailing_commas(many).after == many[:-2] + "]"


def test_a_budget_error_stops_the_repair():
    branches = [obj(n={"type": "integer", "minimum": bound}) for bound in range(200)]
    tight = toolreg.compile({"anyOf": branches}, limits={"max_work": 1})
    assert [error.keyword for error in tight.validate({"n": "1"})] == ["limit"]
    assert toolreg.repair(tight, {"n": "1"}) == ({"n": "1"}, ())


# -- the property ----------------------------------------------------------------------------------

DEFINITIONS = {"count": {"type": "integer", "minimum": 0}}
ENUM = ["1", "2.5", "true", "x", "1.0"]
FLOATS = [0.0, -0.0, 0.1, 2.0, -1.5, 1e16, 5e-324, 1.7976931348623157e308]
# Schemas of the small grammar the property draws from, each with a function drawing a value it accepts.
LEAVES = [
    ({"type": "integer"}, lambda chance: chance.choice([0, -3, 7, 2**70])),
    ({"type": "number"}, lambda chance: chance.choice(FLOATS)),
    ({"type": "boolean"}, lambda chance: chance.random() < 0.5),
    ({"type": "string"}, lambda chance: chance.choice(["", "a", "10", "[1]", "{}", "null"])),
    ({"type": "string", "enum": ENUM}, lambda chance: chance.choice(ENUM)),
    ({"type": ["integer", "null"]}, lambda chance: chance.choice([None, 3])),
    ({"anyOf": [STRINGS, STRING]}, lambda chance: chance.choice(["a", ["b"], ["c", "d"], '["e"]'])),
    ({"$ref": "#/$defs/count"}, lambda chance: chance.choice([0, 4])),
    ({}, lambda chance: chance.choice([1, "z", True, None, [2], "[1]"])),
]
NAMES = ("a", "b", "c/d", "e~f")


def draw_schema(chance, depth=0):
    """A schema of the small grammar: leaves, arrays of it and objects of it, some properties required."""
    kind = chance.choice(["leaf", "leaf", "array", "object"] if depth < 3 else ["leaf"])
    if kind == "leaf":
        return chance.choice(LEAVES)[0]
    if kind == "array":
        return {"type": "array", "items": draw_schema(chance, depth + 1)}
    names = chance.sample(NAMES, chance.randint(1, 3))
    properties = {name: draw_schema(chance, depth + 1) for name in names}
    return {
        "type": "object",
        "properties": properties,
        "required": [n for n in names if chance.random() < 0.5],
    }


def draw_value(chance, schema):
    """A value ``schema`` accepts."""
    for leaf, draw in LEAVES:
        if schema == leaf:
            return draw(chance)
    if schema["type"] == "array":
        return [draw_value(chance, schema["items"]) for _ in range(chance.choice([0, 1, 1, 2]))]
    required = schema["required"]
    return {
        name: draw_value(chance, below)
        for name, below in schema["properties"].items()
        if name in required or chance.random() < 0.5
    }


def places(value, schema, tokens=()):
    """Each value with its place and its schema (through properties and items only)."""
    yield tokens, value, schema
    if isinstance(value, dict):
        for name, item in value.items():
            yield from places(item, schema.get("properties", {}).get(name, {}), (*tokens, name))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from places(item, schema.get("items", {}), (*tokens, index))


def put(value, tokens, new, drop=False):
    if not tokens:
        return new
    copied = dict(value) if isinstance(value, dict) else list(value)
    if len(tokens) > 1:
        copied[tokens[0]] = put(value[tokens[0]], tokens[1:], new, drop)
    elif drop:
        del copied[tokens[0]]
    else:
        copied[tokens[0]] = new
    return copied


def breaks(args, schema):
    """Every one-place break a model makes of these arguments, as the repair's rules see them, and
    the two no rule may undo (a required property dropped, a value outside its enum)."""
    for tokens, value, below in places(args, schema):
        if type(value) in (int, float, bool):
            yield put(args, tokens, json.dumps(value))
        if type(value) in (dict, list) and tokens:
            yield put(args, tokens, json.dumps(value))
        if type(value) is list and len(value) == 1 and not isinstance(value[0], (dict, list)):
            yield put(args, tokens, value[0])
        if type(value) is str and value in below.get("enum", ()):
            spelled = json_reading(value)
            if spelled is not None:
                yield put(args, tokens, spelled[0])
            yield put(args, tokens, "X" + value)
        if type(value) is dict:
            for name in below.get("properties", {}):
                if name not in value:
                    yield put(args, (*tokens, name), None)
                elif name in below.get("required", ()):
                    yield put(args, (*tokens, name), None, drop=True)


@given(st.integers(0, 2**64))
def test_a_repair_restores_exactly_what_one_break_changed_or_is_not_made(seed):
    chance = random.Random(seed)  # drawn from by plain Python: Hypothesis's own draws cost ten times more
    body = draw_schema(chance)
    schema = {"type": "object", "properties": {"p": body}, "required": ["p"], "$defs": DEFINITIONS}
    original = draw_value(chance, {"type": "object", "properties": {"p": body}, "required": ["p"]})
    validator = toolreg.compile(schema)
    assert validator.validate(original) == []
    assert repair_arguments(validator, original)[0] is original  # a valid call is never changed
    made = list(breaks(original, schema))
    for broken in chance.sample(made, min(3, len(made))):
        fixed, repairs = repair_arguments(validator, broken)
        if repairs:
            assert same(fixed, original), (schema, broken, fixed)
            assert validator.validate(fixed) == []
            assert all(repair.rule in RULES for repair in repairs)
        else:
            assert fixed is broken


def test_the_repair_module_stands_on_the_validator_alone():
    source = ast.parse((Path(toolreg.__file__).parent / "_repair.py").read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(source) if isinstance(node, ast.ImportFrom) and node.level}
    assert imported and all(name.startswith(("_jsonschema.", "_feedback")) for name in imported)
