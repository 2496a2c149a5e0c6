"""Hypothesis strategies: random schemas in toolreg's vocabulary, and instances that probe them."""

from __future__ import annotations

import functools
import json
import math
import re
from collections.abc import Callable, Collection
from typing import Any

from hypothesis import strategies as st
from hypothesis.errors import HypothesisException, InvalidArgument
from hypothesis_jsonschema import from_schema

from toolreg._jsonschema.vocabulary import keywords, subschemas

from ._edges import EDGES, edge_instances
from ._references import reference_instances, reference_schemas

__all__ = [
    "KEYWORD_VALUES",
    "PROPERTY_NAMES",
    "schemas",
    "focused_schemas",
    "example_schemas",
    "json_values",
    "instances_for",
    "shaped",
    "ecma_patterns",
]

Strategy = st.SearchStrategy[Any]
# How the instances of a drawn schema are drawn.
InstancesFor = Callable[[Any], st.SearchStrategy[list[Any]]]

# Names where JSON Pointer escaping, emptiness, digits and non-ASCII can go wrong.
# Quotes, backslashes, newlines and NUL probe the generated fast path, which must never paste a name.
PROPERTY_NAMES = (
    "a", "b", "", "/", "~", "a/b", "~1", "~0/", "0", "12", "é", "e\u0301", "😀", "$ref",
    'q"', "\\", "\n", '"""', "\x00", "'",
)  # fmt: skip

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


def _integers(low: int, high: int) -> Callable[[Strategy], Strategy]:
    return lambda subschemas: st.integers(low, high)


def _numbers(*corners: int | float) -> Callable[[Strategy], Strategy]:
    return lambda subschemas: st.sampled_from(corners) | st.integers(-3, 3)


def _schema_lists(subschemas: Strategy) -> Strategy:
    return st.lists(subschemas, min_size=1, max_size=3)


# Patterns for property names: prefixes, suffixes, a class, and ones no name here matches.
NAME_PATTERNS = ("^a", "b$", "^[a-c]+$", "x", "^$", "\\d", "~")

# Where generated $refs point; "/b" and "%" exercise pointer and URI escaping.
REF_TARGETS = {
    "#/$defs/a": "a",
    "#/$defs/~1b": "/b",
    "#/$defs/c%25": "c%",
    "#/$defs/node": "node",
    "#A": "a",  # the anchor the "a" entry declares
    "r.json": "r",  # the resource the "r" entry is, by its "$id"
}
# Identifiers drawn anywhere: none of them is what a generated $ref names.
IDS = ("https://example.com/s1.json", "https://example.com/d/s2.json")
# Bounds where Python's floats, big integers and JSON's numbers can part.
NUMBER_CORNERS = (0, 1, -1, 0.5, 1.5, 2**64, -(2**64), 1e300, 0.1, 2**53 + 1)

# For each supported keyword, how to draw its value given a strategy for subschemas.
KEYWORD_VALUES: dict[str, Callable[[Strategy], Strategy]] = {
    "$ref": lambda subschemas: st.sampled_from(sorted(REF_TARGETS)),
    "$dynamicRef": lambda subschemas: st.sampled_from(sorted(REF_TARGETS)),
    "$id": lambda subschemas: st.sampled_from(IDS),
    "$anchor": lambda subschemas: st.sampled_from(("x", "y_1")),
    "$dynamicAnchor": lambda subschemas: st.just("dx"),
    "type": lambda subschemas: (
        st.sampled_from(TYPE_NAMES)
        | st.lists(st.sampled_from(TYPE_NAMES), min_size=1, max_size=3, unique=True)
    ),
    "enum": lambda subschemas: st.lists(json_values(), min_size=1, max_size=4),
    "const": lambda subschemas: json_values(),
    "multipleOf": lambda subschemas: st.sampled_from((1, 2, 3, 0.5, 0.1, 0.01, 1e-8, 2**64)),
    "minimum": _numbers(*NUMBER_CORNERS),
    "exclusiveMinimum": _numbers(*NUMBER_CORNERS),
    "maximum": _numbers(*NUMBER_CORNERS),
    "exclusiveMaximum": _numbers(*NUMBER_CORNERS),
    "minLength": _integers(1, 4),
    "maxLength": _integers(0, 4),
    "pattern": lambda subschemas: ecma_patterns(),
    # An annotation unless asked to assert, as both oracles read it by default.
    "format": lambda subschemas: st.sampled_from(("date", "email", "uri", "uuid", "not-a-format")),
    "minItems": _integers(1, 3),
    "maxItems": _integers(0, 3),
    "uniqueItems": lambda subschemas: st.booleans(),
    "prefixItems": _schema_lists,
    "items": lambda subschemas: subschemas,
    "minProperties": _integers(1, 3),
    "maxProperties": _integers(0, 3),
    "required": lambda subschemas: st.lists(st.sampled_from(PROPERTY_NAMES), max_size=3, unique=True),
    "propertyNames": lambda subschemas: subschemas,
    "properties": lambda subschemas: st.dictionaries(st.sampled_from(PROPERTY_NAMES), subschemas, max_size=3),
    "additionalProperties": lambda subschemas: subschemas,
    "patternProperties": lambda subschemas: st.dictionaries(
        st.sampled_from(NAME_PATTERNS), subschemas, max_size=2
    ),
    "dependentRequired": lambda subschemas: st.dictionaries(
        st.sampled_from(PROPERTY_NAMES),
        st.lists(st.sampled_from(PROPERTY_NAMES), max_size=2, unique=True),
        max_size=2,
    ),
    "dependentSchemas": lambda subschemas: st.dictionaries(
        st.sampled_from(PROPERTY_NAMES), subschemas, max_size=2
    ),
    "contains": lambda subschemas: subschemas,
    "minContains": _integers(0, 3),
    "maxContains": _integers(0, 3),
    "unevaluatedProperties": lambda subschemas: subschemas,
    "unevaluatedItems": lambda subschemas: subschemas,
    "if": lambda subschemas: subschemas,
    "then": lambda subschemas: subschemas,
    "else": lambda subschemas: subschemas,
    "allOf": _schema_lists,
    "anyOf": _schema_lists,
    "oneOf": _schema_lists,
    "not": lambda subschemas: subschemas,
    "$defs": lambda subschemas: st.dictionaries(st.sampled_from(("x", "y")), subschemas, max_size=2),
    "definitions": lambda subschemas: st.dictionaries(st.sampled_from(("x", "y")), subschemas, max_size=2),
    # Read only in a meta-schema; anywhere else it says nothing.
    "$vocabulary": lambda subschemas: st.just({"https://json-schema.org/draft/2020-12/vocab/core": True}),
}
_REFERENCES = frozenset({"$ref", "$dynamicRef", "$defs", "definitions", "$id", "$anchor", "$dynamicAnchor"})


def schemas(keywords: Collection[str] | None = None, *, max_leaves: int = 8) -> Strategy:
    """Recursive schemas using only ``keywords`` (default: all supported), boolean schemas included.

    When ``$ref`` is among them, the root gets a ``$defs`` entry for every target, one of them
    (``node``) recursive through its properties and items.
    """
    vocabulary = sorted(KEYWORD_VALUES if keywords is None else keywords)
    unknown = set(vocabulary) - set(KEYWORD_VALUES)
    if unknown:
        raise ValueError(f"no generator for keyword(s) {', '.join(sorted(unknown))}")
    plain = _plain_schemas(vocabulary, max_leaves)
    if not {"$ref", "$dynamicRef"} & set(vocabulary):
        return plain.map(_identifiers_kept_apart)
    targets = _plain_schemas([name for name in vocabulary if name not in _REFERENCES], max_leaves // 2)
    # A typed target fails often enough for the reference to matter.
    typed = st.builds(
        lambda type_name, body: {"type": type_name, **body} if isinstance(body, dict) else body,
        st.sampled_from(TYPE_NAMES),
        targets,
    )
    bodies = st.fixed_dictionaries({name: typed for name in REF_TARGETS.values()})
    return st.builds(_with_definitions, plain, bodies).map(_identifiers_kept_apart)


# Ways to put a subschema below the root, and the keywords each uses: a focused schema's keyword is
# then probed at depth, under an object that requires it where "required" may be drawn (else merely
# has it).
_DESCENTS: tuple[tuple[frozenset[str], Callable[[Any, str], Any]], ...] = (
    (
        frozenset({"properties", "required"}),
        lambda inner, name: {"properties": {name: inner}, "required": [name]},
    ),
    (frozenset({"items"}), lambda inner, name: {"items": inner}),
    (frozenset({"prefixItems"}), lambda inner, name: {"prefixItems": [inner]}),
    (frozenset({"allOf"}), lambda inner, name: {"allOf": [inner]}),
)
_PROPERTY = (frozenset({"properties"}), lambda inner, name: {"properties": {name: inner}})
# A number's keywords speak to integers as much as to numbers.
_NUMBER_TYPES: tuple[dict[str, str], ...] = ({"type": "integer"}, {"type": "number"})


def focused_schemas(keywords: Collection[str] | None = None) -> Strategy:
    """Small schemas: one to three keywords that have edge values (see ``_edges``), with the type they
    speak to, up to three levels down through properties, items or allOf. Their instances then hold
    those keywords' edge values at that depth, which random schemas reach only now and then."""
    allowed = set(KEYWORD_VALUES if keywords is None else keywords)
    names = sorted(set(EDGES) & allowed)
    if not names:
        raise ValueError("no keyword with edge values among " + ", ".join(sorted(allowed)))

    def typed(name: str) -> Strategy:
        implied = TYPE_OF_KEYWORD.get(name)
        if "type" not in allowed or implied is None:
            return st.just({})
        return st.sampled_from(_NUMBER_TYPES) if implied == "number" else st.just({"type": implied})

    one = st.one_of(
        [
            st.builds(
                lambda value, type_, name=name: {**type_, name: value},
                KEYWORD_VALUES[name](st.booleans()),
                typed(name),
            )
            for name in names
        ]
    )
    # Keywords beside the first are probed by the same instances (a string fails "type": "integer",
    # and is still measured by "maxLength").
    more: Strategy = st.just({}) | one
    bodies = st.builds(lambda first, second, third: {**third, **second, **first}, one, more, more)
    descents = [descend for uses, descend in _DESCENTS if uses <= allowed]
    if not _DESCENTS[0][0] <= allowed and _PROPERTY[0] <= allowed:
        descents.append(_PROPERTY[1])
    if not descents:
        return bodies
    steps = st.lists(st.tuples(st.sampled_from(descents), st.sampled_from(PROPERTY_NAMES)), max_size=3)
    return st.builds(_descended, bodies, steps)


def _descended(body: Any, steps: list[tuple[Callable[[Any, str], Any], str]]) -> Any:
    for descend, name in steps:
        body = descend(body, name)
    return body


# The label of the draw built around references (see ``_references``).
REFERENCE_LABEL = "reference schema"


def example_schemas(keywords: Collection[str] | None = None) -> list[tuple[str, Strategy, InstancesFor]]:
    """What each example of the cross-check draws, in order, with how to draw its instances: a random
    schema; a schema built around references (see ``_references``: anchors per dialect, a
    ``$dynamicRef`` under ``unevaluated*``, or a recursive ``unevaluated*`` tree with deep
    instances) where the keywords allow it; then a focused one (see :func:`focused_schemas`) where any keyword
    drawn has edge values.

    The focused schema comes last on purpose: Hypothesis keeps the beginning of an example and
    varies its end as often as not (at the default seed, 400 examples hold 187 distinct random
    schemas and 182 distinct focused ones), so the focused schemas differ from one example to the next.
    """
    drawn: list[tuple[str, Strategy, InstancesFor]] = [("schema", schemas(keywords), instances_for)]
    references = reference_schemas(keywords)
    if references is not None:
        drawn.append((REFERENCE_LABEL, references, reference_instances))
    if set(EDGES) & set(KEYWORD_VALUES if keywords is None else keywords):
        drawn.append(("focused schema", focused_schemas(keywords), instances_for))
    return drawn


def _identifiers_kept_apart(schema: Any) -> Any:
    """``schema`` with each identifier declared once, and no "$id" below the root above a "$ref"
    (the $ref would then name a place in that new resource, which the generator did not mean)."""
    seen: set[str] = set()

    def walk(value: Any, root: bool) -> Any:
        if isinstance(value, list):
            return [walk(item, False) for item in value]
        if not isinstance(value, dict):
            return value
        kept = {key: walk(item, False) for key, item in value.items()}
        for keyword in ("$id", "$anchor", "$dynamicAnchor"):
            name = f"{keyword}={kept.get(keyword)}"
            below_refers = keyword == "$id" and not root and _refers(kept)
            if keyword in kept and (name in seen or below_refers):
                del kept[keyword]
            elif keyword in kept:
                seen.add(name)
        return kept

    return walk(schema, True)


def _plain_schemas(vocabulary: list[str], max_leaves: int) -> Strategy:
    def objects(subschemas: Strategy) -> Strategy:
        # Built once, and each choice of names once: Hypothesis validates each new strategy object,
        # which is slow to do per draw.
        values = {name: KEYWORD_VALUES[name](subschemas) for name in vocabulary}
        chosen = st.lists(st.sampled_from(vocabulary), min_size=1, max_size=4, unique=True)

        @functools.cache
        def shaped(names: tuple[str, ...]) -> Strategy:
            return st.fixed_dictionaries(
                {name: values[name] for name in names} | _implied_type(list(names), vocabulary)
            )

        return chosen.flatmap(lambda names: shaped(tuple(names)))

    if not vocabulary:
        return st.booleans() | st.just({})
    leaves: Strategy = st.booleans() | st.just({}) | objects(st.booleans())
    return st.recursive(leaves, objects, max_leaves=max_leaves)


_REFERS = re.compile(r'"\$(ref|dynamicRef)"')


def _refers(schema: Any) -> bool:
    """A "$ref" or "$dynamicRef" keyword anywhere in ``schema`` (not a property of that name)."""
    if not isinstance(schema, dict):
        return False
    if "$ref" in schema or "$dynamicRef" in schema:
        return True
    return any(_refers(child) for _, child in subschemas(schema))


def _with_definitions(schema: Any, bodies: dict[str, Any]) -> Any:
    """``schema`` with a root ``$defs`` entry for each $ref target, if it uses any."""
    if not isinstance(schema, dict) or not _REFERS.search(json.dumps(schema)):
        return schema
    node = bodies["node"] if isinstance(bodies["node"], dict) else {}
    recursive = {"$ref": "#/$defs/node"}
    bodies = {**bodies, "node": {**node, "properties": {"a": recursive}, "items": recursive}}
    named = {"a": {"$anchor": "A"}, "r": {"$id": "r.json"}}
    for name, identifier in named.items():
        body = (
            bodies[name] if isinstance(bodies[name], dict) else {"not": {}} if bodies[name] is False else {}
        )
        bodies[name] = {
            **{key: item for key, item in body.items() if key not in ("$id", "$anchor")},
            **identifier,
        }
    return {**schema, "$defs": {**schema.get("$defs", {}), **bodies}}


# Keywords that only speak to one type; a schema using them says so, as real schemas do, unless it
# mixes types (minLength beside minItems) or draws its own "type".
TYPE_OF_KEYWORD = {row.name: row.instance_type for row in keywords().values() if row.instance_type}


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
        return draw(_from_schema(json.dumps(_as_draft7(schema), sort_keys=True)))
    except Exception as error:
        # It refuses unsatisfiable schemas (minLength above maxLength), recursive references and
        # more; only Hypothesis's own control flow must pass through.
        if isinstance(error, HypothesisException) and not isinstance(error, InvalidArgument):
            raise
        return draw(json_values())


_HOLDS = {name: row.holds for name, row in keywords().items()}


def _as_draft7(schema: Any) -> Any:
    """The draft-07 spelling hypothesis-jsonschema reads: definitions, and items as an array."""
    if not isinstance(schema, dict):
        return schema
    translated: dict[str, Any] = {}
    for keyword, value in schema.items():
        if keyword in ("$defs", "definitions"):
            translated.setdefault("definitions", {}).update(
                {name: _as_draft7(item) for name, item in value.items()}
            )
        elif keyword == "$ref":
            translated[keyword] = value.replace("#/$defs/", "#/definitions/", 1)
        elif keyword in ("dependentRequired", "dependentSchemas"):
            # draft-07 keeps both in "dependencies"; a name in both keeps the list.
            for name, item in value.items():
                rule = item if keyword == "dependentRequired" else _as_draft7(item)
                translated.setdefault("dependencies", {}).setdefault(name, rule)
        elif keyword in ("items", "prefixItems", "minContains", "maxContains"):
            continue  # below
        elif _HOLDS.get(keyword) == "map":
            translated[keyword] = {name: _as_draft7(item) for name, item in value.items()}
        elif _HOLDS.get(keyword) == "list":
            translated[keyword] = [_as_draft7(item) for item in value]
        elif _HOLDS.get(keyword) == "schema":
            translated[keyword] = _as_draft7(value)
        else:
            translated[keyword] = value
    if "prefixItems" in schema:
        translated["items"] = [_as_draft7(item) for item in schema["prefixItems"]]
        if "items" in schema:
            translated["additionalItems"] = _as_draft7(schema["items"])
    elif "items" in schema:
        translated["items"] = _as_draft7(schema["items"])
    return translated


def _leaves_changed(value: Any, change: Callable[[Any], Any]) -> Any:
    """``value`` with ``change`` applied to every string, number, boolean and null in it."""
    if isinstance(value, list):
        return [_leaves_changed(item, change) for item in value]
    if isinstance(value, dict):
        return {key: _leaves_changed(item, change) for key, item in value.items()}
    return change(value)


def _strings_changed(value: Any, change: Callable[[str], str]) -> Any:
    return _leaves_changed(value, lambda leaf: change(leaf) if isinstance(leaf, str) else leaf)


def _twins(value: Any) -> list[Any]:
    """``value`` with look-alike, newline-ended or shortened strings, repeated items, moved numbers."""
    return [
        _strings_changed(value, lambda text: text.translate(UNICODE_TWINS)),
        _strings_changed(value, lambda text: text + "\n"),
        _strings_changed(value, lambda text: text[:1]),
        _lists_repeated(value),
        _numbers_changed(value, _moved_up),
        _numbers_changed(value, lambda number: -_moved_up(number)),
    ]


def _moved_up(number: int | float) -> int | float:
    """Past any upper bound ``number`` kept to, and off the multiples (a float's 1/3 is none of 1e-8)."""
    if type(number) is int:
        return abs(number) * 2 + 1
    return min(abs(number), 1e300) * 2 + 1 / 3


def _numbers_changed(value: Any, change: Callable[[Any], Any]) -> Any:
    """``value`` with every number moved, past the bounds a near-valid instance kept to."""
    return _leaves_changed(
        value, lambda leaf: change(leaf) if type(leaf) in (int, float) and math.isfinite(leaf) else leaf
    )


def _lists_repeated(value: Any) -> Any:
    """``value`` with every array's first item repeated at its end, and 1 becoming 1.0 there."""
    if isinstance(value, list):
        items = [_lists_repeated(item) for item in value]
        first = items[:1]
        return items + [float(item) if type(item) is int and abs(item) < 2**53 else item for item in first]
    if isinstance(value, dict):
        return {key: _lists_repeated(item) for key, item in value.items()}
    return value


def shaped(schema: Any) -> Strategy:
    """Containers shaped like the schema (its property names, its items), holding arbitrary JSON."""
    if not isinstance(schema, dict):
        return json_values()
    shapes: list[Strategy] = []
    properties = schema.get("properties", {})
    named_elsewhere = [
        *schema.get("required", []),
        *(name for name in PROPERTY_NAMES if name in schema.get("patternProperties", {})),
        *schema.get("dependentRequired", {}),
        *schema.get("dependentSchemas", {}),
    ]
    names = [*properties, *dict.fromkeys(name for name in named_elsewhere if name not in properties)]
    loose = {"additionalProperties", "patternProperties", "unevaluatedProperties"} & schema.keys()
    if names or loose:
        extra = st.dictionaries(
            st.sampled_from(PROPERTY_NAMES), shaped(schema.get("additionalProperties", True)), max_size=2
        )
        named = st.fixed_dictionaries({name: shaped(properties.get(name, True)) for name in names})
        shapes.append(st.builds(lambda some, more: {**more, **some}, named, extra))
    # A value shaped like a branch: what "then", "else" or each "allOf" branch asks for.
    for branch in [schema.get("then"), schema.get("else"), *schema.get("allOf", [])]:
        if isinstance(branch, dict):
            shapes.append(shaped(branch))
    prefix = schema.get("prefixItems", [])
    if prefix or "items" in schema or "contains" in schema or "unevaluatedItems" in schema:
        rest = st.lists(shaped(schema.get("items", schema.get("contains", True))), max_size=4)
        head = st.tuples(*(shaped(item) for item in prefix)).map(list)
        shapes.append(st.builds(lambda first, then: [*first, *then], head, rest))
    return st.one_of(shapes) if shapes else json_values()


# How many edge values (see _edges) each schema's instances include at most.
EDGES_PER_SCHEMA = 16


def instances_for(schema: Any) -> st.SearchStrategy[list[Any]]:
    """A near-valid instance, its Unicode twins and mutations, the same with edge values placed where
    each keyword applies (see ``_edges``), a shaped one, arbitrary JSON, and for a ``not`` at the
    root a value its subschema accepts, which ``not`` must then refuse."""
    negated = schema.get("not") if isinstance(schema, dict) else None
    refused_by_not = st.just([]) if negated is None else near_valid(negated).map(lambda value: [value])
    return st.one_of(near_valid(schema), json_values()).flatmap(
        lambda seed: st.tuples(
            st.lists(_mutations(seed), min_size=1, max_size=3),
            shaped(schema),
            st.lists(json_values(allow_non_finite=True), min_size=1, max_size=2),
            refused_by_not,
        ).map(
            lambda drawn: [
                seed,
                *_twins(seed),
                *edge_instances(schema, seed, EDGES_PER_SCHEMA),
                *drawn[0],
                drawn[1],
                *drawn[2],
                *drawn[3],
            ]
        )
    )
