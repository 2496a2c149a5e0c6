"""``python -m bench.yes_no``: toolreg's yes/no answers against jsonschema-rs's ``is_valid``, in one run.

It needs only toolreg and jsonschema-rs (both in the test environment). Every implementation of a
workload runs in the same rounds, in rotating order, and each row's ratio is to jsonschema-rs's
``is_valid`` in the same run: ratios decide, never absolute times.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import jsonschema_rs

import toolreg

from .workloads import LARGE, NESTED, SMALL

PEER = "jsonschema-rs is_valid"


def _handler(**arguments: Any) -> Any:
    return arguments


def _calls(schema: Any) -> dict[str, Callable[[Any], Any]]:
    registry = toolreg.ToolRegistry()
    registry.register("bench.tool", schema, _handler)
    validator = toolreg.compile(schema).prepare()
    return {
        "toolreg Validator.is_valid": validator.is_valid,
        "toolreg ToolRegistry.is_valid": lambda instance: registry.is_valid("bench.tool", instance),
        "toolreg Validator.validate": validator.validate,
        PEER: jsonschema_rs.Draft202012Validator(schema).is_valid,
    }


def _batch(call: Callable[[Any], Any], instance: Any, repeat: int) -> float:
    gc.disable()
    try:
        started = time.perf_counter_ns()
        for _ in range(repeat):
            call(instance)
        return (time.perf_counter_ns() - started) / repeat / 1000
    finally:
        gc.enable()


def median_microseconds(
    calls: dict[str, Callable[[Any], Any]], instance: Any, rounds: int
) -> dict[str, float]:
    """Each call's median µs over ``rounds`` batches of about 10 ms, the calls in rotating order."""
    for call in calls.values():
        for _ in range(1000):  # past the reference walk's first calls, and warm
            call(instance)
    repeats = {
        name: max(1, int(10_000 / max(_batch(call, instance, 5), 0.01))) for name, call in calls.items()
    }
    samples: dict[str, list[float]] = {name: [] for name in calls}
    names = list(calls)
    for number in range(rounds):
        for name in names[number % len(names) :] + names[: number % len(names)]:
            samples[name].append(_batch(calls[name], instance, repeats[name]))
    return {name: statistics.median(values) for name, values in samples.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.yes_no", description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    options = parser.parse_args(argv)
    workloads = {
        "small_invalid": (SMALL["schema"], SMALL["invalid"]),
        "small_valid": (SMALL["schema"], SMALL["valid"]),
        "nested_valid": (NESTED["schema"], NESTED["valid"]),
        "large_invalid": (LARGE["schema"], LARGE["invalid"]),
        "large_valid": (LARGE["schema"], LARGE["valid"]),
    }
    print("| workload | implementation | median µs | ÷ jsonschema-rs is_valid |")
    print("|---|---|---:|---:|")
    for workload, (schema, instance) in workloads.items():
        calls = _calls(schema)
        verdicts = {
            name: not call(instance) if "validate" in name else call(instance) for name, call in calls.items()
        }
        if len(set(verdicts.values())) != 1:
            print(f"{workload}: the answers differ: {verdicts}", file=sys.stderr)
            return 1
        medians = median_microseconds(calls, instance, options.rounds)
        for name, median in medians.items():
            print(f"| {workload} | {name} | {median:,.2f} | {median / medians[PEER]:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
