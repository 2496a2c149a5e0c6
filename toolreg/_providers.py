"""Exports to the providers' tool formats, with names mapped reversibly and checked against their rules."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

from ._errors import ExportError, UnknownProviderError
from ._jsonschema.pointer import split, to_pointer
from ._jsonschema.vocabulary import keywords

__all__ = [
    "MCP_MODELLED",
    "PROVIDERS",
    "Provider",
    "to_provider_name",
    "from_provider_name",
    "provider_form",
    "export_tool",
    "openai_strict",
    "openai_strict_form",
]


@dataclass(frozen=True)
class Provider:
    """A provider's rule for tool names, and where its documentation states it."""

    name: str
    pattern: re.Pattern[str]
    max_length: int
    rule: str


PROVIDERS = {
    # MCP 2025-11-25 and later (SEP-986): ASCII letters, digits, _ - and ., 1 to 128; dots are fine.
    "mcp": Provider("mcp", re.compile(r"[A-Za-z0-9_.-]{1,128}"), 128, "ASCII letters, digits, _ - . (1-128)"),
    # OpenAI function tools: ^[a-zA-Z0-9_-]{1,64}$, no dots.
    "openai": Provider("openai", re.compile(r"[a-zA-Z0-9_-]{1,64}"), 64, "^[a-zA-Z0-9_-]{1,64}$"),
    # Anthropic tools: ^[a-zA-Z0-9_-]{1,64}$ in the documentation (the API has accepted 128), no dots.
    "anthropic": Provider("anthropic", re.compile(r"[a-zA-Z0-9_-]{1,64}"), 64, "^[a-zA-Z0-9_-]{1,64}$"),
    # Gemini function declarations: a letter or _ first, then letters, digits, _ . : -, up to 128.
    "gemini": Provider(
        "gemini",
        re.compile(r"[A-Za-z_][A-Za-z0-9_.:-]{0,127}"),
        128,
        "a letter or _ first, then [A-Za-z0-9_.:-], up to 128",
    ),
}
_KEEPS_DOTS = frozenset({"mcp", "gemini"})
# The fields of an MCP tool object that a registration sets by its own arguments.
MCP_MODELLED = frozenset({"name", "title", "description", "inputSchema", "outputSchema"})


def _provider(provider: str) -> Provider:
    if not isinstance(provider, str) or provider not in PROVIDERS:
        raise UnknownProviderError(provider, list(PROVIDERS))
    return PROVIDERS[provider]


def to_provider_name(name: str, provider: str) -> str:
    """``fs.read_file`` as the provider must see it: ``fs-read_file`` where dots are forbidden.

    ``-`` never occurs in a toolreg name and every provider accepts it, so the mapping is one to one
    and :func:`from_provider_name` undoes it exactly.
    """
    rules = _provider(provider)
    mapped = provider_form(name, provider)
    if not rules.pattern.fullmatch(mapped):
        raise ExportError(
            f"tool {name!r} becomes {mapped!r} for {provider}, which breaks its rule: {rules.rule}"
        )
    return mapped


def provider_form(name: str, provider: str) -> str:
    """``name`` as ``provider`` writes names (dots as dashes where it forbids dots), unchecked."""
    return name if provider in _KEEPS_DOTS else name.replace(".", "-")


def from_provider_name(mapped: str, provider: str) -> str:
    """The toolreg name behind a name the provider sent back."""
    _provider(provider)
    return mapped if provider in _KEEPS_DOTS else mapped.replace("-", ".")


def export_tool(
    provider: str,
    name: str,
    description: str,
    schema: Any,
    *,
    title: str | None,
    idempotent: bool,
    hints: dict[str, bool],
    strict: bool,
    output_schema: Any = None,
    meta: dict[str, Any] | None = None,
    omit_unsupported: bool = False,
) -> dict[str, Any]:
    """One tool in the provider's own shape; ``schema`` and ``meta`` become part of it, uncopied."""
    mapped = to_provider_name(name, provider)
    schema = schema if isinstance(schema, dict) else {"type": "object"}
    if strict and provider != "openai":
        raise ExportError(f"strict=True is OpenAI's form; {provider} has none in toolreg")
    if omit_unsupported and not strict:
        raise ExportError("omit_unsupported=True goes with strict=True, OpenAI's strict form")
    if provider == "mcp":
        meta = dict(meta or {})
        tool: dict[str, Any] = {"name": mapped}
        if title is not None:
            tool["title"] = title
        tool["description"] = description
        tool["inputSchema"] = schema
        if output_schema is not None:
            tool["outputSchema"] = output_schema
        tool["annotations"] = {"idempotentHint": idempotent, **hints, **meta.pop("annotations", {})}
        tool.update(meta)
        return tool
    if provider == "openai":
        parameters, omitted = (
            openai_strict_form(schema, name, omit=omit_unsupported) if strict else (schema, [])
        )
        if omitted:
            # The model should know the rules it cannot see: toolreg checks them when the call comes in.
            description += "\nAlso checked when called: " + "; ".join(omitted)
        function = {"name": mapped, "description": description, "parameters": parameters, "strict": strict}
        return {"type": "function", "function": function}
    if provider == "anthropic":
        return {"name": mapped, "description": description, "input_schema": schema}
    return {"name": mapped, "description": description, "parametersJsonSchema": schema}


# OpenAI's strict mode: what it accepts. Checked on 2026-12-03 against OpenAI's "Supported schemas"
# (Structured Outputs guide), as digested in February 2026: types, enum, const, anyOf (not at the
# root), $ref/$defs; string pattern and format; number multipleOf, minimum, maximum and the exclusive
# bounds; array minItems and maxItems; objects closed, every property required; at most 10 levels.
# Annotations it does not take are dropped from the exported copy; anything else is a blocker.
_STRICT_KEYWORDS = frozenset(
    {
        "type", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf",
        "$ref", "$defs", "definitions", "description", "title", "pattern", "format", "multipleOf",
        "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minItems", "maxItems",
    }
)  # fmt: skip
_DROPPED = frozenset(
    {"$schema", "$comment", "default", "examples", "deprecated", "readOnly", "writeOnly", "example",
     "discriminator", "contentEncoding", "contentMediaType", "contentSchema"}
)  # fmt: skip
_HOLDS = {name: row.holds for name, row in keywords().items() if name in _STRICT_KEYWORDS}
_STRICT_MAX_DEPTH = 10


@dataclass
class _StrictWalk:
    """One conversion: the tool's name, whether to leave out what strict mode cannot say, what was
    left out, the blockers found, and the optional properties made nullable."""

    name: str
    omit: bool
    omitted: list[str]
    blockers: list[tuple[str, str]]
    nullable: set[str]

    def block(self, pointer: str, reason: str) -> None:
        self.blockers.append((pointer, reason))


def openai_strict(schema: dict[str, Any], name: str) -> dict[str, Any]:
    """The schema in OpenAI's strict form, or an ExportError naming every keyword that prevents it."""
    return openai_strict_form(schema, name, omit=False)[0]


def openai_strict_form(schema: dict[str, Any], name: str, *, omit: bool) -> tuple[dict[str, Any], list[str]]:
    """The schema in OpenAI's strict form and what was left out of it, or an ExportError naming every
    blocker at once (the first one's pointer as its ``schema_path``).

    Every object gets ``additionalProperties: false`` and lists every property as required; a
    property that was optional becomes nullable instead (``"type": ["string", "null"]``, or an
    ``anyOf`` with ``{"type": "null"}``), so a harness should read ``null`` as "not given" (``strict=True``
    on validate, call and answer does). With ``omit``, a keyword strict mode cannot express is left out
    of the copy (toolreg still checks it when the call comes in), and an open object is closed; each
    is listed, as ``pointer: keyword value``. A ``false`` schema, an ``anyOf`` at the root and nesting
    past 10 levels cannot be left out.
    """
    walk = _StrictWalk(name, omit, [], [], set())
    if "anyOf" in schema:
        walk.block("/anyOf", "OpenAI strict mode forbids anyOf at the root")
    converted: dict[str, Any] = _strict(schema, (), 0, walk)
    if not walk.blockers:
        _references_resolve(converted, walk.nullable, name)
    if walk.blockers:
        listed = "; ".join(f"{reason} (at {pointer!r})" for pointer, reason in walk.blockers)
        count = f"{len(walk.blockers)} blocker{'s' if len(walk.blockers) > 1 else ''}"
        raise ExportError(
            f"{name}: OpenAI strict mode cannot take this schema ({count}): {listed}",
            schema_path=walk.blockers[0][0],
        )
    return converted, walk.omitted


def _references_resolve(root: dict[str, Any], nullable: set[str], name: str) -> None:
    """Refuse a strict form in which a ``$ref`` no longer means what it meant: one that points at
    nothing, or at or into an optional property that strict mode made nullable (a ``$ref`` there
    would accept ``null``, and a pointer into its ``anyOf`` wrapper names another schema)."""
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(root, ())]
    while stack:
        node, here = stack.pop()
        if isinstance(node, list):
            stack.extend((item, here + (index,)) for index, item in enumerate(node))
        elif isinstance(node, dict):
            ref = node.get("$ref")
            target = unquote(ref[1:]) if isinstance(ref, str) else ""
            moved = any(target == pointer or target.startswith(pointer + "/") for pointer in nullable)
            if isinstance(ref, str) and (moved or not _resolves(root, ref)):
                raise ExportError(
                    f"{name}: in OpenAI's strict form '$ref' {ref!r} would point at an optional property "
                    "made nullable, or at nothing; refer to a schema under $defs instead",
                    schema_path=to_pointer(here + ("$ref",)),
                )
            stack.extend((item, here + (key,)) for key, item in node.items() if key != "$ref")


def _resolves(root: Any, ref: str) -> bool:
    if not ref.startswith("#"):
        return False
    target = root
    for token in split(unquote(ref[1:])) if ref != "#" else []:
        if isinstance(target, dict) and token in target:
            target = target[token]
        elif isinstance(target, list) and token.isdigit() and int(token) < len(target):
            target = target[int(token)]
        else:
            return False
    return True


def _strict(schema: Any, location: tuple[str | int, ...], depth: int, walk: _StrictWalk) -> Any:
    pointer = to_pointer(location)
    if not isinstance(schema, dict):
        if schema is not True:
            walk.block(pointer, "OpenAI strict mode takes no 'false' schema")
        return {}
    if depth > _STRICT_MAX_DEPTH:
        walk.block(pointer, f"OpenAI strict mode allows {_STRICT_MAX_DEPTH} levels of nesting")
        return {}
    converted: dict[str, Any] = {}
    for keyword, value in schema.items():
        here = to_pointer(location + (keyword,))
        if keyword in _DROPPED or keyword.startswith("x-"):
            continue
        if keyword == "additionalProperties" and value is False:
            converted[keyword] = False
            continue
        if keyword not in _STRICT_KEYWORDS or keyword == "additionalProperties":
            if walk.omit:
                walk.omitted.append(f"{pointer or '/'}: {keyword} {_shown(value)}")
            elif keyword == "additionalProperties":
                walk.block(
                    here, "OpenAI strict mode needs closed objects, but 'additionalProperties' allows more"
                )
            else:
                walk.block(here, f"OpenAI strict mode does not support {keyword!r}")
            continue
        # Where the subschemas are, as the vocabulary says: each is converted in turn.
        holds = _HOLDS.get(keyword, "")
        if holds == "map":
            converted[keyword] = {
                key: _strict(item, location + (keyword, key), depth + 1, walk) for key, item in value.items()
            }
        elif holds == "list":
            converted[keyword] = [
                _strict(item, location + (keyword, index), depth + 1, walk)
                for index, item in enumerate(value)
            ]
        elif holds == "schema":
            converted[keyword] = _strict(value, location + (keyword,), depth + 1, walk)
        else:
            converted[keyword] = copy.deepcopy(value)
    if "properties" in converted or _types(converted) == {"object"}:
        properties = converted.setdefault("properties", {})
        required = set(converted.get("required", []))
        for key, item in properties.items():
            if key not in required:
                properties[key] = _nullable(item)
                walk.nullable.add(to_pointer(location + ("properties", key)))
        converted["required"] = list(properties)
        converted["additionalProperties"] = False
    return converted


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= 60 else text[:59] + "…"


def _types(schema: dict[str, Any]) -> set[str]:
    declared = schema.get("type")
    return {declared} if isinstance(declared, str) else set(declared or ())


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    if "type" in schema and "enum" not in schema and "const" not in schema:
        declared = schema["type"]
        names: Iterable[str] = [declared] if isinstance(declared, str) else declared
        return {**schema, "type": list(dict.fromkeys([*names, "null"]))}
    return {"anyOf": [schema, {"type": "null"}]}
