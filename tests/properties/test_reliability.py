"""Hostile input: deep nesting, huge arrays, regex blow-ups, code injection, non-JSON values, threads."""

import collections
import enum
import inspect
import json
import math
import sys
import threading
from typing import Any

import pytest
import regress
from hypothesis import given, settings
from hypothesis import strategies as st

import toolreg
import toolreg._jsonschema.validator
from conformance._strategies import instances_for, json_values, schemas
from tests import accept_any
from tests.conftest import untraced
from toolreg._jsonschema.regex import Pattern, search_steps
from toolreg._jsonschema.values import _SMALL, _small_plain, _walk_survey, survey
from toolreg._jsonschema.vocabulary import ANNOTATIONS, keywords

DEPTH = 10_000


def nested_lists(depth):
    root = current = []
    for _ in range(depth - 1):
        child = []
        current.append(child)
        current = child
    return root


def nested_objects(depth):
    root = current = {}
    for _ in range(depth - 1):
        current["a"] = {}
        current = current["a"]
    return root


def both_paths(validator, instance):
    """The fast path's answer, after checking that the reference walk gives the very same."""
    fast = validator.validate(instance)
    assert fast == validator.validate_reference(instance)
    return fast


# -- depth and size ---------------------------------------------------------------------------


@pytest.mark.parametrize("make", [nested_lists, nested_objects])
@pytest.mark.parametrize(
    "schema",
    [
        True,
        {},
        {"type": ["array", "object"]},
        {"items": {"$ref": "#"}, "additionalProperties": {"$ref": "#"}},
    ],
)
def test_an_instance_nested_ten_thousand_deep_gets_one_clear_error(make, schema):
    [error] = both_paths(toolreg.compile(schema), make(DEPTH))
    assert error.keyword == "depth" and error.facts["limit"] == 128
    assert error.path.count("/") == 128
    assert "128 levels" in error.message


def test_the_depth_limit_is_set_per_registry():
    shallow = toolreg.ToolRegistry(limits=toolreg.Limits(max_depth=3))
    shallow.register("t", {"type": "object"}, accept_any)
    assert shallow.is_valid("t", {"a": {"b": [1]}})
    [error] = shallow.validate("t", {"a": {"b": [[1]]}})
    assert (error.path, error.keyword) == ("/a/b/0", "depth")
    deep = toolreg.ToolRegistry(limits=toolreg.Limits(max_depth=20_000))
    deep.register("t", {"type": "object", "additionalProperties": {"$ref": "#"}}, accept_any)
    [error] = deep.validate("t", nested_objects(DEPTH))  # past Python's stack: still an answer
    assert error.keyword == "depth" and "recursion limit" in error.message


def test_instances_within_the_limit_validate_normally():
    schema = {"items": {"$ref": "#"}, "type": "array"}
    assert both_paths(toolreg.compile(schema), nested_lists(128)) == []
    [error] = both_paths(toolreg.compile(schema), [nested_lists(100), 5])
    assert (error.path, error.keyword) == ("/1", "type")


def test_a_schema_nested_ten_thousand_deep_is_refused_with_a_pointer():
    schema = current = {}
    for _ in range(DEPTH):
        current["items"] = {}
        current = current["items"]
    with pytest.raises(toolreg.SchemaError) as caught:
        toolreg.check_schema(schema)
    assert "nested deeper than 128 levels" in str(caught.value)
    assert caught.value.schema_path == "/items" * 128
    enum_deep = {"enum": [nested_lists(DEPTH)]}
    with pytest.raises(toolreg.SchemaError):
        toolreg.check_schema(enum_deep)


@pytest.mark.parametrize("depth", [300, 600])  # past the stack compiling takes; past the copy's too
def test_a_schema_past_pythons_stack_under_a_raised_depth_limit_is_refused_at_registration(depth):
    schema = current = {"type": "object"}
    for _ in range(depth):
        current["properties"] = {"a": {}}
        current = current["properties"]["a"]
    limits = toolreg.Limits(max_schema_depth=10 * depth)
    with pytest.raises(toolreg.SchemaError, match="recursion limit"):
        toolreg.compile(schema, limits=limits)
    with pytest.raises(toolreg.SchemaError, match="recursion limit"):
        toolreg.ToolRegistry(limits=limits).register("t.x", schema, accept_any)


def test_a_schema_with_too_many_subschemas_is_refused():
    schema = {"properties": {f"p{index}": {"type": "string"} for index in range(20)}}
    with pytest.raises(toolreg.SchemaError) as caught:
        toolreg.compile(schema, limits=toolreg.Limits(max_schema_size=10))
    assert "max_schema_size" in str(caught.value)
    toolreg.compile(schema)


def test_limits_are_checked():
    for bad in ({"max_depth": 0}, {"max_schema_size": True}, {"allow_backtracking_patterns": 1}):
        with pytest.raises(toolreg.LimitsError) as caught:
            toolreg.Limits(**bad)
        assert isinstance(caught.value, ValueError) and next(iter(bad)) in str(caught.value)
        with pytest.raises(toolreg.LimitsError):
            toolreg.ToolRegistry(limits=bad)


LIMITS_TAKERS = {
    "ToolRegistry": lambda limits: toolreg.ToolRegistry(limits=limits).register("t", SHALLOW, accept_any),
    "compile": lambda limits: toolreg.compile(SHALLOW, limits=limits),
    "validate": lambda limits: toolreg.validate(SHALLOW, {}, limits=limits),
    "check_schema": lambda limits: toolreg.check_schema(SHALLOW, limits=limits),
}
SHALLOW = {"type": "object", "properties": {"a": {"properties": {"b": {"type": "object"}}}}}


@pytest.mark.parametrize("taker", sorted(LIMITS_TAKERS))
def test_limits_are_passed_the_same_way_everywhere(taker):
    take = LIMITS_TAKERS[taker]
    # A Limits, or a mapping of some of its fields, and the same refusals everywhere.
    for limits in (toolreg.Limits(max_schema_depth=2), {"max_schema_depth": 2}):
        with pytest.raises(toolreg.SchemaError, match="nested deeper than 2"):
            take(limits)
    take({"max_schema_depth": 20})
    for bad, words in (({"max_dept": 3}, "did you mean 'max_depth'"), ("deep", "not str"), (3, "not int")):
        with pytest.raises(toolreg.LimitsError, match=words):
            take(bad)


def test_a_million_items_validate():
    validator = toolreg.compile({"type": "array", "items": {"type": "integer", "minimum": 0}})
    items = list(range(1_000_000))
    assert validator.validate(items) == []
    items[-1] = -1
    [error] = validator.validate(items)
    assert (error.path, error.keyword) == ("/999999", "minimum")


# -- regular expressions ----------------------------------------------------------------------

REDOS = ["^(a+)+$", "(a*)*b", "^(a|aa)+$", r"^(\w+\s?)*$", "(x+x+)+y", "^(a|a?)+$", "(.*a){12}", r"^(\d+)*$"]
SAFE = [
    r"^[a-z]+(-[a-z]+)*$",
    r"^([a-z0-9]+\.)+[a-z]{2,}$",
    r"^\d{3}-\d{4}$",
    "^(?:https?)://",
    r"^(\d{1,3}\.){3}\d{1,3}$",
]


# Shapes a backtracking engine takes exponential time on, and ones that slipped past its guard.
GUARD_BYPASSES = ["^(aa?)+$", "^(-?-)+$", r"^(\x61+)+$", r"^(\u0061+)+$", "^[]?(a+)+$", "^(a?){30}a{30}$"]


@pytest.mark.parametrize("pattern", REDOS + GUARD_BYPASSES)
def test_patterns_that_backtrack_exponentially_run_on_the_linear_engine(pattern):
    # RE2 runs them in time linear in the string, so they need no refusal; a backtracking engine
    # took minutes on 40 characters.
    assert Pattern(pattern).backtracking is None
    validator = toolreg.compile({"pattern": pattern})
    # Judged as ECMA-262 judges them, on strings short enough for the backtracking engine
    # (it takes 20 s over ^(a?){30}a{30}$ and twelve a's).
    for text in ("", "a", "aab", "aaaa!", "--!", "xxy", "-a-"):
        assert validator.is_valid(text) is (regress.Regex(pattern, "u").find(text) is not None), text
    # And answered at once on a string that would hold a backtracking engine for ever: with the
    # verdict where the search fits the work budget, else with the one limit error a search that
    # costs its length times its program's size runs into (docs/limits.md, "Patterns").
    for text in ("a" * 30_000 + "!", "a" * 100_000 + "!"):
        errors = validator.validate(text)
        if search_steps(len(text), Pattern(pattern).size) > toolreg.Limits().max_work + 50:
            assert [error.keyword for error in errors] == ["limit"], text[-8:]
        else:
            assert (not errors) is (pattern == "(.*a){12}"), len(text)
            assert validator.is_valid(text) is (not errors)


@pytest.mark.parametrize("pattern", REDOS)
def test_behind_a_look_around_they_are_refused_whatever_the_limits(pattern):
    # A look-around RE2 cannot run keeps a pattern off RE2, and an unbounded repeat keeps it off a
    # backtracking engine too: no setting of Limits accepts it.
    guarded = "(?<=[^]*)" + pattern
    for limits in (toolreg.Limits(), toolreg.Limits(allow_backtracking_patterns=True)):
        with pytest.raises(toolreg.SchemaError) as caught:
            toolreg.check_schema({"properties": {"q": {"pattern": guarded}}}, limits=limits)
        assert caught.value.schema_path == "/properties/q/pattern"
        assert "look-behind (?<=…) at position 0" in str(caught.value)
        assert "without a most" in str(caught.value)
        assert "allow_backtracking_patterns" not in str(caught.value)


@pytest.mark.parametrize(
    "pattern", [r"^(\p{L}+ )*$", r"(\u{61}+-)*", r"^(a)(?:\1+-)*$", "[](x[a])", r"^(?=a)[](x[a])+$"]
)
def test_valid_patterns_never_crash_registration(pattern):
    try:
        validator = toolreg.compile({"pattern": pattern})
    except toolreg.SchemaError as refused:
        assert "back-reference at position 7" in str(refused)
    else:
        for text in ("", "a", "ab- ", "x"):
            assert validator.is_valid(text) is (regress.Regex(pattern, "u").find(text) is not None)


@pytest.mark.parametrize("pattern", SAFE)
def test_delimited_repetitions_are_accepted(pattern):
    toolreg.check_schema({"pattern": pattern})


# -- the generated code -----------------------------------------------------------------------

HOSTILE = [
    '"',
    "'",
    '"""',
    "'''",
    "\\",
    "\n",
    "\r\n",
    "\x00",
    "\u2028",
    "é😀",
    "{x}",
    "%s",
    "#",
    "__import__('os')",
]
hostile_text = st.lists(st.sampled_from(HOSTILE) | st.text(max_size=3), min_size=1, max_size=4).map("".join)


@st.composite
def hostile_schemas(draw):
    names = draw(st.lists(hostile_text, min_size=1, max_size=4, unique=True))
    return {
        "type": "object",
        "$defs": {name: {"enum": [name, draw(hostile_text)]} for name in names},
        "properties": {
            name: draw(
                st.sampled_from(
                    [
                        {"$ref": "#/$defs/" + name.replace("~", "~0").replace("/", "~1").replace("%", "%25")},
                        {"const": name},
                        {"pattern": "".join("\\" + c if c in "\\^$.|?*+()[]{}/" else c for c in name)},
                        {"propertyNames": {"enum": [name]}},
                    ]
                )
            )
            for name in names
        },
        "required": names[:1],
        "additionalProperties": draw(st.booleans()),
    }


@given(hostile_schemas(), st.data())
def test_hostile_strings_never_reach_the_generated_source(schema, data):
    validator = toolreg.compile(schema)
    source = validator.source
    for name in schema["properties"]:
        if len(name) > 3:
            assert name not in source
    compile(source, "<check>", "exec")  # it is still plain Python
    names = st.sampled_from(list(schema["properties"]))
    # Drawn untraced, as @given's arguments are.
    instance = untraced(data.draw, st.dictionaries(names | hostile_text, names | json_values()))
    both_paths(validator, instance)


# -- values that are not JSON -----------------------------------------------------------------


class Colour(enum.IntEnum):
    RED = 1


class Name(str):
    pass


def test_non_json_values_and_subclasses():
    cyclic = {"a": []}
    cyclic["a"].append(cyclic)
    schema = {"type": "object", "properties": {"n": {"type": "integer", "minimum": 0}, "s": {"maxLength": 3}}}
    validator = toolreg.compile(schema)
    cases = [
        ({"n": (1, 2)}, [("/n", "json")]),
        ({"n": {1, 2}}, [("/n", "json")]),
        ({"n": b"x"}, [("/n", "json")]),
        ({1: "x"}, [("", "json")]),
        ({"n": object()}, [("/n", "json")]),
        ({"n": float("nan"), "s": float("inf")}, [("/n", "json"), ("/s", "json")]),
        (cyclic, [("/a/0", "json")]),
        ({"n": Colour.RED, "s": Name("abcd")}, [("/s", "maxLength")]),
        (collections.OrderedDict(n=-1), [("/n", "minimum")]),
    ]
    for instance, expected in cases:
        assert [(e.path, e.keyword) for e in both_paths(validator, instance)] == expected, instance


# Values of every kind survey meets: JSON's, subclasses of its types, and Python's others.
_ANY_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),
    st.text(max_size=2),
    st.sampled_from((float("nan"), float("-inf"), -0.0, 1.0, Colour.RED, Name("a"), b"x", (1,), {1}, 1j)),
)
_ANY_VALUES = st.recursive(
    _ANY_SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=2), inner, max_size=3)
        | st.dictionaries(st.integers(0, 2), inner, min_size=1, max_size=2)
        | st.builds(collections.OrderedDict, st.dictionaries(st.text(max_size=1), inner, max_size=2))
    ),
    max_leaves=20,
)


@given(_ANY_VALUES, st.sampled_from((None, 0, 1, 2, 3, 64)))
def test_the_survey_of_a_small_plain_value_is_the_walks(value, max_depth):
    # survey reads a small value of JSON's exact types by a plain recursion first: the same answer.
    assert survey(value, max_depth) == _walk_survey(value, max_depth)


def test_the_survey_of_a_value_holding_itself_or_past_the_small_is_the_walks():
    cyclic: list[Any] = [1]
    cyclic.append(cyclic)
    long = [[1] * 40, [2] * 40]
    for value in (cyclic, {"a": cyclic}, long, [long]):
        assert survey(value, None) == _walk_survey(value, None)
    assert survey(long, None) == ([], 83, True)


# -- arbitrary JSON as a schema ---------------------------------------------------------------

KEYS = sorted(keywords()) + sorted(ANNOTATIONS) + ["nullable", "x-tag", "foo", "$id", "items"]
arbitrary_schemas = st.recursive(
    st.booleans() | st.dictionaries(st.sampled_from(KEYS), json_values(), max_size=3),
    lambda children: st.dictionaries(
        st.sampled_from(KEYS), children | st.lists(children, max_size=3) | json_values(), max_size=4
    ),
    max_leaves=12,
)


@given(arbitrary_schemas, st.lists(json_values(), max_size=3))
def test_any_json_schema_is_refused_cleanly_or_validates_without_surprises(schema, instances):
    try:
        validator = toolreg.compile(schema)
    except toolreg.SchemaError as error:
        assert isinstance(error.schema_path, str)
        assert error.schema_path == "" or error.schema_path.startswith("/")
        return
    for instance in instances:
        for error in both_paths(validator, instance):
            json.dumps(error.to_dict())


@given(schemas(), st.lists(json_values(allow_non_finite=True), max_size=4))
def test_generated_schemas_agree_on_both_paths(schema, instances):
    # Prepared, so that the generated code answers (and the yes/no answer, where validate asks it
    # first); NaN and the infinities are not JSON, wherever they sit.
    validator = toolreg.compile(schema).prepare()
    for instance in instances:
        expected = not both_paths(validator, instance)
        assert validator.is_valid(instance) is expected, instance


# Values that hold something that is not JSON, somewhere inside: each is an error, whatever the schema.
_HOLDING_NON_JSON = st.tuples(json_values(), st.sampled_from((math.nan, math.inf, -math.inf, (1,)))).flatmap(
    lambda pair: st.sampled_from(
        ({"a": pair[0], "z": pair[1]}, [pair[0], pair[1]], {"a": {"b": [pair[1]]}}, [[pair[1]], pair[0]])
    )
)


# Schemas whose root also holds a not that fails at once, at the type, as it does on these values.
_WITH_A_NOT = schemas().map(
    lambda schema: {**schema, "not": {"type": "number"}} if isinstance(schema, dict) else schema
)


@given(schemas() | _WITH_A_NOT, _HOLDING_NON_JSON)
def test_a_value_holding_what_is_not_json_is_invalid_on_every_path(schema, instance):
    # A branch that fails (under not, or one of anyOf's) must not leave the rest of the value unread.
    validator = toolreg.compile(schema).prepare()
    assert both_paths(validator, instance), instance
    assert validator.is_valid(instance) is False, instance


@pytest.mark.parametrize(
    "schema",
    [
        {"not": {"exclusiveMaximum": 0, "type": "number"}},
        {"not": {"enum": ["x"]}},
        {"not": {"const": 1}},
        {"not": False},
        {"properties": {"b": {"not": {"type": "string"}}}},
        {"anyOf": [{"type": "number"}, {"type": "object"}]},
        {"oneOf": [{"type": "number"}, {"not": {"type": "object"}}, {"type": "object"}]},
        {"if": {"type": "number"}, "then": False},
    ],
)
def test_a_branch_that_fails_at_once_still_has_the_value_read_for_what_is_not_json(schema):
    validator = toolreg.compile(schema).prepare()
    for instance in ({"a": math.nan}, {"b": {"a": (1,)}}, [math.inf]):
        assert both_paths(validator, instance), instance
        assert validator.is_valid(instance) is False, instance


# Each example compiles a schema twice and generates code for it twice: a quarter of the examples.
@settings(max_examples=max(10, settings().max_examples // 4))
@given(schemas(), st.data())
def test_is_valid_answers_as_validate_does_on_both_paths(schema, data):
    # is_valid stops at the first failure, on the generated code and on the reference walk alike.
    # Near-valid ones, their mutations, arbitrary JSON: drawn untraced, as @given's arguments are.
    instances = untraced(data.draw, instances_for(schema))
    fast, walked = toolreg.compile(schema).prepare(), toolreg.compile(schema)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(toolreg._jsonschema.validator, "WALKED_VALUES", 10**9)  # the walk answers
        for instance in instances:
            expected = not both_paths(fast, instance)
            assert fast.is_valid(instance) is expected, instance
            assert walked.is_valid(instance) is expected, instance


# -- threads ----------------------------------------------------------------------------------

THREADS, ROUNDS = 8, 150


def test_registering_overriding_reading_and_validating_at_once():
    registry = toolreg.ToolRegistry()
    registry.register("shared", {"type": "object", "properties": {"v": {"const": -1}}}, accept_any)
    failures = []
    start = threading.Barrier(THREADS)

    def worker(number):
        try:
            start.wait()
            for round_ in range(ROUNDS):
                name = f"t{number}.r{round_}"
                registry.register(name, {"type": "object", "required": [name]}, accept_any, description=name)
                version = number * ROUNDS + round_
                schema = {"type": "object", "properties": {"v": {"const": version}}}
                registry.register("shared", schema, accept_any, description=str(version), override=True)
                record = registry.get("shared")
                # Never torn: the description and the schema come from one registration.
                if record.schema["properties"]["v"]["const"] != int(record.description):
                    failures.append(("torn", record))
                names = registry.names()
                if len(set(names)) != len(names) or names[0] != "shared":
                    failures.append(("names", names))
                if registry.validate(name, {name: 1}) != toolreg.Ok() or not registry.validate(name, {}):
                    failures.append(("validate", name))
        except Exception as error:  # pragma: no cover - reported below
            failures.append(("raised", repr(error)))

    threads = [threading.Thread(target=worker, args=(number,)) for number in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert len(registry) == 1 + THREADS * ROUNDS
    for number in range(THREADS):
        mine = [name for name in registry.names() if name.startswith(f"t{number}.")]
        assert mine == [f"t{number}.r{round_}" for round_ in range(ROUNDS)]  # each thread's order kept


# -- immutability -----------------------------------------------------------------------------


def test_a_record_hands_out_copies_of_its_schema():
    registry = toolreg.ToolRegistry()
    record = registry.register("t", {"type": "object", "properties": {"n": {"type": "integer"}}}, accept_any)
    record.schema["properties"]["n"]["type"] = "string"
    registry.get("t").schema["properties"].clear()
    assert registry.validate("t", {"n": 1}) == toolreg.Ok()
    assert registry.get("t").schema == {"type": "object", "properties": {"n": {"type": "integer"}}}
    arguments = {"n": [1, {"x": 2}]}
    registry.validate("t", arguments)
    assert arguments == {"n": [1, {"x": 2}]}


def test_a_container_changed_between_a_test_and_a_subscript_is_judged_again_from_a_copy(monkeypatch):
    # Another thread may shorten a list between its length and a subscript: an IndexError the walk
    # takes as it takes a RuntimeError, judging one copy instead.
    validator = toolreg.compile({"type": "object", "properties": {"a": {"type": "integer"}}})
    compiled = validator._compiled_schema()
    whole, calls = compiled.checks[""], []

    def changed_once(instance, path, errors):
        calls.append(instance)
        if len(calls) == 1:
            raise IndexError("list index out of range")
        return whole(instance, path, errors)

    # The walk's own table, under the compiled schema's read-only view of it.
    monkeypatch.setitem(compiled._walk.checks, "", changed_once)
    assert [error.path for error in validator.validate_reference({"a": "x"})] == ["/a"]
    assert len(calls) == 2


def test_the_surveys_plain_recursion_takes_at_most_its_small_number_of_frames():
    chain: list[Any] = []
    for _ in range(10 * _SMALL):
        chain = [chain]
    cyclic: list[Any] = []
    cyclic.append(cyclic)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack(0)) + _SMALL + 10)
    try:
        answers = [_small_plain(value, 10**6, _SMALL) for value in (chain, cyclic)]
    finally:
        sys.setrecursionlimit(limit)
    assert answers == [None, None]
    assert survey(cyclic, 10**6)[0] == [((0,), "json", "a container that contains itself")]
