"""The conformance command: ``python -m conformance [--impl M:F] [--examples N] [--seed N] ...``."""

from __future__ import annotations

import argparse
import gc
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from ._differential import DEFAULT_MAX_KINDS, Disagreement, Report, compare, run
from ._impl import Implementation, load, toolreg_errors
from ._official import DIALECT_FOLDERS, PARTS, Outcome, default_suite_dir, judge, load_groups
from ._oracle import Oracles
from ._output import OUTPUT_DIVERGENCES, OutputReport, run_output
from ._regressions import REGRESSIONS
from ._strategies import KEYWORD_VALUES

DEFAULT_EXAMPLES = 5000
DEFAULT_SEED = 20261202
DEFAULT_OUTPUT_EXAMPLES = 300

# The exit codes, as --help and docs/conformance.md give them.
AGREED, DISAGREED, USAGE, NOT_LOADED, RAISED = 0, 1, 2, 3, 4
EXIT_CODES = f"""exit codes:
  {AGREED}  every answer agreed
  {DISAGREED}  disagreements found (random examples, regression examples or official groups)
  {USAGE}  bad options (an --official folder that does not exist ...)
  {NOT_LOADED}  the --impl implementation could not be loaded (no such module or function)
  {RAISED}  the implementation raised an exception where it had to answer (disagreements or not)"""


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m conformance",
        description=(
            "Cross-check a JSON Schema validator against jsonschema (adjusted where it departs from the "
            "spec) and jsonschema-rs on random schemas and instances, then run the official test suite. "
            "Each new kind of disagreement is printed, shrunk, as soon as it is found."
        ),
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--impl",
        default=None,
        metavar="MODULE:FUNCTION",
        help="f(schema, instance) returning errors with 'path' and 'keyword' (default: toolreg.validate)",
    )
    parser.add_argument(
        "--examples",
        type=int,
        default=DEFAULT_EXAMPLES,
        help="examples to draw, each a random schema, one built around references and a small focused one",
    )
    parser.add_argument(
        "--output-examples",
        type=int,
        default=DEFAULT_OUTPUT_EXAMPLES,
        help="examples for the standard output cross-check against jsonschema-rs's evaluate() "
        "(toolreg only; 0 skips it)",
    )
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="the same seed gives the same run")
    parser.add_argument(
        "--max-disagreements",
        type=int,
        default=DEFAULT_MAX_KINDS,
        metavar="N",
        help="stop the random cross-check once N kinds of disagreement are found (default "
        f"{DEFAULT_MAX_KINDS}; 0 runs every example); a kind is the shape of the difference and the "
        "keywords involved",
    )
    parser.add_argument(
        "--keywords",
        default=None,
        metavar="K1,K2",
        help=f"generate only these keywords (default: all of {', '.join(KEYWORD_VALUES)})",
    )
    parser.add_argument(
        "--official",
        default=None,
        metavar="DIR",
        help="the official suite's root, holding tests/ (default: TOOLREG_SUITE, else the shared copy); "
        "'none' skips it",
    )
    options = parser.parse_args(argv)
    if options.examples < 1:
        parser.error("--examples must be at least 1")
    if options.output_examples < 0:
        parser.error("--output-examples must be at least 0")
    if options.max_disagreements < 0:
        parser.error("--max-disagreements must be at least 0")
    if options.keywords is not None:
        options.keywords = [name.strip() for name in options.keywords.split(",") if name.strip()]
        unknown = sorted(set(options.keywords) - set(KEYWORD_VALUES))
        if unknown:
            parser.error(f"--keywords: no generator for {', '.join(unknown)}")
    return options


def _progress(done: int, total: int) -> None:
    step = max(total // 10, 1)
    if done % step == 0:
        print(f"  ... {done}/{total} examples", file=sys.stderr, flush=True)


def _regressions(implementation: Implementation, name: str) -> tuple[int, int]:
    """Judge the regression examples; (how many disagree, on how many the implementation raised)."""
    failed = raised = 0
    for regression in REGRESSIONS:
        disagreement = compare(
            implementation, Oracles(regression.schema), regression.schema, regression.instance
        )
        if disagreement is not None:
            failed += 1
            raised += disagreement.raised
            print(f"REGRESSION ({regression.what})\n{disagreement.reproduction(name)}", flush=True)
    print(f"regression examples: {len(REGRESSIONS) - failed} of {len(REGRESSIONS)} agree", flush=True)
    return failed, raised


def _shown_at_once(name: str) -> Callable[[int, Disagreement, int], None]:
    """Prints each new kind of disagreement as the run finds it (see ``run``'s ``on_found``)."""
    number = 0

    def show(example: int, disagreement: Disagreement, tries: int) -> None:
        nonlocal number
        number += 1
        shrunk = f", shrunk in {tries} tries" if tries else ""
        print(
            f"\nDISAGREEMENT {number} (example {example}{shrunk}): {disagreement.reproduction(name)}",
            flush=True,
        )

    return show


def _print_report(report: Report, name: str, total: int, seconds: float) -> None:
    seen = f"{report.schemas} schemas, {report.instances} instances"
    print(f"\nrandom cross-check of {name}: {seen}, {seconds:.0f} s")
    print(f"{'keyword':<14} {'schemas':>8} {'instances':>10} {'failed':>8} {'disagreed':>10}")
    for keyword in sorted(report.keywords):
        counts = report.keywords[keyword]
        numbers = f"{counts.schemas:>8} {counts.instances:>10} {counts.failed:>8} {counts.disagreed:>10}"
        print(f"{keyword:<14} {numbers}")
    print("('failed': instances the oracle rejected with that keyword)")
    print(f"schemas an oracle refuses (each judged once): {report.refused}")
    print("reference constructs drawn (instances):")
    for construct, count in sorted(report.constructs.items()):
        print(f"  {construct:<62} {count:>6}")
    if report.kinds:
        print(f"disagreeing instances by kind ({len(report.kinds)} kinds, each shown above as found):")
        for (shape, keywords), count in report.kinds.items():
            print(f"  {count:>6}  {shape}" + (f" (keywords: {', '.join(keywords)})" if keywords else ""))
    if report.stopped:
        print(
            f"stopped after {report.examples} of {total} examples: {len(report.kinds)} kinds of disagreement "
            "found (--max-disagreements)"
        )
    else:
        print(f"examples judged: {report.examples} of {total}")


def _print_output_report(report: OutputReport, seconds: float) -> None:
    print(f"\n{report.agreement()}, {seconds:.0f} s")
    for kind, count in sorted(report.excused.items()):
        print(f"  not compared ({count} instances), {kind}: {OUTPUT_DIVERGENCES[kind]}")
    for kind, reason in OUTPUT_DIVERGENCES.items():
        if kind not in report.excused:
            print(f"  known divergence, {kind}: {reason}")
    for number, shown in enumerate(report.disagreements, 1):
        print(f"\nOUTPUT DISAGREEMENT {number}: {shown}")


def _official(suite: Path, implementation: Implementation | None) -> tuple[int, int, int]:
    """Print the official-suite table, dialect by dialect; return (groups judged, groups wrong, groups
    where the implementation raised)."""
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])  # passed, cases, refused, groups wrong
    failures: list[Outcome] = []
    exceptions: dict[str, str] = {}
    judged = 0
    for folder in DIALECT_FOLDERS:
        for kind in PARTS:
            if kind == "format" and implementation is not None:
                continue  # format assertion is toolreg's own setting
            part = folder if kind == "required" else f"{folder} {kind}"
            for group in load_groups(suite, folder, kind):
                outcome = judge(group, implementation)
                if implementation is not None and not outcome.in_vocabulary:
                    continue  # another implementation is only held to toolreg's vocabulary
                judged += 1
                row = counts[part]
                row[1] += len(group.cases)
                row[2] += len(group.cases) if outcome.refused is not None else 0
                row[0] += outcome.passed if outcome.refused is None else 0
                if outcome.exception is not None:
                    exceptions[group.file] = outcome.exception
                if not outcome.ok:
                    row[3] += 1
                    failures.append(outcome)
    print(f"\nofficial JSON-Schema-Test-Suite: {suite} (format: optional/format, with format assertion on)")
    print(f"{'dialect':<24} {'passed':>7} {'cases':>6} {'refused':>8}  groups wrong")
    for part, (passed, cases, refused, wrong) in counts.items():
        print(f"{part:<24} {passed:>7} {cases:>6} {refused:>8}  {wrong}")
    for file, reason in exceptions.items():
        print(f"EXCEPTION {file}: {reason}")
    for outcome in failures:
        if outcome.in_vocabulary and outcome.refused:
            print(f"REFUSED (in vocabulary) {outcome.group.name}: {outcome.refused}")
        elif outcome.in_vocabulary:
            print(f"WRONG {outcome.group.name}: {'; '.join(outcome.wrong)}")
        else:
            print(f"ACCEPTED (outside vocabulary) {outcome.group.name}")
    print(f"official groups judged: {judged}, wrong: {len(failures)}")
    return judged, len(failures), sum(bool(outcome.raised) for outcome in failures)


# How many collections of the youngest generation make one of the middle generation during a run.
MIDDLE_GENERATION_EVERY = 100


@contextmanager
def _collected_seldom() -> Iterator[None]:
    """The run with the middle generation of Python's cyclic garbage collector collected a tenth as
    often as by default (the thresholds are as before afterwards).

    Hypothesis keeps a record of every example drawn, a heap of millions of objects that grows
    through the run, and each collection of the oldest generation walks all of it: by default a run
    made 39 of them, a tenth of its processor time with the collections of the younger generations.
    Objects that live for a while (Hypothesis's cached examples, a schema's oracles) then die more
    often before they reach the oldest generation, and it is collected about half as often. What is
    freed is the same; only when.
    """
    before = gc.get_threshold()
    gc.set_threshold(before[0], MIDDLE_GENERATION_EVERY, *before[2:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; the exit code is one of ``EXIT_CODES``."""
    options = _arguments(argv)
    implementation: Implementation = toolreg_errors
    name, official_implementation = "toolreg", None
    if options.impl is not None:
        try:
            implementation = load(options.impl)
        except ValueError as error:
            print(f"python -m conformance: {error}", file=sys.stderr)
            return NOT_LOADED
        name, official_implementation = options.impl, implementation

    official_dir = None
    if options.official is None:
        official_dir = default_suite_dir()
        if not official_dir.is_dir():
            print(
                f"official suite not found at {official_dir}: SKIPPED (set TOOLREG_SUITE or pass --official)"
            )
            official_dir = None
    elif options.official != "none":
        official_dir = Path(options.official)
        if not official_dir.is_dir():
            print(f"python -m conformance: --official {official_dir} is not a folder", file=sys.stderr)
            return USAGE

    with _collected_seldom():
        disagreements, raised = _regressions(implementation, name)
        kinds = options.max_disagreements
        stop = f", stopping at {kinds} kinds of disagreement" if kinds else ""
        checking = f"cross-checking {name}: {options.examples} examples, seed {options.seed}{stop}"
        print(checking, file=sys.stderr)
        started = time.monotonic()
        report = run(
            implementation,
            examples=options.examples,
            seed_value=options.seed,
            keywords=options.keywords,
            max_kinds=options.max_disagreements,
            progress=_progress,
            on_found=_shown_at_once(name),
        )
        _print_report(report, name, options.examples, time.monotonic() - started)
        disagreements += report.disagreements
        raised += report.raised
        if options.impl is None and options.output_examples:
            print(f"cross-checking the standard output: {options.output_examples} examples", file=sys.stderr)
            started = time.monotonic()
            output_report = run_output(options.output_examples, options.seed, options.keywords)
            _print_output_report(output_report, time.monotonic() - started)
            disagreements += sum(output_report.kinds.values())
        if official_dir is not None:
            _, wrong, raised_in_groups = _official(official_dir, official_implementation)
            disagreements += wrong
            raised += raised_in_groups
        print(f"RESULT schemas={report.schemas} instances={report.instances} disagreements={disagreements}")
        if raised:
            return RAISED
        return AGREED if disagreements == 0 else DISAGREED


if __name__ == "__main__":
    sys.exit(main())
