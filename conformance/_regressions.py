"""Every disagreement the cross-check has found and toolreg has fixed, kept so that none comes back."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["Regression", "REGRESSIONS"]


@dataclass(frozen=True)
class Regression:
    """A schema and an instance that once disagreed, and what was wrong."""

    what: str
    schema: Any
    instance: Any


def _nested_trees(levels: int) -> Any:
    tree: Any = {}
    for _ in range(levels):
        tree = {"c": [tree]}
    return tree


REGRESSIONS = (
    Regression(
        "jsonschema-rs divides multipleOf in binary floats; its verdict is not asked there (an oracle fix)",
        {"multipleOf": 2**64},
        1.844674407370955e20,
    ),
    Regression(
        "'items: false' gave one 'false' error per element; jsonschema gives one 'items' error at the array",
        {"items": False},
        [None],
    ),
    Regression(
        "2019-09 anchors were read with 2020-12's grammar, so 'ns:x' was refused (and '_p' accepted)",
        {
            "$schema": "https://json-schema.org/draft/2019-09/schema",
            "$defs": {"x": {"$anchor": "ns:x", "type": "integer"}},
            "$ref": "#ns:x",
        },
        "1",
    ),
    Regression(
        "unevaluatedItems evaluated an 'if' holding a $dynamicRef without the resources entered through "
        "$ref, so the reference resolved to base.json rather than mid.json and [1] passed",
        {
            "$ref": "mid.json",
            "unevaluatedItems": False,
            "$defs": {
                "mid": {"$id": "mid.json", "$dynamicAnchor": "node", "$ref": "base.json", "type": "array"},
                "base": {
                    "$id": "base.json",
                    "$dynamicAnchor": "node",
                    "if": {"items": {"$dynamicRef": "#node"}},
                },
            },
        },
        [1],
    ),
    Regression(
        "unevaluatedProperties through a recursive $ref evaluated each level again at every level above "
        "it: a valid 12-level tree ran out of the work budget",
        {
            "$ref": "#/$defs/t",
            "unevaluatedProperties": False,
            "$defs": {"t": {"properties": {"c": {"items": {"$ref": "#"}}}}},
        },
        _nested_trees(12),
    ),
)
