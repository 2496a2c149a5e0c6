"""``python -m bench.repair``: calls a model breaks as models do, repaired only where the schema allows
exactly one reading.

The Berkeley Function Calling Leaderboard's gold calls (the installed ``bfcl-eval`` package, see
``bench/bfcl_extract.py``, or ``--data DIR``) are each broken once, by one operator the call's schema
makes applicable, chosen with a fixed seed: a number sent as a string, a boolean sent as a string, an
object or array sent as its JSON text, a one-item array's scalar sent alone, ``null`` for an optional
property the call leaves out, an enum's string member sent as the number (or boolean) it spells, a
trailing comma in the arguments' JSON text; and two that no repair may undo, a required property
dropped and a value outside an enum. A break that leaves the call valid is not counted.

Each broken call is answered by ``ToolRegistry.answer(..., provider="openai", repair=True)``, its
arguments sent as JSON text, and by ``json_repair`` (pinned in ``bench/requirements.txt``) in its
schema mode and its salvage mode. A repairable break counts as *restored* when the tool gets the gold
arguments exactly (the same JSON types: ``10`` is not ``10.0``, nor ``true`` 1); as *wrong* when it
gets other arguments that the schema accepts; an unrepairable one as *made valid* when the repairer
hands on arguments the schema accepts, values it invented. It prints the table in Markdown, which
``make bench`` writes to ``bench/repair.md``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import toolreg

from .bfcl_extract import data_dir, questions

SEED = 20260323
# Each operator, and whether its break has exactly one reading a repair may restore.
OPERATORS: dict[str, bool] = {
    "number as string": True,
    "boolean as string": True,
    "object or array as JSON text": True,
    "scalar for a one-item array": True,
    "null for an optional property": True,
    "enum member as its number": True,
    "trailing comma in the text": True,
    "required property dropped": False,
    "value outside the enum": False,
}
Tokens = tuple[str | int, ...]
# A break: the arguments' JSON text as sent (a trailing comma exists only as text).
Break = Callable[[Any], str]


# -- where each operator applies ---------------------------------------------------------------------


def _places(value: Any, schema: Any, tokens: Tokens = ()) -> Iterator[tuple[Tokens, Any, dict[str, Any]]]:
    """Every value of the gold arguments with its place and the schema that applies to it there (the
    leaderboard's schemas nest only through ``properties`` and ``items``)."""
    schema = schema if isinstance(schema, dict) else {}
    yield tokens, value, schema
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        for name, item in value.items():
            yield from _places(item, properties.get(name, {}), (*tokens, name))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _places(item, schema.get("items", {}), (*tokens, index))


def _replaced(value: Any, tokens: Tokens, new: Any, *, drop: bool = False) -> Any:
    if not tokens:
        return new
    copy: Any = dict(value) if isinstance(value, dict) else list(value)
    head, rest = tokens[0], tokens[1:]
    if rest:
        copy[head] = _replaced(value[head], rest, new, drop=drop)
    elif drop:
        del copy[head]
    else:
        copy[head] = new
    return copy


def _text_with_comma(value: Any, tokens: Tokens, at: Tokens = ()) -> str:
    """The JSON text of ``value`` with a trailing comma after the last item of the container at ``tokens``."""
    comma = "," if at == tokens else ""
    if isinstance(value, dict):
        inner = ", ".join(
            f"{json.dumps(name)}: {_text_with_comma(item, tokens, (*at, name))}"
            for name, item in value.items()
        )
        return "{" + inner + comma + "}"
    if isinstance(value, list):
        inner = ", ".join(_text_with_comma(item, tokens, (*at, index)) for index, item in enumerate(value))
        return "[" + inner + comma + "]"
    return json.dumps(value)


def _json_scalar(text: str) -> tuple[Any] | None:
    """The number or boolean a string spells in JSON, or None."""
    try:
        read = json.loads(text, parse_constant=lambda name: None)
    except (ValueError, RecursionError):
        return None
    return (read,) if isinstance(read, (bool, int, float)) and read is not None else None


def breaks(arguments: dict[str, Any], schema: dict[str, Any]) -> dict[str, list[Break]]:
    """For each operator that applies to these gold arguments, one break for each place it applies."""
    found: dict[str, list[Break]] = {name: [] for name in OPERATORS}

    def at(tokens: Tokens, new: Any, drop: bool = False) -> Break:
        return lambda gold: json.dumps(_replaced(gold, tokens, new, drop=drop))

    for tokens, value, below in _places(arguments, schema):
        kind = type(value)
        if kind in (int, float):
            found["number as string"].append(at(tokens, json.dumps(value)))
        elif kind is bool:
            found["boolean as string"].append(at(tokens, json.dumps(value)))
        if kind in (dict, list) and tokens:
            found["object or array as JSON text"].append(at(tokens, json.dumps(value)))
        if kind is list and len(value) == 1 and not isinstance(value[0], (dict, list)):
            found["scalar for a one-item array"].append(at(tokens, value[0]))
        if kind in (dict, list) and value:
            found["trailing comma in the text"].append(
                lambda gold, tokens=tokens: _text_with_comma(gold, tokens)
            )
        enum = below.get("enum")
        if kind is str and isinstance(enum, list) and value in enum:
            spelled = _json_scalar(value)
            if spelled is not None:
                found["enum member as its number"].append(at(tokens, spelled[0]))
            outside = value.swapcase() if value.swapcase() not in enum else "none of these"
            found["value outside the enum"].append(at(tokens, outside))
        if kind is dict:
            required = below.get("required", [])
            for name in below.get("properties", {}):
                if name not in value and name not in required:
                    found["null for an optional property"].append(at((*tokens, name), None))
            for name in required:
                if name in value:
                    found["required property dropped"].append(at((*tokens, name), None, drop=True))
    return {name: made for name, made in found.items() if made}


def broken_calls(data: Path) -> Iterator[tuple[str, dict[str, Any], dict[str, Any], str]]:
    """Each gold call broken once: (operator, schema, gold arguments, arguments text as sent), seeded.
    A break that leaves the call valid is dropped and another tried."""
    chooser = random.Random(SEED)
    for question in questions(data):
        schemas = {function["name"]: function["parameters"] for function in question["functions"]}
        for call in question["calls"]:
            schema = toolreg.normalize_bfcl(schemas[call["name"]])
            validator = toolreg.compile(schema)
            gold = call["arguments"]
            options = breaks(gold, schema)
            while options:
                operator = chooser.choice(sorted(options))
                made = options[operator]
                text = made.pop(chooser.randrange(len(made)))(gold)
                if not made:
                    del options[operator]
                try:
                    still_valid = not validator.validate(json.loads(text))
                except ValueError:  # a trailing comma: no JSON
                    still_valid = False
                if not still_valid:
                    yield operator, schema, gold, text
                    break


# -- the repairers -----------------------------------------------------------------------------------


def same(left: Any, right: Any) -> bool:
    """Equal as JSON values of the same JSON types (``10`` is not ``10.0``, nor ``true`` 1)."""
    if type(left) is not type(right):
        return False
    if isinstance(left, dict):
        return left.keys() == right.keys() and all(same(left[name], right[name]) for name in left)
    if isinstance(left, list):
        return len(left) == len(right) and all(map(same, left, right))
    return bool(left == right)


# What a repairer hands on for a broken call: the arguments the tool would get, or None (refused).
Repairer = Callable[[dict[str, Any], str], Any]


def toolreg_repairer(schema: dict[str, Any], text: str) -> Any:
    """``ToolRegistry.answer`` with ``repair=True``, an OpenAI tool call whose arguments are ``text``:
    what the handler got, or None when it did not run."""
    tools = toolreg.ToolRegistry()
    got: list[dict[str, Any]] = []

    def handler(**arguments: Any) -> str:
        got.append(arguments)
        return "done"

    tools.register("tool", schema, handler=handler)
    call = {"id": "c", "type": "function", "function": {"name": "tool", "arguments": text}}
    tools.answer(call, provider="openai", repair=True)
    return got[0] if got else None


def json_repair_repairer(mode: str) -> Repairer | None:
    """``json_repair.repair_json`` with the schema, in ``mode``; None when json_repair is not installed."""
    try:
        import json_repair
    except ImportError:
        return None

    def repaired(schema: dict[str, Any], text: str) -> Any:
        try:
            return json_repair.repair_json(text, return_objects=True, schema=schema, schema_repair_mode=mode)
        except Exception:
            return None

    return repaired


def judged(
    repairer: Repairer, cases: list[tuple[str, dict[str, Any], dict[str, Any], str]]
) -> dict[str, Counter[str]]:
    """Each operator's outcomes: restored, wrong or left for repairable breaks; made valid or refused
    for the others. Valid as toolreg's validator judges (toolreg's own repairer runs the tool only then)."""
    outcomes: dict[str, Counter[str]] = {name: Counter() for name in OPERATORS}
    validators: dict[str, Any] = {}
    for operator, schema, gold, text in cases:
        got = repairer(schema, text)
        key = json.dumps(schema, sort_keys=True)
        validator = validators.get(key) or validators.setdefault(key, toolreg.compile(schema))
        valid = isinstance(got, dict) and not validator.validate(got)
        if OPERATORS[operator]:
            outcome = "restored" if valid and same(got, gold) else "wrong" if valid else "left"
        else:
            outcome = "made valid" if valid else "refused"
        outcomes[operator][outcome] += 1
        if outcome == "wrong" and set(got) - set(gold):
            outcomes[operator]["adds a property"] += 1
    return outcomes


# -- the table -----------------------------------------------------------------------------------------


def table(results: dict[str, dict[str, Counter[str]] | None]) -> str:
    """The outcomes by break, then by repairer, in Markdown."""
    names = list(results)
    lines = [
        "| break | can be restored | calls | " + " | ".join(f"{name}: restored" for name in names) + " |",
        "|---|---|---:|" + "---:|" * len(names),
    ]
    counted = next(result for result in results.values() if result is not None)
    for operator, repairable in OPERATORS.items():
        calls = sum(counted[operator].values())
        cells = []
        for result in results.values():
            if result is None:
                cells.append("not installed")
            elif repairable:
                outcome = result[operator]
                also = f", {outcome['wrong']} wrong" if outcome["wrong"] else ""
                cells.append(f"{outcome['restored']}{also}")
            else:
                cells.append(f"{result[operator]['made valid']} made valid")
        lines.append(
            f"| {operator} | {'yes' if repairable else 'no'} | {calls} | " + " | ".join(cells) + " |"
        )
    repairable_calls = sum(sum(counted[name].values()) for name, ok in OPERATORS.items() if ok)
    other_calls = sum(sum(counted[name].values()) for name, ok in OPERATORS.items() if not ok)
    lines += ["", "| repairer | restored exactly | wrong repairs | unrepairable made valid |"]
    lines.append("|---|---:|---:|---:|")
    for name, result in results.items():
        if result is None:
            lines.append(f"| {name} | not installed (`pip install -r bench/requirements.txt`) | | |")
            continue
        restored = sum(result[op]["restored"] for op, ok in OPERATORS.items() if ok)
        wrong = sum(result[op]["wrong"] for op, ok in OPERATORS.items() if ok)
        adding = sum(result[op]["adds a property"] for op, ok in OPERATORS.items() if ok)
        wrong_said = f"{wrong} ({adding} add a property the call left out)" if adding else f"{wrong}"
        invented = sum(result[op]["made valid"] for op, ok in OPERATORS.items() if not ok)
        share = f"{restored} of {repairable_calls} ({100 * restored / repairable_calls:.1f}%)"
        lines.append(f"| {name} | {share} | {wrong_said} | {invented} of {other_calls} |")
    lines += [
        "",
        "A string holding a JSON array of strings, sent for an array of strings, also reads as the array of "
        "that one string: both fit, so toolreg leaves it to the model, and the rows above count it as not "
        "restored.",
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.repair", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--data", type=Path, help="bfcl_eval's data folder (default: the installed package's)"
    )
    options = parser.parse_args(argv)
    data = data_dir(options.data)
    if data is None:
        print("bfcl-eval is not installed: pip install --no-deps bfcl-eval==2026.3.23", file=sys.stderr)
        return 2
    cases = list(broken_calls(data))
    repairers: dict[str, Repairer | None] = {
        "toolreg (repair=True)": toolreg_repairer,
        "json_repair, schema mode": json_repair_repairer("standard"),
        "json_repair, salvage mode": json_repair_repairer("salvage"),
    }
    results = {
        name: None if repairer is None else judged(repairer, cases) for name, repairer in repairers.items()
    }
    intro = (
        f"BFCL v4 gold calls ({len(cases)}), each broken once (seed {SEED}) by an operator its schema makes "
        "applicable; `python -m bench.repair` (see its docstring for what each column counts).\n\n"
    )
    print(intro + table(results), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
