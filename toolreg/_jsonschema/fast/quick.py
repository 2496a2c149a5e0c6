"""The quick check at registration: a schema of the common keywords, each well formed, compiled later.

Compiling a schema builds a check for every keyword, which a registry of hundreds of tools pays for at
start-up although most tools are called rarely. :func:`vouch` instead reads a schema made only of the
keywords tool catalogs use most, with the values compilation would accept, and answers whether
compiling it is sure to succeed; the registry then compiles it at its first call. It answers no for
anything else, however valid (an ``$id``, a remote ``$ref``, a rare keyword, a meta-schema of the
caller's), and the registry compiles that schema at once, which refuses it with the precise reason or
accepts it. So ``vouch`` may be stricter than compilation, never looser: a test holds it to that over
the official suite's schemas, the real catalogs' and random ones.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, NamedTuple, Protocol

from ..findings import Path
from ..limits import Limits
from ..pointer import ARRAY_INDEX
from ..regex import MAX_PROGRAM, Pattern, RegexSyntaxError, UnsupportedPattern
from ..vocabulary import ANNOTATIONS, DEFAULT_DIALECT, DIALECTS, keywords

__all__ = ["vouch", "Vouched", "ref_location", "schema_at"]


class PatternGuard(Protocol):
    """Compiles a pattern (once per registry), a new one within ``room`` instructions (what its
    schema has left, see ``regex.Patterns``), and says what in it needs a backtracking engine, if
    anything; raises RegexSyntaxError or UnsupportedPattern."""

    def __call__(self, source: str, room: int | None = None) -> tuple[Pattern, str | None]: ...


# The keywords vouched for, by their rows' speed groups (read in 2020-12, the dialect most schemas use):
# what compilation accepts as each one's value; "pattern" and "$ref" are then looked at more closely. A
# keyword without a speed group, or whose group has no ``quick``, is not vouched for.
_VOUCHED = {
    name: row
    for name, row in keywords(DEFAULT_DIALECT).items()
    if row.speed is not None and row.speed.quick is not None
}
_SPEEDS = {name: row.speed for name, row in _VOUCHED.items() if row.speed is not None}
_VALUES: dict[str, Callable[[Any], bool]] = {
    **{name: speed.quick for name, speed in _SPEEDS.items() if speed.quick is not None},
    **{name: valid for name, (_, valid) in ANNOTATIONS.items() if name not in ("$schema", "contentSchema")},
}
# Keywords that hold subschemas: one, a non-empty list, or an object of them.
_ONE = frozenset(name for name, row in _VOUCHED.items() if row.holds == "schema")
_LIST = frozenset(name for name, row in _VOUCHED.items() if row.holds == "list")
_MAP = frozenset(name for name, row in _VOUCHED.items() if row.holds == "map")
# Those applied to the value itself: a $ref's target holding one of them could lead back to the $ref.
_IN_PLACE = frozenset(name for name, row in _VOUCHED.items() if row.in_place)
# What each keyword vouched for spends at a value and at each of its parts (see work).
_WORK = {name: speed.work for name, speed in _SPEEDS.items() if speed.work is not None}
# Per dialect, what the walk below asks of each key it vouches for there, in one lookup: the test of
# its value, what it spends (or None), and what it holds that the walk looks at next (its row's
# "schema", "list" or "map" of subschemas, "pattern", "$ref", or None).
_Facts = tuple[Callable[[Any], bool], "Callable[[Any], tuple[int, int]] | None", "str | None"]
_FACTS: dict[str, dict[str, _Facts]] = {
    dialect: {
        name: (valid, _WORK.get(name), name if name in ("pattern", "$ref") else _VOUCHED[name].holds or None)
        if name in _VOUCHED
        else (valid, None, None)
        for name, valid in _VALUES.items()
        if name not in _VOUCHED or name in keywords(dialect)
    }
    for dialect in set(DIALECTS.values())
}
# A reference made of plain names: "#", "#/$defs/Name", "#/properties/a/items" …
_LOCAL_REF = re.compile(r"#(?:/[A-Za-z0-9_.$-]+)*")


class Vouched(NamedTuple):
    """What the quick check learnt of a schema it vouched for, in the walk it made anyway."""

    # The steps (see work) of all its schema objects together, one for applying each and what its
    # keywords spend, and those of each $ref's target again. It is kept only where each $ref leads to a
    # schema object that holds no subschema and no $ref: the root then reaches every other object
    # one way at most, and each target once more for each $ref, so no value can cost the reference
    # walk more. None otherwise.
    work: int | None


def vouch(root: Any, limits: Limits, pattern_and_risk: PatternGuard) -> Vouched | None:
    """Whether compiling ``root`` (a snapshot) is sure to succeed; None means "compile it now".

    ``pattern_and_risk`` compiles a pattern and says what in it needs a backtracking engine (the
    registry's cache).
    """
    declared = root.get("$schema") if type(root) is dict else None
    dialect = DEFAULT_DIALECT if declared is None else _dialect(declared)
    facts_of = _FACTS.get(dialect)
    if facts_of is None:
        return None  # a meta-schema of the caller's, or none toolreg knows
    stack = [root]
    references: list[str] = []
    seen = work = 0
    programs: dict[str, int] = {}  # the size of each pattern's RE2 programs, as compiling counts them
    while stack:
        schema = stack.pop()
        seen += 1
        if type(schema) is bool:
            continue
        if type(schema) is not dict:
            return None
        for keyword, value in schema.items():
            facts = facts_of.get(keyword)
            if facts is None:
                # Not vouched for in this dialect, unless a $schema that repeats it or an extension.
                if keyword == "$schema":
                    if _dialect(value) != dialect:
                        return None
                elif not keyword.startswith("x-"):
                    return None
                continue
            valid, spends, holds = facts
            if not valid(value):
                return None
            if spends is not None:
                work += sum(spends(value))
            if holds is None:
                continue
            # Each keyword's subschemas are read in their order (compilation's, so that the patterns
            # compiled here are the ones it compiles, each compiled once within the registry's allowance).
            if holds == "map":
                stack.extend(reversed(value.values()))
            elif holds == "schema":
                stack.append(value)
            elif holds == "list":
                stack.extend(reversed(value))
            elif holds == "pattern":
                if not _safe_pattern(value, limits, pattern_and_risk, programs):
                    return None
            elif not _LOCAL_REF.fullmatch(value):  # a $ref
                return None
            else:
                references.append(value)
    # Every schema counted was reached as a schema, so at most this many get compiled.
    if seen >= limits.max_schema_size:
        return None
    total: int | None = seen + work
    for ref in references:
        target = _referenced(root, ref)
        if target is _NO_SCHEMA:
            return None
        if total is not None:
            # What a $ref spends is its target's: summed where that leads nowhere further.
            steps = _steps_alone(target)
            total = None if steps is None else total + steps
    return Vouched(total)


def _dialect(declared: Any) -> str:
    return DIALECTS.get(declared, "") if type(declared) is str else ""


def _safe_pattern(
    value: Any, limits: Limits, pattern_and_risk: PatternGuard, programs: dict[str, int]
) -> bool:
    if type(value) is not str:
        return False
    try:
        room = None if value in programs else MAX_PROGRAM - sum(programs.values())
        pattern, risk = pattern_and_risk(value, room)
    except (RegexSyntaxError, UnsupportedPattern):
        return False
    programs[value] = pattern.program
    # Past the schema's allowance of RE2 programs, compiling it refuses it, saying so.
    within = sum(programs.values()) <= MAX_PROGRAM
    return within and (risk is None or limits.allow_backtracking_patterns)


_NO_SCHEMA = object()


def _referenced(root: Any, ref: str) -> Any:
    """The schema ``ref`` names, if the walk read it as a schema (so it was vouched for), by keyword
    and position only, and its keywords apply nothing else to the same value (so no loop of them can
    come back to the ``$ref``); else ``_NO_SCHEMA``."""
    location = ref_location(root, ref)
    if location is None:
        return _NO_SCHEMA
    target = schema_at(root, location)
    if type(target) is bool or (type(target) is dict and _IN_PLACE.isdisjoint(target)):
        return target
    return _NO_SCHEMA


def _steps_alone(target: Any) -> int | None:
    """The steps of applying a vouched ``$ref`` target that holds no subschema (see Vouched; it holds
    no ``$ref`` either, which applies in place); None for any other."""
    if type(target) is bool:
        return 1
    steps = 1
    for keyword, value in target.items():
        if keyword in _ONE or keyword in _LIST or keyword in _MAP:
            return None
        spends = _WORK.get(keyword)
        if spends is not None:
            steps += sum(spends(value))
    return steps


def ref_location(root: Any, ref: str) -> Path | None:
    """Where the local ``ref`` of a vouched schema leads, a list's positions as numbers, if it names a
    schema by keyword and position; else None."""
    target = root
    tokens = ref[2:].split("/") if ref != "#" else []
    location: list[str | int] = []
    position = 0
    while position < len(tokens):
        keyword = tokens[position]
        if type(target) is not dict or keyword not in target:
            return None
        target = target[keyword]
        location.append(keyword)
        if keyword in _ONE:
            position += 1
        elif keyword in _MAP or keyword in _LIST:
            if position + 1 == len(tokens):
                return None
            token = tokens[position + 1]
            if keyword in _LIST:
                if not ARRAY_INDEX.fullmatch(token) or type(target) is not list or int(token) >= len(target):
                    return None
                target = target[int(token)]
                location.append(int(token))
            elif type(target) is not dict or token not in target:
                return None
            else:
                target = target[token]
                location.append(token)
            position += 2
        else:
            return None
    return tuple(location)


def schema_at(root: Any, location: Path) -> Any:
    """The part of ``root`` at ``location``."""
    for token in location:
        root = root[token]
    return root
