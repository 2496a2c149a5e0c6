"""A tool's first calls answered yes or no from its vouched snapshot, before anything is compiled.

A registry compiles a schema the quick check vouched for (see ``quick``) at its tool's first call, and
compiling costs several times what checking one call does. Most first calls are valid, and a valid
call's answer is ``Ok`` whatever the errors would have said: :class:`Glance` reads the snapshot
directly, each keyword by its row's ``accepts``, and answers. It answers only where it is sure to
say what the reference walk would: a schema whose every keyword then has an ``accepts`` (in
draft-07 and 2019-09 the vouched keywords mean what they mean in 2020-12, but that draft-07 reads a
``$ref`` alone), which the work bound (see ``work``) shows can never run out of its work budget, and
an instance of plain JSON within ``max_depth``. Anywhere else, and for every invalid call that needs
its errors, it says nothing and the validator compiles as before.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from ..keywords.scalars import JSON_TYPES
from ..limits import DEFAULT_LIMITS, WORK_PER_VALUE, Limits
from ..regex import CostlySearch, Pattern, Patterns
from ..room import ROOMY_VALUES, with_room
from ..schema import guarded_pattern
from ..sites import Accepts
from ..values import ValueKeys, snapshot, survey
from ..vocabulary import DEFAULT_DIALECT, DIALECTS, keywords
from .quick import PatternGuard, Vouched, ref_location, schema_at, vouch
from .work import snapshot_within_allowance

__all__ = ["Glance", "glance_of"]


def _exact_types(name: str) -> frozenset[type]:
    """The built-in types of the values of JSON type ``name`` (every one, for the types keywords speak
    to: object, array, string, number), so that a plain JSON value's type tells in one lookup."""
    samples: tuple[object, ...] = ({}, [], "", 0, 0.5, True, None)
    return frozenset(type(sample) for sample in samples if JSON_TYPES[name](sample))


# Each keyword with an answer of its own (its speed group's ``accepts``): the types of the values it
# speaks to (None: every value), and its answer. The rest of a vouched schema's keys are annotations and
# $defs, which ask nothing; a keyword with no speed group is never in a vouched schema.
_ANSWERS: dict[str, tuple[frozenset[type] | None, Accepts]] = {
    name: (None if row.instance_type is None else _exact_types(row.instance_type), row.speed.accepts)
    for name, row in keywords(DEFAULT_DIALECT).items()
    if row.speed is not None and row.speed.accepts is not None
}


class Glance:
    """The yes/no answers of one vouched snapshot ``root``, for its validator's first calls."""

    __slots__ = (
        "_root",
        "_limits",
        "_pattern_and_risk",
        "_asserts_formats",
        "_targets",
        "_made",
        "_sure",
        "_refs_alone",
        "_work",
    )

    def __init__(
        self,
        root: Any,
        limits: Limits,
        pattern_and_risk: PatternGuard,
        asserts_formats: bool,
        vouched: Vouched,
    ) -> None:
        self._root, self._limits = root, limits
        # What the quick check found each value may cost, where it could tell (see Vouched).
        self._work = vouched.work
        self._pattern_and_risk, self._asserts_formats = pattern_and_risk, asserts_formats
        self._targets: dict[str, Any] = {}
        # What keywords work out once from their values, by the identity of the value in the snapshot.
        self._made: dict[int, Any] = {}
        # Whether it may answer at all, worked out at its first call (None until then); and whether a
        # $ref stands alone, its siblings ignored, as in draft-07.
        self._sure: bool | None = None
        self._refs_alone = False

    @property
    def answers(self) -> bool:
        """False once it knows it can never answer for this schema."""
        return self._sure is not False

    def verdict(self, instance: Any) -> tuple[bool | None, int]:
        """Whether ``instance`` is valid, or None where the reference walk must say; and how many values
        ``instance`` holds."""
        problems, values, exact = survey(instance, self._limits.max_depth)
        if problems or not exact:
            return None, values
        try:
            if not self.may_answer():
                return None, values
            if values >= ROOMY_VALUES:
                # Where its loops sit is the instance's to choose: away from a chunk's end (room.py).
                return with_room(functools.partial(_Reading(self).fits, self._root, instance)), values
            return _Reading(self).fits(self._root, instance), values
        except (RecursionError, RuntimeError, LookupError, CostlySearch):
            # A caller deep in its own stack, another thread changing a container as we read it, or
            # a search of a text so long that the walk counts its steps.
            return None, values

    def may_answer(self) -> bool:
        """Whether it answers at all: where the work bound shows no instance can run out of the budget."""
        sure = self._sure
        if sure is None:
            root = self._root
            declared = root.get("$schema") if type(root) is dict else None
            # The quick check vouched for the schema in the dialect it declares, so this is known.
            dialect = DEFAULT_DIALECT if declared is None else DIALECTS[declared]
            self._refs_alone = dialect == "draft-07"
            work = self._work
            sure = self._sure = (work is not None and work <= WORK_PER_VALUE) or snapshot_within_allowance(
                root, self.target
            )
        return sure

    def target(self, ref: str) -> Any:
        found = self._targets.get(ref)
        if found is None:
            location = ref_location(self._root, ref)
            assert location is not None, "vouch follows every $ref"
            found = self._targets[ref] = schema_at(self._root, location)
        return found

    def remembered(self, value: Any, make: Callable[[Any], Any]) -> Any:
        found = self._made.get(id(value))
        if found is None:
            # Two threads may both make it: equal values, one kept.
            found = self._made[id(value)] = make(value)
        return found


def glance_of(schema: Any, limits: Limits = DEFAULT_LIMITS, asserts_formats: bool = False) -> Glance | None:
    """The glance a registry gives ``schema`` (from a snapshot of its own, its patterns compiled for it
    alone), or None where the quick check does not vouch for it and a registry compiles it at once:
    for the tests and the conformance suite, which hold its answers to the walk's."""
    patterns = Patterns(limits.max_pattern_program)

    def pattern_and_risk(source: str, room: int | None = None) -> tuple[Pattern, str | None]:
        return guarded_pattern(source, patterns, room)

    root = snapshot(schema, limits.max_schema_depth)
    vouched = vouch(root, limits, pattern_and_risk)
    return None if vouched is None else Glance(root, limits, pattern_and_risk, asserts_formats, vouched)


class _Reading:
    """One reading of one instance (see ``sites.Reading``), with its values' keys."""

    __slots__ = ("_glance", "asserts_formats", "keys", "_refs_alone")

    def __init__(self, glance: Glance) -> None:
        self._glance, self.asserts_formats = glance, glance._asserts_formats
        self._refs_alone = glance._refs_alone
        self.keys = ValueKeys()

    def fits(self, schema: Any, instance: Any) -> bool:
        # No deeper than the work bound followed the schema (see work), far within Python's stack.
        if type(schema) is bool:
            return schema
        if self._refs_alone and "$ref" in schema:
            return self.fits(self._glance.target(schema["$ref"]), instance)
        kind = type(instance)  # one of JSON's own: verdict surveyed the instance
        for keyword, value in schema.items():
            answer = _ANSWERS.get(keyword)
            if answer is None:
                continue
            speaks_to, accepts = answer
            if (speaks_to is None or kind in speaks_to) and not accepts(value, instance, schema, self):
                return False
        return True

    def target(self, ref: str) -> Any:
        return self._glance.target(ref)

    def pattern(self, source: str) -> Pattern:
        return self._glance._pattern_and_risk(source)[0]

    def remembered(self, value: Any, make: Callable[[Any], Any]) -> Any:
        return self._glance.remembered(value, make)
