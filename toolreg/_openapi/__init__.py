"""HTTP APIs described by OpenAPI 3.0, 3.1 and 3.2, imported as checked tools (:func:`import_openapi`).

``schemas`` rewrites the document's schemas as 2020-12 with their references under ``$defs``;
``operations`` reads each operation as a tool (names, one argument schema, the result's schema);
``requests`` writes a call as its HTTP request and reads the response, on httpx, which only it
imports, and only when a registry is given tools that send requests.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from .._errors import InvalidToolError
from .._jsonschema.errors import SchemaError, ToolregError
from .._providers.mcp import Change, ImportReport, Refusal
from .._registry import Registry, check_tool_name
from .operations import MAX_OPERATIONS, Operation, Plan, plan
from .requests import OperationHandler, httpx_module

if TYPE_CHECKING:
    import httpx

__all__ = [
    "import_openapi",
    "register_plan",
    "plan",
    "Plan",
    "Operation",
    "MAX_OPERATIONS",
    "checked_base_url",
]


def import_openapi(
    registry: Registry,
    spec: Any,
    *,
    base_url: str,
    client: httpx.Client | None = None,
    operations: Collection[str] | None = None,
    prefix: str | None = None,
) -> ImportReport:
    """Register each operation of an OpenAPI document (a parsed JSON or YAML object) as a tool that
    sends its request to ``base_url``, and report each one refused (needs ``pytoolreg[openapi]``).

    A tool's arguments are one object: the operation's path, query, header and cookie parameters and
    its JSON body's properties (or the whole body as ``body`` when it is not a plain object); a name
    two places share is prefixed with each (``path_id``, ``body_id``). The schemas are 2020-12: each
    ``$ref`` in the document kept under ``$defs``, OpenAPI 3.0's ``nullable``, boolean
    ``exclusiveMinimum``/``exclusiveMaximum`` and ``example`` rewritten, ``readOnly`` properties left
    out of the arguments. The tool's name is the operationId by :func:`~toolreg.import_mcp`'s rule
    (``getUser`` is ``get_user``; ``GET /users/{id}`` is ``get_users_id`` without one), under
    ``prefix``; its description, the summary; its output schema, the 2xx responses' JSON schemas.
    GET, HEAD, PUT, DELETE, OPTIONS and TRACE tools are idempotent. ``operations`` imports only the
    operations named (by operationId or as ``"GET /users/{id}"``).

    A call's arguments are checked before anything is sent, by the registry and again by the handler.
    The request goes through ``client`` (an ``httpx.Client``; one is made otherwise), which holds what
    every request needs (authentication, timeouts). A 2xx response's JSON is the result; any other
    status raises a ToolError with the status and the start of the body; a failure on the way raises a
    TransientError (tried again) for an idempotent tool, a ToolError for the others.

    The report's ``registered`` maps each operationId (or ``"METHOD /path"``) to its tool, ``refused``
    gives each reason with a pointer into the document, and ``changed`` says each rewrite and rename.
    An operation is registered whole or not at all. A document that is not OpenAPI 3, or that has
    more than ``MAX_OPERATIONS`` (2,000) operations to import, raises InvalidToolError.
    """
    httpx = httpx_module()
    base_url = checked_base_url(base_url)
    if client is None:
        client = httpx.Client(base_url=base_url)
    elif not isinstance(client, httpx.Client):
        raise InvalidToolError(f"client is an httpx.Client, not {type(client).__name__}")
    if prefix is not None:
        check_tool_name(prefix)
    planned = plan(spec, registry.limits, operations=operations, prefix=prefix)
    given = client
    most = registry.limits.max_output_bytes

    def handler(operation: Operation) -> OperationHandler:
        return OperationHandler(operation.name, operation.route, base_url, given, most)

    return register_plan(registry, planned, handler)


def checked_base_url(base_url: object) -> str:
    """``base_url`` if it is an http or https URL with a host and no query or fragment."""
    if not isinstance(base_url, str):
        raise InvalidToolError(f"base_url is a string, not {type(base_url).__name__}")
    try:
        parts = urlsplit(base_url)
    except ValueError as error:
        raise InvalidToolError(f"base_url {base_url!r} is not a URL: {error}") from None
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise InvalidToolError(
            f"base_url {base_url!r} is not an http or https URL with a host and no query or fragment"
        )
    return base_url


def register_plan(
    registry: Registry, planned: Plan, handler: Callable[[Operation], Callable[..., Any]]
) -> ImportReport:
    """Register each operation planned, with the handler made for it; each refusal, with where in the
    document it comes from."""
    registered: dict[str, str] = {}
    refused: list[Refusal] = list(planned.refused)
    changed: list[Change] = []
    for operation in planned.operations:
        made = handler(operation)
        notes = list(operation.notes)
        options: dict[str, Any] = {
            "description": operation.description,
            "details": operation.details,
            "idempotent": operation.route.idempotent,
            "hints": operation.hints,
            "output_schema": operation.output,
        }
        try:
            try:
                record = registry.register(operation.name, operation.arguments, made, **options)
            except SchemaError as error:
                if operation.output is None or not error.reason.startswith("output_schema: "):
                    raise
                where = operation.pointer(error.schema_path, output=True)
                reason = error.reason.removeprefix("output_schema: ")
                notes.append(("output_schema", f"left out: {reason} (at {where!r})"))
                options["output_schema"] = None
                record = registry.register(operation.name, operation.arguments, made, **options)
        except SchemaError as error:
            refused.append(Refusal(operation.foreign, error.reason, operation.pointer(error.schema_path)))
        except Exception as error:  # a ToolregError (a name taken), or a failure no one foresaw: one tool
            reason = str(error) if isinstance(error, ToolregError) else f"{type(error).__name__}: {error}"
            refused.append(Refusal(operation.foreign, reason))
        else:
            if isinstance(made, OperationHandler):
                made.bind(record.validator)
            registered[operation.foreign] = operation.name
            changed.extend(Change(operation.foreign, where, reason) for where, reason in notes)
    return ImportReport(registered, tuple(refused), tuple(changed))
