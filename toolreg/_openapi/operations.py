"""An OpenAPI document's operations read as tools: each one's name, argument schema, request, result
schema and words, or the reason it cannot be imported with a pointer into the document.

An operation's arguments are one object: its path, query, header and cookie parameters (the path
item's and its own, its own first), then its JSON body's properties, or the whole body as one
argument, ``body``, when the body is not a plain object. A name two places share is prefixed with
each place (``path_id``, ``body_id``); every name is made of the characters every provider takes in
a property name (``[A-Za-z0-9_.-]``, 64 at most) and unique. The tool's name is the operationId's
by the rule :func:`~toolreg._providers.mcp.toolreg_name` states (``getUser`` is ``get_user``), or
the method and path's (``get_users_id``), cut to 64 characters with a digest where longer, and
numbered where an earlier operation took it.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from .._errors import InvalidToolError
from .._feedback import UNPRINTABLE
from .._jsonschema.limits import Limits
from .._jsonschema.pointer import split, to_pointer
from .._providers.mcp import Refusal, split_description, toolreg_name
from .._registry import LINE_BREAK, MAX_NAME_LENGTH
from .requests import JSON_MEDIA, Argument, Route
from .schemas import DIALECT_2020_12, NOTES, REQUEST, RESPONSE, Document, Refused, Rewritten, Tokens

__all__ = ["Operation", "Plan", "plan", "read_document", "METHODS", "MAX_OPERATIONS"]

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
# The most operations one import reads: each is a tool, compiled when first called.
MAX_OPERATIONS = 2_000
# The most parameters one operation (or path) may list.
MAX_PARAMETERS = 1_000
# The style each location takes, and the only one toolreg writes there.
_STYLES = {"path": "simple", "query": "form", "header": "simple", "cookie": "form"}
# Headers OpenAPI says a parameter cannot set: the client does.
_IGNORED_HEADERS = frozenset({"accept", "content-type", "authorization"})
# What providers take in a property name (Anthropic's rule, the strictest): these characters, 1 to 64.
_NOT_IN_A_NAME = re.compile(r"[^A-Za-z0-9_.-]+")
MAX_ARGUMENT_LENGTH = 64
# A body's schema whose properties can become arguments: an object, its properties and little else.
_FLAT = frozenset(
    {
        "type", "properties", "required", "additionalProperties", "title", "description", "example",
        "examples", "deprecated", "xml", "externalDocs", "$comment",
    }
)  # fmt: skip
_DIALECTS = re.compile(r"https://spec\.openapis\.org/oas/3\.\d/dialect/[\w.-]+")
_SAFE = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})


@dataclass
class Operation:
    """One operation read as a tool: its name in the document (``foreign``: the operationId, or
    ``METHOD /path``) and in the registry, its request, argument and result schemas, its words, what
    was changed on the way (``notes``: field and reason), and where each part came from."""

    foreign: str
    name: str
    route: Route
    where: Tokens
    arguments: dict[str, Any]
    output: Any = None
    description: str = ""
    details: str = ""
    notes: list[tuple[str, str]] = field(default_factory=list)
    origins: dict[Tokens, Tokens] = field(default_factory=dict)
    definitions: dict[str, Rewritten] = field(default_factory=dict)
    output_origins: dict[Tokens, Tokens] = field(default_factory=dict)
    output_definitions: dict[str, Rewritten] = field(default_factory=dict)

    @property
    def hints(self) -> dict[str, bool]:
        """MCP's hints: a safe method reads only; every operation reaches a world outside."""
        return {"readOnlyHint": self.route.method in _SAFE, "openWorldHint": True}

    def pointer(self, schema_path: str, *, output: bool = False) -> str:
        """A pointer into the argument (or result) schema as a pointer into the document."""
        origins, definitions = (
            (self.output_origins, self.output_definitions) if output else (self.origins, self.definitions)
        )
        try:
            tokens = tuple(split(schema_path))
        except ValueError:
            return to_pointer(self.where)
        if tokens[:1] == ("$defs",) and len(tokens) > 1 and tokens[1] in definitions:
            origins, tokens = definitions[tokens[1]].origins, tokens[2:]
        for cut in range(len(tokens), 0, -1):
            if tokens[:cut] in origins:
                return to_pointer(origins[tokens[:cut]] + tokens[cut:])
        return to_pointer(origins.get((), self.where) + tokens)


@dataclass
class Plan:
    """What a document gives: the operations that can be tools, and the ones refused."""

    operations: list[Operation]
    refused: list[Refusal]


@dataclass
class _Found:
    foreign: str
    method: str
    path: str
    operation: Any
    where: Tokens
    item: dict[str, Any]
    item_where: Tokens
    operation_id: str | None


@dataclass
class _Entry:
    """One argument before it has its name: where the request carries it, its schema, its words."""

    location: str
    sent: str
    schema: Rewritten
    required: bool
    description: str | None = None
    style: str = ""
    explode: bool = False


def read_document(spec: Any, limits: Limits) -> Document:
    """An OpenAPI 3.0, 3.1 or 3.2 document, or an InvalidToolError saying why it is not one."""
    if not isinstance(spec, dict):
        raise InvalidToolError(f"an OpenAPI document is a JSON object, not {type(spec).__name__}")
    version = spec.get("openapi")
    if not isinstance(version, str):
        if "swagger" in spec:
            raise InvalidToolError("a Swagger 2.0 document is not read: convert it to OpenAPI 3 first")
        raise InvalidToolError("an OpenAPI document names its version in 'openapi' (3.0.x, 3.1.x or 3.2.x)")
    if not re.fullmatch(r"3\.[012](\.\d+)?(-[\w.]+)?", version):
        raise InvalidToolError(f"OpenAPI {version!r} is not read; toolreg reads 3.0, 3.1 and 3.2")
    legacy = version.startswith("3.0")
    dialect = spec.get("jsonSchemaDialect")
    if (
        not legacy
        and dialect is not None
        and dialect != DIALECT_2020_12
        and not _DIALECTS.fullmatch(str(dialect))
    ):
        raise InvalidToolError(f"jsonSchemaDialect {dialect!r} is not read; toolreg reads 2020-12 schemas")
    if not isinstance(spec.get("paths", {}), dict):
        raise InvalidToolError("an OpenAPI document's 'paths' is an object")
    return Document(spec, legacy=legacy, limits=limits)


def plan(
    spec: Any, limits: Limits, *, operations: Collection[str] | None = None, prefix: str | None = None
) -> Plan:
    """Every operation of the document (or those ``operations`` names, by operationId or as
    ``METHOD /path``) read as a tool under ``prefix``, or refused with its reason."""
    document = read_document(spec, limits)
    if isinstance(operations, str):
        raise InvalidToolError(f"operations is a list of operationIds, not the string {operations!r}")
    wanted = None if operations is None else set(operations)
    found, refused = _listed(document, wanted)
    if wanted is not None:
        named = {entry.operation_id for entry in found} | {f"{entry.method} {entry.path}" for entry in found}
        for missing in sorted(str(name) for name in wanted - named):
            refused.append(Refusal(missing, "no operation has this operationId, nor is it 'METHOD /path'"))
    names = _tool_names(found, prefix)
    planned = []
    for entry in found:
        name, notes = names[id(entry)]
        try:
            operation = _operation(document, entry, name)
        except Refused as refusal:
            refused.append(Refusal(entry.foreign, refusal.reason, to_pointer(refusal.where)))
        except RecursionError:  # only where Limits allow schemas deeper than Python's stack
            refused.append(Refusal(entry.foreign, "its schemas nest too deeply", to_pointer(entry.where)))
        else:
            operation.notes[:0] = notes
            planned.append(operation)
    return Plan(planned, refused)


def _listed(document: Document, wanted: set[str] | None) -> tuple[list[_Found], list[Refusal]]:
    """The operations of the document (those wanted), in its order; paths that cannot be read, and
    operations sharing an operationId, refused."""
    found: list[_Found] = []
    refused: list[Refusal] = []
    for path, raw in document.spec.get("paths", {}).items():
        shown = str(path)
        if not isinstance(path, str) or not path.startswith("/"):
            refused.append(Refusal(shown, "a path starts with '/'", to_pointer(("paths", shown))))
            continue
        try:
            item, item_where = document.followed(raw, ("paths", path))
        except Refused as refusal:
            refused.append(Refusal(path, refusal.reason, to_pointer(refusal.where)))
            continue
        if not isinstance(item, dict):
            refused.append(Refusal(path, "a path item is an object", to_pointer(item_where)))
            continue
        for method in METHODS:
            if method not in item:
                continue
            operation = item[method]
            given = operation.get("operationId") if isinstance(operation, dict) else None
            operation_id = given if isinstance(given, str) and given else None
            verb = method.upper()
            if wanted is not None and operation_id not in wanted and f"{verb} {path}" not in wanted:
                continue
            foreign = operation_id or f"{verb} {path}"
            found.append(
                _Found(foreign, verb, path, operation, item_where + (method,), item, item_where, operation_id)
            )
            if len(found) > MAX_OPERATIONS:
                raise InvalidToolError(
                    f"the document has more than {MAX_OPERATIONS} operations; name the ones to import "
                    "with operations="
                )
    shared = Counter(entry.operation_id for entry in found if entry.operation_id)
    kept = []
    for entry in found:
        if entry.operation_id and shared[entry.operation_id] > 1:
            reason = f"its operationId {entry.operation_id!r} is another operation's too; each is unique"
            refused.append(Refusal(f"{entry.method} {entry.path}", reason, to_pointer(entry.where)))
        else:
            kept.append(entry)
    return kept, refused


def _tool_names(found: list[_Found], prefix: str | None) -> dict[int, tuple[str, list[tuple[str, str]]]]:
    """Each operation's tool name, in the document's order, with a note where it is not the rule's."""
    room = MAX_NAME_LENGTH - (len(prefix) + 1 if prefix else 0)
    if room < 16:
        raise InvalidToolError(f"the prefix {prefix!r} leaves {room} characters for names; keep it under 48")
    taken: set[str] = set()
    names = {}
    for entry in found:
        stem = toolreg_name(entry.operation_id) if entry.operation_id else ""
        if not stem:
            stem = toolreg_name(f"{entry.method} {entry.path.replace('.', '_')}")
        if stem[0].isdigit():
            stem = f"op_{stem}"
        notes = []
        name = stem
        if len(name) > room:
            digest = hashlib.sha256(entry.foreign.encode("utf-8", "surrogatepass")).hexdigest()[:8]
            name = f"{name[: room - 9].rstrip('._')}_{digest}"
            notes.append(("name", f"{stem!r} has {len(stem)} characters; cut to {name!r}"))
        number, numbered = 1, name
        while numbered in taken:
            number += 1
            numbered = f"{name[: room - len(str(number)) - 1].rstrip('._')}_{number}"
        if numbered != name:
            notes.append(("name", f"{name!r} is an earlier operation's name; numbered {numbered!r}"))
        taken.add(numbered)
        names[id(entry)] = (f"{prefix}.{numbered}" if prefix else numbered, notes)
    return names


def _operation(document: Document, found: _Found, name: str) -> Operation:
    operation, where = found.operation, found.where
    if not isinstance(operation, dict):
        raise Refused("an operation is an object", where)
    notes: list[tuple[str, str]] = []
    entries = _parameters(document, found, notes)
    _check_template(found, entries)
    media_type, body_required = None, False
    if operation.get("requestBody") is not None:
        media_type, body_required, body = _body(
            document, operation["requestBody"], where + ("requestBody",), notes
        )
        entries.extend(body)
    arguments, origins, schema, definitions = _arguments(document, found, entries, notes)
    route = Route(found.method, found.path, arguments, media_type, body_required)
    planned = Operation(found.foreign, name, route, where, schema, origins=origins, definitions=definitions)
    planned.notes.extend(notes)
    walked = [entry.schema for entry in entries] + list(definitions.values())
    planned.notes.extend(("arguments", reason) for reason in _said(walked))
    _output(document, operation, where, planned)
    planned.description, planned.details = _words(operation, planned.notes)
    return planned


def _parameters(document: Document, found: _Found, notes: list[tuple[str, str]]) -> list[_Entry]:
    """The path item's parameters, then the operation's (which replace those of the same name and
    place), each as an argument to be named."""
    merged: dict[tuple[str, str], tuple[dict[str, Any], Tokens]] = {}
    for owner, at in ((found.item, found.item_where), (found.operation, found.where)):
        listed = owner.get("parameters")
        if listed is None:
            continue
        at += ("parameters",)
        if not isinstance(listed, list):
            raise Refused("parameters is an array", at)
        if len(listed) > MAX_PARAMETERS:
            raise Refused(f"more than {MAX_PARAMETERS} parameters", at)
        for index, raw in enumerate(listed):
            parameter, place = document.followed(raw, at + (str(index),))
            if not isinstance(parameter, dict):
                raise Refused("a parameter is an object", place)
            name, location = parameter.get("name"), parameter.get("in")
            if not isinstance(name, str) or not name:
                raise Refused("a parameter has a non-empty string 'name'", place)
            if location not in _STYLES:
                raise Refused(
                    f"a parameter is in path, query, header or cookie, not {location!r}", place + ("in",)
                )
            if location == "header" and name.lower() in _IGNORED_HEADERS:
                notes.append(
                    ("arguments", f"the header parameter {name!r} left out: OpenAPI leaves it to the client")
                )
                continue
            merged[(name, location)] = (parameter, place)
    return [_parameter(document, name, location, *given) for (name, location), given in merged.items()]


def _parameter(
    document: Document, name: str, location: str, parameter: dict[str, Any], place: Tokens
) -> _Entry:
    style = parameter.get("style", _STYLES[location])
    if style != _STYLES[location]:
        raise Refused(
            f"the {location} parameter {name!r} has style {style!r}; toolreg writes a {location} "
            f"parameter in style {_STYLES[location]!r} only",
            place + ("style",),
        )
    explode = parameter.get("explode", style == "form")
    if not isinstance(explode, bool):
        raise Refused("explode is true or false", place + ("explode",))
    if parameter.get("allowReserved") is True:
        raise Refused(
            f"the {location} parameter {name!r} has allowReserved, which toolreg does not write",
            place + ("allowReserved",),
        )
    if "content" in parameter:
        raise Refused(
            f"the {location} parameter {name!r} is given by a media type ('content'), which toolreg does not "
            "write; only by 'schema'",
            place + ("content",),
        )
    schema = parameter.get("schema", {})
    if location == "cookie" and explode and _declared(document, schema, place) & {"array", "object"}:
        said = place + ("explode",) if "explode" in parameter else place
        raise Refused(
            f"the cookie parameter {name!r} is an array or object, exploded (a cookie's default), "
            "which toolreg does not write; give it explode: false",
            said,
        )
    rewritten = document.rewrite(schema, place + ("schema",), REQUEST)
    description = parameter.get("description")
    required = location == "path" or parameter.get("required") is True
    return _Entry(
        location,
        name,
        rewritten,
        required,
        description if isinstance(description, str) else None,
        style,
        explode,
    )


def _declared(document: Document, schema: Any, where: Tokens) -> set[str]:
    """The types a schema (or what its references lead to) declares at its root."""
    try:
        schema, _ = document.followed(schema, where)
    except Refused:
        return set()  # the walk says why
    declared = schema.get("type") if isinstance(schema, dict) else None
    return {declared} if isinstance(declared, str) else set(declared) if isinstance(declared, list) else set()


def _check_template(found: _Found, entries: list[_Entry]) -> None:
    """Each ``{name}`` of the path has its path parameter, and each path parameter its ``{name}``."""
    named = re.findall(r"\{([^{}]*)\}", found.path)
    given = {entry.sent for entry in entries if entry.location == "path"}
    for name in named:
        if name not in given:
            raise Refused(
                f"the path names {{{name}}}, which no path parameter defines", ("paths", found.path)
            )
    extra = sorted(given - set(named))
    if extra:
        raise Refused(f"the path parameter {extra[0]!r} is not in the path {found.path!r}", found.where)


def _body(
    document: Document, raw: Any, where: Tokens, notes: list[tuple[str, str]]
) -> tuple[str, bool, list[_Entry]]:
    """The request body's media type, whether it is required, and its arguments: each property of a
    plain object, or the whole body as one."""
    body, where = document.followed(raw, where)
    content = body.get("content") if isinstance(body, dict) else None
    if not isinstance(content, dict) or not content:
        raise Refused("a request body has a 'content' object naming its media types", where)
    media_type = json_media(content)
    if media_type is None:
        shown = ", ".join(str(media) for media in content)
        raise Refused(
            f"the request body is sent as {shown}; toolreg sends JSON bodies only", where + ("content",)
        )
    required = body.get("required") is True
    media = content[media_type]
    schema = media.get("schema", {}) if isinstance(media, dict) else {}
    at = where + ("content", media_type, "schema")
    target, target_at = document.followed(schema, at)
    if not _flat(target) or (not required and target.get("required")):
        description = body.get("description")
        whole = _Entry(
            "payload", "body", document.rewrite(schema, at, REQUEST), required,
            description if isinstance(description, str) else None,
        )  # fmt: skip
        return media_type, required, [whole]
    entries = []
    needed = set(target.get("required", ()))
    for name, item in target.get("properties", {}).items():
        place = target_at + ("properties", name)
        if document.flagged(item, "readOnly", place):
            notes.append(
                ("arguments", f"the body's readOnly property {name!r} left out: the server writes it")
            )
            continue
        entries.append(
            _Entry("body", name, document.rewrite(item, place, REQUEST), required and name in needed)
        )
    return media_type, required, entries


def _flat(schema: Any) -> bool:
    """Whether a body schema is a plain object whose properties can be arguments of their own."""
    if not isinstance(schema, dict) or not set(schema) <= _FLAT:
        return False
    if schema.get("type", "object") != "object" or ("type" not in schema and "properties" not in schema):
        return False
    properties = schema.get("properties", {})
    required = schema.get("required", [])
    return (
        isinstance(properties, dict)
        and all(isinstance(name, str) for name in properties)
        and isinstance(required, list)
        and all(isinstance(name, str) for name in required)
        and isinstance(schema.get("additionalProperties", True), bool)
    )


def json_media(content: dict[Any, Any]) -> str | None:
    """The first media type of ``content`` that is JSON (``application/json``, ``…+json``)."""
    for media in content:
        if isinstance(media, str) and JSON_MEDIA.fullmatch(media.split(";")[0].strip()):
            return media
    return None


def _arguments(
    document: Document, found: _Found, entries: list[_Entry], notes: list[tuple[str, str]]
) -> tuple[tuple[Argument, ...], dict[Tokens, Tokens], dict[str, Any], dict[str, Rewritten]]:
    """The arguments named, and their schema: an object of every argument and no other."""
    names = _argument_names(entries, notes)
    properties: dict[str, Any] = {}
    required = []
    origins: dict[Tokens, Tokens] = {(): found.where}
    arguments = []
    for entry, name in zip(entries, names, strict=True):
        written = entry.schema.schema
        if entry.description and isinstance(written, dict) and "description" not in written:
            written = {**written, "description": entry.description}
        properties[name] = written
        origins.update(
            {("properties", name) + tokens: origin for tokens, origin in entry.schema.origins.items()}
        )
        if entry.required:
            required.append(name)
        arguments.append(Argument(name, entry.location, entry.sent, entry.style, entry.explode))
    definitions = document.definitions([entry.schema for entry in entries], REQUEST, found.where)
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    schema["additionalProperties"] = False
    if definitions:
        schema["$defs"] = {name: rewritten.schema for name, rewritten in definitions.items()}
    return tuple(arguments), origins, schema, definitions


def _argument_names(entries: list[_Entry], notes: list[tuple[str, str]]) -> list[str]:
    """Each argument's name: its own, prefixed with its place where two places share it, written in
    the characters providers take, at most 64 of them, unique."""
    shared = Counter(entry.sent for entry in entries)
    taken: set[str] = set()
    names = []
    for entry in entries:
        wanted = entry.sent
        if shared[wanted] > 1 and entry.location != "payload":
            wanted = f"{entry.location}_{wanted}"
        name = _NOT_IN_A_NAME.sub("_", wanted).strip("_") or "argument"
        if len(name) > MAX_ARGUMENT_LENGTH:
            digest = hashlib.sha256(wanted.encode("utf-8", "surrogatepass")).hexdigest()[:8]
            name = f"{name[: MAX_ARGUMENT_LENGTH - 9]}_{digest}"
        number, numbered = 1, name
        while numbered in taken:
            number += 1
            numbered = f"{name[: MAX_ARGUMENT_LENGTH - len(str(number)) - 1]}_{number}"
        taken.add(numbered)
        names.append(numbered)
        if numbered != entry.sent:
            place = (
                "the body"
                if entry.location == "payload"
                else f"the {entry.location} parameter {entry.sent!r}"
            )
            if entry.location == "body":
                place = f"the body's property {entry.sent!r}"
            notes.append(("arguments", f"{place} is the argument {numbered!r}"))
    return names


def _said(walked: list[Rewritten]) -> list[str]:
    """What the rewrites of these schemas did, once for each kind: how often, and where first."""
    places: dict[str, list[Tokens]] = {}
    for rewritten in walked:
        for kind, found in rewritten.notes.items():
            places.setdefault(kind, []).extend(found)
    said = []
    for kind in NOTES:
        if kind in places:
            count = len(places[kind])
            where = (
                f"at {to_pointer(places[kind][0])!r}"
                if count == 1
                else f"{count} places, first at {to_pointer(places[kind][0])!r}"
            )
            said.append(f"{NOTES[kind]} ({where})")
    return said


def _output(document: Document, operation: dict[str, Any], where: Tokens, planned: Operation) -> None:
    """The result's schema, from the 2xx responses' JSON schemas (``null`` too for one without a
    body); none where a 2xx response is not JSON or has no schema, or where its schema cannot be read
    (said in the notes)."""
    responses = operation.get("responses")
    if not isinstance(responses, dict):
        return
    found: list[Rewritten] = []
    empty = False
    try:
        for code, raw in responses.items():
            if not re.fullmatch(r"2(\d\d|XX)", str(code)):
                continue
            response, at = document.followed(raw, where + ("responses", str(code)))
            content = response.get("content") if isinstance(response, dict) else None
            if not isinstance(content, dict) or not content:
                empty = True
                continue
            media_type = json_media(content)
            media = content.get(media_type) if media_type is not None else None
            if not isinstance(media, dict) or "schema" not in media:
                return  # text, or JSON of any shape: nothing to check it against
            found.append(
                document.rewrite(media["schema"], at + ("content", str(media_type), "schema"), RESPONSE)
            )
        if not found:
            return
        definitions = document.definitions(found, RESPONSE, where)
    except Refused as refusal:
        planned.notes.append(
            ("output_schema", f"left out: {refusal.reason} (at {to_pointer(refusal.where)!r})")
        )
        return
    origins: dict[Tokens, Tokens] = {}
    if len(found) == 1 and not empty:
        schema = found[0].schema
        origins.update(found[0].origins)
    else:
        branches = [rewritten.schema for rewritten in found] + ([{"type": "null"}] if empty else [])
        schema = {"anyOf": branches}
        for index, rewritten in enumerate(found):
            origins.update(
                {("anyOf", str(index)) + tokens: origin for tokens, origin in rewritten.origins.items()}
            )
    if definitions:  # so the schema is an object: a boolean refers to nothing
        schema = {
            **schema,
            "$defs": {**schema.get("$defs", {}), **{n: r.schema for n, r in definitions.items()}},
        }
    planned.output, planned.output_origins, planned.output_definitions = schema, origins, definitions
    planned.notes.extend(("output_schema", reason) for reason in _said(found + list(definitions.values())))


def _words(operation: dict[str, Any], notes: list[tuple[str, str]]) -> tuple[str, str]:
    """The tool's one-line description (the summary, or the description's first line) and its details
    (the rest), with control characters left out (said in the notes)."""
    summary, text = operation.get("summary"), operation.get("description")
    summary = summary if isinstance(summary, str) else ""
    text = text if isinstance(text, str) else ""
    if summary.strip():
        description, details = summary, text
    else:
        description, details = split_description(text)
    line = UNPRINTABLE.sub("", LINE_BREAK.sub(" ", description)).strip()
    lines = LINE_BREAK.sub("\n", details.replace("\r\n", "\n"))
    kept = UNPRINTABLE.sub(lambda found: found.group() if found.group() in "\n\t" else "", lines).strip()
    if line != description.strip() or kept != lines.strip():
        notes.append(("description", "line breaks and control characters made plain"))
    return line, kept
