"""The Berkeley Function Calling Leaderboard's questions read from the installed ``bfcl-eval`` package:
each question's function schemas (in the leaderboard's own dialect) and its gold calls.

``python -m bench.bfcl_extract`` writes the small extract the tests use, ``tests/data/bfcl/``, from the
installed package (``pip install --no-deps bfcl-eval==2026.3.23``: its data files are all that is read),
or from ``--data DIR``, the package's ``data`` folder.

BFCL v4 keeps one JSON object a line: ``BFCL_v4_<category>.json`` holds the questions
(``{"id", "question", "function": [{"name", "description", "parameters"}]}``) and
``possible_answer/BFCL_v4_<category>.json`` the gold calls (``{"id", "ground_truth": [{name: {param:
[acceptable values...]}}]}``, where ``""`` among a parameter's values means it may be left out).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import toolreg

__all__ = ["VERSION", "data_dir", "questions", "gold_call", "catalog", "extract"]

VERSION = "2026.3.23"
ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "bfcl"
# The categories whose gold calls are plain: one answer per question, in Python's types.
CATEGORIES = ("simple_python", "multiple", "parallel", "parallel_multiple", "live_simple", "live_multiple")


def data_dir(given: Path | None = None) -> Path | None:
    """The ``data`` folder of the installed ``bfcl_eval`` package (found without importing it, which
    would import its many dependencies), or ``given``; None when neither is there."""
    if given is not None:
        return given if given.is_dir() else None
    spec = importlib.util.find_spec("bfcl_eval")
    if spec is None or not spec.submodule_search_locations:
        return None
    found = Path(next(iter(spec.submodule_search_locations))) / "data"
    return found if found.is_dir() else None


def _rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def gold_call(ground_truth: dict[str, Any]) -> dict[str, Any] | None:
    """One gold call (``{name: {param: [values]}}``) as ``{"name", "arguments"}``: each parameter's
    first acceptable value, and a parameter whose first value is ``""`` (may be left out) left out."""
    ((name, parameters),) = ground_truth.items()
    if not isinstance(parameters, dict):
        return None
    arguments = {}
    for parameter, values in parameters.items():
        if not isinstance(values, list) or not values:
            return None
        if values[0] != "":
            arguments[parameter] = values[0]
    return {"name": name, "arguments": arguments}


def questions(data: Path, categories: tuple[str, ...] = CATEGORIES) -> list[dict[str, Any]]:
    """Every question of those categories whose gold calls are all valid against its schemas as
    ``toolreg.normalize_bfcl`` reads them: ``{"id", "functions", "calls"}``, in file order."""
    found = []
    for category in categories:
        answers = {
            row["id"]: row["ground_truth"]
            for row in _rows(data / "possible_answer" / f"BFCL_v4_{category}.json")
        }
        for row in _rows(data / f"BFCL_v4_{category}.json"):
            truth = answers.get(row["id"])
            if not truth:
                continue
            calls = [gold_call(item) for item in truth]
            functions = row["function"]
            if _all_valid(functions, calls):
                found.append({"id": row["id"], "functions": functions, "calls": calls})
    return found


def _all_valid(functions: list[dict[str, Any]], calls: list[dict[str, Any] | None]) -> bool:
    schemas = {}
    for function in functions:
        try:
            schemas[function["name"]] = toolreg.compile(toolreg.normalize_bfcl(function["parameters"]))
        except toolreg.ToolregError:
            return False
    return all(
        call is not None and call["name"] in schemas and not schemas[call["name"]].validate(call["arguments"])
        for call in calls
    )


def catalog(found: list[dict[str, Any]], size: int) -> list[dict[str, Any]]:
    """The first ``size`` distinct functions of the questions (the first schema of each name), as MCP
    tools with their schemas normalised."""
    tools: dict[str, dict[str, Any]] = {}
    for question in found:
        for function in question["functions"]:
            if function["name"] not in tools and len(tools) < size:
                schema = toolreg.normalize_bfcl(function["parameters"])
                tools[function["name"]] = {
                    "name": function["name"],
                    "description": function.get("description", ""),
                    "inputSchema": schema,
                }
    return list(tools.values())


def extract(data: Path, per_category: int = 10) -> list[dict[str, Any]]:
    """The tests' extract: the first ``per_category`` usable questions of each category, each with the
    functions its gold calls call and one other at most (live questions offer dozens)."""
    chosen = []
    for category in CATEGORIES:
        for question in questions(data, (category,))[:per_category]:
            called = {call["name"] for call in question["calls"]}
            others = [function for function in question["functions"] if function["name"] not in called][:1]
            kept = [function for function in question["functions"] if function["name"] in called] + others
            chosen.append({**question, "functions": kept})
    return chosen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bfcl_extract", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--data", type=Path, help="bfcl_eval's data folder (default: the installed package's)"
    )
    parser.add_argument("--out", type=Path, default=OUT, help="where the extract goes")
    options = parser.parse_args(argv)
    data = data_dir(options.data)
    if data is None:
        print("bfcl-eval is not installed: pip install --no-deps bfcl-eval==2026.3.23", file=sys.stderr)
        return 2
    chosen = extract(data)
    options.out.mkdir(parents=True, exist_ok=True)
    text = "".join(json.dumps(question, ensure_ascii=False, sort_keys=True) + "\n" for question in chosen)
    (options.out / "questions.jsonl").write_text(text, encoding="utf-8")
    print(f"wrote {len(chosen)} questions to {options.out / 'questions.jsonl'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
