"""The report of a replay, an immutable value (:class:`ReplayReport`, with each tool's
:class:`ToolFigures`): its figures and rates, :meth:`~ReplayReport.to_dict` and the JSON Schema of that
dict (:attr:`ReplayReport.SCHEMA`), how a name or message is shown in it, and the report rendered for
people and tools (:func:`render`): a text table, Markdown, or JSON (``to_dict``, ASCII only), as
``toolreg replay`` prints it. The report and its renderings share this module because each reads the
other: :meth:`ReplayReport.render` renders the report, and every rendering reads its figures.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from ..._feedback import printable
from ..logs import FORMS, MALFORMED_KINDS

# The bounds of what a report shows, whatever the log's size.
MAX_PLACES: Final = 10  # lines shown for each kind of problem
MAX_SHOWN: Final = 200  # characters of a name, pointer or message in the report


@dataclass(frozen=True)
class ErrorCount:
    """How often one error (by keyword and instance pointer) was found, with the message of its
    first occurrence (masked under ``mask``)."""

    keyword: str
    pointer: str
    count: int
    message: str


@dataclass(frozen=True)
class Place:
    """A place in the log: its source, its line, and what is wrong there."""

    source: str
    line: int
    reason: str


@dataclass(frozen=True)
class ToolFigures:
    """One tool's figures: every call judged, those at the first try, its answers and repairs, and
    its most frequent errors (``errors_approximate`` when the table of errors overflowed, so that
    some counts may be over by at most the count of the least frequent entry dropped)."""

    name: str
    calls: int
    valid: int
    invalid: int
    malformed: int
    first_tries: int
    first_try_valid: int
    answered_failed: int
    repaired: int
    drift: int
    outputs_checked: int
    outputs_invalid: int
    errors: tuple[ErrorCount, ...]
    errors_approximate: bool

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable dict (see :attr:`ReplayReport.SCHEMA`)."""
        return {
            "name": self.name,
            "calls": self.calls,
            "valid": self.valid,
            "invalid": self.invalid,
            "malformed": self.malformed,
            "first_tries": self.first_tries,
            "first_try_valid": self.first_try_valid,
            "answered_failed": self.answered_failed,
            "repaired": self.repaired,
            "drift": self.drift,
            "outputs_checked": self.outputs_checked,
            "outputs_invalid": self.outputs_invalid,
            "errors": [_error_dict(error) for error in self.errors],
            "errors_approximate": self.errors_approximate,
        }


def _error_dict(error: ErrorCount) -> dict[str, Any]:
    return {
        "keyword": error.keyword,
        "pointer": error.pointer,
        "count": error.count,
        "message": error.message,
    }


def _fraction(part: int, whole: int) -> float | None:
    return part / whole if whole else None


_COUNT = {"type": "integer", "minimum": 0}
_PLACES = {
    "type": "array",
    "items": {
        "type": "object",
        "properties": {"source": {"type": "string"}, "line": _COUNT, "reason": {"type": "string"}},
        "required": ["source", "line", "reason"],
        "additionalProperties": False,
    },
    "maxItems": MAX_PLACES,
}
_RATE = {"type": ["number", "null"], "minimum": 0, "maximum": 1}
_COUNTS_BY = {"type": "object", "additionalProperties": _COUNT}
_ERRORS = {
    "type": "array",
    "items": {
        "type": "object",
        "properties": {
            "keyword": {"type": "string"},
            "pointer": {"type": "string"},
            "count": _COUNT,
            "message": {"type": "string"},
        },
        "required": ["keyword", "pointer", "count", "message"],
        "additionalProperties": False,
    },
}
TOOL_COUNTS = (
    "calls",
    "valid",
    "invalid",
    "malformed",
    "first_tries",
    "first_try_valid",
    "answered_failed",
    "repaired",
    "drift",
    "outputs_checked",
    "outputs_invalid",
)
TOTALS = (
    "calls",
    "valid",
    "invalid",
    "malformed",
    "unknown_tools",
    "unjudged",
    "drift",
    "first_tries",
    "first_try_valid",
    "answered",
    "answered_failed",
    "repaired",
    "repair_window",
    "outputs_checked",
    "outputs_invalid",
    "repeated",
    "sources",
    "lines",
    "values",
)


@dataclass(frozen=True)
class ReplayReport:
    """What a replay found; an immutable value. :meth:`to_dict` gives it as JSON, in the shape
    :attr:`SCHEMA` describes.

    Every call is exactly one of ``valid``, ``invalid`` (its arguments break the tool's schema),
    ``malformed`` (its arguments are not one JSON object; ``malformed_kinds`` counts them by kind),
    ``unknown_tools`` (a tool the catalog does not hold; ``unknown_names`` the most frequent) and
    ``unjudged`` (no catalog was in force, or toolreg refuses the tool's schema: ``refused_tools``).
    ``drift`` counts the calls valid against what the model was shown but not against the catalog
    given. A *first try* is a call with no failed call (invalid or malformed) to the same tool in the
    same conversation in the ``repair_window`` turns before it; ``answered_failed`` counts the failed
    calls the log answers with their errors, and ``repaired`` those of them followed by a valid call
    to the same tool within ``repair_window`` turns. ``repeated`` counts calls logged again (a request
    record repeats the conversation so far), which are counted once.
    """

    calls: int
    valid: int
    invalid: int
    malformed: int
    malformed_kinds: Mapping[str, int]
    unknown_tools: int
    unknown_names: tuple[tuple[str, int], ...]
    unjudged: int
    drift: int
    first_tries: int
    first_try_valid: int
    answered: int
    answered_failed: int
    repaired: int
    repair_window: int
    outputs_checked: int
    outputs_invalid: int
    repeated: int
    tools: tuple[ToolFigures, ...]
    forms: Mapping[str, int]
    catalog: str
    refused_tools: tuple[tuple[str, str], ...]
    sources: int
    lines: int
    values: int
    unreadable: Mapping[str, int]
    unreadable_lines: tuple[Place, ...]
    malformed_lines: tuple[Place, ...]
    masked: bool

    SCHEMA: ClassVar[dict[str, Any]] = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "toolreg replay report",
        "type": "object",
        "properties": {
            **{name: _COUNT for name in TOTALS},
            "repair_window": {"type": "integer", "minimum": 1},
            "valid_rate": _RATE,
            "first_try_rate": _RATE,
            "repair_rate": _RATE,
            "malformed_kinds": {
                "type": "object",
                "propertyNames": {"enum": list(MALFORMED_KINDS)},
                "additionalProperties": {"type": "integer", "minimum": 1},
            },
            "unknown_names": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"name": {"type": "string"}, "count": _COUNT},
                    "required": ["name", "count"],
                    "additionalProperties": False,
                },
            },
            "tools": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string"},
                        **{name: _COUNT for name in TOOL_COUNTS},
                        "errors": _ERRORS,
                        "errors_approximate": {"type": "boolean"},
                    },
                    "required": ["name", *TOOL_COUNTS, "errors", "errors_approximate"],
                    "additionalProperties": False,
                },
            },
            "forms": {
                "type": "object",
                "propertyNames": {"enum": list(FORMS)},
                "additionalProperties": _COUNT,
            },
            "catalog": {"enum": ["log", "given", "both", "none"]},
            "refused_tools": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"name": {"type": "string"}, "reason": {"type": "string"}},
                    "required": ["name", "reason"],
                    "additionalProperties": False,
                },
            },
            "unreadable": {
                "type": "object",
                "propertyNames": {"enum": ["file", "json", "form", "shape"]},
                "additionalProperties": {"type": "integer", "minimum": 1},
            },
            "unreadable_lines": _PLACES,
            "malformed_lines": _PLACES,
            "masked": {"type": "boolean"},
        },
        "required": [
            *TOTALS,
            "valid_rate",
            "first_try_rate",
            "repair_rate",
            "malformed_kinds",
            "unknown_names",
            "tools",
            "forms",
            "catalog",
            "refused_tools",
            "unreadable",
            "unreadable_lines",
            "malformed_lines",
            "masked",
        ],
        "additionalProperties": False,
    }

    @property
    def valid_rate(self) -> float | None:
        """The fraction of calls that were valid (None for a log without calls)."""
        return _fraction(self.valid, self.calls)

    @property
    def first_try_rate(self) -> float | None:
        """The fraction of first tries that were valid."""
        return _fraction(self.first_try_valid, self.first_tries)

    @property
    def repair_rate(self) -> float | None:
        """The fraction of failed calls answered with their errors that the model repaired."""
        return _fraction(self.repaired, self.answered_failed)

    def render(self, report_format: str = "text") -> str:
        """The report as ``"text"`` (a table), ``"markdown"`` or ``"json"`` (:meth:`to_dict`, ASCII only),
        as ``toolreg replay`` prints it; every name and message escaped as printable text."""
        return render(self, report_format)

    def to_dict(self) -> dict[str, Any]:
        """The report as plain JSON values, in the shape :attr:`SCHEMA` describes."""
        totals = {name: getattr(self, name) for name in TOTALS}
        return {
            **totals,
            "valid_rate": self.valid_rate,
            "first_try_rate": self.first_try_rate,
            "repair_rate": self.repair_rate,
            "malformed_kinds": dict(self.malformed_kinds),
            "unknown_names": [{"name": name, "count": count} for name, count in self.unknown_names],
            "tools": [tool.to_dict() for tool in self.tools],
            "forms": dict(self.forms),
            "catalog": self.catalog,
            "refused_tools": [{"name": name, "reason": reason} for name, reason in self.refused_tools],
            "unreadable": dict(self.unreadable),
            "unreadable_lines": [_place_dict(place) for place in self.unreadable_lines],
            "malformed_lines": [_place_dict(place) for place in self.malformed_lines],
            "masked": self.masked,
        }


def _place_dict(place: Place) -> dict[str, Any]:
    return {"source": place.source, "line": place.line, "reason": place.reason}


def shown_text(text: str) -> str:
    """A name, pointer or message as a report shows it: printable, cut at :data:`MAX_SHOWN` characters."""
    text = printable(text)
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 1] + "…"


# -- the report rendered -------------------------------------------------------------------------------

REPORT_FORMATS: Final = ("text", "markdown", "json")


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def _listed(pairs: Iterable[tuple[str, int]]) -> str:
    return ", ".join(f"{name} {count:,}" for name, count in pairs)


def _summary(report: ReplayReport) -> list[tuple[str, str]]:
    """The report's totals, as (label, text) rows both renderings share."""
    calls = report.calls
    catalog = {
        "log": "the catalog the log shows",
        "both": "the catalog given (the log shows one too)",
        "given": "the catalog given",
        "none": "no catalog: neither given nor shown in the log",
    }[report.catalog]
    rows = [
        ("calls", f"{calls:,} ({_listed(report.forms.items()) or 'none'}), judged against {catalog}"),
        ("valid", f"{report.valid:,} ({_percent(report.valid, calls)})"),
        ("invalid", f"{report.invalid:,} ({_percent(report.invalid, calls)})"),
        (
            "malformed",
            f"{report.malformed:,} ({_percent(report.malformed, calls)})"
            + (f": {_listed(report.malformed_kinds.items())}" if report.malformed else ""),
        ),
        (
            "unknown tools",
            f"{report.unknown_tools:,} ({_percent(report.unknown_tools, calls)})"
            + (f": {_listed(report.unknown_names)}" if report.unknown_names else ""),
        ),
    ]
    if report.unjudged:
        rows.append(("unjudged", f"{report.unjudged:,} ({_percent(report.unjudged, calls)})"))
    if report.catalog == "both":
        rows.append(("drift", f"{report.drift:,} valid as shown to the model, not against the catalog given"))
    rows.append(
        (
            "first try",
            f"{report.first_try_valid:,} of {report.first_tries:,} valid "
            f"({_percent(report.first_try_valid, report.first_tries)})",
        )
    )
    if report.answered:
        rows.append(
            (
                "repair",
                f"{report.repaired:,} of {report.answered_failed:,} failed calls answered with their "
                f"errors were repaired within {report.repair_window} turns "
                f"({_percent(report.repaired, report.answered_failed)})",
            )
        )
    else:
        rows.append(("repair", "the log holds no answers"))
    if report.outputs_checked:
        rows.append(
            ("outputs", f"{report.outputs_invalid:,} of {report.outputs_checked:,} break their schema")
        )
    if report.repeated:
        rows.append(("repeated", f"{report.repeated:,} calls logged again, counted once"))
    read = f"{report.lines:,} lines in {report.sources:,} source{'s' if report.sources != 1 else ''}"
    if report.unreadable:
        read += "; unreadable: " + _listed(report.unreadable.items())
    rows.append(("read", read))
    if report.refused_tools:
        refused = "; ".join(f"{name}: {reason}" for name, reason in report.refused_tools[:3])
        rows.append(
            ("refused tools", f"{len(report.refused_tools)} (toolreg refuses their schemas): {refused}")
        )
    return rows


_COLUMNS = (
    "tool",
    "calls",
    "valid",
    "invalid",
    "malformed",
    "first tries",
    "first-try valid",
    "repaired",
    "drift",
)


def _tool_row(tool: ToolFigures) -> tuple[str, ...]:
    first = f"{tool.first_try_valid:,} ({_percent(tool.first_try_valid, tool.first_tries)})"
    repaired = f"{tool.repaired:,}/{tool.answered_failed:,}" if tool.answered_failed else "-"
    counts = (tool.calls, tool.valid, tool.invalid, tool.malformed, tool.first_tries)
    return (tool.name, *(f"{count:,}" for count in counts), first, repaired, f"{tool.drift:,}")


def _error_rows(report: ReplayReport) -> list[tuple[str, ...]]:
    return [
        (tool.name, error.keyword, error.pointer or "(root)", f"{error.count:,}", error.message)
        for tool in report.tools
        for error in tool.errors
    ]


def _places(report: ReplayReport) -> list[str]:
    lines = [f"line {place.line} of {place.source}: {place.reason}" for place in report.unreadable_lines]
    lines += [
        f"line {place.line} of {place.source}: malformed ({place.reason})" for place in report.malformed_lines
    ]
    return lines


def _table(header: tuple[str, ...], rows: list[tuple[str, ...]], numeric: int) -> list[str]:
    widths = [max(len(row[column]) for row in [header, *rows]) for column in range(len(header))]
    text = []
    for row in [header, *rows]:
        cells = [
            cell.rjust(width) if 0 < column < numeric + 1 else cell.ljust(width)
            for column, (cell, width) in enumerate(zip(row, widths, strict=True))
        ]
        text.append("  ".join(cells).rstrip())
    return text


def _text(report: ReplayReport) -> str:
    rows = _summary(report)
    width = max(len(label) for label, _ in rows)
    lines = ["toolreg replay", *(f"  {label.ljust(width)}  {text}" for label, text in rows)]
    if report.tools:
        lines += ["", *_table(_COLUMNS, [_tool_row(tool) for tool in report.tools], len(_COLUMNS) - 1)]
    errors = _error_rows(report)
    if errors:
        header = ("tool", "keyword", "pointer", "count", "first message")
        lines += ["", "most frequent errors", *_table(header, errors, 0)]
    places = _places(report)
    if places:
        lines += ["", "where", *(f"  {place}" for place in places)]
    return "\n".join(lines)


def _cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("`", "\\`")


def _markdown_table(header: tuple[str, ...], rows: list[tuple[str, ...]], numeric: int) -> list[str]:
    align = ["---:" if 0 < column < numeric + 1 else "---" for column in range(len(header))]
    return [
        "| " + " | ".join(header) + " |",
        "|" + "|".join(align) + "|",
        *("| " + " | ".join(_cell(cell) for cell in row) + " |" for row in rows),
    ]


def _markdown(report: ReplayReport) -> str:
    lines = [
        "## toolreg replay",
        "",
        *_markdown_table(("", ""), [(label, text) for label, text in _summary(report)], 0),
    ]
    if report.tools:
        rows = [_tool_row(tool) for tool in report.tools]
        lines += ["", "### Tools", "", *_markdown_table(_COLUMNS, rows, len(_COLUMNS) - 1)]
    errors = _error_rows(report)
    if errors:
        header = ("tool", "keyword", "pointer", "count", "first message")
        lines += ["", "### Most frequent errors", "", *_markdown_table(header, errors, 0)]
    places = _places(report)
    if places:
        lines += ["", "### Where", "", *(f"- {_cell(place)}" for place in places)]
    return "\n".join(lines)


def render(report: ReplayReport, report_format: str = "text") -> str:
    """The report as text (a table), Markdown, or JSON (``to_dict``, ASCII only)."""
    if report_format == "json":
        return json.dumps(report.to_dict(), indent=2, ensure_ascii=True)
    if report_format == "markdown":
        return _markdown(report)
    if report_format == "text":
        return _text(report)
    raise ValueError(f"no report format {report_format!r}; the formats are {', '.join(REPORT_FORMATS)}")
