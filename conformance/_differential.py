"""The cross-check: random schemas and instances, judged by an implementation and both oracles."""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any
from unittest import mock

from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st
from hypothesis.internal.conjecture import providers

from toolreg._jsonschema.pointer import split

from ._impl import Implementation, findings
from ._official import keywords_along, keywords_used
from ._oracle import Finding, Oracles, OraclesBySchema, SchemaRefusal
from ._references import constructs
from ._shrink import shrunk
from ._strategies import example_schemas

__all__ = [
    "DEFAULT_MAX_KINDS",
    "Disagreement",
    "Drawn",
    "Kind",
    "KeywordCount",
    "Report",
    "compare",
    "draw",
    "python_literal",
    "replay",
    "run",
]

# A run stops once it has found this many kinds of disagreement: they are usually one bug or two,
# and each further example judged would only count them again.
DEFAULT_MAX_KINDS = 3

# What makes two disagreements the same: their shape (see Disagreement.shape) and the keywords involved.
Kind = tuple[str, tuple[str, ...]]

RAISED = "the implementation raised"


def _verdict_differs(ours: bool, theirs: bool | None) -> bool:
    return theirs is not None and ours is not theirs


def _valid(verdict: bool) -> str:
    return "valid" if verdict else "invalid"


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
            return RAISED
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
    def raised(self) -> bool:
        """The implementation raised where the oracles judged the instance (not a refused schema)."""
        return isinstance(self.ours, str) and self.refusal is None

    @property
    def shape(self) -> str:
        """What kind of answer differs: the schema's validity, an exception (by its type), the verdict
        (saying who is alone), or, the verdicts agreeing, the errors (left out, added, or placed,
        named or located otherwise)."""
        if self.refusal is not None:
            return self.sides
        if isinstance(self.ours, str):
            return f"{RAISED} {self.ours.removeprefix('raised ').partition(':')[0]}"
        verdicts = {"the implementation": not self.ours, "jsonschema": not self.oracle}
        if self.second is not None:
            verdicts["jsonschema-rs"] = self.second
        if len(set(verdicts.values())) > 1:
            if len(verdicts) == 2:
                said = ", ".join(f"{who} says {_valid(verdict)}" for who, verdict in verdicts.items())
                return f"verdict: {said} (jsonschema-rs has no say)"
            odd = next(
                who for who, verdict in verdicts.items() if list(verdicts.values()).count(verdict) == 1
            )
            return f"verdict: {odd} alone says {_valid(verdicts[odd])}"
        ours = Counter((finding.path, finding.keyword) for finding in self.ours)
        theirs = Counter((finding.path, finding.keyword) for finding in self.oracle)
        if ours == theirs:
            return "errors: other schema paths"
        if Counter(keyword for _, keyword in ours.elements()) == Counter(k for _, k in theirs.elements()):
            return "errors: the same keywords at other places"
        if ours < theirs:
            return "errors: the implementation leaves some out"
        if ours > theirs:
            return "errors: the implementation adds some"
        return "errors: other keywords"

    @property
    def kind(self) -> Kind:
        """The shape and the keywords involved: one bug shows as one kind, however often it is met.
        An exception is one kind by its type, whatever the schema held."""
        return (self.shape, () if self.raised else self.keywords)

    @property
    def agrees_with_jsonschema(self) -> bool:
        assert not isinstance(self.ours, str)
        return _agree(self.ours, self.oracle, self._used)

    @cached_property
    def _used(self) -> frozenset[str]:
        return frozenset(keywords_used(self.schema))

    @property
    def keywords(self) -> tuple[str, ...]:
        """The keywords of the findings that differ, else of all findings, else of the schema; for a
        schema an oracle refuses, the keyword jsonschema's reason names."""
        if self.refusal is not None and self.refusal.where:
            return (split(self.refusal.where)[-1],)
        if isinstance(self.ours, str):
            return tuple(sorted(self._used))
        differing = (Counter(self.ours) - Counter(self.oracle)) + (Counter(self.oracle) - Counter(self.ours))
        named = {finding.keyword for finding in differing} or {f.keyword for f in self.ours + self.oracle}
        return tuple(sorted(named or self._used))

    @property
    def _headline(self) -> str:
        return f"{self.shape} (keywords: {', '.join(self.keywords)})" if self.keywords else self.shape

    def reproduction(self, implementation_name: str) -> str:
        """A copy-pasteable account: the schema, the instance, and each side's answer."""
        ours = self.ours if isinstance(self.ours, str) else _show(self.ours)
        if self.refusal is not None:
            jsonschema_says = f"refuses the schema at {self.refusal.where!r}: {self.refusal.reason}"
            return "\n".join(
                [
                    self._headline,
                    f"  schema = {python_literal(self.schema)}",
                    f"  {implementation_name}: {ours}",
                    f"  jsonschema: {jsonschema_says if self.refusal.reason else 'accepts the schema'}",
                    f"  jsonschema-rs: {'accepts' if self.refusal.second_accepts else 'refuses'} the schema",
                ]
            )
        second = {None: "no verdict (not JSON)", True: "valid", False: "invalid"}[self.second]
        return "\n".join(
            [
                self._headline,
                f"  schema = {python_literal(self.schema)}",
                f"  instance = {python_literal(self.instance)}",
                f"  {implementation_name}: {ours}",
                f"  jsonschema (adjusted): {_show(self.oracle)}",
                f"  jsonschema-rs: {second}",
            ]
        )


_UNEVALUATED = frozenset({"unevaluatedProperties", "unevaluatedItems"})


def _agree(ours: Iterable[Finding], theirs: Iterable[Finding], used: Collection[str]) -> bool:
    """Whether the implementation's findings are jsonschema's, as far as they compare."""
    if not _UNEVALUATED.isdisjoint(used):
        # Divergence: under unevaluated* jsonschema gives one error for all the unevaluated properties
        # or items, without theirs; only the verdicts compare (docs/conformance.md, "Known divergences").
        return (not list(ours)) is (not list(theirs))
    # jsonschema leaves "$ref" out of its schema paths, so only $ref-free schemas compare them.
    return _same(ours, theirs, "$ref" not in used)


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
    if ours == theirs:  # the same findings in the same order (none, most often): the same multisets
        return True
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
    if _agree(actual, expected, oracles.keywords) and not _verdict_differs(not actual, second):
        return None
    return Disagreement(schema, instance, actual, expected, second)


@dataclass
class KeywordCount:
    """How much one keyword was exercised: schemas, instances, oracle errors through it, disputes."""

    schemas: int = 0
    instances: int = 0
    failed: int = 0
    disagreed: int = 0


@dataclass
class Report:
    """What a run saw: ``disagreements`` counts instances, ``kinds`` the instances of each kind, and
    ``found`` holds one example of each kind, shrunk, in the order found. ``examples`` is the number
    of the last example judged, perhaps in part where ``stopped`` (at the most kinds asked for)."""

    examples: int = 0
    schemas: int = 0
    instances: int = 0
    disagreements: int = 0
    raised: int = 0  # instances on which the implementation raised (see Disagreement.raised)
    refused: int = 0  # schemas an oracle finds invalid: judged once, on one instance
    stopped: bool = False
    keywords: dict[str, KeywordCount] = field(default_factory=dict)
    constructs: Counter[str] = field(default_factory=Counter)  # see _references.constructs
    kinds: Counter[Kind] = field(default_factory=Counter)
    found: list[Disagreement] = field(default_factory=list)

    def keyword(self, name: str) -> KeywordCount:
        """The counts of one keyword, made at its first use."""
        counts = self.keywords.get(name)
        if counts is None:
            counts = self.keywords[name] = KeywordCount()
        return counts

    def count(
        self,
        schema: Any,
        used: Collection[str],
        instance: Any,
        oracle: Iterable[Finding],
        disagreement: Disagreement | None,
    ) -> None:
        """Count one instance judged; ``used`` is every keyword of ``schema``."""
        self.instances += 1
        oracle = list(oracle)
        self.constructs.update(constructs(schema, instance, [finding.path for finding in oracle]))
        failed: set[str] = set()
        for finding in oracle:
            failed.add(finding.keyword)
            failed |= keywords_along(schema, finding.schema_path or "")
        for keyword in used:
            self.keyword(keyword).instances += 1
        for keyword in failed.intersection(used):
            self.keywords[keyword].failed += 1
        if disagreement is not None:
            for keyword in used:
                self.keywords[keyword].disagreed += 1
            self.disagreements += 1
            self.raised += disagreement.raised
            self.kinds[disagreement.kind] += 1


@dataclass
class Drawn:
    """One schema drawn, with its instances, and the number of the example that drew it (from 1);
    the oracles are built once, when first asked, or found among those ``shared`` by the schemas
    drawn before (Hypothesis draws most schemas again and again)."""

    example: int
    label: str
    schema: Any
    instances: list[Any]
    _oracles: Oracles | None = field(default=None, repr=False, compare=False)
    shared: OraclesBySchema | None = field(default=None, repr=False, compare=False)

    @property
    def oracles(self) -> Oracles:
        if self._oracles is None:
            self._oracles = Oracles(self.schema) if self.shared is None else self.shared(self.schema)
        return self._oracles


# Told each new kind of disagreement as it is found: the example's number (from 1), the disagreement
# (shrunk, unless shrinking is off) and the pairs the shrinking tried.
OnFound = Callable[[int, Disagreement, int], None]


class _CrossCheck:
    """Judges drawn schemas one by one into a report; each new kind is shrunk and told at once, and
    the check stops once ``max_kinds`` kinds are found (0: never)."""

    def __init__(
        self, implementation: Implementation, max_kinds: int, shrink: bool, on_found: OnFound | None
    ) -> None:
        self.implementation = implementation
        self.max_kinds = max_kinds
        self.shrink = shrink
        self.on_found = on_found
        self.report = Report()

    def judge(self, one: Drawn) -> None:
        """Judge one schema on its instances (the first alone, for a schema an oracle refuses)."""
        report = self.report
        oracles = one.oracles
        instances = one.instances
        if oracles.refusal is not None:
            # The schema is what is judged: an implementation must refuse it, whatever the instance.
            instances = instances[:1]
            report.refused += 1
        report.schemas += 1
        for keyword in oracles.keywords:
            report.keyword(keyword).schemas += 1
        for instance in instances:
            disagreement = compare(self.implementation, oracles, one.schema, instance)
            report.count(one.schema, oracles.keywords, instance, oracles.findings(instance), disagreement)
            if disagreement is not None and report.kinds[disagreement.kind] == 1:
                self._new_kind(one.example, disagreement)
                if report.stopped:
                    return

    def _new_kind(self, example: int, disagreement: Disagreement) -> None:
        tries = 0
        if self.shrink:
            disagreement, tries = _shrunk(self.implementation, disagreement)
        self.report.found.append(disagreement)
        if self.on_found is not None:
            self.on_found(example, disagreement, tries)
        self.report.stopped = 0 < self.max_kinds <= len(self.report.found)


def _shrunk(implementation: Implementation, disagreement: Disagreement) -> tuple[Disagreement, int]:
    """The disagreement on a smaller schema and instance that show the same kind (see ``_shrink``)."""
    kind = disagreement.kind
    # The oracles of the schema tried last (most tries change the instance alone), and the
    # disagreement of the pair accepted last: the shrinking moves to each pair ``still`` accepts.
    oracles = [disagreement.schema, Oracles(disagreement.schema)]
    accepted = [disagreement]

    def still(schema: Any, instance: Any) -> bool:
        try:
            if oracles[0] is not schema:
                oracles[:] = [schema, Oracles(schema)]
            again = compare(implementation, oracles[1], schema, instance)
        except Exception:  # an oracle's, on a schema cut into nonsense (a dangling $ref ...)
            return False
        if again is None or again.kind != kind:
            return False
        accepted[0] = again
        return True

    _, _, tries = shrunk(disagreement.schema, disagreement.instance, still)
    return accepted[0], tries


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


class _Enough(Exception):
    """Raised inside the Hypothesis test to end the draws early."""


def _draw(
    examples: int,
    seed_value: int,
    keywords: Collection[str] | None,
    visit: Callable[[Drawn], bool],
    done: Callable[[int], None] | None = None,
) -> None:
    """Draw up to ``examples`` examples, each a random schema, a reference one and a focused one (see
    ``example_schemas``) with several instances each, and hand each schema to ``visit`` as it is
    drawn, until ``visit`` says to stop (returns False); ``done`` is told each example completed.

    An example Hypothesis gives up on while drawing it (its choices ran out) is not counted among
    the ``examples``, though the schemas it drew first were visited. The draws depend on the seed,
    the number of examples and the keywords alone: the run never fails a Hypothesis example, so
    nothing judged changes what is drawn next, and an implementation's answers cannot change which
    examples it is asked about.
    """
    drawn = example_schemas(keywords)
    shared = OraclesBySchema()
    stopped = False
    completed = 0

    @settings(
        max_examples=examples,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
        report_multiple_bugs=False,
    )
    @seed(seed_value)
    @given(st.data())
    def cross_check(data: st.DataObject) -> None:
        nonlocal stopped, completed
        for label, strategy, instances_for in drawn:
            schema = data.draw(strategy, label=label)
            instances = data.draw(instances_for(schema), label=f"instances of the {label}")
            # Hypothesis runs the example that raised once more before it gives the exception back,
            # and wants the same draws then: they are drawn again, and not judged again.
            if not stopped:
                stopped = not visit(Drawn(completed + 1, label, schema, instances, shared=shared))
        if stopped:
            raise _Enough
        completed += 1
        if done is not None:
            done(completed)

    try:
        with _no_local_constants():
            cross_check()
    except _Enough:
        pass


def draw(examples: int, seed_value: int, keywords: Collection[str] | None = None) -> list[Drawn]:
    """The schemas and instances a run with these arguments judges, in order, without judging them."""
    drawn: list[Drawn] = []

    def keep(one: Drawn) -> bool:
        drawn.append(one)
        return True

    _draw(examples, seed_value, keywords, keep)
    return drawn


def run(
    implementation: Implementation,
    *,
    examples: int,
    seed_value: int,
    keywords: Collection[str] | None = None,
    max_kinds: int = DEFAULT_MAX_KINDS,
    shrink: bool = True,
    progress: Callable[[int, int], None] | None = None,
    on_found: OnFound | None = None,
    record: list[Drawn] | None = None,
) -> Report:
    """Draw ``examples`` examples (see :func:`draw`) and compare every verdict and error, in one pass.

    Each new kind of disagreement is shrunk (unless ``shrink`` is False), kept in the report and
    told to ``on_found`` at once; the run stops once ``max_kinds`` kinds are found (0: never), else
    after the last example, and a disagreement of a kind already found is only counted.
    ``progress(done, examples)`` is called after each example; ``record`` receives what was drawn.
    """
    check = _CrossCheck(implementation, max_kinds, shrink, on_found)

    def visit(one: Drawn) -> bool:
        if record is not None:
            record.append(one)
        check.report.examples = one.example
        check.judge(one)
        return not check.report.stopped

    def done(completed: int) -> None:
        if progress is not None:
            progress(completed, examples)

    _draw(examples, seed_value, keywords, visit, done)
    return check.report


def replay(
    implementation: Implementation,
    drawn: Iterable[Drawn],
    *,
    max_kinds: int = DEFAULT_MAX_KINDS,
    shrink: bool = True,
    on_found: OnFound | None = None,
) -> Report:
    """:func:`run` on schemas and instances drawn before (by :func:`draw`, or recorded by a run): the
    same judging, without drawing again."""
    check = _CrossCheck(implementation, max_kinds, shrink, on_found)
    for one in drawn:
        check.report.examples = one.example
        check.judge(one)
        if check.report.stopped:
            break
    return check.report
