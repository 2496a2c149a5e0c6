"""The keywords of objects: counts of properties, required, properties of three kinds, dependentRequired."""

from __future__ import annotations

import itertools
import operator
from typing import Any

from ..errors import ValidationError, Words, deferred_error, freeze
from ..evaluated import Note
from ..findings import Check, Evaluated, Place, spend
from ..pointer import InstanceKey
from ..regex import search_steps
from ..sites import Reading, Site, pattern_of
from ..wording import NAMES_SHOWN, extra_words, show_within
from .arrays import size_bound

__all__ = ["requires", "present_in", "positions_in", "MISSING_STEPS"]


def min_properties(value: Any, site: Site) -> Check:
    """An object has at least this many properties."""
    return size_bound(value, site, dict, operator.lt)


def max_properties(value: Any, site: Site) -> Check:
    """An object has at most this many properties."""
    return size_bound(value, site, dict, operator.gt)


def required(value: Any, site: Site) -> Check:
    """An object has each named property; one error per missing name."""
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        site.refuse("must be a list of property names")
    if len(set(value)) != len(value):
        site.refuse("lists a property name twice")

    def check(instance: Any, path: Place, errors: list[ValidationError]) -> None:
        if isinstance(instance, dict):
            for name in value:
                if name not in instance:
                    spend(errors, MISSING_STEPS)
                    errors.append(deferred_error(site, path, name))

    return check


def required_accepts(value: Any, instance: Any, schema: dict[str, Any], reading: Reading) -> bool:
    return all(name in instance for name in value)


def required_words(site: Site, missing: str) -> Words:
    # The name is the schema's, so a masked error may say it.
    return Words(f"missing required property {show_within(missing)}", facts={"missing": missing})


def positions_in(table: list[tuple[str, Any]]) -> dict[str, int] | None:
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


def properties(value: Any, site: Site) -> Check:
    """Each named property that is present matches its schema."""
    if not isinstance(value, dict):
        site.refuse("must be an object mapping property names to schemas")
    children = [(name, site.subschema(schema, name)) for name, schema in value.items()]
    positions = positions_in(children)

    def check(instance: Any, path: Place, errors: list[ValidationError]) -> None:
        if isinstance(instance, dict):
            for name, child in present_in(children, positions, instance):
                child(instance[name], (path, name), errors)

    return check


def properties_accepts(value: Any, instance: Any, schema: dict[str, Any], reading: Reading) -> bool:
    # At the cost of the smaller of the two, as the check (see present_in).
    if len(instance) < len(value):
        for name, item in instance.items():
            if name in value and not reading.fits(value[name], item):
                return False
    else:
        for name, child in value.items():
            if name in instance and not reading.fits(child, instance[name]):
                return False
    return True


def additional_properties(value: Any, site: Site) -> Check:
    """Every property not named in ``properties`` matches the schema."""
    named = site.schema.get("properties")
    known = frozenset(named) if isinstance(named, dict) else frozenset()
    patterned = site.schema.get("patternProperties")
    patterns = (
        [site.compiler.pattern_and_risk(source)[0] for source in patterned]
        if isinstance(patterned, dict)
        else []
    )
    searches = [pattern.search for pattern in patterns]
    sizes = sum(pattern.size for pattern in patterns)

    def extra_names(instance: dict[str, Any], errors: list[ValidationError]) -> list[str]:
        # One step for each pattern that may be tried on each name, and what searching the names
        # costs in their length (see names_searched), spent before they are tried; then one for each
        # name it applies to or reports. (A name it knows costs a lookup, and an object of known names
        # is no longer than the schema's list of them.)
        if not searches:
            extra = [name for name in instance if name not in known]
        else:
            spend(errors, len(searches) * len(instance) + names_searched(instance, sizes))
            extra = [
                name
                for name in instance
                if name not in known and not any(search(name) for search in searches)
            ]
        spend(errors, len(extra))
        return extra

    if value is False:
        # One error listing every extra name, as jsonschema reports it.
        def check_no_extra(instance: Any, path: Place, errors: list[ValidationError]) -> None:
            if isinstance(instance, dict):
                extra = extra_names(instance, errors)
                if extra:
                    errors.append(deferred_error(site, path, tuple(extra)))

        return check_no_extra
    child = site.subschema(value)

    def check(instance: Any, path: Place, errors: list[ValidationError]) -> None:
        if isinstance(instance, dict):
            for name in extra_names(instance, errors):
                child(instance[name], (path, InstanceKey(name)), errors)

    return check


# What each missing name of required or dependentRequired costs: an error each, and a long list makes
# many of each small object, so each is worth two steps (an error holds about 150 bytes).
MISSING_STEPS = 2


def names_searched(instance: dict[str, Any], sizes: int) -> int:
    """The steps of searching every name of ``instance`` with patterns whose sizes add up to
    ``sizes`` (see ``regex.search_steps``), reckoned on the names' length together: a search of a
    long name costs its length, as a ``pattern``'s of a long string does."""
    return search_steps(sum(map(len, instance)), sizes)


def additional_properties_accepts(
    value: Any, instance: Any, schema: dict[str, Any], reading: Reading
) -> bool:
    # Read only where the quick check vouched for the schema, which then holds no patternProperties.
    named = schema.get("properties", {})
    return all(reading.fits(value, item) for name, item in instance.items() if name not in named)


def _allowed_text(known: frozenset[str], patterned: dict[str, Any]) -> str:
    """What a closed object allows, from the schema alone (so the masked text may say it too)."""
    shown = [show_within(name) for name in sorted(known)[:NAMES_SHOWN]]
    if len(known) > NAMES_SHOWN:
        shown.append(f"{len(known) - NAMES_SHOWN} more")
    if patterned:
        patterns = [show_within(source) for source in itertools.islice(patterned, NAMES_SHOWN)]
        if len(patterned) > NAMES_SHOWN:
            patterns.append(f"{len(patterned) - NAMES_SHOWN} more")
        shown.append("names matching " + ", ".join(patterns))
    if len(known) + len(patterned) > 1:
        return f"; the allowed properties are {_listed(shown)}"
    return f"; the only allowed property is {shown[0]}" if shown else "; no properties are allowed here"


def no_extra_words(site: Site, extra: tuple[str, ...]) -> Words:
    # What the schema allows is the same for each error: worded and frozen once.
    said, facts = site.once("allowed", lambda: _allowed(site))
    return extra_words(extra, said, f"the schema does not allow{said}", facts)


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


def pattern_properties(value: Any, site: Site) -> Check:
    """Each property whose name matches a pattern (a search) matches that pattern's schema."""
    if not isinstance(value, dict):
        site.refuse("must be an object mapping ECMA-262 patterns to schemas")
    patterns = [pattern_of(source, site, source) for source in value]
    children = [
        (pattern.search, site.subschema(schema, source))
        for pattern, (source, schema) in zip(patterns, value.items(), strict=True)
    ]
    sizes = sum(pattern.size for pattern in patterns)

    def check(instance: Any, path: Place, errors: list[ValidationError]) -> None:
        if isinstance(instance, dict):
            # One step for each pattern tried on each name, and what the searches cost in the names'
            # length, spent before they are tried.
            spend(errors, len(children) * len(instance) + names_searched(instance, sizes))
            for search, child in children:
                for name, item in instance.items():
                    if search(name):
                        child(item, (path, InstanceKey(name)), errors)

    return check


def dependent_required(value: Any, site: Site) -> Check:
    """When the object has a named property, it has each property listed for it too."""
    if not isinstance(value, dict):
        site.refuse("must be an object mapping property names to lists of property names")
    for name, needed in value.items():
        if not isinstance(needed, list) or not all(isinstance(item, str) for item in needed):
            site.refuse("must map each property name to a list of property names", name)
        if len(set(needed)) != len(needed):
            site.refuse("lists a property name twice", name)
    return requires(value, site)


def requires(value: dict[str, list[str]], site: Site) -> Check:
    rules = list(value.items())
    positions = positions_in(rules)

    def check(instance: Any, path: Place, errors: list[ValidationError]) -> None:
        if isinstance(instance, dict):
            for name, needs in present_in(rules, positions, instance):
                for needed in needs:
                    if needed not in instance:
                        spend(errors, MISSING_STEPS)
                        errors.append(deferred_error(site, path, (needed, name)))

    return check


def requires_words(site: Site, kept: tuple[str, str]) -> Words:
    needed, name = kept
    message = f"missing property {show_within(needed)}, required when {show_within(name)} is present"
    return Words(message, facts={"missing": needed, "present": name})


def named_properties(site: Site) -> Note:
    names = tuple(site.value) if isinstance(site.value, dict) else ()

    def note(instance: Any, notes: Evaluated, errors: list[ValidationError]) -> None:
        if isinstance(instance, dict):
            notes.found.update(name for name in names if name in instance)

    return note


def patterned_properties(site: Site) -> Note:
    patterns = [site.compiler.pattern_and_risk(source)[0] for source in site.value]

    def note(instance: Any, notes: Evaluated, errors: list[ValidationError]) -> None:
        if isinstance(instance, dict):
            for pattern in patterns:
                spend(errors, len(instance) + names_searched(instance, pattern.size))
                notes.found.update(name for name in instance if pattern.search(name))

    return note


def every_property(site: Site) -> Note:
    def note(instance: Any, notes: Evaluated, errors: list[ValidationError]) -> None:
        if isinstance(instance, dict):
            notes.every = True

    return note
