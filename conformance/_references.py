"""Schemas built around references, drawn on purpose: anchors per dialect, ``$dynamicRef`` under
``unevaluated*`` through resources, and recursive ``unevaluated*`` trees with deep instances.

Random schemas reach these constructs too seldom to expose what goes wrong in them:

- an ``$anchor`` read with the wrong dialect's grammar (2019-09 lets a name start with a letter and
  hold ``:``; 2020-12 lets it start with ``_`` and has no ``:``), which only a name valid in one
  dialect and not the other shows;
- ``unevaluatedItems`` or ``unevaluatedProperties`` evaluating a ``$dynamicRef`` without the resources
  entered through ``$ref`` on the way to it (root -> ``mid.json`` -> ``base.json``, each with a
  ``$dynamicAnchor``), which only a chain where dynamic and static resolution part shows;
- ``unevaluated*`` through a recursive ``$ref``, which only an instance many levels deep shows: an
  evaluator exponential in depth runs out of its budget, one that cuts the tree short misses an error
  at the deepest level.

:func:`reference_schemas` draws all three; :func:`reference_instances` gives each its instances;
:func:`constructs` names the constructs a schema and an instance exercise, for the run's report.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from hypothesis import strategies as st

from toolreg._jsonschema.pointer import split
from toolreg._jsonschema.vocabulary import subschemas

__all__ = [
    "ANCHOR_NAMES",
    "DIALECT_2019",
    "DIALECT_2020",
    "KEYWORDS_USED",
    "anchor_grammar",
    "constructs",
    "declared_anchors",
    "reference_instances",
    "reference_schemas",
]

Strategy = st.SearchStrategy[Any]

DIALECT_2019 = "https://json-schema.org/draft/2019-09/schema"
DIALECT_2020 = "https://json-schema.org/draft/2020-12/schema"
_DIALECT_NAMES = {DIALECT_2019: "2019-09", DIALECT_2020: "2020-12"}

# Each dialect's grammar for an anchor's name (2019-09 Core §8.2.3, 2020-12 Core §8.2.2). They are
# used here to name what was drawn; whether a schema is valid is for the oracles' meta-schemas to say.
_GRAMMARS = {
    "2019-09": re.compile(r"[A-Za-z][-A-Za-z0-9.:_]*"),
    "2020-12": re.compile(r"[A-Za-z_][-A-Za-z0-9._]*"),
}

# Names valid in one dialect only, in both, and in neither; the most telling first.
_NAMES_BY_GRAMMAR = (
    ("ns:x", "a:b:c", "z:"),  # 2019-09 only
    ("_p", "_", "_a.b"),  # 2020-12 only
    ("a", "A.b-1", "x_1"),  # both
    ("1a", "-a", ".a", ":a", "a b", "é", "a/b", ""),  # neither
)
ANCHOR_NAMES = tuple(name for names in _NAMES_BY_GRAMMAR for name in names)


def anchor_grammar(name: str) -> str:
    """Which dialects take ``name`` as an anchor: "both", "2019-09", "2020-12" or "neither"."""
    valid = [dialect for dialect, grammar in _GRAMMARS.items() if grammar.fullmatch(name)]
    return "both" if len(valid) == 2 else valid[0] if valid else "neither"


# What an anchored subschema asks, so that a $ref to it matters to the instances.
_ANCHORED_BODIES: tuple[dict[str, Any], ...] = (
    {"type": "integer"},
    {"type": "string"},
    {"type": "object", "properties": {"a": {"type": "integer"}}},
)


def _evenly(options: tuple[Any, ...]) -> Strategy:
    """One of ``options``, each about as often as the others.

    ``sampled_from`` leans hard towards the first (Hypothesis tries the simplest choice first and
    keeps it); a number from a wide range far less, and its remainder picks the option.
    """
    return st.integers(0, len(options) * 1000 - 1).map(lambda number: options[number % len(options)])


@st.composite
def _anchored(draw: st.DrawFn) -> Any:
    """A 2019-09 or 2020-12 schema declaring one or two anchors, each named from ``ANCHOR_NAMES``,
    under ``$defs`` or a property, with a ``$ref`` to the first."""
    dialect = draw(_evenly((DIALECT_2019, DIALECT_2020)))
    # 2020-12 names dynamic anchors with the same grammar; 2019-09 has no $dynamicAnchor.
    keywords = ("$anchor", "$dynamicAnchor") if dialect == DIALECT_2020 else ("$anchor",)
    # Which grammar a name fits is drawn first, so that each kind is drawn as often.
    named = _evenly(_NAMES_BY_GRAMMAR).flatmap(st.sampled_from)
    names = draw(st.lists(named, min_size=1, max_size=2, unique=True))
    declared = [
        {draw(st.sampled_from(keywords)): name, **draw(st.sampled_from(_ANCHORED_BODIES))} for name in names
    ]
    schema: dict[str, Any] = {"$schema": dialect, "$defs": {"x": declared[0]}}
    if names[0]:
        schema["$ref"] = "#" + quote(names[0], safe=":")
    if len(declared) == 2:
        where = draw(st.sampled_from(("$defs", "properties")))
        if where == "$defs":
            schema["$defs"]["y"] = declared[1]
        else:
            schema["properties"] = {"p": declared[1]}
    return schema


# -- $dynamicRef under unevaluated* ------------------------------------------------------------------

_BASE_URI = "https://example.com/"
# What each resource of a chain may ask at the instance it applies to, by kind of unevaluated*.
_RESOURCE_BODIES: dict[str, tuple[dict[str, Any], ...]] = {
    "unevaluatedItems": (
        {},
        {"type": "array"},
        {"prefixItems": [True]},
        {"prefixItems": [{"type": "integer"}]},
        {"type": "array", "maxItems": 2},
    ),
    "unevaluatedProperties": (
        {},
        {"type": "object"},
        {"properties": {"a": True}},
        {"properties": {"a": {"type": "integer"}}},
        {"type": "object", "maxProperties": 2},
    ),
}
# Where the $dynamicRef sits in the last resource: a keyword that moves into the instance (so that
# the recursion ends), under an in-place applicator or not.
_DESCENTS: dict[str, tuple[Callable[[Any], Any], ...]] = {
    "unevaluatedItems": (
        lambda reference: {"items": reference},
        lambda reference: {"prefixItems": [reference]},
        lambda reference: {"contains": reference},
    ),
    "unevaluatedProperties": (
        lambda reference: {"properties": {"a": reference}},
        lambda reference: {"additionalProperties": reference},
        lambda reference: {"patternProperties": {"^b": reference}},
    ),
}
_HOLDERS: tuple[Callable[[Any], Any], ...] = (
    lambda inner: inner,
    lambda inner: {"if": inner},
    lambda inner: {"if": inner, "then": True},
    lambda inner: {"allOf": [inner]},
    lambda inner: {"anyOf": [inner, True]},
    lambda inner: {"oneOf": [inner, False]},
    lambda inner: {"not": {"not": inner}},
)


@st.composite
def _dynamic_chains(draw: st.DrawFn) -> Any:
    """A 2020-12 root that ``$ref``s a chain of one to three resources (``r1.json``, ``r2.json``,
    ...; the last holds a ``$dynamicRef`` to ``#node`` inside an applicator), with ``unevaluatedItems``
    or ``unevaluatedProperties`` at the root. Which resources declare ``node`` as a dynamic anchor,
    the root among them or not, with an ``$id`` or not, is drawn: dynamic and static resolution
    then lead to different resources, which ask different things."""
    keyword = draw(st.sampled_from(sorted(_RESOURCE_BODIES)))
    bodies = st.sampled_from(_RESOURCE_BODIES[keyword])
    length = draw(st.integers(1, 3))
    names = [f"r{number}.json" for number in range(1, length + 1)]
    resources: dict[str, Any] = {}
    for index, name in enumerate(names):
        resource: dict[str, Any] = {"$id": name, **draw(bodies)}
        last = index == length - 1
        # The last resource must hold the anchor its $dynamicRef names; a plain $anchor there makes
        # the reference static, as the spec says.
        anchor = (
            draw(st.sampled_from(("$dynamicAnchor", "$dynamicAnchor", "$anchor")))
            if last
            else draw(st.sampled_from(("$dynamicAnchor", None)))
        )
        if anchor is not None:
            resource[anchor] = "node"
        if last:
            descend = draw(st.sampled_from(_DESCENTS[keyword]))
            hold = draw(st.sampled_from(_HOLDERS))
            resource.update(hold(descend({"$dynamicRef": "#node"})))
        else:
            resource["$ref"] = names[index + 1]
        resources[name.removesuffix(".json")] = resource
    root: dict[str, Any] = {}
    if draw(st.booleans()):
        root["$id"] = _BASE_URI + "root.json"
    if draw(st.booleans()):
        root["$dynamicAnchor"] = "node"
        root.update(draw(bodies))
    unevaluated = draw(st.sampled_from((False, False, {"type": "integer"}, {"type": "array"})))
    return {**root, "$ref": names[0], keyword: unevaluated, "$defs": resources}


def _nested(container: Callable[[Strategy], Strategy]) -> Strategy:
    """Values up to three levels deep, built once: Hypothesis checks each new strategy, which costs
    more than the draw."""
    scalars = st.sampled_from((1, 2.5, "s", None, True))
    inner = container(scalars)
    return container(scalars | inner | container(scalars | inner))


# Arrays or objects, nested a few levels, of integers, strings and the like: a chain's instances.
_CHAIN_INSTANCES = {
    "unevaluatedItems": st.lists(_nested(lambda items: st.lists(items, max_size=3)), min_size=2, max_size=4),
    "unevaluatedProperties": st.lists(
        _nested(lambda values: st.dictionaries(st.sampled_from(("a", "b", "c")), values, max_size=3)),
        min_size=2,
        max_size=4,
    ),
}


# -- recursive unevaluated* trees --------------------------------------------------------------------


@dataclass(frozen=True)
class _Tree:
    """A recursive definition whose root forbids what it leaves unevaluated, and how its instances
    nest: ``level`` wraps a child in one level, ``leaves`` are the valid and invalid deepest ones."""

    keyword: str
    definition: Callable[[str], Any]  # the definition, given where its recursion points
    level: Callable[[Any], Any]
    valid_leaves: tuple[Any, ...]
    invalid_leaves: tuple[Any, ...]


_TREES = {
    # A tree through an array of children, as in the issue's example.
    "branches": _Tree(
        "unevaluatedProperties",
        lambda back: {"properties": {"c": {"items": {"$ref": back}}, "v": {"type": "integer"}}},
        lambda child: {"c": [child], "v": 1},
        ({}, {"v": 2}, {"c": []}),
        ({"x": 1}, {"v": "s"}, {"c": [{"x": 1}]}, {"c": [{"v": 1.5}]}),
    ),
    # A chain of objects.
    "chain": _Tree(
        "unevaluatedProperties",
        lambda back: {"type": "object", "properties": {"c": {"$ref": back}, "v": True}},
        lambda child: {"c": child},
        ({}, {"v": None}),
        ({"w": 1}, {"c": 1}, {"v": 1, "x": 1}),
    ),
    # A chain of arrays: [1, [1, [1, ...]]].
    "pairs": _Tree(
        "unevaluatedItems",
        lambda back: {"type": "array", "prefixItems": [{"type": "integer"}, {"$ref": back}]},
        lambda child: [1, child],
        ([], [1]),
        ([1, [], 3], ["s"], [1, 2]),
    ),
}
# Where a tree's recursion points: the root (so each level applies unevaluated* again) or the
# definition (so only the root does), and in-place applicators around the definition.
_BACK = ("#", "#/$defs/{name}")
# jsonschema's own unevaluated* is exponential in depth under allOf, anyOf, oneOf and a lone "if"
# (each level's annotations are collected by validating the subtree again), so trees wrapped in
# them are drawn shallow: 15 levels would cost it seconds per instance.
_LINEAR_WRAPS: tuple[Callable[[Any], Any], ...] = (
    lambda inner: inner,
    lambda inner: {"if": {"type": ["object", "array"]}, "then": inner},
)
_EXPONENTIAL_WRAPS: tuple[Callable[[Any], Any], ...] = (
    lambda inner: {"allOf": [inner]},
    lambda inner: {"anyOf": [inner, {"type": "null"}]},
    lambda inner: {"oneOf": [inner, {"type": "null"}]},
)
DEEP = (8, 15)
SHALLOW = (2, 5)


@st.composite
def _recursive_trees(draw: st.DrawFn) -> Any:
    """A root ``$ref`` to a recursive definition named after its tree, with ``unevaluatedProperties``
    or ``unevaluatedItems`` false at the root; or the spec's strict tree, recursive through
    ``$dynamicRef`` across two resources."""
    name = draw(st.sampled_from((*sorted(_TREES), "strict")))
    if name == "strict":
        return _strict_tree(draw(st.booleans()))
    tree = _TREES[name]
    back = draw(st.sampled_from(_BACK)).format(name=name)
    wrap = draw(st.sampled_from(_LINEAR_WRAPS + _EXPONENTIAL_WRAPS))
    dialect = draw(_evenly((DIALECT_2019, DIALECT_2020))) if name == "chain" else DIALECT_2020
    return {
        "$schema": dialect,
        "$ref": f"#/$defs/{name}",
        tree.keyword: False,
        "$defs": {name: wrap(tree.definition(back))},
    }


def _strict_tree(with_id: bool) -> Any:
    """2020-12's strict tree (Core §8.2.3.2's example, made strict by unevaluatedProperties)."""
    root: dict[str, Any] = {"$id": _BASE_URI + "strict-tree.json"} if with_id else {}
    return {
        **root,
        "$dynamicAnchor": "node",
        "$ref": "tree.json",
        "unevaluatedProperties": False,
        "$defs": {
            "strict": {
                "$id": "tree.json",
                "$dynamicAnchor": "node",
                "type": "object",
                "properties": {"data": True, "children": {"items": {"$dynamicRef": "#node"}}},
            }
        },
    }


_STRICT = _Tree(
    "unevaluatedProperties",
    lambda back: None,
    lambda child: {"children": [child], "data": 1},
    ({}, {"data": [1]}),
    ({"daat": 1}, {"children": [{"x": 1}]}, {"children": [1]}),
)


def _tree_of(schema: dict[str, Any]) -> tuple[_Tree, bool] | None:
    """The tree a drawn schema is built on, and whether it may be drawn deep."""
    (name,) = schema["$defs"]
    if name == "strict":
        return _STRICT, True
    definition = schema["$defs"][name]
    return _TREES[name], not any(key in definition for key in ("allOf", "anyOf", "oneOf"))


def _tree_instances(schema: dict[str, Any]) -> Strategy:
    """Trees of a drawn depth, valid at the deepest level and invalid there, and one invalid halfway."""
    found = _tree_of(schema)
    assert found is not None
    tree, deep = found
    low, high = DEEP if deep else SHALLOW

    def nested(depth: int, leaf: Any) -> Any:
        for _ in range(depth):
            leaf = tree.level(leaf)
        return leaf

    def some(depth: int, valid: Any, invalid: list[Any], halfway: Any) -> list[Any]:
        deepest = [nested(depth, valid), *(nested(depth, leaf) for leaf in invalid)]
        return [*deepest, nested(depth // 2, tree.level(halfway)), nested(low // 2, valid)]

    def chosen(numbers: tuple[int, int, list[int], int]) -> list[Any]:
        depth, valid, invalid, halfway = numbers
        leaves = tree.invalid_leaves
        return some(
            low + depth % (high - low + 1),
            tree.valid_leaves[valid % len(tree.valid_leaves)],
            [leaves[number % len(leaves)] for number in dict.fromkeys(invalid)],
            leaves[halfway % len(leaves)],
        )

    return _TREE_CHOICES.map(chosen)


# The choices a tree's instances are built from (a depth, leaves), drawn by one strategy built once.
_TREE_CHOICES = st.tuples(
    st.integers(0, 999),
    st.integers(0, 99),
    st.lists(st.integers(0, 99), min_size=1, max_size=1),
    st.integers(0, 99),
)


# -- the draw and the report -------------------------------------------------------------------------

# Every keyword these schemas use: they are drawn when a run allows them all (as the default run does).
KEYWORDS_USED = frozenset(
    {
        "$ref", "$defs", "$id", "$anchor", "$dynamicAnchor", "$dynamicRef", "unevaluatedItems",
        "unevaluatedProperties", "type", "properties", "additionalProperties", "patternProperties",
        "items", "prefixItems", "contains", "maxItems", "maxProperties", "if", "then", "allOf",
        "anyOf", "oneOf", "not",
    }
)  # fmt: skip


def reference_schemas(keywords: Collection[str] | None = None) -> Strategy | None:
    """Anchors per dialect, chains of resources with a ``$dynamicRef`` under ``unevaluated*``, and
    recursive ``unevaluated*`` trees, about a third each; None unless ``keywords`` allows every
    keyword they use (the default run does)."""
    if keywords is not None and not set(keywords) >= KEYWORDS_USED:
        return None
    return _evenly((_recursive_trees(), _dynamic_chains(), _anchored())).flatmap(lambda family: family)


def _kind(schema: Any) -> str:
    if not isinstance(schema, dict):
        return "other"
    definitions = schema.get("$defs", {})
    if any(name in definitions for name in (*_TREES, "strict")):
        return "tree"
    if "$dynamicRef" in repr(definitions):
        return "chain"
    return "anchors"


# What an anchored subschema's instances hold: each body above passes some and fails others.
_ANCHORED_INSTANCES: tuple[Any, ...] = (
    1, 1.0, "1", "s", None, {"a": 1}, {"a": "s"}, {"p": 1}, {"p": "s", "a": 1.5}, [],
)  # fmt: skip
_ANCHORED_DRAWS = st.lists(st.sampled_from(_ANCHORED_INSTANCES), min_size=2, max_size=4, unique_by=repr)


def reference_instances(schema: Any) -> Strategy:
    """The instances of a schema :func:`reference_schemas` drew: deep trees for a tree, nested
    arrays or objects for a chain, values each anchored body passes or fails for anchors."""
    kind = _kind(schema)
    if kind == "tree":
        return _tree_instances(schema)
    if kind == "chain":
        return _CHAIN_INSTANCES[
            "unevaluatedItems" if "unevaluatedItems" in schema else "unevaluatedProperties"
        ]
    return _ANCHORED_DRAWS


def declared_anchors(schema: Any) -> Iterator[str]:
    """The name of every ``$anchor`` and ``$dynamicAnchor`` in ``schema``."""
    if not isinstance(schema, dict):
        return
    for keyword in ("$anchor", "$dynamicAnchor"):
        if isinstance(schema.get(keyword), str):
            yield schema[keyword]
    for _, child in subschemas(schema):
        yield from declared_anchors(child)


def _depth(instance: Any) -> int:
    if isinstance(instance, list):
        return 1 + max(map(_depth, instance), default=0)
    if isinstance(instance, dict):
        return 1 + max(map(_depth, instance.values()), default=0)
    return 0


def _uses_dynamic_ref(schema: Any) -> bool:
    if not isinstance(schema, dict):
        return False
    return "$dynamicRef" in schema or any(_uses_dynamic_ref(child) for _, child in subschemas(schema))


# The depth, in containers, from which a tree counts as deep.
DEEP_TREE = DEEP[0]


def constructs(schema: Any, instance: Any, error_paths: Collection[str]) -> set[str]:
    """The constructs of this module that a schema and an instance exercise, named for the report;
    ``error_paths`` are the instance pointers of the oracle's errors (none: the instance is valid)."""
    if not isinstance(schema, dict):
        return set()
    declared, dynamic_through_resource, tree = _schema_constructs(schema)
    named = set(declared)
    if dynamic_through_resource:
        named.add("$dynamicRef under unevaluated* through $ref to resources")
    if tree and _depth(instance) >= DEEP_TREE:
        deepest = max((len(split(path)) for path in error_paths), default=None)
        if deepest is None:
            named.add("recursive unevaluated* tree, valid, 8 or more levels deep")
        elif deepest >= DEEP_TREE:
            named.add("recursive unevaluated* tree, invalid 8 or more levels deep")
    return named


# The schema whose constructs were asked for last, with what the schema alone says of them: a schema
# is counted on each of its instances in a row.
_last_schema: list[tuple[Any, tuple[frozenset[str], bool, bool]]] = []


def _schema_constructs(schema: dict[str, Any]) -> tuple[frozenset[str], bool, bool]:
    """What the schema alone says: the anchor constructs it declares, whether it is a ``$dynamicRef``
    under unevaluated* through a ``$ref`` to resources, and whether it may be a recursive tree (its
    deep instances then exercise one)."""
    if _last_schema and _last_schema[0][0] is schema:
        return _last_schema[0][1]
    named: set[str] = set()
    dialect = _DIALECT_NAMES.get(schema.get("$schema", DIALECT_2020))
    if dialect is not None:
        for name in declared_anchors(schema):
            grammar = anchor_grammar(name)
            if grammar == "neither":
                named.add(f"{dialect} anchor no dialect allows")
            elif grammar != "both":
                named.add(f"{dialect} anchor only {grammar} allows")
    unevaluated = {"unevaluatedItems", "unevaluatedProperties"} & schema.keys()
    through_resource = isinstance(schema.get("$ref"), str) and not schema["$ref"].startswith("#")
    dynamic = bool(unevaluated) and through_resource and _uses_dynamic_ref(schema)
    tree = bool(unevaluated) and isinstance(schema.get("$ref"), str)
    said = (frozenset(named), dynamic, tree)
    _last_schema[:] = [(schema, said)]
    return said
