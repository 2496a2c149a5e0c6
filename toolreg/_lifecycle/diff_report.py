"""The report of a catalog diff (:func:`toolreg.diff`), and the forms it is shown in.

The report is immutable values: the whole :class:`CatalogDiff`, each tool's :class:`ToolDiff` with its
schemas' :class:`SchemaDiff` and their :class:`Finding` objects, the text a model reads that changed
(:class:`TextChange`), and the logged calls counted (:class:`CallCounts`, :class:`CallsRead`); a bad
option of the diff or of a form is a :class:`DiffError`.

The forms: ``text`` for people, ``json`` (``to_dict``), ``markdown`` for a pull request's comment (a
summary table, then the details), and ``github`` (workflow annotations, one a line). Every name and
text from a catalog is escaped, so none can forge a line or a command. The report and its forms share
this module because each reads the other: ``CatalogDiff.render`` shows the report in a form, and every
form reads the report's values.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .._feedback import printable
from .._jsonschema.errors import ToolregError, ValidationError
from .._jsonschema.values import json_copy

__all__ = [
    "CatalogDiff",
    "ToolDiff",
    "SchemaDiff",
    "Finding",
    "TextChange",
    "CallCounts",
    "CallsRead",
    "DiffError",
    "VERDICTS",
    "FAIL_ON",
    "FORMATS",
    "render",
    "worst",
]

VERDICTS = ("compatible", "unknown", "breaking")  # from best to worst
FAIL_ON = ("breaking", "unknown", "any")


class DiffError(ToolregError, ValueError):
    """An option of :func:`toolreg.diff` out of range, a catalog with a tool named twice or unnamed,
    or a search asked for without the packages it runs on."""


@dataclass(frozen=True)
class Finding:
    """One difference of a schema: ``kind`` is ``breaking`` (with a verified ``witness``),
    ``widening`` (the schema accepts something it did not, with a witness where one was verified)
    or ``unknown`` (``keyword`` at ``pointer`` stopped the proof).

    ``rule`` names the keyword family that moved; ``old_schema_path`` and ``new_schema_path`` point
    at it in each schema (None where that schema has nothing there), ``instance_path`` into the
    witness. ``refused_by`` (``new`` or ``old``) names the schema that refuses the witness, and
    ``errors`` are its errors on it: the new schema's for a breaking input, the old (callers') schema's
    for a breaking output and for a widening input (none where only the declared reading refuses it:
    a name the old schema does not declare). With logged calls (``diff(calls=...)``), ``calls`` counts
    those the old schema accepts and the new refuses with an error at ``new_schema_path``.
    """

    kind: str
    rule: str
    message: str
    old_schema_path: str | None
    new_schema_path: str | None
    instance_path: str
    has_witness: bool = False
    witness: Any = None
    errors: tuple[ValidationError, ...] = ()
    keyword: str | None = None
    pointer: str | None = None
    refused_by: str | None = None
    calls: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """As JSON, for ``CatalogDiff.to_dict``."""
        found: dict[str, Any] = {
            "kind": self.kind,
            "rule": self.rule,
            "message": self.message,
            "old_schema_path": self.old_schema_path,
            "new_schema_path": self.new_schema_path,
            "instance_path": self.instance_path,
        }
        if self.has_witness:
            found["witness"] = json_copy(self.witness)
            found["refused_by"] = self.refused_by
            found["errors"] = [error.to_dict() for error in self.errors]
        if self.kind == "unknown":
            found["keyword"] = self.keyword
            found["pointer"] = self.pointer
        if self.calls is not None:
            found["calls"] = self.calls
        return found


@dataclass(frozen=True)
class SchemaDiff:
    """One schema of a tool compared: its ``role`` (``input`` or ``output``), ``verdict``, whether
    it ``widens`` (input: accepts calls the old refused; output: the tool's results narrowed, a
    change in the compatible direction), and its findings. ``searched`` counts the instances a
    seeded search drew."""

    role: str
    verdict: str
    widens: bool
    changed: bool
    findings: tuple[Finding, ...] = ()
    searched: int = 0

    def to_dict(self) -> dict[str, Any]:
        """As JSON, for ``CatalogDiff.to_dict``."""
        return {
            "role": self.role,
            "verdict": self.verdict,
            "widens": self.widens,
            "changed": self.changed,
            "searched": self.searched,
            "findings": [finding.to_dict() for finding in self.findings],
        }


@dataclass(frozen=True)
class TextChange:
    """A text a model reads that changed: ``field`` (``description``, ``title``, ``annotations``)
    and the SHA-256 (hex) of its UTF-8 text before and after (None where there was none; the
    annotations as JSON with sorted keys)."""

    field: str
    old_sha256: str | None
    new_sha256: str | None

    def to_dict(self) -> dict[str, Any]:
        """As JSON, for ``CatalogDiff.to_dict``."""
        return {"field": self.field, "old_sha256": self.old_sha256, "new_sha256": self.new_sha256}


@dataclass(frozen=True)
class ToolDiff:
    """One tool compared: its ``name`` (the new one, or the old for a removed tool), ``status``,
    ``old_name`` (for a rename), ``verdict`` (a removal or rename is breaking: calls to the old name
    are refused), its ``input`` and ``output`` schemas (None where neither side has one, or the
    tool is on one side only), and its ``text`` changes."""

    name: str
    status: str
    verdict: str
    old_name: str | None = None
    input: SchemaDiff | None = None
    output: SchemaDiff | None = None
    text: tuple[TextChange, ...] = ()
    calls: CallCounts | None = None

    def to_dict(self) -> dict[str, Any]:
        """As JSON, for ``CatalogDiff.to_dict``."""
        found = {
            "name": self.name,
            "status": self.status,
            "verdict": self.verdict,
            "old_name": self.old_name,
            "input": None if self.input is None else self.input.to_dict(),
            "output": None if self.output is None else self.output.to_dict(),
            "text": [change.to_dict() for change in self.text],
        }
        if self.calls is not None:
            found["calls"] = self.calls.to_dict()
        return found


@dataclass(frozen=True)
class CatalogDiff:
    """Two catalogs compared: the ``reading`` of callers, every tool's diff (removed tools first,
    then in the new catalog's order), and the ``search`` asked for (instances per schema, and its
    ``seed``)."""

    reading: str
    tools: tuple[ToolDiff, ...]
    search: int = 0
    seed: int = 0
    calls: CallsRead | None = None

    @property
    def verdict(self) -> str:
        """The worst verdict of any tool: ``breaking``, ``unknown`` or ``compatible``."""
        return worst(tool.verdict for tool in self.tools)

    def counts(self) -> dict[str, int]:
        """How many tools have each status."""
        counted = dict.fromkeys(("added", "removed", "renamed", "changed", "unchanged"), 0)
        for tool in self.tools:
            counted[tool.status] += 1
        return counted

    def fails(self, fail_on: str = "breaking") -> bool:
        """Whether the diff fails a check: ``breaking`` on a breaking tool, ``unknown`` on a breaking
        or unknown one, ``any`` on any change at all."""
        if fail_on not in FAIL_ON:
            raise DiffError(f"fail_on is one of {', '.join(FAIL_ON)}, not {fail_on!r}")
        if fail_on == "any":
            return any(tool.status != "unchanged" for tool in self.tools)
        failing = {"breaking"} if fail_on == "breaking" else {"breaking", "unknown"}
        return any(tool.verdict in failing for tool in self.tools)

    def to_dict(self) -> dict[str, Any]:
        """The report as JSON: its shape is :data:`~toolreg._lifecycle.diff.REPORT_SCHEMA`."""
        found = {
            "reading": self.reading,
            "verdict": self.verdict,
            "search": self.search,
            "seed": self.seed,
            "counts": self.counts(),
            "tools": [tool.to_dict() for tool in self.tools],
        }
        if self.calls is not None:
            found["calls"] = self.calls.to_dict()
        return found

    def render(self, format: str = "text") -> str:  # noqa: A002 - the CLI's word
        """The report as ``text`` for people, ``json``, ``markdown`` (a PR comment) or ``github``
        (workflow annotations)."""
        return render(self, format)


def worst(verdicts: Any) -> str:
    """The worst of ``verdicts`` (``compatible`` when there are none)."""
    return max(verdicts, key=VERDICTS.index, default="compatible")


@dataclass(frozen=True)
class CallCounts:
    """The logged calls to one tool (by its old name): ``logged`` with arguments read, ``accepted`` by
    the old input schema, ``refused`` of those by the new one (or by the tool's removal), and
    ``other``: refused calls that no breaking finding explains."""

    logged: int = 0
    accepted: int = 0
    refused: int = 0
    other: int = 0

    def to_dict(self) -> dict[str, int]:
        """As JSON, for ``CatalogDiff.to_dict``."""
        return {
            "logged": self.logged,
            "accepted": self.accepted,
            "refused": self.refused,
            "other": self.other,
        }


@dataclass(frozen=True)
class CallsRead:
    """What the logs held: ``calls`` found, ``malformed`` ones (arguments that could not be read),
    ``unknown`` ones (to a name the old catalog lacks), and ``unreadable`` lines."""

    calls: int = 0
    malformed: int = 0
    unknown: int = 0
    unreadable: int = 0

    def to_dict(self) -> dict[str, int]:
        """As JSON, for ``CatalogDiff.to_dict``."""
        return {
            "calls": self.calls,
            "malformed": self.malformed,
            "unknown": self.unknown,
            "unreadable": self.unreadable,
        }


# -- the forms -----------------------------------------------------------------------------------------


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
        raise DiffError(f"format is one of {', '.join(FORMATS)}, not {format!r}") from None
    return shape(report)
