"""``toolreg replay`` on the command line: its arguments, their checks, the progress line, and the exit
code (``toolreg/_cli.py`` adds it to the command's parser).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..._feedback import printable
from ..._jsonschema.errors import ToolregError
from ..catalogs import read_catalog_file
from ..logs import FORMS
from .counting import replay
from .report import REPORT_FORMATS, render


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``toolreg replay``'s arguments."""
    parser.add_argument("log", nargs="+", help="log files: JSON Lines, or one JSON array of values")
    parser.add_argument(
        "--catalog",
        help="judge the calls against this catalog (any form toolreg check reads); drift is counted",
    )
    parser.add_argument(
        "--format",
        action="append",
        default=[],
        metavar="FORMAT",
        help=f"the report's format ({', '.join(REPORT_FORMATS)}; text by default) or the log's form "
        f"({', '.join(FORMS)}; found by each value's shape by default); give it twice for both",
    )
    parser.add_argument("--json", action="store_true", help="the report as JSON (as --format json)")
    parser.add_argument(
        "--repair-window",
        type=int,
        default=3,
        metavar="N",
        help="turns within which a valid call repairs a failed one",
    )
    parser.add_argument(
        "--mask", action="store_true", help="keep every value the calls held out of the report"
    )
    parser.add_argument(
        "--min-valid",
        type=float,
        metavar="F",
        help="exit 1 when the fraction of valid calls is below F (0 to 1)",
    )
    parser.add_argument(
        "--top", type=int, default=5, metavar="N", help="errors and unknown names shown per table"
    )
    parser.add_argument(
        "--progress", action="store_true", help="a progress line on stderr even when not a terminal"
    )


def _progress_line(lines: int, calls: int) -> None:
    print(f"toolreg replay: {lines:,} lines, {calls:,} calls", file=sys.stderr, flush=True)


class OptionError(ToolregError, ValueError):
    """A ``toolreg replay`` option that cannot be taken; the message says which and why."""


def run_command(options: argparse.Namespace) -> tuple[str, int]:
    """``toolreg replay``: the report and the exit code (0; 1 below ``--min-valid``; 2 when a log file
    cannot be read). A bad option raises OptionError, a catalog that cannot be read CatalogError."""
    report_formats = [name for name in options.format if name in REPORT_FORMATS] + ["json"] * options.json
    forms = [name for name in options.format if name in FORMS]
    unknown = [name for name in options.format if name not in REPORT_FORMATS and name not in FORMS]
    if unknown:
        raise OptionError(
            f"--format {printable(unknown[0])!r} is neither a report format ({', '.join(REPORT_FORMATS)}) "
            f"nor a log form ({', '.join(FORMS)})"
        )
    if len(set(report_formats)) > 1 or len(forms) > 1:
        raise OptionError("--format takes one report format and one log form at most")
    if options.min_valid is not None and not 0 <= options.min_valid <= 1:
        raise OptionError(f"--min-valid is a fraction from 0 to 1, not {options.min_valid}")
    for option, value in (("--repair-window", options.repair_window), ("--top", options.top)):
        if value < 1:
            raise OptionError(f"{option} must be at least 1, not {value}")
    catalog = None if options.catalog is None else read_catalog_file(options.catalog)
    show_progress = options.progress or sys.stderr.isatty()
    report = replay(
        [Path(path) for path in options.log],
        catalog=catalog,
        form=forms[0] if forms else None,
        repair_window=options.repair_window,
        mask=options.mask,
        top=options.top,
        progress=_progress_line if show_progress else None,
    )
    text = render(report, report_formats[0] if report_formats else "text")
    if report.unreadable.get("file"):
        return text, 2
    if options.min_valid is not None and (report.valid_rate or 0.0) < options.min_valid:
        return text, 1
    return text, 0
