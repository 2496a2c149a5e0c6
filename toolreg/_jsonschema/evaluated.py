"""What the subschemas applied to a value evaluate of it, for unevaluatedItems and unevaluatedProperties."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .errors import ValidationError
from .findings import Check, Evaluated, Findings, Place, noted

__all__ = ["Note", "collected", "annotating", "opened_for", "handed_on"]

# What a keyword notes as evaluated of the value its schema object is applied to, given its site:
# a function of the value, the notes and the errors (for the work budget).
Note = Callable[[Any, Evaluated, list[ValidationError]], None]


def collected(check: Check, *, hands_on: bool = True) -> Check:
    """The check of a subschema applied in place, in a schema that reads what is evaluated: when the
    schema around it collects notes for the value, the subschema's go to them if the value passes
    it (and ``hands_on``: ``not`` never does)."""

    def in_place(instance: Any, path: Place, errors: list[ValidationError]) -> None:
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


def annotating(checks: list[Check], notes: list[Note], last: list[Check], resource: str | None) -> Check:
    """The check of a schema object in a schema that reads what is evaluated: its keywords; then, when
    its value's notes are being collected, what its own keywords evaluate (the ``notes`` of their rows);
    then its unevaluatedItems and unevaluatedProperties, which read the notes it opened for them. The
    root of a schema resource enters it (``resource``), for $dynamicRef. (A function, not an object
    with ``__call__``, which would cost Python's recursion limit twice as much at each level.)"""

    def annotated(instance: Any, path: Place, errors: list[ValidationError]) -> None:
        # Every list is the validation's Findings here (the fast path hands these over with its own).
        findings = errors if isinstance(errors, Findings) else Findings.budget(0)
        opened, before = (opened_for(instance, findings) if last else None), len(errors)
        if resource is not None:
            findings.scope.append(resource)
        try:
            for check in checks:
                check(instance, path, errors)
            found = opened or noted(errors, instance)
            if found is not None:
                for note in notes:
                    note(instance, found, errors)
            for check in last:
                check(instance, path, errors)
        finally:
            if opened is not None:
                findings.notes.pop()
            if resource is not None:
                findings.scope.pop()
        if opened is not None:
            handed_on(opened, instance, errors, before)

    return annotated


def opened_for(instance: Any, findings: Findings) -> Evaluated | None:
    """The notes a schema object holding unevaluated* opens for its value, an array or an object, for
    its keywords and the subschemas applied in place to fill; None for any other value."""
    if not isinstance(instance, (dict, list)):
        return None
    opened = Evaluated(instance)
    findings.notes.append(opened)
    return opened


def handed_on(opened: Evaluated, instance: Any, errors: list[ValidationError], before: int) -> None:
    """What a schema object's notes hold, handed to the notes around it if its value passed it (no
    error after the first ``before``)."""
    if len(errors) == before:
        around = noted(errors, instance)
        if around is not None:
            around.take(opened)
