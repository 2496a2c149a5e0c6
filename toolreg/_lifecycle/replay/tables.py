"""The counts a replay keeps in bounded space: a top-N table that never loses a frequent key
(:class:`TopCounts`), and one tool's counters while the log is read (:class:`ToolCounters`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .report import TOOL_COUNTS, ErrorCount, ToolFigures


class TopCounts:
    """Counts by key, keeping at most ``capacity`` keys: past it a new key takes the place of the
    least counted one, starting from that count plus one (the space-saving count), so a frequent key
    is never lost and no count is ever under its true value."""

    __slots__ = ("capacity", "counts", "first", "overflowed")

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.counts: dict[Any, int] = {}
        self.first: dict[Any, str] = {}
        self.overflowed = False

    def add(self, key: Any, first: Callable[[], str] | None = None) -> None:
        """Count ``key`` once more; ``first`` gives the text kept for a key counted the first time."""
        counts = self.counts
        if key in counts:
            counts[key] += 1
            return
        start = 1
        if len(counts) >= self.capacity:
            least = min(counts, key=counts.__getitem__)
            start += counts.pop(least)
            self.first.pop(least, None)
            self.overflowed = True
        counts[key] = start
        if first is not None:
            self.first[key] = first()

    def most(self, n: int) -> list[tuple[Any, int]]:
        """The ``n`` most counted keys, with their counts, the most first."""
        return sorted(self.counts.items(), key=lambda item: (-item[1], str(item[0])))[:n]


class ToolCounters:
    """One tool's counters, while the log is read."""

    __slots__ = (*TOOL_COUNTS, "errors")

    def __init__(self, capacity: int) -> None:
        self.calls = self.valid = self.invalid = self.malformed = 0
        self.first_tries = self.first_try_valid = self.answered_failed = self.repaired = 0
        self.drift = self.outputs_checked = self.outputs_invalid = 0
        self.errors = TopCounts(capacity)

    def frozen(self, name: str, top: int) -> ToolFigures:
        """The counters as the report's :class:`ToolFigures` for ``name``, with its ``top`` errors."""
        errors = tuple(
            ErrorCount(keyword, pointer, count, self.errors.first.get((keyword, pointer), ""))
            for (keyword, pointer), count in self.errors.most(top)
        )
        counts = {counter: getattr(self, counter) for counter in TOOL_COUNTS}
        return ToolFigures(name, **counts, errors=errors, errors_approximate=self.errors.overflowed)
