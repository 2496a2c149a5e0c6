"""The most steps of work one validation can spend on any one value, bounded from the schema alone."""

from __future__ import annotations

import collections
from collections.abc import Callable
from typing import Any

from ..compiled import Compiled
from ..findings import Path
from ..limits import WORK_PER_VALUE
from ..pointer import to_pointer
from ..vocabulary import DEFAULT_DIALECT, Keyword, keywords

__all__ = ["within_allowance", "snapshot_within_allowance", "snapshot_steps"]

# Every sum below stops here: past the allowance for each value, how far past does not matter.
_PAST = WORK_PER_VALUE + 1
# How many schema objects deep the coarse bound follows a snapshot, within Python's stack.
_DEEPEST = 64


class _Shape:
    """One schema object as the bound reads it: the steps its keywords spend at its value and at each
    part of it, the schemas it applies in place (by pointer, repeats kept), and those it applies to
    the parts, a group for each keyword, with whether they apply to different parts."""

    __slots__ = ("at_value", "per_part", "in_place", "parts")

    def __init__(self) -> None:
        self.at_value = 0
        self.per_part = 0
        self.in_place: list[str] = []
        self.parts: list[tuple[bool, list[str]]] = []

    def over_parts(self, bound: dict[str, int]) -> int:
        """What the schemas it applies to the parts can cost one part, by ``bound``: each group's
        most if its schemas apply to different parts, else their sum."""
        return sum((max if apart else sum)(bound[part] for part in group) for apart, group in self.parts)


def within_allowance(compiled: Compiled) -> bool:
    """Whether no instance can make the reference walk spend more than ``WORK_PER_VALUE`` steps for
    each of its values, so that its work budget never runs out and the fast path need not count.

    An application of a schema object to a value costs that value ``own`` steps (its keywords', and
    one for each schema it applies in place with that one's ``own``), and each part of the value
    ``each`` (its keywords' and those of the schemas it applies in place). A value costs the ``own``
    of every schema applied to it and the ``each`` of every one applied to its parent. For one
    application, what any value below can cost is bounded by taking every schema that may apply to
    a part as applying to the same one: at depth 0 ``own``, at depth 1 ``each`` and the ``own`` of
    the parts' schemas, deeper the sum of those schemas' own bounds. A recursive schema makes that
    a least fixed point, found by raising the bounds until none moves. The root's bound is at least
    that of every schema it reaches, so the answer is no as soon as any passes the allowance. (The
    validator hands this to the schemas it runs, which keep the answer: Compiled.within_allowance.)
    """
    if compiled.annotates or compiled.dynamic or compiled.dialect != DEFAULT_DIALECT:
        return False  # notes for unevaluated* and dynamic scopes spend in ways this does not follow
    shapes = _shapes(compiled)
    if shapes is None:
        return False
    inner_first = _inner_first(shapes)
    if inner_first is None:
        return False
    own = _summed(shapes, inner_first, lambda shape, done: shape.at_value + _inner(shape, done, 1))
    each = _summed(shapes, inner_first, lambda shape, done: shape.per_part + _inner(shape, done))
    parts_own = _summed(shapes, inner_first, lambda shape, done: shape.over_parts(own) + _inner(shape, done))
    # below: the bound of one application; deeper: what the schemas it (and what it applies in
    # place) applies to the parts can cost a value at depth 2 or more.
    below = {pointer: max(own[pointer], min(_PAST, each[pointer] + parts_own[pointer])) for pointer in shapes}
    if max(below.values()) >= _PAST:
        return False
    deeper = dict.fromkeys(shapes, 0)
    readers: dict[str, set[str]] = {pointer: set() for pointer in shapes}
    links = 0
    for pointer, shape in shapes.items():
        for read in (*shape.in_place, *(part for _, group in shape.parts for part in group)):
            readers[read].add(pointer)
            links += 1
    # The bounds rise by at least one each time they move, up to just past the allowance, so that many
    # passes over the schema suffice unless a long loop raises them one step a lap: past it, the
    # answer is no, which only makes the fast path count.
    reads_left = _PAST * (len(shapes) + links)
    # First in, first out: a schema read by thousands is worked out again once a round, not once for
    # each of them that moved.
    waiting, queued = collections.deque(shapes), set(shapes)
    while waiting:
        pointer = waiting.popleft()
        queued.discard(pointer)
        shape = shapes[pointer]
        reads_left -= 1 + len(shape.in_place) + sum(len(group) for _, group in shape.parts)
        if reads_left < 0:
            return False
        total = min(_PAST, shape.over_parts(below) + sum(deeper[inner] for inner in shape.in_place))
        if total <= deeper[pointer]:
            continue
        deeper[pointer] = total
        below[pointer] = max(below[pointer], total)
        if total >= _PAST:
            return False  # the root's bound is at least that of any schema it reaches
        for reader in readers[pointer] - queued:
            queued.add(reader)
            waiting.append(reader)
    return below[""] <= WORK_PER_VALUE


def _shapes(compiled: Compiled) -> dict[str, _Shape] | None:
    """Every schema object the root reaches, by pointer; None if one uses a keyword the bound does not
    follow (one that refers to schemas other than by ``$ref``, or one whose row has no speed group)."""
    rows = compiled.keywords
    shapes: dict[str, _Shape] = {}
    pending: list[Path] = [()]
    while pending:
        location = pending.pop()
        pointer = to_pointer(location)
        if pointer in shapes:
            continue
        shape = shapes[pointer] = _Shape()
        for name, plan in compiled.node(location).keywords.items():
            row = rows[name]
            if row.speed is None:
                return None  # its row says nothing of what it spends: the bound cannot follow it
            if row.speed.work is not None:
                at_value, per_part = row.speed.work(plan)
                shape.at_value += at_value
                shape.per_part += per_part
            if name == "$ref":
                found: list[Path] = [plan]
            elif row.refers:
                return None
            elif _applies_subschemas(row):
                found = _locations(row.holds, plan)
            else:
                continue  # no subschemas, or ones applied only where a $ref leads ($defs)
            pending.extend(found)
            if row.in_place:
                shape.in_place.extend(map(to_pointer, found))
            elif found:
                shape.parts.append((row.speed.apart, [to_pointer(location) for location in found]))
    return shapes


def _applies_subschemas(row: Keyword) -> bool:
    """Whether a keyword applies its subschemas to the value or its parts (``$defs`` only holds them)."""
    return bool(row.holds) and (row.in_place or row.instance_type in ("array", "object"))


def snapshot_within_allowance(root: Any, target: Callable[[str], Any]) -> bool:
    """A coarser :func:`within_allowance`, read off a snapshot (see :func:`snapshot_steps`)."""
    return snapshot_steps(root, target) <= WORK_PER_VALUE


def snapshot_steps(root: Any, target: Callable[[str], Any]) -> int:
    """The bound of a coarser :func:`within_allowance`, read off a snapshot the quick check vouched
    for (see ``quick``) without compiling it, in about the time a valid call takes to check. It reads
    the 2020-12 rows in every dialect: the keywords vouched for spend alike in each (``items`` holds
    one schema there), and where draft-07 ignores a ``$ref``'s siblings, counting them only adds.

    It adds up, over every way the root reaches each schema object (through subschemas and each
    ``$ref``, which ``target`` resolves), one step for applying it and what its keywords can spend at
    a value and at each part. A schema object applies to any one value at most once for each way the
    root reaches it, so no value can cost more than that sum; and of the ways through the subschemas
    of ``properties`` or ``prefixItems`` (``apart`` in their rows), those reaching one value all pass
    through one of them, so the most of theirs stands for all. A property's name and value count
    together as one part, as the budget counts them. The bound is capped just past the allowance,
    where a schema that reaches itself always is. Each keyword's ``work`` reads its value as written
    where the other reads its plan: a list or an object where the plan holds a tuple, and never less
    of one.
    """
    totals: dict[int, int] = {}  # by the identity of a schema object of the snapshot, which is alive
    entered: set[int] = set()

    def total(schema: Any, depth: int) -> int:
        if type(schema) is not dict:
            return 1  # a boolean schema (or, below a map, a value that is none: counting it only adds)
        key = id(schema)
        found = totals.get(key)
        if found is not None:
            return found
        if key in entered or depth > _DEEPEST:
            return _PAST  # it reaches itself, or too deep to follow here
        entered.add(key)
        steps = 1
        for name, value in schema.items():
            read = _LEADS.get(name)
            if read is None:
                continue
            work, leads, apart = read
            if work is not None:
                at_value, per_part = work(value)
                steps += at_value + per_part
            if leads == "$ref":
                steps += total(target(value), depth + 1)
            elif leads == "schema":
                steps += total(value, depth + 1)
            elif leads == "refers":
                steps = _PAST
            elif leads:
                children = [
                    total(child, depth + 1) for child in (value.values() if leads == "map" else value)
                ]
                # Subschemas applied to different parts: a value lies below one of those parts at most.
                steps += max(children, default=0) if apart else sum(children)
            if steps >= _PAST:
                break
        entered.discard(key)
        totals[key] = found = min(steps, _PAST)
        return found

    return total(root, 0)


def _leads(row: Keyword) -> tuple[Callable[[Any], tuple[int, int]] | None, str, bool]:
    """What the coarse bound reads of a keyword: its ``work``, where it leads ("$ref"; "refers" for the
    other references and for a keyword with no speed group, neither of which it follows; else where its
    subschemas are, the row's ``holds``), and whether they apply apart."""
    if row.speed is None:
        return None, "refers", False
    leads = (
        "$ref"
        if row.name == "$ref"
        else "refers"
        if row.refers
        else row.holds
        if _applies_subschemas(row)
        else ""
    )
    return row.speed.work, leads, row.speed.apart


# Each keyword that spends steps or leads to schemas, as the coarse bound reads it.
_LEADS = {
    row.name: _leads(row)
    for row in keywords(DEFAULT_DIALECT).values()
    if row.speed is None or row.speed.work is not None or row.refers or _applies_subschemas(row)
}


def _locations(holds: str, plan: Any) -> list[Path]:
    """The subschema locations in a keyword's plan (see ``schema.Node``), as its row's ``holds`` says."""
    if holds == "map":
        return [location for _, location in plan]
    if holds == "list":
        return list(plan)
    return [plan]


def _inner(shape: _Shape, done: dict[str, int], each_step: int = 0) -> int:
    """The sum over the schemas ``shape`` applies in place of ``done``, and of ``each_step`` for each."""
    return sum(each_step + done[inner] for inner in shape.in_place)


def _summed(
    shapes: dict[str, _Shape], inner_first: list[str], total: Callable[[_Shape, dict[str, int]], int]
) -> dict[str, int]:
    """``total`` of each schema object, given those of the schemas it applies in place, each stopped
    just past the allowance."""
    found: dict[str, int] = {}
    for pointer in inner_first:
        found[pointer] = min(_PAST, total(shapes[pointer], found))
    return found


def _inner_first(shapes: dict[str, _Shape]) -> list[str] | None:
    """The pointers, each after every schema it applies in place, found without recursion (a chain of
    thousands of $refs is a valid schema); None for a loop of them, which compilation refuses unless
    it never applies (a ``then`` without ``if`` leading back), and which the bound leaves alone."""
    order: list[str] = []
    seen: set[str] = set()
    for start in shapes:
        if start in seen:
            continue
        seen.add(start)
        stack, on_stack = [(start, iter(shapes[start].in_place))], {start}
        while stack:
            pointer, inner = stack[-1]
            following = next(inner, None)
            if following is None:
                stack.pop()
                on_stack.discard(pointer)
                order.append(pointer)
            elif following in on_stack:
                return None
            elif following not in seen:
                seen.add(following)
                on_stack.add(following)
                stack.append((following, iter(shapes[following].in_place)))
    return order
