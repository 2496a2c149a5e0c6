"""The oracles: jsonschema, changed only where it departs from the spec, and jsonschema-rs for verdicts.

Every change to jsonschema is one small function here, listed in ``DIVERGENCES`` and explained in
"Known divergences from jsonschema" in docs/conformance.md.
"""

from __future__ import annotations

import math
import pickle
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

import jsonschema
import jsonschema_rs
import regress
from jsonschema.exceptions import ValidationError as OracleError
from jsonschema.exceptions import best_match

from toolreg._jsonschema.pointer import to_pointer

from ._official import ONE_SCHEMA, SCHEMA_ARRAY, SCHEMA_OBJECT, keywords_used
from ._references import anchor_grammar, declared_anchors

__all__ = [
    "Finding",
    "adjusted",
    "exact_key",
    "DIVERGENCES",
    "Oracle",
    "oracle_classes",
    "Oracles",
    "OraclesBySchema",
    "SchemaRefusal",
    "finding",
    "non_finite_places",
    "locate_false_subschemas",
    "root_in_dynamic_scope",
]


@dataclass(frozen=True, order=True)
class Finding:
    """One top-level error as the comparison sees it; ``schema_path`` is None where a side has none."""

    path: str
    keyword: str
    schema_path: str | None = None


@cache
def _ecma_regex(pattern: str) -> regress.Regex:
    return regress.Regex(pattern, "u")


def ecma_pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[OracleError]:
    """Divergence 1: ``pattern`` is an ECMA-262 regular expression, searched (JSON Schema Validation §6.3.3).

    jsonschema hands patterns to Python's ``re``, where ``\\d`` matches any Unicode digit and ``$``
    matches before a final newline.
    """
    if validator.is_type(instance, "string") and _ecma_regex(pattern).find(instance) is None:
        yield OracleError(f"{instance!r} does not match {pattern!r}")


def non_finite_places(instance: Any, path: tuple[str | int, ...] = ()) -> Iterator[str]:
    """Divergence 2: NaN and infinities are not JSON numbers (RFC 8259 §6), so no schema can accept them.

    jsonschema treats ``float("nan")`` as a number that passes every numeric keyword. toolreg answers a
    value that is not JSON with one ``json`` error at its pointer, and nothing else.
    """
    if isinstance(instance, float) and not math.isfinite(instance):
        yield to_pointer(path)
    elif isinstance(instance, list):
        for index, item in enumerate(instance):
            yield from non_finite_places(item, path + (index,))
    elif isinstance(instance, dict):
        for key, item in instance.items():
            yield from non_finite_places(item, path + (key,))


def _exact(number: int | float) -> Fraction:
    return Fraction(number) if isinstance(number, int) else Fraction(repr(number))


def exact_multiple_of(validator: Any, divisor: Any, instance: Any, schema: Any) -> Iterator[OracleError]:
    """Divergence 4: ``multipleOf`` divides the numbers the JSON text means, exactly (Validation §6.2.1).

    jsonschema divides binary floats, so ``133002.30000000002`` passes ``multipleOf: 0.1`` (the
    quotient rounds to an integer) and ``0.07`` fails ``multipleOf: 0.01``. ``repr`` gives the shortest
    decimal that reads back as the same float: the number the JSON text wrote.
    """
    if validator.is_type(instance, "number") and (_exact(instance) / _exact(divisor)).denominator != 1:
        yield OracleError(f"{instance!r} is not a multiple of {divisor!r}")


# The marker that stands in for a false subschema, so that jsonschema keeps its location.
FALSE_MARK = "conformance: this schema was false"
# Keywords for which jsonschema reports a false value as one error at the container, as toolreg does.
_ONE_ERROR_WHEN_FALSE = frozenset({"items", "additionalProperties"})


def locate_false_subschemas(schema: Any) -> Any:
    """Divergence 3: an error from a ``false`` subschema is located where that subschema applies.

    jsonschema's ``descend`` yields the error of a false subschema before it records the path, so
    ``{"properties": {"a": false}}`` against ``{"a": 1}`` is reported at ``""`` rather than ``/a``
    (the spec locates it at ``/a``: Core §12.3.3, and jsonschema-rs agrees). The oracle sees each
    such ``false`` as ``{"not": {}}`` with a marker, and turns its errors back into ``false`` ones.
    """
    if schema is False:
        return {"not": {}, "$comment": FALSE_MARK}
    if not isinstance(schema, dict):
        return schema
    located: dict[str, Any] = {}
    for keyword, value in schema.items():
        if keyword in ONE_SCHEMA and not (value is False and keyword in _ONE_ERROR_WHEN_FALSE):
            located[keyword] = locate_false_subschemas(value)
        elif keyword in SCHEMA_ARRAY and isinstance(value, list):
            located[keyword] = [locate_false_subschemas(item) for item in value]
        elif keyword in SCHEMA_OBJECT and isinstance(value, dict):
            located[keyword] = {name: locate_false_subschemas(item) for name, item in value.items()}
        else:
            located[keyword] = value
    return located


def rs_divides_floats(instance: Any) -> bool:
    """jsonschema-rs's one divergence: ``multipleOf`` on a float divides in binary floating point.

    ``1.844674407370955e+20`` is not a multiple of ``2**64`` as decimals (the quotient is
    10.000000000000002…), yet jsonschema-rs calls it valid. Its verdict is not asked for
    instances holding a float under a schema with ``multipleOf``; jsonschema, adjusted, still is.
    """
    if isinstance(instance, float):
        return True
    if isinstance(instance, list):
        return any(rs_divides_floats(item) for item in instance)
    if isinstance(instance, dict):
        return any(rs_divides_floats(item) for item in instance.values())
    return False


def ecma_pattern_properties(
    validator: Any, patterns: Any, instance: Any, schema: Any
) -> Iterator[OracleError]:
    """Divergence 1 again: ``patternProperties`` searches names with ECMA-262 patterns."""
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in patterns.items():
        for name, value in instance.items():
            if _ecma_regex(pattern).find(name) is not None:
                yield from validator.descend(value, subschema, path=name, schema_path=pattern)


def ecma_additional_properties(
    validator: Any, extra: Any, instance: Any, schema: Any
) -> Iterator[OracleError]:
    """Divergence 1 again: the names ``additionalProperties`` applies to are those no
    ``patternProperties`` pattern finds, searched as ECMA-262 does."""
    if not validator.is_type(instance, "object"):
        return
    named, patterns = schema.get("properties", {}), schema.get("patternProperties", {})
    extras = [
        name
        for name in instance
        if name not in named and not any(_ecma_regex(pattern).find(name) is not None for pattern in patterns)
    ]
    if extra is False:
        if extras:
            yield OracleError(f"Additional properties are not allowed ({extras!r} were unexpected)")
        return
    for name in extras:
        yield from validator.descend(instance[name], extra, path=name)


def every_contains_bound(validator: Any, contains: Any, instance: Any, schema: Any) -> Iterator[OracleError]:
    """Divergence 4: every error, as everywhere. jsonschema stops at "too many" when ``minContains``
    exceeds ``maxContains``; the array breaks both bounds, so both are reported."""
    errors = list(jsonschema._keywords.contains(validator, contains, instance, schema))
    yield from errors
    if any(error.validator == "maxContains" for error in errors):
        matching = sum(validator.evolve(schema=contains).is_valid(item) for item in instance)
        if matching < schema.get("minContains", 1):
            yield OracleError(f"too few items match {contains!r}", validator="minContains")


# The base URI the oracle gives a root without "$id" (see root_in_dynamic_scope).
ROOT_BASE = "https://conformance.invalid/root.json"


def root_in_dynamic_scope(schema: Any) -> Any:
    """Divergence 6: the root is the first resource of the dynamic scope, with or without ``$id``.

    Every evaluation starts in the root's resource (Core §7.1, §8.2.3.2: the scope is each schema
    resource entered on the way), and a root without ``$id`` is a resource with the retrieval URI as
    its base. jsonschema leaves such a root out of the scope, so its ``$dynamicAnchor`` is never the
    outermost: 2020-12's strict tree without ``$id`` accepts ``{"children": [{"daat": 1}]}``
    (jsonschema-rs refuses it, as the spec's example means). The oracle gives that root a base URI of
    its own, which leaves every relative reference resolving to the same resource as before.
    """
    if not isinstance(schema, dict) or "$id" in schema or "$dynamicRef" not in keywords_used(schema):
        return schema
    return {"$id": ROOT_BASE, **schema}


DIVERGENCES = {
    "contains": every_contains_bound,
    "pattern": ecma_pattern,
    "patternProperties": ecma_pattern_properties,
    "additionalProperties": ecma_additional_properties,
    "multipleOf": exact_multiple_of,
}

# Each dialect's jsonschema validator with the divergences; a schema names its dialect in "$schema".
_ORACLES = {
    dialect: jsonschema.validators.extend(dialect, DIVERGENCES)
    for dialect in (
        jsonschema.Draft202012Validator,
        jsonschema.Draft201909Validator,
        jsonschema.Draft7Validator,
    )
}
# The 2020-12 one, public to the tests, which plant bugs in copies of it.
Oracle = _ORACLES[jsonschema.Draft202012Validator]


def oracle_classes() -> dict[Any, Any]:
    """Each dialect's adjusted jsonschema validator class, by jsonschema's own class for the dialect
    (what ``jsonschema.validators.validator_for`` gives): for the tests, which plant bugs in them."""
    return dict(_ORACLES)


def finding(error: OracleError) -> Finding:
    """One of jsonschema's errors as the comparison sees it."""
    keyword, schema_path = error.validator, list(error.absolute_schema_path)
    if keyword == "not" and isinstance(error.schema, dict) and error.schema.get("$comment") == FALSE_MARK:
        keyword, schema_path = "false", schema_path[:-1]
    # The root schema false has no keyword: jsonschema leaves ``validator`` unset; toolreg says "false".
    return Finding(to_pointer(error.absolute_path), keyword or "false", to_pointer(schema_path))


def adjusted(schema: Any) -> Any:
    """The schema as the jsonschema oracle reads it: its false subschemas located, its root in the
    dynamic scope (divergences 3 and 6)."""
    return root_in_dynamic_scope(locate_false_subschemas(schema))


@dataclass(frozen=True)
class SchemaRefusal:
    """What the oracles say of a schema one of them finds invalid against its dialect's meta-schema:
    jsonschema's reason and where (a pointer into the schema), or None where it accepts the schema or
    was not asked; and whether jsonschema-rs accepts it."""

    where: str | None
    reason: str | None
    second_accepts: bool

    @property
    def both(self) -> bool:
        """Both oracles refuse the schema."""
        return self.reason is not None and not self.second_accepts


@cache
def _meta_validator(dialect: Any) -> Any:
    return dialect(dialect.META_SCHEMA)


def _schema_refusal(dialect: Any, schema: Any) -> SchemaRefusal | None:
    """None when the schema is valid. jsonschema-rs's meta-schema check is asked of every schema;
    jsonschema's, a hundred times slower on a large schema, where jsonschema-rs refuses the schema
    or it declares an anchor one dialect's grammar allows and another does not."""
    second_accepts = bool(jsonschema_rs.meta.is_valid(schema))
    if second_accepts and all(anchor_grammar(name) == "both" for name in declared_anchors(schema)):
        return None
    problem = best_match(_meta_validator(dialect).iter_errors(schema))
    if problem is None and second_accepts:
        return None
    where = None if problem is None else to_pointer(problem.absolute_path)
    return SchemaRefusal(where, None if problem is None else problem.message, second_accepts)


def exact_key(value: Any) -> bytes | None:
    """A key equal for two values exactly when they are the same value written the same way: the same
    types (``1``, ``1.0`` and ``True`` apart, ``-0.0`` apart from ``0.0``, a list apart from a tuple),
    the same names in the same order; None for a value that cannot be keyed so. An implementation and
    the oracles answer two values with equal keys alike, so a judgement can be found by it."""
    try:
        return pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # a value holding something pickle refuses: it is judged each time it comes
        return None


class Oracles:
    """Both oracles, built once for a schema; ``refusal`` says whether either finds it invalid."""

    def __init__(self, schema: Any) -> None:
        dialect = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
        self.refusal = _schema_refusal(dialect, schema)
        # Every keyword the schema uses, asked for at each instance judged.
        self.keywords = frozenset(keywords_used(schema))
        self._divides = "multipleOf" in self.keywords
        # Each instance judged, by its exact key, with the findings and jsonschema-rs's verdict: a run
        # asks for the findings twice, to compare and to count, Hypothesis draws most schemas and
        # their instances again and again (three in four instances of the default run are ones drawn
        # before), tests judge the same draws against several implementations, and jsonschema's
        # evaluation is most of the judging's cost. The instance asked about last is kept with its
        # key, so that asking again about the same object costs nothing.
        self._found: dict[bytes, list[Finding]] = {}
        self._second: dict[bytes, bool | None] = {}
        self._last: tuple[Any, bytes | None] | None = None
        if self.refusal is not None:
            return  # there are no instances to judge
        self._jsonschema = _ORACLES[dialect](adjusted(schema))
        self._jsonschema_rs = jsonschema_rs.validator_for(schema)

    def _key(self, instance: Any) -> bytes | None:
        last = self._last
        if last is not None and last[0] is instance:
            return last[1]
        key = exact_key(instance)
        self._last = (instance, key)
        return key

    def findings(self, instance: Any) -> list[Finding]:
        """The top-level errors of the adjusted jsonschema (none for a schema it refuses)."""
        if self.refusal is not None:
            return []
        key = self._key(instance)
        found = None if key is None else self._found.get(key)
        if found is None:
            places = list(non_finite_places(instance))
            if places:
                found = [Finding(place, "json", "") for place in places]
            else:
                found = [finding(error) for error in self._jsonschema.iter_errors(instance)]
            if key is not None:
                self._found[key] = found
        return list(found)

    def second_verdict(self, instance: Any) -> bool | None:
        """jsonschema-rs's verdict, from an independent ECMA-262 engine; None where it has no say.

        It has none on values that are not JSON, nor where it divides binary floats (see
        :func:`rs_divides_floats`).
        """
        if self.refusal is not None:
            return None
        key = self._key(instance)
        if key is not None and key in self._second:
            return self._second[key]
        verdict: bool | None = None
        not_json = next(non_finite_places(instance), None) is not None
        if not not_json and not (self._divides and rs_divides_floats(instance)):
            verdict = bool(self._jsonschema_rs.is_valid(instance))
        if key is not None:
            self._second[key] = verdict
        return verdict


class OraclesBySchema:
    """The oracles of each schema asked about, built once and shared by every schema equal to it (by
    :func:`exact_key`), with what they found: Hypothesis draws most schemas again and again (the
    default run's 16,341 hold 3,607 distinct ones). The ``most`` schemas asked about last are kept."""

    def __init__(self, most: int = 1024) -> None:
        self._most = most
        self._built: dict[bytes, Oracles] = {}

    def __call__(self, schema: Any) -> Oracles:
        key = exact_key(schema)
        if key is None:
            return Oracles(schema)
        oracles = self._built.pop(key, None)
        if oracles is None:
            oracles = Oracles(schema)
            if len(self._built) >= self._most:
                del self._built[next(iter(self._built))]
        self._built[key] = oracles  # the last asked about comes last
        return oracles
