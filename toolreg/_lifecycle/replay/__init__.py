"""Replaying a log of model tool calls on toolreg's validator: how many were valid, at the first try,
what went wrong, and how often the model mended a call once it had its errors (:func:`replay`).

The log is read as a stream (``toolreg._lifecycle.logs``); what is kept is counters and bounded
tables, so memory stays flat in the log's size.

The counting is in ``counting`` (with its bounded tables in ``tables`` and the tools it judges by in
``validators``), the report value and its renderings in ``report``, and ``toolreg replay``'s command
line in ``command``.
"""

from .command import OptionError, add_arguments, run_command
from .counting import replay
from .report import REPORT_FORMATS, ErrorCount, Place, ReplayReport, ToolFigures, render

__all__ = [
    "replay",
    "ReplayReport",
    "ToolFigures",
    "ErrorCount",
    "Place",
    "render",
    "REPORT_FORMATS",
    "add_arguments",
    "run_command",
    "OptionError",
]
