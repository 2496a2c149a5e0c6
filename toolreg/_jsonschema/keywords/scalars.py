"""The keywords of scalars: type, enum, const; numbers' bounds and multiples; lengths, pattern, format."""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from typing import Any

from ..errors import ValidationError, Words, deferred_error, freeze
from ..findings import Check, Findings, Place, no_check, spend
from ..formats import FORMAT_SIZES, FORMATS, KNOWN_FORMATS
from ..regex import SEARCH_STEP, CostlySearch, search_steps, uncounted_length
from ..sites import Reading, Site, pattern_of
from ..values import (
    exact_number,
    is_integer,
    is_number,
    json_equal,
    json_key,
    json_key_within,
    json_size,
    json_type,
)
from ..wording import BOUND_WORDS, counted, show, show_values, show_within

__all__ = ["JSON_TYPES"]


JSON_TYPES: dict[str, Callable[[object], bool]] = {
    "null": lambda value: value is None,
    "boolean": lambda value: isinstance(value, bool),
    "integer": is_integer,
    "number": is_number,
    "string": lambda value: isinstance(value, str),
    "array": lambda value: isinstance(value, list),
    "object": lambda value: isinstance(value, dict),
}


def type_(value: Any, site: Site) -> Check:
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

        def check_one(instance: Any, path: Place, errors: list[ValidationError]) -> None:
            if not test(instance):
                errors.append(deferred_error(site, path, _kept_kind(instance)))

        return check_one

    def check(instance: Any, path: Place, errors: list[ValidationError]) -> None:
        if not any(test(instance) for test in tests):
            errors.append(deferred_error(site, path, _kept_kind(instance)))

    return check


def type_accepts(value: Any, instance: Any, schema: dict[str, Any], reading: Reading) -> bool:
    if type(value) is str:
        return JSON_TYPES[value](instance)
    return any(JSON_TYPES[name](instance) for name in value)


def _kept_kind(instance: Any) -> Any:
    """What a type error keeps of the instance: a scalar itself, an array or object by its type."""
    kind = type(instance)
    return kind if kind is dict or kind is list else instance


def type_words(site: Site, kept: Any) -> Words:
    names = site.value if isinstance(site.value, list) else [site.value]
    actual = "object" if kept is dict else "array" if kept is list else json_type(kept)
    message, quoted, facts = f"expected {' or '.join(names)}, got {actual}", "", {}
    # The two slips models make most: a number or a boolean in quotes, and null for "not given".
    if type(kept) is str and len(kept) <= 40 and _UNQUOTED.fullmatch(kept):
        import json  # here, as show() does: wording an error is the only use of it

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


def enum(value: Any, site: Site) -> Check:
    """The instance equals one of the values, as JSON compares them (``1 == 1.0``, ``1 != true``)."""
    if not isinstance(value, list):
        site.refuse("must be an array of the allowed values")
    keys, largest = _allowed(value)

    def check(instance: Any, path: Place, errors: list[ValidationError]) -> None:
        if isinstance(instance, (list, dict)):
            spend(errors)  # one step for each array or object compared
            if not largest or json_key_within(instance, largest) not in keys:
                errors.append(deferred_error(site, path, None))
        elif json_key(instance) not in keys:
            errors.append(deferred_error(site, path, None))

    return check


# Up to how many options a glance compares a string with each, rather than work out their keys: it
# reads a schema at a tool's first calls only, where one scan of a few costs less than keying them.
_SCANNED = 16


def _allowed(options: list[Any]) -> tuple[frozenset[Any], int]:
    """The keys of an enum's options, and the size of the largest array or object among them: an
    array or object is keyed only as far as that, since at each level of a recursive schema keying it
    whole would cost the size of the levels below."""
    keys = frozenset(json_key(option) for option in options)
    largest = max((json_size(option) for option in options if isinstance(option, (list, dict))), default=0)
    return keys, largest


def enum_accepts(value: Any, instance: Any, schema: dict[str, Any], reading: Reading) -> bool:
    if type(instance) is str and len(value) <= _SCANNED:
        return instance in value  # a string equals only a string, as JSON has it
    keys, largest = reading.remembered(value, _allowed)  # worked out once for the schema, as the check's
    if isinstance(instance, (list, dict)):
        return bool(largest) and json_key_within(instance, largest) in keys
    return json_key(instance) in keys


def enum_words(site: Site, kept: None) -> Words:
    return Words(f"must be one of {show_values(site.value)}", facts={"allowed": freeze(site.value)})


def const(value: Any, site: Site) -> Check:
    """The instance equals the value, as JSON compares them."""
    compares_containers = isinstance(value, (list, dict))

    def check(instance: Any, path: Place, errors: list[ValidationError]) -> None:
        # json_equal stops where the two first differ: it costs at most the size of the value.
        if compares_containers and isinstance(instance, (list, dict)):
            spend(errors)
        if not json_equal(instance, value):
            errors.append(deferred_error(site, path, None))

    return check


def const_accepts(value: Any, instance: Any, schema: dict[str, Any], reading: Reading) -> bool:
    return json_equal(instance, value)


def const_words(site: Site, kept: None) -> Words:
    return Words(f"must be {show_within(site.value)}", facts={"const": freeze(site.value)})


def multiple_of(value: Any, site: Site) -> Check:
    """A number is an exact multiple: ``0.07`` is a multiple of ``0.01``, read as the decimals they are."""
    if not is_number(value) or value <= 0:
        site.refuse(f"must be a number greater than 0, not {show(value)}")
    divisor = exact_number(value)

    def check(instance: Any, path: Place, errors: list[ValidationError]) -> None:
        if is_number(instance) and (exact_number(instance) / divisor).denominator != 1:
            errors.append(deferred_error(site, path, None))

    return check


def multiple_of_accepts(value: Any, instance: Any, schema: dict[str, Any], reading: Reading) -> bool:
    return (exact_number(instance) / exact_number(value)).denominator == 1


def multiple_of_words(site: Site, kept: None) -> Words:
    return Words(f"must be a multiple of {show(site.value)}", facts={"multiple_of": site.value})


def _number_bound(site: Site, limit: int | float, breaks: Callable[[Any, Any], bool]) -> Check:
    def check(instance: Any, path: Place, errors: list[ValidationError]) -> None:
        # Python compares int with float exactly, so 2**64 against 1.8e19 needs no rounding care.
        if is_number(instance) and breaks(instance, limit):
            errors.append(deferred_error(site, path, instance))

    return check


def number_bound_words(site: Site, number: int | float) -> Words:
    limit = site.value
    message = f"must be {BOUND_WORDS[site.keyword]} {show(limit)}"
    return Words(message, f", is {show(number)}", {"limit": limit, "actual": number})


def minimum(value: Any, site: Site) -> Check:
    """A number is at least the limit."""
    return _number_bound(site, site.number(value), operator.lt)


def maximum(value: Any, site: Site) -> Check:
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


def exclusive_minimum(value: Any, site: Site) -> Check:
    """A number is greater than the limit."""
    return _number_bound(site, _exclusive(value, site, "minimum"), operator.le)


def exclusive_maximum(value: Any, site: Site) -> Check:
    """A number is less than the limit."""
    return _number_bound(site, _exclusive(value, site, "maximum"), operator.ge)


def minimum_accepts(value: Any, instance: Any, schema: dict[str, Any], reading: Reading) -> bool:
    return bool(instance >= value)


def exclusive_minimum_accepts(value: Any, instance: Any, schema: dict[str, Any], reading: Reading) -> bool:
    return bool(instance > value)


def maximum_accepts(value: Any, instance: Any, schema: dict[str, Any], reading: Reading) -> bool:
    return bool(instance <= value)


def exclusive_maximum_accepts(value: Any, instance: Any, schema: dict[str, Any], reading: Reading) -> bool:
    return bool(instance < value)


def _length_bound(value: Any, site: Site, breaks: Callable[[int, int], bool]) -> Check:
    limit = site.non_negative_integer(value)

    def check(instance: Any, path: Place, errors: list[ValidationError]) -> None:
        # len() counts code points, as JSON Schema does; UTF-16 units would count "😀" twice.
        if isinstance(instance, str) and breaks(len(instance), limit):
            errors.append(deferred_error(site, path, len(instance)))

    return check


def length_words(site: Site, length: int) -> Words:
    limit = int(site.value)
    message = f"must be {BOUND_WORDS[site.keyword]} {counted(limit, 'character')} long"
    return Words(message, f", is {length}", {"limit": limit, "length": length})


def min_length(value: Any, site: Site) -> Check:
    """A string has at least this many code points."""
    return _length_bound(value, site, operator.lt)


def max_length(value: Any, site: Site) -> Check:
    """A string has at most this many code points."""
    return _length_bound(value, site, operator.gt)


def pattern(value: Any, site: Site) -> Check:
    """A string contains a match of the ECMA-262 regular expression (a search, not a full match)."""
    compiled = pattern_of(value, site)
    search, size = compiled.search, compiled.size
    free = (SEARCH_STEP - 1) // size  # the longest text it searches at no cost

    def check(instance: Any, path: Place, errors: list[ValidationError]) -> None:
        if isinstance(instance, str):
            if len(instance) > free:
                spend(errors, search_steps(len(instance), size))  # before the search runs
            if not search(instance):
                errors.append(deferred_error(site, path, None))

    return check


def pattern_accepts(value: Any, instance: Any, schema: dict[str, Any], reading: Reading) -> bool:
    compiled = reading.pattern(value)
    if len(instance) > uncounted_length(compiled.size):
        raise CostlySearch  # more than the work bound let the glance leave uncounted
    return compiled.search(instance)


def pattern_words(site: Site, kept: None) -> Words:
    return Words(f"must match the pattern {show_within(site.value)}", facts={"pattern": site.value})


def format_(value: Any, site: Site) -> Check:
    """An annotation, unless format assertion is on: then a string must be a valid instance of a
    format toolreg asserts (see ``formats``), ``idn-hostname`` stays an annotation, and any other
    name is refused, with the nearest known one."""
    if not isinstance(value, str):
        site.refuse(f"must be a string, not {show(value)}")
    if not site.compiler.asserts_formats:
        return no_check
    if value not in KNOWN_FORMATS:
        import difflib  # here: only the hint for an unknown format needs it, and it costs the import

        nearest = difflib.get_close_matches(value, sorted(KNOWN_FORMATS), n=1, cutoff=0.6)
        hint = f"; did you mean {nearest[0]!r}?" if nearest else ""
        site.refuse(f"names no format toolreg knows, {show(value)}, and formats are asserted{hint}")
    valid = FORMATS.get(value)
    if valid is None:
        return no_check
    size = FORMAT_SIZES[value]
    free = (SEARCH_STEP - 1) // size  # the longest text it tests at no cost

    def check(instance: Any, path: Place, errors: list[ValidationError]) -> None:
        if isinstance(instance, str):
            found = valid(instance) if len(instance) <= free else _tested_once(valid, value, instance, errors)
            if not found:
                errors.append(deferred_error(site, path, None))

    return check


def _tested_once(valid: Callable[[str], bool], name: str, text: str, errors: list[ValidationError]) -> bool:
    """Whether a long ``text`` is a valid ``name``, tested once in a validation however many times
    the format applies to it (kept in its memo by the string's identity, which lives as long as the
    instance), spending the steps of the test the first time, before it runs."""
    if not isinstance(errors, Findings):
        return valid(text)
    tested = errors.memo().formats
    key = (id(text), name)
    found = tested.get(key)
    if found is None:
        spend(errors, search_steps(len(text), FORMAT_SIZES[name]))
        found = tested[key] = valid(text)
    return found


def format_accepts(value: Any, instance: Any, schema: dict[str, Any], reading: Reading) -> bool:
    valid = FORMATS.get(value)
    if valid is None or not reading.asserts_formats:
        return True
    if len(instance) * FORMAT_SIZES[value] >= SEARCH_STEP:
        raise CostlySearch  # the walk spends steps on it, which the work bound does not count
    return valid(instance)


def format_words(site: Site, kept: None) -> Words:
    return Words(f"must be a valid {site.value}", facts={"format": site.value})
