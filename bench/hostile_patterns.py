"""``python -m bench.hostile_patterns``: each hostile pattern's answer, time and peak memory.

Each reproducer runs alone in a fresh child process under a memory cap, so a crash or a runaway
allocation ends the child, not the run; the child reports the answer, the seconds the operation took
(registration and validation, not building the input) and how far its peak resident memory rose
above what it held before. ``tests/properties/test_hostile.py`` runs the same reproducers and holds
each to its answer; this prints the patterns' table that docs/reliability.md quotes.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Reproducer", "Outcome", "REPRODUCERS", "MEMORY_CAP", "limit_memory", "run"]

# The child's address space: the interpreter, toolreg and the input take about 60 MB of it.
MEMORY_CAP = 320 * 2**20
# Several times the one second each must answer in: past it, a reproducer has hung.
TIMEOUT = 20.0
_ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Reproducer:
    """``setup`` builds the input (untimed), ``code`` sets ``answer`` (timed); ``expected`` is how
    the answer must begin: ``valid``, ``invalid``, ``registered`` or ``SchemaError``."""

    name: str
    setup: str
    code: str
    expected: str


@dataclass(frozen=True)
class Outcome:
    answer: str
    seconds: float
    megabytes: float
    crashed: str | None  # how the child died, if it did


# Helpers every reproducer may call.
_PRELUDE = """
import toolreg

def verdict(schema, instance, **options):
    try:
        validator = toolreg.compile(schema, **options)
    except toolreg.SchemaError as error:
        return "SchemaError: " + str(error)
    return "valid" if validator.is_valid(instance) else "invalid"

def registered(schema, **options):
    try:
        toolreg.compile(schema, **options)
    except toolreg.SchemaError as error:
        return "SchemaError: " + str(error)
    return "registered"

BACKTRACKING = {"limits": {"allow_backtracking_patterns": True}}
"""

# The child caps itself first: a preexec_fn would run Python between fork and exec, which may
# deadlock the child of a process with threads (pytest's workers have them).
_CHILD = """
import json, resource, time
from bench.hostile_patterns import limit_memory
limit_memory({cap})
{prelude}
{setup}
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
{code}
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({{"answer": answer, "seconds": seconds, "kilobytes": peak - before}}))
"""

_ALTERNATION = 'big = "|".join(chr(0x10000 + i) for i in range(60_000))  # 120,000 characters'
# 12 KB of words, classes, counts and groups: the size of pattern that once took 19 s to check.
_TWELVE_KB = (
    'words = "|".join(f"(?:w{i}[-_ ]?\\\\d{{1,4}}(?:\\\\.[a-z]+)*)" for i in range(500))\n'
    'big = f"^(?:{words})(?:,(?:{words}))*$"\n'
    "assert 11_000 < len(big) < 40_000, len(big)"
)

REPRODUCERS = [
    Reproducer(
        r"`^(?:(?:\p{L}?)?){2}$` on `aaa`",
        "",
        'answer = verdict({"pattern": r"^(?:(?:\\p{L}?)?){2}$"}, "aaa")',
        "invalid",
    ),
    Reproducer(
        r"the same, backtracking allowed",
        "",
        'answer = verdict({"pattern": r"^(?:(?:\\p{L}?)?){2}$"}, "aaa", **BACKTRACKING)',
        "invalid",
    ),
    Reproducer(
        "an empty-matching loop in a counted repeat, `(?:(?:a*)*){1000}b`, on 10,000 a's",
        'text = "a" * 10_000',
        'answer = verdict({"pattern": "(?:(?:a*)*){1000}b"}, text)',
        "invalid",
    ),
    Reproducer(
        "the same loop behind a look-behind, backtracking allowed, registered",
        "",
        'answer = registered({"pattern": "(?<=(?:(?:a?)*){3})b"}, **BACKTRACKING)',
        "SchemaError",
    ),
    Reproducer(
        "a 120 KB alternation of 60,000 branches as a `pattern`",
        _ALTERNATION,
        'answer = verdict({"pattern": f"^(?:{big})$"}, chr(0x10000 + 59_999))',
        "valid",
    ),
    Reproducer(
        "the same, backtracking allowed",
        _ALTERNATION,
        'answer = verdict({"pattern": f"^(?:{big})$"}, chr(0x10000 + 60_000), **BACKTRACKING)',
        "invalid",
    ),
    Reproducer(
        "the same as a model's string under `format: regex`",
        _ALTERNATION,
        'answer = verdict({"format": "regex"}, big, assert_formats=True)',
        "valid",
    ),
    Reproducer(
        r"`^(?:\p{L}?\p{L}?,)*$` on 57 characters",
        'text = "a," * 28 + "!"',
        'answer = verdict({"pattern": r"^(?:\\p{L}?\\p{L}?,)*$"}, text)',
        "invalid",
    ),
    Reproducer(
        r"`\p{L}{20000}`, registered", "", 'answer = registered({"pattern": r"\\p{L}{20000}"})', "SchemaError"
    ),
    Reproducer(
        r"`(?:\p{L}?){13}!` on 100,000 letters",
        'text = "a" * 100_000',
        'answer = verdict({"pattern": r"(?:\\p{L}?){13}!"}, text)',
        "invalid",
    ),
    Reproducer(
        "`(?:a{1000}){1000}`, registered",
        "",
        'answer = registered({"pattern": "(?:a{1000}){1000}"})',
        "SchemaError",
    ),
    Reproducer(
        "a 12 KB pattern, registered", _TWELVE_KB, 'answer = registered({"pattern": big})', "registered"
    ),
    Reproducer(
        r"30,000 alternatives of `\p{L}` (180 KB), registered",
        'big = "\\\\p{L}|" * 30_000 + "a"',
        'answer = registered({"pattern": big})',
        "SchemaError",
    ),
    Reproducer(
        "200 nested groups",
        'big = "(" * 200 + "a" + ")" * 200',
        'answer = verdict({"pattern": big}, "bab")',
        "valid",
    ),
    Reproducer(
        "200 nested groups under `format: regex`",
        'big = "(" * 200 + "a" + ")" * 200',
        'answer = verdict({"format": "regex"}, big, assert_formats=True)',
        "valid",
    ),
    Reproducer(
        r"`^[^\uD800-\uDFFF]*$` on a lone surrogate",
        "",
        'answer = verdict({"pattern": r"^[^\\uD800-\\uDFFF]*$"}, "a\\ud800b")',
        "invalid",
    ),
    Reproducer(
        r"`^\P{Cs}*$` on a lone surrogate",
        "",
        'answer = verdict({"pattern": r"^\\P{Cs}*$"}, "a\\udc00")',
        "invalid",
    ),
    Reproducer(
        r"`^\p{Cs}$` on a lone surrogate",
        "",
        'answer = verdict({"pattern": r"^\\p{Cs}$"}, "\\ud800")',
        "valid",
    ),
    Reproducer(
        r"`\B` on `'aé' * 200 + 'a'`",
        'text = "aé" * 200 + "a"',
        'answer = verdict({"pattern": r"\\B"}, text)',
        "invalid",
    ),
    Reproducer(
        r"`(?<!\d)\d{3}-\d{4}(?!\d)`, backtracking allowed, on 1,000,000 digits",
        'text = "1" * 1_000_000',
        'answer = verdict({"pattern": r"(?<!\\d)\\d{3}-\\d{4}(?!\\d)"}, text, **BACKTRACKING)',
        "invalid",
    ),
]


def limit_memory(cap: int = MEMORY_CAP) -> None:
    """For a child process: cap its address space, and write no core file if it dies."""
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def run(reproducer: Reproducer, *, cap: int = MEMORY_CAP, timeout: float = TIMEOUT) -> Outcome:
    """``reproducer`` in a fresh child process under ``cap`` bytes of address space."""
    code = _CHILD.format(
        cap=cap,
        prelude=_PRELUDE,
        setup=textwrap.dedent(reproducer.setup),
        code=textwrap.dedent(reproducer.code),
    )
    try:
        done = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=_ROOT,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return Outcome("", timeout, 0.0, f"no answer within {timeout} s")
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["(nothing on stderr)"])[-1]
        return Outcome("", 0.0, 0.0, f"exit status {done.returncode}: {last}")
    report = json.loads(done.stdout.strip().splitlines()[-1])
    return Outcome(report["answer"], report["seconds"], report["kilobytes"] / 1024, None)


def main() -> None:
    print("| input | answer | time | memory |")
    print("|---|---|---:|---:|")
    for reproducer in REPRODUCERS:
        outcome = run(reproducer)
        answer = outcome.crashed or outcome.answer
        if answer.startswith("SchemaError"):
            answer = "`SchemaError`"
        print(f"| {reproducer.name} | {answer} | {outcome.seconds:.3f} s | {outcome.megabytes:.0f} MB |")


if __name__ == "__main__":
    main()
