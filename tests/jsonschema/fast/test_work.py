"""The static bound on work: where it says a schema stays within the allowance, no instance passes it."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import toolreg
from toolreg._jsonschema.fast import runtime
from toolreg._jsonschema.fast.work import within_allowance
from toolreg._jsonschema.findings import Findings
from toolreg._jsonschema.limits import DEFAULT_LIMITS, WORK_PER_VALUE
from toolreg._jsonschema.schema import compile_schema
from toolreg._jsonschema.values import ValueKeys, survey

NAMES = ("a", "b", "c")


def _bounded(schema: Any) -> bool:
    return within_allowance(compile_schema(schema, DEFAULT_LIMITS, None, False))


def reference_steps(schema: Any, instance: Any) -> tuple[int, int]:
    """The steps the reference walk spends on ``instance``, and how many values it holds."""
    compiled = compile_schema(schema, DEFAULT_LIMITS, None, False)
    _, values, _ = survey(instance, DEFAULT_LIMITS.max_depth)
    plenty = 10**12
    findings = Findings.budget(plenty)
    compiled.checks[""](instance, (), findings)
    return plenty - findings.left[0], values


def costly_keywords(subschemas: st.SearchStrategy[Any]) -> dict[str, st.SearchStrategy[Any]]:
    """The values of the keywords that spend steps or apply subschemas, by keyword."""
    lists = st.lists(subschemas, min_size=1, max_size=4)
    named = st.dictionaries(st.sampled_from(NAMES), subschemas, min_size=1, max_size=3)
    many = [*NAMES, *(f"n{index}" for index in range(30))]
    names = st.lists(st.sampled_from(many), unique=True, max_size=30)
    containers = st.sampled_from(([], [1], {}, {"a": 1}))
    return {
        "allOf": lists,
        "anyOf": lists,
        "oneOf": lists,
        "not": subschemas,
        "if": subschemas,
        "then": subschemas,
        "else": subschemas,
        "properties": named,
        "patternProperties": st.dictionaries(st.sampled_from(("^a", "b", "^[ac]$")), subschemas, min_size=1),
        "additionalProperties": subschemas,
        "propertyNames": subschemas,
        "items": subschemas,
        "prefixItems": lists,
        "contains": subschemas,
        "uniqueItems": st.booleans(),
        "required": names,
        "dependentRequired": st.dictionaries(st.sampled_from(NAMES), names, max_size=2),
        "dependentSchemas": named,
        "enum": st.lists(containers | st.integers(0, 2), min_size=1, max_size=3),
        "const": containers,
        "$ref": st.sampled_from(("#", "#/$defs/d")),
    }


def some_of(keyword_values: dict[str, st.SearchStrategy[Any]]) -> st.SearchStrategy[Any]:
    """Schema objects of a few of these keywords at a time."""
    # The strategy for each choice of keywords is made once: Hypothesis checks every new strategy it
    # is handed, a quarter of the time drawing these schemas took.
    made: dict[tuple[str, ...], st.SearchStrategy[Any]] = {}

    def of(chosen: dict[str, None]) -> st.SearchStrategy[Any]:
        names = tuple(chosen)
        if names not in made:
            made[names] = st.fixed_dictionaries({name: keyword_values[name] for name in names})
        return made[names]

    return st.dictionaries(st.sampled_from(sorted(keyword_values)), st.none(), max_size=4).flatmap(of)


_SCHEMAS = st.recursive(
    st.booleans() | st.just({}), lambda below: some_of(costly_keywords(below)), max_leaves=12
).map(lambda body: {"$defs": {"d": {"allOf": [{"$ref": "#"}]}}, **body} if isinstance(body, dict) else body)
INSTANCES = st.recursive(
    st.integers(0, 2) | st.sampled_from(("a", "b")),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(NAMES), inner, max_size=3),
    max_leaves=30,
)


@given(_SCHEMAS, st.lists(INSTANCES, min_size=1, max_size=4))
def test_a_schema_within_the_allowance_never_spends_more(schema: Any, instances: list[Any]) -> None:
    try:
        bounded = _bounded(schema)
    except toolreg.SchemaError:
        return  # a loop of in-place references, say: refused before any bound is asked for
    if not bounded:
        return
    for instance in instances:
        steps, values = reference_steps(schema, instance)
        assert steps <= WORK_PER_VALUE * values, (steps, values)


def _array_of_both(depth: int) -> Any:
    """items and contains, each applying the whole schema below: 2^depth applications at the bottom."""
    schema: Any = {"type": "integer"}
    for _ in range(depth):
        schema = {"type": "array", "items": schema, "contains": schema}
    return schema


def _nested_arrays(depth: int, width: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value] * width
    return value


@pytest.mark.parametrize(
    ("schema", "bounded"),
    [
        ({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}, True),
        ({"properties": {"c": {"items": {"$ref": "#"}}}}, True),  # a tree: one application a value
        ({"properties": {"left": {"$ref": "#"}, "right": {"$ref": "#"}}}, True),  # names apart
        ({"prefixItems": [{"$ref": "#"}, {"$ref": "#"}]}, True),  # positions apart
        ({"allOf": [{}] * 40}, True),
        ({"allOf": [{}] * 60}, False),  # 60 steps at one value
        ({"required": [f"n{index}" for index in range(30)]}, False),  # two steps a missing name
        ({"items": {"$ref": "#"}, "contains": {"$ref": "#"}}, False),  # doubles at each level
        ({"patternProperties": {"^a": {"$ref": "#"}}, "additionalProperties": {"$ref": "#"}}, False),
        ({"patternProperties": {"^a": {"$ref": "#"}, "a$": {"$ref": "#"}}}, False),  # both match "a"
        ({"patternProperties": {"^a": {"$ref": "#"}}}, True),
        (_array_of_both(2), True),
        (_array_of_both(7), False),
        ({"$schema": "https://json-schema.org/draft/2019-09/schema"}, False),  # no fast path to spare
        ({"unevaluatedProperties": False}, False),
    ],
)
def test_the_bound_of_known_shapes(schema: Any, bounded: bool) -> None:
    assert _bounded(schema) is bounded


@pytest.mark.no_cover
def test_the_fast_path_counts_where_the_reference_walk_could_run_out() -> None:
    # Schema-size applications for each value: the reference walk runs out of budget, and the fast
    # path, which once counted only with a subschema applied in place, must stop alike.
    validator = toolreg.compile(_array_of_both(7)).prepare()
    instance = _nested_arrays(7, 3)
    reference = validator.validate_reference(instance)
    assert [error.keyword for error in reference] == ["limit"]
    assert validator.validate(instance) == reference
    assert validator.is_valid(instance) is False


def test_the_fast_path_counts_nothing_where_the_schema_stays_within_it() -> None:
    validator = toolreg.compile({"properties": {"c": {"items": {"$ref": "#"}}}}).prepare()
    assert "errors.left" not in validator.source
    counting = toolreg.compile({"items": {"$ref": "#"}, "contains": {"$ref": "#"}}).prepare()
    assert "errors.left" in counting.source


def _counted(monkeypatch: pytest.MonkeyPatch, owner: Any, *names: str) -> list[int]:
    """Count the calls of the functions ``names`` of ``owner`` (recursive ones included), in one total."""
    calls = [0]
    for name in names:
        original = getattr(owner, name)

        def counted(*arguments: Any, original: Any = original) -> Any:
            calls[0] += 1
            return original(*arguments)

        monkeypatch.setattr(owner, name, counted)
    return calls


def _handed_over(level: Any) -> Any:
    return {"properties": {"a": level}, "patternProperties": {"^b": {}}}


def _referred_beside_properties(level: Any) -> Any:
    # The object's own properties name "b" only, so its code shows "a" plain JSON, and the $ref
    # beside them descends into "a".
    return {"$defs": {"t": {"properties": {"a": level}}}, "$ref": "#/$defs/t", "properties": {"b": {}}}


@pytest.mark.parametrize("wrap", [_handed_over, _referred_beside_properties])
def test_a_value_is_shown_plain_json_once_however_many_levels_look_at_it(monkeypatch, wrap):
    # At each of 30 levels the code shows a value plain JSON: to hand it to patternProperties's
    # reference check, or as a property its schema object does not name, beside a $ref that names it.
    # Without the memo that counting used to bring, each level walked everything below it again.
    visits = _counted(monkeypatch, runtime, "plain_json", "_plain_depth")
    schema: Any = {}
    instance: Any = {"z": [[] for _ in range(200)]}
    for _ in range(30):
        schema, instance = wrap(schema), {"a": instance}
    validator = toolreg.compile(schema).prepare()
    assert "errors.left" not in validator.source  # it counts no work
    assert validator.validate(instance) == validator.validate_reference(instance)
    containers = 30 + 1 + 1 + 200
    assert visits[0] <= 2 * containers, visits


def _ring(length: int) -> Any:
    """Positions that each hand their items to the one before, the first to the last: one schema a
    value, so within the allowance, but the bound's figures go round the ring a step a pass."""
    prefix: list[Any] = [{"items": {"$ref": f"#/prefixItems/{index - 1}"}} for index in range(length)]
    names = [f"n{index}" for index in range(10)]
    prefix[0] = {"items": {"$ref": f"#/prefixItems/{length - 1}"}, "required": names}
    return {"prefixItems": prefix}


def test_a_bound_that_would_take_many_passes_gives_up_and_the_fast_path_counts() -> None:
    assert _bounded(_ring(5))
    # Each pass reads the root's 300 positions again: past a bounded number of reads the answer is no.
    assert not _bounded(_ring(300))
    assert "errors.left" in toolreg.compile(_ring(300)).prepare().source


def test_unique_items_keys_each_array_once_at_every_level_of_a_recursive_schema(monkeypatch):
    # uniqueItems keys each array it compares, and keeps the keys in the validation's memo, which the
    # generated code passes it even where it counts no work: else each level keyed all below it again.
    keyed = _counted(monkeypatch, ValueKeys, "_number")
    schema = {
        "$ref": "#/$defs/node",
        "$defs": {"node": {"uniqueItems": True, "items": {"$ref": "#/$defs/node"}}},
    }
    instance: Any = [[index, index + 1] for index in range(200)]
    for _ in range(30):
        instance = [instance]
    validator = toolreg.compile(schema).prepare()
    assert "errors.left" not in validator.source  # it counts no work
    assert validator.validate(instance) == []
    containers = 30 + 1 + 200
    assert keyed[0] <= 2 * containers, keyed
