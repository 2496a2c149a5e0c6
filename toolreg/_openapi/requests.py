"""A call's valid arguments as the HTTP request its operation describes, sent with httpx, and the
response as the tool's result.

Parameters are written as OpenAPI's common styles say: a path parameter ``simple`` (``1,2,3``;
an object ``a,1,b,2``, exploded ``a=1,b=2``), a query parameter ``form`` (an array exploded as
``id=1&id=2``, else ``id=1,2``; an object exploded as its own pairs, else ``point=x,1,y,2``), a
header ``simple`` and a cookie ``form``; every other style is refused when the document is read.
Values are written as JSON writes them (``true``, ``1.5``) and percent-encoded where a URL holds
them; ``null`` leaves a query parameter, header or cookie out. httpx is imported only by
:func:`httpx_module`, when a registry is given tools that send requests.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from .._errors import InvalidArgumentsError, ToolError, TransientError
from .._feedback import printable
from .._jsonschema.validator import Validator

if TYPE_CHECKING:
    import httpx

__all__ = [
    "Argument",
    "Route",
    "Request",
    "OperationHandler",
    "build_request",
    "result_of",
    "httpx_module",
    "IDEMPOTENT",
    "EXCERPT",
    "JSON_MEDIA",
]

# The methods RFC 9110 calls idempotent: a call that failed on the way may be sent again.
IDEMPOTENT = frozenset({"GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"})
# Statuses that say "later" (a timeout, too many requests, a gateway or service unavailable): an
# idempotent tool's call is tried again within its registry's RetryPolicy.
_AGAIN = frozenset({408, 425, 429, 502, 503, 504})
# How much of a failed response's body the model is shown, in characters.
EXCERPT = 200
_TEMPLATE = re.compile(r"\{([^{}]*)\}")
# A JSON media type, parameters aside: application/json, application/problem+json.
JSON_MEDIA = re.compile(r"application/(?:[\w.-]+\+)?json", re.ASCII | re.IGNORECASE)
# What a header's value may hold: visible ASCII, spaces and tabs; never a line break.
_HEADER_VALUE = re.compile(r"[\x20-\x7e\t]*")


@dataclass(frozen=True)
class Argument:
    """One argument of a tool and where its request carries it: ``location`` is ``path``,
    ``query``, ``header`` or ``cookie`` (a parameter named ``sent``), ``body`` (a property
    ``sent`` of the JSON body) or ``payload`` (the whole body)."""

    name: str
    location: str
    sent: str
    style: str = ""
    explode: bool = False


@dataclass(frozen=True)
class Route:
    """An operation's request: its method and path template, its arguments, and its JSON body's media
    type (``None``: no body) and whether the body is sent with every call."""

    method: str
    path: str
    arguments: tuple[Argument, ...]
    media_type: str | None = None
    body_required: bool = False

    @property
    def idempotent(self) -> bool:
        return self.method in IDEMPOTENT


@dataclass(frozen=True)
class Request:
    """What is sent: the method, the whole URL, the headers in order, and the body's bytes."""

    method: str
    url: str
    headers: tuple[tuple[str, str], ...]
    content: bytes | None


def build_request(route: Route, base_url: str, arguments: Mapping[str, Any]) -> Request:
    """The request a call makes with ``arguments``, valid for the operation's schema; a ToolError for
    a value that its place cannot carry (a header's line break, an object inside a query array)."""
    in_path: dict[str, str] = {}
    query: list[str] = []
    headers: list[tuple[str, str]] = []
    cookies: list[str] = []
    body: dict[str, Any] = {}
    payload: list[Any] = []
    for argument in route.arguments:
        if argument.name not in arguments:
            continue
        value = arguments[argument.name]
        if argument.location == "body":
            body[argument.sent] = value
        elif argument.location == "payload":
            payload.append(value)
        elif argument.location == "path":
            in_path[argument.sent] = _simple(argument, value, _quoted)
        elif value is None:
            continue
        elif argument.location == "query":
            query.extend(_form(argument, value))
        elif argument.location == "header":
            written = _simple(argument, value, str)
            if not _HEADER_VALUE.fullmatch(written):
                raise ToolError(
                    f"the argument {argument.name!r} cannot be sent as the header {argument.sent!r}: "
                    "a header holds printable ASCII on one line"
                )
            headers.append((argument.sent, written))
        else:
            if argument.explode and isinstance(value, (list, dict)):
                raise ToolError(f"the argument {argument.name!r} is a cookie, which holds no {_kind(value)}")
            cookies.append(f"{_quoted(argument.sent)}={_simple(argument, value, _quoted)}")
    path = _TEMPLATE.sub(lambda found: in_path.get(found.group(1), found.group()), route.path)
    url = base_url.rstrip("/") + path + ("?" + "&".join(query) if query else "")
    if cookies:
        headers.append(("Cookie", "; ".join(cookies)))
    content = None
    if route.media_type is not None and (payload or body or route.body_required):
        sent = payload[0] if payload else body
        try:
            content = json.dumps(sent, ensure_ascii=False, allow_nan=False).encode("utf-8")
        except ValueError as error:  # an integer past Python's 4,300 digits
            raise ToolError(f"the body cannot be written as JSON: {error}") from None
        headers.append(("Content-Type", route.media_type))
    return Request(route.method, url, tuple(headers), content)


def _quoted(text: str) -> str:
    """Percent-encoded for a URL: everything but RFC 3986's unreserved characters."""
    return quote(text, safe="")


def _text(argument: Argument, value: Any) -> str:
    """A single value as the text a parameter carries: a string as it is, the rest as JSON writes it."""
    if isinstance(value, str):
        return value
    if isinstance(value, (list, dict)):
        raise ToolError(
            f"the argument {argument.name!r} holds {_kind(value)} within its value, which a "
            f"{argument.location} parameter cannot carry"
        )
    if value is None:
        return ""
    try:
        return json.dumps(value, allow_nan=False)
    except ValueError as error:
        raise ToolError(f"the argument {argument.name!r} cannot be written: {error}") from None


def _simple(argument: Argument, value: Any, encode: Any) -> str:
    """OpenAPI's ``simple`` style (and ``form``'s value after its name): items and pairs joined by
    commas, an exploded object's pairs as ``name=value``."""
    if isinstance(value, list):
        return ",".join(encode(_text(argument, item)) for item in value)
    if isinstance(value, dict):
        joined = "=" if argument.explode else ","
        return ",".join(
            f"{encode(key)}{joined}{encode(_text(argument, item))}" for key, item in value.items()
        )
    return str(encode(_text(argument, value)))


def _form(argument: Argument, value: Any) -> list[str]:
    """OpenAPI's ``form`` style for a query: each ``name=value`` pair, percent-encoded."""
    name = _quoted(argument.sent)
    if argument.explode and isinstance(value, list):
        return [f"{name}={_quoted(_text(argument, item))}" for item in value]
    if argument.explode and isinstance(value, dict):
        return [f"{_quoted(key)}={_quoted(_text(argument, item))}" for key, item in value.items()]
    return [f"{name}={_simple(argument, value, _quoted)}"]


def _kind(value: object) -> str:
    return "an array" if isinstance(value, list) else "an object"


def result_of(route: Route, status: int, reason: str, content_type: str, body: bytes) -> Any:
    """The tool's result from a response: a 2xx response's JSON (``None`` when it has no body; the
    text of one that says it is not JSON); any other status a ToolError with the status and a short
    excerpt of the body, a TransientError for one that says "later" to an idempotent tool."""
    said = f"{route.method} {route.path}"
    text = body.decode("utf-8", errors="replace")
    if not 200 <= status < 300:
        excerpt = printable(" ".join(text[: EXCERPT + 1].split()))
        excerpt = excerpt if len(excerpt) <= EXCERPT else excerpt[: EXCERPT - 1] + "…"
        failure = TransientError if route.idempotent and status in _AGAIN else ToolError
        shown = f"{status} {printable(reason)}".strip()
        raise failure(f"{said} answered {shown}" + (f": {excerpt}" if excerpt else ""))
    if not body.strip():
        return None
    if content_type and not JSON_MEDIA.fullmatch(content_type.split(";")[0].strip()):
        return text
    try:
        return json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as error:
        reason = "nested too deeply" if isinstance(error, RecursionError) else str(error)
        raise ToolError(
            f"{said} answered {status} with a body that is not JSON: {printable(reason)}"
        ) from None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def httpx_module() -> ModuleType:
    """httpx, imported at the first import of an OpenAPI document's tools; an ImportError saying how
    to install it when it is missing."""
    try:
        import httpx
    except ImportError as error:
        raise ImportError(
            "toolreg.import_openapi sends requests with httpx, which is not installed: "
            "pip install 'pytoolreg[openapi]' (from a checkout: pip install '.[openapi]')"
        ) from error
    return httpx


class OperationHandler:
    """The handler of one imported operation: it checks the arguments against the tool's schema
    (again, so that calling it directly sends nothing invalid either), builds the request, sends it
    through the client and reads at most ``max_bytes`` of the response.

    It sends nothing until its registration gives it the tool's validator (:meth:`bind`).
    """

    def __init__(self, tool: str, route: Route, base_url: str, client: httpx.Client, max_bytes: int) -> None:
        self.tool = tool
        self.route = route
        self.base_url = base_url
        self.client = client
        self.max_bytes = max_bytes
        self.validator: Validator | None = None

    def bind(self, validator: Validator) -> None:
        """Check every call with ``validator``, the registered tool's."""
        self.validator = validator

    def __repr__(self) -> str:
        return f"<OperationHandler {self.tool}: {self.route.method} {self.route.path}>"

    def __call__(self, **arguments: Any) -> Any:
        validator = self.validator
        if validator is None:
            raise ToolError(f"{self.tool} is not registered: nothing was sent")
        errors = validator.validate(arguments)
        if errors:
            raise InvalidArgumentsError(self.tool, list(errors))
        request = build_request(self.route, self.base_url, arguments)
        httpx = httpx_module()
        said = f"{self.route.method} {self.route.path}"
        try:
            built = self.client.build_request(
                request.method, request.url, headers=list(request.headers), content=request.content
            )
            response = self.client.send(built, stream=True)
            try:
                body = self._read(response)
            finally:
                response.close()
        except httpx.TransportError as error:
            if self.route.idempotent:
                raise TransientError(f"{said} failed on the way: {type(error).__name__}: {error}") from None
            raise ToolError(
                f"{said} failed on the way and is not tried again ({self.route.method} is not idempotent; "
                f"the API may have acted on it): {type(error).__name__}: {error}"
            ) from None
        except (httpx.HTTPError, httpx.InvalidURL, httpx.StreamError) as error:
            raise ToolError(f"{said} failed: {type(error).__name__}: {error}") from None
        content_type = response.headers.get("content-type", "")
        return result_of(self.route, response.status_code, response.reason_phrase, content_type, body)

    def _read(self, response: httpx.Response) -> bytes:
        chunks, size = [], 0
        for chunk in response.iter_bytes():
            size += len(chunk)
            if size > self.max_bytes:
                raise ToolError(
                    f"{self.route.method} {self.route.path} answered with more than {self.max_bytes} bytes "
                    "(Limits.max_output_bytes); the rest was not read"
                )
            chunks.append(chunk)
        return b"".join(chunks)
