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
)
