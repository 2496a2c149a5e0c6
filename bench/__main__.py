"""``python -m bench [--quick] [--out DIR]``: toolreg against its peers, interleaved in one process.

Ratios decide, never absolute times: every implementation of a workload runs in the same rounds,
in rotating order, so drift on the machine falls on all of them alike; each goal is the median over
the rounds of its two rows' ratio (or difference) in the same round.
"""

from __future__ import annotations

import argparse
import gc
import json
import operator
import os
import platform
import re
import statistics
import sys
import time
from collections.abc import Callable
from datetime import date
from importlib.metadata import version
from pathlib import Path
from typing import Any

import corvus_json_schema
import fastjsonschema
import jsonschema
import jsonschema_rs

import toolreg

from .workloads import (
    LARGE,
    NESTED,
    SMALL,
    catalog,
    catalog_versions,
    handwritten_large,
    handwritten_nested,
    handwritten_small,
)

Call = Callable[[Any], Any]
Pair = Callable[[float, float], float]
TOOLREG = "toolreg Validator.validate"
# The same call as a caller writes it, validator.validate(x), in a lambda as the registry's row is:
# the two differ by what the registry itself adds.
TOOLREG_AS_WRITTEN = "toolreg validator.validate(x) in a lambda"
TOOLREG_IS_VALID = "toolreg Validator.is_valid"
REGISTRY = "toolreg registry.validate"
CORVUS = "corvus-json-schema (bool)"
DIFF = "toolreg.diff (no search)"
# The goal for comparing two versions of a 200-tool catalog: at most 2 s.
DIFF_BOUND_US = 2_000_000


def _handler(**arguments: Any) -> Any:
    return arguments


def _fastjsonschema(schema: Any) -> Call:
    check = fastjsonschema.compile(schema)

    def validate(instance: Any) -> Any:
        try:
            return check(instance)
        except fastjsonschema.JsonSchemaValueException as error:
            return [error]

    return validate


def _corvus_collecting(schema: Any) -> Call:
    """corvus-json-schema's evaluation with its cheapest results collector (failures, without messages):
    what it offers nearest to returning every error."""
    check = corvus_json_schema.compile(schema)

    def evaluate(instance: Any) -> bool:
        collector = corvus_json_schema.JsonSchemaResultsCollector(corvus_json_schema.ResultsLevel.BASIC)
        return check.evaluate(instance, collector)

    return evaluate


def implementations(schema: Any, handwritten: Call | None) -> dict[str, Call]:
    """Every implementation, built for ``schema``; each returns its errors, a bool or a value."""
    registry = toolreg.ToolRegistry()
    registry.register("bench.tool", schema, _handler)
    # Generated now, as it is once its calls have held a few hundred values: its validate is then the
    # generated code itself, which a caller's validator.validate(x) finds (see Validator).
    compiled = toolreg.compile(schema).prepare()
    reference = jsonschema.Draft202012Validator(schema)
    rust = jsonschema_rs.Draft202012Validator(schema)
    found: dict[str, Call] = {
        REGISTRY: lambda instance: registry.validate("bench.tool", instance),
        TOOLREG: compiled.validate,
        TOOLREG_AS_WRITTEN: lambda instance: compiled.validate(instance),
        TOOLREG_IS_VALID: compiled.is_valid,
        CORVUS: corvus_json_schema.compile(schema),
        "corvus-json-schema evaluate (BASIC collector)": _corvus_collecting(schema),
        "jsonschema iter_errors": lambda instance: list(reference.iter_errors(instance)),
        "jsonschema is_valid": reference.is_valid,
        "fastjsonschema (first error)": _fastjsonschema(schema),
        "jsonschema-rs iter_errors": lambda instance: list(rust.iter_errors(instance)),
        "jsonschema-rs is_valid": rust.is_valid,
    }
    if handwritten is not None:
        found["hand-written floor"] = handwritten
    found["no-op floor"] = lambda instance: None
    return found


def _verdict(result: Any) -> tuple[bool, int | None]:
    """(valid, how many errors if it reports them all) for any implementation's answer."""
    if isinstance(result, bool):
        return result, None
    if result is None or isinstance(result, dict):
        return True, 0
    return not result, len(result)


def _batch(call: Call, instance: Any, repeat: int) -> float:
    gc.disable()
    try:
        started = time.perf_counter_ns()
        for _ in range(repeat):
            call(instance)
        return (time.perf_counter_ns() - started) / repeat / 1000
    finally:
        gc.enable()


def time_calls(calls: dict[str, Call], instance: Any, rounds: int, batch_ms: float) -> dict[str, list[float]]:
    """Microseconds per call, one sample per round for each implementation, in rotating order."""
    repeats = {}
    for name, call in calls.items():
        # Batches are sized from a warm call: the registry answers its first calls from the schema as
        # written and generates code after about a hundred, so sizing from its first (cold) call made
        # its batches a call or two long, timed with the clock's own cost in each.
        once = _batch(call, instance, 1)
        if once < 1000:
            once = _batch(call, instance, min(1000, int(50_000 / max(once, 0.01))))
        repeats[name] = max(1, int(batch_ms * 1000 / max(once, 0.01)))
    samples: dict[str, list[float]] = {name: [] for name in calls}
    names = list(calls)
    for number in range(rounds):
        order = names[number % len(names) :] + names[: number % len(names)]
        for name in order:
            # Implementations slower than a second per call get a few rounds only.
            if len(samples[name]) >= 3 and samples[name][0] > 1_000_000:
                continue
            samples[name].append(_batch(calls[name], instance, repeats[name]))
    return samples


def time_catalog(rounds: int) -> dict[str, list[float]]:
    """Microseconds to build validators for 200 distinct tools, and to build and validate each once."""
    tools = catalog()

    def toolreg_build(first_call: bool) -> None:
        registry = toolreg.ToolRegistry()
        for name, schema, _ in tools:
            registry.register(name, schema, _handler)
        if first_call:
            for name, _, call in tools:
                registry.validate(name, call)

    def toolreg_first_tool() -> None:
        registry = toolreg.ToolRegistry()
        for name, schema, _ in tools:
            registry.register(name, schema, _handler)
        registry.validate(tools[0][0], tools[0][2])

    builders: dict[str, Callable[[], None]] = {
        "toolreg register (with schema check)": lambda: toolreg_build(False),
        "toolreg register, first tool validated": toolreg_first_tool,
        "toolreg register + every tool validated once": lambda: toolreg_build(True),
        "jsonschema build": lambda: [jsonschema.Draft202012Validator(s) for _, s, _ in tools] and None,
        "jsonschema build + check_schema": lambda: (
            [
                jsonschema.Draft202012Validator.check_schema(s) or jsonschema.Draft202012Validator(s)
                for _, s, _ in tools
            ]
            and None
        ),
        "fastjsonschema compile": lambda: [fastjsonschema.compile(s) for _, s, _ in tools] and None,
        "jsonschema-rs build": lambda: [jsonschema_rs.Draft202012Validator(s) for _, s, _ in tools] and None,
        "jsonschema-rs build + every tool validated once": lambda: (
            [list(jsonschema_rs.Draft202012Validator(s).iter_errors(call)) for _, s, call in tools] and None
        ),
        "corvus-json-schema compile": lambda: [corvus_json_schema.compile(s) for _, s, _ in tools] and None,
        "corvus-json-schema compile + every tool validated once": lambda: (
            [corvus_json_schema.compile(s)(call) for _, s, call in tools] and None
        ),
    }
    samples: dict[str, list[float]] = {name: [] for name in builders}
    names = list(builders)
    for number in range(rounds):
        for name in names[number % len(names) :] + names[: number % len(names)]:
            re.purge()
            gc.collect()  # so that no builder pays for the garbage of the one before it
            started = time.perf_counter_ns()
            builders[name]()
            samples[name].append((time.perf_counter_ns() - started) / 1000)
    return samples


def time_diff(old: list[dict[str, Any]], new: list[dict[str, Any]], rounds: int) -> dict[str, list[float]]:
    """Microseconds to compare two versions of a 200-tool catalog (``toolreg diff`` without search)."""
    samples: list[float] = []
    for _ in range(rounds):
        gc.collect()
        started = time.perf_counter_ns()
        toolreg.diff(old, new)
        samples.append((time.perf_counter_ns() - started) / 1000)
    return {DIFF: samples}


def summarise(samples: dict[str, list[float]]) -> dict[str, dict[str, Any]]:
    return {
        name: {
            "median": statistics.median(values),
            "min": min(values),
            "max": max(values),
            "rounds": len(values),
            "samples": values,
        }
        for name, values in samples.items()
    }


def _machine() -> dict[str, Any]:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "system": f"{platform.system()} {platform.machine()}",
        "cpu": cpu,
        "cores": os.cpu_count(),
    }


def _versions() -> dict[str, str]:
    packages = ("jsonschema", "fastjsonschema", "jsonschema-rs", "corvus-json-schema", "regress")
    return {"toolreg": toolreg.__version__} | {package: version(package) for package in packages}


# Each goal: workload, toolreg's row, the peer's row, the bound on toolreg / peer. The project's goals
# for errors as data: three errors at 0.4x jsonschema-rs, 10,000 rows at 1.2x the floor, a catalog
# registered at 2x jsonschema-rs. Then those of a standard implementation: a small invalid is_valid
# within 2x of jsonschema-rs's, valid calls at least as fast as corvus-json-schema on every workload,
# a catalog registered and called once within 2x of jsonschema-rs (it was 4x).
GOALS = (
    ("small_valid", TOOLREG, "fastjsonschema (first error)", 0.7),
    ("small_valid", TOOLREG, "hand-written floor", 2.0),
    ("small_invalid", TOOLREG, "jsonschema-rs iter_errors", 0.4),
    ("nested_valid", TOOLREG, "fastjsonschema (first error)", 0.5),
    ("large_valid", TOOLREG, "hand-written floor", 1.2),
    ("large_invalid", TOOLREG, "hand-written floor", 1.2),
    ("catalog", "toolreg register (with schema check)", "jsonschema-rs build", 2.0),
    ("small_invalid", TOOLREG_IS_VALID, "jsonschema-rs is_valid", 2.0),
    ("small_valid", TOOLREG, CORVUS, 1.0),
    ("nested_valid", TOOLREG, CORVUS, 1.0),
    ("large_valid", TOOLREG, CORVUS, 1.0),
    (
        "catalog",
        "toolreg register + every tool validated once",
        "jsonschema-rs build + every tool validated once",
        2.0,
    ),
)


def paired(results: dict[str, dict[str, Any]], workload: str, ours: str, peer: str, combine: Pair) -> float:
    """The median over the rounds of ``combine(ours, peer)``, the two timed in the same round: the
    machine's speed drifts between rounds (by half within minutes on some), and a pair taken close
    together drifts together, where the medians of the two rows, each over every round, do not."""
    mine, theirs = results[workload][ours]["samples"], results[workload][peer]["samples"]
    return statistics.median(combine(a, b) for a, b in zip(mine, theirs, strict=True))


def goals(results: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    reached = []
    for workload, ours, peer, bound in GOALS:
        ratio = paired(results, workload, ours, peer, operator.truediv)
        reached.append({"workload": workload, "toolreg": ours, "peer": peer, "bound": bound, "ratio": ratio})
    if "catalog_diff" in results:
        measured = results["catalog_diff"][DIFF]["median"]
        reached.append(
            {"workload": "catalog_diff", "toolreg": DIFF, "bound_us": DIFF_BOUND_US, "us": measured}
        )
    overhead = paired(results, "small_valid", REGISTRY, TOOLREG_AS_WRITTEN, operator.sub)
    reached.append(
        {
            "workload": "small_valid",
            "toolreg": REGISTRY,
            "peer": TOOLREG_AS_WRITTEN,
            "bound_us": 0.1,
            "us": overhead,
        }
    )
    return reached


def markdown(report: dict[str, Any]) -> str:
    lines = [
        f"Measured {report['date']} with `make bench` on {report['machine']['cpu']} "
        f"({report['machine']['cores']} cores, {report['machine']['system']}), "
        f"{report['machine']['implementation']} {report['machine']['python']}; "
        + ", ".join(f"{name} {number}" for name, number in report["versions"].items())
        + ".",
        "",
        "| workload | implementation | median µs | min µs | max µs | toolreg ÷ this |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for workload, rows in report["results"].items():
        ours = (
            rows[TOOLREG]["median"]
            if TOOLREG in rows
            else rows.get("toolreg register (with schema check)", rows.get(DIFF, {"median": 0.0}))["median"]
        )
        for name, row in sorted(rows.items(), key=lambda item: item[1]["median"]):
            ratio = ours / row["median"] if row["median"] else float("inf")
            numbers = f"{row['median']:,.2f} | {row['min']:,.2f} | {row['max']:,.2f}"
            lines.append(f"| {workload} | {name} | {numbers} | {ratio:.2f} |")
    lines += [
        "",
        "Each goal is the median over the rounds of the ratio (or difference) of its two rows, timed in "
        "the same round.",
        "",
        "| goal | ratio (same run) | bound | met |",
        "|---|---:|---:|---|",
    ]
    for goal in report["goals"]:
        if "us" in goal and "peer" not in goal:
            met = "yes" if goal["us"] <= goal["bound_us"] else "no"
            seconds, bound = goal["us"] / 1e6, goal["bound_us"] / 1e6
            lines.append(
                f"| {goal['workload']}: {goal['toolreg']} | {seconds:.2f} s | ≤ {bound:g} s | {met} |"
            )
        elif "us" in goal:
            lines.append(
                f"| {goal['workload']}: {goal['toolreg']} over {goal['peer']} | {goal['us']:.3f} µs "
                f"| {goal['bound_us']} µs | {'yes' if goal['us'] <= goal['bound_us'] else 'no'} |"
            )
        else:
            met = "yes" if goal["ratio"] <= goal["bound"] else "no"
            what = f"{goal['workload']}: {goal['toolreg']} ÷ {goal['peer']}"
            lines.append(f"| {what} | {goal['ratio']:.2f} | ≤ {goal['bound']} | {met} |")
    return "\n".join(lines) + "\n"


def chart(report: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    workloads = [workload for workload in report["results"] if workload != "catalog_diff"]  # no peers
    figure, grid = plt.subplots(2, 3, figsize=(16, 9))
    for axis, workload in zip(grid.flat, workloads, strict=True):
        rows = sorted(report["results"][workload].items(), key=lambda item: item[1]["median"])
        names = [name for name, _ in rows]
        values = [row["median"] for _, row in rows]
        colours = ["tab:orange" if name.startswith("toolreg") else "tab:blue" for name in names]
        axis.barh(names, values, color=colours)
        axis.set_xscale("log")
        axis.set_title(workload)
        axis.set_xlabel("median µs per call (log)" if workload != "catalog" else "median µs, 200 tools (log)")
        axis.tick_params(axis="y", labelsize=8)
    machine = report["machine"]
    figure.suptitle(f"toolreg and peers, {report['date']} ({machine['cpu']}, Python {machine['python']})")
    figure.tight_layout()
    figure.savefig(path, dpi=90)
    plt.close(figure)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds and shorter batches")
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent, help="where results go")
    options = parser.parse_args(argv)
    rounds, batch_ms = (5, 2.0) if options.quick else (15, 8.0)

    workloads = {
        "small_valid": (SMALL["schema"], SMALL["valid"], handwritten_small, 0),
        "small_invalid": (SMALL["schema"], SMALL["invalid"], handwritten_small, SMALL["errors"]),
        "nested_valid": (NESTED["schema"], NESTED["valid"], handwritten_nested, 0),
        "large_valid": (LARGE["schema"], LARGE["valid"], handwritten_large, 0),
        "large_invalid": (LARGE["schema"], LARGE["invalid"], handwritten_large, LARGE["errors"]),
    }
    results: dict[str, dict[str, dict[str, Any]]] = {}
    for workload, (schema, instance, handwritten, expected) in workloads.items():
        calls = implementations(schema, handwritten)
        for name, call in calls.items():
            if "floor" in name and "hand" not in name:
                continue
            valid, count = _verdict(call(instance))
            if valid is not (expected == 0) or (
                count is not None and "first" not in name and count != expected
            ):
                print(
                    f"{workload}: {name} answered {valid}/{count}, expected {expected} errors",
                    file=sys.stderr,
                )
                return 1
        print(f"timing {workload} ...", file=sys.stderr, flush=True)
        results[workload] = summarise(time_calls(calls, instance, rounds, batch_ms))
    print("timing catalog ...", file=sys.stderr, flush=True)
    results["catalog"] = summarise(time_catalog(rounds))
    versions = catalog_versions()
    if versions is None:
        print("skipping catalog_diff: ../shared/tool-schemas/corpus.jsonl is absent", file=sys.stderr)
    else:
        print("timing catalog_diff ...", file=sys.stderr, flush=True)
        results["catalog_diff"] = summarise(time_diff(*versions, max(3, rounds // 2)))

    report = {
        "date": date.today().isoformat(),
        "machine": _machine(),
        "versions": _versions(),
        "rounds": rounds,
        "results": results,
    }
    report["goals"] = goals(results)
    options.out.mkdir(parents=True, exist_ok=True)
    (options.out / "results.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    table = markdown(report)
    (options.out / "results.md").write_text(table, encoding="utf-8")
    chart(report, options.out / "results.png")
    print(table)
    print(f"wrote {options.out / 'results.json'}, results.md and results.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
