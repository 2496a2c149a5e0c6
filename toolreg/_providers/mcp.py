"""MCP: tool objects for ``tools/list``, ``tools/call`` params read in and ``CallToolResult`` out, and a
server's ``tools/list`` result read into a registry (:func:`import_mcp`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .._errors import InvalidToolError
from .._feedback import format_errors, mcp_error_result
from .._jsonschema.errors import SchemaError, ToolregError, thaw
from .._registry import (
    FLAGS,
    LINE_BREAK,
    RECORD_FIELDS,
    Registry,
    ToolRecord,
    check_tool_name,
    join_description,
)
from .._results import CallResult
from .base import NameRule, Provider, ToolCall, object_arguments, schema_of

__all__ = [
    "PROVIDER",
    "NAMES",
    "ImportReport",
    "Refusal",
    "Change",
    "import_mcp",
    "mcp_tools",
    "toolreg_name",
    "split_description",
]

# MCP 2025-11-25 and later (SEP-986): ASCII letters, digits, _ - and ., 1 to 128; dots are fine.
NAMES = NameRule(
    re.compile(r"[A-Za-z0-9_.-]{1,128}"), "ASCII letters, digits, _ - . (1-128)", keeps_dots=True
)


def export(record: ToolRecord, strict: bool, omit_unsupported: bool) -> dict[str, Any]:
    meta = thaw(record.meta)
    tool: dict[str, Any] = {"name": NAMES.sent(record.name, "mcp")}
    if record.title is not None:
        tool["title"] = record.title
    tool["description"] = record.full_description
    tool["inputSchema"] = schema_of(record)
    if record.output_schema is not None:
        tool["outputSchema"] = record.output_schema
    tool["annotations"] = {"idempotentHint": record.idempotent, **record.hints, **meta.pop("annotations", {})}
    tool.update(meta)
    return tool


def recognises(call: dict[str, Any]) -> bool:
    return isinstance(call.get("name"), str)


def read(call: dict[str, Any]) -> ToolCall:
    # The SDK's CallToolRequestParams gives arguments=None when the client sent none.
    arguments, problem = object_arguments(call.get("arguments"), absent_is_empty=True)
    sent = call["name"]
    return ToolCall("mcp", None, sent, NAMES.toolreg_name(sent), arguments, problem)


def answer(call: ToolCall, result: CallResult, record: ToolRecord | None) -> dict[str, Any]:
    """A ``CallToolResult``: the text, with ``isError`` on failure and the errors as data under
    ``_meta`` (never in ``structuredContent``, which MCP reserves for a result fitting the output
    schema); a tool with an output schema sends an object result as ``structuredContent`` too."""
    if not result.ok:
        return failure_result(result)
    message: dict[str, Any] = {
        "content": [{"type": "text", "text": result.text}, *_notes(result)],
        "isError": False,
    }
    if record is not None and record.output_validator is not None and isinstance(result.output, dict):
        message["structuredContent"] = result.output
    return message


def failure_result(result: CallResult) -> dict[str, Any]:
    """The one MCP answer to a call that failed, for ``answer(provider="mcp")`` and toolreg's MCP
    server alike: ``isError``, the message as text, the errors as data under ``_meta`` (never as
    ``structuredContent``: a client checks that against the tool's output schema even on an error,
    and no error would fit it), and the repairs made, if any, in a text block of their own."""
    failed = mcp_error_result(result.text, format_errors(result.errors).items if result.errors else ())
    failed["content"] += _notes(result)
    return failed


def _notes(result: CallResult) -> list[dict[str, Any]]:
    # The repairs made to the arguments, in a text block of their own: the first stays the output.
    return [{"type": "text", "text": result.note}] if result.repairs else []


PROVIDER = Provider(
    "mcp", NAMES, "MCP tools/call params: {name, arguments?}", recognises, read, answer, export
)


# -- a server's catalog read in --------------------------------------------------------------------------

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_OTHER = re.compile(r"[^a-z0-9_.]+")


def toolreg_name(name: str) -> str:
    """The documented rule for a foreign name: ``getUser`` and ``get-user`` both become ``get_user``.

    camelCase is split with ``_``, letters are lowercased, every run of other characters (``-``,
    spaces, ``/``) becomes one ``_``, and empty segments and stray ``_`` at the ends go. Names that
    collide after this are refused on import, never merged.
    """
    lowered = _OTHER.sub("_", _CAMEL.sub("_", name).lower())
    segments = [segment.strip("_") for segment in lowered.split(".")]
    return ".".join(re.sub("_+", "_", segment) for segment in segments if segment.strip("_"))


@dataclass(frozen=True)
class Refusal:
    """A tool an import could not register: its name there, why, and where in its schema."""

    name: str
    reason: str
    schema_path: str | None = None


@dataclass(frozen=True)
class Change:
    """A field of a registered tool that toolreg could not keep as the catalog wrote it."""

    name: str
    field: str
    reason: str


@dataclass(frozen=True)
class ImportReport:
    """What an import did: ``registered`` maps each foreign name to its toolreg name, ``refused``
    says why each other tool was left out, and ``changed`` names every field not kept as it was."""

    registered: dict[str, str] = field(default_factory=dict)
    refused: tuple[Refusal, ...] = ()
    changed: tuple[Change, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.refused


def mcp_tools(catalog: Any) -> list[dict[str, Any]]:
    """The tools of a ``tools/list`` result (``{"tools": [...]}``), a JSON-RPC reply, or a list."""
    if isinstance(catalog, dict) and "result" in catalog:
        catalog = catalog["result"]
    if isinstance(catalog, dict) and "tools" in catalog:
        catalog = catalog["tools"]
    if not isinstance(catalog, list) or not all(isinstance(tool, dict) for tool in catalog):
        raise InvalidToolError(
            'a catalog is a tools/list result ({"tools": [...]}) or a list of tool objects'
        )
    return catalog


def split_description(text: str) -> tuple[str, str]:
    """An MCP description as toolreg keeps it: its first line, and the rest after the line break.

    ``ToolRecord.full_description`` joins them with ``"\\n"``, which gives the text back exactly
    unless it broke its first line with another character (``"\\r\\n"``, U+2028).
    """
    first, *rest = LINE_BREAK.split(text, maxsplit=1)
    return first, rest[0] if rest else ""


def import_mcp(
    registry: Registry,
    catalog: Any,
    handlers: Mapping[str, Callable[..., Any]] | Callable[[dict[str, Any]], Callable[..., Any]],
    *,
    names: Mapping[str, str] | None = None,
    prefix: str | None = None,
    override: bool = False,
) -> ImportReport:
    """Register every tool of an MCP catalog that toolreg accepts, and report each one it refuses.

    ``handlers`` maps each MCP name to its handler, or is a factory called with the tool's object.
    ``names`` maps MCP names to toolreg names where the rule (``getUser`` becomes ``get_user``) will not do.
    ``prefix`` puts every tool under a segment of its own (``"github"`` makes ``github.create_issue``),
    so several servers share a registry without colliding; ``override=True`` replaces tools
    registered before (a ``tools/list_changed`` refresh). Without it a name that is taken is refused.
    Every field is kept: the description's first line as ``description``, the rest as ``details``,
    ``outputSchema``, and ``_meta``, ``icons`` and the other fields and annotations as ``meta``;
    whatever is not kept as written is named in ``changed``. A tool whose registration fails for any
    reason is refused with that reason, and the import goes on.
    """
    if prefix is not None:
        check_tool_name(prefix)
    tools = mcp_tools(catalog)
    refused: list[Refusal] = []
    changed: list[Change] = []
    wanted: dict[str, list[str]] = {}

    def toolreg_name_of(foreign: str) -> str:
        name = (names or {}).get(foreign) or toolreg_name(foreign)
        return f"{prefix}.{name}" if prefix else name

    for tool in tools:
        foreign = tool.get("name")
        if isinstance(foreign, str):
            wanted.setdefault(toolreg_name_of(foreign), []).append(foreign)
    registered: dict[str, str] = {}
    for tool in tools:
        foreign = tool.get("name")
        if not isinstance(foreign, str) or not foreign:
            refused.append(Refusal(repr(foreign), "a tool needs a non-empty string 'name'"))
            continue
        name = toolreg_name_of(foreign)
        if len(wanted[name]) > 1:
            others = ", ".join(repr(other) for other in wanted[name] if other != foreign)
            refused.append(Refusal(foreign, f"becomes {name!r}, as {others} does; give names= for them"))
            continue
        options, notes = _registration(tool)
        try:
            handler = handlers.get(foreign) if isinstance(handlers, Mapping) else handlers(tool)
            if handler is None:
                raise InvalidToolError(f"no handler given for {foreign!r}")
            registry.register(
                name, tool.get("inputSchema", {"type": "object"}), handler, override=override, **options
            )
        except SchemaError as error:
            refused.append(Refusal(foreign, error.reason, error.schema_path))
        except Exception as error:  # a ToolregError, or a failure of a schema no one foresaw: one tool
            reason = str(error) if isinstance(error, ToolregError) else f"{type(error).__name__}: {error}"
            refused.append(Refusal(foreign, reason))
        else:
            registered[foreign] = name
            changed.extend(Change(foreign, where, reason) for where, reason in notes)
    return ImportReport(registered, tuple(refused), tuple(changed))


def _registration(tool: dict[str, Any]) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """``register``'s keyword arguments for an MCP tool object, and what could not be kept."""
    notes: list[tuple[str, str]] = []
    if "inputSchema" not in tool:
        notes.append(("inputSchema", 'missing; taken as {"type": "object"}'))
    text = tool.get("description", "")
    if not isinstance(text, str):
        notes.append(("description", f"not a string ({type(text).__name__}); dropped"))
        text = ""
    description, details = split_description(text)
    if join_description(description, details) != text:
        notes.append(("description", "its line breaks are kept as \\n"))
    meta = {key: value for key, value in tool.items() if key not in RECORD_FIELDS | {"annotations"}}
    given = tool.get("annotations", {})
    if not isinstance(given, dict):
        notes.append(("annotations", "not an object; dropped"))
        given = {}
    hints: dict[str, bool] = {}
    idempotent = False
    other_annotations: dict[str, Any] = {}
    for key, value in given.items():
        if key in FLAGS:
            if not isinstance(value, bool):
                notes.append((f"annotations.{key}", f"not a boolean ({value!r}); dropped"))
            elif key == "idempotentHint":
                idempotent = value
            else:
                hints[key] = value
        else:
            other_annotations[key] = value
    if other_annotations:
        meta["annotations"] = other_annotations
    title = tool.get("title")
    if title is not None and not isinstance(title, str):
        notes.append(("title", f"not a string ({type(title).__name__}); dropped"))
        title = None
    options = {
        "description": description,
        "details": details,
        "idempotent": idempotent,
        "title": title,
        "hints": hints,
        "output_schema": tool.get("outputSchema"),
        "meta": meta,
    }
    return options, notes
