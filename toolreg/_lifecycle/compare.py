"""The rules of the comparison, one small function for each keyword or family, in a table (:data:`RULES`).

Each rule reads its keyword in one schema object of the refusing side against the facts of the
accepting view at the same place (``schemas.View``), and returns an ``Outcome``: nothing when every
accepting value keeps the keyword (proved), a candidate value built at the moved boundary
(``witness``), or where its proof stopped. The rules for objects and arrays are in
``compare_containers``; the walk that runs them, and verifies each candidate, is ``engine``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from functools import partial
from typing import Any

from .._jsonschema.values import exact_number, is_number, json_key
from .compare_containers import CONTAINER_RULES
from .documents import View
from .engine import (
    MAX_BRANCHES,
    MAX_LISTED,
    Blocked,
    Candidate,
    Comparison,
    Outcome,
    Rule,
    RuleCheck,
    held_pointer,
    pointer_of,
    self_contained,
    shown,
)
from .schemas import Bound, Part, type_atoms
from .witness import NoValue, Undecided, difference, fits_number, number_value

__all__ = ["RULES"]


# -- the rules for every type --------------------------------------------------------------------------


_KINDS = {
    "object": "an object", "array": "an array", "string": "a string", "integer": "an integer",
    "fraction": "a number that is no integer", "boolean": "a boolean", "null": "null",
}  # fmt: skip


def _type(comparison: Comparison, a: View, part: Part) -> Outcome:
    value = part.schema["type"]
    names = value if isinstance(value, list) else [value]
    allowed = frozenset().union(*(type_atoms(name) for name in names if isinstance(name, str)))
    outcome = Outcome()
    for atom in a.type_order():
        if atom not in allowed:
            note = f"{{R}} takes type {shown(value)}: it refuses {_KINDS[atom]}, which {{A}} allows"
            outcome.add(
                comparison.propose(
                    a,
                    part.at("type"),
                    note,
                    rule="type",
                    build=partial(comparison.builder.of_type, a, atom),
                )
            )
    return outcome


def _listed_values(comparison: Comparison, a: View, part: Part) -> Outcome:
    outcome = Outcome()
    for keyword in ("const", "enum"):
        if keyword not in part.schema:
            continue
        value = part.schema[keyword]
        listed = [value] if keyword == "const" else value if isinstance(value, list) else []
        keys = {json_key(item) for item in listed}
        for atom in a.type_order():
            options = _finite(a, atom)
            if options is None:
                options = comparison.builder.variants(a, atom, len(listed) + 2)
                certain = False
            else:
                certain = True
            outside = [option for option in options if json_key(option) not in keys]
            note = (
                f"{{R}} lists only {shown(value)}"
                if keyword == "enum"
                else f"{{R}} takes only {shown(value)}"
            )
            if outside:
                outcome.candidates.append(
                    Candidate(
                        keyword,
                        pointer_of(a),
                        part.at(keyword),
                        (),
                        outside[0],
                        note + f", not {shown(outside[0])}",
                    )
                )
            elif not certain:
                reason = f"every value tried of type {atom} is listed"
                outcome.blocked.append(Blocked(keyword, pointer_of(a), part.at(keyword), (), reason))
    return outcome


def _finite(a: View, atom: str) -> list[Any] | None:
    """Every value of ``a`` of the atom, where there are few (null, booleans, a short integer range)."""
    if atom == "null":
        return [None]
    if atom == "boolean":
        return [False, True]
    lower, upper = a.lower(), a.upper()
    if (
        atom == "integer"
        and lower is not None
        and upper is not None
        and upper.value - lower.value <= MAX_LISTED
    ):
        start = math.ceil(lower.value)
        return [
            number_value(Fraction(number))
            for number in range(start, math.floor(upper.value) + 1)
            if fits_number(a, Fraction(number), "integer")
        ]
    return None


# -- numbers -------------------------------------------------------------------------------------------


def _bound_of(part: Part, inclusive: str, exclusive: str, pick: Callable[..., Any]) -> tuple[Bound, str]:
    """The strictest bound one schema object sets, and the keyword that sets it."""
    bounds = [
        (Bound(exact_number(part.schema[keyword]), left_out), keyword)
        for keyword, left_out in ((inclusive, False), (exclusive, True))
        if is_number(part.get(keyword))
    ]
    best = pick(bound.value for bound, _ in bounds)
    strictest = [(bound, keyword) for bound, keyword in bounds if bound.value == best]
    return next((item for item in strictest if item[0].exclusive), strictest[0])


def _within(held: Bound | None, bound: Bound, direction: int) -> bool:
    """Whether every number within ``held`` (a lower bound when direction is 1) is within ``bound``."""
    if held is None:
        return False
    inside = held.value > bound.value if direction > 0 else held.value < bound.value
    return inside or (held.value == bound.value and (held.exclusive or not bound.exclusive))


def _integer_edge(held: Bound | None, direction: int) -> Bound | None:
    """The least (or greatest) integer within ``held``, as an inclusive bound."""
    if held is None:
        return None
    edge = math.ceil(held.value) if direction > 0 else math.floor(held.value)
    if held.exclusive and edge == held.value:
        edge += direction
    return Bound(Fraction(edge))


def _number_bound(direction: int) -> RuleCheck:
    """``minimum``/``exclusiveMinimum`` (direction 1) or ``maximum``/``exclusiveMaximum`` (-1)."""
    inclusive, exclusive = (
        ("minimum", "exclusiveMinimum") if direction > 0 else ("maximum", "exclusiveMaximum")
    )
    pick = max if direction > 0 else min

    def check(comparison: Comparison, a: View, part: Part) -> Outcome:
        bound, keyword = _bound_of(part, inclusive, exclusive, pick)
        held = a.lower() if direction > 0 else a.upper()

        def outside(number: Fraction) -> bool:
            beyond = number < bound.value if direction > 0 else number > bound.value
            return beyond or (bound.exclusive and number == bound.value)

        outcome = Outcome()
        for atom in ("integer", "fraction"):
            edge = _integer_edge(held, direction) if atom == "integer" else held
            if atom not in a.types() or _within(edge, bound, direction):
                continue
            if (
                atom == "fraction"
                and edge is not None
                and edge.value == bound.value
                and edge.value.denominator == 1
            ):
                continue  # the one number between the bounds is an integer
            # The old bound first (the boundary that moved), then just outside the new one.
            near = [] if edge is None else [edge.value]
            whole = Fraction(math.floor(bound.value) if direction > 0 else math.ceil(bound.value))
            near += [bound.value, bound.value - direction * Fraction(1, 2), whole - direction, whole]
            try:
                numbers = comparison.builder.numbers(a, atom, 1, near, keep=outside)
            except NoValue:
                numbers = []
            was = "none" if held is None else number_value(held.value)
            note = f"{{R}} sets {keyword} {number_value(bound.value)} where {{A}} had {was}"
            if numbers:
                value = number_value(numbers[0])
                outcome.candidates.append(
                    Candidate(
                        inclusive, held_pointer(a, inclusive, exclusive), part.at(keyword), (), value, note
                    )
                )
            elif not outcome.candidates:
                reason = "no number of the old schema beyond the new bound was found"
                outcome.blocked.append(Blocked(keyword, pointer_of(a), part.at(keyword), (), reason))
        return outcome

    return check


def _multiple_of(comparison: Comparison, a: View, part: Part) -> Outcome:
    value = part.schema["multipleOf"]
    step = exact_number(value)
    outcome = Outcome()
    for atom in ("integer", "fraction"):
        if atom not in a.types():
            continue
        if any((multiple / step).denominator == 1 for multiple in a.multiples()):
            continue
        if atom == "integer" and (1 / step).denominator == 1:
            continue
        held = a.multiples()
        near = [multiple * count for multiple in held[:1] for count in range(1, 12)]
        try:
            numbers = comparison.builder.numbers(a, atom, 1, near, keep=lambda n: (n / step).denominator != 1)
        except NoValue:
            numbers = []
        note = f"{{R}} takes only multiples of {value}"
        if numbers:
            outcome.candidates.append(
                Candidate(
                    "multipleOf",
                    held_pointer(a, "multipleOf"),
                    part.at("multipleOf"),
                    (),
                    number_value(numbers[0]),
                    note,
                )
            )
        else:
            outcome.blocked.append(
                Blocked(
                    "multipleOf",
                    pointer_of(a),
                    part.at("multipleOf"),
                    (),
                    "no number off the new step was found",
                )
            )
    return outcome


# -- strings -------------------------------------------------------------------------------------------


def _string_length(comparison: Comparison, a: View, part: Part) -> Outcome:
    outcome = Outcome()
    least, most = a.count("minLength", "maxLength")
    for keyword in ("minLength", "maxLength"):
        if keyword not in part.schema:
            continue
        limit = int(part.schema[keyword])
        if (keyword == "minLength" and least >= limit) or (keyword == "maxLength" and most <= limit):
            continue
        window = {"most": limit - 1} if keyword == "minLength" else {"least": limit + 1}
        held = least if keyword == "minLength" else most
        note = f"{{R}} sets {keyword} {limit} where {{A}} had {held if held != math.inf else 'none'}"
        outcome.add(
            comparison.propose(
                a,
                part.at(keyword),
                note,
                rule=keyword,
                build=partial(comparison.builder.string, a, **window),
            )
        )
    return outcome


def _pattern(comparison: Comparison, a: View, part: Part) -> Outcome:
    source = part.schema["pattern"]
    least, most = a.count("minLength", "maxLength")
    held = a.patterns()
    refusing = f"(?:{source})"
    outside = [f"^[\\s\\S]{{0,{least - 1}}}$"] if least else []
    if most != math.inf:
        outside.append(f"^[\\s\\S]{{{int(most) + 1},}}$")
    note = f"{{R}} sets pattern {shown(source)}" + (f" where {{A}} had {shown(held[0][0])}" if held else "")
    try:
        found = difference(held[0][0] if held else "", "|".join([refusing, *outside]))
    except Undecided as error:
        return Outcome(blocked=[Blocked("pattern", pointer_of(a), part.at("pattern"), (), error.reason)])
    if found is None:
        return Outcome()
    accepting_path = held[0][1].at("pattern") if held else pointer_of(a)
    return Outcome([Candidate("pattern", accepting_path, part.at("pattern"), (), found, note)])


# -- applicators ---------------------------------------------------------------------------------------


def _branches(comparison: Comparison, a: View, part: Part) -> Outcome:
    """``anyOf``/``oneOf``: a branch that takes every value of ``a``, matched by content then shape;
    for ``oneOf``, every other branch shown to take none of them."""
    outcome = Outcome()
    for keyword in ("anyOf", "oneOf"):
        members = part.get(keyword)
        if not isinstance(members, list):
            continue
        views = [
            comparison.child(comparison.refusing, member, part.at(keyword, index))
            for index, member in enumerate(members)
        ]
        closest: Outcome | None = None
        matched = None
        for index in _match_order(a, members, views)[:MAX_BRANCHES]:
            tried = comparison.contain(a, views[index], ())
            if tried.proved:
                matched = index
                break
            closest = closest or tried
        if matched is None:
            # What breaks the closest branch, and the least value: the validator tells whether no
            # other branch takes them.
            note = f"{{R}}'s {keyword} has no branch that takes every value {{A}} allows here"
            closest = closest or Outcome()
            outcome.add(closest)
            if not closest.candidates:
                outcome.add(comparison.propose(a, part.at(keyword), note, rule=keyword))
            continue
        if keyword == "oneOf":
            for index, member in enumerate(members):
                if index == matched or _disjoint(a, views[index]):
                    continue
                pointer = part.at(keyword, index)
                if not self_contained(member):
                    reason = f"branch {index} may take the same values as branch {matched}"
                    outcome.blocked.append(Blocked("oneOf", pointer_of(a), pointer, (), reason))
                    continue
                note = f"{{R}}'s oneOf takes some values of {{A}} in two branches ({matched} and {index})"
                both = a.with_part(member) if isinstance(member, dict) else a
                outcome.add(
                    comparison.propose(both, pointer, note, rule="oneOf", accepting_path=pointer_of(a))
                )
    return outcome


def _match_order(a: View, members: list[Any], views: list[View]) -> list[int]:
    """Branches matched by content first (one the accepting view chose, equal as JSON), then by shape
    (the same types, then overlapping types), then in order."""
    chosen = set()
    for key, index in a.choices:
        found, value = a.document.at(key)
        if found and isinstance(value, list) and index < len(value) and self_contained(value[index]):
            chosen.add(json_key(value[index]))
    types = a.types()

    def rank(index: int) -> tuple[int, int, int]:
        same = json_key(members[index]) in chosen and self_contained(members[index])
        theirs = views[index].types()
        return (0 if same else 1, 0 if theirs == types else 1, -len(theirs & types))

    return sorted(range(len(views)), key=rank)


def _disjoint(a: View, b: View) -> bool:
    """Whether no value fits both views: no common type, a name one requires that the other cannot
    hold or excludes with ``not: {required}``, or disjoint listed values at a name both require."""
    if not (a.types() & b.types()):
        return True
    for left, right in ((a, b), (b, a)):
        for name in left.required():
            if not right.sends(name, None):
                return True
            for value, _ in right.values_of("not"):
                if isinstance(value, dict) and set(value) == {"required"} and value["required"] == [name]:
                    return True
    for name in set(a.required()) & set(b.required()):
        mine, theirs = a.property(name).listed(), b.property(name).listed()
        if (
            mine is not None
            and theirs is not None
            and not ({json_key(v) for v in mine} & {json_key(v) for v in theirs})
        ):
            return True
    return False


def _not(comparison: Comparison, a: View, part: Part) -> Outcome:
    value = part.schema["not"]
    if _disjoint(a, comparison.child(comparison.refusing, value, part.at("not"))):
        return Outcome()
    if isinstance(value, dict) and set(value) == {"required"} and isinstance(value["required"], list):
        closed = comparison.closed(a)
        if any(not a.sends(name, closed) for name in value["required"] if isinstance(name, str)):
            return Outcome()
    if not self_contained(value) or not isinstance(value, dict):
        reason = "the excluded schema could not be compared"
        return Outcome(blocked=[Blocked("not", pointer_of(a), part.at("not"), (), reason)])
    note = f"{{R}} excludes {shown(value)}, which {{A}} allows"
    return comparison.propose(
        a.with_part(value), part.at("not"), note, rule="not", accepting_path=pointer_of(a)
    )


def _conditional(comparison: Comparison, a: View, part: Part) -> Outcome:
    """``if``/``then``/``else``: ``then`` against ``a`` where the condition holds, ``else`` where not."""
    condition = part.schema["if"]
    if not self_contained(condition) or not isinstance(condition, (dict, bool)):
        reason = "the condition could not be compared"
        return Outcome(blocked=[Blocked("if", pointer_of(a), part.at("if"), (), reason)])
    outcome = Outcome()
    for keyword, given in (("then", condition), ("else", {"not": condition})):
        if keyword in part.schema:
            holding = a.with_part(given) if isinstance(given, dict) else a
            branch = comparison.child(comparison.refusing, part.schema[keyword], part.at(keyword))
            outcome.add(comparison.contain(holding, branch, ()))
    return outcome


def _unevaluated(comparison: Comparison, a: View, part: Part) -> Outcome:
    keyword = next(
        keyword for keyword in ("unevaluatedProperties", "unevaluatedItems") if keyword in part.schema
    )
    if part.schema[keyword] is True:
        return Outcome()
    reason = f"{keyword} depends on every schema applied here"
    return Outcome(blocked=[Blocked(keyword, pointer_of(a), part.at(keyword), (), reason)])


_NUMBERS = frozenset({"integer", "fraction"})
# What decides which names and items ``unevaluated*`` meets: held equal, the keyword means the same.
_EVALUATING = (
    "unevaluatedProperties", "unevaluatedItems", "properties", "patternProperties", "additionalProperties",
    "prefixItems", "items", "additionalItems", "contains", "allOf", "anyOf", "oneOf", "not", "if", "then",
    "else", "dependentSchemas", "dependencies", "$ref", "$dynamicRef", "$recursiveRef",
)  # fmt: skip
RULES: tuple[Rule, ...] = (
    Rule("type", ("type",), ("type",), None, _type),
    Rule("enum", ("enum", "const"), ("enum", "const"), None, _listed_values),
    Rule("multipleOf", ("multipleOf",), ("multipleOf",), _NUMBERS, _multiple_of),
    Rule(
        "minimum",
        ("minimum", "exclusiveMinimum"),
        ("minimum", "exclusiveMinimum"),
        _NUMBERS,
        _number_bound(1),
    ),
    Rule(
        "maximum",
        ("maximum", "exclusiveMaximum"),
        ("maximum", "exclusiveMaximum"),
        _NUMBERS,
        _number_bound(-1),
    ),
    Rule(
        "minLength",
        ("minLength", "maxLength"),
        ("minLength", "maxLength"),
        frozenset({"string"}),
        _string_length,
    ),
    Rule("pattern", ("pattern",), ("pattern",), frozenset({"string"}), _pattern),
    *CONTAINER_RULES,
    Rule("anyOf", ("anyOf", "oneOf"), ("anyOf", "oneOf"), None, _branches),
    Rule("not", ("not",), ("not",), None, _not),
    Rule("if", ("if",), ("if", "then", "else"), None, _conditional),
    Rule("unevaluated", ("unevaluatedProperties", "unevaluatedItems"), _EVALUATING, None, _unevaluated),
)
