"""The catalogs a log shows the model, as :class:`LoggedCatalog` events: a request record's ``tools`` in
whichever provider's form they are written (Gemini's OpenAPI schemas turned into JSON Schema), or an
MCP ``tools/list`` result.
"""

from __future__ import annotations

from typing import Any

from ..._feedback import printable
from ..._jsonschema.errors import ToolregError
from ..._providers import PROVIDERS
from ..catalogs import catalog_entries
from .base import At, shape_problem
from .events import LoggedCatalog


def record_catalog(record: dict[str, Any], at: At) -> None:
    """The catalog a request record shows, in the form its tools are written in."""
    tools = record.get("tools")
    if tools is None:
        return
    if not isinstance(tools, list):
        at.source.out.append(shape_problem(at, "a request record whose tools is not a list"))
        return
    form = _tools_form(tools)
    if form == "gemini":
        tools = [_gemini_tool(tool) for tool in tools]
    elif form == "openai-responses":  # the function tools only, beside web_search and the others
        tools = [tool for tool in tools if isinstance(tool, dict) and tool.get("type") == "function"]
    elif form == "anthropic":  # the custom tools only, beside Anthropic's own (bash, web_search...)
        tools = [tool for tool in tools if isinstance(tool, dict) and "input_schema" in tool]
    try:
        entries = catalog_entries(tools)
    except ToolregError as error:
        at.source.out.append(shape_problem(at, f"a request record's tools: {printable(str(error))}"))
        return
    at.source.out.append(catalog_event(entries, form, at, replaces=True))


def _tools_form(tools: list[Any]) -> str:
    for tool in tools:
        if isinstance(tool, dict):
            if isinstance(tool.get("function"), dict):
                return "openai"
            if "functionDeclarations" in tool or "function_declarations" in tool:
                return "gemini"
            if tool.get("type") == "function":
                return "openai-responses"
            if "input_schema" in tool:
                return "anthropic"
    return "mcp"


def catalog_event(entries: list[dict[str, Any]], form: str, at: At, *, replaces: bool) -> LoggedCatalog:
    """MCP-shaped entries as the catalog event of their form, each named under the form's rule."""
    rule = PROVIDERS["mcp" if form == "otel" else form].names
    kept = [entry for entry in entries if isinstance(entry.get("name"), str)]
    names = tuple(rule.toolreg_name(entry["name"]) for entry in kept)
    return LoggedCatalog(tuple(kept), names, at.line, form, at.source.name, at.conversation, replaces)


# -- OpenAI Responses ----------------------------------------------------------------------------------


def _gemini_tool(tool: Any) -> Any:
    """A Gemini tool whose declarations' ``parameters`` (Gemini's OpenAPI subset) are written as
    JSON Schema: type names in lower case, ``nullable`` as a type of its own."""
    if not isinstance(tool, dict):
        return tool
    declarations = next(
        (tool[key] for key in ("functionDeclarations", "function_declarations") if key in tool), None
    )
    if not isinstance(declarations, list):
        return tool
    converted = []
    for declaration in declarations:
        if isinstance(declaration, dict) and "parameters" in declaration:
            declaration = {**declaration, "parameters": _openapi_schema(declaration["parameters"], 0)}
        converted.append(declaration)
    return {"functionDeclarations": converted}


# Gemini's OpenAPI keywords that JSON Schema has no word for, and that say nothing of a call's validity.
_OPENAPI_ONLY = frozenset({"nullable", "propertyOrdering", "example"})


def _openapi_schema(schema: Any, depth: int) -> Any:
    if not isinstance(schema, dict) or depth > 128:
        return schema
    converted: dict[str, Any] = {}
    for key, value in schema.items():
        if key in _OPENAPI_ONLY:
            continue
        if key == "type" and isinstance(value, str):
            value = value.lower()
        elif key == "properties" and isinstance(value, dict):
            value = {name: _openapi_schema(item, depth + 1) for name, item in value.items()}
        elif key == "items":
            value = _openapi_schema(value, depth + 1)
        elif key in ("anyOf", "oneOf", "allOf") and isinstance(value, list):
            value = [_openapi_schema(item, depth + 1) for item in value]
        converted[key] = value
    if schema.get("nullable") is True and isinstance(converted.get("type"), str):
        converted["type"] = [converted["type"], "null"]
    return converted
