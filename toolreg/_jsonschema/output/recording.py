"""The recorder: one schema applied to one value, walked again as the reference walk applies it,
with a unit for each schema and keyword it applies (evaluation path, absolute location, place in the
instance, verdict, messages, annotation), each counted in the bytes it will take as output."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

from ..compiled import Compiled
from ..errors import ValidationError, stands_at, writable
from ..findings import Evaluated, Findings, Path, Place, no_check, spend
from ..pointer import Document, escape, to_pointer
from ..references import resolve
from ..vocabulary import ANNOTATIONS, VOCABULARY

__all__ = ["NOTHING", "UNIT_BYTES", "TooLarge", "Trail", "Unit", "evaluate", "text_bytes", "trail_text"]

# Annotation keywords whose value is the annotation: the rest of ANNOTATIONS name the dialect or
# are remarks for the reader of the schema ($comment), which the specification keeps out of output.
_VALUE_ANNOTATIONS = frozenset(ANNOTATIONS) - {"$schema", "$comment", "example", "discriminator"}

# Keywords that hold subschemas applied to the instance itself: what they evaluate of it counts for
# the unevaluated* beside them, when the subschema passes (never through not, which passes on failure).
_IN_PLACE = frozenset(row.name for row in VOCABULARY if row.in_place) - {"not"}
# What the rows' output groups say (see vocabulary.Output), a pair for each row of every dialect; a row
# without one has none of these facts.
_OUTPUT = [(row.name, row.output) for row in VOCABULARY if row.output is not None]
# What each keyword's annotation evaluates of an object or an array, for unevaluated*.
_NAMES_EVALUATED = frozenset(name for name, facts in _OUTPUT if facts.evaluates == "names")
_ITEMS_EVALUATED = frozenset(name for name, facts in _OUTPUT if facts.evaluates == "items")
# Keywords whose failure is their own judgement of their subschemas' results (not "every one passes"),
# so their verdict and words are the check's own.
_JUDGING = frozenset(name for name, facts in _OUTPUT if facts.judges)
# Keywords that hold a schema for the parts nothing else covers: a `false` one is one error, worded
# by the keyword's check, rather than one per part.
# The keywords whose row refuses the rest in some dialect (see _refuses_rest, which reads the row of
# the schema's own dialect).
_REFUSING_REST = frozenset(name for name, facts in _OUTPUT if facts.refuses_rest)
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
        "applied",
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
        # The items an array keyword applied its subschema to, where it holds `false` and so has no
        # unit for each: what its annotation `true` evaluated.
        self.applied: list[int] = []


# A subschema a keyword applies: its location, the value and its place, its evaluation path, and the
# base URI of the resource entered, for a reference followed (None for any other subschema).
_Applied = tuple[Path, Any, Place, Trail, "str | None"]


class Walk:
    """The evaluation a recorder makes: each schema and keyword applied, where, and what it found.

    Each unit, message and annotation is counted as it is recorded, at the length it takes as JSON in
    the largest format (``verbose``) plus :data:`UNIT_BYTES` for each unit and message: past
    ``left`` bytes, :class:`TooLarge`. The lengths of evaluation paths and places are worked out a step
    at a time, and absolute locations once each, so counting costs what the output's own strings do.
    """

    def __init__(self, compiled: Compiled, findings: Findings, most_bytes: int) -> None:
        self.compiled, self.findings = compiled, findings
        self.left = most_bytes
        # The JSON length of each place's pointer, by the place's id: the units keep every place alive.
        self.places: dict[int, int] = {}
        # Each location's absolute URI, with its JSON length, made once.
        self.absolutes: dict[tuple[Path, str | None], tuple[str, int]] = {}
        # Each schema annotation value as written (a copy: the snapshot stays private; an integer too
        # long to write as its words) and its JSON length, by its location.
        self.annotations: dict[Path, tuple[Any, int]] = {}

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

    def said(self, unit: Unit, errors: list[ValidationError]) -> None:
        """The messages of ``errors`` as the unit's, each counted as an output unit of its own."""
        for error in errors:
            message = error.message
            self.charge(UNIT_BYTES + unit.head + text_bytes(message))
            unit.errors.append(message)

    def annotated(self, unit: Unit, annotation: Any, size: int) -> None:
        self.charge(size)
        unit.annotation = annotation

    def schema(self, location: Path, instance: Any, path: Place, evaluation: Trail) -> Unit:
        """The unit of the schema at ``location`` applied to ``instance``, with a unit for each of its
        keywords. Each keyword is read in two steps around the subschemas it applies, which are
        applied here: the walk recurses through this method alone, one Python frame for each schema
        object on the way down (a value ``max_depth`` deep must fit in Python's recursion limit)."""
        spend(self.findings)
        compiled = self.compiled
        node = compiled.node(location)
        unit = self.unit(evaluation, location, path, None)
        if node.boolean is not None:
            if not node.boolean:
                unit.valid = False
                # A `false` that a keyword reads as "no more" has no check of its own: the keyword words it.
            check = compiled.checks.get(node.pointer)
            if check:
                self.said(unit, self._run(check, instance, path))
            else:
                self.charge(UNIT_BYTES + unit.head + 7)
                unit.errors = ["fails"]
            return unit
        resource = compiled.resource_roots.get(node.pointer) if location else None
        scope = self.findings.scope
        if resource is not None:
            scope.append(resource)
        try:
            for name, plan in node.keywords.items():
                prepared = self._keyword(node.pointer, location, name, plan, instance, path, unit)
                if prepared is None:
                    continue
                child, applied = prepared
                if applied is None:  # an assertion, judged already
                    unit.children.append(child)
                    continue
                for below, value, place, trail, entered in applied:
                    if entered is None:
                        child.children.append(self.schema(below, value, place, trail))
                        continue
                    spend(self.findings)  # a reference followed, as the check spends
                    scope.append(entered)
                    try:
                        child.children.append(self.schema(below, value, place, trail))
                    finally:
                        scope.pop()
                self._finish(child, node.pointer, location, name, instance, path, unit)
                unit.children.append(child)
        finally:
            if resource is not None:
                scope.pop()
        held = compiled.schema_at(location)
        for name in held:
            if name in _VALUE_ANNOTATIONS and name not in node.keywords:
                child = self.unit(_below(evaluation, name), location, path, name)
                self.annotated(child, *self._annotation(location + (name,), held[name]))
                unit.children.append(child)
        unit.valid = all(child.valid for child in unit.children)
        return unit

    def _annotation(self, location: Path, value: Any) -> tuple[Any, int]:
        """A schema value as an annotation, and its JSON length with its key's."""
        found = self.annotations.get(location)
        if found is None:
            written = writable(value)
            found = self.annotations[location] = (written, len(json.dumps(written)) + 20)
        return found

    def _run(
        self, check: Any, instance: Any, path: Place, notes: Evaluated | None = None
    ) -> list[ValidationError]:
        """The errors toolreg's own check finds, on this evaluation's budget and scope."""
        found = self.findings.scratch()
        found.notes = [notes] if notes is not None else []
        check(instance, path, found)
        return list(found)

    def _keyword(
        self,
        pointer: str,
        location: Path,
        name: str,
        plan: Any,
        instance: Any,
        path: Place,
        parent: Unit,
    ) -> tuple[Unit, list[_Applied] | None] | None:
        """A keyword's unit, and the subschemas it applies (each to be applied by ``schema``, then
        read by ``_finish``), None for an assertion, judged here; None where the keyword speaks of
        nothing here."""
        compiled = self.compiled
        row = compiled.keywords[name]
        if row.holds and row.instance_type is None and not row.in_place:
            return None  # $defs and definitions: a place for schemas, applied to nothing
        evaluation = _below(parent.evaluation, name)
        held = compiled.schema_at(location)[name]
        unit = self.unit(evaluation, location, path, name)
        applied: list[_Applied] = []
        if name in ("$ref", "$dynamicRef", "$recursiveRef"):
            target = plan if name == "$ref" else self._dynamic_target(location, name, held)
            applied.append((target, instance, path, evaluation, compiled.base_of(target)))
        elif name in ("allOf", "anyOf", "oneOf"):
            for index, below in enumerate(plan):
                applied.append((below, instance, path, _below(evaluation, str(index)), None))
        elif name in ("not", "if"):
            applied.append((plan, instance, path, evaluation, None))
        elif name in ("then", "else"):
            condition = next((child for child in parent.children if child.keyword == "if"), None)
            if condition is None or condition.children[0].valid != (name == "then"):
                return None
            applied.append((plan, instance, path, evaluation, None))
        elif name in ("dependentSchemas", "dependencies"):
            if not isinstance(instance, dict):
                return None
            if name == "dependencies":
                # Draft-07's lists of names are judged at the keyword, as dependentRequired is; its
                # schemas are applied below, as dependentSchemas applies them (validate() says the same).
                check = compiled.keyword_checks.get((pointer, name), no_check)
                here = f"{pointer}/{name}"
                self.said(
                    unit, [error for error in self._run(check, instance, path) if error.schema_path == here]
                )
            for key, below in plan:
                if key in instance:
                    applied.append((below, instance, path, _below(evaluation, _escaped(key)), None))
        elif row.holds:
            parts = self._parts(unit, name, plan, held, instance, path, parent)
            if parts is None:
                return None
            applied = parts
        else:
            check = compiled.keyword_checks.get((pointer, name), no_check)
            errors = self._run(check, instance, path) if check is not no_check else []
            self.said(unit, errors)
            unit.valid = not errors
            if name == "format" and not errors:
                self.annotated(unit, *self._annotation(location + (name,), held))
            elif check is no_check:
                return None  # an identifier, an anchor, or a bound that contains applies
            return unit, None
        return unit, applied

    def _finish(
        self, unit: Unit, pointer: str, location: Path, name: str, instance: Any, path: Place, parent: Unit
    ) -> None:
        """A keyword's verdict, read once the subschemas it applies have been."""
        compiled = self.compiled
        held = compiled.schema_at(location)[name]
        if name in _JUDGING or (held is False and _refuses_rest(compiled, name)):
            check = compiled.keyword_checks.get((pointer, name), no_check)
            self._own_errors(unit, check, instance, path, parent)
            unit.valid = not unit.errors
            if name == "contains":
                matching = [child for child in unit.children if child.valid]
                unit.children = matching
                if compiled.dialect == "2020-12":
                    indexes = [child.instance[1] for child in matching]  # type: ignore[misc]
                    self.annotated(unit, indexes, 2 + sum(len(str(index)) + 2 for index in indexes))
            elif name == "oneOf" and sum(child.valid for child in unit.children) > 1:
                # Failing for the branches that passed: the others' failures are not why.
                unit.children = [child for child in unit.children if child.valid]
            if held is False:
                unit.children = []
        elif name != "if":  # whichever way the condition goes, if itself passes
            unit.valid = not unit.errors and all(child.valid for child in unit.children)

    def _own_errors(self, unit: Unit, check: Any, instance: Any, path: Place, parent: Unit) -> None:
        notes = None
        keyword = unit.keyword
        if keyword is not None and keyword.startswith("unevaluated") and isinstance(instance, (dict, list)):
            notes = Evaluated(instance)
            notes.found.update(_evaluated(parent, keyword == "unevaluatedItems"))
        found = self._run(check, instance, path, notes)
        self.said(unit, [error for error in found if stands_at(error, path)])

    def _parts(
        self,
        unit: Unit,
        name: str,
        plan: Any,
        held: Any,
        instance: Any,
        path: Place,
        parent: Unit,
    ) -> list[_Applied] | None:
        """The subschemas of a keyword that apply to parts of the value; None if it speaks of none."""
        evaluation, compiled = unit.evaluation, self.compiled
        refused = held is False and _refuses_rest(compiled, name)  # one error, worded by the keyword's check
        if name in (
            "properties",
            "patternProperties",
            "additionalProperties",
            "propertyNames",
            "unevaluatedProperties",
        ):
            if not isinstance(instance, dict):
                return None
            if name == "propertyNames":
                return [(plan, key, path, evaluation, None) for key in instance]
            applied: list[tuple[str, Path, Trail]] = []
            if name == "properties":
                applied = [
                    (key, below, _below(evaluation, _escaped(key))) for key, below in plan if key in instance
                ]
            elif name == "patternProperties":
                for source, below in plan:
                    pattern = compiled.pattern(source)
                    at = _below(evaluation, _escaped(source))
                    applied.extend((key, below, at) for key in instance if pattern.search(key))
            else:
                if name == "additionalProperties":
                    covered = _covered(compiled, parent, instance)
                else:
                    covered = _evaluated(parent, items=False)
                applied = [(key, plan, evaluation) for key in instance if key not in covered]
            names = list(dict.fromkeys(key for key, _, _ in applied))
            self.annotated(unit, names, 2 + sum(text_bytes(key) + 4 for key in names))
            if refused:
                return []
            return [(below, instance[key], (path, key), at, None) for key, below, at in applied]
        if not isinstance(instance, list):
            return None
        if isinstance(held, list):  # prefixItems, or an array of schemas in items
            places = list(enumerate(plan))[: len(instance)]
            if places:
                self.annotated(unit, True if len(places) == len(instance) else len(places) - 1, 12)
            return [
                (below, instance[index], (path, index), _below(evaluation, str(index)), None)
                for index, below in places
            ]
        siblings = compiled.schema_at(unit.location)
        if name == "contains":
            indexes: list[int] = list(range(len(instance)))
        elif name == "unevaluatedItems":
            done = _evaluated(parent, items=True)
            indexes = [index for index in range(len(instance)) if index not in done]
        elif name == "additionalItems":
            if not isinstance(siblings.get("items"), list):
                return None
            indexes = list(range(len(siblings["items"]), len(instance)))
        elif compiled.dialect == "2020-12":  # items after prefixItems
            indexes = list(range(len(siblings.get("prefixItems", ())), len(instance)))
        else:
            indexes = list(range(len(instance)))
        if indexes and name != "contains":
            self.annotated(unit, True, 12)
        if refused:
            unit.applied = indexes
            return []
        return [(plan, instance[index], (path, index), evaluation, None) for index in indexes]

    def _dynamic_target(self, location: Path, name: str, held: Any) -> Path:
        """Where a $dynamicRef or $recursiveRef leads from the resources entered, as the check decides."""
        compiled = self.compiled
        start = compiled.ref_targets[to_pointer(location + (name,))]  # where it leads from outside
        declared = compiled.schema_at(start)
        if name == "$recursiveRef":
            anchored = isinstance(declared, dict) and declared.get("$recursiveAnchor") is True
            anchors = compiled.recursive_anchors
        else:
            anchor = resolve(compiled.base_of(location), held).partition("#")[2]
            anchored = isinstance(declared, dict) and declared.get("$dynamicAnchor") == anchor
            anchors = compiled.dynamic_anchors.get(anchor, {})
        if anchored:
            for uri in self.findings.scope:
                if uri in anchors:
                    return anchors[uri]
        return start


def _refuses_rest(compiled: Compiled, name: str) -> bool:
    """Whether ``name`` holds a schema for the parts nothing else covers, so that holding `false` it is
    one error worded by its check, as its row in this schema's dialect says: 2020-12's ``items`` (the
    rest after ``prefixItems``) does, the older dialects' ``items`` applies `false` to each item."""
    if name not in _REFUSING_REST:
        return False
    output = compiled.keywords[name].output
    return output is not None and output.refuses_rest


def _escaped(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def _covered(compiled: Compiled, parent: Unit, instance: dict[str, Any]) -> set[str]:
    """The names ``properties`` and ``patternProperties`` beside ``additionalProperties`` speak of."""
    siblings = compiled.schema_at(parent.location)
    covered = {key for key in siblings.get("properties", {}) if key in instance}
    for source in siblings.get("patternProperties", {}):
        pattern = compiled.pattern(source)
        covered.update(key for key in instance if pattern.search(key))
    return covered


def _evaluated(schema: Unit, items: bool) -> set[Any]:
    """What the keywords of a schema unit, and the subschemas it passed in place, evaluated of its value."""
    found: set[Any] = set()
    own = _ITEMS_EVALUATED if items else _NAMES_EVALUATED
    for unit in schema.children:
        # A keyword's own annotation counts whether or not its subschemas passed, as validate()'s notes
        # do: a failing subschema applied in place hands on nothing, a failing property's name does.
        if unit.keyword in own and unit.annotation is not NOTHING:
            found.update(_as_evaluated(unit, items))
        elif unit.keyword in _IN_PLACE:
            for child in unit.children:
                if child.valid and child.instance is schema.instance:
                    found.update(_evaluated(child, items))
    return found


def _as_evaluated(unit: Unit, items: bool) -> Iterator[Any]:
    annotation = unit.annotation
    if not items:
        yield from annotation
    elif annotation is True:
        yield from unit.applied
        yield from (child.instance[1] for child in unit.children)  # type: ignore[misc]
    elif isinstance(annotation, list):
        yield from annotation
    else:
        yield from range(annotation + 1)


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
    """The root schema applied to ``instance``: every unit, as the recorder walked them."""
    scope = findings.scope
    scope.append(compiled.base_of(()))
    try:
        return Walk(compiled, findings, most_bytes).schema((), instance, (), ())
    finally:
        scope.pop()
