"""The comparison of two schemas: does every value one accepts fit the other?

A :class:`Comparison` asks it of two documents, *accepting* and *refusing*: for an input schema, the
old accepting and the new refusing finds what callers sent that will be refused (breaking); the other
way round, what the new schema lets in (widening); for an output schema, the roles swap. It walks both
schemas together from the root: at each place, the view of every schema object the accepting side
applies there (each choice of its ``anyOf``/``oneOf`` branches in turn) against each schema object of
the refusing side, keyword by keyword through a table of rules (``compare.RULES``). A rule either
proves that every accepting value keeps its keyword, or proposes a *candidate*: a value of the
accepting view that breaks it, built at the boundary that moved (``witness``), which the comparison
wraps up to a whole instance and the validator verifies before it is ever reported; or it says where
the proof stopped (:class:`Blocked`). Recursive schemas are compared coinductively (a pair of places
met again inside itself is assumed to hold), and the walk is bounded (:data:`MAX_STEPS`,
:data:`MAX_DEPTH`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from .._jsonschema.errors import ValidationError
from .documents import Declared, Document, View, alternatives, declared_only
from .schemas import Part, is_quiet, matches
from .witness import Builder, NoValue

__all__ = [
    "Token",
    "Candidate",
    "Blocked",
    "Outcome",
    "Rule",
    "RuleCheck",
    "Comparison",
    "Verified",
    "self_contained",
    "pointer_of",
    "property_pointer",
    "held_pointer",
    "shown",
    "MAX_LISTED",
    "MAX_BRANCHES",
]

Token = str | int
# Bounds on one comparison of two schemas.
MAX_STEPS = 2_000  # pairs of places compared
MAX_DEPTH = 48  # nesting of the instance
MAX_LISTED = 256  # an enum compared value by value
MAX_VERIFIED = 300  # candidates the validator verifies
MAX_BRANCHES = 8  # branches of an anyOf tried against one value


@dataclass(frozen=True)
class Candidate:
    """A value of the accepting view that may break a keyword of the refusing one, still to verify.

    ``note`` is for people, with ``{A}`` and ``{R}`` standing for the accepting and refusing schemas."""

    rule: str
    accepting_path: str | None
    refusing_path: str | None
    where: tuple[Token, ...]
    value: Any
    note: str


@dataclass(frozen=True)
class Blocked:
    """Where a proof stopped: the keyword, its pointers, and why."""

    keyword: str
    accepting_path: str | None
    refusing_path: str | None
    where: tuple[Token, ...]
    reason: str


@dataclass
class Outcome:
    """What comparing one place found: candidates to verify, and where the proof stopped."""

    candidates: list[Candidate] = field(default_factory=list)
    blocked: list[Blocked] = field(default_factory=list)

    @property
    def proved(self) -> bool:
        """Nothing was found and no proof stopped: the place is contained."""
        return not self.candidates and not self.blocked

    def add(self, other: Outcome) -> Outcome:
        """This outcome with ``other``'s candidates and stops added."""
        self.candidates.extend(other.candidates)
        self.blocked.extend(other.blocked)
        return self


@dataclass(frozen=True)
class Verified:
    """A candidate the validator confirmed: the accepting schema takes it, the refusing one does not
    (``errors``; empty when only the declared reading refuses it, a name the refusing schema does
    not declare)."""

    candidate: Candidate
    errors: tuple[ValidationError, ...]


RuleCheck = Callable[["Comparison", View, Part], Outcome]


@dataclass(frozen=True)
class Rule:
    """One keyword or family: the refusing side's keywords that set it off (``triggers``), all the
    keywords whose values decide it (``family``: equal values in an accepting schema object prove it
    at once), the type atoms it speaks to (None: every value), and its check."""

    name: str
    triggers: tuple[str, ...]
    family: tuple[str, ...]
    types: frozenset[str] | None
    check: RuleCheck


_FOLLOWED = frozenset({"$ref", "allOf", "$dynamicRef", "$recursiveRef"})
_REFERENCE_MARKS = ('"$ref"', '"$dynamicRef"', '"$recursiveRef"')


def self_contained(value: Any) -> bool:
    """Whether a schema value holds no reference, so equal values mean the same in both documents."""
    text = json.dumps(value)
    return not any(mark in text for mark in _REFERENCE_MARKS)


def pointer_of(view: View) -> str | None:
    """The pointer of the first schema object of ``view`` that has one."""
    return next((part.pointer for part in view.parts if part.pointer is not None), None)


def shown(value: Any) -> str:
    """A JSON value as a message quotes it: its text, cut after about 60 characters."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


class Comparison:
    """Whether every value of ``accepting`` fits ``refusing``, under a reading of callers.

    ``closed_accepting``: the accepting side's values hold only the names it declares (the declared
    reading); ``closed_refusing``: a name the refusing side does not declare counts as refused (for
    widening under the declared reading: a name callers may now send).
    """

    def __init__(
        self,
        accepting: Document,
        refusing: Document,
        *,
        rules: tuple[Rule, ...],
        closed_accepting: bool = False,
        closed_refusing: bool = False,
    ) -> None:
        self.accepting, self.refusing = accepting, refusing
        self.rules = rules
        # Keywords the rules read, and those the views follow themselves.
        self.handled = frozenset(keyword for rule in rules for keyword in rule.family) | _FOLLOWED
        self.closed_accepting, self.closed_refusing = closed_accepting, closed_refusing
        self.builder = Builder(self.closed)
        self.steps = 0
        self.depth = 0
        self._done: dict[Any, Outcome] = {}
        self._open: set[Any] = set()

    def closed(self, view: View) -> Declared:
        """The names a value of the accepting ``view`` may hold, under the reading (None: any)."""
        return view.document.declared_names(view.parts) if self.closed_accepting else None

    # -- the walk -------------------------------------------------------------------------------------

    def run(self) -> Outcome:
        """The outcome of comparing the two documents from their roots."""
        accepting = self.accepting.view([Part(self.accepting.root, "")])
        refusing = self.refusing.view([Part(self.refusing.root, "")])
        return self.contain(accepting, refusing, ())

    def contain(self, a: View, b: View, at: tuple[Token, ...]) -> Outcome:
        """Whether every value of ``a`` fits ``b``, at ``at`` below the place being compared: the
        outcome's places are relative to that place (each comparison of two places is made once)."""
        key = (
            tuple(part.pointer if part.pointer is not None else json.dumps(part.schema) for part in a.parts),
            a.choices,
            tuple(part.pointer for part in b.parts),
        )
        if key in self._done:
            return _moved(self._done[key], at)
        if key in self._open:  # a recursive schema: what is being proved is assumed below
            return Outcome()
        self.steps += 1
        if self.steps > MAX_STEPS:
            if self.steps > MAX_STEPS + 1:  # said once: the proof stopped there
                return Outcome()
            reason = f"the comparison's work budget ran out ({MAX_STEPS} pairs of places)"
            return Outcome(blocked=[Blocked(_first_keyword(b), pointer_of(a), pointer_of(b), at, reason)])
        if self.depth >= MAX_DEPTH:
            reason = f"nested more than {MAX_DEPTH} levels deep"
            return Outcome(blocked=[Blocked(_first_keyword(b), pointer_of(a), pointer_of(b), at, reason)])
        self._open.add(key)
        self.depth += 1
        try:
            outcome = self._contain(a, b)
        finally:
            self._open.discard(key)
            self.depth -= 1
        self._done[key] = outcome
        return _moved(outcome, at)

    def _contain(self, a: View, b: View) -> Outcome:
        outcome = Outcome()
        for stop in b.stops:
            outcome.blocked.append(Blocked(stop.keyword, pointer_of(a), stop.pointer, (), stop.reason))
        if a.refuses_all or (b.accepts_all and not self.closed_refusing):
            return outcome
        if _same(a, b):
            return outcome
        options, stops = alternatives(a)
        for stop in stops:
            outcome.blocked.append(Blocked(stop.keyword, stop.pointer, pointer_of(b), (), stop.reason))
        for option in options:
            outcome.add(self._contain_one(option, b))
        return outcome

    def _contain_one(self, a: View, b: View) -> Outcome:
        listed = a.listed()
        if listed is not None and len(listed) <= MAX_LISTED:
            return self._listed(a, b, listed)
        types = a.types()
        outcome = Outcome()
        if not types:
            return outcome
        for part in b.parts:
            if part.schema is False:
                keyword = _keyword_at(part.pointer, self.handled)
                outcome.add(self.propose(a, part.pointer, "{R} refuses every value here", rule=keyword))
                continue
            if not isinstance(part.schema, dict):
                continue
            for rule in self.rules:
                if not any(keyword in part.schema for keyword in rule.triggers):
                    continue
                if rule.types is not None and not (rule.types & types):
                    continue
                if _family_held(a, part, rule.family, b.document):
                    continue
                outcome.add(rule.check(self, a, part))
            for keyword in part.schema:
                if keyword not in self.handled and not is_quiet(keyword):
                    reason = f"the comparison has no rule for {keyword!r}"
                    outcome.blocked.append(Blocked(keyword, pointer_of(a), part.at(keyword), (), reason))
        if self.closed_refusing and "object" in types:
            outcome.add(_newly_declared(self, a, b))
        return outcome

    def _listed(self, a: View, b: View, listed: list[Any]) -> Outcome:
        """An accepting view of listed values (``enum``, ``const``): each one asked of the refusing view."""
        outcome = Outcome()
        source = next(
            (part.at(keyword) for keyword in ("enum", "const") for _, part in a.values_of(keyword)), None
        )
        for value in listed:
            if a.accepts(value) is False:
                continue
            for part in b.parts:
                errors = b.document.errors(part, value)
                if errors is None:
                    reason = "a listed value could not be checked"
                    outcome.blocked.append(Blocked("enum", source, part.pointer, (), reason))
                elif errors:
                    first = errors[0]
                    note = f"{{R}} refuses {shown(value)}, which {{A}} lists ({first.keyword})"
                    outcome.candidates.append(
                        Candidate(first.keyword, source, first.schema_path, (), value, note)
                    )
                    break
        return outcome

    # -- helpers the rules share ----------------------------------------------------------------------

    def propose(
        self,
        a: View,
        refusing_path: str | None,
        note: str,
        *,
        rule: str,
        build: Callable[[], Any] | None = None,
        accepting_path: str | None = None,
        where: tuple[Token, ...] = (),
    ) -> Outcome:
        """A candidate value of ``a`` for this place from ``build`` (else ``a``'s minimal value),
        whose finding stands at ``where`` below it; where none can be built, a blocked proof (or
        nothing, when no value exists)."""
        accepting_path = accepting_path or held_pointer(a, rule)
        try:
            value = build() if build is not None else self.builder.minimal(a)
        except NoValue as error:
            if error.certain:
                return Outcome()
            return Outcome(blocked=[Blocked(rule, accepting_path, refusing_path, where, error.reason)])
        return Outcome([Candidate(rule, accepting_path, refusing_path, where, value, note)])

    def child(self, document: Document, schema: Any, pointer: str | None) -> View:
        """The view of one schema object of ``document`` and those it applies in place."""
        return document.view([Part(schema, pointer)])

    # -- verification ---------------------------------------------------------------------------------

    def verify(self, value: Any) -> tuple[ValidationError, ...] | None:
        """The refusing side's errors on a whole instance the accepting side takes (under the reading),
        or None when it is no witness."""
        try:
            if self.accepting.validator.validate_reference(value):
                return None
            if self.closed_accepting and not declared_only(value, self.accepting):
                return None
            errors = self.refusing.validator.validate_reference(value)
        except (RecursionError, ValueError):  # pragma: no cover - a witness the validator cannot take
            return None
        if errors:
            return tuple(errors)
        if self.closed_refusing and not declared_only(value, self.refusing):
            return ()
        return None

    def findings(self, outcome: Outcome) -> tuple[list[Verified], list[Blocked]]:
        """Each group of candidates (one rule at one pair of pointers) with its first verified
        witness; a group with none becomes a blocked proof of its keyword."""
        verified: list[Verified] = []
        blocked = list(outcome.blocked)
        groups: dict[tuple[str, str | None, str | None], list[Candidate]] = {}
        for candidate in outcome.candidates:
            groups.setdefault((candidate.rule, candidate.accepting_path, candidate.refusing_path), []).append(
                candidate
            )
        budget = MAX_VERIFIED
        for (rule, accepting_path, refusing_path), candidates in groups.items():
            if budget <= 0:  # the rest stay unverified: one stop says so
                reason = f"more candidates than the comparison verifies ({MAX_VERIFIED})"
                blocked.append(Blocked(rule, accepting_path, refusing_path, candidates[0].where, reason))
                break
            found = None
            for candidate in candidates[:budget]:
                budget -= 1
                errors = self.verify(candidate.value)
                if errors is not None:
                    found = Verified(candidate, errors)
                    break
            if found is not None:
                verified.append(found)
            else:
                reason = "{R} may refuse values here, but no witness was verified"
                blocked.append(Blocked(rule, accepting_path, refusing_path, candidates[0].where, reason))
        return verified, _unique_blocked(blocked)


def _moved(outcome: Outcome, where: tuple[Token, ...]) -> Outcome:
    """``outcome`` with every place relative to ``where``: a place a stored outcome is reused at."""
    if not where:
        return Outcome(list(outcome.candidates), list(outcome.blocked))
    return Outcome(
        [replace(candidate, where=where + candidate.where) for candidate in outcome.candidates],
        [replace(block, where=where + block.where) for block in outcome.blocked],
    )


def _unique_blocked(blocked: list[Blocked]) -> list[Blocked]:
    seen: dict[tuple[str, str | None], Blocked] = {}
    for block in blocked:
        seen.setdefault((block.keyword, block.refusing_path), block)
    return list(seen.values())


def _same(a: View, b: View) -> bool:
    """Both views are the same schema objects, JSON-equal and free of references."""
    if len(a.parts) != len(b.parts) or a.choices:
        return False
    left_document, right_document = a.document, b.document
    return all(
        left_document.key(left.schema) == right_document.key(right.schema)
        and left_document.contained(left.schema)
        for left, right in zip(a.parts, b.parts, strict=True)
    )


def _family_held(a: View, part: Part, family: tuple[str, ...], document: Document) -> bool:
    """Whether a schema object of ``a`` holds the same values for every keyword of the family."""
    wanted = {keyword: part.schema[keyword] for keyword in family if keyword in part.schema}
    if not document.contained(wanted):  # a reference may lead elsewhere in each document
        return False
    for other in a.parts:
        if not isinstance(other.schema, dict) or other.schema.keys() & family != wanted.keys():
            continue
        if all(
            a.document.key(other.schema[keyword]) == document.key(value) for keyword, value in wanted.items()
        ):
            return True
    return False


def _first_keyword(view: View) -> str:
    for part in view.parts:
        if isinstance(part.schema, dict):
            for keyword in part.schema:
                if not is_quiet(keyword):
                    return str(keyword)
    return "$ref"


def _keyword_at(pointer: str | None, keywords: frozenset[str]) -> str:
    """The keyword a pointer ends in (skipping names and indices): ``/properties/a`` is ``properties``."""
    tokens = (pointer or "").split("/")
    for token in reversed(tokens):
        if token in keywords:
            return token
    return "false"


def _newly_declared(comparison: Comparison, a: View, b: View) -> Outcome:
    """Under the declared reading, the other way: names the accepting side declares that the refusing
    side does not (a name callers may now send)."""
    declared = b.document.declared_names(b.parts)
    if declared is None:
        return Outcome()
    names, patterns = declared
    closed = comparison.closed(a)
    outcome = Outcome()
    for name in a.declared():
        if name in names or not a.sends(name, closed) or any(matches(pattern, name) for pattern in patterns):
            continue
        note = f"{{A}} declares {shown(name)}, which {{R}} does not"

        def build(name: str = name) -> Any:
            return comparison.builder.object(a, values={name: comparison.builder.minimal(a.property(name))})

        accepting_path = property_pointer(a, name)
        outcome.add(
            comparison.propose(
                a,
                pointer_of(b),
                note,
                rule="properties",
                build=build,
                accepting_path=accepting_path,
                where=(name,),
            )
        )
    return outcome


def held_pointer(a: View, *keywords: str) -> str | None:
    """The pointer of the first of ``keywords`` a schema object of ``a`` holds, else of ``a`` itself:
    where the old bound was."""
    for keyword in keywords:
        for _, part in a.values_of(keyword):
            if part.pointer is not None:
                return part.at(keyword)
    return pointer_of(a)


def property_pointer(a: View, name: str) -> str | None:
    """The pointer of ``name`` in the first ``properties`` of ``a`` that declares it, else of ``a``."""
    for value, part in a.values_of("properties"):
        if isinstance(value, dict) and name in value:
            return part.at("properties", name)
    return pointer_of(a)
