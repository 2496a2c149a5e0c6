"""Tool catalogs read in any form toolreg knows, as MCP-shaped entries.

A catalog is an MCP ``tools/list`` result (or the JSON-RPC reply holding it, or its list of tools), a
provider's tool array (OpenAI Chat ``{"type": "function", "function": {...}}``, OpenAI Responses
``{"type": "function", "name": ..., "parameters": ...}``, Anthropic ``{"name", "input_schema"}``, Gemini
``{"functionDeclarations": [...]}`` or its declarations), JSONL with one tool a line, or a
:class:`~toolreg.ToolRegistry`. Every form becomes the same entries, so ``toolreg check``,
``toolreg diff`` and the other commands read the same files.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from .._feedback import printable
from .._jsonschema.errors import ToolregError
from .._toolregistry import ToolRegistry

__all__ = ["CatalogError", "read_catalog_file", "catalog_entries", "parse_json", "read_text"]

# Where each form keeps a tool's input schema and its output schema, in the order they are looked for.
_INPUT_KEYS = ("inputSchema", "input_schema", "parameters", "parametersJsonSchema", "schema")
_OUTPUT_KEYS = ("outputSchema", "output_schema", "responseJsonSchema", "response")
_GEMINI_KEYS = ("functionDeclarations", "function_declarations")
# What every entry holds, as MCP spells it; other fields of an MCP tool are kept as they are.
_ENTRY_FIELDS = ("name", "description", "title", "annotations", "inputSchema", "outputSchema")


class CatalogError(ToolregError, ValueError):
    """A catalog that cannot be read: not a file, not UTF-8, not JSON, or no list of tools. The
    message names the file and, for JSONL, the line."""


def read_text(path: str | os.PathLike[str]) -> str:
    """The UTF-8 text of ``path``, or a CatalogError saying why not."""
    shown = printable(os.fspath(path))
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise CatalogError(f"cannot read {shown}: {error.strerror or error}") from None
    except UnicodeDecodeError as error:
        raise CatalogError(f"{shown} is not UTF-8 text (byte {error.start})") from None


def parse_json(text: str, what: str) -> Any:
    """``text`` read as JSON, or a CatalogError naming ``what``: bad syntax (line and column), nesting
    Python cannot follow, an integer too long to read."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise CatalogError(
            f"{what}: not JSON: {error.msg} at line {error.lineno}, column {error.colno}"
        ) from None
    except RecursionError:
        raise CatalogError(f"{what}: nested too deeply to read") from None
    except ValueError as error:  # an integer past Python's 4300-digit limit
        raise CatalogError(f"{what}: cannot be read: {error}") from None


def read_catalog_file(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The tools of a catalog file as MCP-shaped entries (see :func:`catalog_entries`).

    A file whose name ends in ``.jsonl`` holds one tool (or one array of tools) a line; any other, one
    JSON document. Raises :class:`CatalogError` with the file's name (and line) when it cannot be read.
    """
    shown = printable(os.fspath(path))
    text = read_text(path)
    if os.fspath(path).endswith(".jsonl"):
        loaded: list[Any] = []
        # Lines end at "\n" alone (JSON Lines): U+2028 and the like are characters inside strings.
        for number, line in enumerate(text.split("\n"), 1):
            if line.strip():
                value = parse_json(line, f"{shown} line {number}")
                loaded.extend(value if isinstance(value, list) else [value])
        document: Any = loaded
    else:
        document = parse_json(text, shown)
    try:
        return catalog_entries(document)
    except CatalogError as error:
        raise CatalogError(f"{shown}: {error}") from None


def catalog_entries(loaded: Any) -> list[dict[str, Any]]:
    """Every tool of a catalog in any form, as an MCP ``tools/list`` entry.

    Each entry has ``name``, ``description`` (``""`` when none is given), ``title`` (or ``None``),
    ``annotations`` (``{}`` when none), ``inputSchema`` (``{"type": "object"}``, any object, when the
    form leaves it out or writes ``null``) and ``outputSchema`` (or ``None``); an MCP tool's other fields
    (``_meta``, ``icons``...) are kept. Values are taken as the catalog gives them, unchecked, so that
    a reader can refuse one tool and go on. Raises :class:`CatalogError` when ``loaded`` is no catalog.
    """
    if isinstance(loaded, ToolRegistry):
        loaded = loaded.export("mcp")
    if isinstance(loaded, dict) and "result" in loaded:
        loaded = loaded["result"]
    if isinstance(loaded, dict) and "tools" in loaded:
        loaded = loaded["tools"]
    if isinstance(loaded, dict) and any(key in loaded for key in _GEMINI_KEYS):
        loaded = [loaded]
    if not isinstance(loaded, list) or not all(isinstance(tool, dict) for tool in loaded):
        raise CatalogError(
            'a catalog is a tools/list result ({"tools": [...]}), a list of tool objects in an MCP or '
            "provider form, or JSONL with one tool a line"
        )
    entries: list[dict[str, Any]] = []
    for tool in loaded:
        declarations = next((tool[key] for key in _GEMINI_KEYS if key in tool), None)
        if declarations is None:
            entries.append(_entry(tool))
        elif isinstance(declarations, list) and all(isinstance(item, dict) for item in declarations):
            entries.extend(_entry(declaration) for declaration in declarations)
        else:
            raise CatalogError("a Gemini tool's functionDeclarations is a list of objects")
    return entries


def _entry(tool: dict[str, Any]) -> dict[str, Any]:
    """One tool object of any form as an MCP entry."""
    function = tool.get("function")
    openai = tool.get("type") == "function"
    if openai and isinstance(function, dict):  # OpenAI Chat Completions
        tool = function
    entry = {key: value for key, value in tool.items() if key not in _INPUT_KEYS + _OUTPUT_KEYS}
    if openai:  # the form's own fields, not the tool's
        entry.pop("type", None)
        entry.pop("strict", None)
    entry.setdefault("description", "")
    entry.setdefault("title", None)
    entry.setdefault("annotations", {})
    # A schema written as null is no schema, as a server whose code left it unset writes it.
    entry["inputSchema"] = next(
        (tool[key] for key in _INPUT_KEYS if tool.get(key) is not None), {"type": "object"}
    )
    entry["outputSchema"] = next((tool[key] for key in _OUTPUT_KEYS if tool.get(key) is not None), None)
    ordered = {key: entry.pop(key) for key in _ENTRY_FIELDS if key in entry}
    return {**ordered, **entry}
