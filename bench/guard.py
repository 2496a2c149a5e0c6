"""``python -m bench.guard``: what ``toolreg guard`` adds to each call over stdio.

One upstream server (``tests/mcp_servers/counting_server.py``, which checks nothing) is started twice:
once for a client to call directly, once behind ``toolreg guard``. The SDK's own client calls one valid
tool call on each, interleaved call by call, so drift on the machine falls on both alike. The goal: the
guard adds at most 1 ms to a call at the median (the median of the paired differences).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client

ROOT = Path(__file__).resolve().parent.parent
GOAL_MS = 1.0
CALL = ("weather.forecast", {"city": "Oslo", "days": 3, "units": "metric"})


async def _session(stack: AsyncExitStack, command: list[str]) -> ClientSession:
    params = StdioServerParameters(command=command[0], args=command[1:], cwd=ROOT)
    read, write = await stack.enter_async_context(stdio_client(params))
    session = await stack.enter_async_context(ClientSession(read, write))
    await session.initialize()
    await session.list_tools()
    return session


async def _timed(session: ClientSession) -> float:
    start = time.perf_counter()
    result = await session.call_tool(*CALL)
    elapsed = time.perf_counter() - start
    if result.is_error:
        raise RuntimeError(f"the call failed: {result.content}")
    return elapsed


async def measure(calls: int) -> dict[str, list[float]]:
    """Round trips in seconds, direct and guarded, ``calls`` of each after a warm-up, interleaved."""
    with tempfile.TemporaryDirectory() as folder:
        upstream = [sys.executable, "-m", "tests.mcp_servers.counting_server", os.path.join(folder, "c")]
        async with AsyncExitStack() as stack:
            direct = await _session(stack, upstream)
            guarded = await _session(stack, [sys.executable, "-m", "toolreg", "guard", "--", *upstream])
            for _ in range(50):
                await _timed(direct)
                await _timed(guarded)
            times: dict[str, list[float]] = {"direct": [], "guarded": []}
            for number in range(calls):
                order = ("direct", "guarded") if number % 2 else ("guarded", "direct")
                for name in order:
                    times[name].append(await _timed(direct if name == "direct" else guarded))
            return times


def report(times: dict[str, list[float]]) -> str:
    """The figures as a Markdown table, and the goal's verdict."""
    added = [guarded - direct for direct, guarded in zip(times["direct"], times["guarded"], strict=True)]
    median_added = statistics.median(added) * 1000
    lines = [
        "# toolreg guard: added latency per call (stdio)",
        "",
        f"{len(added)} calls of each, interleaved; Python {platform.python_version()}, "
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}.",
        "",
        "| path | median ms | p90 ms |",
        "|---|---|---|",
    ]
    for name, samples in times.items():
        p90 = statistics.quantiles(samples, n=10)[-1]
        lines.append(f"| {name} | {statistics.median(samples) * 1000:.3f} | {p90 * 1000:.3f} |")
    verdict = "met" if median_added <= GOAL_MS else "NOT met"
    lines += ["", f"Added by the guard, median of paired differences: {median_added:.3f} ms "
              f"(goal at most {GOAL_MS:g} ms: {verdict})."]  # fmt: skip
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.guard", description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=1000, help="calls of each path (default 1000)")
    options = parser.parse_args(argv)
    times: dict[str, Any] = anyio.run(measure, options.calls)
    print(report(times))
    return 0


if __name__ == "__main__":
    sys.exit(main())
