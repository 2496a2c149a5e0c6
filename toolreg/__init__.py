"""toolreg: a typed tool registry and a strict, pure JSON Schema validator for agent tool calls."""

from ._calls import CallResult, RetryPolicy
from ._catalogs import ImportReport, import_mcp, normalize_bfcl
from ._errors import (
    DuplicateToolError,
    ExportError,
    InvalidArgumentsError,
    InvalidCallError,
    InvalidToolError,
    InvalidToolNameError,
    LimitsError,
    Ok,
    SchemaError,
    ToolregError,
    TransientError,
    UnknownProviderError,
    UnknownToolError,
    ValidationError,
)
from ._feedback import FormattedErrors, format_errors
from ._limits import Limits
from ._registry import ToolRecord, ToolRegistry
from ._schema import check_schema
from ._validator import Validator, compile, validate  # noqa: A004 - toolreg.compile, like re.compile

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
    "format_errors",
    "FormattedErrors",
    "import_mcp",
    "ImportReport",
    "normalize_bfcl",
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
    "TransientError",
    "InvalidCallError",
]
