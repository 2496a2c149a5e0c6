"""Child processes that answer JSON requests one line at a time, within a time limit.

A property test sends each example to a child: toolreg itself, so that a crash or a runaway
allocation fails the example instead of ending the test run, and the oracles (regress, which can
crash on a random pattern; node's V8, where installed), so that an oracle's crash is counted and
skipped. ``python -m tests.sandbox toolreg`` and ``python -m tests.sandbox regress`` are the
Python children; each caps its own address space at MEMORY_CAP before it reads a request. (A
preexec_fn would run Python between fork and exec, which may deadlock the child of a process with
threads, as pytest's workers are.)
"""

from __future__ import annotations

import json
import os
import re
import selectors
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from bench.hostile_patterns import MEMORY_CAP, limit_memory

_ROOT = Path(__file__).resolve().parent.parent


class Sandbox:
    """One child at a time: :meth:`ask` sends a request and returns its answer, or None when the
    child died or did not answer in time (the next request starts a fresh child)."""

    def __init__(self, command: list[str], *, timeout: float) -> None:
        self.command = command
        self.timeout = timeout
        self.failures = 0
        self.process: subprocess.Popen[bytes] | None = None
        self.buffer = b""

    def ask(self, request: Any) -> Any:
        if self.process is None:
            self.process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                cwd=_ROOT,
            )
            self.buffer = b""
        assert self.process.stdin is not None and self.process.stdout is not None
        try:
            self.process.stdin.write(json.dumps(request).encode() + b"\n")
            self.process.stdin.flush()
        except BrokenPipeError:
            return self.failed()
        with selectors.DefaultSelector() as selector:
            selector.register(self.process.stdout, selectors.EVENT_READ)
            while b"\n" not in self.buffer:
                if not selector.select(self.timeout):
                    return self.failed()
                chunk = os.read(self.process.stdout.fileno(), 1 << 16)
                if not chunk:
                    return self.failed()
                self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)

    def failed(self) -> None:
        self.failures += 1
        self.close()
        return None

    def close(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            for pipe in (self.process.stdin, self.process.stdout):
                if pipe is not None:
                    pipe.close()
            self.process = None


def python_child(name: str, *, timeout: float) -> Sandbox:
    return Sandbox([sys.executable, "-m", "tests.sandbox", name], timeout=timeout)


# ECMA-262's search tried at each code point boundary with the sticky flag: V8 otherwise also tries
# the place between the halves of a surrogate pair when a match may be empty. Without the u flag
# when asked, for Annex B's reading of escapes.
_NODE_SEARCH = """
const lines = require("readline").createInterface({input: process.stdin});
function search(regex, text) {
  for (let index = 0; ; ) {
    regex.lastIndex = index;
    if (regex.test(text)) return true;
    if (index >= text.length) return false;
    index += text.codePointAt(index) > 0xffff ? 2 : 1;
  }
}
lines.on("line", line => {
  const {pattern, texts, unicode} = JSON.parse(line);
  let regex = null;
  try { regex = new RegExp(pattern, unicode === false ? "y" : "uy"); } catch (error) {}
  console.log(JSON.stringify(regex === null ? null : texts.map(text => search(regex, text))));
});
"""


def node_child(*, timeout: float) -> Sandbox | None:
    """V8 as an oracle, or None where node is not installed."""
    node = shutil.which("node")
    return None if node is None else Sandbox([node, "-e", _NODE_SEARCH], timeout=timeout)


# -- the children --------------------------------------------------------------------------------


def _toolreg(request: dict[str, Any]) -> dict[str, Any]:
    """Registers ``pattern`` (as ``pattern``, under ``patternProperties`` and as a string under
    ``format: regex``) and validates ``texts``; any exception outside toolreg's family is reported."""
    import toolreg

    pattern, texts = request["pattern"], request["texts"]
    if not _REGEX_FORMAT:
        _REGEX_FORMAT.append(toolreg.compile({"format": "regex"}, assert_formats=True))
    limits = {"allow_backtracking_patterns": request["backtracking"]}
    answer: dict[str, Any] = {"refused": None, "verdicts": None, "names": None, "unexpected": None}
    from toolreg._jsonschema.regex import Pattern

    try:
        # None where the check ran out of its work budget (a pattern of hundreds of kilobytes can).
        checked = _REGEX_FORMAT[0].validate(pattern)
        answer["regex"] = None if any(error.keyword == "limit" for error in checked) else not checked
        try:
            validator = toolreg.compile({"pattern": pattern}, limits=limits)
        except toolreg.SchemaError as error:
            answer["refused"] = str(error)
            return answer
        answer["verdicts"] = [validator.is_valid(text) for text in texts]
        answer["engine"] = "regress" if Pattern(pattern).backtracking else "RE2"
        properties = toolreg.compile(
            {"patternProperties": {pattern: False}, "additionalProperties": True}, limits=limits
        )
        answer["names"] = [not properties.is_valid({text: 1}) for text in texts]
    except Exception as error:  # the failure this test looks for
        answer["unexpected"] = f"{type(error).__name__}: {error}"
    return answer


_REGEX_FORMAT: list[Any] = []  # the validator of format regex, made once in a child
_SURROGATE_OR_STAND_IN = re.compile("[\ud800-\udfff\U000f0000-\U000f07ff]")
_TELLS_THEM_APART = re.compile(r"Cs|Co|Surrogate|Private_Use|\\u\{?0*[dDfF][0-9a-fA-F]{3}|\\u\{0*1")


def _regress(request: dict[str, Any]) -> dict[str, Any]:
    """regress's verdicts in Unicode mode (None where it cannot judge), or the error it refuses the
    pattern with. It reads UTF-8, so a lone surrogate U+D800+k goes to it as U+F0000+k, for a pattern
    that cannot tell the two apart."""
    import regress

    # A lone surrogate written as itself, which UTF-8 cannot carry, is written as its escape.
    pattern = re.sub("[\ud800-\udfff]", lambda found: f"\\u{{{ord(found.group()):x}}}", request["pattern"])
    try:
        compiled = regress.Regex(pattern, "u")
    except regress.RegressError as error:
        return {"error": str(error)}
    if _TELLS_THEM_APART.search(pattern) or _SURROGATE_OR_STAND_IN.search(pattern):
        # Where the pattern names surrogates, regress cannot be asked about them, and it misjudges
        # some such patterns even on other strings (\uD800* finds no empty match).
        return {"verdicts": [None] * len(request["texts"])}
    verdicts: list[bool | None] = []
    for text in request["texts"]:
        if re.search("[\ud800-\udfff]", text):
            text = "".join(
                chr(ord(char) + 0xF0000 - 0xD800) if "\ud800" <= char <= "\udfff" else char for char in text
            )
        verdicts.append(compiled.find(text) is not None)
    return {"verdicts": verdicts}


# regress's own limits: a pattern it refuses for them is valid ECMA-262 all the same.
REGRESS_LIMITS = ("too deeply nested",)


_CHILDREN = {"toolreg": _toolreg, "regress": _regress}


def serve(name: str) -> None:
    limit_memory(MEMORY_CAP)
    answer = _CHILDREN[name]
    for line in sys.stdin:
        print(json.dumps(answer(json.loads(line))), flush=True)


if __name__ == "__main__":
    serve(sys.argv[1])
