"""A tool's first calls answered from its vouched snapshot: the same verdict as the walk, or none."""

from __future__ import annotations

import collections
import inspect
import itertools
import math
import sys
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import toolreg
from conformance._official import DIALECT_FOLDERS, default_suite_dir, load_groups
from tests import accept_any
from tests.conftest import WALKED_VALUES
from tests.jsonschema.fast.test_work import INSTANCES, NAMES, costly_keywords, reference_steps, some_of
from tests.properties.test_corpus import RECORDS, needs_corpus
from toolreg._jsonschema.fast.glance import glance_of
from toolreg._jsonschema.fast.quick import Vouched, vouch
from toolreg._jsonschema.fast.work import snapshot_steps, snapshot_within_allowance
from toolreg._jsonschema.limits import WORK_PER_VALUE, Limits
from toolreg._jsonschema.regex import Patterns
from toolreg._jsonschema.values import snapshot
from toolreg._jsonschema.vocabulary import DEFAULT_DIALECT, keywords

SUITE = default_suite_dir()


def verdict(schema: Any, instance: Any) -> bool | None:
    glance = glance_of(schema)
    assert glance is not None, schema
    return glance.verdict(instance)[0]


def test_every_vouched_keyword_has_an_answer_of_its_own() -> None:
    rows = keywords(DEFAULT_DIALECT).values()
    silent = {
        row.name for row in rows if row.speed and row.speed.quick is not None and row.speed.accepts is None
    }
    assert silent == {"$defs", "definitions"}  # they only hold schemas for $ref to name
    assert all(row.speed.quick is not None for row in rows if row.speed and row.speed.accepts is not None)


# -- the coarse work bound: where it holds, the reference walk never spends past the allowance -----


# Values at the edges JSON's semantics draws (true is no integer, 1.0 is; lengths in code points).
_EDGES = st.one_of(
    st.none(),
    st.booleans(),
    st.sampled_from((0, 1, 2, 1.0, 0.5, -0.0, 2.5, "a", "b", "1", "😀", "a😀")),
)


_VOUCHED = {
    row.name for row in keywords(DEFAULT_DIALECT).values() if row.speed and row.speed.quick is not None
}


def _vouched_keywords(subschemas: st.SearchStrategy[Any], refs: bool = True) -> st.SearchStrategy[Any]:
    """Schema objects of the vouched keywords: those that spend steps or apply subschemas, and those
    that judge scalars; ``$ref`` too, unless not ``refs``."""
    containers = st.sampled_from(([], [1], {}, {"a": 1}))
    costly = {name: values for name, values in costly_keywords(subschemas).items() if name in _VOUCHED}
    references = st.sampled_from(("#", "#/definitions/d", "#/definitions/e"))
    return some_of(
        {
            **costly,
            "enum": st.lists(containers | _EDGES, min_size=1, max_size=3),
            "const": containers | _EDGES,
            "$ref": references if refs else st.just("#"),
            "type": st.sampled_from(("integer", "number", "string", "boolean", "null", "array", "object"))
            | st.lists(st.sampled_from(("integer", "string", "null")), min_size=1, max_size=3, unique=True),
            "minLength": st.integers(0, 2),
            "maxLength": st.integers(0, 2),
            "pattern": st.sampled_from(("^a", "\\d", "^.$", "b$")),
            "multipleOf": st.sampled_from((0.5, 1, 2)),
            "minimum": st.sampled_from((0, 1.0, 0.5)),
            "exclusiveMaximum": st.sampled_from((1, 2.5)),
            "minItems": st.integers(0, 2),
            "maxProperties": st.integers(0, 2),
        }
        if refs
        else {name: values for name, values in costly.items() if name != "$ref"}
    )


_DEFINED = {
    "d": {"properties": {"a": {"$ref": "#/definitions/e"}}, "items": {"$ref": "#/definitions/e"}},
    "e": {"type": "array"},
}
_SCHEMAS = st.recursive(st.booleans() | st.just({}), _vouched_keywords, max_leaves=12).map(
    lambda body: {"definitions": _DEFINED, **body} if isinstance(body, dict) else body
)
# Each dialect the quick check reads; draft-07 reads a $ref alone, ignoring its siblings.
_DIALECTS = st.sampled_from(
    [
        None,
        "https://json-schema.org/draft/2020-12/schema",
        "https://json-schema.org/draft/2019-09/schema",
        "http://json-schema.org/draft-07/schema#",
    ]
)
_DECLARED = st.tuples(_SCHEMAS, _DIALECTS).map(
    lambda pair: {"$schema": pair[1], **pair[0]} if pair[1] and isinstance(pair[0], dict) else pair[0]
)
_RICH_INSTANCES = st.recursive(
    _EDGES,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(NAMES), inner, max_size=3),
    max_leaves=30,
)


@given(_DECLARED, st.lists(INSTANCES, min_size=1, max_size=4))
def test_a_snapshot_within_the_coarse_bound_never_spends_more(schema: Any, instances: list[Any]) -> None:
    glance = glance_of(schema)
    if glance is None or not snapshot_within_allowance(glance._root, glance.target):
        return
    for instance in instances:
        steps, values = reference_steps(schema, instance)
        assert steps <= WORK_PER_VALUE * values, (steps, values)


@given(_DECLARED, st.lists(_RICH_INSTANCES, min_size=1, max_size=4))
def test_the_glance_gives_the_walks_verdict_or_none(schema: Any, instances: list[Any]) -> None:
    glance = glance_of(schema)
    if glance is None:
        return
    validator = toolreg.compile(schema)
    for instance in instances:
        answer = glance.verdict(instance)[0]
        if answer is not None:
            assert answer is (not validator.validate(instance)), instance


_REF_FREE = st.recursive(
    st.booleans() | st.just({}), lambda inner: _vouched_keywords(inner, refs=False), max_leaves=12
)


def _vouched(schema: Any) -> Vouched | None:
    cache = Patterns(Limits().max_pattern_program)
    return vouch(snapshot(schema, 128), Limits(), cache.guarded)


def _bounds_both(schema: Any, work: int, instances: list[Any]) -> None:
    """The quick check's sum is coarser than the snapshot's bound, which it stands in for wherever it
    is within the allowance, and than what the reference walk spends at each value."""
    glance = glance_of(schema)
    assert glance is not None
    assert min(work, WORK_PER_VALUE + 1) >= snapshot_steps(glance._root, glance.target), schema
    for instance in instances:
        steps, values = reference_steps(schema, instance)
        assert steps <= work * values, (schema, instance, steps, values)


@given(_REF_FREE, st.lists(INSTANCES, min_size=1, max_size=4))
def test_the_quick_checks_sum_over_a_schema_without_refs_bounds_what_each_value_costs(
    schema: Any, instances: list[Any]
) -> None:
    vouched = _vouched(schema)
    assert vouched is not None and vouched.work is not None, schema
    _bounds_both(schema, vouched.work, instances)


def test_the_quick_checks_sum_counts_each_schema_object_and_its_keywords_steps() -> None:
    def work(schema: Any) -> int | None:
        vouched = _vouched(schema)
        assert vouched is not None
        return vouched.work

    # Two schema objects, and two steps for each name required may find missing.
    assert work({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}) == 4
    assert work({"allOf": [True, {"enum": [[1]]}]}) == 4  # three objects and a comparison
    # A $ref to an object of no subschemas counts its target again: three objects, and b once more.
    assert work({"properties": {"a": {"$ref": "#/$defs/b"}}, "$defs": {"b": {}}}) == 4
    # Three objects, a step for each item, two for the name b requires, and b again for the $ref.
    assert work({"items": {"$ref": "#/$defs/b"}, "$defs": {"b": {"required": ["x"]}}}) == 3 + 1 + 2 + 3
    # A $ref to one that holds a subschema may lead on anywhere: no sum.
    assert work({"items": {"$ref": "#/$defs/b"}, "$defs": {"b": {"items": {}}}}) is None
    assert work({"items": {"$ref": "#/$defs/b"}, "$defs": {"b": {"properties": {}}}}) is None
    assert work({"items": {"$ref": "#/$defs/b"}, "$defs": {"b": {"prefixItems": [{}]}}}) is None


def _with_targets(drawn: tuple[Any, Any, Any, str | None]) -> Any:
    body, first, second, dialect = drawn
    root = body if isinstance(body, dict) else {"allOf": [body]}
    declared = {"$schema": dialect} if dialect else {}
    return {**declared, **root, "definitions": {"d": first, "e": second}}


# Schemas whose $refs lead to drawn targets: many with no subschema, whose steps the quick check
# adds again for each $ref, and others it must not sum.
_TARGETED = st.tuples(
    st.recursive(
        st.booleans() | st.sampled_from(({}, {"$ref": "#/definitions/d"}, {"$ref": "#/definitions/e"})),
        lambda inner: _vouched_keywords(inner, refs=False),
        max_leaves=10,
    ),
    _REF_FREE,
    _REF_FREE,
    _DIALECTS,
).map(_with_targets)


@given(_TARGETED, st.lists(INSTANCES, min_size=1, max_size=4))
def test_the_quick_checks_sum_over_a_schema_with_refs_bounds_what_each_value_costs(
    schema: Any, instances: list[Any]
) -> None:
    vouched = _vouched(schema)
    if vouched is not None and vouched.work is not None:
        _bounds_both(schema, vouched.work, instances)


@pytest.mark.parametrize(
    ("schema", "within"),
    [
        ({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}, True),
        ({"properties": {f"p{index}": {"enum": [1, 2]} for index in range(200)}}, True),  # names apart
        ({"prefixItems": [{"const": [1]}] * 100}, True),  # positions apart
        ({"allOf": [{}] * 40}, True),
        ({"allOf": [{}] * 60}, False),  # 60 steps at one value
        ({"required": [f"n{index}" for index in range(30)]}, False),  # two steps a missing name
        ({"properties": {"c": {"items": {"$ref": "#"}}}}, False),  # it reaches itself
        # Each branch: a step for it, one for its $ref's target, one for the comparison: 1 + 16 * 3 = 49.
        ({"$defs": {"a": {"const": [1]}}, "anyOf": [{"$ref": "#/$defs/a"}] * 16}, True),
        ({"$defs": {"a": {"const": [1]}}, "anyOf": [{"$ref": "#/$defs/a"}] * 17}, False),
    ],
)
def test_the_coarse_bound_of_known_shapes(schema: Any, within: bool) -> None:
    glance = glance_of(schema)
    assert glance is not None
    assert snapshot_within_allowance(glance._root, glance.target) is within


# -- answers, and where it gives none -------------------------------------------------------------

_TOOL = {
    "type": "object",
    "properties": {
        "path": {"type": "string", "minLength": 1, "pattern": "^/"},
        "mode": {"enum": ["r", "w"]},
        "size": {"type": "integer", "minimum": 0, "multipleOf": 0.5},
        "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": True, "maxItems": 3},
        "owner": {"$ref": "#/$defs/owner"},
        "note": {"anyOf": [{"type": "string"}, {"type": "null"}]},
    },
    "required": ["path"],
    "additionalProperties": False,
    "$defs": {
        "owner": {"type": "object", "properties": {"id": {"const": 1.0}}, "propertyNames": {"maxLength": 2}}
    },
}


@pytest.mark.parametrize(
    ("instance", "valid"),
    [
        ({"path": "/a"}, True),
        (
            {"path": "/a", "mode": "w", "size": 2.0, "tags": ["x", "y"], "owner": {"id": 1}, "note": None},
            True,
        ),
        ({"path": "/😀", "size": 0.0}, True),
        ({"path": "a"}, False),  # an ECMA-262 search for "^/"
        ({"path": ""}, False),
        ({"path": "/a", "size": True}, False),  # true is no integer
        ({"path": "/a", "size": 1.25}, False),
        ({"path": "/a", "size": "1"}, False),  # no coercion
        ({"path": "/a", "tags": ["x", "x"]}, False),
        ({"path": "/a", "tags": ["a", "b", "c", "d"]}, False),
        ({"path": "/a", "owner": {"id": True}}, False),  # 1 == 1.0, never true
        ({"path": "/a", "owner": {"long": 1}}, False),
        ({"path": "/a", "note": 3}, False),
        ({"path": "/a", "extra": 1}, False),
        ({}, False),
        ([], False),
    ],
)
def test_the_glance_answers_as_the_walk_does(instance: Any, valid: bool) -> None:
    assert (not toolreg.compile(_TOOL).validate(instance)) is valid
    assert verdict(_TOOL, instance) is valid


@pytest.mark.parametrize(
    "instance",
    [
        {"path": "/a", "size": math.nan},  # not JSON: the walk says where
        {"path": "/a", "size": math.inf},
        collections.OrderedDict(path="/a"),  # a subclass: the walk reads a plain copy
        {"path": "/a", "owner": {"id": 1, "deep": [[[[]]]]}},
    ],
)
def test_the_glance_gives_no_answer_for_what_is_not_plain_json_within_the_limits(instance: Any) -> None:
    limits = Limits(max_depth=4)
    glance = glance_of(_TOOL, limits)
    assert glance is not None
    assert glance.verdict(instance)[0] is None


@pytest.mark.parametrize(
    "schema",
    [
        {"properties": {"a": {"$ref": "#"}}},  # recursive: no sum bounds it
        {"allOf": [{"enum": [[1], [2]]}] * 60},  # past the allowance
    ],
)
def test_the_glance_gives_no_answer_where_it_cannot_be_sure(schema: Any) -> None:
    glance = glance_of(schema)
    assert glance is not None
    assert glance.verdict({"a": "x"})[0] is None
    assert not glance.answers


D7 = "http://json-schema.org/draft-07/schema#"


@pytest.mark.parametrize(
    ("schema", "instance", "valid"),
    [
        # Draft-07 reads a $ref alone: its siblings are not checked.
        (
            {
                "$schema": D7,
                "definitions": {"s": {"type": "string"}},
                "$ref": "#/definitions/s",
                "minLength": 3,
            },
            "a",
            True,
        ),
        (
            {
                "$schema": D7,
                "definitions": {"s": {"type": "string"}},
                "$ref": "#/definitions/s",
                "minLength": 3,
            },
            1,
            False,
        ),
        # 2019-09 reads it beside them, as 2020-12 does.
        (
            {
                "$schema": "https://json-schema.org/draft/2019-09/schema",
                "$defs": {"s": {"type": "string"}},
                "$ref": "#/$defs/s",
                "minLength": 3,
            },
            "a",
            False,
        ),
        ({"$schema": D7, "items": {"type": "integer"}}, [1, 2.0], True),
        ({"$schema": D7, "items": {"type": "integer"}}, [1, True], False),
    ],
)
def test_older_dialects_are_answered_as_they_read(schema: Any, instance: Any, valid: bool) -> None:
    assert (not toolreg.compile(schema).validate(instance)) is valid
    assert verdict(schema, instance) is valid


def _nested_items(levels: int) -> tuple[Any, Any]:
    """``items`` nested ``levels`` deep above an integer, and a valid array as deep."""
    schema: Any = {"type": "integer"}
    value: Any = 1
    for _ in range(levels):
        schema, value = {"items": schema}, [value]
    return schema, value


def test_a_schema_deeper_than_the_bound_follows_is_left_to_the_walk() -> None:
    schema, value = _nested_items(70)
    glance = glance_of(schema)
    assert glance is not None
    assert glance.verdict(value)[0] is None  # 70 schemas deep: past what the bound follows
    assert not glance.answers
    assert not toolreg.compile(schema).validate(value)


def test_formats_are_answered_as_the_registry_reads_them() -> None:
    schema = {"properties": {"when": {"type": "string", "format": "date"}}}
    assert verdict(schema, {"when": "not a date"}) is True
    asserting = glance_of(schema, asserts_formats=True)
    assert asserting is not None
    assert asserting.verdict({"when": "not a date"})[0] is False
    assert asserting.verdict({"when": "2026-12-05"})[0] is True


@pytest.fixture
def registered(monkeypatch: pytest.MonkeyPatch) -> tuple[toolreg.ToolRegistry, toolreg.ToolRecord]:
    """A registry holding ``_TOOL`` as "t.tool", its validators walking first as the library's do."""
    monkeypatch.setattr(toolreg._jsonschema.validator, "WALKED_VALUES", WALKED_VALUES)
    registry = toolreg.ToolRegistry()
    return registry, registry.register("t.tool", _TOOL, accept_any)


def test_a_valid_first_call_is_answered_without_compiling_and_an_invalid_one_compiles(
    registered: tuple[toolreg.ToolRegistry, toolreg.ToolRecord],
) -> None:
    registry, record = registered
    assert not registry.validate("t.tool", {"path": "/a"})
    assert registry.is_valid("t.tool", {"path": "/a"})
    assert not registry.is_valid("t.tool", {"path": "a"})
    assert record.validator._compiled is None  # the glance answered all three
    assert [error.keyword for error in registry.validate("t.tool", {"path": "a"})] == ["pattern"]
    assert record.validator._compiled is not None
    assert not registry.validate("t.tool", {"path": "/b"})


def test_a_schema_the_glance_cannot_answer_for_stops_asking_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(toolreg._jsonschema.validator, "WALKED_VALUES", WALKED_VALUES)
    registry = toolreg.ToolRegistry()
    record = registry.register("t.tool", {"properties": {"a": {"$ref": "#"}}}, accept_any)
    assert not registry.validate("t.tool", {"a": {}})
    assert record.validator._glance is None
    assert record.validator._compiled is not None


@pytest.mark.slow
@pytest.mark.skipif(not (SUITE / "tests").is_dir(), reason=f"official suite not found at {SUITE}")
def test_every_official_case_the_glance_answers_is_answered_as_the_walk_does() -> None:
    answered = 0
    for folder, part in itertools.product(DIALECT_FOLDERS, ("required", "optional")):
        for group in load_groups(SUITE, folder, part):
            try:
                validator = toolreg.compile(group.schema, assert_formats=group.assert_formats)
            except toolreg.SchemaError:
                continue
            glance = glance_of(group.schema, asserts_formats=group.assert_formats)
            for case in group.cases if glance is not None else ():
                answer = glance.verdict(case["data"])[0]
                if answer is not None:
                    answered += 1
                    assert answer is (not validator.validate(case["data"])), (group.description, case)
    assert answered > 1000


def _reaches_an_ancestor(schema: Any, at: str = "") -> bool:
    """Whether a local $ref in ``schema`` leads to a schema holding it (a tree of itself)."""
    if isinstance(schema, list):
        return any(_reaches_an_ancestor(item, f"{at}/{index}") for index, item in enumerate(schema))
    if not isinstance(schema, dict):
        return False
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#") and at.startswith(ref[1:]):
        return True
    return any(_reaches_an_ancestor(item, f"{at}/{key}") for key, item in schema.items())


@pytest.mark.no_cover
@pytest.mark.slow
@needs_corpus
def test_every_valid_real_schema_but_a_tree_of_itself_is_answered_at_its_first_call() -> None:
    answered, trees = 0, 0
    for record in RECORDS:
        try:
            toolreg.compile(record["schema"])
        except toolreg.SchemaError:
            continue
        glance = glance_of(record["schema"])
        assert glance is not None, record["name"]
        glance.verdict({})
        if _reaches_an_ancestor(record["schema"]):
            trees += 1
            assert not glance.answers, record["name"]
        else:
            answered += 1
            assert glance.answers, record["name"]
    assert answered > 1000 and trees > 0


@pytest.mark.parametrize("bound_known", [True, False])
def test_a_caller_deep_in_its_own_stack_gets_no_answer_rather_than_a_recursion_error(
    bound_known: bool,
) -> None:
    schema, value = _nested_items(15)
    glance = glance_of(schema)
    assert glance is not None
    if bound_known:
        assert glance.verdict(value)[0] is True
    limit = sys.getrecursionlimit()
    depth = len(inspect.stack(0))
    sys.setrecursionlimit(depth + 20)  # room for the survey, not for 15 levels of bound or reading
    try:
        answer = glance.verdict(value)[0]
    finally:
        sys.setrecursionlimit(limit)
    assert answer is None
    assert glance.verdict(value)[0] is True  # with room again, the bound is worked out and it answers


def test_a_glance_another_thread_dropped_leaves_the_answer_to_the_walk(
    registered: tuple[toolreg.ToolRegistry, toolreg.ToolRecord],
) -> None:
    registry, record = registered
    record.validator._glance = None  # as another thread does once the glance can never answer
    assert record.validator._glanced({"path": "/a"}, collecting=True) is None
    assert not registry.validate("t.tool", {"path": "/a"})
    assert not registry.is_valid("t.tool", {"path": "a"})


def test_a_container_changed_as_the_glance_reads_it_leaves_the_answer_to_the_walk(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Another thread shortening a list between its length and a subscript: no IndexError escapes.
    glance = glance_of({"type": "object", "properties": {"a": {"type": "integer"}}})
    assert glance is not None

    def shortened(self: Any, schema: Any, instance: Any) -> bool:
        raise IndexError("list index out of range")

    monkeypatch.setattr("toolreg._jsonschema.fast.glance._Reading.fits", shortened)
    assert glance.verdict({"a": 1}) == (None, 2)
