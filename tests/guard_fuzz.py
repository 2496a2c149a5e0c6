"""``python -m tests.guard_fuzz [--patterns N] [--seed S]``: attack the backtracking guard.

Random patterns built to sit near the guard's limits (nested counts, alternatives, optional runs,
look-arounds, back-references, empty-matching parts, properties) are compiled with backtracking
allowed; each one the guard lets through runs on regress over strings built to make it backtrack,
inside child processes under a memory cap and a time limit. A child that dies or stalls names the
last pattern it began. The run reports how many patterns passed the guard and the most time one
took for each character of the string, against the steps the guard allowed.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
CHUNK = 2_000  # patterns for one child
TEXT_LENGTH = 20_000

ATOMS = [
    "a", "b", "é", "😀", ".", "\\d", "\\w", "\\W", "\\s", "\\S", "[ab]", "[^a]", "[]", "[^]", "\\p{L}",
    "\\P{L}", "\\p{Lu}", "\\p{Any}", "\\p{Alphabetic}", "\\p{sc=Greek}", "\\p{scx=Latn}", "\\-", "x",
]  # fmt: skip
ZERO_WIDTH = ["^", "$", "\\b", "\\B"]
# Mostly with a most, which the guard needs; a few without, which it must refuse.
QUANTIFIERS = [
    "",
    "",
    "",
    "",
    "?",
    "??",
    "{2}",
    "{0,3}",
    "{1,4}",
    "{3,7}",
    "{0,12}",
    "{20}",
    "{0,40}",
] * 3 + ["*", "+"]


def pattern(rng: random.Random, depth: int = 0, groups: list[bool] | None = None) -> str:
    """A random pattern; ``groups`` holds the numbers of the capturing groups, and whether each is
    closed (a back-reference names a closed one)."""
    groups: list[bool] = [] if groups is None else groups
    terms = []
    for _ in range(rng.randint(1, 4)):
        roll = rng.random()
        closed = [number for number, done in enumerate(groups, 1) if done]
        if depth < 3 and roll < 0.25:
            opener = rng.choice(["(", "(?:", "(?:"])
            if opener == "(":
                groups.append(False)
                number = len(groups)
            atom = opener + pattern(rng, depth + 1, groups) + ")"
            if opener == "(":
                groups[number - 1] = True
        elif depth < 3 and roll < 0.45:
            atom = rng.choice(["(?=", "(?!", "(?<=", "(?<!"]) + pattern(rng, depth + 1, groups) + ")"
            terms.append(atom)
            continue
        elif roll < 0.47 and closed:
            atom = f"\\{rng.choice(closed)}"
        elif roll < 0.52:
            terms.append(rng.choice(ZERO_WIDTH))
            continue
        else:
            atom = rng.choice(ATOMS)
        terms.append(atom + rng.choice(QUANTIFIERS))
    joined = "".join(terms)
    if rng.random() < 0.3:
        joined += "|" + pattern(rng, depth + 1, groups)
    if depth == 0 and rng.random() < 0.03:
        joined = "|".join([joined] * rng.randint(2, 60))
    return joined


def texts(rng: random.Random, source: str) -> list[str]:
    """Strings that make a backtracking engine work: the pattern's own characters, repeated, with a
    character it may not expect at the end, and lone surrogates."""
    alphabet = [char for char in source if char.isalnum()] or ["a"]
    alphabet += ["a", "b", " ", "é", "😀", "\ud800", "Ω"]
    runs = []
    for _ in range(3):
        unit = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 4)))
        runs.append((unit * (TEXT_LENGTH // len(unit) + 1))[:TEXT_LENGTH] + rng.choice(["!", "", "\udc00"]))
    return runs


def child(seed: int, count: int) -> None:
    """Runs in a child process: prints a line as it begins each pattern, then a summary."""
    from toolreg._jsonschema import regex

    rng = random.Random(seed)
    accepted = refused = 0
    worst = 0.0  # seconds per character
    worst_pattern = ""
    worst_step = 0.0  # seconds per character for each step the guard counted
    for _ in range(count):
        source = pattern(rng)
        print(json.dumps({"begin": source}), flush=True)
        try:
            compiled = regex.Pattern(source)
        except (regex.RegexSyntaxError, regex.UnsupportedPattern):
            refused += 1
            continue
        if compiled.backtracking is None:
            continue
        accepted += 1
        steps = regex.steps_at_each_place(source)
        for text in texts(rng, source):
            start = time.perf_counter()
            compiled.search(text)
            spent = (time.perf_counter() - start) / len(text)
            if spent > worst:
                worst, worst_pattern = spent, source
            worst_step = max(worst_step, spent / steps)
    summary = {"accepted": accepted, "refused": refused, "worst": worst, "worst_pattern": worst_pattern}
    print(json.dumps({**summary, "worst_step": worst_step}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--patterns", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--start", type=int, default=0, help="the first pattern, to run again a part of a run"
    )
    parser.add_argument(
        "--timeout", type=float, default=600.0, help="seconds for each child of 2,000 patterns"
    )
    options = parser.parse_args()
    totals = {"accepted": 0, "refused": 0, "crashes": 0}
    worst, worst_pattern, worst_step = 0.0, "", 0.0
    for chunk in range(options.start, options.patterns, CHUNK):
        seed = options.seed * 1_000_003 + chunk
        code = (
            "from bench.hostile_patterns import limit_memory; limit_memory(); "
            f"from tests.guard_fuzz import child; child({seed}, {min(CHUNK, options.patterns - chunk)})"
        )
        try:
            done = subprocess.run(
                [sys.executable, "-c", code],
                capture_output=True,
                text=True,
                timeout=options.timeout,
                cwd=_ROOT,
                check=False,
            )
            output, status, errors = done.stdout, done.returncode, done.stderr
        except subprocess.TimeoutExpired as expired:
            raw = expired.stdout or b""
            output, status, errors = raw.decode() if isinstance(raw, bytes) else raw, "timeout", ""
        lines = [json.loads(line) for line in output.splitlines() if line.startswith("{")]
        if status != 0 or not lines or "accepted" not in lines[-1]:
            totals["crashes"] += 1
            began = [line["begin"] for line in lines if "begin" in line]
            last = (errors.strip().splitlines() or [""])[-1]
            print(f"CHILD FAILED ({status}: {last}) in pattern {began[-1] if began else None!r}", flush=True)
            continue
        summary = lines[-1]
        totals["accepted"] += summary["accepted"]
        totals["refused"] += summary["refused"]
        if summary["worst"] > worst:
            worst, worst_pattern = summary["worst"], summary["worst_pattern"]
        worst_step = max(worst_step, summary["worst_step"])
        print(
            f"{chunk + CHUNK} patterns: {totals}, worst {worst * 1e9:.0f} ns a character, "
            f"{worst_step * 1e9:.1f} ns a character for each step allowed",
            flush=True,
        )
    print(f"worst pattern: {worst_pattern!r}")


if __name__ == "__main__":
    main()
