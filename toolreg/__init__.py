"""toolreg: a typed tool registry and a strict, pure JSON Schema validator for agent tool calls."""

from ._bfcl import normalize_bfcl
from ._calls import CallResult, RetryPolicy
from ._errors import (
    DuplicateToolError,
    ExportError,
    InvalidArgumentsError,
    InvalidCallError,
    InvalidToolError,
    InvalidToolNameError,
    ToolError,
    TransientError,
    UnknownProviderError,
    UnknownToolError,
)
from ._feedback import FormattedErrors, format_errors
from ._jsonschema.errors import LimitsError, Ok, OutputFormatError, SchemaError, ToolregError, ValidationError
from ._jsonschema.limits import Limits
from ._jsonschema.schema import check_schema
from ._jsonschema.validator import Validator, compile, validate  # noqa: A004 - toolreg.compile, like re.compile
from ._lifecycle.catalogs import CatalogError
from ._lifecycle.diff import CatalogDiff, DiffError, Finding, SchemaDiff, TextChange, ToolDiff, diff
from ._lifecycle.replay import ReplayReport, replay
from ._providers.mcp import ImportReport, import_mcp
from ._registry import ToolRecord
from ._repair import Repair, repair
from ._toolregistry import ToolRegistry
from ._version import __version__ as __version__

__all__ = [
    "ToolRegistry",
    "ToolRecord",
    "Ok",
    "ValidationError",
    "Validator",
    "validate",
    "compile",
    "check_schema",
    "Limits",
    "CallResult",
    "RetryPolicy",
    "repair",
    "Repair",
    "format_errors",
    "FormattedErrors",
    "import_mcp",
    "ImportReport",
    "normalize_bfcl",
    "replay",
    "ReplayReport",
    "diff",
    "CatalogDiff",
    "ToolDiff",
    "SchemaDiff",
    "Finding",
    "TextChange",
    "ToolregError",
    "SchemaError",
    "DuplicateToolError",
    "InvalidToolNameError",
    "InvalidToolError",
    "ExportError",
    "UnknownToolError",
    "UnknownProviderError",
    "InvalidArgumentsError",
    "LimitsError",
    "OutputFormatError",
    "ToolError",
    "TransientError",
    "InvalidCallError",
    "CatalogError",
    "DiffError",
]
