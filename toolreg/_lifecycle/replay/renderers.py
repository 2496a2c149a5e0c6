"""A replay's report rendered for people and tools: a text table, Markdown, or JSON
(:meth:`~toolreg._lifecycle.replay.ReplayReport.to_dict`, ASCII only), as ``toolreg replay`` prints it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:  # the report's module renders through this one, so it is read here for its types alone
    from .report import ReplayReport, ToolFigures

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
