"""The reader of MCP JSON-RPC transcripts: ``tools/call`` requests matched to their results by id within
each session (an ``initialize`` starts one), and ``tools/list`` results as catalogs, a later page
adding to the first; the requests awaiting a result are bounded.
"""

from __future__ import annotations

import json
from typing import Any, Final

from ..._feedback import printable
from ..._jsonschema.errors import ToolregError
from ..._providers import PROVIDERS
from ..catalogs import catalog_entries
from .base import At, SourceState, call_event, shape_problem
from .catalog_events import catalog_event
from .events import LoggedCall, new_answer

# MCP requests awaiting their result, per log: the oldest are forgotten past this.
MAX_PENDING_REQUESTS: Final = 10_000


def is_jsonrpc(value: dict[str, Any]) -> bool:
    """Whether a value is a JSON-RPC 2.0 message."""
    return value.get("jsonrpc") == "2.0"


def read_jsonrpc(value: dict[str, Any], at: At) -> None:
    """One JSON-RPC message: a request remembered, or the result it answers read as an event."""
    source = at.source
    method = value.get("method")
    if method == "initialize":
        source.session += 1
        source.pending.clear()
    conversation = f"{source.name}#{source.session}" if source.session > 1 else source.name
    at = At(source, at.line, conversation, at.forced)
    identifier = value.get("id")
    # The id as JSON text: 1 and "1" are different ids.
    plain_id = isinstance(identifier, (str, int)) and not isinstance(identifier, bool)
    pending_key = json.dumps(identifier) if plain_id else None
    if isinstance(method, str):
        if pending_key is None:
            return  # a notification: nothing answers it
        params = value.get("params")
        if method == "tools/call":
            if not isinstance(params, dict):
                at.source.out.append(shape_problem(at, "a tools/call request without params"))
                return
            source.calling = source.calling or source.next_turn()
            found = call_event("mcp", params, params.get("arguments"), source.calling, at, pending_key)
            if isinstance(found, LoggedCall):
                _remember(source, pending_key, (method, found.tool, False))
            at.source.out.append(found)
        elif method == "tools/list":
            cursor = isinstance(params, dict) and params.get("cursor") is not None
            _remember(source, pending_key, (method, None, bool(cursor)))
        return
    if pending_key is None or pending_key not in source.pending:
        return  # the answer to a request the log does not hold, or to another method
    asked, sent, paged = source.pending.pop(pending_key)
    source.calling = 0
    result = value.get("result")
    if asked == "tools/list":
        if "error" in value:
            return
        try:
            entries = catalog_entries(result)
        except ToolregError as error:
            at.source.out.append(shape_problem(at, f"a tools/list result: {printable(str(error))}"))
            return
        at.source.out.append(catalog_event(entries, "mcp", at, replaces=not paged))
        return
    name = PROVIDERS["mcp"].names.toolreg_name(sent) if sent is not None else None
    if not isinstance(result, dict):  # a JSON-RPC error: the call was refused
        at.source.out.append(
            new_answer(pending_key, True, at.line, "mcp", source.name, at.conversation, sent, name)
        )
        return
    has_output = "structuredContent" in result
    at.source.out.append(
        new_answer(
            pending_key,
            result.get("isError") is True,
            at.line,
            "mcp",
            source.name,
            at.conversation,
            sent,
            name,
            result.get("structuredContent"),
            has_output,
        )
    )


def _remember(source: SourceState, key: str, request: tuple[str, str | None, bool]) -> None:
    source.pending[key] = request
    if len(source.pending) > MAX_PENDING_REQUESTS:
        source.pending.popitem(last=False)
