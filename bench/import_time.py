"""``python -m bench.import_time``: what ``import toolreg`` costs, against fastjsonschema and jsonschema-rs.

Every CLI run, MCP server start and ``toolreg replay`` pays it. Each import runs in a fresh
interpreter that times the ``import`` statement alone (its start-up is the same for all), with the
bytecode of every module cached as an installed package's is (``-E`` sets aside a
``PYTHONDONTWRITEBYTECODE`` in the environment; the cache goes to a directory of its own, made warm
by one import of each before timing). The imports take turns, in rotating order, so drift on the
machine falls on all alike; the best of the rounds stands for each, in CPU time, which a busy
machine's other work does not lengthen as it does the clock's (both are shown). The goal: ``import
toolreg`` at most 1.7 times fastjsonschema's import in the same run. ``from toolreg import
ToolRegistry`` is shown beside it, for the registry's first use.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOOLREG = "import toolreg"
PEER = "import fastjsonschema"
STATEMENTS = (TOOLREG, "from toolreg import ToolRegistry", PEER, "import jsonschema_rs")
BOUND = 1.7

# Times the statement in the child, wall clock and CPU, and counts the modules it brought in.
_CHILD = (
    "import sys, time\n"
    "before = len(sys.modules)\n"
    "wall, cpu = time.perf_counter(), time.process_time()\n"
    "{statement}\n"
    "print(time.perf_counter() - wall, time.process_time() - cpu, len(sys.modules) - before)\n"
)


def _timed(statement: str, cache: str) -> tuple[float, float, int]:
    """Milliseconds of wall clock and of CPU that ``statement`` took in a fresh interpreter, and how
    many modules it imported."""
    done = subprocess.run(
        [sys.executable, "-E", "-X", f"pycache_prefix={cache}", "-c", _CHILD.format(statement=statement)],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    wall, cpu, modules = done.stdout.split()
    return float(wall) * 1000, float(cpu) * 1000, int(modules)


def measure(rounds: int) -> dict[str, dict[str, float]]:
    """Each statement's best and median milliseconds over ``rounds`` interleaved rounds."""
    walls: dict[str, list[float]] = {statement: [] for statement in STATEMENTS}
    cpus: dict[str, list[float]] = {statement: [] for statement in STATEMENTS}
    modules: dict[str, int] = {}
    with tempfile.TemporaryDirectory(prefix="toolreg-bench-pyc-") as cache:
        for statement in STATEMENTS:
            _timed(statement, cache)  # writes the bytecode
        for number in range(rounds):
            shift = number % len(STATEMENTS)
            for statement in STATEMENTS[shift:] + STATEMENTS[:shift]:
                wall, cpu, modules[statement] = _timed(statement, cache)
                walls[statement].append(wall)
                cpus[statement].append(cpu)
    return {
        statement: {
            "best": min(walls[statement]),
            "median": statistics.median(walls[statement]),
            "best_cpu": min(cpus[statement]),
            "modules": modules[statement],
        }
        for statement in STATEMENTS
    }


def markdown(results: dict[str, dict[str, float]], rounds: int) -> str:
    peer = results[PEER]
    lines = [
        f"Measured {date.today().isoformat()}: each statement in a fresh interpreter, {rounds} interleaved "
        f"rounds; CPython {platform.python_version()}, {os.cpu_count()} cores, load average "
        f"{os.getloadavg()[0]:.1f} at the end.",
        "",
        "| statement | best CPU ms | best ms | median ms | modules imported | ÷ fastjsonschema (CPU) |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for statement, row in results.items():
        lines.append(
            f"| `{statement}` | {row['best_cpu']:.1f} | {row['best']:.1f} | {row['median']:.1f} "
            f"| {row['modules']:.0f} | {row['best_cpu'] / peer['best_cpu']:.2f} |"
        )
    ratio = results[TOOLREG]["best_cpu"] / peer["best_cpu"]
    wall_ratio = results[TOOLREG]["best"] / peer["best"]
    met = "met" if ratio <= BOUND else "not met"
    lines += [
        "",
        f"Goal, `import toolreg` at most {BOUND} times `import fastjsonschema` in the same run: **{met}**, "
        f"{ratio:.2f} times in CPU time ({wall_ratio:.2f} by the clock).",
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.import_time", description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15, help="rounds of fresh interpreters (15)")
    options = parser.parse_args(argv)
    print(markdown(measure(max(1, options.rounds)), max(1, options.rounds)), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
