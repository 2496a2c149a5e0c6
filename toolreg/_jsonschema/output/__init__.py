"""Standard output: one validation as JSON Schema's output formats, with evaluation paths and annotations."""

from __future__ import annotations

from typing import Any

from ..compiled import Compiled
from ..errors import ValidationError
from ..exceptions import OutputFormatError
from ..findings import Findings
from .json_text import bounded_json
from .recording import UNIT_BYTES, TooLarge, evaluate, text_bytes
from .shapes import Shaper

__all__ = ["FORMATS", "TooLarge", "output", "failure_output", "bounded_json"]

# The 2019-09 and 2020-12 formats, then the newer proposal's two (its "flag" is the same answer).
FORMATS = ("flag", "basic", "detailed", "verbose", "list", "hierarchical")


def output(
    compiled: Compiled,
    instance: Any,
    formats: tuple[str, ...],
    findings: Findings,
    most_bytes: int,
) -> list[dict[str, Any]]:
    """``instance`` evaluated against the compiled schema once, in each of the output ``formats`` (see
    FORMATS); OverBudget when the evaluation would cost too much, TooLarge when its JSON text (in the
    largest format) would pass ``most_bytes``, RecursionError when it nests past Python's stack."""
    for form in formats:
        if form not in FORMATS or form == "flag":
            raise OutputFormatError(form, FORMATS[1:])
    root = evaluate(compiled, instance, findings, most_bytes)
    return [Shaper().shape(root, form) for form in formats]


def failure_output(
    format: str,  # noqa: A002
    errors: list[ValidationError],
    most_bytes: int | None = None,
) -> dict[str, Any]:
    """The output of a validation that stopped before the schema could be applied (a value that is not
    JSON, or past a limit): its errors, at the root; TooLarge past ``most_bytes`` of JSON text, if given."""
    if most_bytes is not None:
        size = sum(UNIT_BYTES + text_bytes(error.path) + text_bytes(error.message) for error in errors)
        if size > most_bytes:
            raise TooLarge
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
