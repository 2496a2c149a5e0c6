"""The workloads: schemas and calls built in code, and hand-written validators that bound pure Python."""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path
from typing import Any

import toolreg

__all__ = [
    "SMALL",
    "NESTED",
    "LARGE",
    "catalog",
    "catalog_versions",
    "handwritten_small",
    "handwritten_nested",
    "handwritten_large",
]

# -- a read_file-like call ---------------------------------------------------------------------

SMALL_SCHEMA = {
    "type": "object",
    "properties": {
        "path": {"type": "string", "minLength": 1, "maxLength": 4096, "pattern": "^[^\\u0000]+$"},
        "encoding": {"enum": ["utf-8", "ascii", "latin-1"]},
        "max_bytes": {"type": "integer", "minimum": 1, "maximum": 10485760},
        "options": {
            "type": "object",
            "properties": {"follow_symlinks": {"type": "boolean"}},
            "additionalProperties": False,
        },
    },
    "required": ["path"],
    "additionalProperties": False,
}
SMALL_VALID = {
    "path": "src/main.py",
    "encoding": "utf-8",
    "max_bytes": 4096,
    "options": {"follow_symlinks": False},
}
SMALL_INVALID = {"encoding": "ebcdic", "max_bytes": 4096, "options": {"follow_symlinks": "yes"}}
SMALL = {"schema": SMALL_SCHEMA, "valid": SMALL_VALID, "invalid": SMALL_INVALID, "errors": 3}

_NUL_FREE = re.compile("^[^\u0000]+$")
_ENCODINGS = frozenset(("utf-8", "ascii", "latin-1"))


def handwritten_small(call: Any) -> list[tuple[str, str]]:
    """What a perfect generator would write for SMALL_SCHEMA: every error, with its pointer."""
    errors = []
    if type(call) is not dict:
        return [("", "type")]
    if "path" not in call:
        errors.append(("", "required"))
    for key in call:
        if key not in ("path", "encoding", "max_bytes", "options"):
            errors.append(("", "additionalProperties"))
            break
    path = call.get("path")
    if path is not None:
        if type(path) is not str:
            errors.append(("/path", "type"))
        elif not 1 <= len(path) <= 4096 or not _NUL_FREE.search(path):
            errors.append(("/path", "string"))
    if "encoding" in call and call["encoding"] not in _ENCODINGS:
        errors.append(("/encoding", "enum"))
    size = call.get("max_bytes")
    if size is not None and (type(size) is not int or not 1 <= size <= 10485760):
        errors.append(("/max_bytes", "integer"))
    options = call.get("options")
    if options is not None:
        if type(options) is not dict:
            errors.append(("/options", "type"))
        else:
            if "follow_symlinks" in options and type(options["follow_symlinks"]) is not bool:
                errors.append(("/options/follow_symlinks", "type"))
            if any(key != "follow_symlinks" for key in options):
                errors.append(("/options", "additionalProperties"))
    return errors


# -- a changeset: three levels of objects, $ref/$defs, const, item counts -----------------------

NESTED_SCHEMA = {
    "$defs": {
        "hunk": {
            "type": "object",
            "properties": {
                "start": {"type": "integer", "minimum": 1},
                "lines": {"type": "integer", "minimum": 0},
                "text": {"type": "string", "maxLength": 10000},
            },
            "required": ["start", "lines", "text"],
            "additionalProperties": False,
        },
        "change": {
            "type": "object",
            "properties": {
                "file": {"type": "string", "minLength": 1},
                "kind": {"enum": ["add", "modify", "delete"]},
                "hunks": {"type": "array", "items": {"$ref": "#/$defs/hunk"}, "maxItems": 50},
            },
            "required": ["file", "kind", "hunks"],
            "additionalProperties": False,
        },
    },
    "type": "object",
    "properties": {
        "version": {"const": 1},
        "message": {"type": "string", "minLength": 1},
        "changes": {"type": "array", "items": {"$ref": "#/$defs/change"}, "minItems": 1, "maxItems": 20},
    },
    "required": ["version", "message", "changes"],
    "additionalProperties": False,
}
NESTED_VALID = {
    "version": 1,
    "message": "Refactor the parser",
    "changes": [
        {
            "file": f"src/module_{index}.py",
            "kind": ("add", "modify", "delete")[index % 3],
            "hunks": [{"start": 10 * hunk + 1, "lines": hunk + 2, "text": "x = 1\n"} for hunk in range(3)],
        }
        for index in range(4)
    ],
}
NESTED = {"schema": NESTED_SCHEMA, "valid": NESTED_VALID}
_KINDS = frozenset(("add", "modify", "delete"))


def handwritten_nested(call: Any) -> list[tuple[str, str]]:
    errors: list[tuple[str, str]] = []
    if type(call) is not dict:
        return [("", "type")]
    for name in ("version", "message", "changes"):
        if name not in call:
            errors.append(("", "required"))
    if any(key not in ("version", "message", "changes") for key in call):
        errors.append(("", "additionalProperties"))
    if "version" in call and (call["version"] != 1 or type(call["version"]) is bool):
        errors.append(("/version", "const"))
    message = call.get("message")
    if message is not None and (type(message) is not str or not message):
        errors.append(("/message", "string"))
    changes = call.get("changes")
    if changes is None:
        return errors
    if type(changes) is not list or not 1 <= len(changes) <= 20:
        return [*errors, ("/changes", "array")]
    for index, change in enumerate(changes):
        where = f"/changes/{index}"
        if type(change) is not dict:
            errors.append((where, "type"))
            continue
        if not ("file" in change and "kind" in change and "hunks" in change):
            errors.append((where, "required"))
        if any(key not in ("file", "kind", "hunks") for key in change):
            errors.append((where, "additionalProperties"))
        file = change.get("file")
        if file is not None and (type(file) is not str or not file):
            errors.append((where + "/file", "string"))
        if "kind" in change and change["kind"] not in _KINDS:
            errors.append((where + "/kind", "enum"))
        hunks = change.get("hunks")
        if hunks is None:
            continue
        if type(hunks) is not list or len(hunks) > 50:
            errors.append((where + "/hunks", "array"))
            continue
        for number, hunk in enumerate(hunks):
            at = f"{where}/hunks/{number}"
            if type(hunk) is not dict:
                errors.append((at, "type"))
                continue
            if not ("start" in hunk and "lines" in hunk and "text" in hunk):
                errors.append((at, "required"))
            if any(key not in ("start", "lines", "text") for key in hunk):
                errors.append((at, "additionalProperties"))
            start, lines, text = hunk.get("start"), hunk.get("lines"), hunk.get("text")
            if start is not None and (type(start) is not int or start < 1):
                errors.append((at + "/start", "integer"))
            if lines is not None and (type(lines) is not int or lines < 0):
                errors.append((at + "/lines", "integer"))
            if text is not None and (type(text) is not str or len(text) > 10000):
                errors.append((at + "/text", "string"))
    return errors


# -- 10,000 rows -------------------------------------------------------------------------------

ROW_SCHEMA = {
    "type": "object",
    "properties": {
        "id": {"type": "string", "pattern": "^[a-z]{3}-[0-9]{4}$"},
        "count": {"type": "integer", "minimum": 0},
        "status": {"enum": ["active", "paused", "done"]},
        "active": {"type": "boolean"},
        "tags": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["id", "count", "status", "active", "tags"],
    "additionalProperties": False,
}
LARGE_SCHEMA = {
    "type": "object",
    "properties": {"rows": {"type": "array", "items": ROW_SCHEMA}},
    "required": ["rows"],
}


def _row(index: int) -> dict[str, Any]:
    return {
        "id": f"abc-{index % 10000:04d}",
        "count": index,
        "status": ("active", "paused", "done")[index % 3],
        "active": index % 2 == 0,
        "tags": ["a", "b"],
    }


def _broken(index: int, row: dict[str, Any]) -> dict[str, Any]:
    kind = (index // 100) % 5
    if kind == 0:
        return {**row, "id": "BAD"}
    if kind == 1:
        return {**row, "count": "7"}
    if kind == 2:
        return {**row, "status": "lost"}
    if kind == 3:
        return {key: value for key, value in row.items() if key != "active"}
    return {**row, "tags": ["a", 2]}


LARGE_VALID = {"rows": [_row(index) for index in range(10000)]}
LARGE_INVALID = {
    "rows": [_broken(index, _row(index)) if index % 100 == 57 else _row(index) for index in range(10000)]
}
LARGE = {"schema": LARGE_SCHEMA, "valid": LARGE_VALID, "invalid": LARGE_INVALID, "errors": 100}
_ROW_ID = re.compile("^[a-z]{3}-[0-9]{4}$")
_STATUSES = frozenset(("active", "paused", "done"))
_ROW_KEYS = frozenset(("id", "count", "status", "active", "tags"))


def handwritten_large(call: Any) -> list[tuple[str, str]]:
    if type(call) is not dict:
        return [("", "type")]
    if "rows" not in call:
        return [("", "required")]
    rows = call["rows"]
    if type(rows) is not list:
        return [("/rows", "type")]
    errors = []
    for index, row in enumerate(rows):
        if type(row) is not dict:
            errors.append((f"/rows/{index}", "type"))
            continue
        if len(row) != 5 or not _ROW_KEYS.issuperset(row):
            errors.append((f"/rows/{index}", "required"))
        ident = row.get("id")
        if ident is not None and (type(ident) is not str or not _ROW_ID.search(ident)):
            errors.append((f"/rows/{index}/id", "string"))
        count = row.get("count")
        if count is not None and (type(count) is not int or count < 0):
            errors.append((f"/rows/{index}/count", "integer"))
        if "status" in row and row["status"] not in _STATUSES:
            errors.append((f"/rows/{index}/status", "enum"))
        if "active" in row and type(row["active"]) is not bool:
            errors.append((f"/rows/{index}/active", "type"))
        tags = row.get("tags")
        if tags is not None:
            if type(tags) is not list:
                errors.append((f"/rows/{index}/tags", "type"))
            else:
                for number, tag in enumerate(tags):
                    if type(tag) is not str:
                        errors.append((f"/rows/{index}/tags/{number}", "type"))
    return errors


# -- a catalog of 200 distinct tools ------------------------------------------------------------


def catalog(size: int = 200, seed: int = 7) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """``size`` distinct tool schemas, each with a valid sample call: (name, schema, call)."""
    chooser = random.Random(seed)
    tools = []
    for number in range(size):
        properties: dict[str, Any] = {}
        call: dict[str, Any] = {}
        for field in range(chooser.randint(2, 9)):
            name = f"field_{number}_{field}"
            kind = chooser.choice(("string", "integer", "boolean", "enum", "array", "object"))
            if kind == "string":
                properties[name] = {"type": "string", "minLength": 1, "pattern": f"^[a-z]{{1,{field + 8}}}$"}
                call[name] = "abc"
            elif kind == "integer":
                properties[name] = {"type": "integer", "minimum": 0, "maximum": 1000 + number}
                call[name] = 5
            elif kind == "boolean":
                properties[name] = {"type": "boolean", "description": f"flag {field}"}
                call[name] = True
            elif kind == "enum":
                properties[name] = {"enum": [f"v{number}", "b", "c"]}
                call[name] = "b"
            elif kind == "array":
                properties[name] = {"type": "array", "items": {"type": "string"}, "maxItems": 10}
                call[name] = ["x"]
            else:
                properties[name] = {"anyOf": [{"type": "string"}, {"type": "null"}]}
                call[name] = None
        schema: dict[str, Any] = {
            "type": "object",
            "properties": properties,
            "required": sorted(call)[:2],
            "additionalProperties": False,
        }
        if number % 3 == 0:
            schema["$defs"] = {"id": {"type": "string", "minLength": 3}}
            schema["properties"]["id"] = {"$ref": "#/$defs/id"}
            call["id"] = "tool-id"
        tools.append((f"tool_{number}", schema, call))
    return tools


# -- two versions of a 200-tool catalog, for toolreg diff ------------------------------------------

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared/tool-schemas/corpus.jsonl"


def _edited(schema: dict[str, Any], chooser: random.Random) -> dict[str, Any]:
    """``schema`` with one edit a team makes to a tool: a bound moved, an enum value dropped, a property
    added (optional or required), a text changed, the object closed."""
    edited = copy.deepcopy(schema)
    properties = edited.setdefault("properties", {})
    named = [name for name, value in properties.items() if isinstance(value, dict)]
    kind = chooser.choice(("bound", "enum", "optional", "required", "text", "closed"))
    if kind == "optional" or not named:
        properties[f"added_{chooser.randrange(1000)}"] = {"type": "string", "description": "new"}
    elif kind == "required":
        properties["added_required"] = {"type": "integer", "minimum": 0}
        edited["required"] = [*edited.get("required", []), "added_required"]
    elif kind == "closed":
        edited["additionalProperties"] = False
    else:
        target = properties[chooser.choice(named)]
        if kind == "enum" and isinstance(target.get("enum"), list) and len(target["enum"]) > 1:
            target["enum"] = target["enum"][:-1]
        elif kind == "bound" and target.get("type") in ("integer", "number"):
            target["minimum"] = target.get("minimum", 0) + 1
        elif kind == "bound" and target.get("type") == "string":
            target["maxLength"] = 64
        else:
            target["description"] = f"{target.get('description', '')} (changed)"
    return edited


def _accepted(record: dict[str, Any]) -> bool:
    """A corpus record of standard JSON Schema that toolreg accepts."""
    if record.get("dialect") == "nonstandard" or not isinstance(record.get("schema"), dict):
        return False
    try:
        toolreg.check_schema(record["schema"])
    except toolreg.SchemaError:
        return False
    return True


def catalog_versions(
    size: int = 200, seed: int = 11
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]] | None:
    """Two versions of a catalog of ``size`` real tools from the corpus (None without it): the new one
    with a quarter of the tools edited (see ``_edited``), five removed, five renamed and five added."""
    if not CORPUS.is_file():
        return None
    chooser = random.Random(seed)
    records = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()]
    standard = [record for record in records if _accepted(record)]
    picked = chooser.sample(standard, size + 5)
    old = [
        {
            "name": f"t{index}.{record['name']}",
            "description": record["description"],
            "inputSchema": record["schema"],
        }
        for index, record in enumerate(picked[:size])
    ]
    new = []
    for index, tool in enumerate(old):
        if index < 5:
            continue  # removed
        if index < 10:
            new.append({**tool, "name": f"renamed_{index}"})
        elif chooser.random() < 0.25:
            new.append({**tool, "inputSchema": _edited(tool["inputSchema"], chooser)})
        else:
            new.append(tool)
    new += [
        {"name": f"new_{index}", "description": record["description"], "inputSchema": record["schema"]}
        for index, record in enumerate(picked[size:])
    ]
    return old, new
