"""The seeded search of ``toolreg.diff(search=N)``: instances of the old schema drawn by
hypothesis-jsonschema, each handed to the comparison's own verification (the old schema accepts it
under the reading, the new refuses it). It looks for what the rules miss; it proves nothing.

hypothesis and hypothesis-jsonschema are imported here only, and only when a search is asked for:
``pip install 'pytoolreg[search]'``.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

from .._jsonschema.errors import ToolregError, ValidationError

__all__ = ["search", "SearchUnavailable"]

Verify = Callable[[Any], tuple[ValidationError, ...] | None]


class SearchUnavailable(ToolregError, ImportError):
    """A search was asked for without the packages it runs on; the message says how to get them."""


class _Found(Exception):
    """Raised inside the search to end it at its first witness."""


def _packages() -> tuple[Any, Any]:
    try:
        import hypothesis
        import hypothesis_jsonschema
    except ImportError as missing:
        raise SearchUnavailable(
            f"search needs hypothesis and hypothesis-jsonschema ({missing.name} is missing): "
            "pip install 'pytoolreg[search]'"
        ) from None
    return hypothesis, hypothesis_jsonschema


def search(
    schema: Any, verify: Verify, count: int, seed: int
) -> tuple[int, tuple[Any, tuple[ValidationError, ...]] | None]:
    """Draw up to ``count`` instances of ``schema`` (seeded by ``seed``) and return how many were
    drawn, and the first that ``verify`` confirms as a witness with its errors (or None). A schema
    hypothesis-jsonschema cannot read draws nothing."""
    hypothesis, hypothesis_jsonschema = _packages()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            strategy = hypothesis_jsonschema.from_schema(schema)
    except Exception:  # a schema it does not read (a keyword it lacks, a reference it cannot follow)
        return 0, None
    drawn: list[Any] = []
    found: list[tuple[Any, tuple[ValidationError, ...]]] = []

    def check(instance: Any) -> None:
        drawn.append(None)
        errors = verify(instance)
        if errors is not None:
            found.append((instance, errors))
            raise _Found  # the search ends at its first witness

    runner = hypothesis.settings(
        max_examples=count,
        database=None,
        deadline=None,
        phases=[hypothesis.Phase.generate],
        suppress_health_check=list(hypothesis.HealthCheck),
        derandomize=False,
        print_blob=False,
        verbosity=hypothesis.Verbosity.quiet,
    )(hypothesis.seed(seed)(hypothesis.given(strategy)(check)))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            runner()
    except _Found:
        pass
    except Exception:  # hypothesis gave up drawing (every draw filtered, say): what was drawn stands
        pass
    return len(drawn), found[0] if found else None
