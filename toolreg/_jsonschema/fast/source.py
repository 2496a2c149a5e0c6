"""The source the generator writes: blocks of lines that are only ever added to, and the namespace.

A :class:`Block` holds lines at depths relative to wherever it is placed, so the same block can
be the body of a function (placed at depth 0) or written into an entry's ``try`` (at depth 1)
without a line of it being changed; a block written first and placed later (a loop's body, before
its ``for`` line is chosen) is how the writer decides from what it wrote without reading it back.
A block notes the names it reads where the writer says so (see ``Block.read``), which is how the
writer knows, without searching the text, whether a body reads its path or its depth.
"""

from __future__ import annotations

import math
from typing import Any

__all__ = ["Block", "Source"]

# Integers written as literals are below this in size (a larger one, up to Python's limit on the
# digits of an int's text, is a constant in the namespace).
_LITERAL_INT = 10**18
_INDENT = "    "


class Block:
    """Lines of Python, each at a depth relative to where the block is placed, and the names of
    variables the writer noted they read."""

    __slots__ = ("lines", "reads")

    def __init__(self) -> None:
        self.lines: list[tuple[int, str]] = []
        self.reads: set[str] = set()

    def __len__(self) -> int:
        return len(self.lines)

    def line(self, depth: int, text: str) -> None:
        self.lines.append((depth, text))

    def read(self, name: str) -> str:
        """``name``, noted as read by this block's lines."""
        self.reads.add(name)
        return name

    def extend(self, other: Block) -> None:
        """``other``'s lines after these, at the depths it wrote them at."""
        self.lines.extend(other.lines)
        self.reads |= other.reads

    def deepest(self) -> int:
        """The deepest indentation of its lines."""
        return max((depth for depth, _ in self.lines), default=0)

    def placed(self, base: int) -> list[str]:
        """Its lines as text, each indented ``base`` levels more than it was written at."""
        return [_INDENT * (base + depth) + text for depth, text in self.lines]


class Source:
    """A generated module's fresh names, the namespace that holds every constant, and a count of the
    lines written for it (which the writer keeps below its limit)."""

    def __init__(self, namespace: dict[str, Any]) -> None:
        self.namespace = namespace
        self.counter = 0
        self.written = 0

    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def constant(self, value: Any) -> str:
        """An expression for ``value``: a literal for a number (Python reads one quicker than a
        global, and it reads better), else the name of a constant in the namespace."""
        exact_int = type(value) is int and abs(value) < _LITERAL_INT
        if exact_int or (type(value) is float and math.isfinite(value)):
            literal = repr(value)
            return f"({literal})" if literal.startswith("-") else literal
        name = self.fresh("c")
        self.namespace[name] = value
        return name
