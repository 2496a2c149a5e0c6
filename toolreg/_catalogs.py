"""Catalogs from elsewhere: MCP ``tools/list`` results, and the function-calling leaderboard's dialect."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ._errors import InvalidToolError
from ._jsonschema.errors import SchemaError, ToolregError
from ._jsonschema.pointer import to_pointer
from ._jsonschema.values import NotJSON, snapshot
from ._jsonschema.vocabulary import keywords
from ._providers import MCP_MODELLED
from ._registry import LINE_BREAK, MCP_FLAGS, check_tool_name, join_description

if TYPE_CHECKING:
    from ._registry import ToolRegistry

__all__ = [
    "ImportReport",
    "Refusal",
    "Change",
    "split_description",
    "import_mcp",
    "mcp_tools",
    "toolreg_name",
    "normalize_bfcl",
]

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
    registry: ToolRegistry,
    catalog: Any,
    handlers: Mapping[str, Callable[..., Any]] | Callable[[dict[str, Any]], Callable[..., Any]],
    *,
    names: Mapping[str, str] | None = None,
    prefix: str | None = None,
    override: bool = False,
) -> ImportReport:
    """Register every tool of an MCP catalog that toolreg accepts, and report each one it refuses.

    ``handlers`` maps each MCP name to its handler, or is a factory called with the tool's object.
    ``names`` maps MCP names to toolreg names where :func:`toolreg_name`'s rule will not do.
    ``prefix`` puts every tool under a segment of its own (``"github"`` makes ``github.create_issue``),
    so several servers share a registry without colliding; ``override=True`` replaces tools
    registered before (a ``tools/list_changed`` refresh). Without it a name that is taken is refused.
    Every field is kept: the description's first line as ``description``, the rest as ``details``,
    ``outputSchema``, and ``_meta``, ``icons`` and the other fields and annotations as ``meta``;
    whatever is not kept as written is named in ``changed``.
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
        handler = handlers.get(foreign) if isinstance(handlers, Mapping) else handlers(tool)
        options, notes = _registration(tool)
        try:
            if handler is None:
                raise InvalidToolError(f"no handler given for {foreign!r}")
            registry.register(
                name, tool.get("inputSchema", {"type": "object"}), handler, override=override, **options
            )
        except SchemaError as error:
            refused.append(Refusal(foreign, error.reason, error.schema_path))
        except ToolregError as error:
            refused.append(Refusal(foreign, str(error)))
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
    meta = {key: value for key, value in tool.items() if key not in MCP_MODELLED | {"annotations"}}
    given = tool.get("annotations", {})
    if not isinstance(given, dict):
        notes.append(("annotations", "not an object; dropped"))
        given = {}
    hints: dict[str, bool] = {}
    idempotent = False
    other_annotations: dict[str, Any] = {}
    for key, value in given.items():
        if key in MCP_FLAGS:
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


# The leaderboard's type names, and the JSON Schema types they stand for; None means "any value".
_BFCL_TYPES: dict[str, str | None] = {
    "dict": "object", "object": "object", "hashmap": "object", "map": "object",
    "float": "number", "double": "number", "number": "number",
    "int": "integer", "integer": "integer", "long": "integer", "short": "integer",
    "str": "string", "string": "string", "char": "string",
    "bool": "boolean", "boolean": "boolean",
    "list": "array", "array": "array", "arraylist": "array", "tuple": "array",
    "any": None, "null": "null",
}  # fmt: skip
_GENERIC = re.compile(r"(list|array|tuple)\[(.+)\]")


def normalize_bfcl(parameters: Any) -> dict[str, Any]:
    """The Berkeley Function Calling Leaderboard's parameter dialect as standard JSON Schema.

    ``"dict"`` becomes ``"object"``, ``"float"`` ``"number"``, ``"tuple"`` and ``List[str]`` arrays,
    ``"any"`` no type at all, Java and xLAM names (``String``, ``HashMap``, ``"int, optional"``)
    their JSON types; the non-standard ``optional`` flag is dropped (``required`` says it), and a
    bare map of parameters becomes an object schema. A type it cannot map is a SchemaError.
    """
    if not isinstance(parameters, dict):
        raise SchemaError(f"parameters must be an object, not {type(parameters).__name__}")
    try:
        schema = snapshot(parameters, 128)
    except NotJSON as error:
        path = to_pointer(error.problem[0]) if error.problem else ""
        raise SchemaError(
            f"parameters must be JSON nested at most 128 levels: {error}", schema_path=path
        ) from None
    bare = schema and "type" not in schema and "properties" not in schema
    if bare and all(isinstance(item, dict) and "type" in item for item in schema.values()):
        schema = {"type": "object", "properties": schema}
    return _normalize(schema, ())  # type: ignore[no-any-return]


_HOLDS = {name: row.holds for name, row in keywords().items()}


def _normalize(schema: Any, location: tuple[str | int, ...]) -> Any:
    if not isinstance(schema, dict):
        return schema
    normalized: dict[str, Any] = {}
    for keyword, value in schema.items():
        if keyword == "optional":
            continue
        if keyword == "type":
            normalized.update(_type_of(value, location + ("type",)))
            continue
        # Where the subschemas are, as the vocabulary says; the leaderboard's tuples (an "items"
        # array) are moved to prefixItems below.
        holds = _HOLDS.get(keyword, "")
        if holds == "map" and isinstance(value, dict):
            normalized[keyword] = {
                name: _normalize(item, location + (keyword, name)) for name, item in value.items()
            }
        elif holds == "schema" and isinstance(value, dict):
            normalized[keyword] = _normalize(value, location + (keyword,))
        elif holds == "list" and isinstance(value, list):
            normalized[keyword] = [
                _normalize(item, location + (keyword, index)) for index, item in enumerate(value)
            ]
        else:
            normalized[keyword] = value
    if normalized.get("type") == "array" and "items" in normalized and isinstance(normalized["items"], list):
        normalized["prefixItems"] = normalized.pop("items")
    return normalized


def _type_of(value: Any, location: tuple[str | int, ...]) -> dict[str, Any]:
    if isinstance(value, list):
        mapped = [_type_of(item, location) for item in value]
        if any("type" not in item for item in mapped):
            return {}
        return {"type": list(dict.fromkeys(item["type"] for item in mapped))}
    if not isinstance(value, str):
        raise SchemaError(
            f"'type' must be a type name, not {value!r}", schema_path=to_pointer(location), keyword="type"
        )
    name = value.split(",")[0].strip().lower()  # xLAM's "int, optional"
    generic = _GENERIC.fullmatch(name)
    if generic:
        inner = _type_of(generic.group(2), location)
        return {"type": "array", "items": inner} if inner else {"type": "array"}
    if name not in _BFCL_TYPES:
        raise SchemaError(
            f"cannot map the type {value!r} to JSON Schema; known: {', '.join(sorted(_BFCL_TYPES))}",
            schema_path=to_pointer(location),
            keyword="type",
        )
    json_type = _BFCL_TYPES[name]
    return {} if json_type is None else {"type": json_type}
