"""The keywords of arrays: counts of items, unique items, prefixItems, items, contains and its bounds."""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable
from typing import Any

from ..errors import ValidationError, Words, deferred_error, freeze, place_of, trusted_error
from ..evaluated import Note
from ..findings import Check, Evaluated, Findings, Place, no_check, noted, run_branch, spend
from ..sites import Reading, Site
from ..values import ValueKeys, is_integer
from ..wording import BOUND_WORDS, counted, show

__all__ = ["size_bound", "size_words", "min_size_accepts", "max_size_accepts"]


def size_bound(
    value: Any,
    site: Site,
    kind: type[list[Any]] | type[dict[str, Any]],
    breaks: Callable[[int, int], bool],
) -> Check:
    """minItems and friends: the number of items or properties against a limit."""
    limit = site.non_negative_integer(value)

    def check(instance: Any, path: Place, errors: list[ValidationError]) -> None:
        if isinstance(instance, kind) and breaks(len(instance), limit):
            errors.append(deferred_error(site, path, len(instance)))

    return check


def size_words(site: Site, size: int) -> Words:
    limit = int(site.value)
    noun, plural = ("item", "items") if site.keyword.endswith("Items") else ("property", "properties")
    message = f"must have {BOUND_WORDS[site.keyword]} {counted(limit, noun, plural)}"
    return Words(message, f", has {size}", {"limit": limit, "actual": size})


def min_items(value: Any, site: Site) -> Check:
    """An array has at least this many items."""
    return size_bound(value, site, list, operator.lt)


def max_items(value: Any, site: Site) -> Check:
    """An array has at most this many items."""
    return size_bound(value, site, list, operator.gt)


def min_size_accepts(value: Any, instance: Any, schema: dict[str, Any], reading: Reading) -> bool:
    """At least ``value`` items, properties or characters (``len`` counts a string's code points)."""
    return bool(len(instance) >= value)


def max_size_accepts(value: Any, instance: Any, schema: dict[str, Any], reading: Reading) -> bool:
    """At most ``value`` items, properties or characters."""
    return bool(len(instance) <= value)


def unique_items(value: Any, site: Site) -> Check:
    """No two items of an array are equal as JSON (``[1, 1.0]`` repeats, ``[1, true]`` does not)."""
    if not isinstance(value, bool):
        site.refuse(f"must be true or false, not {show(value)}")
    if not value:
        return no_check

    def check(instance: Any, path: Place, errors: list[ValidationError]) -> None:
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


def unique_items_accepts(value: Any, instance: Any, schema: dict[str, Any], reading: Reading) -> bool:
    return not value or len({reading.keys.key(item) for item in instance}) == len(instance)


def unique_items_words(site: Site, duplicates: tuple[tuple[int, ...], ...]) -> Words:
    which = "; ".join(f"items {', '.join(map(str, indices))} are equal" for indices in duplicates)
    return Words(f"must have unique items: {which}", facts={"duplicates": duplicates})


def prefix_items(value: Any, site: Site) -> Check:
    """The first items of an array match the schemas at the same positions."""
    children = site.schemas(value, in_place=False)
    # Steps for the first n positions: one for each whose schema does not count itself.
    steps = [0, *itertools.accumulate(0 if site.counts_itself(schema) else 1 for schema in value)]

    def check(instance: Any, path: Place, errors: list[ValidationError]) -> None:
        if isinstance(instance, list):
            spend(errors, steps[min(len(instance), len(children))])
            for index, (item, child) in enumerate(zip(instance, children, strict=False)):
                child(item, (path, index), errors)

    return check


def prefix_items_accepts(value: Any, instance: Any, schema: dict[str, Any], reading: Reading) -> bool:
    return all(reading.fits(child, item) for child, item in zip(value, instance, strict=False))


def items(value: Any, site: Site) -> Check:
    """Every item after those that ``prefixItems`` covers matches the schema."""
    if isinstance(value, list):
        site.refuse("as an array is the draft-07 tuple form; in 2020-12 write it as 'prefixItems'")
    prefix = site.schema.get("prefixItems")
    return _items_after(len(prefix) if isinstance(prefix, list) else 0, value, site)


def items_accepts(value: Any, instance: Any, schema: dict[str, Any], reading: Reading) -> bool:
    prefix = schema.get("prefixItems")
    start = len(prefix) if isinstance(prefix, list) else 0
    return all(reading.fits(value, instance[index]) for index in range(start, len(instance)))


def _items_after(start: int, value: Any, site: Site) -> Check:
    """Every item from index ``start`` on matches the schema ``value``."""
    if value is False:
        # One error for the whole array, as jsonschema reports it, rather than one per extra item.
        def check_none_after(instance: Any, path: Place, errors: list[ValidationError]) -> None:
            if isinstance(instance, list) and len(instance) > start:
                message, quoted = f"must have at most {counted(start, 'item')}", f", has {len(instance)}"
                errors.append(site.failure(path, message, quoted=quoted, limit=start, actual=len(instance)))

        return check_none_after
    child = site.subschema(value)
    per_item = 0 if site.counts_itself(value) else 1

    def check(instance: Any, path: Place, errors: list[ValidationError]) -> None:
        if isinstance(instance, list) and len(instance) > start:
            spend(errors, per_item * (len(instance) - start))
            for index in range(start, len(instance)):
                child(instance[index], (path, index), errors)

    return check


def contains(value: Any, site: Site) -> Check:
    """At least ``minContains`` (1 unless given) and at most ``maxContains`` items match the schema."""
    child = site.subschema(value)
    # The bounds' own rows refuse a malformed value, at its own pointer.
    least = _count_bound(site.schema.get("minContains"), 1)
    most = _count_bound(site.schema.get("maxContains"), None)
    # In 2020-12 the items it matches count as evaluated, for unevaluatedItems (not in 2019-09).
    notes_matches = site.compiler.annotates and site.compiler.dialect == "2020-12"

    def check(instance: Any, path: Place, errors: list[ValidationError]) -> None:
        if not isinstance(instance, list):
            return
        spend(errors, len(instance))
        matching = []
        for index, item in enumerate(instance):
            if not run_branch(child, item, (path, index), errors):
                matching.append(index)
        if notes_matches and (notes := noted(errors, instance)) is not None:
            notes.found.update(matching)
        count = len(matching)
        if least is not None and count < least:
            message = f"must contain at least {counted(least, 'item')} matching the 'contains' schema"
            quoted = f", contains {count}"
            failure = site.failure(
                path, message, quoted=quoted, limit=least, actual=count, matching=freeze(matching)
            )
            # None at all is "contains" failing; some, but too few, is its minimum (as jsonschema says).
            errors.append(_renamed(failure, "minContains") if count else failure)
        if most is not None and count > most:
            message = f"must contain at most {counted(most, 'item')} matching the 'contains' schema"
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
        place_of(error), error.schema_path, keyword, error.message, dict(error.facts),
        (place_of(hidden), hidden.message, dict(hidden.facts)),
    )  # fmt: skip


def contains_bound(value: Any, site: Site) -> Check:
    """``minContains`` and ``maxContains``: checked here, applied by ``contains`` (alone, ignored)."""
    site.non_negative_integer(value)
    return no_check


def legacy_items(value: Any, site: Site) -> Check:
    """Draft-07 and 2019-09 ``items``: one schema for every item, or an array of schemas by position."""
    if isinstance(value, list):
        return prefix_items(value, site)
    child = site.subschema(value)
    per_item = 0 if site.counts_itself(value) else 1

    def check(instance: Any, path: Place, errors: list[ValidationError]) -> None:
        if isinstance(instance, list):
            spend(errors, per_item * len(instance))
            for index, item in enumerate(instance):
                child(item, (path, index), errors)

    return check


def additional_items(value: Any, site: Site) -> Check:
    """Draft-07 and 2019-09: the items after those an array-form ``items`` covers match the schema."""
    positional = site.schema.get("items")
    if not isinstance(positional, list):
        site.subschema(value)  # checked, though it applies to nothing here
        return no_check
    return _items_after(len(positional), value, site)


def every_item(site: Site) -> Note:
    def note(instance: Any, notes: Evaluated, errors: list[ValidationError]) -> None:
        if isinstance(instance, list):
            notes.every = True

    return note


def _first_items(count: int) -> Note:
    def note(instance: Any, notes: Evaluated, errors: list[ValidationError]) -> None:
        if isinstance(instance, list):
            notes.found.update(range(min(count, len(instance))))

    return note


def prefix_items_note(site: Site) -> Note:
    return _first_items(len(site.value))


def legacy_items_note(site: Site) -> Note:
    # An array of schemas covers its positions; a single schema, or additionalItems after the
    # array, every item.
    if isinstance(site.value, list) and "additionalItems" not in site.schema:
        return _first_items(len(site.value))
    return every_item(site)
