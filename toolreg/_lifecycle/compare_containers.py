"""The comparison's rules for objects and arrays (the others are in ``compare``).

A rule that compares what an object holds at a name, or an array at an index, asks the comparison
to compare the two views there, and places each candidate it gets back into a minimal object (or
array) of the accepting view: the candidate's value at its name or index, and the least of
everything else.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import Any

from .documents import Declared, View
from .engine import Blocked, Comparison, Outcome, Rule, pointer_of, property_pointer, self_contained, shown
from .schemas import Part, item_part, matches, prefix_of
from .witness import NoValue, Undecided, dependents, difference

__all__ = ["CONTAINER_RULES"]

# The most first items' schemas compared one by one (each witness holds the items before its own).
MAX_POSITIONS = 128
_OBJECTS = frozenset({"object"})
_ARRAYS = frozenset({"array"})


def _placed(comparison: Comparison, a: View, inner: Outcome, token: str | int) -> Outcome:
    """Each candidate of ``inner`` (a value at ``token``) placed in a minimal object or array of ``a``."""
    outcome = Outcome(blocked=list(inner.blocked))
    for candidate in inner.candidates:
        try:
            if isinstance(token, int):
                value: Any = comparison.builder.array(a, values={token: candidate.value})
            else:
                value = comparison.builder.object(a, values={token: candidate.value})
        except NoValue as error:
            blocked = Blocked(
                candidate.rule,
                candidate.accepting_path,
                candidate.refusing_path,
                candidate.where,
                error.reason,
            )
            outcome.blocked.append(blocked)
            continue
        accepting_path = candidate.accepting_path or pointer_of(a)
        outcome.candidates.append(replace(candidate, value=value, accepting_path=accepting_path))
    return outcome


def _names(a: View) -> list[str]:
    """The names ``a`` requires or declares, in that order."""
    return list(dict.fromkeys(a.required() + a.declared()))


def _patterns_sent(a: View, closed: Declared) -> list[str]:
    """The patterns of the names ``a`` may hold beyond those it declares: its ``patternProperties``,
    and under the declared reading those it declares by."""
    found = [
        pattern
        for value, _ in a.values_of("patternProperties")
        if isinstance(value, dict)
        for pattern in value
    ]
    if closed is not None:
        found += closed[1]
    return list(dict.fromkeys(found))


def _with_name(comparison: Comparison, a: View, name: str) -> Any:
    """A minimal object of ``a`` holding ``name`` (with its own minimal value)."""
    return comparison.builder.object(a, values={name: comparison.builder.minimal(a.property(name))})


# -- objects -------------------------------------------------------------------------------------------


def _required(comparison: Comparison, a: View, part: Part) -> Outcome:
    held = set(a.required())
    outcome = Outcome()
    for name in part.schema["required"]:
        if name in held:
            continue
        note = f"{{R}} requires {shown(name)}, which {{A}} does not"
        outcome.add(
            comparison.propose(
                a,
                part.at("required"),
                note,
                rule="required",
                build=partial(comparison.builder.object, a, leave_out=[name]),
                accepting_path=property_pointer(a, name),
            )
        )
    return outcome


def _properties(comparison: Comparison, a: View, part: Part) -> Outcome:
    closed = comparison.closed(a)
    outcome = Outcome()
    for name, schema in part.schema["properties"].items():
        if a.sends(name, closed):
            refusing = comparison.child(comparison.refusing, schema, part.at("properties", name))
            outcome.add(_at_name(comparison, a, name, refusing))
    return outcome


def _pattern_properties(comparison: Comparison, a: View, part: Part) -> Outcome:
    closed = comparison.closed(a)
    held = set(_patterns_sent(a, closed))
    outcome = Outcome()
    for pattern, schema in part.schema["patternProperties"].items():
        pointer = part.at("patternProperties", pattern)
        refusing = comparison.child(comparison.refusing, schema, pointer)
        for name in _names(a):
            if a.sends(name, closed) and matches(pattern, name):
                outcome.add(_at_name(comparison, a, name, refusing))
        if not (a.sends_others(closed) or held):
            continue
        # Every other name the pattern matches reads the same schemas on the old side, unless the old
        # side has patterns of its own besides it: one such name stands for them all.
        standing = _representative(pattern, set(_names(a))) if held <= {pattern} else None
        if standing is None or not a.sends(standing, closed):
            reason = "names the old schema leaves open may match the pattern"
            outcome.blocked.append(Blocked("patternProperties", pointer_of(a), pointer, (), reason))
        else:
            outcome.add(_at_name(comparison, a, standing, refusing))
    return outcome


def _at_name(comparison: Comparison, a: View, name: str, refusing: View) -> Outcome:
    """The old value at ``name`` against ``refusing``, each candidate placed in an object of ``a``."""
    return _placed(comparison, a, comparison.contain(a.property(name), refusing, (name,)), name)


def _representative(pattern: str, declared: set[str]) -> str | None:
    """A short name the pattern matches that is not declared, or None."""
    try:
        shortest = difference(pattern, None)
    except Undecided:
        shortest = None
    for name in (shortest, "x", "a", "0"):
        if name is not None and name not in declared and matches(pattern, name):
            return name
    return None


def _additional_properties(comparison: Comparison, a: View, part: Part) -> Outcome:
    closed = comparison.closed(a)
    schema = part.schema["additionalProperties"]
    pointer = part.at("additionalProperties")
    named = part.get("properties") if isinstance(part.get("properties"), dict) else {}
    patterns = part.get("patternProperties") if isinstance(part.get("patternProperties"), dict) else {}

    def beyond(name: str) -> bool:
        return name not in named and not any(matches(pattern, name) for pattern in patterns)

    names = [name for name in _names(a) if a.sends(name, closed) and beyond(name)]
    outcome = Outcome()
    held = _patterns_sent(a, closed)
    reason = "names the old schema leaves open could not be compared"
    if a.sends_others(closed) and not held:
        fresh = comparison.builder.fresh_name(a, lambda name: not beyond(name))
        if fresh is None:
            outcome.blocked.append(Blocked("additionalProperties", pointer_of(a), pointer, (), reason))
        else:
            names.append(fresh)
    elif held:
        # One name stands for all those a pattern matches where both sides read them alike: one old
        # pattern, no new one, and no open names beside it.
        alike = len(held) == 1 and not patterns and not a.sends_others(closed)
        for source in held:
            found = _representative(source, set(_names(a)) | set(named))
            if found is not None and beyond(found) and a.sends(found, closed):
                names.append(found)
            if not alike or found is None:
                outcome.blocked.append(Blocked("additionalProperties", pointer_of(a), pointer, (), reason))
    for name in names:
        if schema is False:
            note = f"{{R}} closes the object: {shown(name)}, which {{A}} allows, is refused"
            outcome.add(
                comparison.propose(
                    a,
                    pointer,
                    note,
                    rule="additionalProperties",
                    build=partial(_with_name, comparison, a, name),
                    accepting_path=property_pointer(a, name),
                    where=(name,),
                )
            )
        else:
            refusing = comparison.child(comparison.refusing, schema, pointer)
            outcome.add(_at_name(comparison, a, name, refusing))
    return outcome


def _property_names(comparison: Comparison, a: View, part: Part) -> Outcome:
    closed = comparison.closed(a)
    names_part = Part(part.schema["propertyNames"], part.at("propertyNames"))
    outcome = Outcome()
    for name in _names(a):
        if not a.sends(name, closed):
            continue
        fits = comparison.refusing.accepts(names_part, name)
        note = f"{{R}}'s propertyNames refuses the name {shown(name)}, which {{A}} declares"
        if fits is False:
            build = partial(_with_name, comparison, a, name)
            outcome.add(
                comparison.propose(
                    a, names_part.pointer, note, rule="propertyNames", build=build, where=(name,)
                )
            )
        elif fits is None:
            outcome.blocked.append(
                Blocked("propertyNames", pointer_of(a), names_part.pointer, (), "a name could not be checked")
            )
    if a.sends_others(closed) or _patterns_sent(a, closed):
        reason = "names the old schema leaves open could not be compared with propertyNames"
        outcome.blocked.append(Blocked("propertyNames", pointer_of(a), names_part.pointer, (), reason))
    return outcome


def _property_count(comparison: Comparison, a: View, part: Part) -> Outcome:
    closed = comparison.closed(a)
    least, most = a.count("minProperties", "maxProperties")
    outcome = Outcome()
    if "minProperties" in part.schema:
        limit = int(part.schema["minProperties"])
        if max(least, len(a.required())) < limit:
            note = f"{{R}} sets minProperties {limit} where {{A}} had {least}"
            outcome.add(
                comparison.propose(
                    a,
                    part.at("minProperties"),
                    note,
                    rule="minProperties",
                    build=lambda: comparison.builder.object(a),
                )
            )
    if "maxProperties" in part.schema:
        limit = int(part.schema["maxProperties"])
        unbounded = a.sends_others(closed) or bool(_patterns_sent(a, closed))
        possible = (
            most if unbounded else min(most, len([name for name in _names(a) if a.sends(name, closed)]))
        )
        if possible > limit:
            note = (
                f"{{R}} sets maxProperties {limit} where {{A}} had {'none' if most == float('inf') else most}"
            )
            build = partial(comparison.builder.object, a, size=limit + 1)
            outcome.add(
                comparison.propose(a, part.at("maxProperties"), note, rule="maxProperties", build=build)
            )
    return outcome


def _dependent(comparison: Comparison, a: View, part: Part) -> Outcome:
    """``dependentRequired``, ``dependentSchemas`` and draft-07's ``dependencies`` (either form)."""
    closed = comparison.closed(a)
    outcome = Outcome()
    for keyword in ("dependentRequired", "dependentSchemas", "dependencies"):
        value = part.get(keyword)
        for name, wanted in value.items() if isinstance(value, dict) else ():
            if not a.sends(name, closed):
                continue
            pointer = part.at(keyword, name)
            if isinstance(wanted, list):
                missing = [
                    item for item in wanted if item not in a.required() and item not in dependents(a, name)
                ]
                if missing:
                    note = f"{{R}} wants {shown(missing)} beside {shown(name)}"
                    build = partial(_without, comparison, a, name, missing)
                    outcome.add(comparison.propose(a, pointer, note, rule=keyword, build=build))
            elif not _holds_dependent(a, keyword, name, wanted):
                present = a.with_part({"required": [name]})
                outcome.add(
                    comparison.contain(present, comparison.child(comparison.refusing, wanted, pointer), ())
                )
    return outcome


def _without(comparison: Comparison, a: View, name: str, missing: list[str]) -> Any:
    """A minimal object of ``a`` holding ``name`` and none of ``missing``."""
    value = comparison.builder.minimal(a.property(name))
    return comparison.builder.object(a, values={name: value}, leave_out=missing)


def _holds_dependent(a: View, keyword: str, name: str, wanted: Any) -> bool:
    if not self_contained(wanted):
        return False
    for other in ("dependentSchemas", "dependencies"):
        for value, _ in a.values_of(other):
            if isinstance(value, dict) and name in value and value[name] == wanted:
                return True
    return False


# -- arrays --------------------------------------------------------------------------------------------


def _most_items(a: View) -> float:
    _, most = a.count("minItems", "maxItems")
    if a.item(a.prefix_length()).refuses_all:
        most = min(most, a.prefix_length())
    return most


def _items(comparison: Comparison, a: View, part: Part) -> Outcome:
    dialect = comparison.refusing.dialect
    reach = max(a.prefix_length(), len(prefix_of(part, dialect)))
    most = _most_items(a)
    outcome = Outcome()
    if reach > MAX_POSITIONS:
        reason = f"more than {MAX_POSITIONS} items' schemas to compare one by one"
        outcome.blocked.append(Blocked("prefixItems", pointer_of(a), part.pointer, (), reason))
        return outcome
    # Past the longest prefix every index reads the same schemas: the index ``reach`` stands for all.
    for index in range(reach + 1):
        if index >= most:
            break
        wanted = item_part(part, index, dialect)
        held = a.item(index)
        if wanted is None or held.refuses_all:
            continue
        refusing = comparison.child(comparison.refusing, wanted.schema, wanted.pointer)
        outcome.add(_placed(comparison, a, comparison.contain(held, refusing, (index,)), index))
    return outcome


def _item_count(comparison: Comparison, a: View, part: Part) -> Outcome:
    least, _ = a.count("minItems", "maxItems")
    most = _most_items(a)
    outcome = Outcome()
    if "minItems" in part.schema:
        limit = int(part.schema["minItems"])
        if least < limit:
            note = f"{{R}} sets minItems {limit} where {{A}} had {least}"
            outcome.add(
                comparison.propose(
                    a, part.at("minItems"), note, rule="minItems", build=lambda: comparison.builder.array(a)
                )
            )
    if "maxItems" in part.schema:
        limit = int(part.schema["maxItems"])
        if most > limit:
            note = (
                f"{{R}} sets maxItems {limit} where {{A}} had {'none' if most == float('inf') else int(most)}"
            )
            build = partial(comparison.builder.array, a, length=limit + 1)
            outcome.add(comparison.propose(a, part.at("maxItems"), note, rule="maxItems", build=build))
    return outcome


def _unique_items(comparison: Comparison, a: View, part: Part) -> Outcome:
    if part.schema["uniqueItems"] is not True or a.unique() or _most_items(a) < 2:
        return Outcome()

    def build() -> Any:
        item = comparison.builder.minimal(a.item(0))
        return comparison.builder.array(a, values={0: item, 1: item})

    note = "{R} sets uniqueItems, which {A} did not: two equal items are refused"
    return comparison.propose(a, part.at("uniqueItems"), note, rule="uniqueItems", build=build)


def _contains(comparison: Comparison, a: View, part: Part) -> Outcome:
    note = "{R} sets contains (or its bounds) as {A} did not"
    return comparison.propose(
        a, part.at("contains"), note, rule="contains", build=lambda: comparison.builder.array(a)
    )


CONTAINER_RULES: tuple[Rule, ...] = (
    Rule("required", ("required",), ("required",), _OBJECTS, _required),
    Rule("properties", ("properties",), ("properties",), _OBJECTS, _properties),
    Rule("patternProperties", ("patternProperties",), ("patternProperties",), _OBJECTS, _pattern_properties),
    Rule(
        "additionalProperties",
        ("additionalProperties",),
        ("additionalProperties", "properties", "patternProperties"),
        _OBJECTS,
        _additional_properties,
    ),
    Rule("propertyNames", ("propertyNames",), ("propertyNames",), _OBJECTS, _property_names),
    Rule(
        "minProperties",
        ("minProperties", "maxProperties"),
        ("minProperties", "maxProperties"),
        _OBJECTS,
        _property_count,
    ),
    Rule(
        "dependentRequired",
        ("dependentRequired", "dependentSchemas", "dependencies"),
        ("dependentRequired", "dependentSchemas", "dependencies"),
        _OBJECTS,
        _dependent,
    ),
    Rule(
        "items",
        ("prefixItems", "items", "additionalItems"),
        ("prefixItems", "items", "additionalItems"),
        _ARRAYS,
        _items,
    ),
    Rule("minItems", ("minItems", "maxItems"), ("minItems", "maxItems"), _ARRAYS, _item_count),
    Rule("uniqueItems", ("uniqueItems",), ("uniqueItems",), _ARRAYS, _unique_items),
    Rule("contains", ("contains",), ("contains", "minContains", "maxContains"), _ARRAYS, _contains),
)
