"""Standard output: one validation as JSON Schema's output formats, with evaluation paths and annotations."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .errors import OutputFormatError, ValidationError
from .findings import Evaluated, Findings, Path, no_check, spend
from .pointer import Document, to_pointer
from .references import resolve
from .schema import Compiled
from .vocabulary import ANNOTATIONS, VOCABULARY

__all__ = ["FORMATS", "output"]

# The 2019-09 and 2020-12 formats, then the newer proposal's two (its "flag" is the same answer).
FORMATS = ("flag", "basic", "detailed", "verbose", "list", "hierarchical")

# Annotation keywords whose value is the annotation: the rest of ANNOTATIONS name the dialect or
# are remarks for the reader of the schema ($comment), which the specification keeps out of output.
_VALUE_ANNOTATIONS = frozenset(ANNOTATIONS) - {"$schema", "$comment", "example", "discriminator"}

# Keywords that hold subschemas applied to the instance itself: what they evaluate of it counts for
# the unevaluated* beside them, when the subschema passes (never through not, which passes on failure).
_IN_PLACE = frozenset(row.name for row in VOCABULARY if row.in_place) - {"not"}
# What each keyword's annotation evaluates of an object or an array, for unevaluated*.
_NAMES_EVALUATED = frozenset(row.name for row in VOCABULARY if row.evaluates == "names")
_ITEMS_EVALUATED = frozenset(row.name for row in VOCABULARY if row.evaluates == "items")
# Keywords whose failure is their own judgement of their subschemas' results (not "every one passes"),
# so their verdict and words are the check's own.
_JUDGING = frozenset(row.name for row in VOCABULARY if row.judges)
# Keywords that hold a schema for the parts nothing else covers: a `false` one is one error, worded
# by the keyword's check, rather than one per part.
_REFUSING_REST = frozenset(row.name for row in VOCABULARY if row.refuses_rest)
_NOTHING = object()


@dataclass
class _Unit:
    """One schema applied to one value (``keyword`` None), or one keyword of it, while being built."""

    valid: bool
    evaluation: str
    location: Path
    instance: str
    keyword: str | None = None
    errors: list[str] = field(default_factory=list)
    annotation: Any = _NOTHING
    children: list[_Unit] = field(default_factory=list)


class _Walk:
    """The evaluation a recorder makes: each schema and keyword applied, where, and what it found."""

    def __init__(self, compiled: Compiled, findings: Findings) -> None:
        self.compiled, self.findings = compiled, findings

    def schema(self, location: Path, instance: Any, path: tuple[str | int, ...], evaluation: str) -> _Unit:
        spend(self.findings)
        compiled = self.compiled
        node = compiled.node(location)
        unit = _Unit(True, evaluation, location, to_pointer(path))
        if node.boolean is not None:
            if not node.boolean:
                unit.valid = False
                # A `false` that a keyword reads as "no more" has no check of its own: the keyword words it.
            check = compiled.checks.get(node.pointer)
            unit.errors = (
                [error.message for error in self._run(check, instance, path)] if check else ["fails"]
            )
            return unit
        resource = compiled.resource_roots.get(node.pointer) if location else None
        if resource is not None:
            self.findings.scope.append(resource)
        try:
            for name, plan in node.keywords.items():
                unit.children.extend(self._keyword(node.pointer, location, name, plan, instance, path, unit))
        finally:
            if resource is not None:
                self.findings.scope.pop()
        held = compiled.schema_at(location)
        for name in held:
            if name in _VALUE_ANNOTATIONS and name not in node.keywords:
                here = location + (name,)
                unit.children.append(
                    _Unit(True, f"{evaluation}/{name}", here, unit.instance, name, annotation=held[name])
                )
        unit.valid = all(child.valid for child in unit.children)
        return unit

    def _run(
        self, check: Any, instance: Any, path: Path, notes: Evaluated | None = None
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
        path: tuple[str | int, ...],
        parent: _Unit,
    ) -> Iterator[_Unit]:
        compiled = self.compiled
        evaluation = f"{parent.evaluation}/{name}"
        here = location + (name,)
        unit = _Unit(True, evaluation, here, parent.instance, name)
        held = compiled.schema_at(location)[name]
        check = compiled.keyword_checks.get((pointer, name), no_check)
        row = compiled.keywords[name]
        if row.holds and row.instance_type is None and not row.in_place:
            return  # $defs and definitions: a place for schemas, applied to nothing
        if name in ("$ref", "$dynamicRef", "$recursiveRef"):
            target = plan if name == "$ref" else self._dynamic_target(location, name, held)
            unit.children.append(self._entered(target, instance, path, evaluation))
        elif name in ("allOf", "anyOf", "oneOf"):
            for index, below in enumerate(plan):
                unit.children.append(self.schema(below, instance, path, f"{evaluation}/{index}"))
        elif name in ("not", "if"):
            unit.children.append(self.schema(plan, instance, path, evaluation))
        elif name in ("then", "else"):
            condition = next((child for child in parent.children if child.keyword == "if"), None)
            if condition is None or condition.children[0].valid != (name == "then"):
                return
            unit.children.append(self.schema(plan, instance, path, evaluation))
        elif name == "dependentSchemas":
            if not isinstance(instance, dict):
                return
            for key, below in plan:
                if key in instance:
                    unit.children.append(self.schema(below, instance, path, f"{evaluation}/{_escaped(key)}"))
        elif row.holds and name != "dependencies":
            if not self._parts(unit, name, plan, held, instance, path, parent):
                return
        else:
            errors = self._run(check, instance, path) if check is not no_check else []
            unit.errors = [error.message for error in errors]
            unit.valid = not errors
            if name == "format" and not errors:
                unit.annotation = held
            elif check is no_check:
                return  # an identifier, an anchor, or a bound that contains applies
            yield unit
            return
        if name in _JUDGING or (name in _REFUSING_REST and held is False):
            own = self._own_errors(check, instance, path, parent, name)
            unit.errors = own
            unit.valid = not own
            if name == "contains":
                matching = [child for child in unit.children if child.valid]
                unit.children = matching
                if compiled.dialect == "2020-12":
                    unit.annotation = [int(_last_token(child.instance)) for child in matching]
            elif name == "oneOf" and sum(child.valid for child in unit.children) > 1:
                # Failing for the branches that passed: the others' failures are not why.
                unit.children = [child for child in unit.children if child.valid]
            if held is False:
                unit.children = []
        elif name != "if":  # whichever way the condition goes, if itself passes
            unit.valid = all(child.valid for child in unit.children)
        yield unit

    def _own_errors(self, check: Any, instance: Any, path: Path, parent: _Unit, name: str) -> list[str]:
        notes = None
        if name.startswith("unevaluated") and isinstance(instance, (dict, list)):
            notes = Evaluated(instance)
            notes.found.update(_evaluated(parent, name == "unevaluatedItems"))
        here = to_pointer(path)
        return [error.message for error in self._run(check, instance, path, notes) if error.path == here]

    def _parts(
        self,
        unit: _Unit,
        name: str,
        plan: Any,
        held: Any,
        instance: Any,
        path: tuple[str | int, ...],
        parent: _Unit,
    ) -> bool:
        """The subschemas of a keyword that apply to parts of the value; False if it speaks of none."""
        evaluation, compiled = unit.evaluation, self.compiled
        if name in (
            "properties",
            "patternProperties",
            "additionalProperties",
            "propertyNames",
            "unevaluatedProperties",
        ):
            if not isinstance(instance, dict):
                return False
            if name == "propertyNames":
                for key in instance:
                    unit.children.append(self.schema(plan, key, path, evaluation))
                return True
            applied: list[tuple[str, Path, str]] = []
            if name == "properties":
                applied = [
                    (key, below, f"{evaluation}/{_escaped(key)}") for key, below in plan if key in instance
                ]
            elif name == "patternProperties":
                for source, below in plan:
                    pattern = compiled.pattern(source)
                    at = f"{evaluation}/{_escaped(source)}"
                    applied.extend((key, below, at) for key in instance if pattern.search(key))
            else:
                if name == "additionalProperties":
                    covered = _covered(compiled, parent, instance)
                else:
                    covered = _evaluated(parent, items=False)
                applied = [(key, plan, evaluation) for key in instance if key not in covered]
            if not (held is False and name in _REFUSING_REST):
                for key, below, at in applied:
                    unit.children.append(self.schema(below, instance[key], path + (key,), at))
            unit.annotation = list(dict.fromkeys(key for key, _, _ in applied))
            return True
        if not isinstance(instance, list):
            return False
        if isinstance(held, list):  # prefixItems, or an array of schemas in items
            places = [(index, below, f"{evaluation}/{index}") for index, below in enumerate(plan)]
            places = places[: len(instance)]
            for index, below, at in places:
                unit.children.append(self.schema(below, instance[index], path + (index,), at))
            if places:
                unit.annotation = True if len(places) == len(instance) else len(places) - 1
            return True
        siblings = compiled.schema_at(unit.location[:-1])
        if name == "contains":
            indexes: list[int] = list(range(len(instance)))
        elif name == "unevaluatedItems":
            done = _evaluated(parent, items=True)
            indexes = [index for index in range(len(instance)) if index not in done]
        elif name == "additionalItems":
            if not isinstance(siblings.get("items"), list):
                return False
            indexes = list(range(len(siblings["items"]), len(instance)))
        elif compiled.dialect == "2020-12":  # items after prefixItems
            indexes = list(range(len(siblings.get("prefixItems", ())), len(instance)))
        else:
            indexes = list(range(len(instance)))
        if not (held is False and name in _REFUSING_REST):
            for index in indexes:
                unit.children.append(self.schema(plan, instance[index], path + (index,), evaluation))
        if indexes and name != "contains":
            unit.annotation = True
        return True

    def _entered(self, target: Path, instance: Any, path: tuple[str | int, ...], evaluation: str) -> _Unit:
        spend(self.findings)
        scope = self.findings.scope
        scope.append(self.compiled.base_of(target))
        try:
            return self.schema(target, instance, path, evaluation)
        finally:
            scope.pop()

    def _dynamic_target(self, location: Path, name: str, held: Any) -> Path:
        """Where a $dynamicRef or $recursiveRef leads from the resources entered, as the check decides."""
        compiled = self.compiled
        here = location + (name,)
        reference = "#" if name == "$recursiveRef" else held
        start: Path = compiled._resolve_reference(reference, here)
        declared = compiled.schema_at(start)
        if name == "$recursiveRef":
            anchored = isinstance(declared, dict) and declared.get("$recursiveAnchor") is True
            anchors = compiled.recursive_anchors
        else:
            anchor = resolve(compiled.base_of(location), reference).partition("#")[2]
            anchored = isinstance(declared, dict) and declared.get("$dynamicAnchor") == anchor
            anchors = compiled.dynamic_anchors.get(anchor, {})
        if anchored:
            for uri in self.findings.scope:
                if uri in anchors:
                    return anchors[uri]
        return start


def _escaped(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def _last_token(pointer: str) -> str:
    return pointer.rpartition("/")[2]


def _covered(compiled: Compiled, parent: _Unit, instance: dict[str, Any]) -> set[str]:
    """The names ``properties`` and ``patternProperties`` beside ``additionalProperties`` speak of."""
    siblings = compiled.schema_at(parent.location)
    covered = {key for key in siblings.get("properties", {}) if key in instance}
    for source in siblings.get("patternProperties", {}):
        pattern = compiled.pattern(source)
        covered.update(key for key in instance if pattern.search(key))
    return covered


def _evaluated(schema: _Unit, items: bool) -> set[Any]:
    """What the keywords of a schema unit, and the subschemas it passed in place, evaluated of its value."""
    found: set[Any] = set()
    own = _ITEMS_EVALUATED if items else _NAMES_EVALUATED
    for unit in schema.children:
        if not unit.valid:
            continue
        if unit.keyword in own and unit.annotation is not _NOTHING:
            found.update(_as_evaluated(unit, items))
        elif unit.keyword in _IN_PLACE:
            for child in unit.children:
                if child.valid and child.instance == schema.instance:
                    found.update(_evaluated(child, items))
    return found


def _as_evaluated(unit: _Unit, items: bool) -> Iterator[Any]:
    annotation = unit.annotation
    if not items:
        yield from annotation
    elif annotation is True:
        yield from (int(_last_token(child.instance)) for child in unit.children)
    elif isinstance(annotation, list):
        yield from annotation
    else:
        yield from range(annotation + 1)


def _absolute(compiled: Compiled, location: Path) -> str:
    """The schema location as an absolute URI: its resource's URI and a pointer within it."""
    base = compiled.base_of(location)
    root = compiled.resources.get(base, ())
    inner = location[len(root) :] if location[: len(root)] == root else location
    return f"{base}#{to_pointer(token for token in inner if type(token) is not Document)}"


def evaluate(compiled: Compiled, instance: Any, findings: Findings) -> _Unit:
    """The root schema applied to ``instance``: every unit, as the recorder walked them."""
    scope = findings.scope
    scope.append(compiled.base_of(()))
    try:
        return _Walk(compiled, findings).schema((), instance, (), "")
    finally:
        scope.pop()


def output(compiled: Compiled, instance: Any, format: str, findings: Findings) -> dict[str, Any]:  # noqa: A002
    """``instance`` evaluated against the compiled schema, in the output ``format`` (see FORMATS);
    OverBudget or RecursionError when the evaluation would cost too much."""
    if format not in FORMATS or format == "flag":
        raise OutputFormatError(format, FORMATS[1:])
    root = evaluate(compiled, instance, findings)
    return _Shaper(compiled).shape(root, format)


def failure_output(format: str, errors: list[ValidationError]) -> dict[str, Any]:  # noqa: A002
    """The output of a validation that stopped before the schema could be applied (a value that is not
    JSON, or past a limit): its errors, at the root."""
    if format in ("list", "hierarchical"):
        unit = {
            "valid": False,
            "evaluationPath": "",
            "schemaLocation": "",
            "instanceLocation": "",
            "errors": {error.keyword: error.message for error in errors},
        }
        return {"valid": False, "details": [unit]} if format == "list" else unit
    units = [
        {"valid": False, "keywordLocation": "", "instanceLocation": error.path, "error": error.message}
        for error in errors
    ]
    return {"valid": False, "keywordLocation": "", "instanceLocation": "", "errors": units}


class _Shaper:
    """The units of one evaluation, written in one format's shape."""

    def __init__(self, compiled: Compiled) -> None:
        self.compiled = compiled

    def shape(self, root: _Unit, format: str) -> dict[str, Any]:  # noqa: A002
        if format == "basic":
            return self._basic(root)
        if format in ("detailed", "verbose"):
            return self._tree(root, verbose=format == "verbose", kept=True, top=True) or self._head(root)
        if format == "hierarchical":
            return self._hierarchical(root, kept=True)
        units = list(self._listed(root, kept=True))
        return {"valid": root.valid, "details": units}

    def _head(self, unit: _Unit) -> dict[str, Any]:
        return {
            "valid": unit.valid,
            "keywordLocation": unit.evaluation,
            "absoluteKeywordLocation": _absolute(self.compiled, unit.location),
            "instanceLocation": unit.instance,
        }

    # -- 2019-09 and 2020-12 ------------------------------------------------------------------

    def _basic(self, root: _Unit) -> dict[str, Any]:
        head = self._head(root)
        if root.valid:
            head["annotations"] = list(self._annotations(root))
        else:
            head["errors"] = list(self._errors(root))
        return head

    def _errors(self, unit: _Unit) -> Iterator[dict[str, Any]]:
        """The error units below a failing unit, depth first: failures inside passing units are not."""
        for message in unit.errors:
            yield {**self._head(unit), "error": message}
        for child in unit.children:
            if not child.valid:
                yield from self._errors(child)

    def _annotations(self, unit: _Unit) -> Iterator[dict[str, Any]]:
        """The annotation units below a passing unit: those of failing units are dropped."""
        if unit.annotation is not _NOTHING:
            yield {**self._head(unit), "annotation": unit.annotation}
        for child in unit.children:
            if child.valid:
                yield from self._annotations(child)

    def _tree(self, unit: _Unit, verbose: bool, kept: bool, top: bool = False) -> dict[str, Any] | None:
        """A unit with its children nested; ``detailed`` keeps only what carries the answer (the
        failures of a failing unit, the annotations of a passing one) and collapses single children."""
        kept = kept and unit.valid
        below: list[dict[str, Any]] = []
        for child in unit.children:
            if verbose or child.valid == unit.valid:
                shaped = self._tree(child, verbose, kept)
                if shaped is not None:
                    below.append(shaped)
        for message in unit.errors:
            below.append({**self._head(unit), "error": message})
        head = self._head(unit)
        if unit.annotation is not _NOTHING and kept:
            head["annotation"] = unit.annotation
        if not verbose and not top:
            if unit.valid and "annotation" not in head and not below:
                return None
            if len(below) == 1 and "annotation" not in head:
                return below[0]
        if below:
            head["errors" if not unit.valid else "annotations"] = below
        elif not unit.valid:
            return below[0] if below else None
        return head

    # -- the newer proposal ------------------------------------------------------------------

    def _proposal_unit(self, unit: _Unit, kept: bool) -> dict[str, Any]:
        """A schema unit of the newer form: its keywords' errors and annotations as objects."""
        head: dict[str, Any] = {
            "valid": unit.valid,
            "evaluationPath": unit.evaluation,
            "schemaLocation": _absolute(self.compiled, unit.location),
            "instanceLocation": unit.instance,
        }
        errors = {child.keyword: "; ".join(child.errors) for child in unit.children if child.errors}
        if unit.errors:  # a `false` schema: its one error, named for what it is
            errors["false"] = "; ".join(unit.errors)
        annotations = {
            child.keyword: child.annotation
            for child in unit.children
            if child.annotation is not _NOTHING and child.valid
        }
        if errors and not (kept and unit.valid):
            head["errors"] = errors
        if annotations:
            head["annotations" if kept and unit.valid else "droppedAnnotations"] = annotations
        return head

    def _schemas_below(self, unit: _Unit) -> Iterator[_Unit]:
        for keyword in unit.children:
            yield from keyword.children

    def _hierarchical(self, unit: _Unit, kept: bool) -> dict[str, Any]:
        kept = kept and unit.valid
        head = self._proposal_unit(unit, kept)
        details = [self._hierarchical(child, kept) for child in self._schemas_below(unit)]
        if details:
            head["details"] = details
        return head

    def _listed(self, unit: _Unit, kept: bool) -> Iterator[dict[str, Any]]:
        kept = kept and unit.valid
        head = self._proposal_unit(unit, kept)
        if head.keys() & {"errors", "annotations", "droppedAnnotations"}:
            yield head
        for child in self._schemas_below(unit):
            yield from self._listed(child, kept)
