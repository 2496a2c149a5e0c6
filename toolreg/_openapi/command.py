"""``toolreg openapi SPEC``: what an OpenAPI document would register, without sending anything.

It reads the document (JSON, or YAML where PyYAML is installed), imports it into a registry of its
own with handlers that never run, and prints each tool (its name, method, URL and arguments), each
operation refused with its reason and pointer, and each change; it needs no httpx.
"""

from __future__ import annotations

import argparse
import importlib
import os
from typing import Any

from .._feedback import printable
from .._lifecycle.catalogs import CatalogError, parse_json, read_text
from .._registry import Registry
from . import checked_base_url, register_plan
from .operations import Operation, plan

__all__ = ["run_command", "read_spec"]


def read_spec(path: str) -> Any:
    """The document a file holds: YAML for a name ending in .yaml or .yml, JSON otherwise; a
    CatalogError saying why it cannot be read."""
    text = read_text(path)
    shown = printable(os.fspath(path))
    if not path.endswith((".yaml", ".yml")):
        return parse_json(text, shown)
    try:
        # Imported by name: PyYAML ships no type information, and everything read from it is checked.
        yaml: Any = importlib.import_module("yaml")
    except ImportError:
        raise CatalogError(
            f"{shown}: reading YAML needs PyYAML (pip install pyyaml); or give the JSON"
        ) from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = getattr(error, "problem", None) or "cannot be read"
        raise CatalogError(f"{shown}: not YAML: {problem}{where}") from None
    except RecursionError:
        raise CatalogError(f"{shown}: nested too deeply to read") from None


def _never_called(**arguments: Any) -> None:
    raise RuntimeError("toolreg openapi never calls a tool")


def run_command(options: argparse.Namespace) -> tuple[str, int]:
    """The text to print and the exit code (1 when an operation is refused); a ToolregError is bad
    input, for the caller to report."""
    base = "" if options.base_url is None else checked_base_url(options.base_url).rstrip("/")
    spec = read_spec(options.spec)
    registry = Registry()
    planned = plan(spec, registry.limits)
    by_name = {operation.foreign: operation for operation in planned.operations}
    report = register_plan(registry, planned, lambda operation: _never_called)
    lines = [_line(by_name[foreign], base) for foreign in report.registered]
    for refusal in report.refused:
        where = f" at {refusal.schema_path!r}" if refusal.schema_path else ""
        lines.append(printable(f"refused  {refusal.name}: {refusal.reason}{where}"))
    for change in report.changed:
        lines.append(printable(f"changed  {change.name}: {change.field}: {change.reason}"))
    lines.append(f"{len(report.registered)} would be registered, {len(report.refused)} refused")
    return "\n".join(lines), 1 if report.refused else 0


def _line(operation: Operation, base: str) -> str:
    arguments = ", ".join(argument.name for argument in operation.route.arguments) or "no arguments"
    route = operation.route
    return printable(f"tool     {operation.name}: {route.method} {base}{route.path} ({arguments})")
