"""``python -m bench.guard``: what ``toolreg guard`` adds to each call over stdio.

One upstream server (``tests/mcp_servers/counting_server.py``, which checks nothing) is started twice:
once for a client to call directly, once behind ``toolreg guard``. The SDK's own client calls one valid
tool call on each, interleaved call by call, so drift on the machine falls on both alike. The goal: the
guard adds at most 1 ms to a call at the median (the median of the paired differences). Where the
system says (Linux's /proc), the guard process's own processor time per call is reported too: wall
times move with whatever else the machine runs, processor time much less.
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

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client

ROOT = Path(__file__).resolve().parent.parent
GOAL_MS = 1.0
CALL = ("weather.forecast", {"city": "Oslo", "days": 3, "units": "metric"})
PROC = Path("/proc")


def _children() -> set[int]:
    """The processes this one started that are running, where /proc says (else none)."""
    found = set()
    for entry in PROC.glob("[0-9]*/stat") if PROC.is_dir() else ():
        try:
            fields = entry.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):  # ended meanwhile
            continue
        if int(fields[1]) == os.getpid():
            found.add(int(entry.parent.name))
    return found


def _processor_seconds(pid: int | None) -> float | None:
    """The user and system time of process ``pid`` so far, all its threads, or None where unknown."""
    if pid is None:
        return None
    try:
        fields = (PROC / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


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


async def measure(calls: int) -> tuple[dict[str, list[float]], float | None]:
    """Round trips in seconds, direct and guarded, ``calls`` of each after a warm-up, interleaved; and
    the guard process's processor seconds over them (None where the system does not say)."""
    with tempfile.TemporaryDirectory() as folder:
        upstream = [sys.executable, "-m", "tests.mcp_servers.counting_server", os.path.join(folder, "c")]
        async with AsyncExitStack() as stack:
            direct = await _session(stack, upstream)
            before = _children()
            guarded = await _session(stack, [sys.executable, "-m", "toolreg", "guard", "--", *upstream])
            started = _children() - before
            guard = started.pop() if len(started) == 1 else None
            for _ in range(50):
                await _timed(direct)
                await _timed(guarded)
            times: dict[str, list[float]] = {"direct": [], "guarded": []}
            spent = _processor_seconds(guard)
            for number in range(calls):
                order = ("direct", "guarded") if number % 2 else ("guarded", "direct")
                for name in order:
                    times[name].append(await _timed(direct if name == "direct" else guarded))
            now = _processor_seconds(guard)
            return times, (now - spent if now is not None and spent is not None else None)


def report(
    times: dict[str, list[float]], guard_seconds: float | None = None, load: float | None = None
) -> str:
    """The figures as a Markdown table, and the goal's verdict; ``load`` is the load average the run
    began at, ``guard_seconds`` the guard process's processor time over the calls."""
    added = [guarded - direct for direct, guarded in zip(times["direct"], times["guarded"], strict=True)]
    median_added = statistics.median(added) * 1000
    began = "" if load is None else f"{load:.2f} at the start, "
    lines = [
        "# toolreg guard: added latency per call (stdio)",
        "",
        f"{len(added)} calls of each, interleaved; Python {platform.python_version()}, "
        f"{os.cpu_count()} CPUs, load average {began}{os.getloadavg()[0]:.2f} at the end.",
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
    if guard_seconds is not None:
        lines += [
            "",
            f"Processor time of the guard process (user and system, all its threads; not its upstream's): "
            f"{guard_seconds / len(added) * 1e6:.0f} µs a call.",
        ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.guard", description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=1000, help="calls of each path (default 1000)")
    options = parser.parse_args(argv)
    load = os.getloadavg()[0]
    times, guard_seconds = anyio.run(measure, options.calls)
    print(report(times, guard_seconds, load))
    return 0


if __name__ == "__main__":
    sys.exit(main())
