"""``toolreg diff OLD NEW --calls LOG...``: the logged calls each breaking change would refuse.

Each call of the logs (read by ``logs.read_log``, in any form it reads) is matched to a tool of the old
catalog by the name it was sent under (or the name the provider's rule maps it back to), and judged by
the validator: a call the old input schema accepts and the new one refuses (or whose tool is gone) is
counted against each breaking finding whose new schema pointer is among the new schema's errors on it,
and as *other* when none is.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

from .diff_report import CallCounts, CallsRead, DiffError
from .documents import Document
from .logs import LoggedCall, LogSource, SourceRead, Unreadable, read_log

__all__ = ["CallCounts", "CallsRead", "counted"]


class _Tally:
    def __init__(self, old: Document, new: Document | None, pointers: list[str | None]) -> None:
        self.old, self.new, self.pointers = old, new, pointers
        self.counts = Counter[str]()
        self.per_finding = [0] * len(pointers)

    def add(self, arguments: dict[str, Any]) -> None:
        """Count one logged call's arguments."""
        self.counts["logged"] += 1
        if self.old.validator.validate(arguments):
            return
        self.counts["accepted"] += 1
        if self.new is None:  # the tool is gone: every call is refused
            self.counts["refused"] += 1
            self.counts["other"] += 1
            return
        errors = self.new.validator.validate(arguments)
        if not errors:
            return
        self.counts["refused"] += 1
        places = {error.schema_path for error in errors}
        explained = False
        for index, pointer in enumerate(self.pointers):
            if pointer is not None and pointer in places:
                self.per_finding[index] += 1
                explained = True
        if not explained:
            self.counts["other"] += 1


def counted(
    tools: list[Any], documents: dict[str, tuple[Document, Document | None]], log: LogSource
) -> tuple[list[Any], CallsRead]:
    """``tools`` (``ToolDiff``) with the calls of ``log`` counted on each tool of the old catalog and
    each breaking finding of its input; ``documents`` maps each tool's name in the report to its old
    input schema and its new one (None when the tool is gone)."""
    tallies: dict[str, _Tally] = {}
    by_old_name: dict[str, str] = {}
    for tool in tools:
        if tool.name not in documents:
            continue  # an added tool: no call of the old catalog is to it
        old, new = documents[tool.name]
        findings = tool.input.findings if tool.input is not None else ()
        pointers = [finding.new_schema_path if finding.kind == "breaking" else None for finding in findings]
        tallies[tool.name] = _Tally(old, new, pointers)
        by_old_name[tool.old_name or tool.name] = tool.name
    read = Counter[str]()
    for event in read_log(log):
        if isinstance(event, Unreadable):
            if event.kind == "file":
                raise DiffError(f"cannot read the log {event.source}: {event.reason}")
            read["unreadable"] += 1
        elif isinstance(event, LoggedCall):
            read["calls"] += 1
            name = by_old_name.get(event.tool) or by_old_name.get(event.name)
            if name is None:
                read["unknown"] += 1
            elif event.arguments is None:
                read["malformed"] += 1
            else:
                tallies[name].add(event.arguments)
        elif not isinstance(event, SourceRead):
            continue  # answers and catalogs the logs show: not calls
    updated = []
    for tool in tools:
        tally = tallies.get(tool.name)
        if tally is None:
            updated.append(tool)
            continue
        section = tool.input
        if section is not None:
            findings = tuple(
                replace(finding, calls=tally.per_finding[index]) if finding.kind == "breaking" else finding
                for index, finding in enumerate(section.findings)
            )
            section = replace(section, findings=findings)
        counts = CallCounts(**{key: tally.counts[key] for key in ("logged", "accepted", "refused", "other")})
        updated.append(replace(tool, input=section, calls=counts))
    return updated, CallsRead(**{key: read[key] for key in ("calls", "malformed", "unknown", "unreadable")})
