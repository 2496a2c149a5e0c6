"""The record of one evaluation: the reference walk's checks, compiled once more with each schema
object's check traced (see ``schema.traced_walk``), applied to one value. Each schema object and
keyword the walk applies leaves a unit (evaluation path, absolute location, place in the instance,
verdict, messages, annotation), counted in the bytes it will take as output; its verdicts and errors
are the walk's own, so the output says what ``validate`` says."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

from ..compiled import Compiled
from ..errors import ValidationError, writable
from ..evaluated import Note, handed_on, opened_for
from ..findings import Check, Findings, Path, Place, noted, spend
from ..pointer import Document, escape, to_pointer
from ..schema import traced_walk
from ..vocabulary import ANNOTATIONS

__all__ = ["NOTHING", "UNIT_BYTES", "TooLarge", "Trail", "Unit", "evaluate", "text_bytes", "trail_text"]

# Annotation keywords whose value is the annotation: the rest of ANNOTATIONS name the dialect or
# are remarks for the reader of the schema ($comment), which the specification keeps out of output.
_VALUE_ANNOTATIONS = frozenset(ANNOTATIONS) - {"$schema", "$comment", "example", "discriminator"}

# The keywords whose subschema is another schema object's, reached by reference: the units below
# them go on along the keyword's own evaluation path.
_REFERENCES = frozenset(("$ref", "$dynamicRef", "$recursiveRef"))
NOTHING = object()

# What one unit of the output costs as JSON text beyond its strings, at most: its keys and punctuation
# in every format (``{"valid": false, "keywordLocation": …, "absoluteKeywordLocation": …,
# "instanceLocation": …, "error": …}``, 118 characters, and the list around it), so that the count of
# each unit's strings and this is at least the length of ``json.dumps`` of any format's output.
UNIT_BYTES = 160
# The JSON text of a string, as ``json.dumps`` writes it by default (ASCII, with escapes).
_json_string = json.encoder.encode_basestring_ascii


class TooLarge(Exception):
    """An output past ``Limits.max_output_bytes``: it was not written."""


def text_bytes(text: str) -> int:
    """How long ``text`` is inside a JSON string, as ``json.dumps`` writes it (without the quotes)."""
    return len(_json_string(text)) - 2


# An evaluation path, shared as instance places are (see ``pointer.Place``): ``()`` is the root, ``(parent,
# segment, size)`` one segment below, ``size`` being the JSON length of the whole path written out.
Trail = tuple[()] | tuple["Trail", str, int]


def _below(trail: Trail, segment: str) -> Trail:
    return (trail, segment, (trail[2] if trail else 0) + 1 + text_bytes(segment))


def trail_text(trail: Trail) -> str:
    segments: list[str] = []
    while trail:
        trail, segment, _ = trail
        segments.append(segment)
    segments.reverse()
    return "/" + "/".join(segments) if segments else ""


class Unit:
    """One schema applied to one value (``keyword`` None), or one keyword of it, while being built:
    its evaluation path, the schema object's location, its absolute location written out (shared),
    its place in the instance, and ``head``, the JSON length of those three strings."""

    __slots__ = (
        "valid",
        "evaluation",
        "location",
        "absolute",
        "instance",
        "keyword",
        "head",
        "errors",
        "annotation",
        "children",
    )

    def __init__(
        self,
        evaluation: Trail,
        location: Path,
        absolute: str,
        instance: Place,
        keyword: str | None,
        head: int,
    ) -> None:
        self.valid = True
        self.evaluation, self.location, self.absolute = evaluation, location, absolute
        self.instance, self.keyword, self.head = instance, keyword, head
        self.errors: list[str] = []
        self.annotation: Any = NOTHING
        self.children: list[Unit] = []


class Traced(Findings):
    """The errors of a traced walk, and the :class:`Trace` its schema objects write to, which the
    lists of their branches share."""

    __slots__ = ("trace",)
    traces = True
    trace: Trace

    def scratch(self) -> Traced:
        found = Traced()
        found.left, found.scope, found.notes, found.trace = self.left, self.scope, self.notes, self.trace
        return found


# A keyword's check as a traced schema object runs it: its name, its check, the pointer of the
# keyword, the Python type of the values it speaks of, where it applies subschemas to their parts
# (None: it speaks of every value), whether its check may find errors of its own (rather than only
# hand on those of the subschemas it applies), and, for a $ref the walk may enter in place of calling
# its check, the pointer of its target.
_Traced = tuple[str, Check, str, "type | None", bool, "str | None"]


class Tracer:
    """The checks of a traced walk (see ``schema.Tracing``): each schema object's check runs its
    keywords' checks as the plain one does, between the unit it opens and reads once they are done.

    A value ``max_depth`` deep must fit in Python's recursion limit as it does for the plain walk
    (docs/limits.md), so each schema object's check is one Python frame, and one that holds no
    unevaluated* and enters no resource enters the schema object a ``$ref`` leads to in its own loop,
    as the plain walk's chains do (see ``schema._chain``), rather than calling the reference's check:
    a chain of references costs no Python stack."""

    def __init__(self, compiled: Compiled) -> None:
        self.compiled = compiled
        # Each schema object whose keywords a $ref may enter in place: its location and keywords.
        self.plans: dict[str, tuple[Path, list[_Traced]]] = {}

    def _keyword(self, location: Path, pointer: str, name: str, check: Check) -> _Traced:
        compiled = self.compiled
        row = compiled.keywords[name]
        parts = {"object": dict, "array": list}.get(row.instance_type or "") if row.holds else None
        facts = row.output
        held = compiled.schema_at(location)[name]
        # An assertion's errors are its own. Of the keywords holding subschemas, those that judge what
        # their subschemas found, those holding `false` for the parts nothing else covers (one error,
        # worded by the keyword), and draft-07's dependencies (its lists of names) word errors of their
        # own; the others hand on their subschemas' errors.
        owns = (
            not row.holds
            or name == "dependencies"
            or (facts is not None and (facts.judges or (held is False and facts.refuses_rest)))
        )
        at = f"{pointer}/{name}"
        # A $ref's check spends a step and calls its target's, where the schema enters no resource and
        # notes nothing (see references.deferred): what the loop below does without the call.
        plain = name == "$ref" and not (compiled.dynamic or compiled.annotates)
        enters = to_pointer(compiled.ref_targets[at]) if plain else None
        return name, check, at, parts, owns, enters

    def schema(
        self,
        location: Path,
        pointer: str,
        keywords: list[tuple[str, Check]],
        notes: list[Note],
        last: list[tuple[str, Check]],
        resource: str | None,
    ) -> Check:
        first = [self._keyword(location, pointer, name, check) for name, check in keywords]
        if notes or last or resource is not None:
            after = [self._keyword(location, pointer, name, check) for name, check in last]
            return _annotating(location, pointer, first, notes, after, resource)
        self.plans[pointer] = (location, first)
        return self._chained(location, pointer, first)

    def _chained(self, location: Path, pointer: str, first: list[_Traced]) -> Check:
        plans = self.plans

        def traced(instance: Any, path: Place, errors: list[ValidationError]) -> None:
            assert isinstance(errors, Traced)
            trace = errors.trace
            unit = trace.entered(location, path)
            # The schema objects entered, innermost last: the keywords left, the unit, the count of
            # errors before it, its pointer, and the $ref unit that entered it (with its own count).
            pending: list[tuple[Iterator[_Traced], Unit, int, str, tuple[Unit, str, int] | None]]
            pending = [(iter(first), unit, len(errors), pointer, None)]
            while pending:
                keywords, schema, before, at_schema, via = pending[-1]
                for name, check, at, parts, owns, enters in keywords:
                    if parts is not None and not isinstance(instance, parts):
                        continue  # it speaks of the parts of another kind of value: nothing here
                    keyword, ahead = trace.keyword(schema, name, path), len(errors)
                    if enters is not None and enters in plans:
                        spend(errors)  # as the reference's check spends
                        target, its_keywords = plans[enters]
                        inner = trace.entered(target, path)
                        pending.append((iter(its_keywords), inner, len(errors), enters, (keyword, at, ahead)))
                        break
                    check(instance, path, errors)
                    trace.judged(keyword, at, errors, ahead, owns, instance)
                else:
                    pending.pop()
                    trace.closed(schema, at_schema, errors, before, owns=False)
                    if via is not None:
                        keyword, at, ahead = via
                        trace.judged(keyword, at, errors, ahead, False, instance)

        return traced

    def boolean(self, location: Path, pointer: str, check: Check) -> Check:
        def traced(instance: Any, path: Place, errors: list[ValidationError]) -> None:
            assert isinstance(errors, Traced)
            trace = errors.trace
            unit, before = trace.entered(location, path), len(errors)
            check(instance, path, errors)
            trace.closed(unit, pointer, errors, before, owns=True)

        return traced


def _annotating(
    location: Path,
    pointer: str,
    first: list[_Traced],
    notes: list[Note],
    after: list[_Traced],
    resource: str | None,
) -> Check:
    """The traced check of a schema object holding unevaluated*, or entering a resource: what
    evaluated.annotating runs, each keyword traced."""

    def traced(instance: Any, path: Place, errors: list[ValidationError]) -> None:
        assert isinstance(errors, Traced)
        trace = errors.trace
        unit, before = trace.entered(location, path), len(errors)
        opened = opened_for(instance, errors) if after else None
        if resource is not None:
            errors.scope.append(resource)
        try:
            for keywords in (first, after):
                if keywords is after:
                    found = opened or noted(errors, instance)
                    if found is not None:
                        for note in notes:
                            note(instance, found, errors)
                for name, check, at, parts, owns, _ in keywords:
                    if parts is not None and not isinstance(instance, parts):
                        continue
                    keyword, ahead = trace.keyword(unit, name, path), len(errors)
                    check(instance, path, errors)
                    trace.judged(keyword, at, errors, ahead, owns, instance)
        finally:
            if opened is not None:
                errors.notes.pop()
            if resource is not None:
                errors.scope.pop()
        if opened is not None:
            handed_on(opened, instance, errors, before)
        trace.closed(unit, pointer, errors, before, owns=False)

    return traced


class Trace:
    """The units of one traced evaluation, as its schema objects open and close them.

    Each unit, message and annotation is counted as it is recorded, at the length it takes as JSON in
    the largest format (``verbose``) plus :data:`UNIT_BYTES` for each unit and message: past
    ``left`` bytes, :class:`TooLarge`. The lengths of evaluation paths and places are worked out a step
    at a time, and absolute locations once each, so counting costs what the output's own strings do.
    """

    def __init__(self, compiled: Compiled, most_bytes: int) -> None:
        self.compiled = compiled
        self.left = most_bytes
        # The JSON length of each place's pointer, by the place's id: the units keep every place alive.
        self.places: dict[int, int] = {}
        # Each location's absolute URI, with its JSON length, made once.
        self.absolutes: dict[tuple[Path, str | None], tuple[str, int]] = {}
        # Each schema object's annotation keywords, with their values as written (a copy: the snapshot
        # stays private; an integer too long to write as its words) and JSON lengths, by location.
        self.annotations: dict[Path, list[tuple[str, Any, int]]] = {}
        # The units open, outermost first: each schema object's, with the keyword's it is applying.
        self.open: list[Unit] = []
        self.root: Unit | None = None
        # The units of then and else, which if applies, each by the id of the schema unit below it.
        self.branches: dict[int, Unit] = {}
        # The errors already a unit's own, by id, and kept alive so that no id is taken again: an error
        # goes up through every unit around the one that found it.
        self.claimed: set[int] = set()
        self.kept: list[ValidationError] = []

    def charge(self, size: int) -> None:
        self.left -= size
        if self.left < 0:
            raise TooLarge

    def unit(self, evaluation: Trail, location: Path, instance: Place, keyword: str | None) -> Unit:
        """A unit recorded and counted."""
        key = (location, keyword)
        absolute = self.absolutes.get(key)
        if absolute is None:
            text = _absolute(self.compiled, location, keyword)
            absolute = self.absolutes[key] = (text, text_bytes(text))
        head = (evaluation[2] if evaluation else 0) + absolute[1] + self.place_bytes(instance)
        self.charge(UNIT_BYTES + head)
        return Unit(evaluation, location, absolute[0], instance, keyword, head)

    def place_bytes(self, place: Place) -> int:
        if not place:
            return 0
        size = self.places.get(id(place))
        if size is None:
            parent, token = place
            step = len(str(token)) if type(token) is int else text_bytes(escape(token))
            size = self.places[id(place)] = self.place_bytes(parent) + 1 + step
        return size

    def said(self, unit: Unit, message: str) -> None:
        """A message of the unit's, counted as an output unit of its own."""
        self.charge(UNIT_BYTES + unit.head + text_bytes(message))
        unit.errors.append(message)

    def annotated(self, unit: Unit, annotation: Any, size: int) -> None:
        self.charge(size)
        unit.annotation = annotation

    def entered(self, location: Path, path: Place) -> Unit:
        """The unit of the schema object at ``location`` applied to the value at ``path``, below the
        keyword unit applying it: along the keyword's evaluation path, through the tokens that lead
        from the keyword to the subschema (none through a reference)."""
        if not self.open:
            unit = self.root = self.unit((), location, path, None)
            self.open.append(unit)
            return unit
        above = self.open[-1]
        assert above.keyword is not None
        evaluation = above.evaluation
        if above.keyword not in _REFERENCES:
            at = above.location + (above.keyword,)
            if location[: len(at)] == at:
                for token in location[len(at) :]:
                    evaluation = _below(evaluation, _escaped(str(token)))
            else:  # then or else, which if applies: a keyword unit of its own, beside if's
                schema = self.open[-2]
                word = str(location[-1])
                above = self.unit(_below(schema.evaluation, word), schema.location, path, word)
                schema.children.append(above)
                evaluation = above.evaluation
        unit = self.unit(evaluation, location, path, None)
        if above is not self.open[-1]:
            self.branches[id(unit)] = above
        above.children.append(unit)
        self.open.append(unit)
        return unit

    def keyword(self, schema: Unit, name: str, path: Place) -> Unit:
        """The unit of a keyword of the schema object open, entered."""
        unit = self.unit(_below(schema.evaluation, name), schema.location, path, name)
        schema.children.append(unit)
        self.open.append(unit)
        return unit

    def judged(
        self, unit: Unit, pointer: str, errors: list[ValidationError], before: int, owns: bool, instance: Any
    ) -> None:
        """A keyword's unit, once its check ran: failing where its check added errors (``if`` never
        does: its branch's unit holds the verdict), with the messages of those that are its own, and
        its annotation, as what its subschemas were applied to says."""
        self.open.pop()
        name = unit.keyword
        failed = len(errors) > before
        unit.valid = name == "if" or not failed
        if failed and owns:
            self._own(unit, pointer, errors, before)
        if name == "contains" or (name == "oneOf" and sum(child.valid for child in unit.children) > 1):
            # contains: the items that matched; oneOf failing for the branches that passed (the
            # others' failures are not why).
            unit.children = [child for child in unit.children if child.valid]
        self._annotate(unit, instance)

    def closed(
        self, unit: Unit, pointer: str, errors: list[ValidationError], before: int, owns: bool
    ) -> None:
        """A schema object's unit, once its keywords ran: failing where they added errors, with its own
        (a `false` schema's), then its annotation keywords' units."""
        self.open.pop()
        if len(errors) > before:
            unit.valid = False
            if owns:
                self._own(unit, pointer, errors, before)
        for name, value, size in self._annotations(unit.location):
            child = self.unit(_below(unit.evaluation, name), unit.location, unit.instance, name)
            self.annotated(child, value, size)
            unit.children.append(child)
        branch = self.branches.pop(id(unit), None)
        if branch is not None:
            branch.valid = unit.valid

    def _own(self, unit: Unit, pointer: str, errors: list[ValidationError], before: int) -> None:
        """The messages of the errors added since ``before`` that stand at this unit's keyword and no
        unit below has taken (a `false` subschema at the same pointer as the keyword holding it)."""
        for index in range(before, len(errors)):
            error = errors[index]
            if error.schema_path == pointer and id(error) not in self.claimed:
                self.claimed.add(id(error))
                self.kept.append(error)
                self.said(unit, error.message)

    def _annotate(self, unit: Unit, instance: Any) -> None:
        """A keyword's annotation, from the units of what its subschemas were applied to: the names of
        the properties, or, for items, ``true`` (the index of the last one, where an array of schemas
        stops short), the items contains matched (2020-12), and a format's name."""
        name, children, compiled = unit.keyword, unit.children, self.compiled
        assert name is not None
        row = compiled.keywords[name]
        evaluates = row.output.evaluates if row.output is not None else ""
        if evaluates == "names":
            names = list(dict.fromkeys(str(child.instance[1]) for child in children))  # type: ignore[misc]
            if unit.valid or children:
                self.annotated(unit, names, 2 + sum(text_bytes(key) + 4 for key in names))
        elif name == "contains":
            if compiled.dialect == "2020-12":
                indexes = [child.instance[1] for child in children]  # type: ignore[misc]
                self.annotated(unit, indexes, 2 + sum(len(str(index)) + 2 for index in indexes))
        elif evaluates == "items" and children:
            held = compiled.schema_at(unit.location)[name]
            if isinstance(held, list):  # prefixItems, or an array of schemas in items
                self.annotated(unit, True if len(children) == len(instance) else len(children) - 1, 12)
            else:
                self.annotated(unit, True, 12)
        elif name == "format" and unit.valid:
            self.annotated(unit, *self._value(compiled.schema_at(unit.location)[name]))

    def _annotations(self, location: Path) -> list[tuple[str, Any, int]]:
        """The annotation keywords of the schema object at ``location`` that no keyword row checks."""
        found = self.annotations.get(location)
        if found is None:
            held = self.compiled.schema_at(location)
            found = []
            if isinstance(held, dict):
                checked = self.compiled.node(location).keywords
                for name, value in held.items():
                    if name in _VALUE_ANNOTATIONS and name not in checked:
                        found.append((name, *self._value(value)))
            self.annotations[location] = found
        return found

    @staticmethod
    def _value(value: Any) -> tuple[Any, int]:
        """A schema value as an annotation, and its JSON length with its key's."""
        written = writable(value)
        return written, len(json.dumps(written)) + 20


def _escaped(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def _traced(compiled: Compiled) -> Check:
    return traced_walk(compiled, Tracer(compiled))


# What a URI fragment holds as itself besides letters, digits and "-._~" (RFC 3986's pchar, "/" and
# "?"); RFC 6901 section 6 has a pointer in a fragment write every other character percent-encoded
# as UTF-8, "%" and the space among them.
_FRAGMENT_SAFE = "/?:@!$&'()*+,;="


def _absolute(compiled: Compiled, location: Path, keyword: str | None = None) -> str:
    """The location of the schema object at ``location`` (or of its ``keyword``) as an absolute URI:
    its resource's URI and a pointer within it, written as a fragment. A keyword stands in the
    resource of its schema object, even where the subschema it holds declares one of its own."""
    base = compiled.base_of(location)
    root = compiled.resources.get(base, ())
    inner = location[len(root) :] if location[: len(root)] == root else location
    if keyword is not None:
        inner += (keyword,)
    pointer = to_pointer(token for token in inner if type(token) is not Document)
    return f"{base}#{quote(pointer, safe=_FRAGMENT_SAFE)}"


def evaluate(compiled: Compiled, instance: Any, findings: Findings, most_bytes: int) -> Unit:
    """The root schema applied to ``instance`` by the traced walk, on the budget of ``findings``: every
    unit it recorded."""
    walk: Check = compiled.derived("traced walk", _traced)
    traced = Traced()
    traced.left, traced.scope, traced.notes = findings.left, findings.scope, findings.notes
    traced.trace = Trace(compiled, most_bytes)
    walk(instance, (), traced)
    assert traced.trace.root is not None
    return traced.trace.root
