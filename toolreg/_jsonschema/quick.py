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
from typing import Any, NamedTuple

from .findings import Path
from .limits import Limits
from .pointer import ARRAY_INDEX
from .regex import MAX_PROGRAM, Pattern, RegexSyntaxError, UnsupportedPattern
from .vocabulary import ANNOTATIONS, DEFAULT_DIALECT, DIALECTS, keywords

__all__ = ["vouch", "Vouched", "ref_location", "schema_at"]

# Compiles a pattern (once per registry) and says what in it needs a backtracking engine, if anything;
# raises RegexSyntaxError or UnsupportedPattern.
PatternGuard = Callable[[str], tuple[Pattern, "str | None"]]

# The keywords vouched for, by their rows (read in 2020-12, the dialect most schemas use): what
# compilation accepts as each one's value; "pattern" and "$ref" are then looked at more closely.
_VOUCHED = {name: row for name, row in keywords(DEFAULT_DIALECT).items() if row.quick is not None}
_VALUES: dict[str, Callable[[Any], bool]] = {
    **{name: row.quick for name, row in _VOUCHED.items() if row.quick is not None},
    **{name: valid for name, (_, valid) in ANNOTATIONS.items() if name not in ("$schema", "contentSchema")},
}
# Keywords that hold subschemas: one, a non-empty list, or an object of them.
_ONE = frozenset(name for name, row in _VOUCHED.items() if row.holds == "schema")
_LIST = frozenset(name for name, row in _VOUCHED.items() if row.holds == "list")
_MAP = frozenset(name for name, row in _VOUCHED.items() if row.holds == "map")
# Those applied to the value itself: a $ref's target holding one of them could lead back to the $ref.
_IN_PLACE = frozenset(name for name, row in _VOUCHED.items() if row.in_place)
# What each keyword vouched for spends at a value and at each of its parts (see work).
_WORK = {name: row.work for name, row in _VOUCHED.items() if row.work is not None}
# What each dialect lacks of the keywords above.
_LACKING = {dialect: frozenset(_VOUCHED) - keywords(dialect).keys() for dialect in set(DIALECTS.values())}
# A reference made of plain names: "#", "#/$defs/Name", "#/properties/a/items" …
_LOCAL_REF = re.compile(r"#(?:/[A-Za-z0-9_.$-]+)*")


class Vouched(NamedTuple):
    """What the quick check learnt of a schema it vouched for, in the walk it made anyway."""

    # For a schema without a $ref: the steps (see work) of all its schema objects together, one for
    # applying each and what its keywords spend. The root reaches each of them one way at most,
    # so no value can cost the reference walk more. None for a schema with a $ref.
    work: int | None


def vouch(root: Any, limits: Limits, pattern_and_risk: PatternGuard) -> Vouched | None:
    """Whether compiling ``root`` (a snapshot) is sure to succeed; None means "compile it now".

    ``pattern_and_risk`` compiles a pattern and says what in it needs a backtracking engine (the
    registry's cache).
    """
    declared = root.get("$schema") if type(root) is dict else None
    dialect = DEFAULT_DIALECT if declared is None else _dialect(declared)
    lacking = _LACKING.get(dialect)
    if lacking is None:
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
            if keyword in lacking:
                return None
            valid = _VALUES.get(keyword)
            if valid is not None:
                if not valid(value):
                    return None
                spends = _WORK.get(keyword)
                if spends is not None:
                    work += sum(spends(value))
                if keyword in _MAP:
                    stack.extend(value.values())
                elif keyword in _ONE:
                    stack.append(value)
                elif keyword in _LIST:
                    stack.extend(value)
                elif keyword == "pattern":
                    if not _safe_pattern(value, limits, pattern_and_risk, programs):
                        return None
                elif keyword == "$ref":
                    if not _LOCAL_REF.fullmatch(value):
                        return None
                    references.append(value)
            elif keyword == "$schema":
                if _dialect(value) != dialect:
                    return None
            elif not keyword.startswith("x-"):
                return None
    # Every schema counted was reached as a schema, so at most this many get compiled.
    if seen >= limits.max_schema_size or not all(_leads_to_a_schema(root, ref) for ref in references):
        return None
    return Vouched(None if references else seen + work)


def _dialect(declared: Any) -> str:
    return DIALECTS.get(declared, "") if type(declared) is str else ""


def _safe_pattern(
    value: Any, limits: Limits, pattern_and_risk: PatternGuard, programs: dict[str, int]
) -> bool:
    if type(value) is not str:
        return False
    try:
        pattern, risk = pattern_and_risk(value)
    except (RegexSyntaxError, UnsupportedPattern):
        return False
    programs[value] = pattern.program
    # Past the schema's allowance of RE2 programs, compiling it refuses it, saying so.
    within = sum(programs.values()) <= MAX_PROGRAM
    return within and (risk is None or limits.allow_backtracking_patterns)


def _leads_to_a_schema(root: Any, ref: str) -> bool:
    """Whether ``ref`` names a place the walk read as a schema (so it was vouched for), by keyword
    and position only, whose keywords apply nothing else to the same value (so no loop of them can
    come back to the ``$ref``)."""
    location = ref_location(root, ref)
    if location is None:
        return False
    target = schema_at(root, location)
    return type(target) is bool or (type(target) is dict and _IN_PLACE.isdisjoint(target))


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
