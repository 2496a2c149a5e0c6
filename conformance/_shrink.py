"""Shrinking one disagreement: a smaller schema and instance that still disagree in the same way.

Hypothesis shrinks the choices an example was drawn from, so each of its attempts draws and judges a
whole example again (three schemas and dozens of instances), and a run that shrinks had to start over
to look for the next disagreement. Here only the one schema and instance are made smaller, directly
as JSON, and each attempt judges that pair alone: a greedy walk that takes the first smaller pair
still showing the same kind of disagreement, until none does or the budget is spent.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["MAX_TRIES", "MAX_SECONDS", "shrunk", "smaller"]

# The budget of one shrink: attempts, and seconds (for an implementation or oracle slow on some pair).
MAX_TRIES = 1000
MAX_SECONDS = 10.0


def _number_rank(number: int | float) -> tuple[int, float, bool]:
    """Integers before floats, finite floats before NaN and infinities, small before large."""
    if isinstance(number, int):
        return (0, float(min(abs(number), 10**300)), number < 0)
    if not math.isfinite(number):
        return (2, 0.0, False)
    return (1, abs(number), number < 0)


def _smaller_numbers(number: int | float) -> Iterator[int | float]:
    toward_zero = int(number / 2) if math.isfinite(number) and abs(number) < 2**1000 else 0
    candidates: list[int | float] = [0, 1, -1, toward_zero]
    if isinstance(number, float) and math.isfinite(number):
        candidates += [int(number), 0.0, 1.0, float(int(number))]
    seen: list[int | float] = []
    for candidate in candidates:
        fresh = not any(type(candidate) is type(other) and candidate == other for other in seen)
        if fresh and _number_rank(candidate) < _number_rank(number):
            seen.append(candidate)
            yield candidate


def _smaller_strings(text: str) -> Iterator[str]:
    for candidate in dict.fromkeys(("", text[: len(text) // 2], text[:-1], text[1:])):
        if len(candidate) < len(text):
            yield candidate


def smaller(value: Any) -> Iterator[Any]:
    """JSON values each smaller than ``value``, the largest cuts first: an emptied container, one
    member dropped, one member made smaller; a shorter string, a number nearer zero, ``false``.

    Every value yielded is strictly smaller by a well-founded measure (fewer members, or a smaller
    member), so repeated shrinking ends.
    """
    if isinstance(value, dict):
        if value:
            yield {}
        for key in value if len(value) > 1 else ():
            yield {name: item for name, item in value.items() if name != key}
        for key, item in value.items():
            for less in smaller(item):
                yield {name: less if name == key else other for name, other in value.items()}
    elif isinstance(value, list):
        if value:
            yield []
        for index in range(len(value)) if len(value) > 1 else ():
            yield value[:index] + value[index + 1 :]
        for index, item in enumerate(value):
            for less in smaller(item):
                yield [*value[:index], less, *value[index + 1 :]]
    elif value is True:
        yield False
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        yield from _smaller_numbers(value)
    elif isinstance(value, str):
        yield from _smaller_strings(value)


def _pairs(schema: Any, instance: Any) -> Iterator[tuple[Any, Any]]:
    """Smaller pairs: the schema first (its keywords are what a reader needs cut), then the instance."""
    for less in smaller(schema):
        yield less, instance
    for less in smaller(instance):
        yield schema, less


def shrunk(
    schema: Any,
    instance: Any,
    still: Callable[[Any, Any], bool],
    *,
    max_tries: int = MAX_TRIES,
    max_seconds: float = MAX_SECONDS,
) -> tuple[Any, Any, int]:
    """The smallest pair reached from ``(schema, instance)`` for which ``still`` holds, and the number
    of pairs tried. ``still`` says whether a pair shows the same disagreement; it must not raise."""
    deadline = time.monotonic() + max_seconds
    tries = 0
    while tries < max_tries and time.monotonic() < deadline:
        for candidate in _pairs(schema, instance):
            tries += 1
            if still(*candidate):
                schema, instance = candidate
                break
            if tries >= max_tries or time.monotonic() >= deadline:
                return schema, instance, tries
        else:
            return schema, instance, tries
    return schema, instance, tries
