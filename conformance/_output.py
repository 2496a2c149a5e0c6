"""The standard output cross-check: toolreg's ``output`` against jsonschema-rs's ``evaluate()``."""

from __future__ import annotations

import functools
import json
from collections import Counter
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

import jsonschema_rs
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

import toolreg
from toolreg._jsonschema.pointer import split, to_pointer

from ._differential import _no_local_constants
from ._official import default_suite_dir
from ._oracle import Oracles, OraclesBySchema, non_finite_places
from ._strategies import REFERENCE_LABEL, example_schemas, instances_for

__all__ = [
    "OUTPUT_DIVERGENCES",
    "OutputReport",
    "rs_drops_beside_additional_properties",
    "rs_drops_under_contains_bounds",
    "rs_false_required",
    "rs_repeated_names",
    "run_output",
]

# Where the two outputs differ by design, each with its reason; the comparison leaves these out.
OUTPUT_DIVERGENCES = {
    "false-parts": (
        "additionalProperties, unevaluatedProperties, items (2020-12), additionalItems and unevaluatedItems "
        "holding false: "
        "jsonschema-rs reports the keyword at the container and again each refused part as a false "
        "schema at the part; toolreg reports the keyword once, at the container, naming the parts"
    ),
    "verdict": (
        "a different verdict on the whole instance: the random cross-check judges these (jsonschema-rs "
        "has no say on binary floats divided by multipleOf), so no units are compared"
    ),
    "summaries": (
        "anyOf and oneOf matching no subschema, and additionalProperties, unevaluatedProperties, "
        "additionalItems and unevaluatedItems whose subschema failed on a part: where units below say "
        "what failed, jsonschema-rs leaves out the keyword's own unit (anyOf, oneOf) or adds one "
        "(unevaluated*), and toolreg words the keyword's unit as its validate() does; such a unit is "
        "compared only where nothing below it failed"
    ),
    "unevaluated-after-failure": (
        "unevaluated* beside a $ref or branch that fails: the failing subschema's annotations are "
        "dropped, so what it evaluated is unevaluated (Core 7.7.1.2); jsonschema-rs, like jsonschema, "
        "counts it as evaluated (the random cross-check's known divergence for unevaluated*). Units "
        "at or below unevaluated* are compared only where this cannot explain the difference"
    ),
    "if-annotations": (
        "annotations of an if subschema that passes: toolreg keeps them, as the specification does (they "
        "are what unevaluated* reads of if); jsonschema-rs's evaluate() leaves them out of its output"
    ),
    "entry-path": (
        "dependentRequired: jsonschema-rs's evaluation path goes on below the keyword, to the entry that "
        "failed; toolreg's keywordLocation ends at the keyword, as the specification's does"
    ),
    "true-subschema": (
        "additionalProperties holding the schema true: jsonschema-rs writes no annotation for it, toolreg "
        "writes the names it applied to, as it does for any other subschema (Core 10.3.2.3)"
    ),
    "empty-annotation": (
        "an annotation naming nothing (properties, patternProperties, additionalProperties or "
        "unevaluatedProperties that applied to no property; contains matching no item): jsonschema-rs "
        "writes some of them, toolreg writes every one; only annotations naming something are compared"
    ),
    "property-names": (
        "units below propertyNames: both write every name's units at the object, so one name's "
        "passing unit would hide another's failing ones; each side's units there are compared as one "
        "unit per propertyNames that failed (jsonschema-rs's unit at the keyword says each name's verdict)"
    ),
    # jsonschema-rs's own departures from the specification, each found by a function below.
    "rs-false-required": (
        "jsonschema-rs's evaluate() reports required failing for a name the object holds (where "
        "additionalProperties: false refuses a name beside properties); its verdict is right, and "
        "toolreg reports no such error (Validation 6.5.3): that unit is left out"
    ),
    "rs-annotations-beside-additional-properties": (
        "jsonschema-rs's evaluate() drops the properties and patternProperties annotations of a schema "
        "whose additionalProperties is not true; toolreg writes them (Core 10.3.2.1, 10.3.2.2): they "
        "are left out where jsonschema-rs has none"
    ),
    "rs-repeated-names": (
        "jsonschema-rs's evaluate() writes a name once for each pattern of patternProperties that "
        "matched it; the annotation is the set of names matched (Core 10.3.2.2), as toolreg writes "
        "it: each name is read once"
    ),
    "rs-annotations-under-contains-bounds": (
        "jsonschema-rs's evaluate() drops every annotation below contains when minContains or "
        "maxContains sits beside it; toolreg keeps those of the items that matched (Core 10.3.1.3, "
        "7.7.1.2): they are left out where jsonschema-rs has none"
    ),
}

# The annotations both write: what applicators evaluated, and the annotation keywords' values.
_COMPARED_ANNOTATIONS = frozenset(
    (
        "properties",
        "patternProperties",
        "additionalProperties",
        "prefixItems",
        "title",
        "description",
        "default",
        "examples",
        "deprecated",
        "readOnly",
        "writeOnly",
    )
)
_REFUSING_REST = frozenset(
    ("additionalProperties", "unevaluatedProperties", "items", "additionalItems", "unevaluatedItems")
)

_SUMMARISING = _REFUSING_REST | {"anyOf", "oneOf"}
_UNEVALUATED = frozenset(("unevaluatedProperties", "unevaluatedItems"))

Unit = tuple[str, str]


@dataclass
class OutputReport:
    """What the output cross-check saw: instances compared, agreements, and each disagreement once."""

    schemas: int = 0
    instances: int = 0
    compared_errors: int = 0
    compared_annotations: int = 0
    # Every format of every output held to the official output schemas, and the basic output's error
    # units to validate()'s errors; None where the official suite is not there.
    checked_outputs: int | None = None
    excused: Counter[str] = field(default_factory=Counter)
    disagreements: list[str] = field(default_factory=list)
    # One of each kind is kept (what differs, not where): the count says how many were seen.
    kinds: Counter[str] = field(default_factory=Counter)

    def disagree(self, kind: str, shown: str) -> None:
        if not self.kinds[kind]:
            self.disagreements.append(shown)
        self.kinds[kind] += 1

    def agreement(self) -> str:
        return (
            f"standard output against jsonschema-rs evaluate(): {self.schemas} schemas, {self.instances} "
            f"instances; verdicts and error units (instanceLocation, keywordLocation) compared on "
            f"{self.compared_errors} invalid instances, annotations on {self.compared_annotations} valid "
            f"ones; {self._outputs_checked()}; disagreements: {sum(self.kinds.values())} of "
            f"{len(self.kinds)} kinds"
        )

    def _outputs_checked(self) -> str:
        if self.checked_outputs is None:
            return "outputs not held to the official output schemas (the official suite is not there)"
        return (
            f"{self.checked_outputs} outputs of every format held to the official output schemas, "
            "and each invalid instance's basic output to validate()'s errors"
        )


def _segments(pointer: str) -> list[str]:
    return pointer.split("/")[1:] if pointer else []


def _within(outer: Unit, inner: Unit) -> bool:
    """Whether a unit at ``outer`` (instance, evaluation path) holds the one at ``inner``."""
    (outer_at, outer_path), (inner_at, inner_path) = outer, inner
    return (
        outer != inner
        and _segments(inner_at)[: len(_segments(outer_at))] == _segments(outer_at)
        and _segments(inner_path)[: len(_segments(outer_path))] == _segments(outer_path)
    )


def their_errors(details: list[dict[str, Any]]) -> set[Unit]:
    """jsonschema-rs's error units that carry the answer (not inside a unit that passed), normalised."""
    schemas = {(unit["instanceLocation"], unit["evaluationPath"]) for unit in details}
    passing = [
        (unit["instanceLocation"], _to_keyword(unit["evaluationPath"]))
        for unit in details
        if unit["valid"] and "propertyNames" not in _segments(unit["evaluationPath"])
    ]
    found = set()
    for unit in details:
        at, path = unit["instanceLocation"], _to_keyword(unit["evaluationPath"])
        if "propertyNames" in _segments(path):
            # OUTPUT_DIVERGENCES["property-names"]: each name's verdict is its unit at the keyword.
            at_keyword = path == _names_cut(path) and not unit["valid"]
            if at_keyword and not any(_within(outer, (at, path)) for outer in passing):
                found.add((at, path))
            continue
        if "errors" not in unit or any(_within(outer, (at, path)) for outer in passing):
            continue
        refusing = _segments(path)[-1:] and _segments(path)[-1] in _REFUSING_REST
        if refusing and "falseSchema" in unit["errors"] and (at, _parent(path)) not in schemas:
            at = _parent(at)  # OUTPUT_DIVERGENCES["false-parts"]: a part, reported at its container
        found.add((at, path))
    return _without_summaries(found)


def _names_cut(path: str) -> str:
    """A path cut after its first propertyNames: the unit that stands for the keyword's subschema."""
    segments = _segments(path)
    if "propertyNames" in segments:
        segments = segments[: segments.index("propertyNames") + 1]
    return "".join(f"/{segment}" for segment in segments)


def _parent(pointer: str) -> str:
    return pointer.rpartition("/")[0]


def _without_summaries(found: set[Unit]) -> set[Unit]:
    """The units of anyOf, oneOf and the keywords for the rest left out where units below them say
    what failed (OUTPUT_DIVERGENCES["summaries"])."""
    return {
        unit
        for unit in found
        if not (
            _segments(unit[1])[-1:]
            and _segments(unit[1])[-1] in _SUMMARISING
            and any(_within(unit, other) for other in found)
        )
    }


def our_errors(basic: dict[str, Any]) -> set[Unit]:
    return _without_summaries(
        {(unit["instanceLocation"], _names_cut(unit["keywordLocation"])) for unit in basic["errors"]}
    )


def rs_false_required(unit: dict[str, Any], instance: Any) -> bool:
    """Whether a unit of jsonschema-rs's ``evaluate()`` is a ``required`` error for a name the object
    holds (OUTPUT_DIVERGENCES["rs-false-required"]): its message names the name, as a JSON string.

    ``{"required": ["a"], "additionalProperties": false, "properties": {"b": {}}}`` against
    ``{"a": 1}``: jsonschema-rs reports ``"a" is a required property`` beside the right
    ``additionalProperties`` error. Validation 6.5.3: the object is valid against ``required`` when it
    holds every name listed, and it holds ``a``.
    """
    message = unit.get("errors", {}).get("required")
    if not isinstance(message, str) or _segments(unit["evaluationPath"])[-1:] != ["required"]:
        return False
    try:
        name, _ = json.JSONDecoder().raw_decode(message)
    except ValueError:
        return False
    held = _pointed(instance, unit["instanceLocation"])
    return isinstance(held, dict) and isinstance(name, str) and name in held


def rs_drops_beside_additional_properties(schema: Any, path: str) -> bool:
    """Whether toolreg's annotation at ``path`` is one jsonschema-rs's ``evaluate()`` drops
    (OUTPUT_DIVERGENCES["rs-annotations-beside-additional-properties"]): properties or
    patternProperties in a schema whose additionalProperties is anything but true.

    ``{"properties": {"a": {}}, "additionalProperties": {"type": "integer"}}`` against ``{"a": 1}``:
    jsonschema-rs writes no annotation for ``/properties``, toolreg writes ``["a"]``, the names it
    applied to (Core 10.3.2.1).
    """
    if _segments(path)[-1:] not in (["properties"], ["patternProperties"]):
        return False
    holder = _at(schema, _parent(path))
    return isinstance(holder, dict) and holder.get("additionalProperties", True) is not True


def rs_drops_under_contains_bounds(schema: Any, path: str) -> bool:
    """Whether toolreg's annotation at ``path`` lies below a ``contains`` with ``minContains`` or
    ``maxContains`` beside it, where jsonschema-rs's ``evaluate()`` drops every annotation
    (OUTPUT_DIVERGENCES["rs-annotations-under-contains-bounds"]).

    ``{"contains": {"properties": {"a": true}}, "maxContains": 2}`` against ``[{"a": 1}]``: the item
    matched, so its ``properties`` annotation ``["a"]`` stands (Core 10.3.1.3, 7.7.1.2), and
    jsonschema-rs writes none.
    """
    segments = _segments(path)
    for index, segment in enumerate(segments[:-1]):
        if segment == "contains":
            holder = _at(schema, "".join(f"/{step}" for step in segments[:index]))
            if isinstance(holder, dict) and {"minContains", "maxContains"} & holder.keys():
                return True
    return False


def _to_keyword(path: str) -> str:
    """An evaluation path cut after a keyword whose entries jsonschema-rs names (OUTPUT_DIVERGENCES)."""
    segments = _segments(path)
    if "dependentRequired" in segments:
        segments = segments[: segments.index("dependentRequired") + 1]
    return "".join(f"/{segment}" for segment in segments)


def _annotation_key(value: Any) -> str:
    return json.dumps(sorted(value, key=json.dumps) if isinstance(value, list) else value, sort_keys=True)


def rs_repeated_names(keyword: str, annotation: Any) -> Any:
    """The annotation jsonschema-rs's ``evaluate()`` writes for ``keyword``, each name once
    (OUTPUT_DIVERGENCES["rs-repeated-names"]).

    ``{"patternProperties": {"^a": {}, "a$": {}}}`` against ``{"a": 1}``: jsonschema-rs writes
    ``["a", "a"]``, a name once for each pattern that matched it; the annotation is the set of names
    the keyword matched (Core 10.3.2.2), which toolreg writes, ``["a"]``.
    """
    if keyword in _NAME_SETS and isinstance(annotation, list):
        return list(dict.fromkeys(annotation))
    return annotation


# The annotations that are sets of property names.
_NAME_SETS = frozenset(("properties", "patternProperties", "additionalProperties"))


def their_annotations(
    details: list[dict[str, Any]], repeated: list[Any] | None = None
) -> set[tuple[str, str, str]]:
    """jsonschema-rs's annotations as (instance location, evaluation path, value); each annotation
    whose names it repeated (see :func:`rs_repeated_names`) is also put in ``repeated``."""
    found = set()
    for unit in details:
        if "annotations" not in unit:
            continue
        annotations, at, path = unit["annotations"], unit["instanceLocation"], unit["evaluationPath"]
        segments = _segments(path)
        if (
            segments
            and segments[-1] in _COMPARED_ANNOTATIONS - {"default", "examples"}
            and not isinstance(annotations, dict)
        ):
            once = rs_repeated_names(segments[-1], annotations)
            if once != annotations and repeated is not None:
                repeated.append(annotations)
            found.add((at, path, _annotation_key(once)))
        elif isinstance(annotations, dict):
            found.update(
                (at, f"{path}/{keyword}", _annotation_key(value))
                for keyword, value in annotations.items()
                if keyword in _COMPARED_ANNOTATIONS
            )
    return {entry for entry in found if entry[2] != "[]"}


def our_annotations(basic: dict[str, Any]) -> set[tuple[str, str, str]]:
    return {
        (unit["instanceLocation"], unit["keywordLocation"], _annotation_key(unit["annotation"]))
        for unit in basic["annotations"]
        if _segments(unit["keywordLocation"])[-1] in _COMPARED_ANNOTATIONS and unit["annotation"] != []
    }


def _compare(
    report: OutputReport,
    schema: Any,
    validator: toolreg.Validator,
    oracles: Oracles,
    instance: Any,
    evaluator: Any,
) -> None:
    report.instances += 1
    # Every format from one evaluation, as output() writes each: one walk, not one for each format.
    written = dict(zip(_FORMATS, validator._outputs(instance, _FORMATS), strict=True))
    basic = written["basic"]
    errors = validator.validate(instance)
    verdict = not errors
    if any(output["valid"] is not verdict for output in written.values()):
        report.disagree("verdict", _shown("output's verdict is not validate's", schema, instance, basic))
        return
    _check_outputs(report, schema, errors, instance, written, validator._compiled_schema().resources)
    theirs = oracles.second_verdict(instance)
    if theirs is None or theirs is not verdict:
        report.excused["verdict"] += 1
        return
    details: list[dict[str, Any]] = evaluator.evaluate(instance).list()["details"]
    ours_found: set[Any]
    theirs_found: set[Any]
    if verdict:
        repeated: list[Any] = []
        ours_found, theirs_found = our_annotations(basic), their_annotations(details, repeated)
        if repeated:
            report.excused["rs-repeated-names"] += 1
        report.compared_annotations += 1
        what = "annotations"
        for kind, dropped_by_rs in _RS_DROPPED_ANNOTATIONS.items():
            dropped = {entry for entry in ours_found - theirs_found if dropped_by_rs(schema, entry[1])}
            if dropped:
                report.excused[kind] += 1
                ours_found -= dropped
    else:
        kept = [unit for unit in details if not rs_false_required(unit, instance)]
        if len(kept) < len(details):
            report.excused["rs-false-required"] += 1
        ours_found, theirs_found = our_errors(basic), their_errors(kept)
        report.compared_errors += 1
        what = "error units"
    if ours_found != theirs_found and all(
        _UNEVALUATED & set(_segments(entry[1])) for entry in ours_found ^ theirs_found
    ):
        report.excused["unevaluated-after-failure"] += 1
    elif (
        verdict
        and ours_found != theirs_found
        and all("if" in _segments(entry[1]) for entry in ours_found - theirs_found)
        and theirs_found <= ours_found
    ):
        report.excused["if-annotations"] += 1
    elif (
        verdict
        and ours_found > theirs_found
        and all(
            _segments(entry[1])[-1] == "additionalProperties" and _at(schema, entry[1]) is True
            for entry in ours_found - theirs_found
        )
    ):
        report.excused["true-subschema"] += 1
    elif ours_found != theirs_found:
        only_ours, only_theirs = sorted(ours_found - theirs_found), sorted(theirs_found - ours_found)
        difference = f"only toolreg: {only_ours}; only jsonschema-rs: {only_theirs}"
        kind = what + repr(sorted(_last(ours_found ^ theirs_found)))
        report.disagree(kind, _shown(f"{what} differ ({difference})", schema, instance, basic))


# -- every output against the official output schemas, and against validate() ---------------------

_DIALECT_FORMATS = ("flag", "basic", "detailed", "verbose")
# The newer proposal's forms, by the name of their definition in its output schema.
_PROPOSAL_FORMATS = {"list": "basic", "hierarchical": "hierarchical"}
_FORMATS = (*_DIALECT_FORMATS, *_PROPOSAL_FORMATS)


@functools.cache
def _output_schemas() -> dict[tuple[str, str], Any] | None:
    """jsonschema-rs validators of the official output schemas' definition of each format, by the
    dialect whose outputs they describe ("v1" for the newer proposal's list and hierarchical forms)
    and the definition's name; None without the suite. (Each document's root is only an anyOf of
    its definitions, the first of which, flag, any output passes.)"""
    folder = default_suite_dir() / "output-tests"
    if not folder.is_dir():
        return None
    checkers: dict[tuple[str, str], Any] = {}
    for dialect, name in (("2020-12", "draft2020-12"), ("2019-09", "draft2019-09"), ("v1", "v1")):
        document = json.loads((folder / name / "output-schema.json").read_text(encoding="utf-8"))
        # jsonschema-rs does not know the v1 meta-schema's URI; its documents are plain 2020-12.
        build = (
            jsonschema_rs.Draft201909Validator if dialect == "2019-09" else jsonschema_rs.Draft202012Validator
        )
        for definition in document["$defs"]:
            one = {key: value for key, value in document.items() if key not in ("$schema", "anyOf")}
            checkers[dialect, definition] = build({**one, "$ref": f"#/$defs/{definition}"})
    return checkers


def _dialect_of(schema: Any) -> str:
    """The dialect whose output schema describes this schema's basic, detailed and verbose output:
    2019-09's for 2019-09 and draft-07 (whose specification has none), else 2020-12's."""
    declared = schema.get("$schema", "") if isinstance(schema, dict) else ""
    return "2019-09" if "2019-09" in declared or "draft-07" in declared else "2020-12"


def _check_outputs(
    report: OutputReport,
    schema: Any,
    errors: Any,
    instance: Any,
    written: dict[str, dict[str, Any]],
    resources: Mapping[str, Any],
) -> None:
    """Each format of the output for ``instance`` valid against its official output schema, and an
    invalid instance's basic error units the places of validate()'s ``errors`` (branches included)."""
    checkers = _output_schemas()
    if checkers is None:
        return
    report.checked_outputs = (report.checked_outputs or 0) + 1
    dialect = _dialect_of(schema)
    basic = written["basic"]
    for form, output in written.items():
        checker = checkers[("v1", _PROPOSAL_FORMATS[form]) if form in _PROPOSAL_FORMATS else (dialect, form)]
        if not checker.is_valid(output):
            broken = next(iter(checker.iter_errors(output)))
            report.disagree(
                f"output schema {form}",
                _shown(
                    f"the {form} output breaks the official output schema at {broken.instance_path}: "
                    f"{broken.message}",
                    schema,
                    instance,
                    output,
                ),
            )
    if basic["valid"]:
        return
    validated, units = validate_units(errors), output_units(basic, resources)
    if validated != units:
        difference = f"only output: {sorted(units - validated)}; only validate: {sorted(validated - units)}"
        kind = "output against validate" + repr(sorted(_last(validated ^ units)))
        report.disagree(
            kind, _shown(f"output's errors are not validate's ({difference})", schema, instance, basic)
        )


def validate_units(errors: Any) -> set[Unit]:
    """validate()'s errors as (instance location, schema location), an anyOf's or oneOf's branches
    too."""
    found: set[Unit] = set()
    pending = [error.to_dict() for error in errors]
    while pending:
        error = pending.pop()
        found.add((error["path"], error["schema_path"]))
        for branch in error.get("branches", ()):
            pending.extend(branch)
    return found


def output_units(basic: dict[str, Any], resources: Mapping[str, Any]) -> set[Unit]:
    """The basic output's error units as (instance location, the pointer from the document's root to
    the schema location that its absolute location names, through the ``resources`` the schema
    declares by ``$id``, as validate()'s schema paths are written)."""
    found = set()
    for unit in basic["errors"]:
        base, _, fragment = unit["absoluteKeywordLocation"].partition("#")
        root = resources.get(base, ())
        found.add((unit["instanceLocation"], to_pointer(root) + unquote(fragment)))
    return found


def _at(schema: Any, path: str) -> Any:
    """The value at an evaluation path, through ``$ref``s to places in the schema ("#/..."), else None."""
    value = schema
    for segment in split(path):
        if segment == "$ref" and isinstance(value, dict) and isinstance(value.get("$ref"), str):
            target = value["$ref"]
            if target != "#" and not target.startswith("#/"):
                return None
            value = _pointed(schema, unquote(target[1:]))
        elif segment in ("$ref", "$dynamicRef", "$recursiveRef"):
            return None
        else:
            value = _pointed(value, "/" + segment.replace("~", "~0").replace("/", "~1"))
    return value


def _pointed(value: Any, pointer: str) -> Any:
    """The value an RFC 6901 pointer names in ``value``, or None."""
    for token in split(pointer):
        if isinstance(value, dict) and token in value:
            value = value[token]
        elif isinstance(value, list) and token.isdigit() and int(token) < len(value):
            value = value[int(token)]
        else:
            return None
    return value


# The annotations jsonschema-rs's evaluate() drops, each found by its function above.
_RS_DROPPED_ANNOTATIONS = {
    "rs-annotations-beside-additional-properties": rs_drops_beside_additional_properties,
    "rs-annotations-under-contains-bounds": rs_drops_under_contains_bounds,
}


def _last(found: set[Any]) -> set[str]:
    """The keywords at the end of the locations that differ: a disagreement's kind."""
    return {_segments(entry[1])[-1] if entry[1] else "" for entry in found}


def _shown(what: str, schema: Any, instance: Any, output: dict[str, Any]) -> str:
    shown = f"\n  schema: {json.dumps(schema)}\n  instance: {json.dumps(instance)}"
    return f"{what}{shown}\n  toolreg: {json.dumps(output)}"


def run_output(examples: int, seed_value: int, keywords: Collection[str] | None = None) -> OutputReport:
    """Draw ``examples`` examples (a random schema and a focused one each, with their instances) and
    compare toolreg's standard output with jsonschema-rs's on each instance."""
    report = OutputReport()
    oracles_of = OraclesBySchema()
    # The random and focused schemas only: the reference draws are for the verdict cross-check.
    drawn = [
        (label, strategy) for label, strategy, _ in example_schemas(keywords) if label != REFERENCE_LABEL
    ]

    @settings(
        max_examples=examples,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @seed(seed_value)
    @given(st.data())
    def cross_check(data: st.DataObject) -> None:
        for label, strategy in drawn:
            schema = data.draw(strategy, label=label)
            instances = data.draw(instances_for(schema), label=f"instances of the {label}")
            try:
                validator = toolreg.compile(schema)
            except toolreg.SchemaError:
                continue
            oracles, evaluator = oracles_of(schema), jsonschema_rs.validator_for(schema)
            report.schemas += 1
            for instance in _json_only(instances):
                _compare(report, schema, validator, oracles, instance, evaluator)

    with _no_local_constants():
        cross_check()
    return report


def _json_only(instances: list[Any]) -> Iterator[Any]:
    return (instance for instance in instances if next(non_finite_places(instance), None) is None)
