"""Hypothesis strategies: random schemas in toolreg's vocabulary, and instances that probe them."""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable, Collection
from typing import Any

from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument
from hypothesis_jsonschema import from_schema

__all__ = [
    "KEYWORD_VALUES",
    "PROPERTY_NAMES",
    "schemas",
    "json_values",
    "instances_for",
    "shaped",
    "ecma_patterns",
]

Strategy = st.SearchStrategy[Any]

# Names where JSON Pointer escaping, emptiness, digits and non-ASCII can go wrong.
PROPERTY_NAMES = ("a", "b", "", "/", "~", "a/b", "~1", "~0/", "0", "12", "é", "e\u0301", "😀", "$ref")

# Values where Python's and JSON's ideas of equality, type and length part.
CORNER_SCALARS: tuple[Any, ...] = (
    None, True, False, 0, 1, -1, 0.0, -0.0, 1.0, 2.0, 1.5, -2.5, 1e300, 2**64 + 1, -(2**70),
    "", "a", "ab", "abc", "é", "e\u0301", "😀", "😀😀", "\u0664", "7", "a\n", "\n", " ", "~", "/", "true",
)  # fmt: skip
NOT_JSON_NUMBERS = (math.nan, math.inf, -math.inf)
# Characters on which ECMA-262 and Python's re disagree, or that patterns name.
TEXT_CORNERS = "ab_é😀09\u0664\U0001d7f1 \n\t.$/~"

# Characters Python's re counts as digits, word characters or spaces, and ECMA-262 does not.
UNICODE_TWINS = str.maketrans(
    "0123456789ab_ ", "\u0660\u0661\u0662\u0663\u0664\u0665\u0666\u0667\u0668\u0669éßµ\x85"
)

TYPE_NAMES = ("null", "boolean", "integer", "number", "string", "array", "object")

# ECMA-262 atoms that Python's re reads the same way as a pattern, though it may match differently.
PATTERN_ATOMS = (
    "a", "b", "é", "😀", "0", " ", r"\d", r"\w", r"\s", r"\D", r"\W", ".", r"\.", r"\$", r"\n",
    "[a-c]", "[^a]", "[0-9_]", r"[\d.]", "[é😀]",
)  # fmt: skip
QUANTIFIERS = ("", "", "", "*", "+", "?", "{2}", "{1,3}", "*?")


@functools.cache
def ecma_patterns() -> st.SearchStrategy[str]:
    """Patterns from a small ECMA-262 grammar: atoms, classes, groups, alternation, quantifiers, anchors."""
    pieces = st.tuples(st.sampled_from(PATTERN_ATOMS), st.sampled_from(QUANTIFIERS)).map("".join)
    sequences = st.lists(pieces, min_size=1, max_size=3).map("".join)
    groups = st.lists(sequences, min_size=1, max_size=3).map(lambda branches: "(" + "|".join(branches) + ")")
    bodies = st.lists(sequences | groups, min_size=1, max_size=2).map("".join)
    alternatives = st.lists(bodies, min_size=1, max_size=2).map("|".join)
    return st.tuples(st.sampled_from(("", "^")), alternatives, st.sampled_from(("", "$"))).map("".join)


@functools.cache
def json_values(*, allow_non_finite: bool = False) -> Strategy:
    """Arbitrary JSON, weighted towards the corner values and names above."""
    scalars = (
        st.sampled_from(CORNER_SCALARS)
        | st.none()
        | st.booleans()
        | st.integers()
        | st.floats(allow_nan=False, allow_infinity=False)
        | st.text(max_size=6)
        | st.text(TEXT_CORNERS, max_size=5)
    )
    if allow_non_finite:
        scalars = scalars | st.sampled_from(NOT_JSON_NUMBERS)
    keys = st.sampled_from(PROPERTY_NAMES) | st.text(max_size=3)
    return st.recursive(
        scalars,
        lambda children: st.lists(children, max_size=4) | st.dictionaries(keys, children, max_size=4),
        max_leaves=10,
    )


def _bound(low: int, high: int) -> Callable[[Strategy], Strategy]:
    return lambda subschemas: st.integers(low, high)


# For each supported keyword, how to draw its value given a strategy for subschemas.
KEYWORD_VALUES: dict[str, Callable[[Strategy], Strategy]] = {
    "type": lambda subschemas: (
        st.sampled_from(TYPE_NAMES)
        | st.lists(st.sampled_from(TYPE_NAMES), min_size=1, max_size=3, unique=True)
    ),
    "enum": lambda subschemas: st.lists(json_values(), min_size=1, max_size=4),
    "minLength": _bound(1, 4),
    "maxLength": _bound(0, 4),
    "pattern": lambda subschemas: ecma_patterns(),
    "required": lambda subschemas: st.lists(st.sampled_from(PROPERTY_NAMES), max_size=3, unique=True),
    "properties": lambda subschemas: st.dictionaries(st.sampled_from(PROPERTY_NAMES), subschemas, max_size=3),
    "items": lambda subschemas: subschemas,
}


def schemas(keywords: Collection[str] | None = None, *, max_leaves: int = 8) -> Strategy:
    """Recursive schemas using only ``keywords`` (default: all supported), boolean schemas included."""
    vocabulary = sorted(KEYWORD_VALUES if keywords is None else keywords)
    unknown = set(vocabulary) - set(KEYWORD_VALUES)
    if unknown:
        raise ValueError(f"no generator for keyword(s) {', '.join(sorted(unknown))}")

    def objects(subschemas: Strategy) -> Strategy:
        # Built once: Hypothesis validates each new strategy object, which is slow to do per draw.
        values = {name: KEYWORD_VALUES[name](subschemas) for name in vocabulary}
        chosen = st.lists(st.sampled_from(vocabulary), min_size=1, max_size=4, unique=True)
        return chosen.flatmap(
            lambda names: st.fixed_dictionaries(
                {name: values[name] for name in names},
                optional=_implied_type(names, vocabulary),
            )
        )

    leaves: Strategy = st.booleans() | st.just({}) | objects(st.booleans())
    return st.recursive(leaves, objects, max_leaves=max_leaves)


# Keywords that only speak to one type; a schema using them often says so, as real schemas do.
TYPE_OF_KEYWORD = {
    "minLength": "string",
    "maxLength": "string",
    "pattern": "string",
    "required": "object",
    "properties": "object",
    "items": "array",
}


def _implied_type(names: list[str], vocabulary: Collection[str]) -> dict[str, Strategy]:
    implied = {TYPE_OF_KEYWORD[name] for name in names if name in TYPE_OF_KEYWORD}
    if "type" in names or "type" not in vocabulary or len(implied) != 1:
        return {}
    return {"type": st.just(implied.pop())}


def _mutations(value: Any) -> Strategy:
    """``value`` with one change inside: a new type, a dropped key, a longer string, a broken item."""
    places: list[tuple[tuple[str | int, ...], Any]] = []
    stack: list[tuple[tuple[str | int, ...], Any]] = [((), value)]
    while stack:
        path, item = stack.pop()
        places.append((path, item))
        if isinstance(item, list):
            stack.extend((path + (index,), child) for index, child in enumerate(item))
        elif isinstance(item, dict):
            stack.extend((path + (key,), child) for key, child in item.items())

    def replace(place: tuple[tuple[str | int, ...], Any]) -> Strategy:
        path, item = place
        options = [json_values(allow_non_finite=True), st.sampled_from(CORNER_SCALARS)]
        if isinstance(item, str):
            changed = (item.translate(UNICODE_TWINS), item[: len(item) // 2], item * 3 + "x", item + "\n", "")
            options.insert(0, st.sampled_from(changed))
        if isinstance(item, dict) and item:
            options.append(
                st.sampled_from(sorted(item)).map(lambda key: {k: v for k, v in item.items() if k != key})
            )
        if isinstance(item, list) and item:
            options.append(st.just(item + item))
        return st.one_of(options).map(lambda new: _replaced(value, path, new))

    return st.sampled_from(places).flatmap(replace)


def _replaced(value: Any, path: tuple[str | int, ...], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, list):
        assert isinstance(head, int)
        return [_replaced(item, rest, new) if index == head else item for index, item in enumerate(value)]
    return {key: _replaced(item, rest, new) if key == head else item for key, item in value.items()}


@functools.lru_cache(maxsize=4096)
def _from_schema(schema_json: str) -> Strategy:
    # Building the strategy is costly (hypothesis-jsonschema canonicalises with jsonschema), and
    # shrinking asks for the same schemas again and again.
    return from_schema(json.loads(schema_json))


@st.composite
def near_valid(draw: st.DrawFn, schema: Any) -> Any:
    """An instance hypothesis-jsonschema believes valid; arbitrary JSON where it cannot help.

    It only generates: the verdict always comes from the oracle, so its reading of a pattern
    (Python's ``re``) is a source of interesting strings, not of truth.
    """
    try:
        return draw(_from_schema(json.dumps(schema, sort_keys=True)))
    except InvalidArgument:
        # It refuses some satisfiable schemas and all unsatisfiable ones (minLength above maxLength).
        return draw(json_values())


def _strings_changed(value: Any, change: Callable[[str], str]) -> Any:
    if isinstance(value, str):
        return change(value)
    if isinstance(value, list):
        return [_strings_changed(item, change) for item in value]
    if isinstance(value, dict):
        return {key: _strings_changed(item, change) for key, item in value.items()}
    return value


def _twins(value: Any) -> list[Any]:
    """``value`` with every string given Unicode look-alikes, and with a final newline added."""
    return [
        _strings_changed(value, lambda text: text.translate(UNICODE_TWINS)),
        _strings_changed(value, lambda text: text + "\n"),
    ]


def shaped(schema: Any) -> Strategy:
    """Containers shaped like the schema (its property names, its items), holding arbitrary JSON."""
    if not isinstance(schema, dict):
        return json_values()
    shapes: list[Strategy] = []
    properties = schema.get("properties", {})
    names = [*properties, *(name for name in schema.get("required", []) if name not in properties)]
    if names:
        shapes.append(st.fixed_dictionaries({name: shaped(properties.get(name, True)) for name in names}))
    if "items" in schema:
        shapes.append(st.lists(shaped(schema["items"]), min_size=1, max_size=3))
    return st.one_of(shapes) if shapes else json_values()


def instances_for(schema: Any) -> st.SearchStrategy[list[Any]]:
    """A near-valid instance, its Unicode twins and mutations, a shaped one, and arbitrary JSON."""
    return st.one_of(near_valid(schema), json_values()).flatmap(
        lambda seed: st.tuples(
            st.lists(_mutations(seed), min_size=1, max_size=3),
            shaped(schema),
            st.lists(json_values(allow_non_finite=True), min_size=1, max_size=2),
        ).map(lambda drawn: [seed, *_twins(seed), *drawn[0], drawn[1], *drawn[2]])
    )
