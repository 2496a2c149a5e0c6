"""Limits on what toolreg takes in: how deep an instance nests, how deep and how large a schema is."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Limits", "DEFAULT_LIMITS"]


@dataclass(frozen=True)
class Limits:
    """Bounds that keep every answer clear and every walk within Python's stack.

    ``max_depth``: an instance nested deeper (``[[[…]]]``, one level per array or object) gets one
    ``depth`` error at the first container past it, and no other error. ``max_schema_depth``: a schema
    document nested deeper, as JSON, is refused at registration; ``max_schema_size``: so is one with
    more subschemas. Tool arguments and schemas seen in real catalogs nest fewer than 10 levels.
    ``allow_backtracking_patterns``: a ``pattern`` whose shape can take exponential time on a
    backtracking engine (``^(a+)+$``) is refused unless this is set; see ``_regex.backtracking_risk``.
    """

    max_depth: int = 128
    max_schema_depth: int = 128
    max_schema_size: int = 10_000
    allow_backtracking_patterns: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.allow_backtracking_patterns, bool):
            raise ValueError("Limits.allow_backtracking_patterns must be a bool")
        for name in ("max_depth", "max_schema_depth", "max_schema_size"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"Limits.{name} must be a positive int, not {value!r}")


DEFAULT_LIMITS = Limits()
