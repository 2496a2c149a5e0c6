"""The cross-check: random schemas and instances, judged by an implementation and both oracles."""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any
from unittest import mock

from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st
from hypothesis.internal.conjecture import providers

from toolreg._jsonschema.pointer import split

from ._impl import Implementation, findings
from ._official import keywords_along, keywords_used
from ._oracle import Finding, Oracles, SchemaRefusal
from ._references import constructs
from ._strategies import InstancesFor, Strategy, example_schemas

__all__ = ["Disagreement", "KeywordCount", "Report", "compare", "run", "python_literal"]

# After this many distinct disagreements a run stops looking for more: they are usually one bug.
MAX_DISTINCT = 10


def _verdict_differs(ours: bool, theirs: bool | None) -> bool:
    return theirs is not None and ours is not theirs


@dataclass(frozen=True)
class Disagreement:
    """A schema and an instance on which the implementation and the oracles do not all agree."""

    schema: Any
    instance: Any
    ours: tuple[Finding, ...] | str  # a string when the implementation raised
    oracle: tuple[Finding, ...]
    second: bool | None  # jsonschema-rs's verdict, None where it has none
    refusal: SchemaRefusal | None = None  # set where an oracle finds the schema invalid

    @property
    def sides(self) -> str:
        """Who disagrees with whom, the odd one out named when there is one."""
        if self.refusal is not None:
            if self.refusal.both:
                return "the implementation accepted a schema both oracles refuse"
            return "jsonschema and jsonschema-rs differ on the schema's validity"
        if isinstance(self.ours, str):
            return "the implementation raised"
        ours_valid, oracle_valid = not self.ours, not self.oracle
        pairs = {
            ("implementation", "jsonschema"): not self.agrees_with_jsonschema,
            ("implementation", "jsonschema-rs"): _verdict_differs(ours_valid, self.second),
            ("jsonschema", "jsonschema-rs"): _verdict_differs(oracle_valid, self.second),
        }
        apart = [pair for pair, differs in pairs.items() if differs]
        if len(apart) == 3:
            return "three-way disagreement"
        if len(apart) == 2:
            (odd,) = set(apart[0]) & set(apart[1])
            return f"{odd} alone"
        (left, right) = apart[0]
        what = "verdicts" if ours_valid is not oracle_valid else "errors"
        return f"{left} and {right} differ in {what}"

    @property
    def agrees_with_jsonschema(self) -> bool:
        assert not isinstance(self.ours, str)
        if not self.errors_comparable:
            return (not self.ours) is (not self.oracle)
        return _same(self.ours, self.oracle, self.schema_paths_comparable)

    @property
    def errors_comparable(self) -> bool:
        # Divergence: under unevaluated* jsonschema gives one error for all the unevaluated properties
        # or items, without theirs; only the verdicts compare (docs/conformance.md, "Known divergences").
        return not {"unevaluatedProperties", "unevaluatedItems"} & keywords_used(self.schema)

    @property
    def schema_paths_comparable(self) -> bool:
        # jsonschema leaves "$ref" out of its schema paths, so only $ref-free schemas compare them.
        return "$ref" not in keywords_used(self.schema)

    @property
    def keywords(self) -> tuple[str, ...]:
        """The keywords of the findings that differ, else of all findings, else of the schema; for a
        schema an oracle refuses, the keyword jsonschema's reason names."""
        if self.refusal is not None and self.refusal.where:
            return (split(self.refusal.where)[-1],)
        if isinstance(self.ours, str):
            return tuple(sorted(keywords_used(self.schema)))
        differing = (Counter(self.ours) - Counter(self.oracle)) + (Counter(self.oracle) - Counter(self.ours))
        named = {finding.keyword for finding in differing} or {f.keyword for f in self.ours + self.oracle}
        return tuple(sorted(named or keywords_used(self.schema)))

    @property
    def signature(self) -> tuple[str, tuple[str, ...]]:
        return (self.sides, self.keywords)

    def reproduction(self, implementation_name: str) -> str:
        """A copy-pasteable account: the schema, the instance, and each side's answer."""
        ours = self.ours if isinstance(self.ours, str) else _show(self.ours)
        if self.refusal is not None:
            jsonschema_says = f"refuses the schema at {self.refusal.where!r}: {self.refusal.reason}"
            return "\n".join(
                [
                    f"{self.sides} (keywords: {', '.join(self.keywords)})",
                    f"  schema = {python_literal(self.schema)}",
                    f"  {implementation_name}: {ours}",
                    f"  jsonschema: {jsonschema_says if self.refusal.reason else 'accepts the schema'}",
                    f"  jsonschema-rs: {'accepts' if self.refusal.second_accepts else 'refuses'} the schema",
                ]
            )
        second = {None: "no verdict (not JSON)", True: "valid", False: "invalid"}[self.second]
        return "\n".join(
            [
                f"{self.sides} (keywords: {', '.join(self.keywords)})",
                f"  schema = {python_literal(self.schema)}",
                f"  instance = {python_literal(self.instance)}",
                f"  {implementation_name}: {ours}",
                f"  jsonschema (adjusted): {_show(self.oracle)}",
                f"  jsonschema-rs: {second}",
            ]
        )


def _show(found: Iterable[Finding]) -> str:
    return json.dumps([[finding.path, finding.keyword, finding.schema_path] for finding in found])


def python_literal(value: Any) -> str:
    """``repr`` that pastes back into Python, NaN and infinities included."""
    if isinstance(value, float) and not math.isfinite(value):
        return f'float("{value}")'
    if isinstance(value, list):
        return "[" + ", ".join(python_literal(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key!r}: {python_literal(item)}" for key, item in value.items()) + "}"
    return repr(value)


def _same(ours: Iterable[Finding], theirs: Iterable[Finding], schema_paths: bool) -> bool:
    ours, theirs = list(ours), list(theirs)
    if Counter((f.path, f.keyword) for f in ours) != Counter((f.path, f.keyword) for f in theirs):
        return False
    if schema_paths and all(finding.schema_path is not None for finding in ours):
        return Counter(ours) == Counter(theirs)
    return True


def compare(
    implementation: Implementation, oracles: Oracles, schema: Any, instance: Any
) -> Disagreement | None:
    """None when all agree; otherwise what each side said. Any exception is a disagreement, but for
    a schema both oracles find invalid against its dialect's meta-schema, where raising is the answer
    (a refusal) and returning errors is a disagreement."""
    if oracles.refusal is not None:
        try:
            answer: tuple[Finding, ...] | str = tuple(findings(implementation, schema, instance))
        except Exception as error:
            if oracles.refusal.both:
                return None
            answer = f"refused the schema: {type(error).__name__}: {error}"
        return Disagreement(schema, instance, answer, (), None, oracles.refusal)
    expected = tuple(oracles.findings(instance))
    second = oracles.second_verdict(instance)
    try:
        actual = tuple(findings(implementation, schema, instance))
    except Exception as error:  # the implementation under test must never raise on JSON input
        return Disagreement(schema, instance, f"raised {type(error).__name__}: {error}", expected, second)
    disagreement = Disagreement(schema, instance, actual, expected, second)
    agreed = disagreement.agrees_with_jsonschema and not _verdict_differs(not actual, second)
    return None if agreed else disagreement


@dataclass
class KeywordCount:
    """How much one keyword was exercised: schemas, instances, oracle errors through it, disputes."""

    schemas: int = 0
    instances: int = 0
    failed: int = 0
    disagreed: int = 0


@dataclass
class Report:
    """What a run saw: ``disagreements`` counts instances, ``found`` holds one shrunk example per kind."""

    schemas: int = 0
    instances: int = 0
    disagreements: int = 0
    refused: int = 0  # schemas an oracle finds invalid: judged once, on one instance
    keywords: dict[str, KeywordCount] = field(default_factory=dict)
    constructs: Counter[str] = field(default_factory=Counter)  # see _references.constructs
    found: list[Disagreement] = field(default_factory=list)

    def count(
        self, schema: Any, instance: Any, oracle: Iterable[Finding], disagreement: Disagreement | None
    ) -> None:
        self.instances += 1
        oracle = list(oracle)
        self.constructs.update(constructs(schema, instance, [finding.path for finding in oracle]))
        failed: set[str] = set()
        for finding in oracle:
            failed.add(finding.keyword)
            failed |= keywords_along(schema, finding.schema_path or "")
        for keyword in keywords_used(schema):
            counts = self.keywords.setdefault(keyword, KeywordCount())
            counts.instances += 1
            counts.failed += keyword in failed
            counts.disagreed += disagreement is not None
        self.disagreements += disagreement is not None


@contextmanager
def _no_local_constants() -> Iterator[None]:
    """Draw without the constants Hypothesis reads from the source of the local modules imported so far.

    Hypothesis mixes those into its draws, and the set grows as a process imports more of the
    project, so a run's draws would depend on what ran before it: the same seed must give the same
    run whatever ran first. (Hypothesis offers no setting for this; the functions patched here are
    its own, of the version pinned in requirements-test.txt.)
    """
    empty = providers.Constants()  # type: ignore[attr-defined]
    providers.CONSTANTS_CACHE.cache.clear()
    try:
        with mock.patch.object(providers, "_get_local_constants", lambda: empty):
            yield
    finally:
        providers.CONSTANTS_CACHE.cache.clear()


class _Found(Exception):
    def __init__(self, disagreement: Disagreement) -> None:
        super().__init__(disagreement.signature)
        self.disagreement = disagreement


def run(
    implementation: Implementation,
    *,
    examples: int,
    seed_value: int,
    keywords: Collection[str] | None = None,
    max_distinct: int = MAX_DISTINCT,
    progress: Callable[[int, int, int], None] | None = None,
    count_all: bool = True,
    shrink: bool = True,
) -> Report:
    """Draw ``examples`` examples, each a random schema, a reference one and a focused one (see
    ``example_schemas``) with several instances each, and compare every verdict and error.

    Each new kind of disagreement stops Hypothesis, which shrinks it; the run then starts again from
    the same seed, counting that kind without stopping, until a full pass finds nothing new. With
    ``count_all=False`` the run ends at the first disagreement, shrunk, and counts only the instances
    it judged until then: enough to show that a wrong implementation is caught. ``shrink=False``
    keeps the disagreement as first drawn, for when finding it is all that matters.
    """
    found: list[Disagreement] = []
    known: set[tuple[str, tuple[str, ...]]] = set()
    drawn = example_schemas(keywords)
    while True:
        stop_at_new = len(found) < max_distinct
        report, new = _one_pass(
            implementation, drawn, examples, seed_value, known, stop_at_new, progress, shrink
        )
        if new is not None:
            found.append(new)
            known.add(new.signature)
        if new is None or not count_all:
            report.found = found
            return report


def _one_pass(
    implementation: Implementation,
    drawn: list[tuple[str, Strategy, InstancesFor]],
    examples: int,
    seed_value: int,
    known: set[tuple[str, tuple[str, ...]]],
    stop_at_new: bool,
    progress: Callable[[int, int, int], None] | None,
    shrink: bool = True,
) -> tuple[Report, Disagreement | None]:
    """One Hypothesis run: a full report, or the first new kind of disagreement, shrunk."""
    report = Report()
    attempt = len(known) + 1
    done = 0

    @settings(
        max_examples=examples,
        database=None,
        deadline=None,
        phases=[Phase.generate, Phase.shrink] if shrink else [Phase.generate],
        suppress_health_check=list(HealthCheck),
        report_multiple_bugs=False,
    )
    @seed(seed_value)
    @given(st.data())
    def cross_check(data: st.DataObject) -> None:
        nonlocal done
        for label, strategy, instances_for in drawn:
            schema = data.draw(strategy, label=label)
            instances = data.draw(instances_for(schema), label=f"instances of the {label}")
            oracles = Oracles(schema)
            if oracles.refusal is not None:
                # The schema is what is judged: an implementation must refuse it, whatever the instance.
                instances = instances[:1]
                report.refused += 1
            report.schemas += 1
            for keyword in keywords_used(schema):
                report.keywords.setdefault(keyword, KeywordCount()).schemas += 1
            for instance in instances:
                disagreement = compare(implementation, oracles, schema, instance)
                report.count(schema, instance, oracles.findings(instance), disagreement)
                if disagreement is not None and stop_at_new and disagreement.signature not in known:
                    raise _Found(disagreement)
        done += 1
        if progress is not None:
            progress(attempt, done, examples)

    try:
        with _no_local_constants():
            cross_check()
    except _Found as stop:
        # Hypothesis raises the shrunk example's exception last, so this is the minimal one.
        return report, stop.disagreement
    return report, None
