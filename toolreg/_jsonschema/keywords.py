"""The keyword table: for each supported keyword, one function that checks its value and builds its check."""

from __future__ import annotations

import itertools
import json
import operator
import re
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, NoReturn, Protocol
from urllib.parse import urlsplit

from .errors import (
    FrozenArray,
    Masked,
    SchemaError,
    ValidationError,
    Words,
    deferred_error,
    freeze,
    trusted_error,
    worded_error,
)
from .formats import FORMATS
from .limits import WORK_PER_VALUE, Limits, budget, values_at_a_glance
from .pointer import InstanceKey, Token, masked_pointer, to_pointer
from .regex import Pattern, RegexSyntaxError, UnsupportedPattern
from .values import (
    ValueKeys,
    exact_number,
    int_text,
    is_integer,
    is_number,
    json_equal,
    json_key,
    json_key_within,
    json_size,
    json_type,
    survey,
)

__all__ = [
    "Check",
    "Path",
    "Site",
    "Compiler",
    "BranchCheck",
    "Findings",
    "Memo",
    "OverBudget",
    "spend",
    "spent",
    "counts_itself",
    "SPENDS_ITSELF",
    "Failed",
    "Verdict",
    "run_branch",
    "FAILED",
    "JSON_TYPES",
    "show",
    "show_within",
    "show_values",
    "present_in",
    "UNCOUNTED_NAMES",
    "MISSING_STEPS",
    "QUOTED_CHARS",
    "no_check",
    "Evaluated",
    "collected",
    "noted",
    "NOTES",
    "WORDS",
]

Path = tuple[Token, ...]
# A check looks at one instance value at ``path`` and appends what is wrong to the list.
Check = Callable[[Any, Path, list[ValidationError]], None]

JSON_TYPES: dict[str, Callable[[object], bool]] = {
    "null": lambda value: value is None,
    "boolean": lambda value: isinstance(value, bool),
    "integer": is_integer,
    "number": is_number,
    "string": lambda value: isinstance(value, str),
    "array": lambda value: isinstance(value, list),
    "object": lambda value: isinstance(value, dict),
}


def show(value: Any) -> str:
    """A value as JSON text, for messages: ``"a"``, ``null``, ``[1, 2]``, never a Python repr."""
    kind = type(value)
    if kind is int:
        return int_text(value)
    if kind is float:
        return repr(value)  # what json.dumps writes for a finite float, without its overhead
    return json.dumps(_writable(value), ensure_ascii=False, sort_keys=True)


# How much of one value a message quotes: the whole value stays in the error's facts. A message is
# worded for every error, and a keyword applied to each of many values would otherwise copy a large
# enum or const of the schema into each of their messages.
QUOTED_CHARS = 200


def show_within(value: Any, chars: int = QUOTED_CHARS) -> str:
    """A value as JSON text, for messages, cut to about ``chars`` characters with "…" (a string is
    cut before it is written, so a long one costs no more than its first characters)."""
    return _within(value, chars)[0]


def _within(value: Any, chars: int) -> tuple[str, bool]:
    if type(value) is str and len(value) > chars:
        return show(value[:chars])[:-1] + '…"', True
    text = show(value)
    return (text, False) if len(text) <= chars else (text[: chars - 1] + "…", True)


def show_values(values: Sequence[Any]) -> str:
    """A list of values as JSON text, for messages: whole when short, else its first values within
    about :data:`QUOTED_CHARS` characters (at least one) and how many more there are."""
    shown: list[str] = []
    used, whole = 2, True
    for value in values:
        text, cut = _within(value, QUOTED_CHARS // 2)
        used += len(text) + 2
        if used > QUOTED_CHARS + 2 and shown:
            whole = False
            break
        shown.append(text)
        whole = whole and not cut
    if whole:
        return "[" + ", ".join(shown) + "]"
    if len(shown) < len(values):
        shown.append(f"… {len(values) - len(shown)} more")
    return f"{len(values)} values [{', '.join(shown)}]"


def _writable(value: Any) -> Any:
    """A thawed copy with every integer too long to write replaced by the words for it."""
    if isinstance(value, int) and not isinstance(value, bool):
        text = int_text(value)
        return int(value) if text[-1].isdigit() else text
    if isinstance(value, (list, tuple)):
        return [_writable(item) for item in value]
    if isinstance(value, Mapping):
        return {key: _writable(item) for key, item in value.items()}
    return value


def _count(number: int, noun: str, plural: str = "") -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {plural or noun + 's'}"


def no_check(instance: Any, path: Path, errors: list[ValidationError]) -> None:
    return None


class OverBudget(Exception):
    """One validation took more steps of work than ``Limits.max_work`` and the allowance for each
    value give it (see ``Limits``)."""


class Memo:
    """What one validation remembers of its instance, made when first needed: how deep each array
    and object the fast path found plain JSON nests, by identity (see ``codegen.plain_json``), and
    the keys of its values (see ``values.ValueKeys``), so that neither is worked out twice."""

    __slots__ = ("plain", "keys")

    def __init__(self) -> None:
        self.plain: dict[int, int] = {}
        self.keys = ValueKeys()


class Findings(list[ValidationError]):
    """The errors of one validation, and what it shares with every list of branch errors made from
    it: ``left``, the steps left of its work budget, what the instance may still earn, and its
    :class:`Memo`; the resources entered and the notes taken.

    The fast path starts with the budget its values known at a glance earn (see
    ``limits.values_at_a_glance``), with the instance and limits to count the rest by, once, when
    that is spent (see ``spent``).
    """

    __slots__ = ("left", "scope", "notes")
    left: list[Any]  # [steps left, (instance, limits) to count later or None, Memo or None]
    # The schema resources the walk has entered, outermost first: where "$dynamicRef" looks.
    scope: list[str]
    # What is evaluated of the values whose schemas hold unevaluated*, innermost last (see Evaluated).
    notes: list[Evaluated]

    @classmethod
    def budget(cls, steps: int, counted_later: tuple[Any, Limits] | None = None) -> Findings:
        findings = cls()
        findings.left, findings.scope, findings.notes = [steps, counted_later, None], [], []
        return findings

    @classmethod
    def glance(cls, instance: Any, limits: Limits) -> Findings:
        """The fast path's: the budget of the values known at a glance, the rest counted when it is spent."""
        # limits.budget(limits, limits.values_at_a_glance(instance)), without the calls.
        values = 1 + len(instance) if type(instance) is dict or type(instance) is list else 1
        findings = cls()
        findings.left = [limits.max_work + WORK_PER_VALUE * values, (instance, limits), None]
        findings.scope, findings.notes = [], []
        return findings

    def scratch(self) -> Findings:
        found = type(self)()  # a Verdict's branches stop at their first error too
        found.left, found.scope, found.notes = self.left, self.scope, self.notes
        return found

    def memo(self) -> Memo:
        """This validation's memo, shared by every level of the walk."""
        memo: Memo | None = self.left[2]
        if memo is None:
            memo = self.left[2] = Memo()
        return memo


class Failed(Exception):
    """A yes/no answer's first error: the walk stops there (see Verdict)."""


class Verdict(Findings):
    """The errors of a yes/no answer (``is_valid``), which needs none of them: adding the first
    raises Failed, caught where the errors of a branch are read (see ``run_branch``) or at the top, so
    the walk stops at the first failure and no error is worded."""

    __slots__ = ()

    def append(self, error: ValidationError) -> None:
        raise Failed


def run_branch(
    child: Check, instance: Any, path: Path, errors: list[ValidationError]
) -> list[ValidationError]:
    """A subschema's errors on a list of their own, on the same budget: a branch of anyOf or oneOf,
    the schema of not or if, contains's on one item. In a yes/no answer the branch stops at its first
    error, and the list holds none: it is empty exactly when the branch passed."""
    found = scratch(errors)
    try:
        child(instance, path, found)
    except Failed:
        return [FAILED]
    return found


# What stands for the errors of a branch (or a walk) that a yes/no answer stopped at its first: never
# shown, since the answer keeps no error, but an error all the same, for the code that reads them.
FAILED = trusted_error("", "", "false", "fails", {})


# Keywords that spend a step each time their schema object is applied to a value.
SPENDS_ITSELF = frozenset({"$ref", "$dynamicRef", "$recursiveRef", "allOf", "anyOf", "oneOf", "not", "if"})


def counts_itself(schema: Any, ignored: frozenset[str] = frozenset()) -> bool:
    """Whether applying ``schema`` spends a step already (it applies a subschema in place, through a
    keyword not ``ignored`` by its meta-schema's vocabularies), so that ``items`` or ``prefixItems``
    applying it to an item need not spend one more for the item."""
    return isinstance(schema, dict) and any(key in SPENDS_ITSELF and key not in ignored for key in schema)


def spend(errors: list[ValidationError], steps: int = 1) -> None:
    """Count steps of work (a subschema applied in place, …); raise OverBudget past the budget."""
    if isinstance(errors, Findings):
        left = errors.left
        left[0] -= steps
        if left[0] < 0:
            spent(left)


def spent(left: list[Any]) -> None:
    """The budget is spent: it grows, once, by what the rest of the instance earns, if it was not
    counted yet (see Findings); else, or if that is not enough, OverBudget."""
    later = left[1]
    if later is None:
        raise OverBudget
    left[1] = None
    instance, limits = later
    problems, values, _ = survey(instance, limits.max_depth)
    if problems:
        raise OverBudget  # the validator finds them too, and lets the reference walk report them
    left[0] += budget(limits, values) - budget(limits, values_at_a_glance(instance))
    if left[0] < 0:
        raise OverBudget


def scratch(errors: list[ValidationError]) -> list[ValidationError]:
    """A list for a branch's errors, on the same budget."""
    return errors.scratch() if isinstance(errors, Findings) else []


class Evaluated:
    """What the subschemas applied to one array or object have evaluated of it so far: the item
    indices or property names, or ``every`` one; what ``unevaluatedItems`` and
    ``unevaluatedProperties`` read, collected as the walk goes, once.

    A schema object holding one of them opens a set of notes for its value, and each subschema
    applied to that value in place (``allOf``, ``$ref``, a branch of ``anyOf`` …) opens its own,
    handed to the one around it only if the value passes the subschema; ``not`` hands on nothing.
    Each schema object notes what its own keywords evaluate (see :data:`NOTES`).
    """

    __slots__ = ("instance", "found", "every")

    def __init__(self, instance: Any) -> None:
        self.instance = instance
        self.found: set[str | int] = set()
        self.every = False

    def take(self, inner: Evaluated) -> None:
        """Add what a subschema the value passed has evaluated."""
        if inner.every:
            self.every = True
        elif not self.every:
            self.found |= inner.found


def noted(errors: list[ValidationError], instance: Any) -> Evaluated | None:
    """The notes of what is evaluated of ``instance``, if a schema applied to it collects them."""
    notes = errors.notes if isinstance(errors, Findings) else None
    if notes and notes[-1].instance is instance:
        return notes[-1]
    return None


def collected(check: Check, *, hands_on: bool = True) -> Check:
    """The check of a subschema applied in place, in a schema that reads what is evaluated: when the
    schema around it collects notes for the value, the subschema's go to them if the value passes
    it (and ``hands_on``: ``not`` never does)."""

    def in_place(instance: Any, path: Path, errors: list[ValidationError]) -> None:
        around = noted(errors, instance)
        if around is None:
            check(instance, path, errors)
            return
        notes = errors.notes  # type: ignore[attr-defined]
        own, before = Evaluated(instance), len(errors)
        notes.append(own)
        try:
            check(instance, path, errors)
        finally:
            notes.pop()
        if hands_on and len(errors) == before:
            around.take(own)

    return in_place


class Compiler(Protocol):
    """What a keyword function may ask of the schema walk (see ``schema``)."""

    limits: Limits
    dialect: str

    def compile(self, schema: Any, location: Path, pointer: str | None = None) -> Check: ...

    def applies_in_place(self, source: Path, target: Path) -> None: ...

    def reference(self, ref: str, location: Path) -> Check: ...

    def dynamic_reference(self, ref: str, location: Path) -> Check: ...

    def recursive_reference(self, location: Path) -> Check: ...

    def schema_at(self, location: Path) -> Any: ...

    ref_targets: dict[str, Path]

    def pattern_and_risk(self, source: str) -> tuple[Pattern, str | None]: ...

    @property
    def asserts_formats(self) -> bool: ...

    # Whether the schema reads what is evaluated (it holds unevaluatedItems or unevaluatedProperties).
    annotates: bool
    # The keywords its meta-schema's vocabularies leave out: annotations here.
    ignored: frozenset[str]
    # Whether a keyword may spend more steps than the allowance for each value gives without a
    # subschema applied in place (patterns tried on names): its function sets it, and the fast
    # path then counts steps too.
    spends: bool


class Site:
    """Where a keyword stands in its schema, how to compile the subschemas below it, and how to word
    the errors it finds (the function :data:`WORDS` names for it, from what the check kept)."""

    __slots__ = ("keyword", "schema", "compiler", "_within", "_within_pointer", "_once")

    def __init__(
        self, keyword: str, within: Path, schema: dict[str, Any], compiler: Compiler, within_pointer: str
    ) -> None:
        # The schema object's location and pointer: the keyword's own are made only when asked for.
        self.keyword, self.schema, self.compiler = keyword, schema, compiler
        self._within, self._within_pointer = within, within_pointer
        # What its errors' words share, made once (see ``once``).
        self._once: dict[Any, Any] = {}

    @property
    def location(self) -> Path:
        return self._within + (self.keyword,)

    @property
    def pointer(self) -> str:
        # A keyword's name needs no escaping in a pointer: none holds "~" or "/".
        return f"{self._within_pointer}/{self.keyword}"

    @property
    def value(self) -> Any:
        """The keyword's value in the schema snapshot."""
        return self.schema[self.keyword]

    def words(self, kept: Any) -> Words:
        if kept is None:
            # Words from the schema alone (an enum's, a pattern's) are the same for every error:
            # made once, so a thousand errors share one message and one frozen copy of the value.
            return self.once(None, lambda: WORDS[self.keyword](self, None))  # type: ignore[no-any-return]
        return WORDS[self.keyword](self, kept)

    def once(self, key: Any, make: Callable[[], Any]) -> Any:
        """What ``make`` returns, made at the first call for ``key`` and shared by every later one
        (two threads may both make it: equal values, one kept)."""
        try:
            return self._once[key]
        except KeyError:
            made = self._once[key] = make()
            return made

    def refuse(self, reason: str, *below: Token) -> NoReturn:
        raise SchemaError(
            f"{self.keyword!r} {reason}",
            schema_path=to_pointer(self.location + below),
            keyword=self.keyword,
        )

    def subschema(self, schema: Any, *below: Token) -> Check:
        """A subschema that applies to a part of the instance (a property, an item, a name)."""
        return self.compiler.compile(schema, self.location + below, self.pointer_to(below))

    def pointer_to(self, below: tuple[Token, ...]) -> str:
        if len(below) == 1 and type(below[0]) is str and "~" not in below[0] and "/" not in below[0]:
            return f"{self.pointer}/{below[0]}"  # a property name, most often, that needs no escaping
        return self.pointer + to_pointer(below)

    def in_place(self, schema: Any, *below: Token, hands_on: bool = True) -> Check:
        """A subschema that applies to the instance itself, as in allOf, anyOf, oneOf and not; in a
        schema that reads what is evaluated, it hands its notes on if ``hands_on`` (see Evaluated)."""
        self.compiler.applies_in_place(self._within, self.location + below)
        check = self.compiler.compile(schema, self.location + below, self.pointer_to(below))
        return collected(check, hands_on=hands_on) if self.compiler.annotates else check

    def non_negative_integer(self, value: Any) -> int:
        if not is_integer(value) or value < 0:
            self.refuse(f"must be a non-negative integer, not {show(value)}")
        return int(value)

    def number(self, value: Any) -> int | float:
        if not is_number(value):
            self.refuse(f"must be a number, not {show(value)}")
        return value  # type: ignore[no-any-return]

    def in_place_sibling(self, keyword: str) -> Check:
        """The subschema of a sibling keyword (``then`` beside ``if``), applied to the same value."""
        location = self._within + (keyword,)
        self.compiler.applies_in_place(self._within, location)
        pointer = f"{self._within_pointer}/{keyword}"
        check = self.compiler.compile(self.schema[keyword], location, pointer)
        return collected(check) if self.compiler.annotates else check

    def schemas(self, value: Any, *, in_place: bool) -> list[Check]:
        if not isinstance(value, list) or not value:
            self.refuse("must be a non-empty array of schemas")
        compile_one = self.in_place if in_place else self.subschema
        return [compile_one(schema, index) for index, schema in enumerate(value)]

    def failure(
        self,
        path: Path,
        message: str,
        *,
        quoted: str = "",
        masked_message: str | None = None,
        masked_facts: dict[str, Any] | None = None,
        **facts: Any,
    ) -> ValidationError:
        """An error at ``path``; every fact must be a JSON scalar or :func:`freeze`-d.

        The message is ``message`` then ``quoted``, the words that repeat the instance (", is 0");
        its masked form (:meth:`ValidationError.masked`) keeps ``message`` alone, or
        ``masked_message`` where the instance shows elsewhere in it.
        """
        words = Words(message, quoted, facts, masked_message, masked_facts)
        return worded_error(self.pointer, self.keyword, path, words)


# -- any instance -----------------------------------------------------------------------------


def _type(value: Any, site: Site) -> Check:
    """The instance has one of the named JSON types (``1.0`` is an integer, ``true`` is not)."""
    if type(value) is str and value in JSON_TYPES:  # the common case, in one test
        return _type_check(site, [JSON_TYPES[value]])
    names = value if isinstance(value, list) else [value]
    if not names or not all(isinstance(name, str) for name in names):
        site.refuse("must be a type name or a non-empty list of type names")
    for index, name in enumerate(names):
        if name not in JSON_TYPES:
            known = ", ".join(JSON_TYPES)
            below = (index,) if isinstance(value, list) else ()
            site.refuse(f"names an unknown type {show(name)}; the types are {known}", *below)
    if len(set(names)) != len(names):
        site.refuse("lists a type twice")
    return _type_check(site, [JSON_TYPES[name] for name in names])


def _type_check(site: Site, tests: list[Callable[[object], bool]]) -> Check:
    if len(tests) == 1:
        (test,) = tests

        def check_one(instance: Any, path: Path, errors: list[ValidationError]) -> None:
            if not test(instance):
                errors.append(deferred_error(site, path, _kept_kind(instance)))

        return check_one

    def check(instance: Any, path: Path, errors: list[ValidationError]) -> None:
        if not any(test(instance) for test in tests):
            errors.append(deferred_error(site, path, _kept_kind(instance)))

    return check


def _kept_kind(instance: Any) -> Any:
    """What a type error keeps of the instance: a scalar itself, an array or object by its type."""
    kind = type(instance)
    return kind if kind is dict or kind is list else instance


def _type_words(site: Site, kept: Any) -> Words:
    names = site.value if isinstance(site.value, list) else [site.value]
    actual = "object" if kept is dict else "array" if kept is list else json_type(kept)
    message, quoted, facts = f"expected {' or '.join(names)}, got {actual}", "", {}
    # The two slips models make most: a number or a boolean in quotes, and null for "not given".
    if type(kept) is str and len(kept) <= 40 and _UNQUOTED.fullmatch(kept):
        if any(JSON_TYPES[name](json.loads(kept)) for name in names):
            quoted, facts["hint"] = f"; write {kept} without the quotes", "unquote"
    elif kept is None and _optional_property(site):
        message, facts["hint"] = f"{message}; leave the property out rather than send null", "omit"
    return Words(message, quoted, {"expected_type": freeze(site.value), "actual_type": actual, **facts})


# A JSON number or boolean, as a string may hold one by mistake.
_UNQUOTED = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|true|false")


def _optional_property(site: Site) -> bool:
    """Whether this keyword's schema is that of a property its object does not require, directly or
    as a branch of the property's anyOf, oneOf or allOf."""
    location = site.location[:-1]
    while len(location) >= 2 and location[-2] in ("anyOf", "oneOf", "allOf"):
        location = location[:-2]
    if len(location) < 2 or location[-2] != "properties":
        return False
    owner = site.compiler.schema_at(location[:-2])
    required = owner.get("required", []) if isinstance(owner, dict) else []
    return isinstance(required, list) and location[-1] not in required


def _enum(value: Any, site: Site) -> Check:
    """The instance equals one of the values, as JSON compares them (``1 == 1.0``, ``1 != true``)."""
    if not isinstance(value, list):
        site.refuse("must be an array of the allowed values")
    keys = frozenset(json_key(option) for option in value)
    # An array or object is keyed only as far as the largest one allowed: at each level of a
    # recursive schema, keying it whole would cost the size of the levels below.
    largest = max((json_size(option) for option in value if isinstance(option, (list, dict))), default=0)

    def check(instance: Any, path: Path, errors: list[ValidationError]) -> None:
        if isinstance(instance, (list, dict)):
            spend(errors)  # one step for each array or object compared
            if not largest or json_key_within(instance, largest) not in keys:
                errors.append(deferred_error(site, path, None))
        elif json_key(instance) not in keys:
            errors.append(deferred_error(site, path, None))

    return check


def _enum_words(site: Site, kept: None) -> Words:
    return Words(f"must be one of {show_values(site.value)}", facts={"allowed": freeze(site.value)})


def _const(value: Any, site: Site) -> Check:
    """The instance equals the value, as JSON compares them."""
    compares_containers = isinstance(value, (list, dict))

    def check(instance: Any, path: Path, errors: list[ValidationError]) -> None:
        # json_equal stops where the two first differ: it costs at most the size of the value.
        if compares_containers and isinstance(instance, (list, dict)):
            spend(errors)
        if not json_equal(instance, value):
            errors.append(deferred_error(site, path, None))

    return check


def _const_words(site: Site, kept: None) -> Words:
    return Words(f"must be {show_within(site.value)}", facts={"const": freeze(site.value)})


# -- numbers ----------------------------------------------------------------------------------


def _multiple_of(value: Any, site: Site) -> Check:
    """A number is an exact multiple: ``0.07`` is a multiple of ``0.01``, read as the decimals they are."""
    if not is_number(value) or value <= 0:
        site.refuse(f"must be a number greater than 0, not {show(value)}")
    divisor = exact_number(value)

    def check(instance: Any, path: Path, errors: list[ValidationError]) -> None:
        if is_number(instance) and (exact_number(instance) / divisor).denominator != 1:
            errors.append(deferred_error(site, path, None))

    return check


def _multiple_of_words(site: Site, kept: None) -> Words:
    return Words(f"must be a multiple of {show(site.value)}", facts={"multiple_of": site.value})


def _number_bound(site: Site, limit: int | float, breaks: Callable[[Any, Any], bool]) -> Check:
    def check(instance: Any, path: Path, errors: list[ValidationError]) -> None:
        # Python compares int with float exactly, so 2**64 against 1.8e19 needs no rounding care.
        if is_number(instance) and breaks(instance, limit):
            errors.append(deferred_error(site, path, instance))

    return check


_BOUND_WORDS = {
    "minimum": "at least",
    "maximum": "at most",
    "exclusiveMinimum": "greater than",
    "exclusiveMaximum": "less than",
    "minLength": "at least",
    "maxLength": "at most",
    "minItems": "at least",
    "maxItems": "at most",
    "minProperties": "at least",
    "maxProperties": "at most",
}


def _number_bound_words(site: Site, number: int | float) -> Words:
    limit = site.value
    message = f"must be {_BOUND_WORDS[site.keyword]} {show(limit)}"
    return Words(message, f", is {show(number)}", {"limit": limit, "actual": number})


def _minimum(value: Any, site: Site) -> Check:
    """A number is at least the limit."""
    return _number_bound(site, site.number(value), operator.lt)


def _maximum(value: Any, site: Site) -> Check:
    """A number is at most the limit."""
    return _number_bound(site, site.number(value), operator.gt)


def _exclusive(value: Any, site: Site, sibling: str) -> int | float:
    if isinstance(value, bool):
        # Draft 4 made it a flag on minimum/maximum; 2020-12 makes it the bound itself.
        bound = show(site.schema[sibling]) if is_number(site.schema.get(sibling)) else "<the bound>"
        site.refuse(
            f'is a number in 2020-12, not a flag: write "{site.keyword}": {bound} '
            f'instead of "{sibling}" with "{site.keyword}": true'
        )
    return site.number(value)


def _exclusive_minimum(value: Any, site: Site) -> Check:
    """A number is greater than the limit."""
    return _number_bound(site, _exclusive(value, site, "minimum"), operator.le)


def _exclusive_maximum(value: Any, site: Site) -> Check:
    """A number is less than the limit."""
    return _number_bound(site, _exclusive(value, site, "maximum"), operator.ge)


# -- strings ----------------------------------------------------------------------------------


def _length_bound(value: Any, site: Site, breaks: Callable[[int, int], bool]) -> Check:
    limit = site.non_negative_integer(value)

    def check(instance: Any, path: Path, errors: list[ValidationError]) -> None:
        # len() counts code points, as JSON Schema does; UTF-16 units would count "😀" twice.
        if isinstance(instance, str) and breaks(len(instance), limit):
            errors.append(deferred_error(site, path, len(instance)))

    return check


def _length_words(site: Site, length: int) -> Words:
    limit = int(site.value)
    message = f"must be {_BOUND_WORDS[site.keyword]} {_count(limit, 'character')} long"
    return Words(message, f", is {length}", {"limit": limit, "length": length})


def _min_length(value: Any, site: Site) -> Check:
    """A string has at least this many code points."""
    return _length_bound(value, site, operator.lt)


def _max_length(value: Any, site: Site) -> Check:
    """A string has at most this many code points."""
    return _length_bound(value, site, operator.gt)


def _pattern(value: Any, site: Site) -> Check:
    """A string contains a match of the ECMA-262 regular expression (a search, not a full match)."""
    pattern = _regex(value, site)

    def check(instance: Any, path: Path, errors: list[ValidationError]) -> None:
        if isinstance(instance, str) and not pattern.search(instance):
            errors.append(deferred_error(site, path, None))

    return check


def _pattern_words(site: Site, kept: None) -> Words:
    return Words(f"must match the pattern {show_within(site.value)}", facts={"pattern": site.value})


def _regex(value: Any, site: Site, *below: Token) -> Pattern:
    """``value`` compiled as an ECMA-262 pattern, or refused with the reason."""
    if not isinstance(value, str):
        site.refuse("must be a string holding an ECMA-262 regular expression", *below)
    try:
        pattern, risk = site.compiler.pattern_and_risk(value)
    except RegexSyntaxError as error:
        site.refuse(f"is not a valid ECMA-262 regular expression: {error}", *below)
    except UnsupportedPattern as error:
        site.refuse(f"cannot be run: {error}", *below)  # the pointer names the pattern
    if risk and not site.compiler.limits.allow_backtracking_patterns:
        site.refuse(
            f"uses {risk}, which RE2 cannot express; write it another way, or accept it with "
            "Limits(allow_backtracking_patterns=True), which runs it on a backtracking engine (it is "
            "small enough for one to be bounded)",
            *below,
        )
    return pattern


def _contains(value: Any, site: Site) -> Check:
    """At least ``minContains`` (1 unless given) and at most ``maxContains`` items match the schema."""
    child = site.subschema(value)
    # The bounds' own rows refuse a malformed value, at its own pointer.
    least = _count_bound(site.schema.get("minContains"), 1)
    most = _count_bound(site.schema.get("maxContains"), None)
    # In 2020-12 the items it matches count as evaluated, for unevaluatedItems (not in 2019-09).
    notes_matches = site.compiler.annotates and site.compiler.dialect == "2020-12"

    def check(instance: Any, path: Path, errors: list[ValidationError]) -> None:
        if not isinstance(instance, list):
            return
        spend(errors, len(instance))
        matching = []
        for index, item in enumerate(instance):
            if not run_branch(child, item, path + (index,), errors):
                matching.append(index)
        if notes_matches and (notes := noted(errors, instance)) is not None:
            notes.found.update(matching)
        count = len(matching)
        if least is not None and count < least:
            message = f"must contain at least {_count(least, 'item')} matching the 'contains' schema"
            quoted = f", contains {count}"
            failure = site.failure(
                path, message, quoted=quoted, limit=least, actual=count, matching=freeze(matching)
            )
            # None at all is "contains" failing; some, but too few, is its minimum (as jsonschema says).
            errors.append(_renamed(failure, "minContains") if count else failure)
        if most is not None and count > most:
            message = f"must contain at most {_count(most, 'item')} matching the 'contains' schema"
            failure = site.failure(
                path,
                message,
                quoted=f", contains {count}",
                limit=most,
                actual=count,
                matching=freeze(matching),
            )
            errors.append(_renamed(failure, "maxContains"))

    return check


def _count_bound(value: Any, default: int | None) -> int | None:
    return int(value) if is_integer(value) and value >= 0 else default


def _renamed(error: ValidationError, keyword: str) -> ValidationError:
    """The error of ``contains``, named for the sibling ``keyword`` that set the bound it broke."""
    hidden = error.masked()
    return trusted_error(
        error.path, error.schema_path, keyword, error.message, dict(error.facts),
        (hidden.path, hidden.message, dict(hidden.facts)),
    )  # fmt: skip


def _contains_bound(value: Any, site: Site) -> Check:
    """``minContains`` and ``maxContains``: checked here, applied by ``contains`` (alone, ignored)."""
    site.non_negative_integer(value)
    return no_check


def _legacy_items(value: Any, site: Site) -> Check:
    """Draft-07 and 2019-09 ``items``: one schema for every item, or an array of schemas by position."""
    if isinstance(value, list):
        return _prefix_items(value, site)
    child = site.subschema(value)
    per_item = 0 if counts_itself(value, site.compiler.ignored) else 1

    def check(instance: Any, path: Path, errors: list[ValidationError]) -> None:
        if isinstance(instance, list):
            spend(errors, per_item * len(instance))
            for index, item in enumerate(instance):
                child(item, path + (index,), errors)

    return check


def _additional_items(value: Any, site: Site) -> Check:
    """Draft-07 and 2019-09: the items after those an array-form ``items`` covers match the schema."""
    positional = site.schema.get("items")
    if not isinstance(positional, list):
        site.subschema(value)  # checked, though it applies to nothing here
        return no_check
    return _items_after(len(positional), value, site)


# -- arrays -----------------------------------------------------------------------------------


def _size_bound(
    value: Any,
    site: Site,
    kind: type[list[Any]] | type[dict[str, Any]],
    breaks: Callable[[int, int], bool],
) -> Check:
    """minItems and friends: the number of items or properties against a limit."""
    limit = site.non_negative_integer(value)

    def check(instance: Any, path: Path, errors: list[ValidationError]) -> None:
        if isinstance(instance, kind) and breaks(len(instance), limit):
            errors.append(deferred_error(site, path, len(instance)))

    return check


def _size_words(site: Site, size: int) -> Words:
    limit = int(site.value)
    noun, plural = ("item", "items") if site.keyword.endswith("Items") else ("property", "properties")
    message = f"must have {_BOUND_WORDS[site.keyword]} {_count(limit, noun, plural)}"
    return Words(message, f", has {size}", {"limit": limit, "actual": size})


def _min_items(value: Any, site: Site) -> Check:
    """An array has at least this many items."""
    return _size_bound(value, site, list, operator.lt)


def _max_items(value: Any, site: Site) -> Check:
    """An array has at most this many items."""
    return _size_bound(value, site, list, operator.gt)


def _unique_items(value: Any, site: Site) -> Check:
    """No two items of an array are equal as JSON (``[1, 1.0]`` repeats, ``[1, true]`` does not)."""
    if not isinstance(value, bool):
        site.refuse(f"must be true or false, not {show(value)}")
    if not value:
        return no_check

    def check(instance: Any, path: Path, errors: list[ValidationError]) -> None:
        if not isinstance(instance, list):
            return
        spend(errors, len(instance))  # one step for each item compared
        # An array at each level of a recursive schema is keyed once, not once for each level above.
        keys = errors.memo().keys if isinstance(errors, Findings) else ValueKeys()
        seen: dict[Any, list[int]] = {}
        for index, item in enumerate(instance):
            seen.setdefault(keys.key(item), []).append(index)
        duplicates = [indices for indices in seen.values() if len(indices) > 1]
        if duplicates:
            errors.append(deferred_error(site, path, freeze(duplicates)))

    return check


def _unique_items_words(site: Site, duplicates: tuple[tuple[int, ...], ...]) -> Words:
    which = "; ".join(f"items {', '.join(map(str, indices))} are equal" for indices in duplicates)
    return Words(f"must have unique items: {which}", facts={"duplicates": duplicates})


def _prefix_items(value: Any, site: Site) -> Check:
    """The first items of an array match the schemas at the same positions."""
    children = site.schemas(value, in_place=False)
    # Steps for the first n positions: one for each whose schema does not count itself.
    ignored = site.compiler.ignored
    steps = [0, *itertools.accumulate(0 if counts_itself(schema, ignored) else 1 for schema in value)]

    def check(instance: Any, path: Path, errors: list[ValidationError]) -> None:
        if isinstance(instance, list):
            spend(errors, steps[min(len(instance), len(children))])
            for index, (item, child) in enumerate(zip(instance, children, strict=False)):
                child(item, path + (index,), errors)

    return check


def _items(value: Any, site: Site) -> Check:
    """Every item after those that ``prefixItems`` covers matches the schema."""
    if isinstance(value, list):
        site.refuse("as an array is the draft-07 tuple form; in 2020-12 write it as 'prefixItems'")
    prefix = site.schema.get("prefixItems")
    return _items_after(len(prefix) if isinstance(prefix, list) else 0, value, site)


def _items_after(start: int, value: Any, site: Site) -> Check:
    """Every item from index ``start`` on matches the schema ``value``."""
    if value is False:
        # One error for the whole array, as jsonschema reports it, rather than one per extra item.
        def check_none_after(instance: Any, path: Path, errors: list[ValidationError]) -> None:
            if isinstance(instance, list) and len(instance) > start:
                message, quoted = f"must have at most {_count(start, 'item')}", f", has {len(instance)}"
                errors.append(site.failure(path, message, quoted=quoted, limit=start, actual=len(instance)))

        return check_none_after
    child = site.subschema(value)
    per_item = 0 if counts_itself(value, site.compiler.ignored) else 1

    def check(instance: Any, path: Path, errors: list[ValidationError]) -> None:
        if isinstance(instance, list) and len(instance) > start:
            spend(errors, per_item * (len(instance) - start))
            for index in range(start, len(instance)):
                child(instance[index], path + (index,), errors)

    return check


# -- objects ----------------------------------------------------------------------------------


def _min_properties(value: Any, site: Site) -> Check:
    """An object has at least this many properties."""
    return _size_bound(value, site, dict, operator.lt)


def _max_properties(value: Any, site: Site) -> Check:
    """An object has at most this many properties."""
    return _size_bound(value, site, dict, operator.gt)


def _required(value: Any, site: Site) -> Check:
    """An object has each named property; one error per missing name."""
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        site.refuse("must be a list of property names")
    if len(set(value)) != len(value):
        site.refuse("lists a property name twice")
    if len(value) > UNCOUNTED_NAMES:
        site.compiler.spends = True

    def check(instance: Any, path: Path, errors: list[ValidationError]) -> None:
        if isinstance(instance, dict):
            for name in value:
                if name not in instance:
                    spend(errors, MISSING_STEPS)
                    errors.append(deferred_error(site, path, name))

    return check


def _required_words(site: Site, missing: str) -> Words:
    # The name is the schema's, so a masked error may say it.
    return Words(f"missing required property {show_within(missing)}", facts={"missing": missing})


def _positions(table: list[tuple[str, Any]]) -> dict[str, int] | None:
    """Where each name stands in a table of rules by property name, if it is long (see present_in)."""
    return {name: position for position, (name, _) in enumerate(table)} if len(table) > 8 else None


def present_in(
    table: list[tuple[str, Any]], positions: dict[str, int] | None, instance: dict[str, Any]
) -> list[tuple[str, Any]]:
    """The rules of ``table`` whose names the object has, in the table's order, found at the cost of
    the smaller of the two: a schema naming thousands of properties, applied to each of many small
    objects, would otherwise look each name up in each object."""
    if positions is not None and len(instance) < len(table):
        return [
            table[position] for position in sorted(positions[name] for name in instance if name in positions)
        ]
    return [rule for rule in table if rule[0] in instance]


def _property_names(value: Any, site: Site) -> Check:
    """Every property name of an object, as a string, matches the schema."""
    child = site.subschema(value)

    def check(instance: Any, path: Path, errors: list[ValidationError]) -> None:
        if not isinstance(instance, dict):
            return
        spend(errors, len(instance))
        for name in instance:
            found = run_branch(child, name, path, errors)
            # The error stands at the object, as jsonschema places it; the name says which one.
            for error in found:
                hidden = error.masked()
                errors.append(
                    trusted_error(
                        error.path,
                        error.schema_path,
                        error.keyword,
                        f"property name {show(name)} {error.message}",
                        {**error.facts, "property_name": name},
                        (hidden.path, f"a property name {hidden.message}", dict(hidden.facts)),
                    )
                )

    return check


def _properties(value: Any, site: Site) -> Check:
    """Each named property that is present matches its schema."""
    if not isinstance(value, dict):
        site.refuse("must be an object mapping property names to schemas")
    children = [(name, site.subschema(schema, name)) for name, schema in value.items()]
    positions = _positions(children)

    def check(instance: Any, path: Path, errors: list[ValidationError]) -> None:
        if isinstance(instance, dict):
            for name, child in present_in(children, positions, instance):
                child(instance[name], path + (name,), errors)

    return check


def _additional_properties(value: Any, site: Site) -> Check:
    """Every property not named in ``properties`` matches the schema."""
    named = site.schema.get("properties")
    known = frozenset(named) if isinstance(named, dict) else frozenset()
    patterned = site.schema.get("patternProperties")
    searches = (
        [site.compiler.pattern_and_risk(source)[0].search for source in patterned]
        if isinstance(patterned, dict)
        else []
    )

    def extra_names(instance: dict[str, Any], errors: list[ValidationError]) -> list[str]:
        # One step for each pattern that may be tried on each name, spent before they are tried; then
        # one for each name it applies to or reports. (A name it knows costs a lookup, and an object of
        # known names is no longer than the schema's list of them.)
        if not searches:
            extra = [name for name in instance if name not in known]
        else:
            spend(errors, len(searches) * len(instance))
            extra = [
                name
                for name in instance
                if name not in known and not any(search(name) for search in searches)
            ]
        spend(errors, len(extra))
        return extra

    if value is False:
        # One error listing every extra name, as jsonschema reports it.
        def check_no_extra(instance: Any, path: Path, errors: list[ValidationError]) -> None:
            if isinstance(instance, dict):
                extra = extra_names(instance, errors)
                if extra:
                    errors.append(deferred_error(site, path, tuple(extra)))

        return check_no_extra
    child = site.subschema(value)

    def check(instance: Any, path: Path, errors: list[ValidationError]) -> None:
        if isinstance(instance, dict):
            for name in extra_names(instance, errors):
                child(instance[name], path + (InstanceKey(name),), errors)

    return check


_NAMES_SHOWN = 20
# What each missing name of required or dependentRequired costs: an error each, and a long list makes
# many of each small object, so each is worth two steps (an error holds about 150 bytes).
MISSING_STEPS = 2
# How many names required (or all lists of dependentRequired) may hold before their errors could
# pass the allowance for each value (with each other and the steps other keywords spend on the
# value): past it the fast path counts steps too.
UNCOUNTED_NAMES = 10


def _allowed_text(known: frozenset[str], patterned: dict[str, Any]) -> str:
    """What a closed object allows, from the schema alone (so the masked text may say it too)."""
    shown = [show_within(name) for name in sorted(known)[:_NAMES_SHOWN]]
    if len(known) > _NAMES_SHOWN:
        shown.append(f"{len(known) - _NAMES_SHOWN} more")
    if patterned:
        patterns = [show_within(source) for source in itertools.islice(patterned, _NAMES_SHOWN)]
        if len(patterned) > _NAMES_SHOWN:
            patterns.append(f"{len(patterned) - _NAMES_SHOWN} more")
        shown.append("names matching " + ", ".join(patterns))
    if len(known) + len(patterned) > 1:
        return f"; the allowed properties are {_listed(shown)}"
    return f"; the only allowed property is {shown[0]}" if shown else "; no properties are allowed here"


def _no_extra_words(site: Site, extra: tuple[str, ...]) -> Words:
    # What the schema allows is the same for each error: worded and frozen once.
    said, facts = site.once("allowed", lambda: _allowed(site))
    return _extra_words(extra, said, f"the schema does not allow{said}", facts)


def _allowed(site: Site) -> tuple[str, dict[str, Any]]:
    named = site.schema.get("properties")
    known = frozenset(named) if isinstance(named, dict) else frozenset()
    patterned = site.schema.get("patternProperties")
    patterned = patterned if isinstance(patterned, dict) else {}
    facts: dict[str, Any] = {"allowed": freeze(sorted(known))}
    if patterned:
        facts["allowed_patterns"] = freeze(list(patterned))
    return _allowed_text(known, patterned), facts


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _extra_words(extra: Sequence[str], why: str, masked_why: str, facts: dict[str, Any]) -> Words:
    """The words of one error naming every property the object must not have."""
    names = ", ".join(map(show, extra))
    noun = "property" if len(extra) == 1 else "properties"
    return Words(
        f"must not have the {noun} {names}{why}",
        facts={"extra": freeze(extra), **facts},
        masked_message=f"has {_count(len(extra), 'property', 'properties')} {masked_why}",
    )


def _pattern_properties(value: Any, site: Site) -> Check:
    """Each property whose name matches a pattern (a search) matches that pattern's schema."""
    if not isinstance(value, dict):
        site.refuse("must be an object mapping ECMA-262 patterns to schemas")
    children = [
        (_regex(source, site, source).search, site.subschema(schema, source))
        for source, schema in value.items()
    ]

    site.compiler.spends = True

    def check(instance: Any, path: Path, errors: list[ValidationError]) -> None:
        if isinstance(instance, dict):
            # One step for each pattern tried on each name, spent before they are tried.
            spend(errors, len(children) * len(instance))
            for search, child in children:
                for name, item in instance.items():
                    if search(name):
                        child(item, path + (InstanceKey(name),), errors)

    return check


def _dependent_required(value: Any, site: Site) -> Check:
    """When the object has a named property, it has each property listed for it too."""
    if not isinstance(value, dict):
        site.refuse("must be an object mapping property names to lists of property names")
    for name, needed in value.items():
        if not isinstance(needed, list) or not all(isinstance(item, str) for item in needed):
            site.refuse("must map each property name to a list of property names", name)
        if len(set(needed)) != len(needed):
            site.refuse("lists a property name twice", name)
    return _requires(value, site)


def _requires(value: dict[str, list[str]], site: Site) -> Check:
    rules = list(value.items())
    positions = _positions(rules)
    if sum(map(len, value.values())) > UNCOUNTED_NAMES:
        site.compiler.spends = True

    def check(instance: Any, path: Path, errors: list[ValidationError]) -> None:
        if isinstance(instance, dict):
            for name, needs in present_in(rules, positions, instance):
                for needed in needs:
                    if needed not in instance:
                        spend(errors, MISSING_STEPS)
                        errors.append(deferred_error(site, path, (needed, name)))

    return check


def _requires_words(site: Site, kept: tuple[str, str]) -> Words:
    needed, name = kept
    message = f"missing property {show_within(needed)}, required when {show_within(name)} is present"
    return Words(message, facts={"missing": needed, "present": name})


def _dependent_schemas(value: Any, site: Site) -> Check:
    """When the object has a named property, the object matches the schema given for it."""
    if not isinstance(value, dict):
        site.refuse("must be an object mapping property names to schemas")
    return _when_present([(name, site.in_place(schema, name)) for name, schema in value.items()])


def _when_present(rules: list[tuple[str, Check]]) -> Check:
    positions = _positions(rules)

    def check(instance: Any, path: Path, errors: list[ValidationError]) -> None:
        if isinstance(instance, dict):
            for _, child in present_in(rules, positions, instance):
                spend(errors)
                child(instance, path, errors)

    return check


def _dependencies(value: Any, site: Site) -> Check:
    """Draft-07: a property's list of properties it requires, or a schema the object then matches."""
    if not isinstance(value, dict):
        site.refuse("must be an object mapping property names to schemas or lists of property names")
    names: dict[str, list[str]] = {}
    schemas: list[tuple[str, Check]] = []
    for name, rule in value.items():
        if isinstance(rule, list):
            if not all(isinstance(item, str) for item in rule) or len(set(rule)) != len(rule):
                site.refuse("must list distinct property names", name)
            names[name] = rule
        else:
            schemas.append((name, site.in_place(rule, name)))
    required, dependent = _requires(names, site), _when_present(schemas)

    def check(instance: Any, path: Path, errors: list[ValidationError]) -> None:
        required(instance, path, errors)
        dependent(instance, path, errors)

    return check


# -- combinators and references ---------------------------------------------------------------


def _all_of(value: Any, site: Site) -> Check:
    """The instance matches every schema; their errors are reported as they are."""
    branches = site.schemas(value, in_place=True)

    def check(instance: Any, path: Path, errors: list[ValidationError]) -> None:
        for branch in branches:
            spend(errors)
            branch(instance, path, errors)

    return check


# How much of the fitting branch's errors an anyOf or oneOf message quotes: they may quote their own.
_DETAILS_SHOWN = 3
_DETAILS_CHARS = 300


def _as_fact(error: ValidationError) -> Any:
    """An error as a read-only JSON object that shares its facts rather than copying them, so an error
    nested in branches at every level costs its own size once, never a copy per level."""
    fields = {"path": error.path, "schema_path": error.schema_path, "keyword": error.keyword}
    return MappingProxyType({**fields, "message": error.message, **error.facts})


def _branch_facts(outcomes: list[list[ValidationError]]) -> Any:
    return FrozenArray(FrozenArray(map(_as_fact, found)) for found in outcomes)


def _details(found: list[ValidationError], here: str) -> str:
    said = [error.message if error.path == here else f"at {error.path}: {error.message}" for error in found]
    text = "; ".join(said[:_DETAILS_SHOWN])
    if len(said) > _DETAILS_SHOWN:
        text += f"; and {len(said) - _DETAILS_SHOWN} more"
    return text if len(text) <= _DETAILS_CHARS else text[: _DETAILS_CHARS - 1] + "…"


# A tagged union: the property whose constant value chooses the branch, and each value's branch.
Tag = tuple[str, tuple[tuple[Any, int], ...]]


def _tag_of(found: list[Tag | None], branches: Any, site: Site) -> Tag | None:
    if not found:
        found.append(_union_tag(branches, site))
    return found[0]


def _union_tag(branches: Any, site: Site) -> Tag | None:
    """The tag of a union whose every branch (or the schema its ``$ref`` names) is an object schema
    giving one property a constant, different in each: pydantic's and zod's discriminated unions.
    A ``discriminator.propertyName`` beside the union names it; else the first such property by name."""
    if not isinstance(branches, list) or len(branches) < 2:
        return None
    constants: list[dict[str, Any]] = []
    for index, branch in enumerate(branches):
        if isinstance(branch, dict) and "$ref" in branch:
            target = site.compiler.ref_targets.get(f"{site.pointer}/{index}/$ref")
            branch = site.compiler.schema_at(target) if target is not None else None
        properties = branch.get("properties") if isinstance(branch, dict) else None
        if not isinstance(properties, dict):
            return None
        constants.append(
            {
                name: rule["const"] if "const" in rule else rule["enum"][0]
                for name, rule in properties.items()
                if isinstance(rule, dict)
                and ("const" in rule or (isinstance(rule.get("enum"), list) and len(rule["enum"]) == 1))
            }
        )
    common = sorted(set.intersection(*(set(found) for found in constants)))
    discriminator = site.schema.get("discriminator")
    named = discriminator.get("propertyName") if isinstance(discriminator, dict) else None
    for name in [named, *common] if named in common else common:
        values = [found[name] for found in constants]
        if len({json_key(value) for value in values}) == len(values):
            return name, tuple((value, index) for index, value in enumerate(values))
    return None


def _no_branch_matched(
    site: Site,
    path: Path,
    outcomes: list[list[ValidationError]],
    rule: str,
    tag: Tag | None = None,
    instance: Any = None,
) -> ValidationError:
    """One error for the instance, with every branch's errors, and what would fit: the branch its tag
    chooses or its type fits (whose errors are named), the tag's values, or the types allowed."""
    pointer = to_pointer(path)
    message = f"must match {rule} of the {len(outcomes)} schemas in {site.keyword}"
    facts: dict[str, Any] = {"branches": _branch_facts(outcomes)}
    index, said, quoted = _chosen_branch(site, pointer, outcomes, tag, instance, facts)
    own_masked = masked_pointer(path)

    def masked() -> Masked:
        # Built only when asked for: a masked copy at every level of a nested anyOf would double it.
        hidden = [[error.masked() for error in found] for found in outcomes]
        here = pointer if own_masked is None else own_masked
        shown = {**facts, "branches": _branch_facts(hidden)}
        if index is None:
            return (here, message + said, shown)
        return (here, f"{message}{said}{_details(hidden[index], here)}", shown)

    text = message + said + quoted  # `masked` reads `message` later, so it keeps its first value
    if index is not None:
        text += _details(outcomes[index], pointer)
    return trusted_error(pointer, site.pointer, site.keyword, text, facts, masked)


def _chosen_branch(
    site: Site,
    pointer: str,
    outcomes: list[list[ValidationError]],
    tag: Tag | None,
    instance: Any,
    facts: dict[str, Any],
) -> tuple[int | None, str, str]:
    """The branch whose errors to name (or None), what to say before them, and the words that repeat
    the instance; ``facts`` gains ``branch``, ``tag`` and ``tags``, or ``expected_type``."""
    keyword = site.keyword
    if tag is not None and isinstance(instance, dict):
        name, choices = tag
        values = site.once(("tag", name), lambda: _either(choices))
        facts.update(tag=name, tags=freeze([value for value, _ in choices]))
        if name not in instance:
            return None, f"; missing the tag {show(name)}, one of {values}", ""
        chosen = [index for value, index in choices if json_equal(value, instance[name])]
        if not chosen:
            return (
                None,
                f"; the tag {show(name)} must be one of {values}",
                (f", is {show(instance[name])}" if _short(instance[name]) else ""),
            )
        facts["branch"] = chosen[0]
        return (
            chosen[0],
            f"; the one for {show(name)}: {show(choices[chosen[0]][0])} ({keyword}/{chosen[0]}) says: ",
            "",
        )
    # A branch "fits the type" when it has no type error at the instance itself: for the common
    # anyOf [T, {"type": "null"}], the model needs T's errors, not "expected null".
    type_errors = [[e for e in found if e.keyword == "type" and e.path == pointer] for found in outcomes]
    fitting = [index for index, found in enumerate(type_errors) if not found]
    if len(fitting) == 1:
        facts["branch"] = fitting[0]
        return fitting[0], f"; the one for its type ({keyword}/{fitting[0]}) says: ", ""
    if not fitting:
        names: list[str] = []
        for found in type_errors:
            for error in found:
                declared = error.facts.get("expected_type")
                for item in declared if isinstance(declared, tuple) else (declared,):
                    if isinstance(item, str) and item not in names:
                        names.append(item)
        actual = type_errors[0][0].facts.get("actual_type")
        facts["expected_type"] = freeze(names)
        said, quoted = f": expected {' or '.join(names)}, got {actual}", ""
        # A branch's hint holds for the union: the quotes to drop, or the property to leave out.
        hints = {error.facts.get("hint") for found in type_errors for error in found}
        if "omit" in hints:
            said, facts["hint"] = f"{said}; leave the property out rather than send null", "omit"
        elif "unquote" in hints and isinstance(instance, str):
            quoted, facts["hint"] = f"; write {instance} without the quotes", "unquote"
        return None, said, quoted
    return None, "", ""


def _either(choices: tuple[tuple[Any, int], ...]) -> str:
    """A union's tag values for its messages: "a", "b" or "c", the first :data:`_NAMES_SHOWN` of many."""
    shown = [show_within(value) for value, _ in choices[:_NAMES_SHOWN]]
    if len(choices) > _NAMES_SHOWN:
        return f"{', '.join(shown)} or {len(choices) - _NAMES_SHOWN} more"
    return f"{', '.join(shown[:-1])} or {shown[-1]}"


def _short(value: Any) -> bool:
    return (
        isinstance(value, (int, float, bool))
        or value is None
        or (isinstance(value, str) and len(value) <= 40)
    )


def _branch_errors(
    branches: list[Check],
    instance: Any,
    path: Path,
    errors: list[ValidationError],
    *,
    until_one: bool = False,
) -> list[list[ValidationError]]:
    """Each branch's errors; with ``until_one``, none after the first branch that passes."""
    outcomes = []
    for branch in branches:
        spend(errors)
        found = run_branch(branch, instance, path, errors)
        outcomes.append(found)
        if until_one and not found:
            break
    return outcomes


class BranchCheck:
    """The check of anyOf or oneOf: it runs every branch, then ``judge`` reads their errors. The fast
    path runs the branches itself and hands ``judge`` what they found, so nothing is walked twice."""

    __slots__ = ("branches", "judge", "until_one")

    def __init__(
        self,
        branches: list[Check],
        judge: Callable[[Path, list[list[ValidationError]], Any], Any],
        *,
        until_one: bool = False,
    ) -> None:
        self.branches = branches
        self.judge = judge
        # anyOf is settled by its first passing branch; the rest are read only when none passes, or
        # when a schema around collects what each passing branch evaluates.
        self.until_one = until_one

    def __call__(self, instance: Any, path: Path, errors: list[ValidationError]) -> None:
        until_one = self.until_one and noted(errors, instance) is None
        outcomes = _branch_errors(self.branches, instance, path, errors, until_one=until_one)
        if isinstance(errors, Verdict):
            # A yes/no answer needs no words: anyOf fails when none passes, oneOf unless one does.
            passed = sum(not found for found in outcomes)
            if passed == 0 or (passed > 1 and not self.until_one):
                raise Failed
            return
        error = self.judge(path, outcomes, instance)
        if error is not None:
            errors.append(error)


def _any_of(value: Any, site: Site) -> Check:
    """The instance matches at least one schema; otherwise one error carrying every branch's errors."""

    branches = site.schemas(value, in_place=True)
    tags: list[Tag | None] = []  # the union's tag, read at its first failure

    def judge(path: Path, outcomes: list[list[ValidationError]], instance: Any) -> ValidationError | None:
        return (
            _no_branch_matched(site, path, outcomes, "at least one", _tag_of(tags, value, site), instance)
            if all(outcomes)
            else None
        )

    return BranchCheck(branches, judge, until_one=True)


def _one_of(value: Any, site: Site) -> Check:
    """The instance matches exactly one schema; the error says which matched, or what each wanted."""

    branches = site.schemas(value, in_place=True)
    tags: list[Tag | None] = []  # the union's tag, read at its first failure

    def judge(path: Path, outcomes: list[list[ValidationError]], instance: Any) -> ValidationError | None:
        matched = [index for index, found in enumerate(outcomes) if not found]
        if not matched:
            return _no_branch_matched(
                site, path, outcomes, "exactly one", _tag_of(tags, value, site), instance
            )
        if len(matched) == 1:
            return None
        which = ", ".join(map(str, matched))
        message = f"must match exactly one of the {len(outcomes)} schemas in oneOf, matches {which}"
        return site.failure(path, message, matched=freeze(matched))

    return BranchCheck(branches, judge)


def _not(value: Any, site: Site) -> Check:
    """The instance does not match the schema."""
    child = site.in_place(value, hands_on=False)

    def check(instance: Any, path: Path, errors: list[ValidationError]) -> None:
        spend(errors)
        if not run_branch(child, instance, path, errors):
            errors.append(deferred_error(site, path, None))

    return check


def _not_words(site: Site, kept: None) -> Words:
    return Words("must not match the schema in 'not'")


def _unevaluated_properties(value: Any, site: Site) -> Check:
    """Each property that no other keyword here evaluated (``properties``, ``patternProperties``,
    ``additionalProperties``, or a subschema applied in place that the object passes) matches the
    schema. Its schema object's check collects those as it goes (see :class:`Evaluated`)."""
    child = None if value is False else site.subschema(value)

    def check(instance: Any, path: Path, errors: list[ValidationError]) -> None:
        if not isinstance(instance, dict) or not instance:
            return
        notes = noted(errors, instance) or Evaluated(instance)
        if not notes.every:
            spend(errors, len(instance))
            left = [name for name in instance if name not in notes.found]
            if child is not None:
                for name in left:
                    child(instance[name], path + (InstanceKey(name),), errors)
            elif left:
                errors.append(deferred_error(site, path, tuple(left)))
        notes.every = True  # for the schemas around: the rest is evaluated here

    return check


def _unevaluated_words(site: Site, extra: tuple[str, ...]) -> Words:
    return _extra_words(extra, ", which no other keyword here allows", "no keyword here allows", {})


def _unevaluated_items(value: Any, site: Site) -> Check:
    """Each item that no other keyword here evaluated (``prefixItems``, ``items``, ``contains``, or a
    subschema applied in place that the array passes) matches the schema. Its schema object's check
    collects those as it goes (see :class:`Evaluated`)."""
    child = None if value is False else site.subschema(value)

    def check(instance: Any, path: Path, errors: list[ValidationError]) -> None:
        if not isinstance(instance, list) or not instance:
            return
        notes = noted(errors, instance) or Evaluated(instance)
        if not notes.every:
            spend(errors, len(instance))
            left = [index for index in range(len(instance)) if index not in notes.found]
            if child is not None:
                for index in left:
                    child(instance[index], path + (index,), errors)
            elif left:
                which = ", ".join(map(str, left))
                noun = "item" if len(left) == 1 else "items"
                message = f"must not have the {noun} at {which}, which no other keyword here allows"
                errors.append(site.failure(path, message, extra=freeze(left)))
        notes.every = True  # for the schemas around: the rest is evaluated here

    return check


def _if(value: Any, site: Site) -> Check:
    """When the instance matches ``if``, it must match ``then``; otherwise ``else``. Their errors
    say which way the condition went."""
    condition = site.in_place(value)
    branches = {}
    for keyword in ("then", "else"):
        if keyword in site.schema:
            branches[keyword] = site.in_place_sibling(keyword)
    then, otherwise = branches.get("then"), branches.get("else")

    def check(instance: Any, path: Path, errors: list[ValidationError]) -> None:
        spend(errors)
        held = not run_branch(condition, instance, path, errors)
        branch = then if held else otherwise
        if branch is None:
            return
        spend(errors)
        because = "it matches" if held else "it does not match"
        for error in run_branch(branch, instance, path, errors):
            hidden = error.masked()
            errors.append(
                trusted_error(
                    error.path, error.schema_path, error.keyword,
                    f"{error.message} (as {because} the 'if' schema)",
                    {**error.facts, "if_matched": held},
                    (hidden.path, f"{hidden.message} (as {because} the 'if' schema)",
                     {**hidden.facts, "if_matched": held}),
                )
            )  # fmt: skip

    return check


def _then_else(value: Any, site: Site) -> Check:
    """``then`` and ``else``: compiled and applied by ``if``; without an ``if`` they do nothing."""
    if "if" not in site.schema:
        site.subschema(value)  # still checked
    return no_check


def _dynamic_ref(value: Any, site: Site) -> Check:
    """Like ``$ref``; but when it names a ``$dynamicAnchor``, the outermost schema resource the walk
    has entered that declares the same anchor decides."""
    if not isinstance(value, str):
        site.refuse(f"must be a string, not {show(value)}")
    return site.compiler.dynamic_reference(value, site.location)


def _recursive_ref(value: Any, site: Site) -> Check:
    """2019-09's ``$dynamicRef``: ``"#"``, the root of this resource, unless that root says
    ``"$recursiveAnchor": true``; then the outermost resource entered that says the same."""
    if value != "#":
        site.refuse(f"must be '#', the only value 2019-09 gives it, not {show(value)}")
    return site.compiler.recursive_reference(site.location)


def _recursive_anchor(value: Any, site: Site) -> Check:
    """Marks a resource's root as a place a ``$recursiveRef`` may go on to (2019-09)."""
    if not isinstance(value, bool):
        site.refuse(f"must be a boolean, not {show(value)}")
    return no_check


def _vocabulary(value: Any, site: Site) -> Check:
    """In a meta-schema, the vocabularies a schema declaring it uses (URI: required); the schema walk
    reads it from the meta-schema a ``$schema`` names, and it checks nothing itself."""
    if not isinstance(value, dict) or not all(isinstance(required, bool) for required in value.values()):
        site.refuse("must be an object mapping vocabulary URIs to booleans")
    return no_check


def _format(value: Any, site: Site) -> Check:
    """An annotation, unless format assertion is on: then a string must be a valid instance of a
    format toolreg knows (see ``formats``); other formats stay annotations."""
    if not isinstance(value, str):
        site.refuse(f"must be a string, not {show(value)}")
    valid = FORMATS.get(value)
    if valid is None or not site.compiler.asserts_formats:
        return no_check

    def check(instance: Any, path: Path, errors: list[ValidationError]) -> None:
        if isinstance(instance, str) and not valid(instance):
            errors.append(deferred_error(site, path, None))

    return check


def _format_words(site: Site, kept: None) -> Words:
    return Words(f"must be a valid {site.value}", facts={"format": site.value})


def _ref(value: Any, site: Site) -> Check:
    """The instance matches the schema at a local JSON Pointer (``#``, ``#/$defs/name``, ``#/...``)."""
    if not isinstance(value, str):
        site.refuse(f"must be a string, not {show(value)}")
    return site.compiler.reference(value, site.location)


def _id(value: Any, site: Site) -> Check:
    """The URI of this schema resource, against which the ``$ref``s inside it resolve."""
    if not isinstance(value, str):
        site.refuse(f"must be a string holding a URI, not {show(value)}")
    try:
        urlsplit(value)
    except ValueError as error:
        site.refuse(f"is not a URI reference: {error}")
    if "#" in value.rstrip("#") and site.compiler.dialect != "draft-07":
        site.refuse("must not have a fragment; name a schema with '$anchor' instead")
    return no_check


def _anchor(value: Any, site: Site) -> Check:
    """A name a ``$ref`` can use as its fragment (``"#name"``) for this schema."""
    grammar, said = _ANCHORS.get(site.compiler.dialect, _ANCHORS["2020-12"])
    if not isinstance(value, str) or not grammar.fullmatch(value):
        site.refuse(f"must be a name of {said}, not {show(value)}")
    return no_check


# Each dialect's grammar for an anchor's name, as its meta-schema's pattern states it: 2020-12's
# "^[A-Za-z_][-A-Za-z0-9._]*$"; 2019-09's "^[A-Za-z][-A-Za-z0-9.:_]*$", XML's NCName as its core
# specification (8.2.3) words it, which allows a colon and requires a letter first.
_ANCHORS = {
    "2020-12": (
        re.compile(r"[A-Za-z_][-A-Za-z0-9._]*"),
        "letters, digits, '-', '_' and '.' that starts with a letter or '_'",
    ),
    "2019-09": (
        re.compile(r"[A-Za-z][-A-Za-z0-9.:_]*"),
        "letters, digits, '-', '_', ':' and '.' that starts with a letter",
    ),
}


def _definitions(value: Any, site: Site) -> Check:
    """Schemas kept for ``$ref``; each is checked now, and none applies by itself."""
    if not isinstance(value, dict):
        site.refuse("must be an object mapping names to schemas")
    for name, schema in value.items():
        site.subschema(schema, name)
    return no_check


# -- what the keywords evaluate, for unevaluatedItems and unevaluatedProperties -----------------

# What a keyword notes as evaluated of the value its schema object is applied to, given its site:
# a function of the value, the notes and the errors (for the work budget).
Note = Callable[[Any, Evaluated, list[ValidationError]], None]


def _named_properties(site: Site) -> Note:
    names = tuple(site.value) if isinstance(site.value, dict) else ()

    def note(instance: Any, notes: Evaluated, errors: list[ValidationError]) -> None:
        if isinstance(instance, dict):
            notes.found.update(name for name in names if name in instance)

    return note


def _patterned_properties(site: Site) -> Note:
    searches = [site.compiler.pattern_and_risk(source)[0].search for source in site.value]

    def note(instance: Any, notes: Evaluated, errors: list[ValidationError]) -> None:
        if isinstance(instance, dict):
            for search in searches:
                spend(errors, len(instance))
                notes.found.update(name for name in instance if search(name))

    return note


def _every_property(site: Site) -> Note:
    def note(instance: Any, notes: Evaluated, errors: list[ValidationError]) -> None:
        if isinstance(instance, dict):
            notes.every = True

    return note


def _every_item(site: Site) -> Note:
    def note(instance: Any, notes: Evaluated, errors: list[ValidationError]) -> None:
        if isinstance(instance, list):
            notes.every = True

    return note


def _first_items(count: int) -> Note:
    def note(instance: Any, notes: Evaluated, errors: list[ValidationError]) -> None:
        if isinstance(instance, list):
            notes.found.update(range(min(count, len(instance))))

    return note


def _prefix_items_note(site: Site) -> Note:
    return _first_items(len(site.value))


def _legacy_items_note(site: Site) -> Note:
    # An array of schemas covers its positions; a single schema, or additionalItems after the
    # array, every item.
    if isinstance(site.value, list) and "additionalItems" not in site.schema:
        return _first_items(len(site.value))
    return _every_item(site)


# What each keyword that evaluates properties or items by itself notes; ``contains`` notes the items it
# matched from its own check, and the unevaluated* keywords note the rest as they check it.
NOTES: dict[str, Callable[[Site], Note]] = {
    "properties": _named_properties,
    "patternProperties": _patterned_properties,
    "additionalProperties": _every_property,
    "prefixItems": _prefix_items_note,
    "items": lambda site: (
        _legacy_items_note(site) if site.compiler.dialect != "2020-12" else _every_item(site)
    ),
}


# How each keyword whose check keeps only a part of the instance words its errors (see ``Site.words``):
# one source for the reference walk and the fast path alike.
WORDS: dict[str, Callable[[Site, Any], Words]] = {
    "type": _type_words,
    "enum": _enum_words,
    "const": _const_words,
    "multipleOf": _multiple_of_words,
    "minimum": _number_bound_words,
    "exclusiveMinimum": _number_bound_words,
    "maximum": _number_bound_words,
    "exclusiveMaximum": _number_bound_words,
    "minLength": _length_words,
    "maxLength": _length_words,
    "pattern": _pattern_words,
    "format": _format_words,
    "minItems": _size_words,
    "maxItems": _size_words,
    "uniqueItems": _unique_items_words,
    "minProperties": _size_words,
    "maxProperties": _size_words,
    "required": _required_words,
    "dependentRequired": _requires_words,
    "dependencies": _requires_words,
    "additionalProperties": _no_extra_words,
    "unevaluatedProperties": _unevaluated_words,
    "not": _not_words,
}
