"""``toolreg.diff``: two versions of a tool catalog compared, tool by tool and schema by schema.

Each tool is ``added``, ``removed``, ``renamed`` (a removal and an addition with the same input
schema), ``changed`` or ``unchanged``; a change to the text a model reads (description, title,
annotations) is reported apart, with the SHA-256 of both texts. Each schema that changed gets a
verdict: ``breaking`` (a verified witness: whole arguments the old input schema accepts and the new
refuses, or a result the new output schema allows and the old refused), ``compatible`` (every
difference proved contained) or ``unknown`` (naming the keyword and pointer that stopped the proof).
The report's shape, as :meth:`CatalogDiff.to_dict` writes it, is the JSON Schema ``REPORT_SCHEMA``; the
report's values and the forms it is shown in are in ``diff_report``.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from .._jsonschema.errors import SchemaError, ToolregError
from .._jsonschema.pointer import ARRAY_INDEX, split, to_pointer
from .._jsonschema.validator import Validator
from .._jsonschema.values import json_copy, json_key
from .catalogs import CatalogError, catalog_entries, read_catalog_file
from .compare import RULES
from .diff_calls import counted
from .diff_report import (
    FAIL_ON,
    VERDICTS,
    CallCounts,
    CallsRead,
    CatalogDiff,
    DiffError,
    Finding,
    SchemaDiff,
    TextChange,
    ToolDiff,
    worst,
)
from .documents import Document
from .engine import Blocked, Candidate, Comparison, Verified
from .logs import LogSource
from .search import Job, drawn_from
from .search import search as run_search

__all__ = [
    "diff",
    "CatalogDiff",
    "ToolDiff",
    "SchemaDiff",
    "Finding",
    "TextChange",
    "DiffError",
    "READINGS",
    "VERDICTS",
    "FAIL_ON",
    "REPORT_SCHEMA",
    "CallCounts",
    "CallsRead",
]

READINGS = ("declared", "any")
# The text fields of a tool a model reads, beside its schemas.
_TEXT_FIELDS = ("description", "title", "annotations")
# The largest search= a caller may ask for, per schema.
MAX_SEARCH = 100_000
REPORT_SCHEMA: dict[str, Any] = json.loads(
    Path(__file__).with_name("diff-report.schema.json").read_text("utf-8")
)


# -- reading the two sides -----------------------------------------------------------------------------


@dataclass(frozen=True)
class _Tool:
    name: str
    entry: dict[str, Any]
    input: Document
    output: Document | None


def _entries(catalog: Any) -> list[dict[str, Any]]:
    if isinstance(catalog, (str, os.PathLike)):
        return read_catalog_file(catalog)
    return catalog_entries(catalog)


def _side(catalog: Any, side: str) -> dict[str, _Tool]:
    """Every tool of one side by name, each schema checked by the validator."""
    try:
        entries = _entries(catalog)
    except CatalogError as error:
        raise CatalogError(f"the {side} catalog: {error}") from None
    tools: dict[str, _Tool] = {}
    for index, entry in enumerate(entries):
        name = entry.get("name")
        if not isinstance(name, str) or not name:
            raise DiffError(f"the {side} catalog's tool {index} has no name")
        if name in tools:
            raise DiffError(f"the {side} catalog names the tool {name!r} twice")
        documents: list[Document | None] = []
        for field_name in ("inputSchema", "outputSchema"):
            schema = entry.get(field_name)
            if schema is None:
                documents.append(None)
                continue
            try:
                validator = Validator(schema)
            except SchemaError as error:
                raise SchemaError(
                    f"the {side} catalog's tool {name!r}: its {field_name} is refused: {error.reason}",
                    schema_path=error.schema_path,
                    keyword=error.keyword,
                ) from None
            except ToolregError as error:  # a limit of the validator's
                raise SchemaError(f"the {side} catalog's tool {name!r}: its {field_name}: {error}") from None
            documents.append(Document(schema, validator))
        input_document, output_document = documents
        assert input_document is not None  # catalog_entries gives every tool one
        tools[name] = _Tool(name, entry, input_document, output_document)
    return tools


def _digest(value: Any) -> str | None:
    if value is None:
        return None
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _text_changes(old: dict[str, Any], new: dict[str, Any]) -> tuple[TextChange, ...]:
    changes = []
    for field_name in _TEXT_FIELDS:
        before, after = old.get(field_name), new.get(field_name)
        if field_name == "annotations":
            before, after = before or None, after or None
        if json_key(before) != json_key(after):
            changes.append(TextChange(field_name, _digest(before), _digest(after)))
    return tuple(changes)


# -- comparing ---------------------------------------------------------------------------------------


class _Differ:
    def __init__(self, reading: str, search: int, seed: int) -> None:
        self.reading, self.search, self.seed = reading, search, seed
        self.declared = reading == "declared"
        # The schemas to search once every tool is compared, by the identity of their section.
        self.jobs: dict[int, tuple[Job, SchemaDiff]] = {}

    def schema(self, role: str, old: Document | None, new: Document | None) -> SchemaDiff | None:
        """One schema of a tool compared, in its role; None where neither side has one."""
        if old is None and new is None:
            return None
        old_document = old or Document(True)
        new_document = new or Document(True)
        changed = not _same_root(old_document, new_document)
        if not changed:
            return SchemaDiff(role, "compatible", False, False)
        # Input: the old schema's calls against the new; output: the new schema's results against the
        # old, which callers read them by.
        forward = (old_document, new_document) if role == "input" else (new_document, old_document)
        breaking = Comparison(*forward, rules=RULES, closed_accepting=self.declared)
        verified, blocked = breaking.findings(breaking.run())
        backward = Comparison(
            forward[1],
            forward[0],
            rules=RULES,
            closed_accepting=self.declared,
            closed_refusing=self.declared and role == "input",
        )
        widening, _ = backward.findings(backward.run())
        findings = [self._finding("breaking", item, role, forward=True) for item in verified]
        findings += [self._finding("widening", item, role, forward=False) for item in widening]
        findings += [self._unknown(block, role) for block in blocked]
        verdict = "breaking" if verified else "unknown" if blocked else "compatible"
        section = SchemaDiff(role, verdict, bool(widening), True, tuple(findings))
        if self.search and not verified:
            accepting = forward[0]
            job = Job(drawn_from(accepting.root, accepting.dialect, self.declared), breaking.verify)
            self.jobs[id(section)] = (job, section)
        return section

    def searched(self, section: SchemaDiff | None) -> SchemaDiff | None:
        """``section`` with what the search found in it: its draws, and a witness if it found one."""
        if section is None or id(section) not in self.jobs:
            return section
        job, _ = self.jobs[id(section)]
        if job.found is None:
            return replace(section, searched=job.drawn)
        value, errors = job.found
        first = errors[0] if errors else None
        note = "A seeded search found a value {A} accepts and {R} refuses"
        where = tuple(_tokens(first.path)) if first is not None else ()
        refusing_path = first.schema_path if first is not None else None
        candidate = Candidate("search", None, refusing_path, where, value, note)
        found = self._finding("breaking", Verified(candidate, errors), section.role, forward=True)
        return replace(section, verdict="breaking", findings=(found, *section.findings), searched=job.drawn)

    def _finding(self, kind: str, item: Verified, role: str, *, forward: bool) -> Finding:
        candidate = item.candidate
        # Which document each pointer is in: the accepting side is the old one for a breaking input
        # and for a widening output.
        accepting_is_old = (role == "input") == forward
        old_path, new_path = (
            (candidate.accepting_path, candidate.refusing_path)
            if accepting_is_old
            else (candidate.refusing_path, candidate.accepting_path)
        )
        names = (
            ("the old schema", "the new schema") if accepting_is_old else ("the new schema", "the old schema")
        )
        message = candidate.note.replace("{A}", names[0]).replace("{R}", names[1])
        return Finding(
            kind,
            candidate.rule,
            message[:1].upper() + message[1:],
            old_path,
            new_path,
            to_pointer(candidate.where),
            True,
            json_copy(candidate.value),
            item.errors,
            refused_by="new" if accepting_is_old else "old",
        )

    def _unknown(self, block: Blocked, role: str) -> Finding:
        old_path, new_path = (
            (block.accepting_path, block.refusing_path)
            if role == "input"
            else (block.refusing_path, block.accepting_path)
        )
        names = (
            ("the old schema", "the new schema") if role == "input" else ("the new schema", "the old schema")
        )
        reason = block.reason.replace("{A}", names[0]).replace("{R}", names[1])
        pointer = block.refusing_path if block.refusing_path is not None else block.accepting_path
        message = f"{block.keyword} at {pointer!r} stopped the proof: {reason}"
        return Finding(
            "unknown",
            block.keyword,
            message,
            old_path,
            new_path,
            to_pointer(block.where),
            keyword=block.keyword,
            pointer=pointer,
        )

    def tool(
        self, name: str, old: _Tool | None, new: _Tool | None, *, renamed_from: str | None = None
    ) -> ToolDiff:
        """One tool compared: on one side only, or on both (its schemas and its texts)."""
        if new is None:
            assert old is not None
            return ToolDiff(name, "removed", "breaking")
        if old is None:
            return ToolDiff(name, "added", "compatible")
        input_diff = self.schema("input", old.input, new.input)
        output_diff = self.schema("output", old.output, new.output)
        text = _text_changes(old.entry, new.entry)
        verdict = worst(section.verdict for section in (input_diff, output_diff) if section is not None)
        if renamed_from is not None:
            return ToolDiff(name, "renamed", "breaking", renamed_from, input_diff, output_diff, text)
        same = _same_entry(old, new)
        return ToolDiff(
            name, "unchanged" if same else "changed", verdict, None, input_diff, output_diff, text
        )


def _tokens(pointer: str) -> list[str | int]:
    return [int(token) if ARRAY_INDEX.fullmatch(token) else token for token in split(pointer)]


def _same_entry(old: _Tool, new: _Tool) -> bool:
    """Whether two entries are equal as JSON (their schemas compared by the keys their documents keep)."""
    schemas = ("inputSchema", "outputSchema")
    rest = [{key: value for key, value in tool.entry.items() if key not in schemas} for tool in (old, new)]
    if json_key(rest[0]) != json_key(rest[1]) or not _same_root(old.input, new.input):
        return False
    if old.output is None or new.output is None:
        return old.output is new.output
    return _same_root(old.output, new.output)


def _same_root(old: Document, new: Document) -> bool:
    return bool(old.key(old.root) == new.key(new.root))


def _renames(removed: dict[str, _Tool], added: dict[str, _Tool]) -> dict[str, str]:
    """New name to old name, for each removed tool whose input schema an added tool has (in order)."""
    by_schema: dict[Any, list[str]] = {}
    for name, tool in removed.items():
        by_schema.setdefault(tool.input.key(tool.input.root), []).append(name)
    pairs: dict[str, str] = {}
    for name, tool in added.items():
        waiting = by_schema.get(tool.input.key(tool.input.root))
        if waiting:
            pairs[name] = waiting.pop(0)
    return pairs


def diff(
    old: Any,
    new: Any,
    *,
    callers: str = "declared",
    search: int = 0,
    seed: int = 0,
    calls: LogSource | None = None,
) -> CatalogDiff:
    """Compare two versions of a tool catalog: which calls that worked with ``old`` will ``new`` refuse?

    ``old`` and ``new`` are catalogs in any form ``toolreg check`` reads (an MCP ``tools/list``
    result or its tools, a provider's tool array, the path of a JSON or JSONL file) or
    :class:`~toolreg.ToolRegistry` objects. Every schema of both is checked first: one toolreg
    refuses raises :class:`~toolreg.SchemaError` naming the side, the tool and the pointer.

    ``callers`` is the reading of what callers send: ``"declared"`` (only the names the old schema
    declares in ``properties``, so an optional property added to an open object is compatible) or
    ``"any"`` (any JSON the old schema accepts). ``search`` draws that many instances of each old
    schema the rules did not find breaking (hypothesis-jsonschema, seeded by ``seed``) and checks
    them against the new: a witness found so is verified like the rules' own, with rule ``search``.

    ``calls`` is a log of model tool calls (a path, an open file, or a list of paths or lines, in
    any form ``toolreg replay`` reads): each call to a tool of ``old`` that the old input schema accepts and
    the new refuses is counted against the breaking findings whose pointer the new schema's errors on
    it name, the rest as ``other`` (``ToolDiff.calls``, ``Finding.calls``, ``CatalogDiff.calls``).
    """
    if callers not in READINGS:
        raise DiffError(f"callers is one of {', '.join(map(repr, READINGS))}, not {callers!r}")
    for option, value in (("search", search), ("seed", seed)):
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_SEARCH * 10**4:
            raise DiffError(f"{option} is a whole number from 0, not {value!r}")
    if search > MAX_SEARCH:
        raise DiffError(f"search is at most {MAX_SEARCH:,} instances a schema, not {search:,}")
    before, after = _side(old, "old"), _side(new, "new")
    differ = _Differ(callers, search, seed)
    removed = {name: tool for name, tool in before.items() if name not in after}
    added = {name: tool for name, tool in after.items() if name not in before}
    renamed = _renames(removed, added)
    tools = [differ.tool(name, tool, None) for name, tool in removed.items() if name not in renamed.values()]
    for name, tool in after.items():
        if name in renamed:
            tools.append(differ.tool(name, before[renamed[name]], tool, renamed_from=renamed[name]))
        else:
            tools.append(differ.tool(name, before.get(name), tool))
    if differ.jobs:
        run_search([job for job, _ in differ.jobs.values()], search, seed)
        tools = [_with_search(differ, tool) for tool in tools]
    read = None
    if calls is not None:
        documents = {
            tool.name: (
                before[tool.old_name or tool.name].input,
                after[tool.name].input if tool.status != "removed" else None,
            )
            for tool in tools
            if tool.status != "added"
        }
        tools, read = counted(tools, documents, calls)
    return CatalogDiff(callers, tuple(tools), search, seed, read)


def _with_search(differ: _Differ, tool: ToolDiff) -> ToolDiff:
    sections = differ.searched(tool.input), differ.searched(tool.output)
    verdict = tool.verdict
    if tool.status == "changed":
        verdict = worst(section.verdict for section in sections if section is not None)
    return replace(tool, input=sections[0], output=sections[1], verdict=verdict)
