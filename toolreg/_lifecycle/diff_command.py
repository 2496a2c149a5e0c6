"""``toolreg diff OLD NEW``: the command line's side of :func:`toolreg.diff`, its options and exit code.

Exit codes, in the command line's family: 0 nothing to fail on, 1 the diff fails ``--fail-on``
(``breaking`` by default; ``unknown`` fails on breaking or unknown; ``any`` on any change at all), 2
bad input (a catalog that cannot be read, a schema toolreg refuses, a search without its packages).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from .diff import FAIL_ON, READINGS, diff
from .diff_report import FORMATS

__all__ = ["add_arguments", "run_command"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``toolreg diff``."""
    parser.add_argument("old", help="the old catalog (.json or .jsonl, any form check reads)")
    parser.add_argument("new", help="the new catalog")
    parser.add_argument(
        "--format", choices=list(FORMATS), default="text", help="text (default), json, markdown or github"
    )
    parser.add_argument("--json", action="store_true", help="the same as --format json")
    parser.add_argument(
        "--fail-on",
        choices=list(FAIL_ON),
        default="breaking",
        help="exit 1 on a breaking change (default), on a breaking or unknown one, or on any change",
    )
    parser.add_argument(
        "--callers",
        choices=list(READINGS),
        default="declared",
        help="callers send only declared names (default) or any JSON the old schema accepts",
    )
    parser.add_argument(
        "--search", type=int, default=0, metavar="N", help="draw N instances of each old schema (hypothesis)"
    )
    parser.add_argument("--seed", type=int, default=0, help="the search's seed")
    parser.add_argument(
        "--calls",
        nargs="+",
        metavar="LOG",
        help="logs of model tool calls (any form toolreg replay reads): count those each change refuses",
    )


def run_command(options: argparse.Namespace) -> tuple[str, int]:
    """The text to print and the exit code; a ToolregError is bad input, for the caller to report."""
    calls = None if options.calls is None else [Path(log) for log in options.calls]
    report = diff(
        options.old,
        options.new,
        callers=options.callers,
        search=options.search,
        seed=options.seed,
        calls=calls,
    )
    text = report.render("json" if options.json else options.format)
    return text, 1 if report.fails(options.fail_on) else 0
