"""``python -m bench.replay``: how fast ``toolreg replay`` reads and judges logged tool calls.

The logs are built from the Berkeley Function Calling Leaderboard's questions (the installed
``bfcl-eval`` package, see ``bench/bfcl_extract.py``, or ``--data DIR``): a catalog of its first 860
distinct functions, and its gold calls to them, one in ten broken as models break calls (a number
sent as a string, a required name left out, a value outside an enum, JSON text where the object
belongs, truncated text, a tool that does not exist). Two goals:

- reading and judging a 30,000-call log, in the process: at least 20,000 calls a second;
- the whole ``toolreg replay LOG --catalog C`` command on a 3,000-call log over the 860-tool catalog,
  as a child process (its start included): within 1 second.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import toolreg

from .bfcl_extract import catalog, data_dir, questions

CATALOG_SIZE = 860
BIG, SMALL = 30_000, 3_000


def _broken(arguments: dict[str, Any], schema: dict[str, Any], number: int) -> tuple[str, Any]:
    """The arguments as JSON text, broken in one of six ways for one call in ten."""
    properties = schema.get("properties", {})
    way = number // 10 % 6 if number % 10 == 9 else -1
    if way == 0:
        for key, value in arguments.items():
            if properties.get(key, {}).get("type") in ("integer", "number") and type(value) in (int, float):
                return "call", json.dumps({**arguments, key: str(value)})
    if way == 1:
        for key in schema.get("required", ()):
            if key in arguments:
                return "call", json.dumps({name: value for name, value in arguments.items() if name != key})
    if way == 2:
        for key in arguments:
            if "enum" in properties.get(key, {}):
                return "call", json.dumps({**arguments, key: "none of these"})
    if way == 3:
        return "call", json.dumps(json.dumps(arguments))
    if way == 4:
        return "call", json.dumps(arguments)[:-1]
    if way == 5:
        return "unknown", json.dumps(arguments)
    return "call", json.dumps(arguments)


def build(data: Path, calls: int, folder: Path) -> tuple[Path, Path]:
    """A log of ``calls`` OpenAI Chat Completions responses (each with one tool call, each answered by
    a tool message) and the 860-tool catalog, written in ``folder``."""
    found = questions(data)
    tools = catalog(found, CATALOG_SIZE)
    schemas = {tool["name"]: tool["inputSchema"] for tool in tools}
    gold = [call for question in found for call in question["calls"] if call["name"] in schemas]
    lines = []
    for number in range(calls):
        call = gold[number % len(gold)]
        kind, text = _broken(call["arguments"], schemas[call["name"]], number)
        name = call["name"].replace(".", "-") if kind == "call" else "no_such_tool"
        tool_call = {
            "id": f"call_{number}",
            "type": "function",
            "function": {"name": name, "arguments": text},
        }
        message = {"role": "assistant", "content": None, "tool_calls": [tool_call]}
        lines.append(
            json.dumps(
                {
                    "id": f"chatcmpl-{number}",
                    "object": "chat.completion",
                    "choices": [{"index": 0, "message": message}],
                }
            )
        )
        lines.append(json.dumps({"role": "tool", "tool_call_id": f"call_{number}", "content": "done"}))
    log = folder / f"log-{calls}.jsonl"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    path = folder / "catalog.json"
    path.write_text(json.dumps({"tools": tools}), encoding="utf-8")
    return log, path


def _timed(run: Callable[[], Any], rounds: int) -> tuple[list[float], list[float]]:
    """Seconds of each round, on the clock and of CPU (this process's and its children's): on a
    machine others share, the CPU time is the steadier figure."""
    clock, cpu = [], []
    for _ in range(rounds):
        started, used = time.perf_counter(), _cpu()
        run()
        clock.append(time.perf_counter() - started)
        cpu.append(_cpu() - used)
    return clock, cpu


def _cpu() -> float:
    mine, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return mine.ru_utime + mine.ru_stime + children.ru_utime + children.ru_stime


def _met(yes: bool) -> str:
    return "yes" if yes else "no"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.replay", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--data", type=Path, help="bfcl_eval's data folder (default: the installed package's)"
    )
    parser.add_argument("--rounds", type=int, default=5)
    options = parser.parse_args(argv)
    data = data_dir(options.data)
    if data is None:
        print("bfcl-eval is not installed: pip install --no-deps bfcl-eval==2026.3.23", file=sys.stderr)
        return 2
    load = ", ".join(f"{figure:.2f}" for figure in os.getloadavg())
    with tempfile.TemporaryDirectory() as folder:
        big, catalog_path = build(data, BIG, Path(folder))
        small, _ = build(data, SMALL, Path(folder))
        report = toolreg.replay(big, catalog=catalog_path)
        in_process = _timed(lambda: toolreg.replay(big, catalog=catalog_path), options.rounds)
        command = [sys.executable, "-m", "toolreg", "replay", str(small), "--catalog", str(catalog_path)]
        environment = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
        child = _timed(
            lambda: subprocess.run(command, check=True, capture_output=True, env=environment), options.rounds
        )
    clock_rates = [report.calls / sample for sample in in_process[0]]
    cpu_rates = [report.calls / sample for sample in in_process[1]]
    print(f"Load average before the run: {load}; {options.rounds} rounds each.")
    print()
    print("| workload | clock: median (min, max) | CPU: median (min, max) | goal | met (clock, CPU) |")
    print("|---|---:|---:|---:|---|")
    rate, cpu_rate = statistics.median(clock_rates), statistics.median(cpu_rates)
    print(
        f"| replay reads and judges {BIG:,} calls (in the process) | {rate:,.0f} calls/s "
        f"({min(clock_rates):,.0f}, {max(clock_rates):,.0f}) | {cpu_rate:,.0f} calls/s "
        f"({min(cpu_rates):,.0f}, {max(cpu_rates):,.0f}) | ≥ 20,000 calls/s "
        f"| {_met(rate >= 20_000)}, {_met(cpu_rate >= 20_000)} |"
    )
    whole, whole_cpu = statistics.median(child[0]), statistics.median(child[1])
    print(
        f"| `toolreg replay` on {SMALL:,} calls over {CATALOG_SIZE} tools (a child process) | {whole:.2f} s "
        f"({min(child[0]):.2f}, {max(child[0]):.2f}) | {whole_cpu:.2f} s ({min(child[1]):.2f}, "
        f"{max(child[1]):.2f}) | ≤ 1 s | {_met(whole <= 1)}, {_met(whole_cpu <= 1)} |"
    )
    print()
    print(
        f"The {BIG:,}-call log: {report.valid:,} valid, {report.invalid:,} invalid, {report.malformed:,} "
        f"malformed, {report.unknown_tools:,} to unknown tools, each call answered on a line of its own; "
        f"Python {sys.version.split()[0]}, {os.cpu_count()} cores."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
