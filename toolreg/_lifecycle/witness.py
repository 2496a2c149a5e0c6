"""Values of a schema for witnesses: a minimal valid instance of a view (each required name with its
own minimal value, the least number, the shortest string, the fewest items), values at a moved
boundary (the least number a bound still lets in, a string of a given length, an array of a given
size), and a few distinct values where one must differ from a list.

Nothing here is trusted: a comparison places each value inside a whole instance and has the validator
verify it (the old schema accepts it, the new refuses it) before it is ever reported. A builder gives
up (:class:`NoValue`) rather than search without bound: values are at most :data:`MAX_DEPTH` deep,
and no string, array or object of one holds more than :data:`MAX_SIZE` characters, items or names.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Iterable, Iterator
from fractions import Fraction
from string import ascii_lowercase, digits
from typing import Any

from .._jsonschema.errors import ToolregError
from .._jsonschema.regex.difference import shortest_difference
from .._jsonschema.values import json_key
from .documents import Declared, View, alternatives, unchosen
from .schemas import Bound, matches, value_atoms

__all__ = [
    "NoValue",
    "Undecided",
    "Builder",
    "Declared",
    "difference",
    "number_value",
    "fits_number",
    "dependents",
]

MAX_DEPTH = 32
# The longest string, and the most items or names, a built value holds.
MAX_SIZE = 10_000
# The work one pattern comparison may do (automaton states), as regex.difference counts it.
MAX_STATES = 20_000
# Property names tried where a value needs a name its schema does not declare.
_FRESH_NAMES = ("extra", "x", "other", "name_1", "zz")


class NoValue(Exception):
    """No value was built: ``certain`` when none exists (the bounds leave nothing), else given up."""

    def __init__(self, reason: str, *, certain: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.certain = certain


class Undecided(Exception):
    """A pattern comparison that could not be decided within its bounds; ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def difference(accepting: str, refusing: str | None) -> str | None:
    """A shortest string ``accepting`` matches and ``refusing`` does not (any string, for None); None
    when there is none, proved. Raises :class:`Undecided` where the pattern comparison cannot decide
    (a look-around, a back-reference, past its bound of states)."""
    try:
        return shortest_difference(accepting, refusing, max_states=MAX_STATES)
    except ToolregError as error:  # Undecided, or a pattern the comparison reads otherwise
        raise Undecided(str(getattr(error, "reason", error))) from None


def _length_pattern(least: int, most: float) -> str | None:
    """A pattern of the strings whose length is outside ``[least, most]``, or None when none is."""
    outside = []
    if least > 0:
        outside.append(f"^[\\s\\S]{{0,{least - 1}}}$")
    if most != math.inf:
        outside.append(f"^[\\s\\S]{{{int(most) + 1},}}$")
    return "|".join(outside) or None


def number_value(number: Fraction) -> int | float:
    """A number as JSON writes it: an int when whole."""
    return int(number) if number.denominator == 1 else float(number)


def fits_number(view: View, number: Fraction, atom: str) -> bool:
    """Whether ``number`` keeps every numeric keyword of ``view`` and is of the atom asked for."""
    if (number.denominator == 1) != (atom == "integer"):
        return False
    lower, upper = view.lower(), view.upper()
    if lower is not None and (number < lower.value or (lower.exclusive and number == lower.value)):
        return False
    if upper is not None and (number > upper.value or (upper.exclusive and number == upper.value)):
        return False
    return all((number / multiple).denominator == 1 for multiple in view.multiples())


def _near(bound: Bound | None, multiples: list[Fraction], direction: int) -> Iterator[Fraction]:
    """Numbers at and just inside a bound: the bound, its next whole numbers and multiples, halves."""
    if bound is None:
        return
    value = bound.value
    yield value
    whole = math.floor(value) if direction > 0 else math.ceil(value)
    for step in range(0, 3):
        yield Fraction(whole + direction * step)
    yield value + direction * Fraction(1, 2)
    for multiple in multiples[:1]:
        first = math.ceil(value / multiple) if direction > 0 else math.floor(value / multiple)
        for step in range(0, 3):
            yield (first + direction * step) * multiple


class Builder:
    """Minimal values of one side's views. ``closed`` says, for an object's view, which names a value
    may hold under the declared reading (None: any)."""

    def __init__(self, closed: Callable[[View], Declared]) -> None:
        self._closed = closed
        self._minimal: dict[Any, Any] = {}

    # -- any value ----------------------------------------------------------------------------------

    def minimal(self, view: View, depth: int = 0) -> Any:
        """A minimal value of ``view``: a listed value, else one of its first type that can be built."""
        if depth > MAX_DEPTH:
            raise NoValue("nested too deeply")
        if view.refuses_all:
            raise NoValue("the schema is false", certain=True)
        key = (tuple(part.pointer for part in view.parts), view.choices)
        if None not in key[0] and key in self._minimal:  # a part the comparison added is not keyed
            found = self._minimal[key]
            if isinstance(found, NoValue):
                raise found
            return found
        try:
            value = self._build(view, depth)
        except NoValue as error:
            if None not in key[0]:
                self._minimal[key] = error
            raise
        if None not in key[0]:
            self._minimal[key] = value
        return value

    def _build(self, view: View, depth: int) -> Any:
        if unchosen(view) is not None:
            return self._branched(view, depth)
        listed = view.listed()
        if listed is not None:
            allowed = view.types()
            for value in listed:
                if value_atoms(value) in allowed and view.accepts(value) is not False:
                    return value
            raise NoValue("no listed value fits", certain=True)
        reasons = []
        for atom in view.type_order():
            try:
                return self.of_type(view, atom, depth)
            except NoValue as error:
                reasons.append(error)
        raise NoValue(
            "no type can be built", certain=bool(reasons) and all(error.certain for error in reasons)
        )

    def _branched(self, view: View, depth: int) -> Any:
        """A value of the first branch of each ``anyOf``/``oneOf`` whose minimal value the whole view
        accepts (the validator decides, since ``oneOf`` wants exactly one)."""
        options, _ = alternatives(view)
        for option in options:
            try:
                value = self.minimal(option, depth + 1)
            except NoValue:
                continue
            if view.accepts(value) is not False:
                return value
        raise NoValue("no branch gives a value the schema accepts")

    def of_type(self, view: View, atom: str, depth: int = 0) -> Any:
        """A minimal value of ``view`` of the type atom ``atom``."""
        if atom == "null":
            return None
        if atom == "boolean":
            return False
        if atom in ("integer", "fraction"):
            return self.number(view, atom)
        if atom == "string":
            return self.string(view)
        if atom == "array":
            return self.array(view, depth=depth)
        return self.object(view, depth=depth)

    def variants(self, view: View, atom: str, count: int) -> list[Any]:
        """Up to ``count`` distinct values of ``view`` of the type atom ``atom``, minimal first."""
        listed = view.listed()
        if listed is not None:
            return [value for value in listed if value_atoms(value) == atom][:count]
        if atom == "null":
            return [None]
        if atom == "boolean":
            return [False, True][:count]
        if atom in ("integer", "fraction"):
            return [number_value(number) for number in self.numbers(view, atom, count)]
        if atom == "string":
            least, most = view.count("minLength", "maxLength")
            if least > MAX_SIZE:
                return []
            patterns = [source for source, _ in view.patterns()]
            pool = [
                "a" * least,
                *(letter * max(least, 1) for letter in ascii_lowercase + digits),
            ]
            if patterns:
                with contextlib.suppress(NoValue):
                    pool.insert(0, self.string(view))
            found = [
                text
                for text in dict.fromkeys(pool)
                if least <= len(text) <= most and all(matches(source, text) for source in patterns)
            ]
            return found[:count]
        try:
            return [self.of_type(view, atom)]
        except NoValue:
            return []

    # -- numbers --------------------------------------------------------------------------------------

    def numbers(
        self,
        view: View,
        atom: str,
        count: int = 1,
        candidates: Iterable[Fraction] = (),
        keep: Callable[[Fraction], bool] = lambda number: True,
    ) -> list[Fraction]:
        """Up to ``count`` numbers of the atom that keep every numeric keyword and ``keep``:
        ``candidates`` first, then 0, numbers at the bounds, and steps up from the least."""
        lower, upper = view.lower(), view.upper()
        multiples = view.multiples()
        pool: list[Fraction] = list(candidates)
        pool += [Fraction(0), Fraction(1, 2), Fraction(1), Fraction(-1), Fraction(-1, 2)]
        pool += list(_near(lower, multiples, 1)) + list(_near(upper, multiples, -1))
        if lower is not None and upper is not None:
            pool.append((lower.value + upper.value) / 2)
        pool += [multiple * step for multiple in multiples[:1] for step in (1, -1, Fraction(1, 2), 3)]
        found: list[Fraction] = []
        for number in pool:
            if number not in found and fits_number(view, number, atom) and keep(number):
                found.append(number)
        if found:
            step = multiples[0] if multiples else Fraction(1)
            start = found[0]
            for index in range(1, 4 * count):
                if len(found) >= count:
                    break
                number = start + index * step
                if number not in found and fits_number(view, number, atom) and keep(number):
                    found.append(number)
        if not found and count:
            raise NoValue(f"no {atom} keeps the bounds", certain=multiples == [] and atom == "integer")
        return found[:count]

    def number(self, view: View, atom: str) -> int | float:
        """The least number of the atom ``view`` allows, as JSON writes it."""
        return number_value(self.numbers(view, atom)[0])

    # -- strings --------------------------------------------------------------------------------------

    def string(self, view: View, least: int | None = None, most: float | None = None) -> str:
        """A shortest string of ``view`` whose length is within its bounds and ``[least, most]``."""
        low, high = view.count("minLength", "maxLength")
        low, high = max(low, least or 0), min(high, math.inf if most is None else most)
        if low > high:
            raise NoValue("the lengths leave no string", certain=True)
        if low > MAX_SIZE:
            raise NoValue(f"a string of more than {MAX_SIZE} characters")
        patterns = view.patterns()
        if not patterns:
            return "a" * low
        source = patterns[0][0]
        try:
            found = difference(source, _length_pattern(low, high))
        except Undecided as error:
            for text in ("", "a" * low, "0" * low, "a" * max(low, 1)):
                if low <= len(text) <= high and all(matches(other, text) for other, _ in patterns):
                    return text
            raise NoValue(error.reason) from None
        if found is None:
            raise NoValue("the pattern matches no string of those lengths", certain=True)
        if not all(matches(other, found) for other, _ in patterns[1:]):
            raise NoValue("more than one pattern")
        return found

    # -- arrays ---------------------------------------------------------------------------------------

    def array(
        self, view: View, *, length: int | None = None, values: dict[int, Any] | None = None, depth: int = 0
    ) -> list[Any]:
        """A shortest array of ``view`` (``length`` items if given), with ``values`` at their indices
        and minimal items elsewhere (distinct ones when ``uniqueItems`` holds)."""
        least, most = view.count("minItems", "maxItems")
        given = values or {}
        size = max(least, max(given, default=-1) + 1) if length is None else length
        if any(isinstance(part.get("contains"), (dict, bool)) for part in view.parts) and size == 0:
            size = 1
        if size > most:
            raise NoValue("too many items for maxItems", certain=True)
        if size > MAX_SIZE:
            raise NoValue(f"an array of more than {MAX_SIZE} items")
        items: list[Any] = []
        seen: set[Any] = {json_key(value) for value in given.values()} if view.unique() else set()
        for index in range(size):
            if index in given:
                items.append(given[index])
                continue
            item_view = view.item(index)
            if view.unique():
                atoms = item_view.type_order()
                options = [v for atom in atoms[:2] for v in self.variants(item_view, atom, size + 1)]
                item = next((option for option in options if json_key(option) not in seen), None)
                if item is None:
                    raise NoValue("no distinct items")
                seen.add(json_key(item))
            else:
                item = self.minimal(item_view, depth + 1)
            items.append(item)
        return items

    # -- objects --------------------------------------------------------------------------------------

    def object(
        self,
        view: View,
        *,
        values: dict[str, Any] | None = None,
        leave_out: Iterable[str] = (),
        size: int | None = None,
        depth: int = 0,
    ) -> dict[str, Any]:
        """A smallest object of ``view``: its required names (and those they depend on) with minimal
        values, ``values`` set, ``leave_out`` left out, and more names up to ``minProperties`` (or
        ``size``)."""
        given = dict(values or {})
        left_out = set(leave_out)
        names = [name for name in view.required() if name not in left_out]
        names += [name for name in given if name not in names]
        index = 0
        while index < len(names):  # dependentRequired: a name present brings others
            for dependent in dependents(view, names[index]):
                if dependent not in names and dependent not in left_out:
                    names.append(dependent)
            index += 1
        least, _ = view.count("minProperties", "maxProperties")
        wanted = max(least, size or 0)
        if wanted > MAX_SIZE:
            raise NoValue(f"an object of more than {MAX_SIZE} names")
        closed = self._closed(view)
        if len(names) < wanted:
            extra = [name for name in view.declared() if name not in names and name not in left_out]
            if view.sends_others(closed):
                extra += [name for name in _FRESH_NAMES if name not in extra]
            for name in extra:
                if len(names) >= wanted:
                    break
                if view.sends(name, closed):
                    names.append(name)
            if len(names) < wanted:
                raise NoValue("too few names for minProperties")
        built: dict[str, Any] = {}
        for name in names:
            built[name] = given[name] if name in given else self.minimal(view.property(name), depth + 1)
        return built

    def fresh_name(self, view: View, avoid: Callable[[str], bool]) -> str | None:
        """A name ``view`` does not declare and would take, for which ``avoid`` is false."""
        declared = set(view.declared())
        closed = self._closed(view)
        for name in _FRESH_NAMES:
            if name not in declared and view.sends(name, closed) and not avoid(name):
                return name
        return None


def dependents(view: View, name: str) -> list[str]:
    """The names ``dependentRequired`` (or draft-07's ``dependencies``) wants beside ``name``."""
    found: list[str] = []
    for keyword in ("dependentRequired", "dependencies"):
        for value, _ in view.values_of(keyword):
            wanted = value.get(name) if isinstance(value, dict) else None
            if isinstance(wanted, list):
                found.extend(item for item in wanted if isinstance(item, str))
    return found
