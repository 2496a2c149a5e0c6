"""Repair of a model's arguments where the schema allows exactly one reading, each repair recorded.

Models break calls in a few repeated ways: JSON text where an object or array belongs, a number or a
boolean in quotes, ``null`` for a property they mean to leave out, a lone value where a one-item array
belongs, an enum's string written as the number it spells, a trailing comma in arguments sent as text.
:func:`repair` mends those, and nothing else, on three conditions: the value is invalid where it stands
(an error's ``path`` points at it), exactly one of the listed readings of it makes every error at and
below that pointer go without adding one anywhere, and the arguments are valid once every repair is
made. It never fills in a missing value, drops or renames a name, reads NaN or an infinity, takes a
fraction for an integer, folds case, chooses between two readings that both fit (a union's branches),
or reads again a string that is valid as it is. Each repair is a :class:`Repair`, worded for the model
by :func:`repair_note` so that it sends the right shape next time.

Its work is bounded: at most :data:`MAX_CANDIDATES` validations of candidate arguments, each within
the validator's work budget, and JSON text read with the guards of the providers' reading (no NaN or
Infinity, no key given twice, no integer longer than Python reads, no nesting past Python's stack).
It imports the validator and nothing of calling or providers.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ._feedback import printable
from ._jsonschema.errors import Result, freeze, thaw
from ._jsonschema.limits import DEFAULT_LIMITS, LimitsLike
from ._jsonschema.pointer import split
from ._jsonschema.validator import Validator
from ._jsonschema.vocabulary import VOCABULARY
from ._jsonschema.wording import show_within

__all__ = [
    "Repair",
    "RULES",
    "MAX_CANDIDATES",
    "repair",
    "repair_arguments",
    "without_trailing_commas",
    "repair_note",
    "json_reading",
]

# Each rule, and what it reads.
RULES: Mapping[str, str] = {
    "json_text": "a string read as the JSON array, object, number, boolean or null it holds",
    "one_item_array": "a lone value read as the one item of an array",
    "null_as_absent": "null given for an optional property read as the property left out",
    "enum_string": "a number or boolean read as the one string of the enum that writes it",
    "trailing_comma": "the arguments' JSON text read without its trailing commas",
}
# How many candidate readings one repair validates at most (each a validation of the whole arguments
# within the work budget): a call models break in one or two places needs a few; hostile arguments
# with thousands of invalid values get no more.
MAX_CANDIDATES = 16
# How much of a value a repair's words quote.
_QUOTED = 120
# Errors after which the other errors are not all there, or the arguments are not JSON to read.
_UNREADABLE = frozenset({"limit", "depth", "json"})


@dataclass(frozen=True)
class Repair:
    """One repair of a model's arguments: at ``pointer`` (RFC 6901, into the arguments), by ``rule``,
    the value ``before`` became ``after``. The rules: ``json_text`` (a string read as the JSON array,
    object, number, boolean or null it holds), ``one_item_array`` (a lone value read as an array's one
    item), ``null_as_absent`` (null for an optional property read as the property left out: ``after``
    is None), ``enum_string`` (a number or boolean read as the one string of the enum that writes it)
    and ``trailing_comma`` (at the pointer ``""``: the arguments' JSON text before and after its
    trailing commas were left out). Values are read-only copies (arrays as tuples), as in an error's
    facts; :meth:`to_dict` gives plain JSON, and ``str()`` the line the model reads:
    ``"`/limit` was the string "10"; read as 10"``."""

    pointer: str
    rule: str
    before: Any
    after: Any

    def __post_init__(self) -> None:
        object.__setattr__(self, "before", freeze(self.before))
        object.__setattr__(self, "after", freeze(self.after))

    def __hash__(self) -> int:
        # The values may be objects, which do not hash; equal repairs still hash alike.
        return hash((self.pointer, self.rule))

    def to_dict(self) -> dict[str, Any]:
        """The four fields as plain JSON (fresh lists and dicts)."""
        return {
            "pointer": self.pointer,
            "rule": self.rule,
            "before": thaw(self.before),
            "after": thaw(self.after),
        }

    def __str__(self) -> str:
        where = f"`{printable(self.pointer)}`" if self.pointer else "the arguments"
        before, after = _shown(self.before), _shown(self.after)
        if self.rule == "json_text":
            return f"{where} was the string {before}; read as {after}"
        if self.rule == "one_item_array":
            return f"{where} was {before}, not an array; read as {after}"
        if self.rule == "null_as_absent":
            return f"{where} was null; read as not given (leave it out rather than send null)"
        if self.rule == "enum_string":
            kind = "boolean" if isinstance(self.before, bool) else "number"
            return f"{where} was the {kind} {before}; read as the string {after}, which the enum lists"
        if self.rule == "trailing_comma" and isinstance(self.before, str) and isinstance(self.after, str):
            return _said_commas(self.before, self.after)
        return f"{where} was {before}; read as {after} ({printable(self.rule)[:40]})"


def _shown(value: Any) -> str:
    """A value as JSON text for the model, cut to about :data:`_QUOTED` characters, nothing unprintable
    (a value read from a string is no longer than the string it was read from)."""
    return printable(show_within(thaw(value), _QUOTED))


def _said_commas(before: str, after: str) -> str:
    first = next(
        (index for index, (a, b) in enumerate(zip(before, after, strict=False)) if a != b), len(after)
    )
    count = len(before) - len(after)
    what = "a trailing comma" if count == 1 else f"{count} trailing commas, the first"
    return f"the arguments' JSON text had {what} at character {first} (JSON allows none); read without it"


def repair_note(repairs: Iterable[Repair]) -> str:
    """What the model is told of the repairs made to its call, so that it sends the right shape next
    time; ``""`` when there were none."""
    lines = [f"- {repair}" for repair in repairs]
    if not lines:
        return ""
    return "\n".join(["The arguments were repaired before the tool ran; send them so next time:", *lines])


# -- JSON text read strictly -----------------------------------------------------------------------


class _NotStrict(ValueError):
    """Text JSON reads otherwise, or not at all, under the strict reading."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) != len(pairs):
        raise _NotStrict("a key given twice")
    return found


def _no_constant(name: str) -> Any:
    raise _NotStrict(f"{name} is not JSON")


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):  # 1e999: Python reads an infinity
        raise _NotStrict("a number past a float's range")
    return number


_DECODER = json.JSONDecoder(object_pairs_hook=_unique_keys, parse_constant=_no_constant, parse_float=_finite)


def json_reading(text: str) -> tuple[Any] | None:
    """The one-tuple of the JSON value ``text`` holds, other than a string, read strictly: no NaN or
    infinity, no key given twice, nothing after the value, no integer longer than Python reads, no
    nesting past Python's stack; None when it holds none."""
    try:
        value = _DECODER.decode(text)  # raises on text after the value ("Extra data")
    except (ValueError, RecursionError):
        return None
    return None if isinstance(value, str) else (value,)


# Outside strings (each read whole, or to the end when it is never closed, so the search never
# backtracks over one), a comma with only JSON whitespace before a closing bracket.
_TRAILING_COMMA = re.compile(r'"(?:[^"\\]|\\.)*"?|(,)[ \t\n\r]*(?=[\]}])', re.DOTALL)


def without_trailing_commas(text: str) -> Repair | None:
    """The repair of arguments' JSON text by leaving out each comma that only whitespace separates
    from a closing ``]`` or ``}`` (outside strings); None when it has none. The text it gives may still
    be no JSON: the caller reads it as it reads any, and repairs only if that reading succeeds."""
    pieces, start = [], 0
    for found in _TRAILING_COMMA.finditer(text):
        comma = found.start(1)
        if comma >= 0:
            pieces.append(text[start:comma])
            start = comma + 1
    if not pieces:
        return None
    pieces.append(text[start:])
    return Repair("", "trailing_comma", text, "".join(pieces))


# -- values in the arguments ----------------------------------------------------------------------


class _Absent:
    """A property left out (the candidate of ``null_as_absent``)."""


_ABSENT = _Absent()
_INDEX = re.compile(r"0|[1-9][0-9]*")


def _at(args: Any, tokens: list[str]) -> tuple[bool, Any]:
    """Whether the pointer's tokens lead to a value in ``args``, and that value."""
    value = args
    for token in tokens:
        if type(value) is dict:
            if token not in value:
                return False, None
            value = value[token]
        elif type(value) is list and _INDEX.fullmatch(token) and int(token) < len(value):
            value = value[int(token)]
        else:
            return False, None
    return True, value


def _replaced(args: Any, tokens: list[str], new: Any) -> Any:
    """``args`` with the value at the tokens replaced by ``new`` (or left out, for ``_ABSENT``): the
    containers on the way copied, ``args`` itself unchanged."""
    if not tokens:
        return new
    token, rest = tokens[0], tokens[1:]
    if type(args) is dict:
        copy = dict(args)
        if rest:
            copy[token] = _replaced(args[token], rest, new)
        elif new is _ABSENT:
            del copy[token]
        else:
            copy[token] = new
        return copy
    items = list(args)
    items[int(token)] = _replaced(items[int(token)], rest, new)
    return items


# One error, top-level or inside a union's branches: where, which keyword, and its facts.
_Found = tuple[str, str, str, Mapping[str, Any]]


def _all_errors(errors: Iterable[Any]) -> Iterator[_Found]:
    """Every error, and every error of every branch a union reports inside it, depth first."""
    stack: list[Any] = list(errors)[::-1]
    while stack:
        error = stack.pop()
        if isinstance(error, Mapping):  # a branch's error, as its union's facts hold it
            facts: Mapping[str, Any] = error
            found = (
                str(error.get("path", "")),
                str(error.get("schema_path", "")),
                str(error.get("keyword", "")),
            )
        else:
            facts = error.facts
            found = (error.path, error.schema_path, error.keyword)
        yield (*found, facts)
        branches = facts.get("branches")  # anyOf's and oneOf's: each branch's errors
        if isinstance(branches, tuple):
            for branch in reversed(branches):
                stack.extend(reversed(branch))


def _key(error: Any) -> tuple[str, str, str, str]:
    return (error.path, error.schema_path, error.keyword, error.message)


def _at_or_below(path: str, pointer: str) -> bool:
    return pointer == "" or path == pointer or path.startswith(pointer + "/")


# Keywords whose subschemas apply to a part of the value (a property, an item, a name), and where
# their tokens name which subschema: in an evaluation path each is followed by the keyword's own
# token (a name, an index) when it holds a map or a list.
_HOLDS: dict[str, set[str]] = {}
for _row in VOCABULARY:
    _HOLDS.setdefault(_row.name, set()).add(_row.holds)
_MOVES = frozenset(
    row.name
    for row in VOCABULARY
    if row.holds and not row.in_place and row.name not in ("$defs", "definitions")
)


def _last_step(evaluation_path: str) -> tuple[str, str | None] | None:
    """The last keyword of an evaluation path that moved into a part of the value, with the name it
    gave (``properties`` and the property's name); None when none did."""
    tokens = split(evaluation_path)
    last: tuple[str, str | None] | None = None
    index = 0
    while index < len(tokens):
        keyword, named = tokens[index], None
        index += 1
        holds = _HOLDS.get(keyword, set())
        if holds & {"map", "list"} and index < len(tokens):
            named, index = tokens[index], index + 1
        elif "schema-or-list" in holds and index < len(tokens) and _INDEX.fullmatch(tokens[index]):
            index += 1
        if keyword in _MOVES:
            last = (keyword, named)
    return last


# -- the repair ------------------------------------------------------------------------------------


@dataclass
class _Repairing:
    """One repair under way: the arguments as repaired so far, their errors, and what is left to try."""

    validator: Validator
    validate: Callable[[Any], Result]
    args: Any
    errors: Result
    tries_left: int = MAX_CANDIDATES
    # Evaluation paths of the failing keywords at each pointer, from the standard output of ``args``.
    _paths: dict[str, list[str]] | None = None

    def candidates(self, pointer: str, tokens: list[str], value: Any) -> list[tuple[str, Any]]:
        """The readings of ``value`` the rules allow, each with its rule."""
        kind = type(value)
        if kind not in (str, int, float, bool) and value is not None:
            return []  # a container, or a subclass of a JSON type (an IntEnum…): left as it is
        found: list[tuple[str, Any]] = []
        if kind is str:
            reading = json_reading(value)
            if reading is not None:
                found.append(("json_text", reading[0]))
        elif value is None:
            if tokens and self._declared(pointer, tokens):
                found.append(("null_as_absent", _ABSENT))
        else:
            found += [("enum_string", member) for member in self._enum_members(pointer, value)]
        found.append(("one_item_array", [value]))
        return found

    def _enum_members(self, pointer: str, value: Any) -> list[str]:
        """The string members of each enum failing at ``pointer`` whose strict JSON reading is
        ``value`` (the same boolean, or an equal number), each once."""
        members: list[str] = []
        for path, _, keyword, facts in _all_errors(self.errors):
            allowed = facts.get("allowed")
            if path != pointer or keyword != "enum" or not isinstance(allowed, tuple):
                continue
            for member in allowed:
                if type(member) is str and member not in members and _writes(member, value):
                    members.append(member)
        return members

    def _declared(self, pointer: str, tokens: list[str]) -> bool:
        """Whether the value at ``pointer`` is that of a property some ``properties`` names, read from
        the evaluation paths (through ``$ref``) of every keyword failing there: a name only
        ``additionalProperties``, ``patternProperties`` or ``unevaluatedProperties`` judges is not one
        the schema knows, and is never left out."""
        found, parent = _at(self.args, tokens[:-1])
        if not found or type(parent) is not dict:
            return False
        if self._paths is None:
            self.tries_left -= 1  # the output walks the schema again, as a validation does
            self._paths = {}
            for unit in self.validator.output(self.args, "basic").get("errors", ()):
                self._paths.setdefault(unit["instanceLocation"], []).append(unit["keywordLocation"])
        paths = self._paths.get(pointer, [])
        return bool(paths) and all(_last_step(path) == ("properties", tokens[-1]) for path in paths)

    def accepted(self, pointer: str, tokens: list[str], candidate: Any) -> tuple[Any, Result] | None:
        """The arguments with ``candidate`` at ``pointer`` and their errors, if it takes away every
        error at and below the pointer and adds none anywhere; else None."""
        self.tries_left -= 1
        args = _replaced(self.args, tokens, candidate)
        errors = self.validate(args)
        if any(_at_or_below(path, pointer) for path, *_ in _all_errors(errors)):
            return None
        before = {_key(error) for error in self.errors}
        if any(_key(error) not in before for error in errors):
            return None
        return args, errors

    def mend(self, pointer: str) -> Repair | None:
        """The one repair at ``pointer`` the rules allow, made; None when there is none or more than one."""
        tokens = split(pointer)
        found, value = _at(self.args, tokens)
        if not found:
            return None
        fitting: list[tuple[str, Any, tuple[Any, Result]]] = []
        for rule, candidate in self.candidates(pointer, tokens, value):
            if self.tries_left <= 0:
                return None
            result = self.accepted(pointer, tokens, candidate)
            if result is not None:
                fitting.append((rule, candidate, result))
        if len(fitting) != 1:
            return None  # no reading fits, or two do: the model must say which
        ((rule, candidate, (self.args, self.errors)),) = fitting
        self._paths = None
        return Repair(pointer, rule, value, None if candidate is _ABSENT else candidate)


def _writes(member: str, value: Any) -> bool:
    """Whether the strict JSON reading of ``member`` is ``value``: the same boolean, or an equal number."""
    reading = json_reading(member)
    if reading is None:
        return False
    read = reading[0]
    if type(value) is bool or type(read) is bool:
        return read is value
    return type(read) in (int, float) and read == value


def repair(
    schema: Any,
    args: Any,
    *,
    limits: LimitsLike = DEFAULT_LIMITS,
    documents: Mapping[str, Any] | None = None,
    assert_formats: bool = False,
) -> tuple[Any, tuple[Repair, ...]]:
    """``args`` repaired where ``schema`` (a schema, or a :class:`~toolreg.Validator`) allows
    exactly one reading, and the repairs made (each a :class:`Repair`); or ``args`` itself and ``()``
    when they are valid, or when the repairs cannot make them valid. Pure: ``args`` is never changed.
    ``ToolRegistry.repair`` says which readings are tried and which never are; the other arguments
    are as in :func:`~toolreg.validate`."""
    if not isinstance(schema, Validator):
        schema = Validator(schema, limits=limits, documents=documents, assert_formats=assert_formats)
    return repair_arguments(schema, args)


def repair_arguments(
    validator: Validator, args: Any, *, validate: Callable[[Any], Result] | None = None
) -> tuple[Any, tuple[Repair, ...]]:
    """``args`` repaired where the validator's schema allows exactly one reading, and the repairs
    made; or ``args`` itself and no repairs, unless the repairs make them valid.

    Valid arguments are returned as they are. For invalid ones, each pointer an error names (a
    union's branches included) is tried in the errors' order: its value's readings by the rules of
    :data:`RULES` are each applied in turn, and the one that takes away every error at and below the
    pointer without adding one anywhere is made, when it is the only one. ``validate`` judges the
    arguments (``validator.validate`` unless given: a registry asks for an object too). ``args`` is
    never changed; the repaired arguments share what they did not change with it."""
    check = validator.validate if validate is None else validate
    errors = check(args)
    if not errors or any(error.keyword in _UNREADABLE for error in errors):
        return args, ()
    repairing = _Repairing(validator, check, args, errors)
    pointers = dict.fromkeys(path for path, *_ in _all_errors(errors))
    made = []
    for pointer in pointers:
        if repairing.tries_left <= 0 or not repairing.errors:
            break
        mended = repairing.mend(pointer)
        if mended is not None:
            made.append(mended)
    if not made or repairing.errors:
        return args, ()
    return repairing.args, tuple(made)
