"""The tools a replay judges calls against: each tool of the catalogs given or shown registered once in
one registry (:class:`Validators`), or refused with toolreg's reason; and a catalog keyed by the names
a call may name its tools by.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..._jsonschema.errors import SchemaError, ToolregError
from ..._toolregistry import ToolRegistry
from ..catalogs import catalog_entries, read_catalog_file
from .report import shown_text


def _never_called(**arguments: Any) -> None:
    raise RuntimeError("a replay never calls a tool")


@dataclass(frozen=True)
class JudgedTool:
    """A tool of a catalog as the replay judges it: its name in the shared registry, or why toolreg
    refuses its schema."""

    internal: str | None
    refused: str | None = None
    checks_output: bool = False


class Validators:
    """Every tool a replay has seen, registered once in one registry under a name of its own (catalogs
    name tools in ways toolreg's names do not allow); tools of equal schemas share a validator. Past
    a bound, the tools no catalog in use holds are removed, so a log whose catalog keeps changing
    stays bounded."""

    def __init__(self) -> None:
        self.registry = ToolRegistry()
        # Each name's tools as written, with their entries: catalogs may give one name several schemas.
        self.variants: dict[str, list[tuple[dict[str, Any], JudgedTool]]] = {}
        self.count = 0
        self.refused: list[tuple[str, str]] = []

    def entry(self, tool: dict[str, Any]) -> JudgedTool:
        """How a tool, as its catalog writes it, is judged: registered at its first sight."""
        variants = self.variants.setdefault(tool["name"], [])
        for written, entry in variants:
            if written == tool:
                return entry
        entry = self._register(tool)
        variants.append((tool, entry))
        return entry

    def prune(self, in_use: Iterable[JudgedTool], bound: int) -> None:
        """Remove the tools no catalog in use holds, once more than ``bound`` are registered."""
        if len(self.registry) <= bound:
            return
        kept = {id(entry) for entry in in_use}
        for name, variants in list(self.variants.items()):
            for _, entry in variants:
                if id(entry) not in kept and entry.internal is not None:
                    self.registry.unregister(entry.internal)
            variants[:] = [(written, entry) for written, entry in variants if id(entry) in kept]
            if not variants:
                del self.variants[name]

    def _register(self, tool: dict[str, Any]) -> JudgedTool:
        self.count += 1
        internal = f"tool_{self.count}"
        output = tool.get("outputSchema")
        try:
            try:
                self.registry.register(internal, tool.get("inputSchema"), _never_called, output_schema=output)
            except SchemaError as error:
                if output is None or not error.reason.startswith("output_schema"):
                    raise
                # A refused output schema leaves the arguments to be judged.
                self.registry.register(internal, tool.get("inputSchema"), _never_called)
                output = None
        except ToolregError as error:
            if len(self.refused) < 20:
                self.refused.append((shown_text(name_of(tool)), shown_text(str(error))))
            return JudgedTool(None, str(error))
        except Exception as error:  # a schema no one foresaw: that tool alone is refused
            return JudgedTool(None, f"{type(error).__name__}: {error}")
        return JudgedTool(internal, None, output is not None)


def name_of(tool: dict[str, Any]) -> str:
    """A tool's name as its catalog gives it."""
    return str(tool.get("name"))


# A tool of a catalog: the name the report gives it, and how it is judged.
CatalogTool = tuple[str, JudgedTool]


def catalog_by_name(
    entries: Iterable[dict[str, Any]], names: Iterable[str], validators: Validators
) -> dict[str, CatalogTool]:
    """A catalog by the names a call may name its tools by: the toolreg name under the form's rule,
    and the name as the catalog writes it (for a name the rule would change, as ``get-user``)."""
    catalog: dict[str, CatalogTool] = {}
    for tool, name in zip(entries, names, strict=True):
        found = (name, validators.entry(tool))
        catalog.setdefault(name, found)
        catalog.setdefault(tool["name"], found)
    return catalog


def given_catalog(catalog: Any) -> list[dict[str, Any]]:
    """The tools of the catalog given (a path, or a catalog in any form), those with a name."""
    entries = (
        read_catalog_file(catalog) if isinstance(catalog, (str, os.PathLike)) else catalog_entries(catalog)
    )
    return [entry for entry in entries if isinstance(entry.get("name"), str)]
