"""The forms a catalog diff is shown in: ``text`` for people, ``json`` (``to_dict``), ``markdown`` for a
pull request's comment (a summary table, then the details), and ``github`` (workflow annotations, one a
line). Every name and text from a catalog is escaped, so none can forge a line or a command."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .._feedback import printable

if TYPE_CHECKING:
    from .diff import CatalogDiff, Finding, SchemaDiff, ToolDiff

__all__ = ["render", "FORMATS"]

_SHOWN = 200  # characters of a witness shown in text, markdown and annotations
_READINGS = {
    "declared": "callers send only the names the old schema declares",
    "any": "callers send any JSON the old schema accepts",
}


def _json(value: Any, limit: int = _SHOWN) -> str:
    text = json.dumps(value, ensure_ascii=True, separators=(",", ":"))
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _refusal(finding: Finding) -> str:
    """Which schema refuses the witness, and its first error, in a line."""
    if not finding.errors:
        return "the declared reading: the old schema does not declare a name it holds"
    first = finding.errors[0]
    more = f" (and {len(finding.errors) - 1} more)" if len(finding.errors) > 1 else ""
    return printable(f"the {finding.refused_by} schema, at {first.path or '/'}: {first.message}{more}")


def _where(finding: Finding) -> str:
    place = finding.new_schema_path if finding.new_schema_path is not None else finding.old_schema_path
    return printable(f"{finding.rule} at {place if place else '/'}")


def _sections(tool: ToolDiff) -> list[SchemaDiff]:
    return [section for section in (tool.input, tool.output) if section is not None and section.changed]


def _status(tool: ToolDiff) -> str:
    if tool.status == "renamed":
        return printable(f"renamed from {tool.old_name}")
    return tool.status


def _calls_read(report: CatalogDiff) -> str | None:
    """What the logs held, in a line, when they were read."""
    read = report.calls
    if read is None:
        return None
    return (
        f"logged calls: {read.calls} ({read.malformed} with malformed arguments, {read.unknown} to no tool "
        f"of the old catalog, {read.unreadable} unreadable lines)"
    )


def _tool_calls(tool: ToolDiff) -> str | None:
    counts = tool.calls
    if counts is None:
        return None
    return (
        f"{counts.logged} logged, {counts.accepted} the old schema accepts, {counts.refused} refused now"
        f" ({counts.other} by no finding)"
    )


def _summary(report: CatalogDiff) -> str:
    counts = report.counts()
    return ", ".join(
        f"{counts[status]} {status}" for status in ("changed", "added", "removed", "renamed", "unchanged")
    )


# -- text ----------------------------------------------------------------------------------------------


def _text(report: CatalogDiff) -> str:
    lines = [
        f"toolreg diff: {report.verdict} ({_summary(report)})",
        f"reading: {report.reading} ({_READINGS[report.reading]})",
    ]
    if (read := _calls_read(report)) is not None:
        lines.append(read)
    for tool in report.tools:
        if tool.status == "unchanged":
            continue
        lines.append("")
        lines.append(printable(f"{tool.name}: {_status(tool)}, {tool.verdict}"))
        if (counts := _tool_calls(tool)) is not None:
            lines.append(f"  calls: {counts}")
        if tool.status == "removed":
            lines.append("  calls to it are refused")
        if tool.status == "renamed":
            lines.append(printable(f"  calls to {tool.old_name} are refused"))
        for section in _sections(tool):
            widens = ", widens" if section.widens else ""
            lines.append(f"  {section.role}: {section.verdict}{widens}")
            for finding in section.findings:
                lines.append(f"    {finding.kind} {_where(finding)}: {printable(finding.message)}")
                if finding.has_witness:
                    lines.append(f"      witness: {_json(finding.witness)}")
                    lines.append(f"      refused by {_refusal(finding)}")
                if finding.calls is not None:
                    lines.append(f"      logged calls it refuses: {finding.calls}")
        for change in tool.text:
            lines.append(
                f"  {change.field} changed: sha256 {_short(change.old_sha256)} -> {_short(change.new_sha256)}"
            )
    return "\n".join(lines)


def _short(digest: str | None) -> str:
    return "none" if digest is None else digest[:12]


# -- markdown ------------------------------------------------------------------------------------------


def _cell(text: str) -> str:
    """Text for a Markdown table cell or inline code: no line breaks, pipes or backticks."""
    return printable(text).replace("|", "\\|").replace("`", "'")


def _markdown(report: CatalogDiff) -> str:
    lines = [
        f"## toolreg diff: {report.verdict}",
        "",
        f"{_summary(report)}. Reading: **{report.reading}** ({_READINGS[report.reading]}).",
    ]
    if (read := _calls_read(report)) is not None:
        lines += ["", read[:1].upper() + read[1:] + "."]
    shown = [tool for tool in report.tools if tool.status != "unchanged"]
    if not shown:
        return "\n".join(lines)
    lines += ["", "| tool | status | verdict | input | output | text |", "|---|---|---|---|---|---|"]
    for tool in shown:
        verdict = f"**{tool.verdict}**" if tool.verdict != "compatible" else tool.verdict
        cells = [f"`{_cell(tool.name)}`", _cell(_status(tool)), verdict]
        for section in (tool.input, tool.output):
            if section is None or not section.changed:
                cells.append("")
            else:
                cells.append(section.verdict + (", widens" if section.widens else ""))
        cells.append(", ".join(change.field for change in tool.text))
        lines.append("| " + " | ".join(cells) + " |")
    for tool in shown:
        details = [finding for section in _sections(tool) for finding in section.findings]
        if not details and not tool.text and tool.calls is None:
            continue
        lines += ["", f"### `{_cell(tool.name)}`: {tool.verdict}", ""]
        if (counts := _tool_calls(tool)) is not None:
            lines.append(f"- calls: {counts}")
        for section in _sections(tool):
            for finding in section.findings:
                where, message = _cell(_where(finding)), _cell(finding.message)
                lines.append(f"- **{finding.kind}** ({section.role}) `{where}`: {message}")
                if finding.has_witness:
                    lines.append(f"  - witness: `{_cell(_json(finding.witness))}`")
                    lines.append(f"  - refused by {_cell(_refusal(finding))}")
                if finding.calls is not None:
                    lines.append(f"  - logged calls it refuses: {finding.calls}")
        for change in tool.text:
            digests = f"`{_short(change.old_sha256)}` → `{_short(change.new_sha256)}`"
            lines.append(f"- {change.field} changed (sha256 {digests})")
    return "\n".join(lines)


# -- GitHub workflow annotations -----------------------------------------------------------------------


def _data(text: str) -> str:
    """A workflow command's message, escaped as GitHub reads it."""
    return printable(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def _annotation(level: str, title: str, message: str) -> str:
    return f"::{level} title={_property(title)}::{_data(message)}"


_LEVELS = {"breaking": "error", "unknown": "warning", "widening": "notice"}


def _github(report: CatalogDiff) -> str:
    lines = []
    for tool in report.tools:
        title = f"toolreg diff: {tool.name}"
        if tool.status in ("removed", "renamed"):
            refused = f"{_status(tool)}: calls to {tool.old_name or tool.name} are refused"
            if (counts := _tool_calls(tool)) is not None:
                refused += f"; calls: {counts}"
            lines.append(_annotation("error", title, refused))
        elif tool.status == "added":
            lines.append(_annotation("notice", title, "added"))
        for section in _sections(tool):
            for finding in section.findings:
                message = f"{section.role} {finding.kind}: {_where(finding)}: {finding.message}"
                if finding.has_witness:
                    message += f" Witness: {_json(finding.witness)}; refused by {_refusal(finding)}"
                if finding.calls is not None:
                    message += f"; logged calls it refuses: {finding.calls}"
                lines.append(_annotation(_LEVELS[finding.kind], title, message))
        for change in tool.text:
            lines.append(_annotation("notice", title, f"{change.field} changed (what a model reads)"))
    lines.append(f"toolreg diff: {report.verdict} ({_summary(report)}; reading: {report.reading})")
    if (read := _calls_read(report)) is not None:
        lines.append(read)
    return "\n".join(lines)


def _json_report(report: CatalogDiff) -> str:
    # ASCII JSON: nothing from a catalog can reach a terminal as a control character.
    return json.dumps(report.to_dict(), indent=2, ensure_ascii=True)


FORMATS: dict[str, Callable[[CatalogDiff], str]] = {
    "text": _text,
    "json": _json_report,
    "markdown": _markdown,
    "github": _github,
}


def render(report: CatalogDiff, format: str) -> str:  # noqa: A002 - the CLI's word
    """``report`` in one of :data:`FORMATS`."""
    try:
        shape = FORMATS[format]
    except KeyError:
        from .diff import DiffError

        raise DiffError(f"format is one of {', '.join(FORMATS)}, not {format!r}") from None
    return shape(report)
