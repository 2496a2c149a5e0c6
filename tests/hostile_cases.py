"""Inputs that once took seconds and hundreds of megabytes to validate, each run in a child process.

``python -m tests.hostile_cases NAME`` builds the case, caps the address space at what the process
holds then plus 200 MB (so building the instance is not counted, and validating it may take 200 MB
at most), answers it on every path and prints the answers as JSON: a MemoryError, a crash or a hang
is what the tests in ``test_hostile`` look for.
"""

from __future__ import annotations

import json
import resource
import sys
import time
from collections.abc import Callable
from typing import Any

import toolreg
from toolreg._jsonschema.fast.glance import glance_of

MEGABYTES = 200


def contains_under_unevaluated_items() -> tuple[Any, Any]:
    """``contains`` beside ``unevaluatedItems: false``, 24 deep, on a valid 50-byte argument: each level
    evaluated ``contains`` again to learn which items it had seen, twice the work of the level below."""
    schema: Any = {"type": "integer"}
    instance: Any = 1
    for _ in range(24):
        schema = {"contains": schema, "unevaluatedItems": False}
        instance = [instance]
    return schema, instance


def many_patterns_by_many_names() -> tuple[Any, Any]:
    """1,000 ``patternProperties`` against an object of 30,000 names: 30 million searches."""
    schema = {"patternProperties": {f"^k{index}x": {"type": "integer"} for index in range(1000)}}
    return schema, {f"name{index}": index for index in range(30_000)}


def _wrapped(bottom: Any, levels: int) -> Any:
    for _ in range(levels):
        bottom = [bottom]
    return bottom


def unique_items_at_every_level() -> tuple[Any, Any]:
    """``uniqueItems`` at each level of a recursive schema, 100 levels above 60,000 pairs (840 KB): each
    level compared its whole subtree again."""
    schema = {
        "$ref": "#/$defs/node",
        "$defs": {"node": {"uniqueItems": True, "items": {"$ref": "#/$defs/node"}}},
    }
    return schema, _wrapped([[index, index + 1] for index in range(60_000)], 100)


def enum_of_arrays_at_every_level() -> tuple[Any, Any]:
    """An ``enum`` of arrays at each level of a recursive schema, 100 levels above 60,000 pairs: each
    level keyed its whole subtree to look it up."""
    options = [[[index, index + 1]] for index in range(50)]
    schema = {
        "$ref": "#/$defs/node",
        "$defs": {"node": {"not": {"enum": options}, "items": {"$ref": "#/$defs/node"}}},
    }
    return schema, _wrapped([[index, index + 1] for index in range(60_000)], 100)


def many_branches_through_every_item() -> tuple[Any, Any]:
    """1,000 ``allOf`` branches each going through 100,000 items: the branches were counted, the
    hundred million items they looked at were not."""
    return {"allOf": [{"items": {"type": "integer"}} for _ in range(1000)]}, list(range(100_000))


def one_nan_in_nine_megabytes() -> tuple[Any, Any]:
    """One NaN after 1,500,000 numbers (12 MB of JSON): one ``json`` error took 5 s and 600 MB."""
    return {"type": "array"}, [*range(1_500_000), float("nan")]


def property_names_of_a_large_enum() -> tuple[Any, Any]:
    """3,000 property names outside an ``enum`` of 3,000: each error's message listed every value
    (90 MB of text, 4 s)."""
    schema = {"type": "object", "propertyNames": {"enum": [f"k{index}" for index in range(3000)]}}
    return schema, {f"x{index}": 1 for index in range(3000)}


def a_large_enum_for_each_item() -> tuple[Any, Any]:
    """10,000 items outside an ``enum`` of 3,000 strings: a gigabyte of messages, read."""
    return {"items": {"enum": [f"value {index} " + "v" * 20 for index in range(3000)]}}, list(range(10_000))


def a_large_const_for_each_item() -> tuple[Any, Any]:
    """10,000 items unequal to a ``const`` of 20,000 numbers: each message wrote it whole."""
    return {"items": {"const": list(range(20_000))}}, list(range(10_000))


def many_required_names_for_many_objects() -> tuple[Any, Any]:
    """``required`` of 3,000 names over 10,000 empty objects: 30 million errors, uncounted."""
    return {"items": {"required": [f"k{index}" for index in range(3000)]}}, [{}] * 10_000


def many_dependent_names_for_many_objects() -> tuple[Any, Any]:
    """The same through ``dependentRequired``, each error worded as it was made."""
    schema = {"items": {"dependentRequired": {"a": [f"k{index}" for index in range(3000)]}}}
    return schema, [{"a": 1}] * 10_000


def many_properties_for_many_objects() -> tuple[Any, Any]:
    """``properties`` naming 2,000 over 100,000 empty objects: each looked up 2,000 names (5,000 took
    10 to 16 s)."""
    schema = {"items": {"properties": {f"k{index}": {"type": "string"} for index in range(2000)}}}
    return schema, [{}] * 100_000


def many_prefix_items_for_many_arrays() -> tuple[Any, Any]:
    """2,000 ``prefixItems`` over 100,000 empty arrays: the fast path tested each position."""
    return {"items": {"prefixItems": [{"type": "string"}] * 2000}}, [[]] * 100_000


def a_closed_object_of_many_names_for_each_item() -> tuple[Any, Any]:
    """A closed object of 3,000 names, broken by each of 10,000 items: each error froze and sorted
    the names it allows (34 s to read them all)."""
    schema = {
        "items": {"properties": {f"k{index}": {} for index in range(3000)}, "additionalProperties": False}
    }
    return schema, [{"zz": 1}] * 10_000


def a_large_enum_for_each_valid_item() -> tuple[Any, Any]:
    """100,000 items each the last value of an ``enum`` of 3,000 strings: a first call answered from
    the schema as written compared each item with each value."""
    values = [f"v{index}" for index in range(3000)]
    return {"items": {"enum": values}}, [values[-1]] * 100_000


def items_and_contains_at_every_level() -> tuple[Any, Any]:
    """``items`` and ``contains`` each applying the level below, 9 levels of 3 items: 2**9 schemas on
    each of 20,000 values; the fast path, counting no work as nothing applied in place, called it
    valid after 5 s, where the reference walk ran out of budget."""
    schema: Any = {"type": "integer"}
    instance: Any = 1
    for _ in range(9):
        schema = {"type": "array", "items": schema, "contains": schema}
        instance = [instance] * 3
    return schema, instance


def many_failing_branches_each_keeping_many_errors(dialect: str | None = None) -> tuple[Any, Any]:
    """An ``anyOf`` of 1,000 branches, each failing at every one of 100,000 properties: the errors of
    the branches walked until the budget ran out were kept, 5 million of them (18 s, 1.5 GB)."""
    schema = {"anyOf": [{"additionalProperties": {"type": "string"}} for _ in range(1000)]}
    declared = {} if dialect is None else {"$schema": dialect}
    return {**declared, **schema}, {f"k{index}": index for index in range(100_000)}


def the_same_failing_branches_in_2019_09() -> tuple[Any, Any]:
    """The same in 2019-09, where no code is generated: 20 s and 1.5 GB there once 2020-12 was mended."""
    return many_failing_branches_each_keeping_many_errors("https://json-schema.org/draft/2019-09/schema")


def the_same_failing_branches_in_draft_07() -> tuple[Any, Any]:
    """The same in draft-07 (16 s and 1.5 GB)."""
    return many_failing_branches_each_keeping_many_errors("http://json-schema.org/draft-07/schema#")


CASES: dict[str, Callable[[], tuple[Any, Any]]] = {
    case.__name__: case
    for case in (
        contains_under_unevaluated_items,
        many_patterns_by_many_names,
        unique_items_at_every_level,
        enum_of_arrays_at_every_level,
        many_branches_through_every_item,
        one_nan_in_nine_megabytes,
        property_names_of_a_large_enum,
        a_large_enum_for_each_item,
        a_large_const_for_each_item,
        many_required_names_for_many_objects,
        many_dependent_names_for_many_objects,
        many_properties_for_many_objects,
        many_prefix_items_for_many_arrays,
        a_closed_object_of_many_names_for_each_item,
        a_large_enum_for_each_valid_item,
        items_and_contains_at_every_level,
        many_failing_branches_each_keeping_many_errors,
        the_same_failing_branches_in_2019_09,
        the_same_failing_branches_in_draft_07,
    )
}

# Cases whose standard output is written too (``output`` walks every branch again, for its words).
WRITTEN = frozenset(
    {
        "many_failing_branches_each_keeping_many_errors",
        "the_same_failing_branches_in_2019_09",
        "the_same_failing_branches_in_draft_07",
    }
)


def _cap(megabytes: int) -> None:
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[0])
    limit = pages * resource.getpagesize() + megabytes * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _resident_megabytes() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize() / 2**20


def _shown(errors: Any) -> list[list[str]]:
    return [[error.path, error.keyword] for error in errors]


def _kept(store: list[Any], errors: Any) -> Any:
    store.append(errors)
    return errors


def _words(errors: Any) -> int:
    """The longest message, every error's words and facts read as a caller would."""
    return max((len(error.message) + len(error.facts) for error in errors), default=0)


def _written(output: dict[str, Any]) -> list[Any]:
    """The verdict of a basic output and what its errors say."""
    return [output["valid"], [unit["error"] for unit in output.get("errors", [])]]


def answers(name: str) -> dict[str, Any]:
    """Every path's answer for the case: the reference walk (a validator's first call), the
    generated fast path, and ``is_valid`` on both; how long each took, and the memory they took."""
    schema, instance = CASES[name]()
    validator, unused = toolreg.compile(schema), toolreg.compile(schema)
    glance = glance_of(schema)
    prepared = toolreg.compile(schema).prepare()
    _cap(MEGABYTES)
    resident = _resident_megabytes()
    found: dict[str, Any] = {}
    seconds: dict[str, float] = {}
    fast: list[Any] = []  # the fast path's errors, until their words are read
    for path, answer in (
        ("first call", lambda: _shown(validator.validate(instance))),  # the reference walk
        # A registry's first call, before compiling: valid, invalid, or no answer (None).
        ("glance", lambda: None if glance is None else glance.verdict(instance)[0]),
        ("fast path", lambda: _shown(_kept(fast, prepared.validate(instance)))),
        # The words of the very errors the fast path returned: validating again would only repeat it.
        ("longest message", lambda: _words(fast.pop())),
        ("is_valid, first call", lambda: unused.is_valid(instance)),
        ("is_valid, fast path", lambda: prepared.is_valid(instance)),
        *([("output", lambda: _written(unused.output(instance)))] if name in WRITTEN else []),
    ):
        started = time.perf_counter()
        found[path] = answer()
        seconds[path] = round(time.perf_counter() - started, 3)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kilobytes on Linux
    return {"answers": found, "seconds": seconds, "megabytes": round(peak - resident, 1)}


if __name__ == "__main__":
    print(json.dumps(answers(sys.argv[1])))
