"""The seeded search of ``toolreg.diff(search=N)``: instances of the old schemas drawn by
hypothesis-jsonschema, each handed to its comparison's own verification (the old schema accepts it
under the reading, the new refuses it). It looks for what the rules miss; it proves nothing.

The schemas of one diff are searched a group at a time, an instance of each in every example of one
run of hypothesis, since starting a run costs more than a few draws. The schema drawn from leaves out
annotations, and where a schema object leaves names open it draws them with scalar values (any JSON
there took up to a tenth of a second a draw on real tool schemas) or, under the declared reading,
closes it (a draw holding other names would be thrown away); the instances are verified against the
schemas as they are.

hypothesis and hypothesis-jsonschema are imported here only, and only when a search is asked for:
``pip install 'pytoolreg[search]'`` (from a checkout, ``pip install '.[search]'``).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .._jsonschema.errors import ToolregError, ValidationError
from .._jsonschema.vocabulary import is_annotation, subschemas

__all__ = ["Job", "search", "drawn_from", "SearchUnavailable"]

Verify = Callable[[Any], tuple[ValidationError, ...] | None]
# Schemas drawn from in one run: what one example of hypothesis may hold is bounded.
GROUP = 8
_SCALARS = {"type": ["null", "boolean", "number", "string"]}
_OPENING = frozenset({"additionalProperties", "patternProperties", "unevaluatedProperties"})


class SearchUnavailable(ToolregError, ImportError):
    """A search was asked for without the packages it runs on; the message says how to get them."""


@dataclass
class Job:
    """One schema to search: what to draw from, how to verify a draw, and what came of it."""

    schema: Any
    verify: Verify
    drawn: int = 0
    found: tuple[Any, tuple[ValidationError, ...]] | None = None
    strategy: Any = None
    readable: bool = True


def drawn_from(schema: Any, dialect: str, closed: bool) -> Any:
    """The schema hypothesis-jsonschema draws from: without annotations, and where a schema object
    of objects leaves names open, with ``"additionalProperties": false`` when ``closed`` and it
    declares names, else scalars there."""
    if not isinstance(schema, dict):
        return schema
    copied = {
        keyword: value
        for keyword, value in schema.items()
        if keyword == "$schema" or not is_annotation(keyword)
    }
    for tokens, subschema in subschemas(schema, dialect):
        if len(tokens) == 1:
            copied[str(tokens[0])] = drawn_from(subschema, dialect, closed)
            continue
        keyword, key = tokens
        holder = copied[str(keyword)]
        if holder is schema[keyword]:
            holder = copied[str(keyword)] = list(holder) if isinstance(holder, list) else dict(holder)
        holder[key] = drawn_from(subschema, dialect, closed)
    declares = isinstance(schema.get("properties"), dict)
    if not (_OPENING & schema.keys()) and (declares or _objects(schema)):
        copied["additionalProperties"] = False if closed and declares else _SCALARS
    return copied


def _objects(schema: dict[str, Any]) -> bool:
    declared = schema.get("type")
    return declared == "object" or (isinstance(declared, list) and "object" in declared)


def _packages() -> tuple[Any, Any]:
    try:
        import hypothesis
        import hypothesis_jsonschema
    except ImportError as missing:
        raise SearchUnavailable(
            f"search needs hypothesis and hypothesis-jsonschema ({missing.name} is missing): "
            "pip install 'pytoolreg[search]' (from a checkout: pip install '.[search]')"
        ) from None
    return hypothesis, hypothesis_jsonschema


def search(jobs: list[Job], count: int, seed: int) -> None:
    """Draw up to ``count`` instances for each job in runs of hypothesis seeded by ``seed``, each run
    drawing one instance for each of :data:`GROUP` jobs in every example (hypothesis wants what an
    example draws to depend on its own choices only); each job records how many it drew and its first
    verified witness. A schema hypothesis-jsonschema cannot read draws nothing."""
    hypothesis, hypothesis_jsonschema = _packages()
    for job in jobs:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                job.strategy = hypothesis_jsonschema.from_schema(job.schema)
        except Exception:  # a schema it does not read (a keyword it lacks, a reference it cannot follow)
            job.readable = False
    readable = [job for job in jobs if job.readable]
    for start in range(0, len(readable), GROUP):
        _run(hypothesis, readable[start : start + GROUP], count, seed)


class _Done(Exception):
    """Raised at the start of an example once every job of the group has its witness: the run ends
    there (the example draws nothing, so hypothesis's replay of it raises the same)."""


def _run(hypothesis: Any, group: list[Job], count: int, seed: int) -> None:
    def check(data: Any) -> None:
        if all(job.found is not None for job in group):
            raise _Done
        for job in group:
            instance = data.draw(job.strategy)
            job.drawn += 1
            if job.found is None:
                errors = job.verify(instance)
                if errors is not None:
                    job.found = (instance, errors)

    runner = hypothesis.settings(
        max_examples=count,
        database=None,
        deadline=None,
        phases=[hypothesis.Phase.generate],
        suppress_health_check=list(hypothesis.HealthCheck),
        derandomize=False,
        print_blob=False,
        verbosity=hypothesis.Verbosity.quiet,
    )(hypothesis.seed(seed)(hypothesis.given(hypothesis.strategies.data())(check)))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            runner()
    except _Done:
        pass
    except Exception:  # hypothesis gave up drawing (every draw filtered, say): what was drawn stands
        pass
