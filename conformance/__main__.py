"""The conformance command: ``python -m conformance [--official DIR]``."""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

from ._official import default_suite_dir, judge, load_groups


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m conformance",
        description="Run the official JSON-Schema-Test-Suite against toolreg and print a report.",
    )
    parser.add_argument(
        "--official",
        type=Path,
        default=None,
        help="the suite's draft2020-12 folder (default: TOOLREG_SUITE, else the shared copy)",
    )
    options = parser.parse_args(argv)
    directory = options.official or default_suite_dir()
    if not directory.is_dir():
        print(
            f"official suite not found at {directory}; set TOOLREG_SUITE or pass --official", file=sys.stderr
        )
        return 2

    by_file: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])  # passed, cases, refused, bad
    failures = []
    groups = load_groups(directory)
    for outcome in map(judge, groups):
        counts = by_file[outcome.group.file]
        counts[1] += len(outcome.group.cases)
        if outcome.refused is not None:
            counts[2] += len(outcome.group.cases)
        counts[0] += outcome.passed
        if not outcome.ok:
            counts[3] += 1
            failures.append(outcome)

    print(f"official JSON-Schema-Test-Suite: {directory.name}")
    print(f"{'file':<36} {'passed':>7} {'cases':>6} {'refused':>8}  groups wrong")
    for file, (passed, cases, refused, bad) in sorted(by_file.items()):
        print(f"{file:<36} {passed:>7} {cases:>6} {refused:>8}  {bad}")
    totals = [sum(column) for column in zip(*by_file.values(), strict=True)]
    print(f"{'TOTAL':<36} {totals[0]:>7} {totals[1]:>6} {totals[2]:>8}  {totals[3]}")
    for outcome in failures:
        if outcome.in_vocabulary and outcome.refused:
            print(f"REFUSED (in vocabulary) {outcome.group.name}: {outcome.refused}")
        elif outcome.in_vocabulary:
            print(f"WRONG {outcome.group.name}: {'; '.join(outcome.wrong)}")
        else:
            print(f"ACCEPTED (outside vocabulary) {outcome.group.name}")
    print(f"RESULT official_groups={len(groups)} wrong_groups={len(failures)}")
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
