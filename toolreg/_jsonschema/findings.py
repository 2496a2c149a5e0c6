"""The errors of one validation, and what it shares with every branch: the work budget, the notes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from .errors import ValidationError, trusted_error
from .limits import WORK_PER_VALUE, Limits, budget, values_at_a_glance
from .pointer import Place, Token
from .values import ValueKeys, survey

__all__ = [
    "Check",
    "Path",
    "Place",
    "no_check",
    "OverBudget",
    "Memo",
    "Findings",
    "Failed",
    "Verdict",
    "run_branch",
    "FAILED",
    "spend",
    "spent",
    "scratch",
    "Evaluated",
    "noted",
]

# A location in a schema, as its tokens (an instance's places are ``pointer.Place``).
Path = tuple[Token, ...]
# A check looks at one instance value at the place ``path`` and appends what is wrong to the list.
Check = Callable[[Any, Place, list[ValidationError]], None]


def no_check(instance: Any, path: Place, errors: list[ValidationError]) -> None:
    return None


class OverBudget(Exception):
    """One validation took more steps of work than ``Limits.max_work`` and the allowance for each
    value give it (see ``Limits``)."""


class Memo:
    """What one validation remembers of its instance, made when first needed: how deep each array
    and object the fast path found plain JSON nests, by identity (see ``fast.runtime.plain_json``), the
    keys of its values (see ``values.ValueKeys``), and whether each long string is a valid instance of
    each format asserted on it, by identity and format (see ``keywords.scalars``), so that none is
    worked out twice."""

    __slots__ = ("plain", "keys", "formats")

    def __init__(self) -> None:
        self.plain: dict[int, int] = {}
        self.keys = ValueKeys()
        self.formats: dict[tuple[int, str], bool] = {}


class Findings(list[ValidationError]):
    """The errors of one validation, and what it shares with every list of branch errors made from
    it: ``left``, the steps left of its work budget, what the instance may still earn, and its
    :class:`Memo`; the resources entered and the notes taken.

    The fast path starts with the budget its values known at a glance earn (see
    ``limits.values_at_a_glance``), with the instance and limits to count the rest by, once, when
    that is spent (see ``spent``).
    """

    __slots__ = ("left", "scope", "notes")
    # Whether the walk is traced for the standard output, which reads every branch of anyOf (see
    # ``output.recording``).
    traces: ClassVar[bool] = False
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
    child: Check, instance: Any, path: Place, errors: list[ValidationError]
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
    Each schema object notes what its own keywords evaluate (the ``notes`` of their rows).
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
