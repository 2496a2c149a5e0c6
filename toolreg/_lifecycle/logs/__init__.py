"""Logs of model tool calls as providers and harnesses write them, read as a stream of events.

A log is JSON Lines (one JSON value a line, or a line holding an array of values, as a JSON-RPC
batch) or one JSON array of values; each value's form is found by its shape (:data:`FORMS`), unless
``form`` names one. Calls are read by each provider's own reading (``toolreg._providers``): its name
rule maps ``fs-read_file`` back to ``fs.read_file`` and its arguments are read once, in its own form.
Memory stays flat in the log's size: a line is read, turned into events and dropped, and what a form
must remember between lines (MCP's pending requests) is bounded.

The events are in ``events``, the stream and the table of readers in ``stream``, one JSON value from
text in ``json_text``, what the readers share in ``base``, and each form's reader in its own module
(``messages`` for OpenAI Chat and Anthropic, ``responses``, ``gemini``, ``mcp``, ``otel``), with the
catalogs a log shows in ``catalog_events``.
"""

from .base import malformed_kind
from .events import (
    FORMS,
    MALFORMED_KINDS,
    Event,
    LoggedAnswer,
    LoggedCall,
    LoggedCatalog,
    LogSource,
    SourceRead,
    Unreadable,
)
from .stream import MAX_LINE_BYTES, read_log

__all__ = [
    "FORMS",
    "MALFORMED_KINDS",
    "MAX_LINE_BYTES",
    "Event",
    "LoggedCall",
    "LoggedAnswer",
    "LoggedCatalog",
    "Unreadable",
    "SourceRead",
    "LogSource",
    "read_log",
    "malformed_kind",
]
